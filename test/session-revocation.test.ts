// gatehouse/sessions on JWT sessions (session.revocation, memory store): real credentials sign-ins through Auth(),
// then listSessions / revokeSession / revokeUserSessions, sign-out, replays, store failures, the local cache and the
// integrations' server-side reads (docs/security.md SR-01..SR-12).
import { afterEach, describe, expect, it, vi } from "vitest"
import { Auth } from "../src/index.js"
import type { AuthConfig, JWT } from "../src/index.js"
import { RevocationNotEnabled, UnsupportedStrategy } from "../src/errors.js"
import { decode } from "../src/jwt/index.js"
import { listSessions, revokeSession, revokeUserSessions } from "../src/sessions.js"
import { getSession as nodeGetSession } from "../src/integrations/node.js"
import { ExpressAuth, getSession as expressGetSession } from "../src/integrations/express.js"
import { getAuthUser, initAuthConfig } from "../src/integrations/hono.js"
import { Hono } from "hono"
import express5 from "express"
import { serve } from "./integrations/express-kit.js"
import type { SharedStore } from "../src/stores/index.js"
import { MemoryStore } from "../src/stores/memory.js"
import { createServer } from "node:http"
import { CookieJar, credentialsSetup, fetchCsrf, get, postForm, SECRET, signIn } from "./support/flow-kit.js"
import { isDeletion, setCookieList } from "./support/cookies.js"
import { listenLocal } from "./support/listen.js"

const COOKIE = "authjs.session-token"

afterEach(() => {
  vi.useRealTimers()
})

/** A credentials config (alice, bob) with revocation on over its own memory store. */
function setup(revocation: AuthConfig["session"] extends infer S ? unknown : never = true, store?: SharedStore) {
  const memory = MemoryStore()
  return { ...credentialsSetup({ session: { revocation: revocation as never }, store: store ?? memory }), memory }
}

async function sessionOf(
  config: AuthConfig,
  jar: CookieJar,
): Promise<{ body: Record<string, unknown> | null; res: Response }> {
  const res = await Auth(get("/auth/session", { cookie: jar.header() }), config)
  return { body: (await res.json()) as Record<string, unknown> | null, res }
}

const as = (username: string) => ({ username, password: "password" })

/** The sid inside a jar's session cookie. */
async function sidOf(jar: CookieJar): Promise<string> {
  const token = (await decode({ token: jar.cookies.get(COOKIE)!, secret: SECRET, salt: COOKIE })) as JWT
  return token.sid as string
}

function clearsCookie(res: Response): boolean {
  return setCookieList(res).some((c) => c.name === COOKIE && isDeletion(c))
}

describe("gatehouse/sessions, JWT strategy", () => {
  it("SR-01: a session is listed from its sign-in, before any read; the id is the token's sid and no part of the cookie", async () => {
    const { config } = setup()
    const ua = { "user-agent": "Browser/1.0" }
    const a1 = await signIn(config, as("alice"), undefined, new CookieJar())
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const a2 = await Auth(
      postForm("/auth/callback/credentials", { csrfToken, ...as("alice") }, { cookie: jar.header(), headers: ua }),
      config,
    )
    jar.store(a2)
    await signIn(config, as("bob"))
    const list = await listSessions(config, "user-1")
    expect(list).toHaveLength(2)
    expect(list.map((s) => s.sessionId).sort()).toEqual([await sidOf(a1.jar), await sidOf(jar)].sort())
    // Newest first, with the sign-in's user agent; dates as Dates.
    expect(list[0]).toMatchObject({ sessionId: await sidOf(jar), userAgent: "Browser/1.0" })
    expect(list[0]!.createdAt).toBeInstanceOf(Date)
    expect(list[0]!.expires.valueOf()).toBeGreaterThan(Date.now() + 29 * 86400_000)
    expect(list[0]!.lastSeenAt).toBeUndefined()
    for (const s of list) {
      expect(s.sessionId).toMatch(/^[A-Za-z0-9_-]{22}$/)
      for (const cookie of [a1.jar.cookies.get(COOKIE)!, jar.cookies.get(COOKIE)!])
        expect(cookie).not.toContain(s.sessionId)
    }
    expect(await listSessions(config, "user-2")).toHaveLength(1)
    expect(await listSessions(config, "nobody")).toEqual([])
    // `current`: from a web Request or from bare headers.
    const fromRequest = await listSessions(config, "user-1", { request: get("/", { cookie: jar.header() }) })
    expect(fromRequest.filter((s) => s.current).map((s) => s.sessionId)).toEqual([await sidOf(jar)])
    const fromHeaders = await listSessions(config, "user-1", { request: new Headers({ cookie: a1.jar.header() }) })
    expect(fromHeaders.filter((s) => s.current).map((s) => s.sessionId)).toEqual([await sidOf(a1.jar)])
  })

  it("SR-02: revokeSession ends that one cookie only (cleared on its next read); the user's other session and other users go on", async () => {
    const { config } = setup()
    const a1 = (await signIn(config, as("alice"))).jar
    const a2 = (await signIn(config, as("alice"))).jar
    const b = (await signIn(config, as("bob"))).jar
    // Read once, so each "not revoked" answer is cached in this process.
    for (const jar of [a1, a2, b]) expect((await sessionOf(config, jar)).body).not.toBeNull()
    expect(await revokeSession(config, await sidOf(a1))).toBe(true)
    const refused = await sessionOf(config, a1)
    expect(refused.body).toBeNull()
    expect(clearsCookie(refused.res)).toBe(true)
    expect((await sessionOf(config, a2)).body).toMatchObject({ user: { email: "alice@example.com" } })
    expect((await sessionOf(config, b)).body).toMatchObject({ user: { email: "bob@example.com" } })
    expect((await listSessions(config, "user-1")).map((s) => s.sessionId)).toEqual([await sidOf(a2)])
    // Ending it again finds nothing.
    expect(await revokeSession(config, await sidOf(a1))).toBe(false)
  })

  it("SR-03: revokeUserSessions ends every session of the user, keeps `except`, leaves other users; a new sign-in works at once", async () => {
    const { config } = setup()
    const a1 = (await signIn(config, as("alice"))).jar
    const a2 = (await signIn(config, as("alice"))).jar
    const a3 = (await signIn(config, as("alice"))).jar
    const b = (await signIn(config, as("bob"))).jar
    expect(await revokeUserSessions(config, "user-1", { except: await sidOf(a3) })).toBe(2)
    expect((await sessionOf(config, a1)).body).toBeNull()
    expect((await sessionOf(config, a2)).body).toBeNull()
    expect((await sessionOf(config, a3)).body).not.toBeNull()
    expect(await revokeUserSessions(config, "user-1")).toBe(1)
    expect((await sessionOf(config, a3)).body).toBeNull()
    expect((await sessionOf(config, b)).body).not.toBeNull()
    expect(await listSessions(config, "user-1")).toEqual([])
    const again = (await signIn(config, as("alice"))).jar
    expect((await sessionOf(config, again)).body).toMatchObject({ user: { email: "alice@example.com" } })
    expect((await listSessions(config, "user-1")).map((s) => s.sessionId)).toEqual([await sidOf(again)])
  })

  it("SR-04: a revoked cookie replayed 15 days later, long past every cache, is still refused", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() })
    const { config } = setup()
    const a = (await signIn(config, as("alice"))).jar
    const copy = a.header()
    expect(await revokeUserSessions(config, "user-1")).toBe(1)
    vi.setSystemTime(Date.now() + 15 * 86400_000)
    const res = await Auth(get("/auth/session", { cookie: copy }), config)
    expect(await res.json()).toBeNull()
    // The cookie itself is still within its 30 days: only the revocation refuses it.
    const token = await decode({ token: a.cookies.get(COOKIE)!, secret: SECRET, salt: COOKIE })
    expect(token?.sub).toBe("user-1")
  })

  it("SR-05: an unknown, forged or foreign id revokes nothing", async () => {
    const { config } = setup()
    const a = (await signIn(config, as("alice"))).jar
    const b = (await signIn(config, as("bob"))).jar
    const cookie = a.cookies.get(COOKIE)!
    for (const id of ["AAAAAAAAAAAAAAAAAAAAAA", cookie, cookie.slice(0, 22), "", "../x", "gatehouse:revoked:x"])
      expect(await revokeSession(config, id)).toBe(false)
    // Bob's id, named by a request acting for alice, ends nothing either.
    expect(await revokeSession(config, await sidOf(b), { userId: "user-1" })).toBe(false)
    expect((await sessionOf(config, a)).body).not.toBeNull()
    expect((await sessionOf(config, b)).body).not.toBeNull()
    expect(await listSessions(config, "user-1")).toHaveLength(1)
    expect(await listSessions(config, "user-2")).toHaveLength(1)
  })

  it("SR-06: sign-out ends the session everywhere: a copy of the cookie taken before gives no session after", async () => {
    const { config, signOut } = setup()
    const a = (await signIn(config, as("alice"))).jar
    const copy = a.header()
    const csrfToken = await fetchCsrf(config, a)
    const out = await Auth(postForm("/auth/signout", { csrfToken }, { cookie: a.header() }), config)
    expect(out.status).toBe(302)
    expect(signOut).toHaveBeenCalledTimes(1)
    expect(await (await Auth(get("/auth/session", { cookie: copy }), config)).json()).toBeNull()
    expect(await listSessions(config, "user-1")).toEqual([])
  })

  it("SR-07: a sign-in over an existing session ends the session it replaces", async () => {
    const { config } = setup()
    const { jar } = await signIn(config, as("alice"))
    const before = jar.header()
    await signIn(config, as("alice"), undefined, jar)
    expect(await (await Auth(get("/auth/session", { cookie: before }), config)).json()).toBeNull()
    expect((await sessionOf(config, jar)).body).not.toBeNull()
    expect((await listSessions(config, "user-1")).map((s) => s.sessionId)).toEqual([await sidOf(jar)])
  })

  it("SR-08: a store that fails: deny answers no session and keeps the cookie (logged once); allow serves the session", async () => {
    const memory = MemoryStore()
    let failing = false
    const flaky: SharedStore = {
      claim: (...a) => memory.claim(...a),
      set: (...a) => memory.set(...a),
      delete: (...a) => memory.delete(...a),
      get: (key) =>
        failing && key.startsWith("gatehouse:revoked:") ? Promise.reject(new Error("down")) : memory.get(key),
    }
    const deny = setup({ cacheSeconds: 0 }, flaky)
    const allow = setup({ onStoreError: "allow", cacheSeconds: 0 }, flaky)
    const d = (await signIn(deny.config, as("alice"))).jar
    const a = (await signIn(allow.config, as("alice"))).jar
    failing = true
    for (let i = 0; i < 3; i++) {
      const { body, res } = await sessionOf(deny.config, d)
      expect(body).toBeNull()
      expect(res.headers.getSetCookie()).toEqual([])
    }
    expect(deny.log.types().filter((t) => t === "AdapterError")).toHaveLength(1)
    expect((await sessionOf(allow.config, a)).body).toMatchObject({ user: { email: "alice@example.com" } })
    failing = false
    expect((await sessionOf(deny.config, d)).body).not.toBeNull()
  })

  it("SR-09: under deny, a sign-in whose session cannot be listed fails and sets no session cookie", async () => {
    const memory = MemoryStore()
    const broken: SharedStore = {
      ...memory,
      claim: () => Promise.reject(new Error("down")),
      get: memory.get,
      set: () => Promise.reject(new Error("down")),
      delete: memory.delete,
    }
    const { config } = setup(true, broken)
    const { res } = await signIn(config, as("alice"))
    expect(setCookieList(res).filter((c) => c.name === COOKIE && !isDeletion(c))).toEqual([])
  })

  it("SR-10: the session id survives a jwt callback that returns a new token without it", async () => {
    const { config } = setup()
    config.callbacks = { jwt: ({ token }) => ({ sub: token.sub, email: token.email, role: "admin" }) }
    const a = (await signIn(config, as("alice"))).jar
    const sid = (await listSessions(config, "user-1"))[0]!.sessionId
    expect(await sidOf(a)).toBe(sid)
    // Update (POST /session) re-issues the cookie through the callback: the id stays.
    const csrfToken = await fetchCsrf(config, a)
    const res = await Auth(postForm("/auth/session", { csrfToken, data: "{}" }, { cookie: a.header() }), config)
    a.store(res)
    expect(await sidOf(a)).toBe(sid)
    expect(await revokeSession(config, sid)).toBe(true)
    expect((await sessionOf(config, a)).body).toBeNull()
  })

  it("SR-11: a revocation through another config on the same store is seen at once in this process; across stores without notifications within cacheSeconds", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() })
    // Two configs on one memory store: the local cache is per store, so the second config sees it at once.
    const one = setup()
    const two = { ...one.config }
    const a = (await signIn(one.config, as("alice"))).jar
    expect((await sessionOf(two, a)).body).not.toBeNull()
    await revokeUserSessions(one.config, "user-1")
    expect((await sessionOf(two, a)).body).toBeNull()

    // A second "process": its own view of the same data (a store object without notifications), with a 2 s cache.
    const shared = MemoryStore()
    const view = (): SharedStore => ({
      claim: (...x) => shared.claim(...x),
      get: (k) => shared.get(k),
      set: (...x) => shared.set(...x),
      delete: (k) => shared.delete(k),
    })
    const p1 = setup({ cacheSeconds: 2 }, view())
    const p2 = setup({ cacheSeconds: 2 }, view())
    const jar = (await signIn(p1.config, as("alice"))).jar
    expect((await sessionOf(p2.config, jar)).body).not.toBeNull()
    expect(await revokeUserSessions(p1.config, "user-1")).toBe(1)
    expect((await sessionOf(p1.config, jar)).body).toBeNull()
    // p2 trusts its cached answer for at most cacheSeconds.
    vi.setSystemTime(Date.now() + 2_001)
    expect((await sessionOf(p2.config, jar)).body).toBeNull()
  })

  it("SR-12: every integration's server-side read respects revocation (node and Express getSession over HTTP, Hono getAuthUser)", async () => {
    const { config } = setup()
    const a = (await signIn(config, as("alice"))).jar
    const b = (await signIn(config, as("alice"))).jar
    const node = await listenLocal(
      createServer(async (req, res) => {
        res.setHeader("content-type", "application/json")
        res.end(JSON.stringify(await nodeGetSession(req, config, res)))
      }),
    )
    const app = express5()
    app.use("/auth", ExpressAuth(config))
    app.get("/me", async (req, res) => void res.json(await expressGetSession(req, config)))
    const exp = await serve(app)
    const hono = new Hono()
    hono.use(
      "*",
      initAuthConfig(() => config),
    )
    hono.get("/me", async (c) => c.json((await getAuthUser(c))?.session ?? null))
    try {
      const reads = (jar: CookieJar) =>
        Promise.all([
          fetch(`${node.origin}/me`, { headers: { cookie: jar.header() } }).then((r) => r.json()),
          fetch(`${exp.origin}/me`, { headers: { cookie: jar.header() } }).then((r) => r.json()),
          Promise.resolve(hono.request("http://localhost:3000/me", { headers: { cookie: jar.header() } })).then((r) =>
            r.json(),
          ),
        ])
      // Each read once before the revocation (each integration's config caches its "not revoked" answer).
      for (const session of await reads(a)) expect(session).toMatchObject({ user: { email: "alice@example.com" } })
      expect(await revokeSession(config, await sidOf(a))).toBe(true)
      expect(await reads(a)).toEqual([null, null, null])
      for (const session of await reads(b)) expect(session).toMatchObject({ user: { email: "alice@example.com" } })
    } finally {
      await node.stop()
      await exp.stop()
    }
  })

  it("SR-20: past 100 sessions a sign-in ends the oldest, so no live session is ever left out of the list", async () => {
    const { config } = setup()
    const first = (await signIn(config, as("alice"))).jar
    const second = (await signIn(config, as("alice"))).jar
    for (let i = 0; i < 99; i++) await signIn(config, as("alice"))
    const list = await listSessions(config, "user-1")
    expect(list).toHaveLength(100)
    expect(list.map((s) => s.sessionId)).not.toContain(await sidOf(first))
    expect((await sessionOf(config, first)).body).toBeNull()
    expect((await sessionOf(config, second)).body).not.toBeNull()
    expect(await revokeUserSessions(config, "user-1")).toBe(100)
    expect((await sessionOf(config, second)).body).toBeNull()
  })

  it("SR-18: turned on later, sessions issued before are listed at their first read and can then be revoked", async () => {
    const store = MemoryStore()
    const off = credentialsSetup({ store }).config
    const a = (await signIn(off, as("alice"))).jar
    const on = { ...off, session: { revocation: true } }
    expect(await listSessions(on, "user-1")).toEqual([])
    expect((await sessionOf(on, a)).body).not.toBeNull()
    expect((await listSessions(on, "user-1")).map((s) => s.sessionId)).toEqual([await sidOf(a)])
    expect(await revokeUserSessions(on, "user-1")).toBe(1)
    expect((await sessionOf(on, a)).body).toBeNull()
  })
  it("SR-21: a memory store filled past maxEntries by other keys keeps its revocations and session lists", async () => {
    const store = MemoryStore({ maxEntries: 50 })
    const { config } = setup(true, store)
    const revoked = (await signIn(config, as("alice"))).jar
    const kept = (await signIn(config, as("alice"))).jar
    expect(await revokeSession(config, await sidOf(revoked))).toBe(true)
    // What an anonymous visitor can make the store hold (spent passkey challenges, refresh locks), many times over.
    for (let i = 0; i < 500; i++) await store.set(`gatehouse:webauthn:challenge:${i}`, "1", 300)
    await new Promise((r) => setTimeout(r, 1100)) // past cacheSeconds: the store is asked again
    expect((await sessionOf(config, revoked)).body).toBeNull()
    expect((await sessionOf(config, kept)).body).not.toBeNull()
    expect((await listSessions(config, "user-1")).map((s) => s.sessionId)).toEqual([await sidOf(kept)])
    expect(await store.get("gatehouse:webauthn:challenge:0")).toBeNull()
  })
})

describe("session.revocation: off, and its config", () => {
  it("SR-13: off by default: a sid is minted anyway, the session check makes no store call, and gatehouse/sessions refuses", async () => {
    const memory = MemoryStore()
    const calls: string[] = []
    const counting: SharedStore = {
      claim: (k, ...r) => (calls.push(k), memory.claim(k, ...r)),
      get: (k) => (calls.push(k), memory.get(k)),
      set: (k, ...r) => (calls.push(k), memory.set(k, ...r)),
      delete: (k) => (calls.push(k), memory.delete(k)),
    }
    const { config } = credentialsSetup({ store: counting })
    const a = (await signIn(config, as("alice"))).jar
    expect(await sidOf(a)).toMatch(/^[A-Za-z0-9_-]{22}$/)
    calls.length = 0
    expect((await sessionOf(config, a)).body).not.toBeNull()
    expect(calls).toEqual([])
    await expect(listSessions(config, "user-1")).rejects.toBeInstanceOf(RevocationNotEnabled)
    await expect(revokeSession(config, await sidOf(a))).rejects.toBeInstanceOf(RevocationNotEnabled)
    await expect(revokeUserSessions(config, "user-1")).rejects.toBeInstanceOf(RevocationNotEnabled)
  })

  it("refuses bad values as a configuration error naming the option", async () => {
    for (const bad of ["yes", { onStoreError: "open" }, { cacheSeconds: -1 }, { cacheSeconds: 9999 }, { cache: 1 }]) {
      const { config } = credentialsSetup({ session: { revocation: bad as never } })
      const error = await listSessions(config, "user-1").catch((e: unknown) => e)
      expect(error).toBeInstanceOf(UnsupportedStrategy)
      expect((error as Error).message).toContain("session.revocation")
      const res = await Auth(get("/auth/session"), config)
      expect(res.status).toBe(500)
    }
  })
})
