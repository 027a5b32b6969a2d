// R8 clock skew: the server's clock is pinned (IPC setClock) and the mock OP's ID token times are set relative to
// it, so each case lands on an exact second. Matrix: OP offsets on the ID token (iat/nbf/exp), session JWE read at
// exp + d, OAuth check cookies (state, PKCE, nonce) used at their expiry + d, e-mail links clicked at their expiry + d,
// WebAuthn ceremonies finished at their challenge's expiry + d; each against the tolerance the code documents, and
// exact at ±1 s around each bound.
import { databaseBackend, startApp } from "./lib/app.js"
import {
  SESSION_COOKIE,
  csrf,
  decodeSession,
  oauthFinish,
  oauthStart,
  session,
  sessionCookieOf,
  signIn,
  signedIn,
} from "./lib/flows.js"
import { Client, type HttpResponse, Jar } from "./lib/http.js"
import { opOption, startOp } from "./lib/op.js"
import type { RowCounts } from "./lib/protocol.js"
import { createSoftAuthenticator, type SoftAuthenticator } from "../test/support/soft-authenticator.js"
import { type RunContext, type RunResult, check } from "./lib/report.js"
import { SECRET } from "./r1-load.js"

/** oauth4webapi's default clock tolerance for ID token exp/nbf (seconds). */
const ID_TOKEN_TOLERANCE = 30
/** Gatehouse refuses ID tokens whose iat is older than this (src/protocols/oauth2.ts, OA-14). */
const ID_TOKEN_MAX_AGE = 3600
/** src/jwt/jwe.ts CLOCK_TOLERANCE: session JWE and sealed check cookies. */
const JWE_TOLERANCE = 15
const CHECK_COOKIE_TTL = 900
const OFFSETS = [-600, -60, -5, 0, 5, 60, 600]
/** src/flows/email.ts DEFAULT_EMAIL_MAX_AGE: a link's row expires 24 h after it was minted (millisecond precision). */
const EMAIL_MAX_AGE = 24 * 60 * 60
/** src/cookies/policy.ts FLOW_COOKIE_MAX_AGE: the WebAuthn challenge's exp is iat + 900 s, whole seconds. */
const CHALLENGE_TTL = 900
const sign = (d: number): string => `${d > 0 ? "+" : ""}${d} s`

export async function runR8(_ctx: RunContext): Promise<RunResult> {
  const op = await startOp()
  const app = await startApp({ strategy: "jwt", db: "none", secrets: [SECRET], op: opOption(op) })
  const client = new Client(app.origin, 4)
  /** The server's Date.now() reads second `s` + 0.5 from now on (the callback lands well inside that second). */
  const pin = (s: number | null) => app.call({ cmd: "setClock", atMs: s === null ? null : s * 1000 + 500 })
  const rows: (string | number)[][] = []
  let mismatches = 0
  let fivexx = 0
  const record = (what: string, offset: string, expected: boolean, observed: boolean, status: number) => {
    if (status >= 500) fivexx++
    if (expected !== observed) mismatches++
    rows.push([
      what,
      offset,
      expected ? "accept" : "reject",
      observed ? "accept" : "reject",
      expected === observed ? "ok" : "MISMATCH",
    ])
  }
  try {
    // --- ID token: the OP's clock is `d` seconds off the RP's (iat = nbf = now + d, exp = now + d + 300) ---
    const idTokenCase = async (claims: (x: number) => Record<string, number | undefined>) => {
      await pin(null)
      const jar = new Jar()
      const path = await oauthStart(client, jar, op, "r8-user")
      const x = Math.floor(Date.now() / 1000) + 1
      op.extraClaims = claims(x)
      await pin(x)
      const res = await oauthFinish(client, jar, path)
      return { ok: signedIn(res, app.origin), status: res.status }
    }
    for (const d of OFFSETS) {
      const r = await idTokenCase((x) => ({ iat: x + d, nbf: x + d, exp: x + d + 300, auth_time: x + d }))
      record(
        "ID token, OP clock offset",
        `${d > 0 ? "+" : ""}${d} s`,
        d + 300 > -ID_TOKEN_TOLERANCE && d <= ID_TOKEN_TOLERANCE,
        r.ok,
        r.status,
      )
    }
    for (const [label, claims, expected] of [
      [
        `nbf = now + ${ID_TOKEN_TOLERANCE}`,
        (x: number) => ({ iat: x, nbf: x + ID_TOKEN_TOLERANCE, exp: x + 300 }),
        true,
      ],
      [
        `nbf = now + ${ID_TOKEN_TOLERANCE + 1}`,
        (x: number) => ({ iat: x, nbf: x + ID_TOKEN_TOLERANCE + 1, exp: x + 300 }),
        false,
      ],
      [
        `exp = now - ${ID_TOKEN_TOLERANCE - 1}`,
        (x: number) => ({ iat: x - 200, nbf: undefined, exp: x - ID_TOKEN_TOLERANCE + 1 }),
        true,
      ],
      [
        `exp = now - ${ID_TOKEN_TOLERANCE}`,
        (x: number) => ({ iat: x - 200, nbf: undefined, exp: x - ID_TOKEN_TOLERANCE }),
        false,
      ],
      // The server reads now + 0.5 s, and the age check compares with the fraction: iat must be ≥ now + 0.5 - 3600.
      [
        `iat = now - ${ID_TOKEN_MAX_AGE - 1}`,
        (x: number) => ({ iat: x - ID_TOKEN_MAX_AGE + 1, nbf: undefined, exp: x + 300 }),
        true,
      ],
      [
        `iat = now - ${ID_TOKEN_MAX_AGE}`,
        (x: number) => ({ iat: x - ID_TOKEN_MAX_AGE, nbf: undefined, exp: x + 300 }),
        false,
      ],
    ] as const) {
      const r = await idTokenCase(claims)
      record("ID token, bound ±1 s", label, expected, r.ok, r.status)
    }
    op.extraClaims = {}

    // --- Session JWE read at exp + d ---
    await pin(null)
    const jar = new Jar()
    await signIn(client, jar, "user-1")
    const exp = Number((await decodeSession(jar.get(SESSION_COOKIE) ?? "", [SECRET]))?.exp)
    for (const d of [...OFFSETS, JWE_TOLERANCE - 1, JWE_TOLERANCE]) {
      await pin(exp + d)
      const { res, user } = await session(client, jar.clone())
      record(
        "session JWE read at exp + d",
        `${d > 0 ? "+" : ""}${d} s`,
        d < JWE_TOLERANCE,
        user !== undefined,
        res.status,
      )
    }

    // --- Check cookies (state, PKCE, nonce) used at their expiry + d ---
    for (const d of [...OFFSETS, JWE_TOLERANCE - 1, JWE_TOLERANCE]) {
      const a = Math.floor(Date.now() / 1000) + 1
      await pin(a)
      const flowJar = new Jar()
      const path = await oauthStart(client, flowJar, op, "r8-user")
      const x = a + CHECK_COOKIE_TTL + d
      op.extraClaims = { iat: x, exp: x + 300 }
      await pin(x)
      const res = await oauthFinish(client, flowJar, path)
      record(
        "check cookies used at expiry + d",
        `${d > 0 ? "+" : ""}${d} s`,
        d < JWE_TOLERANCE,
        signedIn(res, app.origin),
        res.status,
      )
    }
    await pin(null)
    const idTokenRows = rows.length

    // --- E-mail links and WebAuthn ceremonies: a second app with a database (verification tokens, authenticators) ---
    const extra = await expiryCases()
    rows.push(...extra.rows)
    mismatches += extra.mismatches
    fivexx += extra.fivexx
    const s = await app.stats()
    return {
      id: "R8",
      title: "clock skew matrix",
      tables: [{ head: ["what", "offset", "expected", "observed", "result"], rows }],
      checks: [
        check(
          "R8 every case as the documented tolerance says (exact at ±1 s)",
          mismatches === 0,
          `${mismatches} mismatches in ${rows.length} cases`,
        ),
        check(
          "R8 e-mail links and WebAuthn ceremonies: outcome, error code, cookies and rows as expected",
          extra.wrong === 0,
          `${extra.wrong} wrong of ${extra.rows.length} (${extra.rows.length - extra.webauthn} e-mail, ${extra.webauthn} WebAuthn)`,
        ),
        check("R8 5xx", fivexx === 0, fivexx),
        check(
          "R8 unhandled rejections / uncaught exceptions",
          s.unhandledRejections + s.uncaughtExceptions + extra.unhandled === 0,
          s.unhandledRejections + s.uncaughtExceptions + extra.unhandled,
        ),
      ],
      notes: [
        `Tolerances: ID token exp/nbf ${ID_TOKEN_TOLERANCE} s (oauth4webapi's default), ID token iat at most ${ID_TOKEN_MAX_AGE} s old, session JWE and check cookies ${JWE_TOLERANCE} s (src/jwt/jwe.ts), check cookies live ${CHECK_COOKIE_TTL} s. "now" is the RP's second; the RP's Date.now() is pinned half a second into it.`,
        `E-mail links (${rows.length - idTokenRows - extra.webauthn} cases, ${extra.backend}): the row expires ${EMAIL_MAX_AGE} s (the default maxAge) after the sign-in request, in milliseconds; no tolerance; the link works while expires ≥ now (expires < now is Verification, as in Auth.js). Offset 0 is left out here: the mint and the click each read the clock a few ms after it was pinned, so "exactly at expires" is a race at this scale; test/security/clock-skew.test.ts checks it with a frozen clock (accepted) and 1 ms later (refused). A refusal must redirect to error=Verification, set no session cookie, write no user or session, and leave no token row (useVerificationToken deletes it before the expiry check).`,
        `WebAuthn (${extra.webauthn} cases): the challenge cookie's exp is the options request's second + ${CHALLENGE_TTL} s, checked in whole seconds with no tolerance (src/security/webauthn-challenge.ts: refused when exp ≤ now), so the last second before exp is accepted and exp itself refused. A refusal must redirect to error=WebAuthnVerificationError, set no session cookie and write no user, account, authenticator or session row.`,
      ],
    }
  } finally {
    client.close()
    await app.stop()
    await op.stop()
  }
}

type Row = (string | number)[]

/** The e-mail and WebAuthn expiry cases, on their own app process (database sessions on PGlite or DATABASE_URL). */
async function expiryCases(): Promise<{
  rows: Row[]
  mismatches: number
  fivexx: number
  wrong: number
  webauthn: number
  unhandled: number
  backend: string
}> {
  const app = await startApp({
    strategy: "database",
    db: databaseBackend(),
    secrets: [SECRET],
    email: true,
    webauthn: true,
  })
  const client = new Client(app.origin, 4)
  const pin = (s: number | null) => app.call({ cmd: "setClock", atMs: s === null ? null : s * 1000 + 500 })
  const counts = () => app.call<RowCounts>({ cmd: "rowCounts" })
  const rows: Row[] = []
  let mismatches = 0
  let fivexx = 0
  let wrong = 0
  let webauthn = 0
  let n = 0
  const REFUSED_EMAIL = `${app.origin}/auth/error?error=Verification`
  const REFUSED_WEBAUTHN = `${app.origin}/auth/error?error=WebAuthnVerificationError`
  /** What a case left behind that it should not have (empty when all is as expected). */
  const sideEffects = (
    expected: boolean,
    res: HttpResponse,
    refusedAt: string,
    before: RowCounts,
    after: RowCounts,
    written: Partial<RowCounts>,
  ): string[] => {
    const bad: string[] = []
    if (!expected) {
      if (res.location !== refusedAt) bad.push(`went to ${res.location ?? res.status}`)
      if (sessionCookieOf(res)?.kind === "set") bad.push("session cookie set")
    }
    for (const key of Object.keys(before) as (keyof RowCounts)[]) {
      const delta = after[key] - before[key]
      const want = expected ? (written[key] ?? 0) : key === "verificationTokens" ? (written[key] ?? 0) : 0
      if (delta !== want) bad.push(`${key} ${delta >= 0 ? "+" : ""}${delta}, want ${want >= 0 ? "+" : ""}${want}`)
    }
    return bad
  }
  const record = (what: string, d: number, expected: boolean, res: HttpResponse, bad: string[]) => {
    const observed = signedIn(res, app.origin)
    if (res.status >= 500) fivexx++
    if (expected !== observed) mismatches++
    if (bad.length > 0) wrong++
    rows.push([
      what,
      sign(d),
      expected ? "accept" : "reject",
      observed ? "accept" : "reject",
      expected !== observed ? "MISMATCH" : bad.length > 0 ? `WRONG: ${bad.join(", ")}` : "ok",
    ])
  }
  try {
    // --- E-mail link minted at second a (+0.5 s), clicked at its expiry + d: refused when expires < now ---
    const emailCase = async (d: number) => {
      await pin(null)
      const address = `r8-mail-${++n}@stress.test`
      const jar = new Jar()
      const a = Math.floor(Date.now() / 1000) + 1
      await pin(a)
      const csrfToken = await csrf(client, jar)
      const sent = await client.send("POST", "/auth/signin/email", { jar, form: { csrfToken, email: address } })
      const link = await app.call<string | null>({ cmd: "takeMail", email: address })
      if (sent.status !== 302 || !link)
        throw new Error(`POST /auth/signin/email answered ${sent.status} ${sent.location ?? ""}, no link`)
      const before = await counts()
      if (before.verificationTokens !== 1)
        throw new Error(`${before.verificationTokens} verification token rows before the click, want 1`)
      await pin(a + EMAIL_MAX_AGE + d)
      const url = new URL(link)
      const res = await client.send("GET", url.pathname + url.search, { jar })
      const after = await counts()
      const expected = d < 0
      // Used once either way: the row is deleted by the click, accepted or not.
      const bad = sideEffects(expected, res, REFUSED_EMAIL, before, after, {
        verificationTokens: -1,
        users: 1,
        sessions: 1,
      })
      record("e-mail link used at expires + d", d, expected, res, bad)
    }
    for (const d of [...OFFSETS.filter((o) => o !== 0), -1, 1]) await emailCase(d)

    // --- WebAuthn: options at second a (+0.5 s), the ceremony finished at the challenge's exp + d: refused when exp ≤ now ---
    const rp = new URL(app.origin)
    const passkey = (): SoftAuthenticator =>
      createSoftAuthenticator({ alg: "ES256", rpId: rp.hostname, origin: app.origin })
    const ceremony = async (
      authenticator: SoftAuthenticator,
      action: "register" | "authenticate",
      address: string,
      finishAt: (a: number) => number | null,
    ) => {
      const jar = new Jar()
      const a = Math.floor(Date.now() / 1000) + 1
      await pin(a)
      const csrfToken = await csrf(client, jar)
      const query = new URLSearchParams(action === "register" ? { action, email: address } : { action })
      const opt = await client.send("GET", `/auth/webauthn-options/passkey?${query}`, { jar })
      const body = JSON.parse(opt.body) as { action?: string; options?: never }
      if (opt.status !== 200 || body.action !== action || !body.options)
        throw new Error(`webauthn-options answered ${opt.status} ${opt.body.slice(0, 200)}`)
      const data =
        action === "register" ? authenticator.register(body.options) : authenticator.authenticate(body.options)
      const before = await counts()
      const at = finishAt(a)
      await pin(at)
      const res = await client.send("POST", "/auth/callback/passkey", {
        jar,
        form: { csrfToken, action, data: JSON.stringify(data), callbackUrl: `${app.origin}/r8` },
        headers: { origin: app.origin },
      })
      return { res, before, after: await counts() }
    }
    // One registered passkey (at the real clock) for the sign-in cases.
    await pin(null)
    const owner = passkey()
    const enrolled = await ceremony(owner, "register", "r8-passkey@stress.test", () => null)
    if (!signedIn(enrolled.res, app.origin))
      throw new Error(`passkey registration answered ${enrolled.res.status} ${enrolled.res.location ?? ""}`)
    for (const d of [...OFFSETS, -1, 1]) {
      await pin(null)
      const { res, before, after } = await ceremony(owner, "authenticate", "", (a) => a + CHALLENGE_TTL + d)
      const expected = d < 0
      record(
        "WebAuthn sign-in at challenge exp + d",
        d,
        expected,
        res,
        sideEffects(expected, res, REFUSED_WEBAUTHN, before, after, { sessions: 1 }),
      )
      webauthn++
    }
    for (const d of [-1, 0, 1]) {
      await pin(null)
      const { res, before, after } = await ceremony(
        passkey(),
        "register",
        `r8-signup-${++n}@stress.test`,
        (a) => a + CHALLENGE_TTL + d,
      )
      const expected = d < 0
      record(
        "WebAuthn sign-up at challenge exp + d",
        d,
        expected,
        res,
        sideEffects(expected, res, REFUSED_WEBAUTHN, before, after, {
          users: 1,
          accounts: 1,
          authenticators: 1,
          sessions: 1,
        }),
      )
      webauthn++
    }
    await pin(null)
    const s = await app.stats()
    return {
      rows,
      mismatches,
      fivexx,
      wrong,
      webauthn,
      unhandled: s.unhandledRejections + s.uncaughtExceptions,
      backend: app.backend,
    }
  } finally {
    client.close()
    await app.stop()
  }
}
