// Security group A (security.md §1.A): the OAuth 2 / OIDC callback against a mock OP we control completely
// (test/support/mock-op.ts). One or more tests per case OA-01..OA-22, each asserting the REJECT convention and
// the invariants: I1 no session cookie, I3 no token/userinfo/JWKS call after a failed pre-check, I4 the check
// cookies the request carried are expired, I5 no code/token/secret in the body, the Location or the logs,
// I6 no unhandled rejection. Happy paths with the real `oidc-provider` live in test/oauth-oidc-flow.test.ts.
//
// Gatehouse's documented choices asserted here: an upstream `error=access_denied` is AccessDenied
// (302 /auth/error?error=AccessDenied), any other upstream error OAuthCallbackError (302
// /auth/signin?error=OAuthCallbackError); InvalidCheck is not client-safe, so it shows as
// /auth/error?error=Configuration; an unknown provider id is 400 JSON {error:"InvalidProvider"}; the ID token
// signature is verified even for token-endpoint ID tokens; an unknown kid causes at most one JWKS refetch per
// 30 s cooldown; no kid with several fitting keys is rejected.
import { createHash } from "node:crypto"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import type { Adapter, AdapterUser, AuthConfig } from "../../src/index.js"
import type { OAuthConfigBase } from "../../src/providers/types.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { clearDiscoveryCache } from "../../src/protocols/oauth2.js"
import { JWKS_COOLDOWN_MS, clearJwksCache } from "../../src/protocols/jws.js"
import { CookieJar, ORIGIN, SECRET, fetchCsrf, get, postForm, setCookies } from "../helpers.js"
import { type Counts, type IdTokenFault, type MockOp, type TokenFault, startMockOp } from "../support/mock-op.js"

// ---------------------------------------------------------------------------------------------------------
// Harness

const STATE = "authjs.state"
const PKCE = "authjs.pkce.code_verifier"
const NONCE = "authjs.nonce"
const CHECK_COOKIES = [STATE, PKCE, NONCE] as const
const SESSION_RE = /^(__Secure-)?authjs\.session-token(\.\d+)?$/

const ERROR_PAGE = `${ORIGIN}/auth/error`
const SIGNIN_PAGE = `${ORIGIN}/auth/signin`

/** Where each internal type lands (security.md §1 conventions; error.ts / publicErrorCode). */
const REJECT_LOCATION: Record<string, string> = {
  InvalidCheck: `${ERROR_PAGE}?error=Configuration`,
  AccessDenied: `${ERROR_PAGE}?error=AccessDenied`,
  OAuthCallbackError: `${SIGNIN_PAGE}?error=OAuthCallbackError`,
  OAuthAccountNotLinked: `${SIGNIN_PAGE}?error=OAuthAccountNotLinked`,
}

interface LogSpy {
  logger: NonNullable<AuthConfig["logger"]>
  errors: unknown[]
  /** Names of the adapter write methods called (I2), in order. */
  writes: string[]
  types(): string[]
  /** What a logger would print: type, message and the message of every Error in the cause chain, plus warn/debug args. */
  text(): string
}

function errorChainText(value: unknown, depth = 0): string {
  if (!(value instanceof Error) || depth > 8) return value === undefined ? "" : typeof value === "string" ? value : ""
  const e = value as Error & { type?: string }
  return [e.name, e.type ?? "", e.message, errorChainText(e.cause, depth + 1)].join(" ")
}

function spyLogger(): LogSpy {
  const errors: unknown[] = []
  const other: unknown[] = []
  const logger = {
    error: (e: unknown) => void errors.push(e),
    warn: (...args: unknown[]) => void other.push(args),
    debug: (...args: unknown[]) => void other.push(args),
  } as unknown as NonNullable<AuthConfig["logger"]>
  return {
    logger,
    errors,
    writes: [],
    types: () => errors.map((e) => ((e as { type?: string })?.type ?? (e as Error)?.name ?? String(e))),
    text: () => [...errors.map((e) => errorChainText(e)), JSON.stringify(other)].join("\n"),
  }
}

let opA: MockOp
let opB: MockOp
const unhandled: unknown[] = []
const onUnhandled = (reason: unknown): void => void unhandled.push(reason)

beforeAll(async () => {
  process.on("unhandledRejection", onUnhandled)
  ;[opA, opB] = await Promise.all([startMockOp({ clientId: "client-a" }), startMockOp({ clientId: "client-b" })])
})

afterAll(async () => {
  await Promise.all([opA?.stop(), opB?.stop()])
  process.off("unhandledRejection", onUnhandled)
})

beforeEach(() => {
  opA.reset()
  opB.reset()
  clearDiscoveryCache()
  clearJwksCache()
})

afterEach(() => {
  vi.restoreAllMocks()
})

function provider(op: MockOp, over: Partial<OAuthConfigBase> = {}): OAuthConfigBase {
  return {
    id: "mock",
    name: "Mock OP",
    type: "oidc",
    issuer: op.issuer,
    clientId: op.clientId,
    clientSecret: op.clientSecret,
    client: { token_endpoint_auth_method: op.tokenEndpointAuthMethod },
    checks: ["pkce", "state", "nonce"],
    timeout: 3000,
    ...over,
  }
}

const WRITE_METHODS = new Set([
  "createUser", "updateUser", "deleteUser", "linkAccount", "unlinkAccount", "createSession", "updateSession", "deleteSession",
  "createVerificationToken", "useVerificationToken", "createAuthenticator", "updateAuthenticatorCounter",
])

/** An in-memory adapter whose write calls are recorded into `writes` (I2). */
function spyAdapter(writes: string[], base: Adapter = MemoryAdapter()): Adapter {
  const out: Record<string, unknown> = {}
  for (const [name, fn] of Object.entries(base)) {
    if (typeof fn !== "function") continue
    out[name] = (...args: unknown[]) => {
      if (WRITE_METHODS.has(name)) writes.push(name)
      return (fn as (...a: unknown[]) => unknown).apply(base, args)
    }
  }
  return out as Adapter
}

/**
 * A fresh config (Gatehouse memoises per config object) with a spy logger and a spy in-memory adapter
 * (JWT sessions unless `extra.session` says otherwise), so every case can assert I2.
 */
function setup(providers: OAuthConfigBase[], extra: Partial<AuthConfig> = {}): { config: AuthConfig; log: LogSpy; mem: ReturnType<typeof MemoryAdapter> } {
  const log = spyLogger()
  const mem = MemoryAdapter()
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    providers,
    logger: log.logger,
    adapter: spyAdapter(log.writes, mem),
    session: { strategy: "jwt" },
    ...extra,
  }
  return { config, log, mem }
}

interface Started {
  jar: CookieJar
  authUrl: URL
  signin: Response
}

/** GET /csrf, then POST /signin/<id>: the browser now holds the check cookies; returns the authorization URL. */
async function beginSignIn(config: AuthConfig, providerId = "mock", jar = new CookieJar()): Promise<Started> {
  const csrfToken = await fetchCsrf(config, jar)
  const signin = await Auth(postForm(`/auth/signin/${providerId}`, { csrfToken, callbackUrl: "/dashboard" }, { cookie: jar.header() }), config)
  expect(signin.status, "sign-in start answers a redirect").toBe(302)
  jar.store(signin)
  return { jar, authUrl: new URL(signin.headers.get("location") as string), signin }
}

function callbackGet(config: AuthConfig, url: URL | string, cookie: string): Promise<Response> {
  const u = new URL(url)
  return Auth(get(`${u.pathname}${u.search}`, { cookie }), config)
}

function callbackPost(config: AuthConfig, providerId: string, params: URLSearchParams, cookie: string, headers: Record<string, string> = {}): Promise<Response> {
  const h = new Headers(headers)
  h.set("content-type", "application/x-www-form-urlencoded")
  if (cookie) h.set("cookie", cookie)
  return Auth(new Request(`${ORIGIN}/auth/callback/${providerId}`, { method: "POST", headers: h, body: params.toString() }), config)
}

/** A URL on the RP's callback with the given parameters (duplicates kept, order kept). */
function callbackUrl(providerId: string, params: URLSearchParams | [string, string][]): URL {
  const url = new URL(`${ORIGIN}/auth/callback/${providerId}`)
  url.search = new URLSearchParams(params as [string, string][]).toString()
  return url
}

/** A complete sign-in: start, the OP's authorization answer, the callback. */
async function fullFlow(config: AuthConfig, op: MockOp, providerId = "mock"): Promise<{ res: Response; started: Started; callback: URL }> {
  const started = await beginSignIn(config, providerId)
  const answer = await op.authorize(started.authUrl)
  const res = await callbackGet(config, answer.url, started.jar.header())
  return { res, started, callback: answer.url }
}

function sessionCookiesSet(res: Response): string[] {
  return [...setCookies(res)].filter(([name, c]) => SESSION_RE.test(name) && c.value !== "" && c.attrs["max-age"] !== "0").map(([name]) => name)
}

function expectSignedIn(res: Response): void {
  expect(res.status).toBe(302)
  expect(res.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
  expect(sessionCookiesSet(res)).toEqual(["authjs.session-token"])
}

function deltaCounts(before: Counts, after: Counts): Counts {
  const out = { ...after }
  for (const k of Object.keys(before) as (keyof Counts)[]) out[k] = after[k] - before[k]
  return out
}

interface RejectExpectation {
  /** The internal type: decides the Location (REJECT(T)) and must be logged exactly once. */
  type: "InvalidCheck" | "AccessDenied" | "OAuthCallbackError" | "OAuthAccountNotLinked"
  log: LogSpy
  op: MockOp
  /** Counts snapshot taken just before the callback. */
  before: Counts
  /** I3: the failure is a pre-check, so no token, userinfo or JWKS call may follow. */
  preCheck?: boolean
  /** Check cookies the request carried: the response must expire them (I4). */
  carried?: readonly string[]
  /** Extra strings that must not appear in the body, the Location or the logs (I5). */
  secrets?: readonly string[]
}

/** REJECT(T) plus I1, I3, I4, I5 (security.md §1 conventions). */
async function expectReject(res: Response, x: RejectExpectation): Promise<void> {
  expect(res.status, "REJECT: browser endpoints answer a redirect").toBe(302)
  const location = res.headers.get("location") ?? ""
  expect(location, "rejected: not signed in").not.toBe(`${ORIGIN}/dashboard`)
  // I1, I2
  expect(sessionCookiesSet(res), "I1: no session cookie").toEqual([])
  expect(x.log.writes, "I2: no adapter write").toEqual([])
  // I3
  const d = deltaCounts(x.before, x.op.counts)
  if (x.preCheck) expect({ token: d.token, userinfo: d.userinfo, jwks: d.jwks }, "I3: no outbound call after a failed pre-check").toEqual({ token: 0, userinfo: 0, jwks: 0 })
  expect(d.tokenRedirectTarget, "redirects are never followed").toBe(0)
  // I4
  const cookies = setCookies(res)
  for (const name of x.carried ?? []) {
    const c = cookies.get(name)
    expect(c, `I4: ${name} expired in the failing response`).toBeDefined()
    expect(c?.attrs["max-age"], `I4: ${name} Max-Age=0`).toBe("0")
  }
  for (const name of CHECK_COOKIES) {
    const c = cookies.get(name)
    if (c) expect(c.attrs["max-age"], `no check cookie ${name} is (re)issued on a failure`).toBe("0")
  }
  // I5
  const body = await res.clone().text()
  const logs = x.log.text()
  const forbidden = [...x.op.issued, x.op.clientSecret, SECRET, ...(x.secrets ?? [])].filter((s) => s.length >= 8)
  for (const s of forbidden) {
    expect(body.includes(s), "I5: body holds no code/token/secret").toBe(false)
    expect(location.includes(s), "I5: Location holds no code/token/secret").toBe(false)
    expect(logs.includes(s), `I5: logs hold no code/token/secret (${s.slice(0, 12)}…)`).toBe(false)
  }
  expect(body).not.toMatch(/\n\s+at /)
  // REJECT(T): the public code for T, and T logged exactly once (checked last, after the invariants).
  expect(location, `REJECT(${x.type})`).toBe(REJECT_LOCATION[x.type])
  expect(x.log.types().filter((t) => t === x.type), `internal type ${x.type} logged once (logged: ${x.log.types().join(", ")})`).toHaveLength(1)
}

/** Cookie header of a jar without some cookies. */
function without(jar: CookieJar, ...names: string[]): string {
  return [...jar.cookies].filter(([k]) => !names.includes(k)).map(([k, v]) => `${k}=${v}`).join("; ")
}

function carriedChecks(cookieHeader: string): string[] {
  return CHECK_COOKIES.filter((n) => cookieHeader.split("; ").some((p) => p.startsWith(`${n}=`)))
}

let clockOffset = 0
/** Moves Date.now() (and so every JWT/JWE/cookie clock on both sides) forward. */
function useShiftedClock(): (ms: number) => void {
  clockOffset = 0
  const realNow = Date.now.bind(Date)
  vi.spyOn(Date, "now").mockImplementation(() => realNow() + clockOffset)
  return (ms: number) => {
    clockOffset += ms
  }
}

// ---------------------------------------------------------------------------------------------------------
// Baseline: the mock OP and the flow work, so every rejection below is caused by its fault alone.

describe("A. OAuth 2 / OIDC callback — baseline (oidcc-client-test)", () => {
  it("happy path: code flow with pkce+state+nonce, client_secret_basic, ID token RS256 signed, session issued", async () => {
    const { config, log } = setup([provider(opA)])
    const { res, started } = await fullFlow(config, opA)
    expectSignedIn(res)
    expect(log.types()).toEqual([])
    const req = opA.authorizationRequests[0] as URLSearchParams
    expect(req.get("code_challenge_method")).toBe("S256")
    expect(req.get("redirect_uri")).toBe(`${ORIGIN}/auth/callback/mock`)
    expect(opA.tokenRequests[0]?.authorization).toMatch(/^Basic /)
    expect(opA.counts).toMatchObject({ discovery: 1, authorize: 1, token: 1, jwks: 1, userinfo: 0 })
    // A successful callback also expires the check cookies (I4 holds on success too).
    for (const name of CHECK_COOKIES) expect(setCookies(res).get(name)?.attrs["max-age"]).toBe("0")
    expect(started.jar.cookies.has(STATE)).toBe(true)
  })

  it("happy path: client_secret_post", async () => {
    opA.tokenEndpointAuthMethod = "client_secret_post"
    const { config } = setup([provider(opA)])
    const { res } = await fullFlow(config, opA)
    expectSignedIn(res)
    expect(opA.tokenRequests[0]?.authorization).toBeUndefined()
    expect(opA.tokenRequests[0]?.body.get("client_secret")).toBe(opA.clientSecret)
  })
})

// ---------------------------------------------------------------------------------------------------------
// OA-01 .. OA-22

describe("A. OAuth 2 / OIDC callback — attacks (security.md §1.A)", () => {
  it("OA-01 callback without state: REJECT(InvalidCheck), I1 I3 I4 I5", async () => {
    const { config, log } = setup([provider(opA)])
    const { jar, authUrl } = await beginSignIn(config)
    const answer = await opA.authorize(authUrl)
    const params = new URLSearchParams(answer.params)
    params.delete("state")
    const before = { ...opA.counts }
    const res = await callbackGet(config, callbackUrl("mock", params), jar.header())
    await expectReject(res, { type: "InvalidCheck", log, op: opA, before, preCheck: true, carried: CHECK_COOKIES })
  })

  it("OA-01 state one character off the cookie value (first, middle, last): REJECT(InvalidCheck), I3", async () => {
    for (const where of ["first", "middle", "last"] as const) {
      opA.reset()
      const { config, log } = setup([provider(opA)])
      const { jar, authUrl } = await beginSignIn(config)
      const answer = await opA.authorize(authUrl)
      const state = answer.params.get("state") as string
      const i = where === "first" ? 0 : where === "last" ? state.length - 1 : state.length >> 1
      const swapped = state.slice(0, i) + (state[i] === "A" ? "B" : "A") + state.slice(i + 1)
      const params = new URLSearchParams(answer.params)
      params.set("state", swapped)
      const before = { ...opA.counts }
      const res = await callbackGet(config, callbackUrl("mock", params), jar.header())
      await expectReject(res, { type: "InvalidCheck", log, op: opA, before, preCheck: true, carried: CHECK_COOKIES })
    }
  })

  it("OA-02 valid state/code but no check cookies (link opened in another browser): REJECT(InvalidCheck), I3", async () => {
    const { config, log } = setup([provider(opA)])
    const { authUrl } = await beginSignIn(config)
    const answer = await opA.authorize(authUrl)
    const before = { ...opA.counts }
    // The other browser has only its own CSRF cookie.
    const other = new CookieJar()
    await fetchCsrf(config, other)
    const res = await callbackGet(config, answer.url, other.header())
    await expectReject(res, { type: "InvalidCheck", log, op: opA, before, preCheck: true })
  })

  it("OA-02 login CSRF: the attacker's callback URL in a victim browser that holds its own check cookies: REJECT(InvalidCheck), I3", async () => {
    const { config, log } = setup([provider(opA)])
    const attacker = await beginSignIn(config)
    const attackerAnswer = await opA.authorize(attacker.authUrl)
    const victim = await beginSignIn(config)
    const before = { ...opA.counts }
    const res = await callbackGet(config, attackerAnswer.url, victim.jar.header())
    await expectReject(res, { type: "InvalidCheck", log, op: opA, before, preCheck: true, carried: CHECK_COOKIES })
  })

  it("OA-03 check cookies minted for provider A, callback on provider B (other issuer, client, redirect_uri): REJECT(InvalidCheck), I3", async () => {
    const { config, log } = setup([provider(opA, { id: "mock-a" }), provider(opB, { id: "mock-b" })])
    const { jar, authUrl } = await beginSignIn(config, "mock-a")
    const answer = await opA.authorize(authUrl)
    // Same code/state/iss, delivered to B's callback (B's own iss so only the cookie binding can catch it).
    const params = new URLSearchParams(answer.params)
    params.set("iss", opB.issuer)
    const before = { a: { ...opA.counts }, b: { ...opB.counts } }
    const res = await callbackGet(config, callbackUrl("mock-b", params), jar.header())
    await expectReject(res, { type: "InvalidCheck", log, op: opB, before: before.b, preCheck: true, carried: CHECK_COOKIES })
    expect(deltaCounts(before.a, opA.counts)).toMatchObject({ token: 0, userinfo: 0, jwks: 0 })
  })

  it("OA-03 binding: same issuer, other provider id; same provider id, other client_id: REJECT(InvalidCheck), I3", async () => {
    // (a) two provider ids on the same OP and client: the cookie binds the provider id and the redirect_uri.
    {
      const { config, log } = setup([provider(opA, { id: "mock" }), provider(opA, { id: "mock-twin" })])
      const { jar, authUrl } = await beginSignIn(config, "mock")
      const answer = await opA.authorize(authUrl)
      const before = { ...opA.counts }
      const res = await callbackGet(config, callbackUrl("mock-twin", answer.params), jar.header())
      await expectReject(res, { type: "InvalidCheck", log, op: opA, before, preCheck: true, carried: CHECK_COOKIES })
    }
    // (b) the same provider id, reconfigured with another client_id: the cookie binds the client.
    {
      opA.reset()
      const first = setup([provider(opA)])
      const { jar, authUrl } = await beginSignIn(first.config, "mock")
      const answer = await opA.authorize(authUrl)
      const second = setup([provider(opA, { clientId: "client-a-v2" })])
      const before = { ...opA.counts }
      const res = await callbackGet(second.config, answer.url, jar.header())
      await expectReject(res, { type: "InvalidCheck", log: second.log, op: opA, before, preCheck: true, carried: CHECK_COOKIES })
    }
  })

  it("OA-04 exact replay of a callback URL that already succeeded: REJECT(InvalidCheck), one session in total, I3", async () => {
    const { config, log } = setup([provider(opA)])
    const { res: first, started, callback } = await fullFlow(config, opA)
    expectSignedIn(first)
    started.jar.store(first) // the browser applies the response: check cookies gone, session cookie set
    log.writes.length = 0
    const before = { ...opA.counts }
    const replay = await callbackGet(config, callback, started.jar.header())
    await expectReject(replay, { type: "InvalidCheck", log, op: opA, before, preCheck: true })
    expect(opA.tokenRequests).toHaveLength(1)
  })

  it("OA-04 replay of the callback URL together with copies of the old check cookies: rejected (single-use code at the AS), no second session", async () => {
    // Check cookies are stateless sealed values, so a captured cookie copy passes the pre-checks; the code is
    // single use at the AS, which answers invalid_grant. Documented: the AS's single-use code is the replay
    // defence for this variant (RFC 6749 §4.1.2), hence OAuthCallbackError, not InvalidCheck.
    const { config, log } = setup([provider(opA)])
    const { res: first, started, callback } = await fullFlow(config, opA)
    expectSignedIn(first)
    log.writes.length = 0
    const before = { ...opA.counts }
    const replay = await callbackGet(config, callback, started.jar.header())
    await expectReject(replay, { type: "OAuthCallbackError", log, op: opA, before, carried: CHECK_COOKIES })
    expect(opA.tokenRequests.map((r) => r.status)).toEqual([200, 400])
    expect(deltaCounts(before, opA.counts)).toMatchObject({ userinfo: 0, jwks: 0 })
  })

  it("OA-04 (database strategy) a replayed callback with copied check cookies: one user, one account, one session in total", async () => {
    const { config, log, mem } = setup([provider(opA)], { session: { strategy: "database" } })
    const { res: first, started, callback } = await fullFlow(config, opA)
    expect(first.status).toBe(302)
    expect(sessionCookiesSet(first)).toEqual(["authjs.session-token"])
    log.writes.length = 0
    const before = { ...opA.counts }
    const replay = await callbackGet(config, callback, started.jar.header())
    await expectReject(replay, { type: "OAuthCallbackError", log, op: opA, before, carried: CHECK_COOKIES })
    expect({ users: mem.users.size, accounts: mem.accounts.size, sessions: mem.sessions.size }).toEqual({ users: 1, accounts: 1, sessions: 1 })
  })

  it("OA-05 checks stripped from the authorize URL and no check cookies: REJECT(InvalidCheck); a configured check is never skipped, I3", async () => {
    const { config, log } = setup([provider(opA)])
    const { authUrl } = await beginSignIn(config)
    const stripped = new URL(authUrl)
    for (const k of ["state", "code_challenge", "code_challenge_method", "nonce"]) stripped.searchParams.delete(k)
    const answer = await opA.authorize(stripped)
    expect(answer.params.has("state")).toBe(false)
    const other = new CookieJar()
    await fetchCsrf(config, other)
    const before = { ...opA.counts }
    const res = await callbackGet(config, answer.url, other.header())
    await expectReject(res, { type: "InvalidCheck", log, op: opA, before, preCheck: true })
  })

  it("OA-05 each configured check (state, pkce, nonce) alone without its cookie: REJECT(InvalidCheck), I3, I4 for the others", async () => {
    for (const missing of CHECK_COOKIES) {
      opA.reset()
      const { config, log } = setup([provider(opA)])
      const { jar, authUrl } = await beginSignIn(config)
      const answer = await opA.authorize(authUrl)
      const cookie = without(jar, missing)
      const before = { ...opA.counts }
      const res = await callbackGet(config, answer.url, cookie)
      await expectReject(res, { type: "InvalidCheck", log, op: opA, before, preCheck: true, carried: carriedChecks(cookie) })
    }
  })

  it("OA-05 a provider configured with checks:[\"nonce\"] only: the nonce cookie missing is REJECT(InvalidCheck), I3", async () => {
    const { config, log } = setup([provider(opA, { checks: ["nonce"] })])
    const { jar, authUrl } = await beginSignIn(config)
    expect(authUrl.searchParams.has("nonce")).toBe(true)
    const answer = await opA.authorize(authUrl)
    const before = { ...opA.counts }
    const res = await callbackGet(config, answer.url, without(jar, NONCE))
    await expectReject(res, { type: "InvalidCheck", log, op: opA, before, preCheck: true })
  })

  it("OA-06 PKCE cookie missing: REJECT(InvalidCheck), I3", async () => {
    const { config, log } = setup([provider(opA, { checks: ["pkce"] })])
    const { jar, authUrl } = await beginSignIn(config)
    const answer = await opA.authorize(authUrl)
    const before = { ...opA.counts }
    const res = await callbackGet(config, answer.url, without(jar, PKCE))
    await expectReject(res, { type: "InvalidCheck", log, op: opA, before, preCheck: true })
  })

  it("OA-06 PKCE cookie expired (> 15 min): REJECT(InvalidCheck), I3, I4", async () => {
    const advance = useShiftedClock()
    const { config, log } = setup([provider(opA, { checks: ["pkce"] })])
    const { jar, authUrl } = await beginSignIn(config)
    const answer = await opA.authorize(authUrl)
    advance(16 * 60_000)
    const before = { ...opA.counts }
    const res = await callbackGet(config, answer.url, jar.header())
    await expectReject(res, { type: "InvalidCheck", log, op: opA, before, preCheck: true, carried: [PKCE] })
  })

  it("OA-06 PKCE cookie with a broken JWE tag / ciphertext / header: REJECT(InvalidCheck), I3, I4", async () => {
    for (const segment of [4, 3, 0]) {
      opA.reset()
      const { config, log } = setup([provider(opA, { checks: ["pkce"] })])
      const { jar, authUrl } = await beginSignIn(config)
      const answer = await opA.authorize(authUrl)
      const value = decodeURIComponent(jar.cookies.get(PKCE) as string)
      const parts = value.split(".")
      expect(parts).toHaveLength(5)
      const part = parts[segment] as string
      const i = part.length >> 1
      parts[segment] = part.slice(0, i) + (part[i] === "A" ? "Q" : "A") + part.slice(i + 1)
      jar.cookies.set(PKCE, encodeURIComponent(parts.join(".")))
      const before = { ...opA.counts }
      const res = await callbackGet(config, answer.url, jar.header())
      await expectReject(res, { type: "InvalidCheck", log, op: opA, before, preCheck: true, carried: [PKCE] })
    }
  })

  it("OA-07 1,000 authorization URLs: always S256, challenge format, no repeated state/nonce/challenge; challenge = S256(verifier) at the token endpoint", async () => {
    const { config } = setup([provider(opA)])
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const states = new Set<string>()
    const nonces = new Set<string>()
    const challenges = new Set<string>()
    const N = 1000
    for (let i = 0; i < N; i++) {
      const res = await Auth(postForm("/auth/signin/mock", { csrfToken, callbackUrl: "/dashboard" }, { cookie: jar.header() }), config)
      const url = new URL(res.headers.get("location") as string)
      const q = url.searchParams
      expect(q.getAll("code_challenge_method")).toEqual(["S256"])
      expect(q.getAll("code_challenge")).toHaveLength(1)
      expect(q.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(q.get("response_type")).toBe("code")
      expect(q.get("client_id")).toBe(opA.clientId)
      expect(q.has("code_verifier")).toBe(false)
      states.add(q.get("state") as string)
      nonces.add(q.get("nonce") as string)
      challenges.add(q.get("code_challenge") as string)
      // The verifier never leaves in clear: not in the URL, not readable in the cookie.
      const pkce = setCookies(res).get(PKCE)
      expect(pkce?.value.split(".")).toHaveLength(5)
      expect(pkce?.attrs.httponly).toBe(true)
    }
    expect(states.size).toBe(N)
    expect(nonces.size).toBe(N)
    expect(challenges.size).toBe(N)
    for (const n of nonces) expect(n.length).toBeGreaterThanOrEqual(22)
    // The verifier is only visible where it is meant to arrive: the token request. Check it there.
    const verifiers = new Set<string>()
    for (let i = 0; i < 20; i++) {
      opA.reset()
      const { res } = await fullFlow(config, opA)
      expectSignedIn(res)
      const challenge = opA.authorizationRequests[0]?.get("code_challenge")
      const verifier = opA.tokenRequests[0]?.body.get("code_verifier") as string
      expect(verifier).toMatch(/^[A-Za-z0-9\-._~]{43,128}$/)
      expect(createHash("sha256").update(verifier).digest("base64url")).toBe(challenge)
      verifiers.add(verifier)
    }
    expect(verifiers.size).toBe(20)
  })

  it("OA-08 the attacker's own valid code injected into the victim's callback: AS answers invalid_grant -> REJECT(OAuthCallbackError), nothing linked", async () => {
    const { config, log } = setup([provider(opA)])
    // The attacker ran its own flow and stopped before its callback: its code is valid and unused.
    const attacker = await beginSignIn(config)
    opA.subject = "attacker-sub"
    const attackerAnswer = await opA.authorize(attacker.authUrl)
    const attackerCode = attackerAnswer.params.get("code") as string
    // The victim's flow: the attacker swaps in its code, keeping the victim's state and iss.
    opA.subject = "victim-sub"
    const victim = await beginSignIn(config)
    const victimAnswer = await opA.authorize(victim.authUrl)
    const params = new URLSearchParams(victimAnswer.params)
    params.set("code", attackerCode)
    const before = { ...opA.counts }
    const res = await callbackGet(config, callbackUrl("mock", params), victim.jar.header())
    await expectReject(res, { type: "OAuthCallbackError", log, op: opA, before, carried: CHECK_COOKIES })
    const d = deltaCounts(before, opA.counts)
    expect(d).toMatchObject({ token: 1, userinfo: 0, jwks: 0 })
    expect(opA.tokenRequests.at(-1)).toMatchObject({ status: 400, error: "invalid_grant" })
  })

  it("OA-09 iss ≠ expected issuer (other AS, trailing slash, case): REJECT(InvalidCheck) before the token call", async () => {
    for (const iss of [opB.issuer, `${opA.issuer}/`, opA.issuer.toUpperCase(), "https://attacker.example/op", ""]) {
      opA.reset()
      const { config, log } = setup([provider(opA)])
      const { jar, authUrl } = await beginSignIn(config)
      const answer = await opA.authorize(authUrl)
      const params = new URLSearchParams(answer.params)
      params.set("iss", iss)
      const before = { ...opA.counts }
      const res = await callbackGet(config, callbackUrl("mock", params), jar.header())
      await expectReject(res, { type: "InvalidCheck", log, op: opA, before, preCheck: true, carried: CHECK_COOKIES })
    }
  })

  it("OA-09 iss absent while the metadata advertises authorization_response_iss_parameter_supported: REJECT(InvalidCheck), I3", async () => {
    opA.sendIss = false
    const { config, log } = setup([provider(opA)])
    const { jar, authUrl } = await beginSignIn(config)
    const answer = await opA.authorize(authUrl)
    expect(answer.params.has("iss")).toBe(false)
    const before = { ...opA.counts }
    const res = await callbackGet(config, answer.url, jar.header())
    await expectReject(res, { type: "InvalidCheck", log, op: opA, before, preCheck: true, carried: CHECK_COOKIES })
  })

  it("OA-09 mix-up: two ASes, the user was sent to B, the response carries A's iss: REJECT(InvalidCheck), no call to either AS", async () => {
    const { config, log } = setup([provider(opA, { id: "mock-a" }), provider(opB, { id: "mock-b" })])
    const { jar, authUrl } = await beginSignIn(config, "mock-b")
    const answer = await opB.authorize(authUrl)
    const params = new URLSearchParams(answer.params)
    params.set("iss", opA.issuer)
    const before = { a: { ...opA.counts }, b: { ...opB.counts } }
    const res = await callbackGet(config, callbackUrl("mock-b", params), jar.header())
    await expectReject(res, { type: "InvalidCheck", log, op: opB, before: before.b, preCheck: true, carried: CHECK_COOKIES })
    expect(deltaCounts(before.a, opA.counts)).toMatchObject({ token: 0, userinfo: 0, jwks: 0 })
  })

  it("OA-09 (control) iss absent and not advertised: accepted", async () => {
    opA.sendIss = false
    opA.issParameterSupported = false
    const { config } = setup([provider(opA)])
    const { res } = await fullFlow(config, opA)
    expectSignedIn(res)
  })

  it("OA-10 error=access_denied with <script> description and a valid state: REJECT(AccessDenied), description never rendered, I3 I4", async () => {
    const { config, log } = setup([provider(opA)])
    const { jar, authUrl } = await beginSignIn(config)
    const state = authUrl.searchParams.get("state") as string
    const script = "<script>alert(document.cookie)</script>"
    const before = { ...opA.counts }
    const res = await callbackGet(
      config,
      callbackUrl("mock", [["error", "access_denied"], ["error_description", script], ["state", state], ["iss", opA.issuer]]),
      jar.header(),
    )
    await expectReject(res, { type: "AccessDenied", log, op: opA, before, preCheck: true, carried: CHECK_COOKIES, secrets: [script, "alert(document"] })
    // The error page the user lands on does not render it either.
    const page = await Auth(get(new URL(res.headers.get("location") as string).pathname + new URL(res.headers.get("location") as string).search), config)
    expect(await page.text()).not.toContain("alert(")
  })

  it("OA-10 error=access_denied without state (and without cookies): REJECT(AccessDenied), I3", async () => {
    const { config, log } = setup([provider(opA)])
    const before = { ...opA.counts }
    const res = await callbackGet(config, callbackUrl("mock", [["error", "access_denied"], ["error_description", "<img src=x onerror=alert(1)>"]]), "")
    await expectReject(res, { type: "AccessDenied", log, op: opA, before, preCheck: true, secrets: ["onerror=alert"] })
  })

  it("OA-10 other upstream errors (server_error, invalid_scope, an unknown code): REJECT(OAuthCallbackError), I3 I4", async () => {
    for (const error of ["server_error", "invalid_scope", "<b>weird</b>"]) {
      opA.reset()
      const { config, log } = setup([provider(opA)])
      const { jar, authUrl } = await beginSignIn(config)
      const before = { ...opA.counts }
      const res = await callbackGet(
        config,
        callbackUrl("mock", [["error", error], ["error_description", "<script>x()</script>"], ["state", authUrl.searchParams.get("state") as string]]),
        jar.header(),
      )
      await expectReject(res, { type: "OAuthCallbackError", log, op: opA, before, preCheck: true, carried: CHECK_COOKIES, secrets: ["<script>x()"] })
    }
  })

  describe("OA-11 ID token signature (checked even for token-endpoint ID tokens; alg must equal the registered one)", () => {
    const cases: { fault: IdTokenFault; alg?: string; why: string }[] = [
      { fault: "invalid-sig-rs256", why: "RS256 signature altered" },
      { fault: "invalid-sig-es256", alg: "ES256", why: "ES256 signature altered (client registered ES256)" },
      { fault: "invalid-sig-hs256", alg: "HS256", why: "HS256 keyed with the wrong secret (client registered HS256)" },
      { fault: "idtoken-sig-none", why: "alg none" },
      { fault: "invalid-null-alg", why: "alg null" },
      { fault: "hs256-rsa-public-key", why: "HS256 keyed with the RSA public key (key confusion)" },
      { fault: "alternate-alg-es256", why: "valid ES256 signature while RS256 is registered" },
    ]
    for (const c of cases) {
      it(`OA-11 ${c.fault}: ${c.why} -> REJECT(OAuthCallbackError), no userinfo call, no session`, async () => {
        if (c.alg === "ES256") opA.jwksKids = ["rsa-1", "ec-1"]
        if (c.fault === "alternate-alg-es256") opA.jwksKids = ["rsa-1", "ec-1"]
        if (c.fault === "idtoken-sig-none") opA.signingAlgValues = ["RS256", "none"]
        opA.idTokenFault = c.fault
        const { config, log } = setup([provider(opA, c.alg ? { client: { token_endpoint_auth_method: "client_secret_basic", id_token_signed_response_alg: c.alg } } : {})])
        const started = await beginSignIn(config)
        const answer = await opA.authorize(started.authUrl)
        const before = { ...opA.counts }
        const res = await callbackGet(config, answer.url, started.jar.header())
        await expectReject(res, { type: "OAuthCallbackError", log, op: opA, before, carried: CHECK_COOKIES })
        expect(deltaCounts(before, opA.counts)).toMatchObject({ token: 1, userinfo: 0 })
      })
    }

    it("OA-11 (controls) correctly signed ES256 and HS256 ID tokens are accepted when registered", async () => {
      opA.jwksKids = ["rsa-1", "ec-1"]
      opA.signingAlg = "ES256"
      opA.signingKid = "ec-1"
      let { config } = setup([provider(opA, { client: { token_endpoint_auth_method: "client_secret_basic", id_token_signed_response_alg: "ES256" } })])
      expectSignedIn((await fullFlow(config, opA)).res)
      opA.reset()
      opA.signingAlg = "HS256"
      ;({ config } = setup([provider(opA, { client: { token_endpoint_auth_method: "client_secret_basic", id_token_signed_response_alg: "HS256" } })]))
      expectSignedIn((await fullFlow(config, opA)).res)
    })
  })

  describe("OA-12 .. OA-16 ID token claims", () => {
    const cases: { id: string; fault: IdTokenFault; why: string }[] = [
      { id: "OA-12", fault: "invalid-iss", why: "iss of another issuer" },
      { id: "OA-12", fault: "missing-iss", why: "iss missing" },
      { id: "OA-13", fault: "invalid-aud", why: "aud of another client" },
      { id: "OA-13", fault: "missing-aud", why: "aud missing" },
      { id: "OA-13", fault: "invalid-secondary-aud", why: "aud [client_id, untrusted] without azp" },
      { id: "OA-13", fault: "invalid-secondary-aud-with-azp", why: "aud [client_id, untrusted] with azp=client_id (extra audience still untrusted, OIDC Core 3.1.3.7 step 3)" },
      { id: "OA-13", fault: "invalid-azp", why: "azp ≠ client_id" },
      { id: "OA-14", fault: "invalid-expired-exp", why: "exp two minutes ago" },
      { id: "OA-14", fault: "invalid-missing-exp", why: "exp missing" },
      { id: "OA-14", fault: "missing-iat", why: "iat missing" },
      { id: "OA-14", fault: "iat-is-week-in-past", why: "iat a week old" },
      { id: "OA-14", fault: "nbf-in-future", why: "nbf ten minutes ahead" },
      { id: "OA-15", fault: "nonce-invalid", why: "nonce different" },
      { id: "OA-15", fault: "invalid-missing-nonce", why: "nonce missing" },
      { id: "OA-16", fault: "missing-sub", why: "sub missing" },
    ]
    for (const c of cases) {
      it(`${c.id} ${c.fault}: ${c.why} -> REJECT(OAuthCallbackError), no userinfo call, no session`, async () => {
        opA.idTokenFault = c.fault
        const { config, log } = setup([provider(opA)])
        const started = await beginSignIn(config)
        const answer = await opA.authorize(started.authUrl)
        const before = { ...opA.counts }
        const res = await callbackGet(config, answer.url, started.jar.header())
        await expectReject(res, { type: "OAuthCallbackError", log, op: opA, before, carried: CHECK_COOKIES })
        expect(deltaCounts(before, opA.counts)).toMatchObject({ token: 1, userinfo: 0 })
      })
    }

    it("OA-13 (control) valid-aud-as-array: aud [client_id] is accepted", async () => {
      opA.idTokenFault = "valid-aud-as-array"
      const { config } = setup([provider(opA)])
      expectSignedIn((await fullFlow(config, opA)).res)
    })

    it("OA-14 (control) exp/iat/nbf within the clock tolerance are accepted", async () => {
      const now = Math.floor(Date.now() / 1000)
      opA.extraClaims = { nbf: now + 10, iat: now + 10 }
      const { config } = setup([provider(opA)])
      expectSignedIn((await fullFlow(config, opA)).res)
    })

    it("OA-16 userinfo-invalid-sub: UserInfo sub ≠ ID token sub -> REJECT(OAuthCallbackError); UserInfo claims never stored", async () => {
      opA.userinfoFault = "invalid-sub"
      const { config, log } = setup([provider(opA, { idToken: false })], {
        callbacks: {
          jwt: ({ token, profile }) => ({ ...token, fromProfile: (profile as { name?: string } | undefined)?.name }),
        },
      })
      const started = await beginSignIn(config)
      const answer = await opA.authorize(started.authUrl)
      const before = { ...opA.counts }
      const res = await callbackGet(config, answer.url, started.jar.header())
      await expectReject(res, { type: "OAuthCallbackError", log, op: opA, before, carried: CHECK_COOKIES, secrets: ["Userinfo Name", "userinfo@op.example"] })
      expect(deltaCounts(before, opA.counts)).toMatchObject({ token: 1, userinfo: 1 })
    })

    it("OA-16 (control) scope-userinfo-claims: UserInfo with the same sub is used when idToken is false", async () => {
      const seen: unknown[] = []
      const { config } = setup([provider(opA, { idToken: false })], {
        callbacks: { signIn: ({ profile }) => (seen.push(profile), true) },
      })
      expectSignedIn((await fullFlow(config, opA)).res)
      expect(seen).toEqual([expect.objectContaining({ sub: "mock-user-1", name: "Userinfo Name" })])
      expect(opA.tokenRequests).toHaveLength(1)
      expect(opA.counts.userinfo).toBe(1)
    })
  })

  describe("OA-17 kid handling and JWKS refetch", () => {
    it("OA-17 unknown kid twice within 1 s: rejected, no refetch inside the 30 s cooldown; after it, one refetch per cooldown; then a rotated key is accepted", async () => {
      const advance = useShiftedClock()
      const { config, log } = setup([provider(opA)])
      // t=0: a normal sign-in fills the JWKS cache (fetch #1).
      expectSignedIn((await fullFlow(config, opA)).res)
      expect(opA.counts.jwks).toBe(1)
      log.writes.length = 0
      // Unknown kid twice within 1 s: rejected, no refetch (the set was fetched < 30 s ago).
      opA.kidMode = "unknown"
      for (let i = 0; i < 2; i++) {
        const before = { ...opA.counts }
        const started = await beginSignIn(config)
        const answer = await opA.authorize(started.authUrl)
        const res = await callbackGet(config, answer.url, started.jar.header())
        await expectReject(res, { type: "OAuthCallbackError", log, op: opA, before, carried: CHECK_COOKIES })
        log.errors.length = 0
        advance(400)
      }
      expect(opA.counts.jwks, "no refetch inside the cooldown").toBe(1)
      // After the cooldown: an unknown kid causes exactly one refetch; a second one right after causes none.
      advance(JWKS_COOLDOWN_MS + 1000)
      for (let i = 0; i < 2; i++) {
        const before = { ...opA.counts }
        const started = await beginSignIn(config)
        const answer = await opA.authorize(started.authUrl)
        const res = await callbackGet(config, answer.url, started.jar.header())
        await expectReject(res, { type: "OAuthCallbackError", log, op: opA, before, carried: CHECK_COOKIES })
        log.errors.length = 0
        advance(400)
      }
      expect(opA.counts.jwks, "one refetch per cooldown").toBe(2)
      // Rotation: the OP now publishes and signs with rsa-2 only. After the cooldown the new key is fetched and accepted.
      opA.kidMode = "signing"
      opA.jwksKids = ["rsa-2"]
      opA.signingKid = "rsa-2"
      advance(JWKS_COOLDOWN_MS + 1000)
      expectSignedIn((await fullFlow(config, opA)).res)
      expect(opA.counts.jwks).toBe(3)
      // And the rotated key is now cached: no further fetch.
      expectSignedIn((await fullFlow(config, opA)).res)
      expect(opA.counts.jwks).toBe(3)
    })

    it("OA-17 unknown kid with a cold cache: one fetch, then rejection (no retry loop)", async () => {
      opA.kidMode = "unknown"
      const { config, log } = setup([provider(opA)])
      const started = await beginSignIn(config)
      const answer = await opA.authorize(started.authUrl)
      const before = { ...opA.counts }
      const res = await callbackGet(config, answer.url, started.jar.header())
      await expectReject(res, { type: "OAuthCallbackError", log, op: opA, before, carried: CHECK_COOKIES })
      expect(deltaCounts(before, opA.counts)).toMatchObject({ token: 1, jwks: 1, userinfo: 0 })
    })

    it("OA-17 kid-absent-single-jwks: no kid, one key in the JWKS -> accepted", async () => {
      opA.kidMode = "absent"
      const { config } = setup([provider(opA)])
      expectSignedIn((await fullFlow(config, opA)).res)
    })

    it("OA-17 kid-absent-multiple-jwks: no kid, several fitting keys -> rejected (documented choice: no trial over keys)", async () => {
      opA.kidMode = "absent"
      opA.jwksKids = ["rsa-1", "rsa-2"]
      const { config, log } = setup([provider(opA)])
      const started = await beginSignIn(config)
      const answer = await opA.authorize(started.authUrl)
      const before = { ...opA.counts }
      const res = await callbackGet(config, answer.url, started.jar.header())
      await expectReject(res, { type: "OAuthCallbackError", log, op: opA, before, carried: CHECK_COOKIES })
      expect(deltaCounts(before, opA.counts)).toMatchObject({ token: 1, userinfo: 0 })
    })

    it("OA-17 signed with a kid the JWKS does not publish (rsa-2, while rsa-1 and ec-1 are published): rejected", async () => {
      opA.jwksKids = ["rsa-1", "ec-1"]
      opA.signingKid = "rsa-2" // kid rsa-2 is not published
      const { config, log } = setup([provider(opA)])
      const started = await beginSignIn(config)
      const answer = await opA.authorize(started.authUrl)
      const before = { ...opA.counts }
      const res = await callbackGet(config, answer.url, started.jar.header())
      await expectReject(res, { type: "OAuthCallbackError", log, op: opA, before, carried: CHECK_COOKIES })
    })
  })

  describe("OA-18 token endpoint faults", () => {
    const rejects: { fault: TokenFault; why: string }[] = [
      { fault: "error-in-200", why: "200 with {error}" },
      { fault: "non-json", why: "200 text/html" },
      { fault: "status-500", why: "500" },
      { fault: "no-access-token", why: "no access_token" },
      { fault: "no-id-token", why: "no id_token for scope openid" },
      { fault: "redirect", why: "302 (not followed)" },
      { fault: "huge-body", why: "50 MB chunked body (size capped)" },
      { fault: "huge-body-declared", why: "50 MB with Content-Length (size capped)" },
    ]
    for (const c of rejects) {
      it(`OA-18 ${c.fault}: ${c.why} -> REJECT(OAuthCallbackError), no userinfo/JWKS call`, async () => {
        opA.tokenFault = c.fault
        const { config, log } = setup([provider(opA)])
        const started = await beginSignIn(config)
        const answer = await opA.authorize(started.authUrl)
        const before = { ...opA.counts }
        const t0 = performance.now()
        const res = await callbackGet(config, answer.url, started.jar.header())
        const elapsed = performance.now() - t0
        await expectReject(res, { type: "OAuthCallbackError", log, op: opA, before, carried: CHECK_COOKIES })
        expect(deltaCounts(before, opA.counts)).toMatchObject({ token: 1, userinfo: 0, jwks: 0, tokenRedirectTarget: 0 })
        expect(elapsed).toBeLessThan(2500)
      })
    }

    it("OA-18 hanging token endpoint with provider timeout 300 ms: REJECT(OAuthCallbackError) in about 300 ms", async () => {
      opA.tokenFault = "hang"
      const { config, log } = setup([provider(opA, { timeout: 300 })])
      const started = await beginSignIn(config)
      const answer = await opA.authorize(started.authUrl)
      const before = { ...opA.counts }
      const t0 = performance.now()
      const res = await callbackGet(config, answer.url, started.jar.header())
      const elapsed = performance.now() - t0
      await expectReject(res, { type: "OAuthCallbackError", log, op: opA, before, carried: CHECK_COOKIES })
      expect(elapsed).toBeGreaterThanOrEqual(250)
      expect(elapsed).toBeLessThan(2000)
    })

    it("OA-18 token-type-case-insensitivity: token_type \"BEARER\" is accepted", async () => {
      opA.tokenFault = "token-type-uppercase"
      const { config } = setup([provider(opA)])
      expectSignedIn((await fullFlow(config, opA)).res)
    })
  })

  describe("OA-19 account linking by e-mail", () => {
    const EMAIL = "mock.user@op.example" // the e-mail in the mock OP's ID tokens
    const seed = async (mem: ReturnType<typeof MemoryAdapter>, verified: boolean) => {
      await mem.createUser!({ id: "local-1", email: EMAIL, emailVerified: verified ? new Date(0) : null, name: "Local" } as AdapterUser)
    }

    it("OA-19 existing verified local user with the IdP's e-mail, linking not enabled: REJECT(OAuthAccountNotLinked), I2 nothing written", async () => {
      const { config, log, mem } = setup([provider(opA)])
      await seed(mem, true)
      const started = await beginSignIn(config)
      const answer = await opA.authorize(started.authUrl)
      const before = { ...opA.counts }
      const res = await callbackGet(config, answer.url, started.jar.header())
      await expectReject(res, { type: "OAuthAccountNotLinked", log, op: opA, before, carried: CHECK_COOKIES })
      expect(mem.accounts.size).toBe(0)
      expect(mem.users.size).toBe(1)
    })

    it("OA-19 linking enabled but the IdP says email_verified=false: REJECT(OAuthAccountNotLinked), nothing linked", async () => {
      opA.extraClaims = { email_verified: false }
      const { config, log, mem } = setup([provider(opA, { allowDangerousEmailAccountLinking: true })])
      await seed(mem, true)
      const started = await beginSignIn(config)
      const answer = await opA.authorize(started.authUrl)
      const before = { ...opA.counts }
      const res = await callbackGet(config, answer.url, started.jar.header())
      await expectReject(res, { type: "OAuthAccountNotLinked", log, op: opA, before, carried: CHECK_COOKIES })
      expect(mem.accounts.size).toBe(0)
    })

    it("OA-19 linking enabled, IdP e-mail verified, but the local row is unverified: never link to an unverified row -> REJECT(OAuthAccountNotLinked)", async () => {
      const { config, log, mem } = setup([provider(opA, { allowDangerousEmailAccountLinking: true })])
      await seed(mem, false)
      const started = await beginSignIn(config)
      const answer = await opA.authorize(started.authUrl)
      const before = { ...opA.counts }
      const res = await callbackGet(config, answer.url, started.jar.header())
      await expectReject(res, { type: "OAuthAccountNotLinked", log, op: opA, before, carried: CHECK_COOKIES })
      expect(mem.accounts.size).toBe(0)
    })

    it("OA-19 (control) linking enabled, both sides verified: linked to the existing user", async () => {
      const { config, mem } = setup([provider(opA, { allowDangerousEmailAccountLinking: true })])
      await seed(mem, true)
      expectSignedIn((await fullFlow(config, opA)).res)
      expect([...mem.accounts.values()].map((a) => [a.provider, a.providerAccountId, a.userId])).toEqual([["mock", "mock-user-1", "local-1"]])
    })

    it("OA-19 identity key = (provider, sub): the same sub at another provider id is another account; the same (provider, sub) with a new e-mail is the same user", async () => {
      const { config, mem } = setup([provider(opA, { id: "mock" }), provider(opA, { id: "mock-twin" })])
      expectSignedIn((await fullFlow(config, opA, "mock")).res)
      expect(mem.users.size).toBe(1)
      const firstUser = [...mem.users.keys()][0]
      // Same OP, same sub, but reached through another provider id and with another e-mail: a new user and account.
      opA.extraClaims = { email: "twin@op.example" }
      expectSignedIn((await fullFlow(config, opA, "mock-twin")).res)
      expect(mem.users.size).toBe(2)
      expect([...mem.accounts.values()].map((a) => `${a.provider}|${a.providerAccountId}`).sort()).toEqual(["mock-twin|mock-user-1", "mock|mock-user-1"])
      // The original (provider, sub) with a changed e-mail still resolves to the first user.
      opA.extraClaims = { email: "changed@op.example" }
      const { res } = await fullFlow(config, opA, "mock")
      expectSignedIn(res)
      expect(mem.users.size).toBe(2)
      expect([...mem.accounts.values()].find((a) => a.provider === "mock")?.userId).toBe(firstUser)
    })
  })

  it("OA-20 /signin/__proto__, /signin/constructor, /callback/constructor, /callback/__proto__, unknown ids: 400 InvalidProvider, no prototype lookup", async () => {
    const { config, log } = setup([provider(opA)])
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const protoBefore = Object.getOwnPropertyNames(Object.prototype).sort()
    const before = { ...opA.counts }
    const ids = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf", "prototype", "unknown", "MOCK", "mock%00", "%5F%5Fproto%5F%5F"]
    for (const id of ids) {
      const signin = await Auth(postForm(`/auth/signin/${id}`, { csrfToken, callbackUrl: "/" }, { cookie: jar.header() }), config)
      expect(signin.status, `/signin/${id}`).toBe(400)
      expect(await signin.json()).toMatchObject({ error: "InvalidProvider" })
      expect(sessionCookiesSet(signin)).toEqual([])
      expect(signin.headers.getSetCookie().some((c) => CHECK_COOKIES.some((n) => c.startsWith(`${n}=`)))).toBe(false)
      for (const method of ["GET", "POST"] as const) {
        const url = `${ORIGIN}/auth/callback/${id}?code=x&state=y`
        const req = method === "GET" ? new Request(url, { headers: { cookie: jar.header() } }) : new Request(url, { method, headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" }, body: "code=x&state=y" })
        const cb = await Auth(req, config)
        expect(cb.status, `${method} /callback/${id}`).toBe(400)
        expect(await cb.json()).toMatchObject({ error: "InvalidProvider" })
      }
    }
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(protoBefore)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(deltaCounts(before, opA.counts)).toEqual(MockOp0)
    expect(log.types().every((t) => t === "InvalidProvider")).toBe(true)
  })

  for (const param of ["state", "iss", "code"]) {
    it(`OA-21 duplicate ${param} parameter (same value twice, or two values): REJECT(InvalidCheck), I3`, async () => {
      for (const variant of ["same", "different"] as const) {
        opA.reset()
        const { config, log } = setup([provider(opA)])
        const { jar, authUrl } = await beginSignIn(config)
        const answer = await opA.authorize(authUrl)
        const entries: [string, string][] = [...answer.params]
        const value = answer.params.get(param) as string
        entries.push([param, variant === "same" ? value : `${value}x`])
        const before = { ...opA.counts }
        const res = await callbackGet(config, callbackUrl("mock", entries), jar.header())
        await expectReject(res, { type: "InvalidCheck", log, op: opA, before, preCheck: true, carried: CHECK_COOKIES })
      }
    })
  }

  it("OA-21 duplicate parameters in a form_post body: REJECT(InvalidCheck), I3", async () => {
    const { config, log } = setup([provider(opA)])
    const { jar, authUrl } = await beginSignIn(config)
    const answer = await opA.authorize(authUrl)
    const body = new URLSearchParams(answer.params)
    body.append("state", answer.params.get("state") as string)
    const before = { ...opA.counts }
    const res = await callbackPost(config, "mock", body, jar.header())
    await expectReject(res, { type: "InvalidCheck", log, op: opA, before, preCheck: true, carried: CHECK_COOKIES })
  })

  describe("OA-22 response_mode=form_post", () => {
    const formPostProvider = () => provider(opA, { authorization: { params: { scope: "openid profile email", response_mode: "form_post" } } })

    it("OA-22 cross-site form_post POST without the check cookies (Lax cookies not sent): REJECT(InvalidCheck), I3", async () => {
      const { config, log } = setup([formPostProvider()])
      const { authUrl } = await beginSignIn(config)
      const answer = await opA.authorize(authUrl)
      expect(answer.responseMode).toBe("form_post")
      const before = { ...opA.counts }
      const res = await callbackPost(config, "mock", answer.params, "", { origin: opA.origin, "sec-fetch-site": "cross-site" })
      await expectReject(res, { type: "InvalidCheck", log, op: opA, before, preCheck: true })
    })

    it("OA-22 documented: form_post check cookies are SameSite=None; Secure (every configured check: state, pkce, nonce)", async () => {
      const { config } = setup([formPostProvider()])
      const { signin } = await beginSignIn(config)
      const cookies = setCookies(signin)
      for (const name of CHECK_COOKIES) {
        const c = cookies.get(name)
        expect(c, name).toBeDefined()
        expect(String(c?.attrs.samesite).toLowerCase(), `${name} SameSite`).toBe("none")
        expect(c?.attrs.secure, `${name} Secure`).toBe(true)
      }
    })

    it("OA-22 a browser's cross-site form_post POST (carrying only SameSite=None cookies) completes the sign-in", async () => {
      const { config } = setup([formPostProvider()])
      const { signin, jar } = await beginSignIn(config)
      const answer = await opA.authorize(new URL(signin.headers.get("location") as string))
      // What a browser sends on a cross-site POST: only the cookies marked SameSite=None.
      const none = [...setCookies(signin)].filter(([, c]) => String(c.attrs.samesite).toLowerCase() === "none").map(([n]) => n)
      const cookie = [...jar.cookies].filter(([k]) => none.includes(k)).map(([k, v]) => `${k}=${v}`).join("; ")
      const res = await callbackPost(config, "mock", answer.params, cookie, { origin: opA.origin, "sec-fetch-site": "cross-site" })
      expectSignedIn(res)
    })
  })
})

/** Every string reachable from a value: own properties (enumerable or not), Error causes, URLSearchParams, Maps. */
function deepText(value: unknown, seen = new Set<unknown>(), depth = 0): string {
  if (value === null || value === undefined || depth > 12) return ""
  if (typeof value !== "object" && typeof value !== "function") return String(value)
  if (seen.has(value)) return ""
  seen.add(value)
  const out: string[] = []
  if (value instanceof URLSearchParams) out.push(value.toString())
  if (value instanceof Map) for (const [k, v] of value) out.push(deepText(k, seen, depth + 1), deepText(v, seen, depth + 1))
  if (value instanceof Response || value instanceof Request) return ""
  for (const key of Object.getOwnPropertyNames(value)) {
    let v: unknown
    try {
      v = (value as Record<string, unknown>)[key]
    } catch {
      continue
    }
    if (typeof v === "function") continue
    out.push(`${key}=${deepText(v, seen, depth + 1)}`)
  }
  return out.join(" ")
}

describe("I5 (deep) what a structured logger would serialise", () => {
  // The default console logger prints only messages (checked by every case above). A structured logger (pino's
  // err serializer, Sentry, OpenTelemetry) serialises the whole Error, `cause` chain included: that too must hold
  // no authorization code and no token (security.md §1, I5).
  const cases: { name: string; arrange: () => void; tamper?: (u: URL) => void }[] = [
    { name: "state mismatch (pre-check)", arrange: () => {}, tamper: (u) => u.searchParams.set("state", "forged") },
    { name: "iss mismatch (pre-check)", arrange: () => {}, tamper: (u) => u.searchParams.set("iss", "https://attacker.example/op") },
    { name: "token response without access_token", arrange: () => void (opA.tokenFault = "no-access-token") },
    { name: "token response without id_token", arrange: () => void (opA.tokenFault = "no-id-token") },
    { name: "ID token nonce mismatch", arrange: () => void (opA.idTokenFault = "nonce-invalid") },
  ]
  for (const c of cases) {
    it(`I5 (deep) ${c.name}: the logged Error graph holds no code or token`, async () => {
      c.arrange()
      const { config, log } = setup([provider(opA)])
      const started = await beginSignIn(config)
      const answer = await opA.authorize(started.authUrl)
      c.tamper?.(answer.url)
      const res = await callbackGet(config, answer.url, started.jar.header())
      expect(sessionCookiesSet(res)).toEqual([])
      expect(log.errors.length).toBeGreaterThan(0)
      const text = log.errors.map((e) => deepText(e)).join("\n")
      const leaked = [...opA.issued].filter((v) => text.includes(v)).map((v) => `${v.slice(0, 3)}…`)
      expect(leaked, "codes/tokens reachable from the logged Error objects").toEqual([])
      expect(text.includes(opA.clientSecret)).toBe(false)
    })
  }
})

const MockOp0: Counts = { discovery: 0, authorize: 0, token: 0, tokenRedirectTarget: 0, userinfo: 0, jwks: 0 }

describe("I6", () => {
  it("I6 no unhandled rejection during the OAuth security tests", async () => {
    await new Promise((r) => setTimeout(r, 20))
    expect(unhandled).toEqual([])
  })
})
