// SR-12 for the front doors test/session-revocation.test.ts does not cover (docs/security.md): each signs alice in
// twice (credentials, JWT strategy, session.revocation on, one MemoryStore per test), reads both sessions through
// the front door's own server-side API, revokes one with gatehouse/sessions' revokeSession, and reads again: the
// revoked cookie gives no session, the other still gives alice's.
import { createServer } from "node:http"
import { NextRequest } from "next/server.js"
import { beforeEach, describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import type { AuthConfig, JWT } from "../../src/index.js"
import { decode } from "../../src/jwt/index.js"
import { revokeSession } from "../../src/sessions.js"
import { MemoryStore } from "../../src/stores/memory.js"
import NextAuth, { type NextAuthConfig } from "../../src/integrations/next.js"
import { getServerSession } from "../../src/integrations/next-v4/index.js"
import { v4Config } from "../../src/integrations/next-v4/config.js"
import { decode as v4Decode } from "../../src/integrations/next-v4/jwt.js"
import { SvelteKitAuth } from "../../src/integrations/sveltekit/index.js"
import { getSession as solidGetSession } from "../../src/integrations/solid-start.js"
import { onRequestFor, type QwikEvent } from "../../src/integrations/qwik/handlers.js"
import Credentials from "../../src/providers/credentials.js"
import { CookieJar, credentialsSetup, get, postForm, SECRET, signIn } from "../support/flow-kit.js"
import { listenLocal } from "../support/listen.js"
import { setDev } from "../support/sveltekit/environment.js"
import { setBase } from "../support/sveltekit/paths.js"
import { get as kitGet, runHandle } from "./sveltekit-kit.js"

const COOKIE = "authjs.session-token"
const V4_COOKIE = "next-auth.session-token"
const ALICE = { user: { name: "Alice", email: "alice@example.com" } }
const as = (username: string) => ({ username, password: "password" })

/** A credentials config (alice, bob) on the JWT strategy with revocation on over its own memory store. */
function setup(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return credentialsSetup({ session: { strategy: "jwt", revocation: true }, store: MemoryStore(), ...overrides }).config
}

/** The sid inside a jar's Auth.js-format session cookie. */
async function sidOf(jar: CookieJar): Promise<string> {
  const token = (await decode({ token: jar.cookies.get(COOKIE)!, secret: SECRET, salt: COOKIE })) as JWT
  expect(typeof token.sid).toBe("string")
  return token.sid as string
}

/** Two sign-ins of alice: the jar whose session gets revoked and the one that stays. */
async function twoSessions(config: AuthConfig): Promise<{ revoked: CookieJar; kept: CookieJar }> {
  const revoked = (await signIn(config, as("alice"))).jar
  const kept = (await signIn(config, as("alice"))).jar
  expect(revoked.cookies.get(COOKIE)).toBeTruthy()
  expect(kept.cookies.get(COOKIE)).toBeTruthy()
  expect(await sidOf(revoked)).not.toBe(await sidOf(kept))
  return { revoked, kept }
}

describe("gatehouse/next", () => {
  it("SR-12: auth(handler) gives req.auth null for a revoked session and the session for the other", async () => {
    const config = setup()
    const { auth } = NextAuth(config)
    const route = auth((req) => Response.json(req.auth))
    const read = async (jar: CookieJar) =>
      (await route(new NextRequest("http://localhost:3000/api/me", { headers: { cookie: jar.header() } }), {})).json()
    const { revoked, kept } = await twoSessions(config)
    expect(await read(revoked)).toMatchObject(ALICE)
    expect(await read(kept)).toMatchObject(ALICE)
    expect(await revokeSession(config, await sidOf(revoked))).toBe(true)
    expect(await read(revoked)).toBeNull()
    expect(await read(kept)).toMatchObject(ALICE)
  })

  it("SR-12: auth(request) as middleware sends a revoked session to sign in and lets the other through", async () => {
    const config: NextAuthConfig = { ...setup(), callbacks: { authorized: ({ auth }) => auth !== null } }
    const { auth } = NextAuth(config)
    const read = (jar: CookieJar) =>
      auth(new NextRequest("http://localhost:3000/dashboard", { headers: { cookie: jar.header() } }))
    const through = (res: Response) => [res.status, res.headers.get("x-middleware-next")]
    const { revoked, kept } = await twoSessions(config)
    expect(through(await read(revoked))).toEqual([200, "1"])
    expect(through(await read(kept))).toEqual([200, "1"])
    expect(await revokeSession(config, await sidOf(revoked))).toBe(true)
    const refused = await read(revoked)
    expect(refused.status).toBe(307)
    expect(new URL(refused.headers.get("location")!).pathname).toBe("/auth/signin")
    expect(through(await read(kept))).toEqual([200, "1"])
  })

  it("SR-12: auth(req, res) in the pages router answers null for a revoked session and the session for the other", async () => {
    const config = setup()
    const { auth } = NextAuth(config)
    const app = await listenLocal(
      createServer((req, res) => {
        auth(req, res).then(
          (session) => res.end(JSON.stringify(session)),
          () => res.writeHead(500).end(),
        )
      }),
    )
    try {
      const read = async (jar: CookieJar) =>
        (await fetch(`${app.origin}/api/me`, { headers: { cookie: jar.header() } })).json()
      const { revoked, kept } = await twoSessions(config)
      expect(await read(revoked)).toMatchObject(ALICE)
      expect(await read(kept)).toMatchObject(ALICE)
      expect(await revokeSession(config, await sidOf(revoked))).toBe(true)
      expect(await read(revoked)).toBeNull()
      expect(await read(kept)).toMatchObject(ALICE)
    } finally {
      await app.stop()
    }
  })
})

describe("gatehouse/v4", () => {
  it("SR-12: getServerSession(req, res, options) answers null for a revoked session and the session for the other", async () => {
    const authorize = (c: Record<string, unknown> | undefined) =>
      c?.username === "alice" && c.password === "password" ? { id: "user-1", ...ALICE.user } : null
    const options = {
      secret: SECRET,
      providers: [Credentials({ credentials: { username: {}, password: {} }, authorize })],
      session: { strategy: "jwt", revocation: true },
      store: MemoryStore(),
    } as any
    const config = v4Config(options)
    const signInV4 = async (): Promise<CookieJar> => {
      const jar = new CookieJar()
      const csrf = await Auth(get("/api/auth/csrf"), config)
      jar.store(csrf)
      const { csrfToken } = (await csrf.json()) as { csrfToken: string }
      jar.store(
        await Auth(
          postForm("/api/auth/callback/credentials", { csrfToken, ...as("alice") }, { cookie: jar.header() }),
          config,
        ),
      )
      expect(jar.cookies.get(V4_COOKIE)).toBeTruthy()
      return jar
    }
    const sid = async (jar: CookieJar) =>
      (await v4Decode({ token: jar.cookies.get(V4_COOKIE)!, secret: SECRET }))?.sid as string
    const app = await listenLocal(
      createServer((req, res) => {
        getServerSession(req as never, res as never, options).then(
          (session) => res.end(JSON.stringify(session)),
          () => res.writeHead(500).end(),
        )
      }),
    )
    try {
      const read = async (jar: CookieJar) =>
        (await fetch(`${app.origin}/api/me`, { headers: { cookie: jar.header() } })).json()
      const revoked = await signInV4()
      const kept = await signInV4()
      expect(await sid(revoked)).toMatch(/^[A-Za-z0-9_-]{22}$/)
      expect(await sid(revoked)).not.toBe(await sid(kept))
      expect(await read(revoked)).toMatchObject(ALICE)
      expect(await read(kept)).toMatchObject(ALICE)
      expect(await revokeSession(config, await sid(revoked))).toBe(true)
      expect(await read(revoked)).toBeNull()
      expect(await read(kept)).toMatchObject(ALICE)
    } finally {
      await app.stop()
    }
  })
})

describe("gatehouse/sveltekit", () => {
  beforeEach(() => {
    setDev(true)
    setBase("")
  })

  it("SR-12: event.locals.auth() after handle answers null for a revoked session and the session for the other", async () => {
    const config = setup()
    const { handle } = SvelteKitAuth(config)
    const read = async (jar: CookieJar) =>
      (await runHandle(handle, kitGet("/dashboard", { cookie: jar.header() }))).event.locals.auth()
    const { revoked, kept } = await twoSessions(config)
    expect(await read(revoked)).toMatchObject(ALICE)
    expect(await read(kept)).toMatchObject(ALICE)
    expect(await revokeSession(config, await sidOf(revoked))).toBe(true)
    expect(await read(revoked)).toBeNull()
    expect(await read(kept)).toMatchObject(ALICE)
  })
})

describe("gatehouse/solid-start", () => {
  it("SR-12: getSession(request, config) answers null for a revoked session and the session for the other", async () => {
    const config = setup()
    const read = (jar: CookieJar) => solidGetSession(get("/protected", { cookie: jar.header() }), config)
    const { revoked, kept } = await twoSessions(config)
    expect(await read(revoked)).toMatchObject(ALICE)
    expect(await read(kept)).toMatchObject(ALICE)
    expect(await revokeSession(config, await sidOf(revoked))).toBe(true)
    expect(await read(revoked)).toBeNull()
    expect(await read(kept)).toMatchObject(ALICE)
  })
})

describe("gatehouse/qwik", () => {
  /** A Qwik City request event for a page (not an auth route). */
  function pageEvent(cookie: string): QwikEvent {
    const url = "http://localhost:3000/dashboard"
    return {
      request: new Request(url, { headers: { cookie } }),
      url: new URL(url),
      env: { get: () => undefined },
      sharedMap: new Map(),
      headers: new Headers(),
      cookie: { append: () => {} },
      send: () => new Error("send"),
      redirect: () => new Error("redirect"),
    }
  }

  it("SR-12: the plugin's onRequest puts null in sharedMap('session') for a revoked session and the session for the other", async () => {
    const config = setup()
    const read = async (jar: CookieJar) => {
      const event = pageEvent(jar.header())
      await onRequestFor(config, event)
      expect(event.sharedMap.has("session")).toBe(true)
      return event.sharedMap.get("session")
    }
    const { revoked, kept } = await twoSessions(config)
    expect(await read(revoked)).toMatchObject(ALICE)
    expect(await read(kept)).toMatchObject(ALICE)
    expect(await revokeSession(config, await sidOf(revoked))).toBe(true)
    expect(await read(revoked)).toBeNull()
    expect(await read(kept)).toMatchObject(ALICE)
  })
})
