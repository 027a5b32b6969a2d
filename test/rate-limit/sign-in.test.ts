// The sign-in rate limit through Auth() and through createHandler on a real socket: credentials attempts per
// identifier and per client address, the 429 / redirect answers, CSRF before the limit, store failure (fail-open)
// and e-mail sign-in requests (over the limit no mail goes out and no verification token is stored).
import { type Server, createServer } from "node:http"
import { createAdaptorServer } from "@hono/node-server"
import { Hono } from "hono"
import { afterEach, describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import type { AuthConfig } from "../../src/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { authHandler, initAuthConfig } from "../../src/integrations/hono.js"
import { createHandler } from "../../src/integrations/node.js"
import { MemoryRateLimitStore, type RateLimitStore } from "../../src/rate-limit/index.js"
import { CookieJar, ORIGIN, SECRET, fetchCsrf, postForm, postJson } from "../support/flow-kit.js"
import { expectNoSessionCookie, sessionCookiesSet } from "../support/cookies.js"
import { type Listening, listenLocal } from "../support/listen.js"
import { spyLogger } from "../support/logger.js"
import { credentialsConfig as sharedCredentialsConfig } from "../support/rate-limit-kit.js"

const CALLBACK = "/auth/callback/credentials"
const RATE_LIMITED = `${ORIGIN}/auth/signin?error=RateLimited`

/** The shared credentials config, with the Host trusted as these tests' requests name it. */
function credentialsConfig(extra: Partial<AuthConfig> = {}) {
  return sharedCredentialsConfig({ trustHost: true, ...extra })
}

async function session(config: AuthConfig) {
  const jar = new CookieJar()
  const csrfToken = await fetchCsrf(config, jar)
  const attempt = (form: Record<string, string>, headers: Record<string, string> = {}) =>
    Auth(postForm(CALLBACK, { csrfToken, ...form }, { cookie: jar.header(), headers }), config)
  return { jar, csrfToken, attempt }
}

function retryAfter(res: Response): number {
  return Number(res.headers.get("retry-after"))
}

describe("sign-in rate limit through Auth()", () => {
  it("5 wrong passwords for one user, then the form is sent back with error=RateLimited and authorize is no longer called", async () => {
    const { config, authorize, log } = credentialsConfig()
    const { attempt } = await session(config)
    for (let i = 0; i < 5; i++) {
      const res = await attempt({ username: "alice", password: "wrong" })
      expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials`)
    }
    expect(authorize).toHaveBeenCalledTimes(5)
    for (const password of ["wrong", "password"]) {
      const res = await attempt({ username: "alice", password })
      expect(res.status).toBe(302)
      expect(res.headers.get("location")).toBe(RATE_LIMITED)
      expect(retryAfter(res)).toBeGreaterThan(890)
      expect(retryAfter(res)).toBeLessThanOrEqual(900)
      expectNoSessionCookie(res)
    }
    expect(authorize).toHaveBeenCalledTimes(5)
    expect(log.messages().at(-1)).toMatch(
      /^Too many sign-in attempts for this identifier \(5 per 900 s\); retry in \d+ s\.$/,
    )
    expect(log.text()).not.toContain("alice")
    // The identifier is trimmed and lower-cased: no way around the limit through spelling.
    expect((await attempt({ username: "  ALICE ", password: "wrong" })).headers.get("location")).toBe(RATE_LIMITED)
    expect(authorize).toHaveBeenCalledTimes(5)
    // Another user is not affected (Auth() on a web Request has no client address: only the identifier counts).
    const other = await attempt({ username: "bob", password: "password" })
    expect(other.headers.get("location")).toBe(ORIGIN)
    expect(sessionCookiesSet(other).length).toBeGreaterThan(0)
  })

  it("JSON clients (X-Auth-Return-Redirect, Accept: application/json, a JSON body) get 429, Retry-After and {error, url}", async () => {
    const { config, authorize } = credentialsConfig({ rateLimit: { max: 1 } })
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    await Auth(
      postForm(CALLBACK, { csrfToken, username: "alice", password: "wrong" }, { cookie: jar.header() }),
      config,
    )
    const answers = [
      await Auth(
        postForm(
          CALLBACK,
          { csrfToken, username: "alice", password: "wrong" },
          { cookie: jar.header(), headers: { "X-Auth-Return-Redirect": "1" } },
        ),
        config,
      ),
      await Auth(
        postForm(
          CALLBACK,
          { csrfToken, username: "alice", password: "wrong" },
          { cookie: jar.header(), headers: { accept: "application/json" } },
        ),
        config,
      ),
      await Auth(
        postJson(CALLBACK, { csrfToken, username: "alice", password: "wrong" }, { cookie: jar.header() }),
        config,
      ),
    ]
    for (const res of answers) {
      expect(res.status).toBe(429)
      expect(retryAfter(res)).toBeGreaterThan(0)
      expect(res.headers.get("content-type")).toBe("application/json")
      expect(await res.json()).toEqual({ error: "RateLimited", url: RATE_LIMITED })
      expectNoSessionCookie(res)
    }
    expect(authorize).toHaveBeenCalledTimes(1)
  })

  it("successful sign-ins do not use up the limit; failures do", async () => {
    const { config, authorize } = credentialsConfig({ rateLimit: { max: 2 } })
    const { attempt } = await session(config)
    for (let i = 0; i < 6; i++)
      expect((await attempt({ username: "alice", password: "password" })).headers.get("location")).toBe(ORIGIN)
    await attempt({ username: "alice", password: "wrong" })
    await attempt({ username: "alice", password: "wrong" })
    expect((await attempt({ username: "alice", password: "password" })).headers.get("location")).toBe(RATE_LIMITED)
    expect(authorize).toHaveBeenCalledTimes(8)
  })

  it("a request without a valid CSRF token does not spend the user's attempts", async () => {
    const { config, authorize } = credentialsConfig({ rateLimit: { max: 2 } })
    const { attempt, jar } = await session(config)
    for (let i = 0; i < 10; i++) {
      const forged = await Auth(
        postForm(CALLBACK, { csrfToken: "forged", username: "alice", password: "wrong" }, { cookie: jar.header() }),
        config,
      )
      expect(forged.headers.get("location")).toContain("error=MissingCSRF")
    }
    expect((await attempt({ username: "alice", password: "password" })).headers.get("location")).toBe(ORIGIN)
    expect(authorize).toHaveBeenCalledTimes(1)
  })

  it("the window ends: after `window` seconds the user may try again", async () => {
    const { config, authorize } = credentialsConfig({ rateLimit: { max: 1, window: 1 } })
    const { attempt } = await session(config)
    await attempt({ username: "alice", password: "wrong" })
    const refused = await attempt({ username: "alice", password: "wrong" })
    expect(refused.headers.get("location")).toBe(RATE_LIMITED)
    expect(retryAfter(refused)).toBe(1)
    await new Promise((resolve) => setTimeout(resolve, 1_100))
    expect((await attempt({ username: "alice", password: "password" })).headers.get("location")).toBe(ORIGIN)
    expect(authorize).toHaveBeenCalledTimes(2)
  })

  it("rateLimit: false turns it off", async () => {
    const { config, authorize } = credentialsConfig({ rateLimit: false })
    const { attempt } = await session(config)
    for (let i = 0; i < 12; i++) await attempt({ username: "alice", password: "wrong" })
    expect(authorize).toHaveBeenCalledTimes(12)
  })

  it("a failing store lets attempts through (fail-open) and logs one AdapterError per burst of failures", async () => {
    let down = true
    const real = new Map<string, number>()
    const store: RateLimitStore = {
      async hit(key, windowMs) {
        if (down) throw new Error("ECONNREFUSED 127.0.0.1:6379")
        real.set(key, (real.get(key) ?? 0) + 1)
        return { count: real.get(key)!, resetAt: Date.now() + windowMs }
      },
      async undo() {},
    }
    const { config, authorize, log } = credentialsConfig({ rateLimit: { max: 1, store } })
    const { attempt } = await session(config)
    for (let i = 0; i < 4; i++) await attempt({ username: "alice", password: "wrong" })
    expect(authorize).toHaveBeenCalledTimes(4)
    expect(log.types().filter((t) => t === "AdapterError")).toHaveLength(1)
    down = false
    await attempt({ username: "alice", password: "wrong" })
    expect((await attempt({ username: "alice", password: "wrong" })).headers.get("location")).toBe(RATE_LIMITED)
    down = true
    await attempt({ username: "alice", password: "wrong" })
    expect(log.types().filter((t) => t === "AdapterError")).toHaveLength(2)
    expect(log.text()).toContain("ECONNREFUSED")
  })

  it("a store that answers synchronously counts and takes back attempts; a synchronous throw fails open", async () => {
    let down = false
    const counts = new Map<string, number>()
    const calls: string[] = []
    const store: RateLimitStore = {
      hit(key, windowMs) {
        calls.push(`hit ${key}`)
        if (down) throw new Error("store offline")
        counts.set(key, (counts.get(key) ?? 0) + 1)
        return { count: counts.get(key)!, resetAt: Date.now() + windowMs }
      },
      undo(key) {
        calls.push(`undo ${key}`)
        counts.set(key, Math.max(0, (counts.get(key) ?? 0) - 1))
      },
    }
    const { config, authorize, log } = credentialsConfig({ rateLimit: { max: 2, store } })
    const { attempt } = await session(config)
    // A success is taken back, so it spends nothing: two failures still fit under max 2, the third is refused.
    expect((await attempt({ username: "alice", password: "password" })).headers.get("location")).toBe(ORIGIN)
    await attempt({ username: "alice", password: "wrong" })
    await attempt({ username: "alice", password: "wrong" })
    expect((await attempt({ username: "alice", password: "wrong" })).headers.get("location")).toBe(RATE_LIMITED)
    expect(authorize).toHaveBeenCalledTimes(3)
    // One key per identifier, a keyed hash: the username is nowhere in it, and every call used the same key.
    const keys = new Set(calls.map((c) => c.split(" ")[1]))
    expect(keys.size).toBe(1)
    expect([...keys][0]).toMatch(/^id:900:[A-Za-z0-9_-]{27}$/)
    expect(calls.filter((c) => c.startsWith("undo"))).toHaveLength(1)
    down = true
    expect((await attempt({ username: "bob", password: "wrong" })).headers.get("location")).not.toBe(RATE_LIMITED)
    expect(authorize).toHaveBeenCalledTimes(4)
    expect(log.types().filter((t) => t === "AdapterError")).toHaveLength(1)
    expect(log.text()).toContain("store offline")
  })

  it("two apps with different secrets count the same identifier under different keys", async () => {
    const keysOf = async (secret: string) => {
      const seen: string[] = []
      const store = MemoryRateLimitStore()
      const spy: RateLimitStore = {
        hit: (key, windowMs) => (seen.push(key), store.hit(key, windowMs)),
        undo: (key, hit) => store.undo(key, hit),
      }
      const { config } = credentialsConfig({ secret, rateLimit: { store: spy } })
      const { attempt } = await session(config)
      await attempt({ username: "alice", password: "wrong" })
      await attempt({ username: "Alice ", password: "wrong" })
      return seen
    }
    const [a1, a2] = await keysOf("a".repeat(32))
    const [b1] = await keysOf("b".repeat(32))
    expect(a1).toBe(a2) // the identifier is normalised before it is hashed
    expect(b1).not.toBe(a1)
  })

  it("a memory store gets a short identifier as it is (normalised) and a longer one hashed; each still counts alone", async () => {
    const store = MemoryRateLimitStore()
    const hit = vi.spyOn(store, "hit")
    const { config, authorize } = credentialsConfig({ rateLimit: { max: 2, store } })
    const { attempt } = await session(config)
    await attempt({ username: " Alice", password: "wrong" })
    expect(hit.mock.calls[0]![0]).toBe("id:900:=alice")
    // Two identifiers of 129 characters that differ only in the last one: hashed, under two keys.
    const long = "x".repeat(128)
    await attempt({ username: `${long}a`, password: "wrong" })
    await attempt({ username: `${long}b`, password: "wrong" })
    const [, first, second] = hit.mock.calls.map((call) => call[0])
    expect(first).toMatch(/^id:900:[A-Za-z0-9_-]{27}$/)
    expect(second).toMatch(/^id:900:[A-Za-z0-9_-]{27}$/)
    expect(second).not.toBe(first)
    await attempt({ username: `${long}a`, password: "wrong" })
    expect((await attempt({ username: `${long}a`, password: "wrong" })).headers.get("location")).toBe(RATE_LIMITED)
    expect((await attempt({ username: "alice", password: "wrong" })).headers.get("location")).not.toBe(RATE_LIMITED)
    expect(authorize).toHaveBeenCalledTimes(5)
  })

  it("a store that does not answer within 1 s is treated as failed: the attempt goes through", async () => {
    const store: RateLimitStore = { hit: () => new Promise(() => {}), undo: async () => {} }
    const { config, authorize, log } = credentialsConfig({ rateLimit: { store } })
    const { attempt } = await session(config)
    const started = Date.now()
    const res = await attempt({ username: "alice", password: "password" })
    expect(res.headers.get("location")).toBe(ORIGIN)
    expect(Date.now() - started).toBeLessThan(3_000)
    expect(authorize).toHaveBeenCalledTimes(1)
    expect(log.text()).toMatch(/timed out/)
  })

  it("a broken rateLimit option is a configuration error naming the field", async () => {
    const { config, authorize, log } = credentialsConfig({ rateLimit: { max: -1 } })
    const { attempt } = await session(config)
    const res = await attempt({ username: "alice", password: "password" })
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`)
    expect(authorize).not.toHaveBeenCalled()
    expect(log.text()).toContain("rateLimit.max")
  })
})

describe("e-mail sign-in requests", () => {
  it("count per address: over the limit no mail is sent and no verification token is stored; another address still gets its mail", async () => {
    const sendVerificationRequest = vi.fn(async (_params: { identifier: string }) => {})
    const adapter = MemoryAdapter()
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      trustedOrigins: [ORIGIN], // the configured origin mailed links are built from
      basePath: "/auth",
      adapter,
      logger: spyLogger().logger,
      rateLimit: { max: 3 },
      providers: [{ id: "email", type: "email", name: "Email", from: "auth@example.test", sendVerificationRequest }],
    }
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const request = (email: string, headers: Record<string, string> = {}) =>
      Auth(postForm("/auth/signin/email", { csrfToken, email }, { cookie: jar.header(), headers }), config)
    const verifyRequest = `${ORIGIN}/auth/verify-request?provider=email&type=email`
    for (let i = 0; i < 3; i++)
      expect((await request("victim@example.test")).headers.get("location")).toBe(verifyRequest)
    expect(sendVerificationRequest).toHaveBeenCalledTimes(3)
    expect(adapter.verificationTokens.size).toBe(3)
    // Case and spaces do not open a new count.
    for (const email of ["victim@example.test", "VICTIM@Example.test "]) {
      const res = await request(email)
      expect(res.headers.get("location")).toBe(RATE_LIMITED)
      expect(retryAfter(res)).toBeGreaterThan(0)
    }
    const json = await request("victim@example.test", { "X-Auth-Return-Redirect": "1" })
    expect(json.status).toBe(429)
    expect(sendVerificationRequest).toHaveBeenCalledTimes(3)
    expect(adapter.verificationTokens.size).toBe(3)
    expect((await request("other@example.test")).headers.get("location")).toBe(verifyRequest)
    expect(sendVerificationRequest).toHaveBeenCalledTimes(4)
    expect(sendVerificationRequest.mock.calls[3]![0].identifier).toBe("other@example.test")
  })

  it("count the address the provider mails to: a normalizeIdentifier that drops +tags gives one count for every tag", async () => {
    const sendVerificationRequest = vi.fn(async (_params: { identifier: string }) => {})
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      trustedOrigins: [ORIGIN], // the configured origin mailed links are built from
      basePath: "/auth",
      adapter: MemoryAdapter(),
      logger: spyLogger().logger,
      rateLimit: { max: 2, maxPerAddress: 100 },
      providers: [
        {
          id: "email",
          type: "email",
          name: "Email",
          from: "auth@example.test",
          sendVerificationRequest,
          normalizeIdentifier: (raw: string) =>
            raw
              .trim()
              .toLowerCase()
              .replace(/\+[^@]*@/, "@"),
        },
      ],
    }
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const request = (email: string) =>
      Auth(postForm("/auth/signin/email", { csrfToken, email }, { cookie: jar.header() }), config)
    expect((await request("victim+1@example.test")).headers.get("location")).toContain("/auth/verify-request")
    expect((await request("victim+2@example.test")).headers.get("location")).toContain("/auth/verify-request")
    expect((await request("victim+3@example.test")).headers.get("location")).toBe(RATE_LIMITED)
    expect(sendVerificationRequest).toHaveBeenCalledTimes(2)
    expect(sendVerificationRequest.mock.calls.map((c) => c[0].identifier)).toEqual([
      "victim@example.test",
      "victim@example.test",
    ])
  })
})

describe("DS-04 e-mail flood", () => {
  it("DS-04 100 e-mail sign-ins for one address at once: 5 mails and 5 stored tokens (the default limit), 95 refused; IPv6 counts per /64", async () => {
    const sendVerificationRequest = vi.fn(async () => {})
    const adapter = MemoryAdapter()
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      trustedOrigins: [ORIGIN], // the configured origin mailed links are built from
      basePath: "/auth",
      adapter,
      logger: spyLogger().logger,
      // A web Request has no socket: the address comes from the header the (stand-in) proxy sets.
      rateLimit: { clientAddress: { header: "x-forwarded-for" } },
      providers: [{ id: "email", type: "email", name: "Email", from: "auth@example.test", sendVerificationRequest }],
    }
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const request = (email: string, from: string) =>
      Auth(
        postForm(
          "/auth/signin/email",
          { csrfToken, email },
          { cookie: jar.header(), headers: { "x-forwarded-for": from, accept: "application/json" } },
        ),
        config,
      )
    // From 100 addresses of different /64s: only the identifier limit (5) applies.
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => request("victim@example.test", `2001:db8:${i.toString(16)}::1`)),
    )
    expect(answers.filter((r) => r.status === 429)).toHaveLength(95)
    expect(sendVerificationRequest).toHaveBeenCalledTimes(5)
    expect(adapter.verificationTokens.size).toBe(5)
    // 31 different addresses from one /64 (one host): the 31st is over the per-address limit of 30.
    const fromOneHost = []
    for (let i = 0; i < 31; i++)
      fromOneHost.push(await request(`user${i}@example.test`, `2001:db8:aaaa:1::${(i + 1).toString(16)}`))
    expect(fromOneHost.slice(0, 30).every((r) => r.status !== 429)).toBe(true)
    expect(fromOneHost[30]!.status).toBe(429)
    expect(sendVerificationRequest).toHaveBeenCalledTimes(35)
  })
})

describe("sign-in rate limit through createHandler on a real socket", () => {
  let server: Listening | undefined
  afterEach(async () => {
    await server?.stop()
    server = undefined
  })

  async function start(config: AuthConfig) {
    server = await listenLocal(createServer(createHandler(config)))
    const origin = server.origin
    const jar = new CookieJar()
    const csrfRes = await fetch(`${origin}/auth/csrf`)
    jar.store(csrfRes)
    const { csrfToken } = (await csrfRes.json()) as { csrfToken: string }
    const attempt = (form: Record<string, string>, headers: Record<string, string> = {}) =>
      fetch(`${origin}${CALLBACK}`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.header(), ...headers },
        body: new URLSearchParams({ csrfToken, ...form }).toString(),
      })
    return { origin, attempt }
  }

  it("Hono on @hono/node-server keys on the socket's address too (c.env.incoming)", async () => {
    const { config, authorize } = credentialsConfig({ rateLimit: { maxPerAddress: 2 } })
    const app = new Hono()
    app.use(
      "*",
      initAuthConfig(() => config),
    )
    app.use("/auth/*", authHandler())
    server = await listenLocal(createAdaptorServer({ fetch: app.fetch }) as Server)
    const origin = server.origin
    const jar = new CookieJar()
    const csrfRes = await fetch(`${origin}/auth/csrf`)
    jar.store(csrfRes)
    const { csrfToken } = (await csrfRes.json()) as { csrfToken: string }
    const attempt = (username: string) =>
      fetch(`${origin}${CALLBACK}`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.header() },
        body: new URLSearchParams({ csrfToken, username, password: "wrong" }).toString(),
      })
    await attempt("u1")
    await attempt("u2")
    // A third username: its identifier is fresh, so only the address count can refuse it.
    expect((await attempt("u3")).headers.get("location")).toBe(`${origin}/auth/signin?error=RateLimited`)
    expect(authorize).toHaveBeenCalledTimes(2)
  })

  it("counts per client address (the socket's): many usernames from one address are stopped; 429 for JSON clients", async () => {
    const { config, authorize } = credentialsConfig({ rateLimit: { maxPerAddress: 4 } })
    const { origin, attempt } = await start(config)
    for (let i = 0; i < 4; i++) {
      const res = await attempt({ username: `user${i}`, password: "wrong" })
      expect(res.headers.get("location")).toBe(`${origin}/auth/signin?error=CredentialsSignin&code=credentials`)
    }
    const form = await attempt({ username: "alice", password: "password" })
    expect(form.status).toBe(302)
    expect(form.headers.get("location")).toBe(`${origin}/auth/signin?error=RateLimited`)
    expect(form.headers.getSetCookie().filter((c) => c.includes("session-token"))).toEqual([])
    const json = await attempt({ username: "bob", password: "password" }, { "x-auth-return-redirect": "1" })
    expect(json.status).toBe(429)
    expect(Number(json.headers.get("retry-after"))).toBeGreaterThan(890)
    expect(await json.json()).toEqual({ error: "RateLimited", url: `${origin}/auth/signin?error=RateLimited` })
    expect(authorize).toHaveBeenCalledTimes(4)
  })

  it('with clientAddress { header: "x-forwarded-for" } the right-most value is the address: a user from another address is unaffected', async () => {
    const { config, authorize } = credentialsConfig({
      rateLimit: { maxPerAddress: 3, max: 100, clientAddress: { header: "x-forwarded-for" } },
    })
    const { origin, attempt } = await start(config)
    const attacker = { "x-forwarded-for": "10.0.0.1, 198.51.100.7" }
    for (let i = 0; i < 3; i++) await attempt({ username: `guess${i}`, password: "wrong" }, attacker)
    expect((await attempt({ username: "alice", password: "wrong" }, attacker)).headers.get("location")).toBe(
      `${origin}/auth/signin?error=RateLimited`,
    )
    expect(authorize).toHaveBeenCalledTimes(3)
    const user = await attempt({ username: "bob", password: "password" }, { "x-forwarded-for": "203.0.113.20" })
    expect(user.headers.get("location")).toBe(origin)
    expect(user.headers.getSetCookie().some((c) => c.startsWith("authjs.session-token="))).toBe(true)
    expect(authorize).toHaveBeenCalledTimes(4)
  })

  it("the identifier limit holds across addresses (X-Forwarded-For rotation does not reset it)", async () => {
    const { config, authorize } = credentialsConfig({
      rateLimit: { max: 3, clientAddress: { header: "x-forwarded-for" } },
    })
    const { origin, attempt } = await start(config)
    for (let i = 0; i < 3; i++)
      await attempt({ username: "alice", password: "wrong" }, { "x-forwarded-for": `198.51.100.${i + 1}` })
    const res = await attempt({ username: "Alice", password: "password" }, { "x-forwarded-for": "198.51.100.99" })
    expect(res.headers.get("location")).toBe(`${origin}/auth/signin?error=RateLimited`)
    expect(authorize).toHaveBeenCalledTimes(3)
  })
})
