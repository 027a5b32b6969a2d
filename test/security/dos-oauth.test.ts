// Security group L (docs/security.md §1.L), the OAuth 2 / OIDC DoS bounds: DS-02 (random kids cannot make us hammer
// the JWKS endpoint) and DS-03 (slow or huge provider answers, redirects and foreign issuers).
//
// The mock OP (test/support/mock-op.ts) gets a small fault injector wrapped around its request handler, so
// discovery, JWKS, token and userinfo can each be made slow (no answer for 10 s, or headers at once and a body
// dribbled over 10 s), huge (50 MB, chunked or with Content-Length), a redirect, or a forged document. A second
// node:http server plays "another server" (an attacker's issuer, JWKS and token endpoint); it must never
// receive a request. Everything listens on 127.0.0.1. No time bounds (timing belongs to the benchmark): a
// timeout shows in the logged cause and in the slow answer the RP abandoned.
//
// Conventions asserted (docs/security.md#how-to-read-this-list, expectReject of test/support/oauth-flow.ts): REJECT(T)
// — OAuthCallbackError -> /auth/signin?error=OAuthCallbackError, InvalidCheck -> /auth/error?error=Configuration, a
// failed sign-in start (OAuthSignInError for the discovery) -> /auth/signin?error=Configuration (Auth.js: /auth/error,
// its discovery error is not an AuthError); I1 no session cookie; I2 no adapter write; I4 check cookies expired on a
// failed callback; I5 nothing issued in the body, the Location or the logs; I6 no unhandled rejection.
import { generateKeyPairSync, sign } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import type { AuthConfig } from "../../src/index.js"
import type { OAuthConfigBase } from "../../src/providers/types.js"
import { clearDiscoveryCache } from "../../src/protocols/oauth2.js"
import { JWKS_COOLDOWN_MS } from "../../src/protocols/jws.js"
import { MAX_RESPONSE_BYTES } from "../../src/protocols/http.js"
import { CookieJar, fetchCsrf, postForm } from "../support/flow-kit.js"
import { sessionCookieNames } from "../support/cookies.js"
import { type Listening, listenLocal, writeJson } from "../support/listen.js"
import { type MockOp, streamHugeJson } from "../support/mock-op.js"
import {
  CHECK_COOKIES,
  type FlowLog,
  REJECT_LOCATION,
  type RejectType,
  SIGNED_IN,
  beginSignIn,
  callbackGet,
  expectNoUnhandled,
  expectReject,
  postSignIn,
  provider,
  setup as flowSetup,
  useMockOps,
  useShiftedClock,
} from "../support/oauth-flow.js"

// ---------------------------------------------------------------------------------------------------------
// Constants and small helpers

/** How slow a slow endpoint is, and the provider timeout that must cut it short. */
const SLOW_MS = 10_000
const TIMEOUT_MS = 300
/** The size of a huge answer. */
const HUGE_BYTES = 50 * 1024 * 1024

/** Runs `task(i)` for i in [0, n) with at most `limit` in flight; results in order. */
async function pool<T>(n: number, limit: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out = new Array<T>(n)
  let next = 0
  const worker = async () => {
    for (;;) {
      const i = next++
      if (i >= n) return
      out[i] = await task(i)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, n) }, worker))
  return out
}

/** The bulk callbacks running (bulkCallbacks): how many got their answer so far. */
const batch = { answered: 0 }

// ---------------------------------------------------------------------------------------------------------
// Fault injection on the mock OP

type Endpoint = "discovery" | "jwks" | "token" | "userinfo"
const ENDPOINT_PATHS: Record<string, Endpoint> = {
  "/.well-known/openid-configuration": "discovery",
  "/jwks": "jwks",
  "/token": "token",
  "/userinfo": "userinfo",
}

type Fault =
  /** No status line for 10 s, then the real answer. */
  | { kind: "slow-headers" }
  /** 200 and headers at once, then one byte every 250 ms for 10 s (a slowloris answer). */
  | { kind: "slow-body" }
  /** 50 MB of JSON whitespace, chunked or with Content-Length. */
  | { kind: "huge"; declared: boolean }
  | { kind: "redirect"; status: number; location: string }
  /** A forged 200 JSON document. */
  | { kind: "json"; body: unknown }
  /** Held until `until()` holds (or 3 s pass), then the real answer. */
  | { kind: "gate"; until: () => boolean; extraDelayMs: number }

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>

/**
 * Wraps the mock OP's (private) request handler on the instance. Faulted requests are counted in `hits`;
 * requests passed on reach the original handler, which keeps counting in `op.counts`.
 */
class FaultInjector {
  readonly faults = new Map<Endpoint, Fault>()
  hits: Record<Endpoint, number> = { discovery: 0, jwks: 0, token: 0, userinfo: 0 }
  /** Bytes the huge answers handed to the socket (the RP must stop reading long before 50 MB). */
  hugeBytesWritten = 0
  /** Slow answers the client went away from before they were complete. */
  abandoned = 0
  /** Callbacks already answered (of the batch running) when a gate opened, per opening. */
  readonly answeredWhenGateOpened: number[] = []
  private readonly cleanups = new Set<() => void>()

  constructor(op: MockOp) {
    const target = op as unknown as { handle: Handler }
    const original: Handler = target.handle.bind(op)
    target.handle = async (req, res) => {
      const url = new URL(req.url ?? "/", op.origin)
      const endpoint = url.pathname.startsWith(op.issuerPath)
        ? ENDPOINT_PATHS[url.pathname.slice(op.issuerPath.length)]
        : undefined
      const fault = endpoint ? this.faults.get(endpoint) : undefined
      if (!endpoint || !fault) return original(req, res)
      this.hits[endpoint]++
      return this.apply(fault, req, res, original)
    }
  }

  set(endpoint: Endpoint, fault: Fault): void {
    this.faults.set(endpoint, fault)
  }

  reset(): void {
    this.faults.clear()
    this.hits = { discovery: 0, jwks: 0, token: 0, userinfo: 0 }
    this.hugeBytesWritten = 0
    this.abandoned = 0
    this.answeredWhenGateOpened.length = 0
    for (const cleanup of this.cleanups) cleanup()
    this.cleanups.clear()
  }

  /** Waits `ms`, or less if the client goes away (or the injector is reset); true when the client is still there. */
  private wait(res: ServerResponse, ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      let done = false
      const finish = (alive: boolean) => {
        if (done) return
        done = true
        clearTimeout(timer)
        this.cleanups.delete(cancel)
        res.off("close", left)
        resolve(alive)
      }
      const timer = setTimeout(() => finish(!res.destroyed), ms)
      const cancel = () => finish(false)
      const left = () => {
        if (!done) this.abandoned++
        finish(false)
      }
      this.cleanups.add(cancel)
      res.once("close", left)
    })
  }

  private async apply(fault: Fault, req: IncomingMessage, res: ServerResponse, original: Handler): Promise<void> {
    switch (fault.kind) {
      case "slow-headers":
        if (await this.wait(res, SLOW_MS)) return original(req, res)
        return
      case "slow-body": {
        res.writeHead(200, { "Content-Type": "application/json", "Cache-Control": "no-store" })
        res.write(" ")
        const ticks = SLOW_MS / 250
        for (let i = 0; i < ticks; i++) {
          if (!(await this.wait(res, 250))) return
          res.write(" ")
        }
        res.end("{}")
        return
      }
      case "huge":
        return streamHugeJson(res, { total: HUGE_BYTES, declared: fault.declared, head: '{"x":"', tail: '"}' }, (n) => {
          this.hugeBytesWritten += n
        })
      case "redirect":
        res.writeHead(fault.status, { Location: fault.location, "Cache-Control": "no-store" })
        res.end()
        return
      case "json":
        return writeJson(res, 200, fault.body)
      case "gate": {
        const deadline = performance.now() + 3000
        while (!fault.until() && performance.now() < deadline) if (!(await this.wait(res, 5))) return
        if (!(await this.wait(res, fault.extraDelayMs))) return
        this.answeredWhenGateOpened.push(batch.answered)
        return original(req, res)
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// "Another server": an attacker-controlled issuer with its own discovery, JWKS and token endpoint

const attackerKey = generateKeyPairSync("rsa", { modulusLength: 2048 })
const ATTACKER_KID = "attacker-1"

class OtherServer {
  readonly requests: string[] = []
  origin = ""
  issuer = ""
  private listening: Listening | undefined

  async start(): Promise<this> {
    const server = createServer((req, res) => {
      this.requests.push(`${req.method} ${req.url}`)
      const path = new URL(req.url ?? "/", this.origin).pathname
      // Tempting, valid-looking answers: if anything were fetched from here, it would be used.
      if (path === "/op/.well-known/openid-configuration") {
        return writeJson(res, 200, {
          issuer: this.issuer,
          authorization_endpoint: `${this.issuer}/authorize`,
          token_endpoint: `${this.issuer}/token`,
          userinfo_endpoint: `${this.issuer}/userinfo`,
          jwks_uri: `${this.issuer}/jwks`,
          response_types_supported: ["code"],
          subject_types_supported: ["public"],
          id_token_signing_alg_values_supported: ["RS256"],
        })
      }
      if (path === "/op/jwks" || path === "/op/x5u") {
        return writeJson(res, 200, {
          keys: [{ ...attackerKey.publicKey.export({ format: "jwk" }), kid: ATTACKER_KID, use: "sig", alg: "RS256" }],
        })
      }
      if (path === "/op/token")
        return writeJson(res, 200, { access_token: "attacker-at", token_type: "Bearer", id_token: "x.y.z" })
      if (path === "/op/userinfo") return writeJson(res, 200, { sub: "mock-user-1", email: "attacker@evil.example" })
      return writeJson(res, 200, {})
    })
    this.listening = await listenLocal(server)
    this.origin = this.listening.origin
    this.issuer = `${this.origin}/op`
    return this
  }

  async stop(): Promise<void> {
    await this.listening?.stop()
  }
}

// ---------------------------------------------------------------------------------------------------------
// Harness

let op: MockOp
let faults: FaultInjector
let other: OtherServer
const harness = useMockOps(["dos-client"], ([started]) => {
  op = started as MockOp
  faults = new FaultInjector(op)
})

beforeAll(async () => {
  other = await new OtherServer().start()
})

afterAll(async () => {
  faults?.reset()
  await other?.stop()
})

beforeEach(() => {
  faults.reset()
  other.requests.length = 0
})

afterEach(() => {
  faults.reset()
})

function setup(over: Partial<OAuthConfigBase> = {}): { config: AuthConfig; log: FlowLog } {
  return flowSetup([provider(op, over)])
}

/** Sign-in start plus the OP's authorization answer: the browser now holds the check cookies and a callback URL. */
async function startFlow(config: AuthConfig): Promise<{ jar: CookieJar; callback: URL }> {
  const { jar, authUrl } = await beginSignIn(config)
  const answer = await op.authorize(authUrl)
  return { jar, callback: answer.url }
}

/** REJECT(T) with I1, I2, I4 (for callbacks) and I5, T logged once. */
async function expectRejected(res: Response, x: { type: RejectType; log: FlowLog; callback?: boolean }): Promise<void> {
  await expectReject(res, { type: x.type, log: x.log, op, ...(x.callback ? { carried: CHECK_COOKIES } : {}) })
}

/** Samples RSS every millisecond while `run` goes; returns its result and the peak growth over the start value. */
async function withRssPeak<T>(run: () => Promise<T>): Promise<{ result: T; peakGrowth: number; endGrowth: number }> {
  const start = process.memoryUsage.rss()
  let peak = start
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss())
  }, 1)
  try {
    const result = await run()
    const end = process.memoryUsage.rss()
    peak = Math.max(peak, end)
    return { result, peakGrowth: peak - start, endGrowth: end - start }
  } finally {
    clearInterval(timer)
  }
}

// ---------------------------------------------------------------------------------------------------------
// DS-02: random kids

/**
 * Starts `n` sign-ins in bulk (one CSRF cookie, `n` POST /signin), has the OP mint a code for each (what its
 * authorization endpoint does, without the HTTP round trip), then sends the `n` callbacks with at most
 * `concurrency` in flight, counting the answers in `batch`. Returns the callback responses.
 */
async function bulkCallbacks(config: AuthConfig, n: number, concurrency: number): Promise<{ res: Response }[]> {
  const csrfJar = new CookieJar()
  const csrfToken = await fetchCsrf(config, csrfJar)
  const flows = await pool(n, concurrency, async () => {
    const signin = await Auth(
      postForm("/auth/signin/mock", { csrfToken, callbackUrl: "/dashboard" }, { cookie: csrfJar.header() }),
      config,
    )
    expect(signin.status).toBe(302)
    const jar = new CookieJar()
    for (const [k, v] of csrfJar.cookies) jar.cookies.set(k, v)
    jar.store(signin)
    const q = new URL(signin.headers.get("location") as string).searchParams
    const code = op.issueCodeFor(q)
    const callback = new URL(q.get("redirect_uri") as string)
    callback.search = new URLSearchParams({ code, state: q.get("state") as string, iss: op.issuer }).toString()
    return { callback, cookie: jar.header() }
  })
  batch.answered = 0
  return pool(n, concurrency, async (i) => {
    const flow = flows[i] as { callback: URL; cookie: string }
    const res = await callbackGet(config, flow.callback, flow.cookie)
    batch.answered++
    return { res }
  })
}

function expectAllRejectedForUnknownKid(results: { res: Response }[], log: FlowLog): void {
  const locations = new Map<string, number>()
  let sessions = 0
  for (const { res } of results) {
    locations.set(
      `${res.status} ${res.headers.get("location")}`,
      (locations.get(`${res.status} ${res.headers.get("location")}`) ?? 0) + 1,
    )
    sessions += sessionCookieNames(res).length
  }
  expect(Object.fromEntries(locations), "every sign-in: REJECT(OAuthCallbackError)").toEqual({
    [`302 ${REJECT_LOCATION.OAuthCallbackError}`]: results.length,
  })
  expect(sessions, "I1: no session cookie").toBe(0)
  expect(log.writes, "I2: no adapter write").toEqual([])
  expect(log.types().filter((t) => t === "OAuthCallbackError")).toHaveLength(results.length)
  // Rejected at the signature step because of the kid, not earlier for some other reason.
  expect(log.messages().filter((m) => /No JWKS key matches/.test(m))).toHaveLength(results.length)
}

/**
 * The provider timeout for the bulk DS-02 runs: 50 callbacks in flight on a loaded 2-core machine can keep a token
 * exchange waiting past the default 3 s, which would reject it for the timeout instead of the kid under test.
 */
const BULK_TIMEOUT_MS = 15_000

describe("DS-02 ID tokens with random unknown kids", () => {
  it("DS-02 1,000 callbacks whose ID tokens carry random unknown kids: at most one JWKS fetch per 30 s cooldown, every sign-in rejected, no session", async () => {
    // Frozen: 500 callbacks can take over 10 s on a loaded machine, which would carry "t = 20 s" past the cooldown.
    const advance = useShiftedClock({ frozen: true })
    op.kidMode = "unknown" // every ID token gets `unknown-<random hex>` as kid
    const { config, log } = setup({ timeout: BULK_TIMEOUT_MS })

    // t = 0 s, cold JWKS cache: 500 callbacks, 50 in flight. The cache fill is the only fetch.
    const first = await bulkCallbacks(config, 500, 50)
    expectAllRejectedForUnknownKid(first, log)
    expect(op.counts.token, "each callback reached the token exchange").toBe(500)
    expect(op.counts.jwks, "t=0..: one fetch (the cache fill), then none inside the cooldown").toBe(1)
    log.errors.length = 0

    // t = 20 s: still inside the cooldown of the t=0 fetch: 250 more, no fetch.
    advance(20_000)
    const second = await bulkCallbacks(config, 250, 50)
    expectAllRejectedForUnknownKid(second, log)
    expect(op.counts.jwks, "t=20 s: inside the cooldown, no refetch").toBe(1)
    log.errors.length = 0

    // t = 31 s: the cooldown has passed: 250 more cause exactly one refetch between them.
    advance(JWKS_COOLDOWN_MS + 1000 - 20_000)
    const third = await bulkCallbacks(config, 250, 50)
    expectAllRejectedForUnknownKid(third, log)
    expect(op.counts.jwks, "t=31 s: one refetch for the new cooldown window").toBe(2)
    expect(op.counts.token).toBe(1000)
    // 1,000 ID tokens over 31 s of (virtual) time: at most 1 + floor(31 s / 30 s) = 2 fetches.
    expect(op.counts.jwks).toBeLessThanOrEqual(1 + Math.floor(advance.offset() / JWKS_COOLDOWN_MS))
    await expectNoUnhandled(harness)
    // 1,000 real callbacks: about 8 s alone, over 20 s (the default timeout) with a second suite on the same 2 cores.
  }, 90_000)

  it("DS-02 concurrent callbacks share one in-flight JWKS fetch (cold cache, valid kid): 50 sign-ins, 1 JWKS request", async () => {
    const N = 50
    const { config, log } = setup({ timeout: BULK_TIMEOUT_MS })
    // The JWKS answer is held until all N token requests were served (+150 ms for the RP to process them), so all
    // N callbacks wait for the key set at the same time.
    faults.set("jwks", { kind: "gate", until: () => op.counts.token >= N, extraDelayMs: 150 })
    const results = await bulkCallbacks(config, N, N)
    for (const { res } of results) {
      expect(res.headers.get("location")).toBe(SIGNED_IN)
      expect(sessionCookieNames(res)).toEqual(["authjs.session-token"])
    }
    expect(log.types()).toEqual([])
    expect(faults.hits.jwks, "one JWKS request").toBe(1)
    expect(op.counts.jwks).toBe(1)
    expect(faults.answeredWhenGateOpened, "every callback was still waiting when the single JWKS answer came").toEqual([
      0,
    ])
    await expectNoUnhandled(harness)
  })

  it("DS-02 concurrent callbacks with random kids after the cooldown share one in-flight refetch", async () => {
    const N = 50
    const advance = useShiftedClock()
    const { config, log } = setup()
    // Fill the cache with a normal sign-in.
    const warm = await bulkCallbacks(config, 1, 1)
    expect(warm[0]?.res.headers.get("location")).toBe(SIGNED_IN)
    expect(op.counts.jwks).toBe(1)
    log.writes.length = 0
    advance(JWKS_COOLDOWN_MS + 1000)
    op.kidMode = "unknown"
    const tokensBefore = op.counts.token
    faults.set("jwks", { kind: "gate", until: () => op.counts.token - tokensBefore >= N, extraDelayMs: 150 })
    const results = await bulkCallbacks(config, N, N)
    expectAllRejectedForUnknownKid(results, log)
    expect(faults.hits.jwks, "one refetch shared by all").toBe(1)
    expect(op.counts.jwks).toBe(2)
    expect(faults.answeredWhenGateOpened, "every callback waited for the same refetch").toEqual([0])
    await expectNoUnhandled(harness)
  })
})

// ---------------------------------------------------------------------------------------------------------
// DS-03: slow and huge endpoints

type Stage = "discovery (sign-in start)" | "discovery (callback, cold cache)" | "jwks" | "token" | "userinfo"

interface Outcome {
  res: Response
  log: FlowLog
  callback: boolean
}

/** Arranges a flow up to the request that meets `fault` at `stage`, then sends that request. */
async function runStage(stage: Stage, fault: Fault, timeout: number): Promise<Outcome> {
  const { config, log } = setup({ timeout, ...(stage === "userinfo" ? { idToken: false } : {}) })
  if (stage === "discovery (sign-in start)") {
    faults.set("discovery", fault)
    const { res } = await postSignIn(config)
    return { res, log, callback: false }
  }
  const { jar, callback } = await startFlow(config)
  if (stage === "discovery (callback, cold cache)") {
    clearDiscoveryCache()
    faults.set("discovery", fault)
  } else {
    faults.set(stage, fault)
  }
  const res = await callbackGet(config, callback, jar.header())
  return { res, log, callback: true }
}

async function expectStageReject(stage: Stage, o: Outcome): Promise<void> {
  if (stage === "discovery (sign-in start)") {
    await expectRejected(o.res, { type: "OAuthSignInError", log: o.log })
  } else {
    await expectRejected(o.res, { type: "OAuthCallbackError", log: o.log, callback: true })
  }
}

/** What the OP saw after the faulted request: nothing after a failed step. */
function expectNothingAfter(stage: Stage): void {
  const endpoint: Endpoint = stage.startsWith("discovery") ? "discovery" : (stage as Endpoint)
  expect(faults.hits[endpoint], `the ${endpoint} endpoint was asked once`).toBe(1)
  const order: Endpoint[] = ["discovery", "token", "jwks", "userinfo"]
  const after = order.slice(order.indexOf(endpoint) + 1)
  if (stage === "discovery (sign-in start)") expect(op.counts.authorize).toBe(0)
  const calls = Object.fromEntries(after.map((e) => [e, op.counts[e]]))
  expect(calls, `no call after the failed ${endpoint} request`).toEqual(Object.fromEntries(after.map((e) => [e, 0])))
}

const STAGES: Stage[] = ["discovery (sign-in start)", "discovery (callback, cold cache)", "jwks", "token", "userinfo"]

describe("DS-03 slow provider endpoints (10 s) with a provider timeout of 300 ms", () => {
  for (const stage of STAGES) {
    for (const kind of ["slow-headers", "slow-body"] as const) {
      const what = kind === "slow-headers" ? "no answer for 10 s" : "headers at once, body dribbled over 10 s"
      it(`DS-03 ${stage} endpoint ${kind} (${what}): clean REJECT by the ${TIMEOUT_MS} ms timeout, the slow answer abandoned`, async () => {
        const o = await runStage(stage, { kind }, TIMEOUT_MS)
        expectNothingAfter(stage)
        // Cut short by the configured timeout (the logged cause says so), not after 10 s: the RP left the slow answer.
        expect(o.log.text()).toContain(`did not answer within ${TIMEOUT_MS} ms`)
        await expect.poll(() => faults.abandoned, { timeout: 5000 }).toBe(1)
        await expectNoUnhandled(harness)
        await expectStageReject(stage, o)
      })
    }
  }
})

describe("DS-03 huge provider answers (50 MB, with and without Content-Length)", () => {
  for (const stage of STAGES) {
    for (const declared of [false, true]) {
      const what = declared ? "with Content-Length" : "chunked, no Content-Length"
      it(`DS-03 ${stage} endpoint answers 50 MB ${what}: clean REJECT, never buffered`, async () => {
        const { result: o, peakGrowth } = await withRssPeak(() => runStage(stage, { kind: "huge", declared }, 3000))
        expectNothingAfter(stage)
        // The cap is 1 MiB: the RP stops reading right after it (a declared length is refused before reading).
        expect(faults.hugeBytesWritten, "the RP stopped reading long before 50 MB").toBeLessThan(HUGE_BYTES / 4)
        expect(peakGrowth, `RSS growth ${(peakGrowth / 1048576).toFixed(1)} MB stays well under 50 MB`).toBeLessThan(
          20 * 1024 * 1024,
        )
        await expectNoUnhandled(harness)
        await expectStageReject(stage, o)
      })
    }
  }

  it("DS-03 the size cap is 1 MiB (documented bound)", () => {
    expect(MAX_RESPONSE_BYTES).toBe(1024 * 1024)
  })
})

// ---------------------------------------------------------------------------------------------------------
// DS-03: only configured issuers are fetched (no SSRF), redirects never followed

describe("DS-03 only configured issuers are fetched; redirects are not followed", () => {
  it("DS-03 callback with iss=<another server> (cold metadata cache): REJECT(InvalidCheck), the other server receives nothing", async () => {
    const { config, log } = setup()
    const { jar, callback } = await startFlow(config)
    clearDiscoveryCache()
    callback.searchParams.set("iss", other.issuer)
    const before = { ...op.counts }
    const res = await callbackGet(config, callback, jar.header())
    await expectRejected(res, { type: "InvalidCheck", log, callback: true })
    expect(op.counts.discovery - before.discovery, "metadata only from the configured issuer").toBe(1)
    expect({ token: op.counts.token - before.token, jwks: op.counts.jwks - before.jwks }).toEqual({ token: 0, jwks: 0 })
    expect(other.requests, "the other server receives zero requests").toEqual([])
    await expectNoUnhandled(harness)
  })

  it("DS-03 sign-in start with ?issuer=/&iss=/&wellKnown=<another server> in the query: discovery only from the configured issuer", async () => {
    const { config } = setup()
    const q = new URLSearchParams({
      issuer: other.issuer,
      iss: other.issuer,
      wellKnown: `${other.issuer}/.well-known/openid-configuration`,
    })
    const { res } = await postSignIn(config, "mock", { query: `?${q}` })
    expect(res.status).toBe(302)
    expect(
      new URL(res.headers.get("location") as string).origin,
      "the authorization endpoint is the configured OP's",
    ).toBe(op.origin)
    expect(op.counts.discovery).toBe(1)
    expect(other.requests).toEqual([])
  })

  it("DS-03 ID token naming another issuer: REJECT(OAuthCallbackError), the other server receives nothing", async () => {
    op.extraClaims = { iss: other.issuer }
    const { config, log } = setup()
    const { jar, callback } = await startFlow(config)
    const res = await callbackGet(config, callback, jar.header())
    await expectRejected(res, { type: "OAuthCallbackError", log, callback: true })
    expect(other.requests).toEqual([])
    await expectNoUnhandled(harness)
  })

  it("DS-03 ID token signed with the attacker's key whose header points jku/x5u at another server: REJECT, nothing fetched from it", async () => {
    // The OP's token endpoint hands out an ID token re-signed by the attacker, with `kid` of the attacker's key and
    // `jku`/`x5u` naming the attacker's JWKS: keys must only come from the configured issuer's jwks_uri.
    const realIdToken = op.idToken.bind(op)
    vi.spyOn(op, "idToken").mockImplementation((entry) => {
      const [, payload] = realIdToken(entry).split(".")
      const header = Buffer.from(
        JSON.stringify({
          alg: "RS256",
          typ: "JWT",
          kid: ATTACKER_KID,
          jku: `${other.issuer}/jwks`,
          x5u: `${other.issuer}/x5u`,
        }),
      ).toString("base64url")
      const input = `${header}.${payload}`
      return `${input}.${sign("sha256", Buffer.from(input), attackerKey.privateKey).toString("base64url")}`
    })
    const { config, log } = setup()
    const { jar, callback } = await startFlow(config)
    const res = await callbackGet(config, callback, jar.header())
    await expectRejected(res, { type: "OAuthCallbackError", log, callback: true })
    expect(op.counts.jwks, "keys from the configured jwks_uri only").toBe(1)
    expect(other.requests).toEqual([])
    await expectNoUnhandled(harness)
  })

  it("DS-03 discovery document naming another issuer and endpoints on another server: sign-in refused, the other server receives nothing", async () => {
    const forged = {
      ...op.metadata(),
      issuer: other.issuer,
      authorization_endpoint: `${other.issuer}/authorize`,
      token_endpoint: `${other.issuer}/token`,
      jwks_uri: `${other.issuer}/jwks`,
    }
    faults.set("discovery", { kind: "json", body: forged })
    const { config, log } = setup()
    const { res } = await postSignIn(config)
    expect(res.headers.get("location")).not.toContain(other.origin)
    expect(op.counts.authorize).toBe(0)
    expect(other.requests, "the other server receives zero requests").toEqual([])
    await expectNoUnhandled(harness)
    await expectRejected(res, { type: "OAuthSignInError", log })
  })

  const REDIRECT_TARGET: Record<Endpoint, string> = {
    discovery: "/.well-known/openid-configuration",
    jwks: "/jwks",
    token: "/token",
    userinfo: "/userinfo",
  }
  for (const stage of STAGES) {
    // Every redirect status for the token endpoint (a credential POST, RFC 9700 §4.12); 302 and 307 elsewhere.
    for (const status of stage === "token" ? [301, 302, 303, 307, 308] : [302, 307]) {
      it(`DS-03 ${stage} endpoint answers ${status} to another server: not followed, clean REJECT, the other server receives nothing`, async () => {
        const endpoint: Endpoint = stage.startsWith("discovery") ? "discovery" : (stage as Endpoint)
        const o = await runStage(
          stage,
          { kind: "redirect", status, location: `${other.issuer}${REDIRECT_TARGET[endpoint]}` },
          3000,
        )
        expectNothingAfter(stage)
        expect(o.res.headers.get("location")).not.toContain(other.origin)
        expect(other.requests, "redirect not followed: the other server receives zero requests").toEqual([])
        await expectNoUnhandled(harness)
        await expectStageReject(stage, o)
      })
    }
  }

  it("DS-03 token endpoint 302 to another path on the same OP (mock `redirect` fault): not followed either", async () => {
    op.tokenFault = "redirect"
    const { config, log } = setup()
    const { jar, callback } = await startFlow(config)
    const res = await callbackGet(config, callback, jar.header())
    await expectRejected(res, { type: "OAuthCallbackError", log, callback: true })
    expect(op.counts.tokenRedirectTarget).toBe(0)
  })
})

describe("I6", () => {
  it("I6 no unhandled rejection during the OAuth DoS tests", async () => {
    await expectNoUnhandled(harness, 50)
  })
})
