// `v4Cookies: "accept"` on every server-side session read, with a next-auth.session-token minted by next-auth 4.24.15's
// own credentials sign-in: gatehouse/next (the route handlers, auth(request) as middleware/proxy, auth(handler), and
// auth(req, res) in the pages router over node:http), gatehouse/node getSession over node:http, and gatehouse/hono
// verifyAuth over @hono/node-server. Each answers the session and carries the re-issued authjs.session-token and the
// expired v4 cookie to the browser. (auth() with no argument writes through next/headers: v4-next-headers.test.ts.)
import { createServer, type Server } from "node:http"
import { createAdaptorServer } from "@hono/node-server"
import { Hono } from "hono"
import { NextRequest } from "next/server.js"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import type { AuthConfig } from "../../src/index.js"
import { authHandler, initAuthConfig, verifyAuth } from "../../src/integrations/hono.js"
import NextAuth, { type NextAuthConfig } from "../../src/integrations/next.js"
import { getSession } from "../../src/integrations/node.js"
import Credentials from "../../src/providers/credentials.js"
import { type ParsedCookie, setCookieList } from "../support/cookies.js"
import { isolateEnv } from "../support/env.js"
import { alice } from "../support/flow-kit.js"
import { listenLocal } from "../support/listen.js"
import { cookieHeader, V4_SECRET, V4_SESSION, v4CredentialsSignIn } from "./v4-kit.js"

let restoreEnv: () => void
beforeEach(() => {
  restoreEnv = isolateEnv()
})
afterEach(() => restoreEnv())

const ORIGIN = "http://localhost:3000"
const SESSION = "authjs.session-token"

function config(overrides: Partial<NextAuthConfig> = {}): NextAuthConfig {
  return {
    secret: V4_SECRET,
    trustHost: true,
    v4Cookies: "accept",
    providers: [Credentials({ credentials: {}, authorize: () => null })],
    callbacks: { session: ({ session, token }) => ({ ...session, role: token.role }) },
    ...overrides,
  }
}

/** The re-issue and the expiry a read from the v4 cookie must send, and nothing else. */
function expectUpgraded(cookies: ParsedCookie[]): void {
  const byName = new Map(cookies.map((c) => [c.name, c]))
  expect([...byName.keys()].sort()).toEqual([SESSION, V4_SESSION])
  expect(byName.get(SESSION)?.value).not.toBe("")
  expect(byName.get(V4_SESSION)).toMatchObject({ value: "", attrs: { "max-age": "0", path: "/" } })
}

function nextRequest(path: string, cookie: string): NextRequest {
  return new NextRequest(`${ORIGIN}${path}`, { headers: { cookie } })
}

describe("gatehouse/next", () => {
  it("GET /api/auth/session through the route handlers", async () => {
    const cookie = cookieHeader(await v4CredentialsSignIn())
    const { handlers } = NextAuth(config())
    const res = await handlers.GET(nextRequest("/api/auth/session", cookie))
    expect(await res.json()).toMatchObject({ user: { email: alice.email }, role: "admin" })
    expectUpgraded(setCookieList(res))
  })

  it("auth(request) as middleware/proxy: authorized sees the session, the answer carries the cookies", async () => {
    const cookie = cookieHeader(await v4CredentialsSignIn())
    const seen: unknown[] = []
    const { auth } = NextAuth(
      config({
        callbacks: {
          session: ({ session, token }) => ({ ...session, role: token.role }),
          authorized: ({ auth }) => {
            seen.push(auth)
            return auth !== null
          },
        },
      }),
    )
    const res = await auth(nextRequest("/dashboard", cookie))
    expect(res.status).toBe(200)
    expect(res.headers.get("x-middleware-next")).toBe("1")
    expect(seen).toEqual([expect.objectContaining({ user: expect.objectContaining({ email: alice.email }) })])
    expectUpgraded(setCookieList(res))
    // Without the option the same request is sent to sign in, and no cookie is touched.
    const { auth: plain } = NextAuth(config({ v4Cookies: undefined, callbacks: { authorized: ({ auth }) => !!auth } }))
    const out = await plain(nextRequest("/dashboard", cookie))
    expect(out.status).toBe(307)
    expect(out.headers.getSetCookie()).toEqual([])
  })

  it("auth(handler): the wrapped route handler gets req.auth, its answer the cookies", async () => {
    const cookie = cookieHeader(await v4CredentialsSignIn())
    const { auth } = NextAuth(config())
    const GET = auth((req) => Response.json({ email: req.auth?.user?.email ?? null }))
    const res = await GET(nextRequest("/api/me", cookie), {})
    expect(await res.json()).toEqual({ email: alice.email })
    expectUpgraded(setCookieList(res))
  })

  it("auth(req, res) in the pages router, over node:http", async () => {
    const cookie = cookieHeader(await v4CredentialsSignIn())
    const { auth } = NextAuth(config())
    const app = await listenLocal(
      createServer((req, res) => {
        auth(req, res).then(
          (session) => res.end(JSON.stringify(session?.user?.email ?? null)),
          () => res.writeHead(500).end(),
        )
      }),
    )
    try {
      const res = await fetch(`${app.origin}/api/me`, { headers: { cookie } })
      expect(await res.json()).toBe(alice.email)
      expectUpgraded(setCookieList(res))
    } finally {
      await app.stop()
    }
  })
})

describe("gatehouse/node getSession", () => {
  it("reads the v4 cookie of a node request and appends the cookies to its response", async () => {
    const cookie = cookieHeader(await v4CredentialsSignIn())
    const cfg: AuthConfig = { ...config(), basePath: "/auth" }
    const app = await listenLocal(
      createServer((req, res) => {
        getSession(req, cfg, res).then(
          (session) => res.end(JSON.stringify(session)),
          () => res.writeHead(500).end(),
        )
      }),
    )
    try {
      const res = await fetch(`${app.origin}/me`, { headers: { cookie } })
      expect(await res.json()).toMatchObject({ user: { email: alice.email }, role: "admin" })
      expectUpgraded(setCookieList(res))
      const again = await fetch(`${app.origin}/me`, {
        headers: { cookie: `${SESSION}=${setCookieList(res).find((c) => c.name === SESSION)?.value}` },
      })
      expect(await again.json()).toMatchObject({ user: { email: alice.email } })
      expect(again.headers.getSetCookie()).toEqual([])
    } finally {
      await app.stop()
    }
  })
})

describe("gatehouse/hono verifyAuth", () => {
  it("lets the v4-signed-in request through with c.get('authUser'), the cookies on the route's answer", async () => {
    const cookie = cookieHeader(await v4CredentialsSignIn())
    const app = new Hono()
    app.use(
      "*",
      initAuthConfig(() => ({ ...config(), basePath: "/api/auth" })),
    )
    app.use("/api/auth/*", authHandler())
    app.use("/api/*", verifyAuth())
    app.get("/api/protected", (c) => c.json(c.get("authUser").token ?? null))
    const server = await listenLocal(createAdaptorServer({ fetch: app.fetch }) as Server)
    try {
      const res = await fetch(`${server.origin}/api/protected`, { headers: { cookie } })
      expect(res.status).toBe(200)
      expect(await res.json()).toMatchObject({ sub: "user-1", role: "admin" })
      expectUpgraded(setCookieList(res))
    } finally {
      await server.stop()
    }
  })
})
