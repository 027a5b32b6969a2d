// OAuth 2 / OIDC flow drivers against the mock OP (test/support/mock-op.ts), shared by the security tests of
// group A (test/security/oauth-*.test.ts) and the OAuth DoS bounds (test/security/dos-oauth.test.ts): mock OPs
// started per file, a config with a spy logger and a write-recording adapter (I2), the sign-in steps through
// Auth(), REJECT(T) with the invariants I1-I5 of docs/security.md#how-to-read-this-list, and a shifted Date.now()
// clock.
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi } from "vitest"
import { Auth } from "../../src/index.js"
import type { Adapter, AuthConfig } from "../../src/index.js"
import type { OAuthConfigBase } from "../../src/providers/types.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { clearDiscoveryCache } from "../../src/protocols/oauth2.js"
import { clearJwksCache } from "../../src/protocols/jws.js"
import { CookieJar, ORIGIN, SECRET, fetchCsrf, get, postForm, setCookies } from "./flow-kit.js"
import { sessionCookieNames } from "./cookies.js"
import { type LoggerSpy, spyLogger } from "./logger.js"
import { type Counts, type MockOp, startMockOp } from "./mock-op.js"
import { mockOpProvider } from "./mock-op-provider.js"

export const STATE = "authjs.state"
export const PKCE = "authjs.pkce.code_verifier"
export const NONCE = "authjs.nonce"
export const CHECK_COOKIES = [STATE, PKCE, NONCE] as const

const ERROR_PAGE = `${ORIGIN}/auth/error`
const SIGNIN_PAGE = `${ORIGIN}/auth/signin`
export const SIGNED_IN = `${ORIGIN}/dashboard`

/** Where each internal type lands (docs/security.md#how-to-read-this-list; docs/wire-format.md §6.2). */
export const REJECT_LOCATION = {
  InvalidCheck: `${ERROR_PAGE}?error=Configuration`,
  // The provider's access_denied (the user pressed Cancel): AccessDenied, told apart from a refusal by its code.
  AccessDenied: `${ERROR_PAGE}?error=AccessDenied&code=access_denied`,
  OAuthCallbackError: `${SIGNIN_PAGE}?error=OAuthCallbackError`,
  OAuthAccountNotLinked: `${SIGNIN_PAGE}?error=OAuthAccountNotLinked`,
  // A failed sign-in start is OAuthSignInError, a sign-in-page error (docs/wire-format.md §6.1): the user lands back on
  // the sign-in page with the public code Configuration and can pick another provider (docs/differences.md).
  OAuthSignInError: `${SIGNIN_PAGE}?error=Configuration`,
} as const

export type RejectType = keyof typeof REJECT_LOCATION

export const NO_CALLS: Counts = { discovery: 0, authorize: 0, token: 0, tokenRedirectTarget: 0, userinfo: 0, jwks: 0 }

// ---------------------------------------------------------------------------------------------------------
// Per-file harness

export interface MockOpHarness {
  /** Reasons of every unhandled rejection seen while the file ran (I6). */
  readonly unhandled: unknown[]
}

/**
 * Starts one mock OP per client id for the file (handed to `started`), resets them and the discovery and JWKS
 * caches before each test, restores mocks after each, and records unhandled rejections (I6).
 */
export function useMockOps(clientIds: readonly string[], started: (ops: MockOp[]) => void): MockOpHarness {
  const unhandled = trackUnhandledRejections()
  let ops: MockOp[] = []
  beforeAll(async () => {
    ops = await Promise.all(clientIds.map((clientId) => startMockOp({ clientId })))
    started(ops)
  })
  afterAll(async () => {
    await Promise.all(ops.map((op) => op.stop()))
  })
  beforeEach(() => {
    for (const op of ops) op.reset()
    clearDiscoveryCache()
    clearJwksCache()
  })
  afterEach(() => {
    vi.restoreAllMocks()
  })
  return { unhandled }
}

/** Records the reason of every unhandled rejection while the file runs (I6). */
export function trackUnhandledRejections(): unknown[] {
  const unhandled: unknown[] = []
  const onUnhandled = (reason: unknown): void => void unhandled.push(reason)
  beforeAll(() => void process.on("unhandledRejection", onUnhandled))
  afterAll(() => void process.off("unhandledRejection", onUnhandled))
  return unhandled
}

/** I6: no unhandled rejection so far, after letting pending aborts settle for `settleMs`. */
export async function expectNoUnhandled(harness: MockOpHarness, settleMs = 20): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, settleMs))
  expect(harness.unhandled, "I6: no unhandled rejection").toEqual([])
}

// ---------------------------------------------------------------------------------------------------------
// Config

/** The mock OP as an OIDC provider with every check (pkce, state, nonce) and a 3 s timeout. */
export function provider(op: MockOp, over: Partial<OAuthConfigBase> = {}): OAuthConfigBase {
  return mockOpProvider(op, over)
}

const WRITE_METHODS = new Set([
  "createUser",
  "updateUser",
  "deleteUser",
  "linkAccount",
  "unlinkAccount",
  "createSession",
  "updateSession",
  "deleteSession",
  "createVerificationToken",
  "useVerificationToken",
  "createAuthenticator",
  "updateAuthenticatorCounter",
])

/** An adapter whose write calls are recorded into `writes` (I2), in order; reads and writes reach `base`. */
export function recordingAdapter(writes: string[], base: Adapter = MemoryAdapter()): Adapter {
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

/** The spy logger of a setup, with the adapter's write calls beside it (I2), in order. */
export type FlowLog = LoggerSpy & { writes: string[] }

export interface OAuthSetup {
  config: AuthConfig
  log: FlowLog
  mem: ReturnType<typeof MemoryAdapter>
}

/**
 * A fresh config (Gatehouse memoises per config object) with a spy logger and a recording in-memory adapter
 * (JWT sessions unless `extra.session` says otherwise), so every case can assert I2.
 */
export function setup(providers: OAuthConfigBase[], extra: Partial<AuthConfig> = {}): OAuthSetup {
  const log: FlowLog = { ...spyLogger(), writes: [] }
  const mem = MemoryAdapter()
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    providers,
    logger: log.logger,
    adapter: recordingAdapter(log.writes, mem),
    session: { strategy: "jwt" },
    ...extra,
  }
  return { config, log, mem }
}

// ---------------------------------------------------------------------------------------------------------
// Flow steps

export interface Started {
  jar: CookieJar
  authUrl: URL
  signin: Response
}

/** POST /signin/<id> with a fresh CSRF cookie; the jar keeps what the answer set. */
export async function postSignIn(
  config: AuthConfig,
  providerId = "mock",
  options: { query?: string; jar?: CookieJar } = {},
): Promise<{ res: Response; jar: CookieJar }> {
  const jar = options.jar ?? new CookieJar()
  const csrfToken = await fetchCsrf(config, jar)
  const res = await Auth(
    postForm(
      `/auth/signin/${providerId}${options.query ?? ""}`,
      { csrfToken, callbackUrl: "/dashboard" },
      { cookie: jar.header() },
    ),
    config,
  )
  jar.store(res)
  return { res, jar }
}

/** GET /csrf, then POST /signin/<id>: the browser now holds the check cookies; returns the authorization URL. */
export async function beginSignIn(config: AuthConfig, providerId = "mock", jar = new CookieJar()): Promise<Started> {
  const { res: signin } = await postSignIn(config, providerId, { jar })
  expect(signin.status, "sign-in start answers a redirect").toBe(302)
  return { jar, authUrl: new URL(signin.headers.get("location") as string), signin }
}

export function callbackGet(config: AuthConfig, url: URL | string, cookie: string): Promise<Response> {
  const u = new URL(url)
  return Auth(get(`${u.pathname}${u.search}`, { cookie }), config)
}

export function callbackPost(
  config: AuthConfig,
  providerId: string,
  params: URLSearchParams,
  cookie: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  const h = new Headers(headers)
  h.set("content-type", "application/x-www-form-urlencoded")
  if (cookie) h.set("cookie", cookie)
  return Auth(
    new Request(`${ORIGIN}/auth/callback/${providerId}`, { method: "POST", headers: h, body: params.toString() }),
    config,
  )
}

/** A URL on the RP's callback with the given parameters (duplicates kept, order kept). */
export function callbackUrl(providerId: string, params: URLSearchParams | [string, string][]): URL {
  const url = new URL(`${ORIGIN}/auth/callback/${providerId}`)
  url.search = new URLSearchParams(params as [string, string][]).toString()
  return url
}

/** A complete sign-in: start, the OP's authorization answer, the callback. */
export async function fullFlow(
  config: AuthConfig,
  op: MockOp,
  providerId = "mock",
): Promise<{ res: Response; started: Started; callback: URL }> {
  const started = await beginSignIn(config, providerId)
  const answer = await op.authorize(started.authUrl)
  const res = await callbackGet(config, answer.url, started.jar.header())
  return { res, started, callback: answer.url }
}

/** Sign-in start and the OP's authorization, then the callback: its response and the OP's counts just before it. */
export async function authorizedCallback(
  config: AuthConfig,
  op: MockOp,
  providerId = "mock",
): Promise<{ res: Response; before: Counts }> {
  const started = await beginSignIn(config, providerId)
  const answer = await op.authorize(started.authUrl)
  const before = { ...op.counts }
  const res = await callbackGet(config, answer.url, started.jar.header())
  return { res, before }
}

// ---------------------------------------------------------------------------------------------------------
// Outcomes

export function expectSignedIn(res: Response): void {
  expect(res.status).toBe(302)
  expect(res.headers.get("location")).toBe(SIGNED_IN)
  expect(sessionCookieNames(res)).toEqual(["authjs.session-token"])
}

export function deltaCounts(before: Counts, after: Counts): Counts {
  const out = { ...after }
  for (const k of Object.keys(before) as (keyof Counts)[]) out[k] = after[k] - before[k]
  return out
}

export interface RejectExpectation {
  /** The internal type: decides the Location (REJECT(T)) and must be logged exactly once. */
  type: RejectType
  log: FlowLog
  op: MockOp
  /** Counts snapshot taken just before the callback (default: none since the OP's last reset). */
  before?: Counts
  /** I3: the failure is a pre-check, so no token, userinfo or JWKS call may follow. */
  preCheck?: boolean
  /** Check cookies the request carried: the response must expire them (I4). */
  carried?: readonly string[]
  /** Extra strings that must not appear in the body, the Location or the logs (I5). */
  secrets?: readonly string[]
}

/** REJECT(T) plus I1, I2, I3, I4, I5 (docs/security.md#how-to-read-this-list). */
export async function expectReject(res: Response, x: RejectExpectation): Promise<void> {
  expect(res.status, "REJECT: browser endpoints answer a redirect").toBe(302)
  const location = res.headers.get("location") ?? ""
  expect(location, "rejected: not signed in").not.toBe(SIGNED_IN)
  // I1, I2
  expect(sessionCookieNames(res), "I1: no session cookie").toEqual([])
  expect(x.log.writes, "I2: no adapter write").toEqual([])
  // I3
  const d = deltaCounts(x.before ?? NO_CALLS, x.op.counts)
  if (x.preCheck)
    expect(
      { token: d.token, userinfo: d.userinfo, jwks: d.jwks },
      "I3: no outbound call after a failed pre-check",
    ).toEqual({ token: 0, userinfo: 0, jwks: 0 })
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
  expect(
    x.log.types().filter((t) => t === x.type),
    `internal type ${x.type} logged once (logged: ${x.log.types().join(", ")})`,
  ).toHaveLength(1)
}

/** Cookie header of a jar without some cookies. */
export function without(jar: CookieJar, ...names: string[]): string {
  return [...jar.cookies]
    .filter(([k]) => !names.includes(k))
    .map(([k, v]) => `${k}=${v}`)
    .join("; ")
}

export function carriedChecks(cookieHeader: string): string[] {
  return CHECK_COOKIES.filter((n) => cookieHeader.split("; ").some((p) => p.startsWith(`${n}=`)))
}

// ---------------------------------------------------------------------------------------------------------
// Clock

export interface ShiftedClock {
  /** Moves Date.now() forward by `ms`. */
  (ms: number): void
  /** How far Date.now() has been moved so far. */
  offset(): number
}

/**
 * Moves Date.now() (and so every JWT/JWE/cookie clock on both sides, and the JWKS cooldown) forward. `frozen`: the
 * clock moves only when told, so a batch that takes long on a loaded machine does not carry the test past a window
 * it means to stay inside.
 */
export function useShiftedClock(options: { frozen?: boolean } = {}): ShiftedClock {
  let offset = 0
  const realNow = Date.now.bind(Date)
  const start = realNow()
  vi.spyOn(Date, "now").mockImplementation(options.frozen ? () => start + offset : () => realNow() + offset)
  const advance = ((ms: number) => {
    offset += ms
  }) as ShiftedClock
  advance.offset = () => offset
  return advance
}
