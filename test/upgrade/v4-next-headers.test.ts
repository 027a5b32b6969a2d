// gatehouse/next's auth() with no argument (server components, route handlers, server actions) under
// `v4Cookies: "accept"`: it reads the request through next/headers `headers()` and writes cookies through `cookies()`.
// Outside a running Next app those need Next's request scope, so next/headers is replaced here by the two calls
// auth() makes, backed by a Headers object and a recorded cookie store; the session cookie is next-auth 4.24.15's own.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import NextAuth from "../../src/integrations/next.js"
import Credentials from "../../src/providers/credentials.js"
import { isolateEnv } from "../support/env.js"
import { alice } from "../support/flow-kit.js"
import { cookieHeader, V4_SECRET, V4_SESSION, v4CredentialsSignIn } from "./v4-kit.js"

const scope = vi.hoisted(() => ({
  headers: new Headers(),
  set: [] as { name: string; value: string; options: Record<string, unknown> }[],
  /** Next forbids setting cookies while a server component renders. */
  rendering: false,
}))

vi.mock("next/headers.js", () => ({
  headers: async () => scope.headers,
  cookies: async () => ({
    set(name: string, value: string, options: Record<string, unknown>) {
      if (scope.rendering) throw new Error("Cookies can only be modified in a Server Action or Route Handler.")
      scope.set.push({ name, value, options })
    },
  }),
}))

let restoreEnv: () => void
beforeEach(() => {
  restoreEnv = isolateEnv()
  scope.set = []
  scope.rendering = false
})
afterEach(() => restoreEnv())

function nextAuth(v4Cookies: "accept" | undefined) {
  return NextAuth({
    secret: V4_SECRET,
    trustHost: true,
    ...(v4Cookies ? { v4Cookies } : {}),
    providers: [Credentials({ credentials: {}, authorize: () => null })],
  })
}

describe("auth() through next/headers", () => {
  it("in a route handler: the session, with authjs.session-token set and the v4 cookie expired through cookies()", async () => {
    scope.headers = new Headers({ host: "localhost:3000", cookie: cookieHeader(await v4CredentialsSignIn()) })
    const session = await nextAuth("accept").auth()
    expect(session).toMatchObject({ user: { email: alice.email } })
    const byName = new Map(scope.set.map((c) => [c.name, c]))
    expect([...byName.keys()].sort()).toEqual(["authjs.session-token", V4_SESSION])
    expect(byName.get("authjs.session-token")?.value).not.toBe("")
    expect(byName.get(V4_SESSION)).toMatchObject({ value: "", options: { maxAge: 0, path: "/" } })
  })

  it("in a server component: the session all the same (the cookies wait for a request that may set them)", async () => {
    scope.headers = new Headers({ host: "localhost:3000", cookie: cookieHeader(await v4CredentialsSignIn()) })
    scope.rendering = true
    expect(await nextAuth("accept").auth()).toMatchObject({ user: { email: alice.email } })
    expect(scope.set).toEqual([])
  })

  it("without the option: signed out, nothing written", async () => {
    scope.headers = new Headers({ host: "localhost:3000", cookie: cookieHeader(await v4CredentialsSignIn()) })
    expect(await nextAuth(undefined).auth()).toBeNull()
    expect(scope.set).toEqual([])
  })
})
