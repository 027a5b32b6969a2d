// gatehouse/v4/react called from server code (getServerSideProps, API routes): getSession({ req }) and
// getCsrfToken({ req }) send the request's Cookie header to NEXTAUTH_URL_INTERNAL, else NEXTAUTH_URL, as next-auth 4's
// next-auth/react does; checked beside next-auth/react itself against next-auth 4.24.15's routes and gatehouse/v4's.
import { createServer } from "node:http"
import { createRequire } from "node:module"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import * as v4 from "../../src/react/v4/index.js"
import { listenLocal } from "../support/listen.js"
import { nextAuthV4Module } from "../support/next-auth-v4.js"
import { startV4Server } from "./support/v4-react-kit.js"
import type { V4Server, V4ServerKind } from "./support/v4-react-kit.js"

type ServerHelpers = Pick<typeof v4, "getSession" | "getCsrfToken">

/** Signs alice in over HTTP as a browser would; answers the Cookie header that carries her session. */
async function signedInCookie(origin: string): Promise<string> {
  const csrf = await fetch(`${origin}/api/auth/csrf`)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const csrfCookie = csrf.headers.getSetCookie().map((c) => c.split(";")[0])
  const res = await fetch(`${origin}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie.join("; ") },
    body: new URLSearchParams({ csrfToken, username: "alice", password: "wonderland", json: "true" }),
  })
  expect(res.status).toBe(200)
  const session = res.headers.getSetCookie().find((c) => c.startsWith("next-auth.session-token="))
  expect(session).toBeDefined()
  return [...csrfCookie, session!.split(";")[0]].join("; ")
}

describe.each([
  ["next-auth", "next-auth 4.24.15"],
  ["gatehouse", "gatehouse/v4's NextAuth"],
] as [V4ServerKind, string][])("server-side helpers against %s (%s)", (kind) => {
  let server: V4Server
  let cookie: string
  let nextAuthReact: ServerHelpers
  // A server nothing should reach: NEXTAUTH_URL points here when NEXTAUTH_URL_INTERNAL must win.
  let unused: { origin: string; hits: number; stop(): Promise<void> }

  beforeAll(async () => {
    server = await startV4Server(kind, new Map())
    cookie = await signedInCookie(server.origin)
    const listening = await listenLocal(
      createServer((_req, res) => {
        unused.hits += 1
        res.writeHead(500).end("{}")
      }),
    )
    unused = { origin: listening.origin, hits: 0, stop: listening.stop }
    // next-auth/react reads its URLs when it loads: load it afresh with NEXTAUTH_URL_INTERNAL set, as in the last test.
    const cache = createRequire(import.meta.url).cache
    for (const key of Object.keys(cache)) if (key.includes("/next-auth/react/")) delete cache[key]
    process.env.NEXTAUTH_URL_INTERNAL = `${server.origin}/api/auth`
    nextAuthReact = nextAuthV4Module<ServerHelpers>("react")
    delete process.env.NEXTAUTH_URL_INTERNAL
  })
  afterAll(async () => {
    await unused?.stop()
    await server?.stop()
  })
  afterEach(() => {
    process.env.NEXTAUTH_URL = `${server.origin}/api/auth`
    delete process.env.NEXTAUTH_URL_INTERNAL
  })

  it("getSession({ req }) reads the session of the request's cookies from NEXTAUTH_URL; without cookies it is null", async () => {
    const session = await v4.getSession({ req: { headers: { cookie } } })
    expect(session).toMatchObject({ user: { name: "Alice", email: "alice@example.com" }, version: 1 })
    expect(typeof session?.expires).toBe("string")
    expect(await v4.getSession({ req: { headers: {} } })).toBeNull()
    expect(await v4.getSession()).toBeNull()
  })

  it("{ ctx: { req } } (getInitialProps) and a web Request's Headers work too", async () => {
    expect(await v4.getSession({ ctx: { req: { headers: { cookie } } } })).toMatchObject({ user: { name: "Alice" } })
    expect(await v4.getSession({ req: { headers: new Headers({ cookie }) } })).toMatchObject({
      user: { name: "Alice" },
    })
  })

  it("getCsrfToken({ req }) answers the token of the request's CSRF cookie", async () => {
    const token = await v4.getCsrfToken({ req: { headers: { cookie } } })
    const fromCookie = decodeURIComponent(cookie.match(/next-auth\.csrf-token=([^;]+)/)![1]!).split("|")[0]
    expect(token).toBe(fromCookie)
  })

  it("NEXTAUTH_URL_INTERNAL wins over NEXTAUTH_URL, and the answers equal next-auth/react's", async () => {
    process.env.NEXTAUTH_URL = `${unused.origin}/api/auth`
    process.env.NEXTAUTH_URL_INTERNAL = `${server.origin}/api/auth`
    const ours = await v4.getSession({ req: { headers: { cookie } } })
    const theirs = await nextAuthReact.getSession({ req: { headers: { cookie } } })
    expect(ours).toMatchObject({ user: { name: "Alice" } })
    expect({ ...ours, expires: undefined }).toEqual({ ...theirs, expires: undefined })
    expect(await v4.getCsrfToken({ req: { headers: { cookie } } })).toBe(
      await nextAuthReact.getCsrfToken({ req: { headers: { cookie } } }),
    )
    expect(unused.hits).toBe(0)
  })
})
