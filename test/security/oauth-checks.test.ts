// Security group A (docs/security.md §1.A), the checks on the callback request before any call to the AS: state, the
// check cookies and their binding to provider and client, replay, PKCE, nonce, the RFC 9207 iss parameter,
// duplicate parameters, response_mode=form_post and provider ids (OA-01..OA-07, OA-09, OA-20..OA-22), plus the
// baseline flow that shows each rejection is caused by its fault alone. Against the mock OP
// (test/support/mock-op.ts); REJECT(T) and the invariants I1-I5 are asserted by expectReject
// (test/support/oauth-flow.ts). Documented choices: InvalidCheck is not client-safe, so it shows as
// /auth/error?error=Configuration; so does an unknown provider id (a Map lookup, no prototype).
import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import { CookieJar, ORIGIN, fetchCsrf, postForm, setCookies } from "../support/flow-kit.js"
import { sessionCookieNames } from "../support/cookies.js"
import type { MockOp } from "../support/mock-op.js"
import {
  STATE,
  PKCE,
  NONCE,
  CHECK_COOKIES,
  NO_CALLS,
  beginSignIn,
  callbackGet,
  callbackPost,
  callbackUrl,
  carriedChecks,
  deltaCounts,
  expectReject,
  expectSignedIn,
  fullFlow,
  provider,
  setup,
  useShiftedClock,
  without,
  expectNoUnhandled,
  useMockOps,
} from "../support/oauth-flow.js"

let opA: MockOp
let opB: MockOp
const harness = useMockOps(["client-a", "client-b"], (ops) => {
  ;[opA, opB] = ops as [MockOp, MockOp]
})

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

describe("A. OAuth 2 / OIDC callback — attacks (docs/security.md §1.A)", () => {
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
    await expectReject(res, {
      type: "InvalidCheck",
      log,
      op: opB,
      before: before.b,
      preCheck: true,
      carried: CHECK_COOKIES,
    })
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
      await expectReject(res, {
        type: "InvalidCheck",
        log: second.log,
        op: opA,
        before,
        preCheck: true,
        carried: CHECK_COOKIES,
      })
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
    expect(sessionCookieNames(first)).toEqual(["authjs.session-token"])
    log.writes.length = 0
    const before = { ...opA.counts }
    const replay = await callbackGet(config, callback, started.jar.header())
    await expectReject(replay, { type: "OAuthCallbackError", log, op: opA, before, carried: CHECK_COOKIES })
    expect({ users: mem.users.size, accounts: mem.accounts.size, sessions: mem.sessions.size }).toEqual({
      users: 1,
      accounts: 1,
      sessions: 1,
    })
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
      await expectReject(res, {
        type: "InvalidCheck",
        log,
        op: opA,
        before,
        preCheck: true,
        carried: carriedChecks(cookie),
      })
    }
  })

  it('OA-05 a provider configured with checks:["nonce"] only: the nonce cookie missing is REJECT(InvalidCheck), I3', async () => {
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
      const res = await Auth(
        postForm("/auth/signin/mock", { csrfToken, callbackUrl: "/dashboard" }, { cookie: jar.header() }),
        config,
      )
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
    await expectReject(res, {
      type: "InvalidCheck",
      log,
      op: opB,
      before: before.b,
      preCheck: true,
      carried: CHECK_COOKIES,
    })
    expect(deltaCounts(before.a, opA.counts)).toMatchObject({ token: 0, userinfo: 0, jwks: 0 })
  })

  it("OA-09 (control) iss absent and not advertised: accepted", async () => {
    opA.sendIss = false
    opA.issParameterSupported = false
    const { config } = setup([provider(opA)])
    const { res } = await fullFlow(config, opA)
    expectSignedIn(res)
  })

  it("OA-20 /signin/__proto__, /signin/constructor, /callback/constructor, /callback/__proto__, unknown ids: InvalidProvider -> /error?error=Configuration (as Auth.js), no prototype lookup", async () => {
    const { config, log } = setup([provider(opA)])
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const protoBefore = Object.getOwnPropertyNames(Object.prototype).sort()
    const before = { ...opA.counts }
    const ids = [
      "__proto__",
      "constructor",
      "toString",
      "hasOwnProperty",
      "valueOf",
      "prototype",
      "unknown",
      "MOCK",
      "mock%00",
      "%5F%5Fproto%5F%5F",
    ]
    for (const id of ids) {
      const signin = await Auth(
        postForm(`/auth/signin/${id}`, { csrfToken, callbackUrl: "/" }, { cookie: jar.header() }),
        config,
      )
      expect(signin.status, `/signin/${id}`).toBe(302)
      expect(signin.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`)
      expect(sessionCookieNames(signin)).toEqual([])
      expect(signin.headers.getSetCookie().some((c) => CHECK_COOKIES.some((n) => c.startsWith(`${n}=`)))).toBe(false)
      for (const method of ["GET", "POST"] as const) {
        const url = `${ORIGIN}/auth/callback/${id}?code=x&state=y`
        const req =
          method === "GET"
            ? new Request(url, { headers: { cookie: jar.header() } })
            : new Request(url, {
                method,
                headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
                body: "code=x&state=y",
              })
        const cb = await Auth(req, config)
        expect(cb.status, `${method} /callback/${id}`).toBe(302)
        expect(cb.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`)
        expect(sessionCookieNames(cb)).toEqual([])
      }
    }
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(protoBefore)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(deltaCounts(before, opA.counts)).toEqual(NO_CALLS)
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
    const formPostProvider = () =>
      provider(opA, { authorization: { params: { scope: "openid profile email", response_mode: "form_post" } } })

    it("OA-22 cross-site form_post POST without the check cookies (Lax cookies not sent): REJECT(InvalidCheck), I3", async () => {
      const { config, log } = setup([formPostProvider()])
      const { authUrl } = await beginSignIn(config)
      const answer = await opA.authorize(authUrl)
      expect(answer.responseMode).toBe("form_post")
      const before = { ...opA.counts }
      const res = await callbackPost(config, "mock", answer.params, "", {
        origin: opA.origin,
        "sec-fetch-site": "cross-site",
      })
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
      const none = [...setCookies(signin)]
        .filter(([, c]) => String(c.attrs.samesite).toLowerCase() === "none")
        .map(([n]) => n)
      const cookie = [...jar.cookies]
        .filter(([k]) => none.includes(k))
        .map(([k, v]) => `${k}=${v}`)
        .join("; ")
      const res = await callbackPost(config, "mock", answer.params, cookie, {
        origin: opA.origin,
        "sec-fetch-site": "cross-site",
      })
      expectSignedIn(res)
    })
  })
})

describe("I6", () => {
  it("I6 no unhandled rejection during the OAuth security tests", async () => {
    await expectNoUnhandled(harness)
  })
})
