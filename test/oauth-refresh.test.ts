// Access-token refresh for JWT sessions (`refreshAccessToken: true`, docs/guide.md "Keeping the access token
// fresh"): against a small OAuth 2 server on 127.0.0.1 whose token endpoint issues refresh_token + expires_in
// and honours the refresh_token grant (RFC 6749 §6) with rotation. Time is moved with a Date-only fake clock,
// so the HTTP servers keep running on real timers. The "shared store" block plays several app processes with
// several config objects sharing one store (memory, postgres on PGlite, redis with REDIS_URL).
import { PGlite } from "@electric-sql/pglite"
import { createClient } from "@redis/client"
import { createHash, randomBytes } from "node:crypto"
import { inspect } from "node:util"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest"
import { Auth } from "../src/index.js"
import type { AuthConfig, SharedStore } from "../src/index.js"
import { MemoryStore } from "../src/stores/memory.js"
import { PostgresStore, migrate as migrateStore } from "../src/stores/postgres.js"
import { RedisStore } from "../src/stores/redis.js"
import { decode, getToken } from "../src/jwt/index.js"
import { readServerSession } from "../src/integrations/session-read.js"
import { revokeSession } from "../src/sessions.js"
import type { OAuthConfigBase } from "../src/providers/types.js"
import { CookieJar, ORIGIN, SECRET, get } from "./support/flow-kit.js"
import {
  callback,
  sendJson,
  sendRedirect,
  sessionToken,
  setup,
  startLocalServer,
  startSignIn,
  visitProvider,
} from "./support/provider-kit.js"

const SESSION_COOKIE = "authjs.session-token"

// ---------------------------------------------------------------------------------------------
// A refresh-capable OAuth 2 server

interface RefreshServer {
  url: string
  clientId: string
  clientSecret: string
  /** `expires_in` of every issued access token. */
  expiresIn: number
  /** Issue a new refresh token on every refresh (old one revoked). */
  rotate: boolean
  /** Answer every refresh_token grant with 400 invalid_grant. */
  failRefresh: boolean
  /** Delay the refresh answer (widens the concurrency window). */
  refreshDelayMs: number
  /** Edits a successful refresh answer before it is sent (e.g. drop expires_in). */
  mangleRefresh: ((tokens: Record<string, unknown>) => void) | undefined
  /** Every refresh_token grant that reached the token endpoint. */
  refreshGrants: {
    refreshToken: string | null
    authorization: string | undefined
    status: number
    issued?: { access_token: string; refresh_token?: string }
  }[]
  codeGrants: number
  stop(): Promise<void>
}

async function startRefreshServer(): Promise<RefreshServer> {
  const codes = new Map<string, string>() // code -> redirect_uri
  const refreshTokens = new Set<string>()
  let n = 0
  const s: RefreshServer = {
    url: "",
    clientId: "refresh-client",
    clientSecret: `refresh-secret-${randomBytes(8).toString("hex")}`,
    expiresIn: 3600,
    rotate: true,
    failRefresh: false,
    refreshDelayMs: 0,
    mangleRefresh: undefined,
    refreshGrants: [],
    codeGrants: 0,
    stop: async () => {},
  }
  const issue = (withRefresh: boolean) => {
    n++
    const tokens: Record<string, unknown> = {
      access_token: `at-${n}-${randomBytes(6).toString("hex")}`,
      token_type: "Bearer",
      expires_in: s.expiresIn,
      scope: "read",
    }
    if (withRefresh) {
      const rt = `rt-${n}-${randomBytes(6).toString("hex")}`
      refreshTokens.add(rt)
      tokens.refresh_token = rt
    }
    return tokens
  }
  const server = await startLocalServer(async (req, res, r) => {
    if (r.method === "GET" && r.path === "/authorize") {
      const code = randomBytes(8).toString("hex")
      codes.set(code, r.query.get("redirect_uri") ?? "")
      const back = new URL(r.query.get("redirect_uri") ?? "")
      back.searchParams.set("code", code)
      if (r.query.has("state")) back.searchParams.set("state", r.query.get("state")!)
      return sendRedirect(res, r, back.href)
    }
    if (r.method === "POST" && r.path === "/token") {
      const body = new URLSearchParams(r.body)
      const expected = `Basic ${Buffer.from(`${s.clientId}:${s.clientSecret}`).toString("base64")}`
      const clientOk = req.headers.authorization === expected
      if (body.get("grant_type") === "refresh_token") {
        const record: RefreshServer["refreshGrants"][number] = {
          refreshToken: body.get("refresh_token"),
          authorization: req.headers.authorization,
          status: 0,
        }
        s.refreshGrants.push(record)
        if (s.refreshDelayMs) await new Promise((resolve) => setTimeout(resolve, s.refreshDelayMs))
        if (!clientOk) return sendJson(res, r, (record.status = 401), { error: "invalid_client" })
        const rt = body.get("refresh_token") ?? ""
        if (s.failRefresh || !refreshTokens.has(rt))
          return sendJson(res, r, (record.status = 400), {
            error: "invalid_grant",
            error_description: "refresh token revoked",
          })
        if (s.rotate) refreshTokens.delete(rt)
        const tokens = issue(s.rotate)
        s.mangleRefresh?.(tokens)
        record.status = 200
        record.issued = {
          access_token: tokens.access_token as string,
          ...(tokens.refresh_token ? { refresh_token: tokens.refresh_token as string } : {}),
        }
        return sendJson(res, r, 200, tokens)
      }
      if (body.get("grant_type") === "authorization_code") {
        s.codeGrants++
        if (!clientOk) return sendJson(res, r, 401, { error: "invalid_client" })
        const redirectUri = codes.get(body.get("code") ?? "")
        codes.delete(body.get("code") ?? "")
        if (!redirectUri || redirectUri !== body.get("redirect_uri"))
          return sendJson(res, r, 400, { error: "invalid_grant" })
        return sendJson(res, r, 200, issue(true))
      }
      return sendJson(res, r, 400, { error: "unsupported_grant_type" })
    }
    if (r.method === "GET" && r.path === "/me") {
      if (!/^Bearer at-/.test(req.headers.authorization ?? "")) return sendJson(res, r, 401, { error: "invalid_token" })
      return sendJson(res, r, 200, { id: "u-77", name: "Rae Refresh", email: "rae@refresh.example" })
    }
    sendJson(res, r, 404, { error: "not_found" })
  })
  s.url = server.url
  s.stop = server.stop
  return s
}

// ---------------------------------------------------------------------------------------------
// Setup

let srv: RefreshServer

beforeAll(async () => {
  srv = await startRefreshServer()
})
afterAll(async () => {
  await srv?.stop()
})
beforeEach(() => {
  srv.expiresIn = 3600
  srv.rotate = true
  srv.failRefresh = false
  srv.refreshDelayMs = 0
  srv.mangleRefresh = undefined
  srv.refreshGrants.length = 0
  srv.codeGrants = 0
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() })
})
afterEach(() => {
  vi.useRealTimers()
})

function provider(extra: Partial<OAuthConfigBase> = {}): OAuthConfigBase {
  return {
    id: "refresher",
    name: "Refresher",
    type: "oauth",
    clientId: srv.clientId,
    clientSecret: srv.clientSecret,
    authorization: { url: `${srv.url}/authorize`, params: { scope: "read" } },
    token: `${srv.url}/token`,
    userinfo: `${srv.url}/me`,
    refreshAccessToken: true,
    ...extra,
  }
}

/** A config for the provider with a spy logger and a jwt-callback spy (test/support/provider-kit.ts). */
function makeConfig(p: OAuthConfigBase, extra: Partial<AuthConfig> = {}) {
  const { config, jwtCalls, log } = setup([p], extra)
  return { config, jwtCalls, errors: log.errors }
}

async function signIn(config: AuthConfig, id = "refresher"): Promise<CookieJar> {
  const { jar, location } = await startSignIn(config, id, { callbackUrl: `${ORIGIN}/` })
  expect(location).toBeDefined()
  const res = await callback(config, await visitProvider(location!), jar)
  expect(res.headers.get("location")).toBe(`${ORIGIN}/`)
  expect(jar.cookies.has(SESSION_COOKIE)).toBe(true)
  return jar
}

/** The session token a response re-issued (undefined when it set no session cookie). */
async function reissued(res: Response): Promise<Record<string, unknown> | undefined> {
  const line = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`))
  if (!line) return undefined
  const value = decodeURIComponent(line.slice(SESSION_COOKIE.length + 1, line.indexOf(";")))
  return (await decode({ token: value, secret: SECRET, salt: SESSION_COOKIE })) as Record<string, unknown>
}

function sessionRequest(jar: CookieJar): Request {
  return get("/auth/session", { cookie: jar.header() })
}

function advance(seconds: number): void {
  vi.setSystemTime(Date.now() + seconds * 1000)
}

type Account = {
  provider: string
  providerAccountId: string
  access_token: string
  refresh_token?: string
  expires_at?: number
  token_type?: string
  scope?: string
}

// ---------------------------------------------------------------------------------------------

describe("refreshAccessToken: true", () => {
  it("stores the provider tokens in the session token at sign-in; nothing is refreshed while the access token is valid", async () => {
    const { config, errors } = makeConfig(provider())
    const jar = await signIn(config)
    const token = await sessionToken(jar)
    const account = token.account as Account
    expect(account).toMatchObject({
      provider: "refresher",
      providerAccountId: "u-77",
      token_type: "bearer",
      scope: "read",
    })
    expect(account.access_token).toMatch(/^at-/)
    expect(account.refresh_token).toMatch(/^rt-/)
    expect(account.expires_at).toBe(Math.floor(Date.now() / 1000) + 3600)
    // No ID token or other token fields are kept.
    expect(Object.keys(account).sort()).toEqual([
      "access_token",
      "expires_at",
      "provider",
      "providerAccountId",
      "refresh_token",
      "scope",
      "token_type",
    ])

    advance(3000) // still 600 s left
    const res = await Auth(sessionRequest(jar), config)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ user: { name: "Rae Refresh", email: "rae@refresh.example" } })
    expect(srv.refreshGrants).toHaveLength(0)
    expect(await reissued(res)).toBeUndefined()
    // The access token is not sent to the browser by default.
    expect(JSON.stringify(await Auth(sessionRequest(jar), config).then((r) => r.json()))).not.toContain(
      account.access_token,
    )
    expect(errors).toEqual([])
  })

  it("20 concurrent /session reads after expiry: exactly one refresh_token grant, every response carries the refreshed token", async () => {
    const { config, jwtCalls, errors } = makeConfig(provider())
    const jar = await signIn(config)
    const before = (await sessionToken(jar)).account as Account

    advance(3600 + 5)
    srv.refreshDelayMs = 80
    const t = Math.floor(Date.now() / 1000)
    jwtCalls.length = 0
    const responses = await Promise.all(Array.from({ length: 20 }, () => Auth(sessionRequest(jar), config)))

    expect(srv.refreshGrants).toHaveLength(1)
    const grant = srv.refreshGrants[0]!
    expect(grant.refreshToken).toBe(before.refresh_token)
    expect(grant.status).toBe(200)
    expect(grant.authorization).toMatch(/^Basic /)
    const fresh = grant.issued!
    expect(fresh.access_token).not.toBe(before.access_token)
    expect(fresh.refresh_token).toMatch(/^rt-/)

    for (const res of responses) {
      expect(res.status).toBe(200)
      const body = (await res.json()) as Record<string, unknown>
      expect(body).toMatchObject({ user: { name: "Rae Refresh", email: "rae@refresh.example" } })
      expect(body.error).toBeUndefined()
      const token = await reissued(res)
      expect(token, "session cookie re-issued").toBeDefined()
      expect(token!.error).toBeUndefined()
      expect(token!.account).toEqual({
        ...before,
        access_token: fresh.access_token,
        refresh_token: fresh.refresh_token,
        expires_at: t + 3600,
      })
    }
    // The jwt callback saw the refreshed token on every read.
    expect(jwtCalls).toHaveLength(20)
    for (const call of jwtCalls) expect((call.token.account as Account).access_token).toBe(fresh.access_token)
    expect(errors).toEqual([])

    // getToken() on the server reads the refreshed token from the re-issued cookie.
    const next = new CookieJar()
    next.store(responses[7]!)
    const viaGetToken = await getToken({
      req: new Request(`${ORIGIN}/api/x`, { headers: { cookie: next.header() } }),
      secret: SECRET,
    })
    expect((viaGetToken!.account as Account).access_token).toBe(fresh.access_token)
    expect((viaGetToken!.account as Account).refresh_token).toBe(fresh.refresh_token)

    // The new cookie needs no refresh; a late request with the old cookie gets the same result (no second grant).
    const again = await Auth(sessionRequest(next), config)
    expect(await reissued(again)).toBeUndefined()
    const late = await Auth(sessionRequest(jar), config)
    expect(((await reissued(late))!.account as Account).access_token).toBe(fresh.access_token)
    expect(srv.refreshGrants).toHaveLength(1)
  })

  it("rotated refresh tokens are stored and used for the next refresh; a non-rotating server keeps the old one", async () => {
    const { config, errors } = makeConfig(provider())
    const jar = await signIn(config)
    const first = (await sessionToken(jar)).account as Account

    advance(3700)
    jar.store(await Auth(sessionRequest(jar), config))
    const second = (await sessionToken(jar)).account as Account
    expect(second.refresh_token).toBe(srv.refreshGrants[0]!.issued!.refresh_token)
    expect(second.refresh_token).not.toBe(first.refresh_token)

    advance(3700)
    jar.store(await Auth(sessionRequest(jar), config))
    expect(srv.refreshGrants.map((g) => [g.refreshToken, g.status])).toEqual([
      [first.refresh_token, 200],
      [second.refresh_token, 200],
    ])
    const third = (await sessionToken(jar)).account as Account
    expect(third.access_token).toBe(srv.refreshGrants[1]!.issued!.access_token)
    expect(third.refresh_token).toBe(srv.refreshGrants[1]!.issued!.refresh_token)

    // No refresh_token in the answer: the stored one is kept (RFC 6749 §6).
    srv.rotate = false
    advance(3700)
    jar.store(await Auth(sessionRequest(jar), config))
    const fourth = (await sessionToken(jar)).account as Account
    expect(srv.refreshGrants).toHaveLength(3)
    expect(fourth.access_token).toBe(srv.refreshGrants[2]!.issued!.access_token)
    expect(fourth.refresh_token).toBe(third.refresh_token)
    expect(errors).toEqual([])
  })

  it("a failing refresh (400 invalid_grant): error RefreshTokenError on the session, logged, session kept; a later successful refresh clears it", async () => {
    const { config, errors } = makeConfig(provider())
    const jar = await signIn(config)
    const before = (await sessionToken(jar)).account as Account

    advance(3700)
    srv.failRefresh = true
    const responses = await Promise.all(Array.from({ length: 5 }, () => Auth(sessionRequest(jar), config)))
    expect(srv.refreshGrants).toHaveLength(1)
    expect(srv.refreshGrants[0]!.status).toBe(400)
    for (const res of responses) {
      const body = (await res.json()) as Record<string, unknown>
      expect(body).toMatchObject({
        user: { name: "Rae Refresh", email: "rae@refresh.example" },
        error: "RefreshTokenError",
      })
      expect(typeof body.expires).toBe("string")
      const token = await reissued(res)
      expect(token!.error).toBe("RefreshTokenError")
      // The old tokens stay (the refresh may be retried).
      expect(token!.account).toEqual(before)
    }
    // Logged once (one refresh), as a RefreshTokenError, without the provider's tokens.
    expect(errors).toHaveLength(1)
    expect((errors[0] as { type?: string }).type).toBe("RefreshTokenError")
    expect(errors[0]!.name).toBe("RefreshTokenError")
    const logged = `${errors[0]!.message} ${String((errors[0]!.cause as Error | undefined)?.message)}`
    expect(logged).not.toContain(before.refresh_token!)
    expect(logged).not.toContain(before.access_token)
    jar.store(responses[0]!)

    // The provider recovers. A failed result is reused for a minute (documented), so move past that.
    srv.failRefresh = false
    advance(61)
    const res = await Auth(sessionRequest(jar), config)
    const body = (await res.json()) as Record<string, unknown>
    expect(body.error).toBeUndefined()
    expect(body).toMatchObject({ user: { name: "Rae Refresh" } })
    const token = await reissued(res)
    expect(token!.error).toBeUndefined()
    expect((token!.account as Account).access_token).toBe(srv.refreshGrants[1]!.issued!.access_token)
    expect(srv.refreshGrants.map((g) => g.status)).toEqual([400, 200])
    expect(errors).toHaveLength(1)
  })

  it("refreshes within 30 s of expires_at, not before", async () => {
    const { config } = makeConfig(provider())
    const jar = await signIn(config)
    advance(3600 - 32)
    expect(await reissued(await Auth(sessionRequest(jar), config))).toBeUndefined()
    expect(srv.refreshGrants).toHaveLength(0)
    advance(4) // 28 s left
    const token = await reissued(await Auth(sessionRequest(jar), config))
    expect(srv.refreshGrants).toHaveLength(1)
    expect((token!.account as Account).access_token).toBe(srv.refreshGrants[0]!.issued!.access_token)
  })

  it("a refresh answer without expires_in does not leave the session due for a refresh on every read", async () => {
    const { config, errors } = makeConfig(provider())
    const jar = await signIn(config)
    advance(3700)
    srv.mangleRefresh = (tokens) => void delete tokens.expires_in
    jar.store(await Auth(sessionRequest(jar), config))
    expect(srv.refreshGrants).toHaveLength(1)
    const account = (await sessionToken(jar)).account as Account
    expect(account.access_token).toBe(srv.refreshGrants[0]!.issued!.access_token)
    // The expiry is unknown now (as at a sign-in without expires_in); it must not stay the old, past one.
    expect
      .soft(
        account.expires_at === undefined || account.expires_at > Date.now() / 1000 + 30,
        `expires_at ${account.expires_at} is past (now ${Math.floor(Date.now() / 1000)})`,
      )
      .toBe(true)
    for (let i = 0; i < 3; i++) {
      advance(1)
      jar.store(await Auth(sessionRequest(jar), config))
    }
    expect(srv.refreshGrants, "one refresh, not one per /session read").toHaveLength(1)
    expect(errors).toEqual([])
  })

  it("I5: the logged RefreshTokenError holds none of the provider's tokens, at any depth of its cause chain", async () => {
    const { config, errors } = makeConfig(provider())
    const jar = await signIn(config)
    const before = (await sessionToken(jar)).account as Account
    advance(3700)
    // A 200 answer oauth4webapi refuses (no token_type): its error carries the whole body as `cause`.
    srv.mangleRefresh = (tokens) => void delete tokens.token_type
    const body = (await (await Auth(sessionRequest(jar), config)).json()) as Record<string, unknown>
    expect(body.error).toBe("RefreshTokenError")
    expect(errors.map((e) => (e as { type?: string }).type)).toEqual(["RefreshTokenError"])
    // What a structured logger would serialise.
    const logged = inspect(errors, { depth: Infinity })
    const issued = srv.refreshGrants[0]!.issued!
    for (const secret of [
      issued.access_token,
      issued.refresh_token!,
      before.access_token,
      before.refresh_token!,
      srv.clientSecret,
    ]) {
      expect
        .soft(
          logged.includes(secret),
          `the log holds ${secret.slice(0, 8)}… (inspect the RefreshTokenError's cause chain)`,
        )
        .toBe(false)
    }
  })

  it("a provider without refreshAccessToken never refreshes (even with an expired token.account the jwt callback stored)", async () => {
    const { config, errors } = makeConfig(provider({ refreshAccessToken: false }), {
      callbacks: {
        jwt: ({ token, account }) => {
          if (account) {
            token.account = {
              provider: account.provider,
              providerAccountId: account.providerAccountId,
              access_token: account.access_token,
              refresh_token: account.refresh_token,
              expires_at: account.expires_at,
            }
          }
          return token
        },
      },
    })
    const jar = await signIn(config)
    expect(((await sessionToken(jar)).account as Account).refresh_token).toMatch(/^rt-/)

    advance(7200)
    const res = await Auth(sessionRequest(jar), config)
    const body = (await res.json()) as Record<string, unknown>
    expect(body).toMatchObject({ user: { name: "Rae Refresh" } })
    expect(body.error).toBeUndefined()
    expect(srv.refreshGrants).toHaveLength(0)
    expect(errors).toEqual([])
  })

  it("without the option nothing is stored in the token either", async () => {
    const { config } = makeConfig(provider({ refreshAccessToken: false }))
    const jar = await signIn(config)
    expect((await sessionToken(jar)).account).toBeUndefined()
    advance(7200)
    await Auth(sessionRequest(jar), config)
    expect(srv.refreshGrants).toHaveLength(0)
  })
})

// ---------------------------------------------------------------------------------------------
// Across processes: configs that share a store behave as app processes behind one load balancer

const REDIS_URL = process.env.REDIS_URL

/** A store that records what was written to it, so a test can check nothing in it is a token in clear. */
function recording(inner: SharedStore): SharedStore & { written: string[] } {
  const written: string[] = []
  return {
    written,
    claim: (key, value, ttl) => (written.push(`${key} ${value}`), inner.claim(key, value, ttl)),
    get: (key) => inner.get(key),
    set: (key, value, ttl) => (written.push(`${key} ${value}`), inner.set(key, value, ttl)),
    delete: (key) => inner.delete(key),
  }
}

const lockKey = (refreshToken: string) =>
  `gatehouse:refresh:lock:refresher:${createHash("sha256").update(refreshToken).digest("base64url")}`
const resultKey = (refreshToken: string) =>
  `gatehouse:refresh:result:refresher:${createHash("sha256").update(refreshToken).digest("base64url")}`

describe("refreshAccessToken across processes (configs sharing a store)", () => {
  let pglite: PGlite | undefined
  let redis: ReturnType<typeof createClient> | undefined
  beforeAll(async () => {
    pglite = await PGlite.create()
    await migrateStore(pglite)
    if (REDIS_URL) {
      redis = createClient({ url: REDIS_URL })
      redis.on("error", () => {})
      await redis.connect()
    }
  })
  afterAll(async () => {
    await pglite?.close()
    await redis?.close()
  })

  const stores: [string, () => SharedStore][] = [
    ["memory", () => MemoryStore()],
    ["postgres (PGlite)", () => PostgresStore(pglite!)],
  ]
  if (REDIS_URL) stores.push(["redis", () => RedisStore(redis!)])

  it.each(stores)(
    "%s: reads racing on two processes spend the refresh token once; a third process reading the old cookie later reuses the result",
    async (_name, makeStore) => {
      const store = recording(makeStore())
      const a = makeConfig(provider(), { store })
      const b = makeConfig(provider(), { store })
      const jar = await signIn(a.config)
      const before = (await sessionToken(jar)).account as Account

      advance(3600 + 5)
      srv.refreshDelayMs = 150 // B's readers arrive while A's refresh is at the provider, and wait for its result
      const responses = await Promise.all(
        Array.from({ length: 12 }, (_, i) => Auth(sessionRequest(jar), i % 2 ? b.config : a.config)),
      )

      expect(srv.refreshGrants.map((g) => [g.refreshToken, g.status])).toEqual([[before.refresh_token, 200]])
      const fresh = srv.refreshGrants[0]!.issued!
      for (const res of responses) {
        expect(res.status).toBe(200)
        const body = (await res.json()) as Record<string, unknown>
        expect(body).toMatchObject({ user: { email: "rae@refresh.example" } })
        expect(body.error).toBeUndefined()
        expect((await reissued(res))!.account as Account).toMatchObject({
          access_token: fresh.access_token,
          refresh_token: fresh.refresh_token,
        })
      }
      expect([...a.errors, ...b.errors]).toEqual([])

      // A third process, started later, still sees requests carrying the old cookie: it reuses the stored result.
      const c = makeConfig(provider(), { store })
      const late = await Auth(sessionRequest(jar), c.config)
      expect(((await reissued(late))!.account as Account).access_token).toBe(fresh.access_token)
      expect(srv.refreshGrants).toHaveLength(1)
      expect(c.errors).toEqual([])

      // The store holds the outcome sealed: no provider token, and not the refresh token it is keyed by, in clear.
      expect(store.written.length).toBeGreaterThan(0)
      for (const entry of store.written) {
        for (const token of [before.access_token, before.refresh_token!, fresh.access_token, fresh.refresh_token!])
          expect(entry).not.toContain(token)
      }
    },
  )

  it("a sealed result copied to another refresh token's key is refused: that session refreshes with its own token", async () => {
    const store = MemoryStore()
    const a = makeConfig(provider(), { store })
    const b = makeConfig(provider(), { store })
    const victim = await signIn(a.config)
    const attacker = await signIn(a.config)
    const victimRt = ((await sessionToken(victim)).account as Account).refresh_token!
    const attackerRt = ((await sessionToken(attacker)).account as Account).refresh_token!
    advance(3700)
    await Auth(sessionRequest(attacker), a.config)
    const attackerFresh = srv.refreshGrants[0]!.issued!
    // Someone with write access to the store (not the secret) moves the attacker's result under the victim's key.
    await store.set(resultKey(victimRt), (await store.get(resultKey(attackerRt)))!, 60)

    const res = await Auth(sessionRequest(victim), b.config)
    const account = (await reissued(res))!.account as Account
    expect(account.access_token).not.toBe(attackerFresh.access_token)
    expect(srv.refreshGrants.map((g) => [g.refreshToken, g.status])).toEqual([
      [attackerRt, 200],
      [victimRt, 200],
    ])
    expect(account.access_token).toBe(srv.refreshGrants[1]!.issued!.access_token)
    expect(b.errors.map((e) => (e as { type?: string }).type)).toEqual(["AdapterError"])
    expect(String((b.errors[0]!.cause as Error).message)).toMatch(/another refresh token/)
  })

  it("a process that died holding the refresh lock delays the others only until the lock expires", async () => {
    // Real time here (PGlite's clock follows Date): the sign-in's access token is due at once instead.
    vi.useRealTimers()
    srv.expiresIn = 5
    const store = PostgresStore(pglite!)
    const { config, errors } = makeConfig(provider(), { store })
    const jar = await signIn(config)
    const rt = ((await sessionToken(jar)).account as Account).refresh_token!
    expect(await store.claim(lockKey(rt), "a process that crashed", 1)).toBe(true)
    const started = performance.now()
    const res = await Auth(sessionRequest(jar), config)
    expect(performance.now() - started).toBeGreaterThanOrEqual(900)
    const body = (await res.json()) as Record<string, unknown>
    expect(body.error).toBeUndefined()
    expect(srv.refreshGrants.map((g) => g.status)).toEqual([200])
    expect(((await reissued(res))!.account as Account).access_token).toBe(srv.refreshGrants[0]!.issued!.access_token)
    expect(errors).toEqual([])
  })

  type Failure = "reject" | "throw" | "hang"
  const failingStore = (method: keyof SharedStore, how: Failure): SharedStore => {
    const inner = MemoryStore()
    const broken = () => {
      if (how === "throw") throw new Error("store exploded synchronously")
      return how === "hang" ? new Promise<never>(() => {}) : Promise.reject(new Error("connection refused"))
    }
    return {
      ...inner,
      claim: inner.claim,
      get: inner.get,
      set: inner.set,
      delete: inner.delete,
      [method]: broken,
    } as SharedStore
  }

  it.each([
    ["get", "reject"],
    ["claim", "throw"],
    ["get", "hang"],
  ] as const)(
    "a store whose %s fails (%s) degrades to the in-process refresh: one grant, every read 200 and refreshed, an AdapterError logged",
    async (method, how) => {
      const { config, errors } = makeConfig(provider(), { store: failingStore(method, how) })
      const jar = await signIn(config)
      advance(3700)
      const responses = await Promise.all(Array.from({ length: 5 }, () => Auth(sessionRequest(jar), config)))
      expect(srv.refreshGrants.map((g) => g.status)).toEqual([200])
      for (const res of responses) {
        expect(res.status).toBe(200)
        expect(((await res.json()) as Record<string, unknown>).error).toBeUndefined()
        expect(((await reissued(res))!.account as Account).access_token).toBe(
          srv.refreshGrants[0]!.issued!.access_token,
        )
      }
      expect(errors.map((e) => (e as { type?: string }).type)).toEqual(["AdapterError"])
      expect(errors[0]!.message).toMatch(/refreshing in this process only/)
      expect(String((errors[0]!.cause as Error).message)).toMatch(
        how === "hang" ? /did not answer/ : new RegExp(`"${method}" failed`),
      )
    },
  )

  it("a store that cannot keep the result after the refresh: the refreshed tokens are still used, the failure logged", async () => {
    const { config, errors } = makeConfig(provider(), { store: failingStore("set", "reject") })
    const jar = await signIn(config)
    advance(3700)
    const res = await Auth(sessionRequest(jar), config)
    expect(res.status).toBe(200)
    expect(((await reissued(res))!.account as Account).access_token).toBe(srv.refreshGrants[0]!.issued!.access_token)
    expect(srv.refreshGrants).toHaveLength(1)
    expect(errors.map((e) => (e as { type?: string }).type)).toEqual(["AdapterError"])
    expect(errors[0]!.message).toMatch(/could not share the refresh result/)
  })

  it("a `store` without the SharedStore methods is a configuration error that names them", async () => {
    const { config, errors } = makeConfig(provider(), { store: { get: async () => null } as unknown as SharedStore })
    const res = await Auth(sessionRequest(new CookieJar()), config)
    expect(res.status).toBe(500)
    expect(await res.json()).toEqual({ message: expect.any(String) })
    expect(errors.map((e) => (e as { type?: string }).type)).toEqual(["MissingStoreMethods"])
    expect(errors[0]!.message).toMatch(/store.*claim, set, delete/)
  })
})

// ---------------------------------------------------------------------------------------------
// session.tokens: "server" (session/server-tokens.ts, docs/guide.md "Cookie budget")

const tokensKey = (sid: string) => `gatehouse:tokens:${createHash("sha256").update(sid).digest("base64url")}`

describe('session.tokens: "server"', () => {
  let pglite: PGlite | undefined
  let redis: ReturnType<typeof createClient> | undefined
  beforeAll(async () => {
    pglite = await PGlite.create()
    await migrateStore(pglite)
    if (REDIS_URL) {
      redis = createClient({ url: REDIS_URL })
      redis.on("error", () => {})
      await redis.connect()
    }
  })
  afterAll(async () => {
    await pglite?.close()
    await redis?.close()
  })

  /** The documented recipe: the session callback reads the access token from token.account (nothing copied). */
  const exposeAccessToken = {
    session: ({ session, token }: { session: Record<string, unknown>; token: Record<string, unknown> }) => ({
      ...session,
      accessToken: (token.account as Account | undefined)?.access_token,
    }),
  }

  function serverConfig(store: SharedStore, p = provider()) {
    const signOuts: Record<string, unknown>[] = []
    const made = makeConfig(p, {
      store,
      session: { tokens: "server" },
      events: { signOut: (m: { token?: Record<string, unknown> }) => void signOuts.push(m.token ?? {}) },
    } as Partial<AuthConfig>)
    const callbacks = made.config.callbacks as Record<string, unknown>
    callbacks.session = exposeAccessToken.session
    return { ...made, signOuts }
  }

  const sessionCookie = (jar: CookieJar) => decodeURIComponent(jar.cookies.get(SESSION_COOKIE) ?? "")

  const stores: [string, () => SharedStore][] = [
    ["memory", () => MemoryStore()],
    ["postgres (PGlite)", () => PostgresStore(pglite!)],
  ]
  if (REDIS_URL) stores.push(["redis", () => RedisStore(redis!)])

  it.each(stores)(
    "%s: a sign-in over a session deletes that session's entry; the new session has its own",
    async (_name, makeStore) => {
      const store = makeStore()
      const { config } = serverConfig(store)
      const jar = await signIn(config)
      const first = (await sessionToken(jar)).sid as string
      expect(await store.get(tokensKey(first))).toBeTruthy()
      // Signing in again in the same browser (the old session cookie sent along).
      const { location } = await startSignIn(config, "refresher", { callbackUrl: `${ORIGIN}/`, jar })
      const res = await callback(config, await visitProvider(location!), jar)
      expect(res.headers.get("location")).toBe(`${ORIGIN}/`)
      const second = (await sessionToken(jar)).sid as string
      expect(second).not.toBe(first)
      expect(await store.get(tokensKey(first))).toBeNull()
      expect(await store.get(tokensKey(second))).toBeTruthy()
      const session = await Auth(sessionRequest(jar), config)
      expect(await session.json()).toMatchObject({
        user: { email: "rae@refresh.example" },
        accessToken: expect.stringMatching(/^at-/),
      })
    },
  )

  it.each(stores)(
    "%s: the cookie holds a reference; refresh on expiry, the new access token reaches the session callback of every process; sign-out deletes the entry",
    async (_name, makeStore) => {
      const store = recording(makeStore())
      const a = serverConfig(store)
      const b = serverConfig(store)
      const jar = await signIn(a.config)

      // The jwt callback at sign-in saw the tokens on token.account, as it does with tokens in the cookie.
      const atSignIn = a.jwtCalls[0]!.token.account as Account
      expect(atSignIn.access_token).toMatch(/^at-/)
      expect(atSignIn.refresh_token).toMatch(/^rt-/)

      // The cookie: the sid and the marker, no account; small.
      const token = await sessionToken(jar)
      expect(token.account).toBeUndefined()
      expect(token.stk).toBe(1)
      expect(token.sid).toMatch(/^[A-Za-z0-9_-]{22}$/)
      const small = sessionCookie(jar).length
      const inCookie = makeConfig(provider())
      const cookieJar = await signIn(inCookie.config)
      expect(small).toBeLessThan(sessionCookie(cookieJar).length)
      expect(small).toBeLessThan(600)

      // The store entry: under the sid's digest, sealed (no token in clear), readable by the other process.
      const entry = await store.get(tokensKey(token.sid as string))
      expect(entry).toMatch(/^eyJ[^.]+\.\.[^.]+\.[^.]+\.[^.]+$/)
      for (const written of store.written) {
        expect(written).not.toContain(atSignIn.access_token)
        expect(written).not.toContain(atSignIn.refresh_token)
      }
      const first = await Auth(sessionRequest(jar), b.config)
      expect(await first.json()).toMatchObject({
        user: { email: "rae@refresh.example" },
        accessToken: atSignIn.access_token,
      })
      expect(await reissued(first)).toBeUndefined()

      // Expired: one refresh (process B), the new tokens go to the store, the cookie stays small.
      advance(3600 + 5)
      const res = await Auth(sessionRequest(jar), b.config)
      expect(srv.refreshGrants.map((g) => [g.refreshToken, g.status])).toEqual([[atSignIn.refresh_token, 200]])
      const fresh = srv.refreshGrants[0]!.issued!
      const body = (await res.json()) as Record<string, unknown>
      expect(body.accessToken).toBe(fresh.access_token)
      expect(body.error).toBeUndefined()
      const again = (await reissued(res))!
      expect(again.account).toBeUndefined()
      expect(again.sid).toBe(token.sid)
      const line = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`))!
      expect(line.indexOf(";")).toBeLessThan(small + SESSION_COOKIE.length + 40)
      expect(b.jwtCalls.at(-1)!.token.account as Account).toMatchObject({
        access_token: fresh.access_token,
        refresh_token: fresh.refresh_token,
      })

      // Process A, with the re-issued cookie: the refreshed tokens from the store, no second grant.
      jar.store(res)
      const onA = await Auth(sessionRequest(jar), a.config)
      expect(((await onA.json()) as Record<string, unknown>).accessToken).toBe(fresh.access_token)
      expect(srv.refreshGrants).toHaveLength(1)
      for (const written of store.written) {
        expect(written).not.toContain(fresh.access_token)
        expect(written).not.toContain(fresh.refresh_token!)
      }

      // Sign-out: the signOut event sees the tokens (to revoke them at the provider); the entry is gone.
      const csrf = (await (await Auth(get("/auth/csrf", { cookie: jar.header() }), a.config)).json()) as {
        csrfToken: string
      }
      const signOutReq = new Request(`${ORIGIN}/auth/signout`, {
        method: "POST",
        headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken: csrf.csrfToken }).toString(),
      })
      const out = await Auth(signOutReq, a.config)
      expect(out.status).toBe(302)
      expect((a.signOuts[0]!.account as Account).access_token).toBe(fresh.access_token)
      expect(await store.get(tokensKey(token.sid as string))).toBeNull()
      expect([...a.errors, ...b.errors]).toEqual([])
    },
  )

  it("server-side session reads (the integrations' auth()/getSession path) get the tokens back too", async () => {
    const store = MemoryStore()
    const { config, errors } = serverConfig(store)
    const jar = await signIn(config)
    const read = await readServerSession(
      {
        url: { protocol: "http:", host: new URL(ORIGIN).host, origin: ORIGIN },
        header: new Headers({ cookie: jar.header() }),
      },
      config,
    )
    const account = read.token?.account as Account
    expect(account.access_token).toMatch(/^at-/)
    expect((read.session as unknown as Record<string, unknown>).accessToken).toBe(account.access_token)
    expect(read.setCookies).toEqual([])
    expect(errors).toEqual([])
  })

  it("with session.revocation: revokeSession (gatehouse/sessions) deletes the revoked session's stored tokens", async () => {
    const store = MemoryStore()
    const { config, errors } = makeConfig(provider(), { store, session: { tokens: "server", revocation: true } })
    const jar = await signIn(config)
    const sid = (await sessionToken(jar)).sid as string
    expect(await store.get(tokensKey(sid))).not.toBeNull()
    expect(await revokeSession(config, sid)).toBe(true)
    expect(await store.get(tokensKey(sid))).toBeNull()
    expect(await (await Auth(sessionRequest(jar), config)).json()).toBeNull()
    expect(errors).toEqual([])
  })

  it("the store entry lives session.maxAge, renewed when the cookie is re-issued", async () => {
    const ttls: number[] = []
    const inner = MemoryStore()
    const store: SharedStore = {
      ...inner,
      set: (k, v, ttl) => (k.startsWith("gatehouse:tokens:") && ttls.push(ttl), inner.set(k, v, ttl)),
    }
    const { config } = makeConfig(provider(), { store, session: { tokens: "server", maxAge: 7200, updateAge: 600 } })
    const jar = await signIn(config)
    expect(ttls).toEqual([7200])
    advance(700) // updateAge passed: the cookie slides, the entry is written again with a full TTL
    const res = await Auth(sessionRequest(jar), config)
    expect(await reissued(res)).toBeDefined()
    expect(ttls).toEqual([7200, 7200])
  })

  it("an entry gone from the store (a memory store that restarted): RefreshTokenError on the session, logged once, the session kept", async () => {
    const store = MemoryStore()
    const { config, errors } = serverConfig(store)
    const jar = await signIn(config)
    await store.delete(tokensKey((await sessionToken(jar)).sid as string))
    for (let i = 0; i < 3; i++) {
      const res = await Auth(sessionRequest(jar), config)
      const body = (await res.json()) as Record<string, unknown>
      expect(body).toMatchObject({ user: { email: "rae@refresh.example" }, error: "RefreshTokenError" })
      expect(body.accessToken).toBeUndefined()
    }
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/provider tokens of this session are not in the store/),
    ])
  })

  it("a store that fails on read: the session without the tokens, logged; the next read finds them again", async () => {
    const inner = MemoryStore()
    let failGets = false
    const store: SharedStore = {
      ...inner,
      get: (k) =>
        failGets && k.startsWith("gatehouse:tokens:") ? Promise.reject(new Error("store down")) : inner.get(k),
    }
    const { config, errors } = serverConfig(store)
    const jar = await signIn(config)
    const accessToken = ((await Auth(sessionRequest(jar), config).then((r) => r.json())) as Record<string, unknown>)
      .accessToken
    expect(accessToken).toMatch(/^at-/)
    failGets = true
    const down = (await Auth(sessionRequest(jar), config).then((r) => r.json())) as Record<string, unknown>
    expect(down.accessToken).toBeUndefined()
    expect(down.error).toBeUndefined()
    expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/could not be read from the store/)])
    failGets = false
    const back = (await Auth(sessionRequest(jar), config).then((r) => r.json())) as Record<string, unknown>
    expect(back.accessToken).toBe(accessToken)
  })

  it("a store that fails on write at sign-in: the tokens stay in this cookie (logged), nothing is lost", async () => {
    const inner = MemoryStore()
    const store: SharedStore = {
      ...inner,
      set: (k, v, ttl) =>
        k.startsWith("gatehouse:tokens:") ? Promise.reject(new Error("store down")) : inner.set(k, v, ttl),
    }
    const { config, errors } = serverConfig(store)
    const jar = await signIn(config)
    const token = await sessionToken(jar)
    expect((token.account as Account).access_token).toMatch(/^at-/)
    expect(token.stk).toBeUndefined()
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/could not be written to the store; this cookie carries them/),
    ])
    const body = (await Auth(sessionRequest(jar), config).then((r) => r.json())) as Record<string, unknown>
    expect(body.accessToken).toBe((token.account as Account).access_token)
  })

  it("a provider without refreshAccessToken: its tokens are kept too (no copy in the jwt callback needed), never refreshed", async () => {
    const store = MemoryStore()
    const { config, errors } = serverConfig(store, provider({ refreshAccessToken: false }))
    const jar = await signIn(config)
    expect((await sessionToken(jar)).account).toBeUndefined()
    advance(3600 + 5)
    const body = (await Auth(sessionRequest(jar), config).then((r) => r.json())) as Record<string, unknown>
    expect(body.accessToken).toMatch(/^at-/)
    expect(srv.refreshGrants).toHaveLength(0)
    expect(errors).toEqual([])
  })

  it('switching back to tokens: "cookie" keeps a server-kept session\'s tokens: they move into the cookie on re-issue', async () => {
    const store = MemoryStore()
    const server = serverConfig(store)
    const jar = await signIn(server.config)
    const sid = (await sessionToken(jar)).sid as string
    const { config } = makeConfig(provider(), { store, session: { updateAge: 0 } })
    const res = await Auth(sessionRequest(jar), config)
    const token = (await reissued(res))!
    expect((token.account as Account).access_token).toMatch(/^at-/)
    expect(token.stk).toBeUndefined()
    expect(await store.get(tokensKey(sid))).toBeNull()
  })
})
