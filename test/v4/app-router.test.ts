// gatehouse/v4's NextAuth as an app-router route handler (app/api/auth/[...nextauth]/route.ts: `export { handler as
// GET, handler as POST }`) called with NextRequests and `{ params }` as Next calls it, and getServerSession(options) in
// the app router, which reads the request through next/headers: outside a running Next app next/headers is replaced
// here by the two calls it makes (headers() and cookies()), backed by a Headers object and a recorded cookie store.
import { NextRequest } from "next/server.js"
import { beforeEach, describe, expect, it, vi } from "vitest"
import NextAuth, {
  getServerSession,
  type Session,
  unstable_getServerSession,
} from "../../src/integrations/next-v4/index.js"
import type { JWT } from "../../src/integrations/next-v4/jwt.js"
import { nextAuthV4Jwt } from "../support/next-auth-v4.js"
import { parseSetCookie } from "../support/set-cookie.js"
import { ALICE, appAtPublicOrigin, gatehouseOptions, PUBLIC_ORIGIN, V4_SECRET } from "./kit.js"

const scope = vi.hoisted(() => ({
  headers: new Headers(),
  set: [] as { name: string; value: string }[],
}))

vi.mock("next/headers.js", () => ({
  headers: async () => scope.headers,
  cookies: async () => ({
    set(name: string, value: string) {
      scope.set.push({ name, value })
    },
  }),
}))

const SESSION = "next-auth.session-token"
appAtPublicOrigin()
beforeEach(() => {
  scope.set = []
})

const options = gatehouseOptions()
const handler = NextAuth(options) as (request: NextRequest, context: unknown) => Promise<Response>

/** Cookies of a client of the route handler. */
const jar = new Map<string, string>()
const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ")

async function call(
  segments: string[],
  init: { method?: string; form?: Record<string, string>; json?: Record<string, string>; search?: string } = {},
) {
  const headers = new Headers()
  if (jar.size) headers.set("cookie", cookieHeader())
  let body: string | undefined
  if (init.form) {
    headers.set("content-type", "application/x-www-form-urlencoded")
    body = new URLSearchParams(init.form).toString()
  } else if (init.json) {
    headers.set("content-type", "application/json")
    body = JSON.stringify(init.json)
  }
  const request = new NextRequest(`${PUBLIC_ORIGIN}/api/auth/${segments.join("/")}${init.search ?? ""}`, {
    method: init.method ?? (body ? "POST" : "GET"),
    headers,
    body,
  })
  // Next 15+ passes params as a promise.
  const response = await handler(request, { params: Promise.resolve({ nextauth: segments }) })
  for (const raw of response.headers.getSetCookie()) {
    const c = parseSetCookie(raw)
    if (c.attrs["max-age"] === "0" || c.value === "") jar.delete(c.name)
    else jar.set(c.name, encodeURIComponent(c.value))
  }
  const text = await response.text()
  return {
    status: response.status,
    location: response.headers.get("location"),
    text,
    json: text ? JSON.parse(text) : undefined,
  }
}

describe("gatehouse/v4 NextAuth in the app router", () => {
  it("signs in with credentials (json=true in a form and in a JSON body), reads the session, signs out", async () => {
    expect((await call(["session"])).json).toEqual({})
    const { csrfToken } = (await call(["csrf"])).json
    expect(jar.has("next-auth.csrf-token")).toBe(true)

    const wrong = await call(["callback", "credentials"], {
      form: { csrfToken, username: "alice", password: "nope", json: "true" },
    })
    expect([wrong.status, wrong.json]).toEqual([
      401,
      { url: `${PUBLIC_ORIGIN}/api/auth/error?error=CredentialsSignin&provider=credentials` },
    ])
    expect(wrong.location).toBeNull()

    const ok = await call(["callback", "credentials"], {
      json: { csrfToken, username: "alice", password: "password", json: "true", callbackUrl: `${PUBLIC_ORIGIN}/home` },
    })
    expect([ok.status, ok.json]).toEqual([200, { url: `${PUBLIC_ORIGIN}/home` }])
    const token = decodeURIComponent(jar.get(SESSION) ?? "")
    expect(await nextAuthV4Jwt().decode({ token, secret: V4_SECRET })).toMatchObject({ sub: ALICE.id })

    const session = await call(["session"])
    expect(session.json).toMatchObject({ user: { name: ALICE.name, email: ALICE.email } })
    expect(typeof session.json.expires).toBe("string")

    const signOut = await call(["signout"], { form: { csrfToken, callbackUrl: `${PUBLIC_ORIGIN}/bye` } })
    expect([signOut.status, signOut.location]).toEqual([302, `${PUBLIC_ORIGIN}/bye`])
    expect(jar.has(SESSION)).toBe(false)
    expect((await call(["session"])).json).toEqual({})
  })

  it("takes the action from params.nextauth, whatever path the route file sits at", async () => {
    const request = new NextRequest(`${PUBLIC_ORIGIN}/somewhere/else?x=1`)
    const response = await handler(request, { params: { nextauth: ["providers"] } })
    expect(response.status).toBe(200)
    expect(Object.keys(await response.json())).toEqual(["credentials"])
  })

  it("NextAuth(request, { params }, options) handles one request", async () => {
    const request = new NextRequest(`${PUBLIC_ORIGIN}/api/auth/csrf`)
    const response = (await NextAuth(request, { params: Promise.resolve({ nextauth: ["csrf"] }) }, options)) as Response
    expect(response.status).toBe(200)
    expect(Object.keys(await response.json())).toEqual(["csrfToken"])
  })
})

describe("getServerSession(options) in the app router", () => {
  it("answers the session without expires, null when signed out, and sets a re-issued cookie through cookies()", async () => {
    const token = await nextAuthV4Jwt().encode({
      token: { sub: ALICE.id, name: ALICE.name, email: ALICE.email },
      secret: V4_SECRET,
    })
    scope.headers = new Headers({ host: "localhost:3000", cookie: `${SESSION}=${token}` })
    const session = await getServerSession(options)
    expect(session).toEqual({ user: { name: ALICE.name, email: ALICE.email } })

    const eager = gatehouseOptions({ session: { updateAge: 0 } })
    await getServerSession(eager)
    expect(scope.set.map((c) => c.name)).toEqual([SESSION])
    expect(await nextAuthV4Jwt().decode({ token: scope.set[0]?.value, secret: V4_SECRET })).toMatchObject({
      sub: ALICE.id,
    })

    scope.headers = new Headers({ host: "localhost:3000" })
    expect(await getServerSession(options)).toBeNull()
  })

  it("runs the session callback, and takes the secret from NEXTAUTH_SECRET with no options at all", async () => {
    const token = await nextAuthV4Jwt().encode({ token: { sub: ALICE.id, email: ALICE.email }, secret: V4_SECRET })
    scope.headers = new Headers({ host: "localhost:3000", cookie: `${SESSION}=${token}` })
    const shaped = await getServerSession({
      ...options,
      callbacks: {
        session: ({ session, token }: { session: Session; token: JWT }) => ({ ...session, id: token.sub }),
      },
    })
    expect(shaped).toMatchObject({ id: ALICE.id, user: { email: ALICE.email } })
    expect(shaped).not.toHaveProperty("expires")

    // No secret anywhere: a configuration error, thrown as next-auth 4 throws it.
    await expect(getServerSession()).rejects.toThrow()
    process.env.NEXTAUTH_SECRET = V4_SECRET
    try {
      // A fresh options object: the secret is read from the environment when its config is first derived.
      expect(await getServerSession({})).toMatchObject({ user: { email: ALICE.email } })
    } finally {
      delete process.env.NEXTAUTH_SECRET
    }
  })

  it("unstable_getServerSession is the same read, with one deprecation warning", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
    scope.headers = new Headers({ host: "localhost:3000" })
    expect(await unstable_getServerSession(options)).toBeNull()
    expect(await unstable_getServerSession(options)).toBeNull()
    expect(warn).toHaveBeenCalledTimes(1)
    warn.mockRestore()
  })
})
