// WebAuthn security cases (docs/security.md H, WA-01..WA-07), and the account and config rules around them, through
// Auth() with the software authenticator: what a user relies on is the callback's outcome URL, that a refused
// callback sets no session cookie and writes no user / account / authenticator row, and the counters the adapter keeps.
import { createHash, randomBytes } from "node:crypto"
import { afterAll, afterEach, describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import type { AuthConfig } from "../../src/index.js"
import type { Adapter } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { listAuthenticators, removeAuthenticator } from "../../src/authenticators.js"
import Passkey from "../../src/providers/passkey.js"
import { MemoryStore } from "../../src/stores/memory.js"
import WebAuthn from "../../src/providers/webauthn.js"
import { sessionCookiesSet } from "../support/cookies.js"
import { type Backend, memoryBackend, pgliteBackend } from "../support/db-harness.js"
import {
  b64url,
  type CborValue,
  encodeCbor,
  type SoftAlg,
  type SoftAuthenticator,
} from "../support/soft-authenticator.js"
import {
  CookieJar,
  ORIGIN,
  csrfToken,
  getOptions,
  passkeyConfig,
  postCallback,
  registerPasskey,
  session,
  signInWithPasskey,
  softPasskey,
} from "../support/webauthn-kit.js"

const REFUSED = `${ORIGIN}/auth/error?error=WebAuthnVerificationError`
const ACCOUNT = `${ORIGIN}/account`
const ALGS: readonly SoftAlg[] = ["ES256", "EdDSA"]

// ------------------------------------------------------------------------------------------------------------ helpers

/** A config whose logger keeps the errors (message and cause), so a test can tell which check refused. */
function setup(
  adapter: Adapter = MemoryAdapter(),
  overrides: Partial<AuthConfig> = {},
): { config: AuthConfig; errors: Error[]; adapter: Adapter } {
  const errors: Error[] = []
  const config = passkeyConfig(adapter, {
    logger: { error: (e: Error) => void errors.push(e), warn() {}, debug() {} },
    ...overrides,
  })
  return { config, errors, adapter }
}

/** Every logged message with its causes, one string (for `toMatch`). */
function logged(errors: Error[]): string {
  const parts: string[] = []
  for (const e of errors) {
    let cur: unknown = e
    while (cur instanceof Error) {
      parts.push(`${(cur as { type?: string }).type ?? cur.name}: ${cur.message}`)
      cur = cur.cause
    }
  }
  return parts.join("\n")
}

/** A second browser holding exactly the same cookies (a replayer who captured them). */
function copyJar(jar: CookieJar): CookieJar {
  const copy = new CookieJar()
  for (const [k, v] of jar.cookies) copy.cookies.set(k, v)
  return copy
}

/** The adapter's credential id for a base64url one. */
const storedId = (id: string): string => Buffer.from(id, "base64url").toString("base64")

async function counterOf(adapter: Adapter, auth: SoftAuthenticator, index = 0): Promise<number> {
  const row = await adapter.getAuthenticator!(storedId(auth.credentials[index]!.id))
  return Number(row!.counter)
}

interface Rows {
  users: number
  accounts: number
  authenticators: number
  sessions: number
}
function memoryRows(adapter: ReturnType<typeof MemoryAdapter>): Rows {
  return {
    users: adapter.users.size,
    accounts: adapter.accounts.size,
    authenticators: adapter.authenticators.size,
    sessions: adapter.sessions.size,
  }
}

/** Creation options an authenticator can answer without the server (for credentials the server never saw). */
function localCreationOptions(challenge = b64url(randomBytes(32))) {
  return {
    challenge,
    rp: { id: "localhost", name: "localhost" },
    user: { id: b64url(Buffer.from("stranger")), name: "s@x.test", displayName: "s" },
    pubKeyCredParams: [
      { type: "public-key", alg: -7 },
      { type: "public-key", alg: -8 },
    ],
  }
}

/** Registers `email` with a fresh passkey in a fresh browser, then forgets the session (signed out). */
async function enrolled(
  config: AuthConfig,
  email: string,
  opts: Parameters<typeof softPasskey>[0] = {},
): Promise<SoftAuthenticator> {
  const auth = softPasskey(opts)
  const reg = await registerPasskey(config, auth, new CookieJar(), email)
  expect(reg.url).toBe(ACCOUNT)
  return auth
}

interface Raw {
  res: Response
  status: number
  url: string
  location: string | null
  text: string
  ms: number
}

/** POST /auth/callback/<id> with exactly these form fields, cookies and headers (nothing added but content type and origin). */
async function rawPost(
  config: AuthConfig,
  jar: CookieJar,
  fields: Record<string, string>,
  opts: { providerId?: string; headers?: Record<string, string>; returnRedirect?: boolean } = {},
): Promise<Raw> {
  const headers: Record<string, string> = {
    cookie: jar.header(),
    "content-type": "application/x-www-form-urlencoded",
    origin: ORIGIN,
    ...opts.headers,
  }
  if (opts.returnRedirect !== false) headers["x-auth-return-redirect"] = "1"
  const started = performance.now()
  const res = await Auth(
    new Request(`${ORIGIN}/auth/callback/${opts.providerId ?? "passkey"}`, {
      method: "POST",
      headers,
      body: new URLSearchParams(fields),
    }),
    config,
  )
  const text = await res.clone().text()
  const ms = performance.now() - started
  jar.store(res)
  let url = res.headers.get("location") ?? ""
  if (opts.returnRedirect !== false && res.headers.get("content-type")?.includes("json")) {
    try {
      url = (JSON.parse(text) as { url?: string }).url ?? ""
    } catch {
      url = ""
    }
  }
  return { res, status: res.status, url, location: res.headers.get("location"), text, ms }
}

/** Options (stored in `jar`) and an assertion over them. */
async function assertion(
  config: AuthConfig,
  auth: SoftAuthenticator,
  jar: CookieJar,
  overrides: Parameters<SoftAuthenticator["authenticate"]>[1] = {},
  providerId = "passkey",
) {
  const { body } = await getOptions(config, jar, { action: "authenticate" }, providerId)
  expect(body.action).toBe("authenticate")
  return auth.authenticate(body.options, overrides)
}

afterEach(() => {
  vi.unstubAllEnvs()
})

// ---------------------------------------------------------------------------------------------------------- backends

const memory = memoryBackend()
/** PGlite through the postgres adapter, when that adapter has the authenticator methods (skipped otherwise). */
const lite = await pgliteBackend().catch(() => undefined)
let liteReady = false
if (lite) {
  try {
    const probe = await lite.fresh()
    liteReady = [
      "getAuthenticator",
      "createAuthenticator",
      "listAuthenticatorsByUserId",
      "updateAuthenticatorCounter",
    ].every((m) => typeof (probe as unknown as Record<string, unknown>)[m] === "function")
  } catch {
    liteReady = false
  }
}
afterAll(async () => {
  await lite?.close()
})
/** WA-02 and WA-04 run on each; PGlite drops out (those suites then run on memory alone) when the adapter cannot store authenticators. */
const BACKENDS: Backend[] = [memory, ...(lite && liteReady ? [lite] : [])]

async function backendRows(backend: Backend, adapter: Adapter, auths: SoftAuthenticator[]): Promise<Rows> {
  const c = await backend.counts()
  let authenticators = 0
  for (const a of auths)
    for (const cred of a.credentials) if (await adapter.getAuthenticator!(storedId(cred.id))) authenticators++
  return { ...c, authenticators }
}

// ------------------------------------------------------------------------------------------------------------- WA-01

describe.each(ALGS)("WA-01 challenge binding (%s)", (alg) => {
  it("WA-01 an assertion over another browser's challenge, posted with this browser's cookie, is refused", async () => {
    const { config, errors, adapter } = setup()
    const auth = await enrolled(config, "ada@example.com", { alg })
    const jarA = new CookieJar()
    const jarB = new CookieJar()
    const answerA = await assertion(config, auth, jarA)
    await getOptions(config, jarB, { action: "authenticate" })
    const before = await counterOf(adapter, auth)
    const posted = await postCallback(config, jarB, "authenticate", answerA)
    expect(posted.url).toBe(REFUSED)
    expect(sessionCookiesSet(posted.res)).toEqual([])
    expect(await session(config, jarB)).toBeNull()
    expect(await counterOf(adapter, auth)).toBe(before)
    expect(logged(errors)).toMatch(/challenge/i)
    // The browser the challenge belongs to still signs in with it (the refusal spent B's challenge, not A's).
    const own = await postCallback(config, jarA, "authenticate", answerA)
    expect(own.url).toBe(ACCOUNT)
    expect((await session(config, jarA))?.user.email).toBe("ada@example.com")
  })

  it("WA-01 a challenge invented by the client is refused (with a valid challenge cookie, and without one)", async () => {
    const { config, adapter } = setup()
    const auth = await enrolled(config, "ada@example.com", { alg })
    const invented = { challenge: b64url(randomBytes(32)), rpId: "localhost" }
    const jar = new CookieJar()
    await getOptions(config, jar, { action: "authenticate" })
    const withCookie = await postCallback(config, jar, "authenticate", auth.authenticate(invented))
    expect(withCookie.url).toBe(REFUSED)
    expect(sessionCookiesSet(withCookie.res)).toEqual([])
    const noCookie = await postCallback(config, new CookieJar(), "authenticate", auth.authenticate(invented))
    expect(noCookie.url).toBe(REFUSED)
    expect(sessionCookiesSet(noCookie.res)).toEqual([])
    // A challenge cookie the client made up is not one either.
    const forged = new CookieJar()
    forged.cookies.set("authjs.challenge", b64url(randomBytes(80)))
    const forgedPost = await postCallback(config, forged, "authenticate", auth.authenticate(invented))
    expect(forgedPost.url).toBe(REFUSED)
    expect(await counterOf(adapter, auth)).toBe(0)
  })

  it("WA-01 a registration over another browser's challenge is refused and writes nothing", async () => {
    const adapter = MemoryAdapter()
    const { config } = setup(adapter)
    const jarA = new CookieJar()
    const jarB = new CookieJar()
    const optsA = await getOptions(config, jarA, { action: "register", email: "a@example.com" })
    await getOptions(config, jarB, { action: "register", email: "b@example.com" })
    const auth = softPasskey({ alg })
    const posted = await postCallback(config, jarB, "register", auth.register(optsA.body.options))
    expect(posted.url).toBe(REFUSED)
    expect(sessionCookiesSet(posted.res)).toEqual([])
    expect(memoryRows(adapter)).toEqual({ users: 0, accounts: 0, authenticators: 0, sessions: 0 })
  })
})

// ------------------------------------------------------------------------------------------------------------- WA-02

describe.each(BACKENDS.map((b) => [b.name, b] as const))("WA-02 challenge spent once (%s)", (_name, backend) => {
  describe.each(ALGS)("%s", (alg) => {
    it("WA-02 the same assertion posted twice with the same cookie: the second is refused, even from a counter-0 passkey", async () => {
      const adapter = await backend.fresh()
      const { config, errors } = setup(adapter)
      const auth = await enrolled(config, "zero@example.com", { alg, signCount: "zero" })
      const jar = new CookieJar()
      const answer = await assertion(config, auth, jar)
      const csrf = await csrfToken(config, jar)
      const captured = copyJar(jar)
      const first = await postCallback(config, jar, "authenticate", answer, { csrf })
      expect(first.url).toBe(ACCOUNT)
      expect(sessionCookiesSet(first.res)).toHaveLength(1)
      errors.length = 0
      const replay = await postCallback(config, captured, "authenticate", answer, { csrf })
      expect(replay.url).toBe(REFUSED)
      expect(sessionCookiesSet(replay.res)).toEqual([])
      expect(await session(config, captured)).toBeNull()
      expect(logged(errors)).toMatch(/already used/)
      expect(await counterOf(adapter, auth)).toBe(0)
    })

    it("WA-02 one challenge cookie with two different fresh assertions: the second is refused", async () => {
      const adapter = await backend.fresh()
      const { config, errors } = setup(adapter)
      const auth = await enrolled(config, "two@example.com", { alg })
      const jar = new CookieJar()
      const { body } = await getOptions(config, jar, { action: "authenticate" })
      const a1 = auth.authenticate(body.options)
      const a2 = auth.authenticate(body.options) // counter 2: the counter alone would accept it
      const csrf = await csrfToken(config, jar)
      const captured = copyJar(jar)
      expect((await postCallback(config, jar, "authenticate", a1, { csrf })).url).toBe(ACCOUNT)
      errors.length = 0
      const second = await postCallback(config, captured, "authenticate", a2, { csrf })
      expect(second.url).toBe(REFUSED)
      expect(sessionCookiesSet(second.res)).toEqual([])
      expect(logged(errors)).toMatch(/already used/)
      expect(await counterOf(adapter, auth)).toBe(1)
    })

    it("WA-02 20 concurrent posts of one assertion give exactly one session", async () => {
      const adapter = await backend.fresh()
      const { config } = setup(adapter, { session: { strategy: "database" } })
      const auth = await enrolled(config, "race@example.com", { alg, signCount: "zero" })
      const sessionsBefore = (await backend.counts()).sessions
      const jar = new CookieJar()
      const answer = await assertion(config, auth, jar)
      const csrf = await csrfToken(config, jar)
      const results = await Promise.all(
        Array.from({ length: 20 }, () => postCallback(config, copyJar(jar), "authenticate", answer, { csrf })),
      )
      expect(results.filter((r) => r.url === ACCOUNT)).toHaveLength(1)
      expect(results.filter((r) => r.url === REFUSED)).toHaveLength(19)
      expect(results.filter((r) => sessionCookiesSet(r.res).length > 0)).toHaveLength(1)
      expect((await backend.counts()).sessions - sessionsBefore).toBe(1)
    })

    it("WA-02 a registration response replayed with its cookie is refused: one user, one account, one authenticator", async () => {
      const adapter = await backend.fresh()
      const { config, errors } = setup(adapter)
      const auth = softPasskey({ alg })
      const jar = new CookieJar()
      const { body } = await getOptions(config, jar, { action: "register", email: "reg@example.com" })
      const response = auth.register(body.options)
      const csrf = await csrfToken(config, jar)
      const captured = copyJar(jar)
      expect((await postCallback(config, jar, "register", response, { csrf })).url).toBe(ACCOUNT)
      const after = await backendRows(backend, adapter, [auth])
      errors.length = 0
      const replay = await postCallback(config, captured, "register", response, { csrf })
      expect(replay.url).toBe(REFUSED)
      expect(sessionCookiesSet(replay.res)).toEqual([])
      expect(logged(errors)).toMatch(/already used/)
      expect(await backendRows(backend, adapter, [auth])).toEqual(after)
      expect(after).toMatchObject({ users: 1, accounts: 1, authenticators: 1 })
    })
  })
})

// ------------------------------------------------------------------------------------------------------------- WA-03

describe.each(ALGS)("WA-03 challenge bound to ceremony and provider (%s)", (alg) => {
  it("WA-03 a registration challenge used for authentication is refused", async () => {
    const { config, errors, adapter } = setup()
    const auth = await enrolled(config, "ada@example.com", { alg })
    const jar = new CookieJar()
    const reg = await getOptions(config, jar, { action: "register", email: "new@example.com" })
    const answer = auth.authenticate({ challenge: reg.body.options.challenge, rpId: "localhost" })
    const posted = await postCallback(config, jar, "authenticate", answer)
    expect(posted.url).toBe(REFUSED)
    expect(sessionCookiesSet(posted.res)).toEqual([])
    expect(logged(errors)).toMatch(/made for register, not authenticate/)
    expect(await counterOf(adapter, auth)).toBe(0)
  })

  it("WA-03 an authentication challenge used for registration is refused and writes nothing", async () => {
    const adapter = MemoryAdapter()
    const { config, errors } = setup(adapter)
    const jar = new CookieJar()
    const opts = await getOptions(config, jar, { action: "authenticate" })
    const auth = softPasskey({ alg })
    const response = auth.register({ ...localCreationOptions(opts.body.options.challenge) })
    const posted = await postCallback(config, jar, "register", response)
    expect(posted.url).toBe(REFUSED)
    expect(sessionCookiesSet(posted.res)).toEqual([])
    expect(logged(errors)).toMatch(/made for authenticate, not register/)
    expect(memoryRows(adapter)).toEqual({ users: 0, accounts: 0, authenticators: 0, sessions: 0 })
  })

  it("WA-03 a challenge made for one WebAuthn provider is refused on another", async () => {
    const adapter = MemoryAdapter()
    const { config, errors } = setup(adapter, { providers: [Passkey(), WebAuthn({ enableConditionalUI: false })] })
    const auth = await enrolled(config, "ada@example.com", { alg })
    // Authentication: passkey's challenge posted to webauthn.
    const jar = new CookieJar()
    const answer = await assertion(config, auth, jar, {}, "passkey")
    const cross = await postCallback(config, jar, "authenticate", answer, { providerId: "webauthn" })
    expect(cross.url).toBe(REFUSED)
    expect(sessionCookiesSet(cross.res)).toEqual([])
    expect(logged(errors)).toMatch(/made for another provider/)
    // Registration: webauthn's challenge posted to passkey writes nothing.
    errors.length = 0
    const jar2 = new CookieJar()
    const opts = await getOptions(config, jar2, { action: "register", email: "new@example.com" }, "webauthn")
    expect(opts.body.action).toBe("register")
    const rows = memoryRows(adapter)
    const reg = await postCallback(config, jar2, "register", softPasskey({ alg }).register(opts.body.options), {
      providerId: "passkey",
    })
    expect(reg.url).toBe(REFUSED)
    expect(sessionCookiesSet(reg.res)).toEqual([])
    expect(logged(errors)).toMatch(/made for another provider/)
    expect(memoryRows(adapter)).toEqual(rows)
  })
})

// ------------------------------------------------------------------------------------------------------------- WA-04

describe.each(BACKENDS.map((b) => [b.name, b] as const))("WA-04 signature counter (%s)", (_name, backend) => {
  describe.each(ALGS)("%s", (alg) => {
    it("WA-04 a cloned authenticator behind the stored counter is refused and the stored counter is not lowered", async () => {
      const adapter = await backend.fresh()
      const { config, errors } = setup(adapter)
      const auth = await enrolled(config, "ada@example.com", { alg })
      expect((await signInWithPasskey(config, auth, new CookieJar())).url).toBe(ACCOUNT)
      const clone = auth.clone() // counter 1
      expect((await signInWithPasskey(config, auth, new CookieJar())).url).toBe(ACCOUNT)
      expect((await signInWithPasskey(config, auth, new CookieJar())).url).toBe(ACCOUNT)
      expect(await counterOf(adapter, auth)).toBe(3)
      errors.length = 0
      const old = await signInWithPasskey(config, clone, new CookieJar()) // sends 2
      expect(old.url).toBe(REFUSED)
      expect(sessionCookiesSet(old.res)).toEqual([])
      expect(logged(errors)).toMatch(/counter value 2 was lower than expected 3|counter 2 is not above 3/)
      expect(await counterOf(adapter, auth)).toBe(3)
      // A counter of 0 after a non-zero one is a regression too.
      const zero = await signInWithPasskey(
        config,
        { ...auth, authenticate: (o) => auth.authenticate(o, { counter: 0 }) } as SoftAuthenticator,
        new CookieJar(),
      )
      expect(zero.url).toBe(REFUSED)
      expect(await counterOf(adapter, auth)).toBe(3)
      // The real authenticator carries on: its refused use above counted 4 on the device, so it sends 5.
      expect((await signInWithPasskey(config, auth, new CookieJar())).url).toBe(ACCOUNT)
      expect(await counterOf(adapter, auth)).toBe(5)
    })

    it("WA-04 a counter equal to the stored one is refused", async () => {
      const adapter = await backend.fresh()
      const { config } = setup(adapter)
      const auth = await enrolled(config, "ada@example.com", { alg })
      expect((await signInWithPasskey(config, auth, new CookieJar())).url).toBe(ACCOUNT)
      expect(await counterOf(adapter, auth)).toBe(1)
      const jar = new CookieJar()
      const same = await postCallback(config, jar, "authenticate", await assertion(config, auth, jar, { counter: 1 }))
      expect(same.url).toBe(REFUSED)
      expect(sessionCookiesSet(same.res)).toEqual([])
      expect(await counterOf(adapter, auth)).toBe(1)
    })

    it("WA-04 assertions verified at the same time: a clone sending the same counter gets one sign-in, and the stored counter is never lowered", async () => {
      const adapter = await backend.fresh()
      const { config } = setup(adapter)
      const auth = await enrolled(config, "ada@example.com", { alg })
      const clone = auth.clone()
      for (let round = 0; round < 4; round++) {
        const base = await counterOf(adapter, auth)
        // The original and its clone both send base+1, each over its own challenge.
        const [j1, j2] = [new CookieJar(), new CookieJar()]
        const a1 = await assertion(config, auth, j1, { counter: base + 1 })
        const a2 = await assertion(config, clone, j2, { counter: base + 1 })
        const [c1, c2] = [await csrfToken(config, j1), await csrfToken(config, j2)]
        const same = await Promise.all([
          postCallback(config, j1, "authenticate", a1, { csrf: c1 }),
          postCallback(config, j2, "authenticate", a2, { csrf: c2 }),
        ])
        expect(same.map((r) => r.url).sort()).toEqual([ACCOUNT, REFUSED])
        expect(same.filter((r) => sessionCookiesSet(r.res).length > 0)).toHaveLength(1)
        expect(await counterOf(adapter, auth)).toBe(base + 1)
        // base+11 and base+6 at once: whichever order they run in, the stored counter ends at base+11.
        const [j3, j4] = [new CookieJar(), new CookieJar()]
        const hi = await assertion(config, auth, j3, { counter: base + 11 })
        const lo = await assertion(config, clone, j4, { counter: base + 6 })
        const [c3, c4] = [await csrfToken(config, j3), await csrfToken(config, j4)]
        const [rHi] = await Promise.all([
          postCallback(config, j3, "authenticate", hi, { csrf: c3 }),
          postCallback(config, j4, "authenticate", lo, { csrf: c4 }),
        ])
        expect(rHi.url).toBe(ACCOUNT)
        expect(await counterOf(adapter, auth)).toBe(base + 11)
      }
    })

    it("WA-04 a passkey that keeps no counter (0 and 0) signs in repeatedly; the stored counter stays 0", async () => {
      const adapter = await backend.fresh()
      const { config } = setup(adapter)
      const auth = await enrolled(config, "zero@example.com", { alg, signCount: "zero" })
      for (let i = 0; i < 3; i++) {
        const jar = new CookieJar()
        const r = await signInWithPasskey(config, auth, jar)
        expect(r.url).toBe(ACCOUNT)
        expect((await session(config, jar))?.user.email).toBe("zero@example.com")
        expect(await counterOf(adapter, auth)).toBe(0)
      }
    })
  })
})

describe("WA-04 counter order across processes (the shared store)", () => {
  // Another app process is played by a hold on the credential's key in the store both share (a Redis or PostgreSQL
  // store in production; one MemoryStore object here): the in-process queue cannot see it, only the store can.
  const counterKey = (auth: SoftAuthenticator) =>
    `gatehouse:webauthn:counter:${createHash("sha256").update(storedId(auth.credentials[0]!.id)).digest("base64url")}`

  it("WA-04 a callback waits while another process holds the credential, then counts on from what that one wrote", async () => {
    const store = MemoryStore()
    const { config, adapter, errors } = setup(MemoryAdapter(), { store })
    const auth = await enrolled(config, "ada@example.com")
    expect((await signInWithPasskey(config, auth, new CookieJar())).url).toBe(ACCOUNT)
    expect(await counterOf(adapter, auth)).toBe(1)
    // The lock was released after that sign-in: the key is free.
    expect(await store.get(counterKey(auth))).toBeNull()

    expect(await store.claim(counterKey(auth), "other-process", 30)).toBe(true)
    let settled = false
    const pending = signInWithPasskey(config, auth, new CookieJar()).finally(() => (settled = true))
    await new Promise((r) => setTimeout(r, 400))
    expect(settled).toBe(false)
    // Meanwhile the other process signs in with counter 7 and writes it.
    await adapter.updateAuthenticatorCounter!(storedId(auth.credentials[0]!.id), 7)
    await store.delete(counterKey(auth))
    // This callback's assertion carries 2, now behind the stored 7: refused, and the counter stays 7.
    const late = await pending
    expect(late.url).toBe(REFUSED)
    expect(sessionCookiesSet(late.res)).toEqual([])
    expect(logged(errors)).toMatch(/counter 2 is not above 7|counter value 2 was lower than expected 7/)
    expect(await counterOf(adapter, auth)).toBe(7)
    expect(await store.get(counterKey(auth))).toBeNull()
  })

  it("WA-04 a hold that outlasts the wait refuses the callback and writes nothing", async () => {
    const store = MemoryStore()
    const { config, adapter, errors } = setup(MemoryAdapter(), { store })
    const auth = await enrolled(config, "ada@example.com")
    expect(await store.claim(counterKey(auth), "stuck-process", 30)).toBe(true)
    vi.useFakeTimers({ toFake: ["setTimeout", "performance"] })
    try {
      const pending = signInWithPasskey(config, auth, new CookieJar())
      await vi.advanceTimersByTimeAsync(11_000)
      const refused = await pending
      expect(refused.url).toBe(REFUSED)
      expect(sessionCookiesSet(refused.res)).toEqual([])
      expect(logged(errors)).toMatch(/another sign-in with this passkey is still in progress/)
      expect(await counterOf(adapter, auth)).toBe(0)
      // The other process's hold is not taken over.
      expect(await store.get(counterKey(auth))).toBe("stuck-process")
    } finally {
      vi.useRealTimers()
    }
  })

  it("WA-04 a failing store does not stop passkey sign-in: logged, ordered in this process only", async () => {
    const healthy = MemoryStore()
    // The counter-lock claims fail (a store outage); the challenge claims still work.
    const store = {
      ...healthy,
      claim: async (key: string, value: string, ttl: number) => {
        if (key.startsWith("gatehouse:webauthn:counter:")) throw new Error("store down")
        return healthy.claim(key, value, ttl)
      },
    }
    const { config, adapter, errors } = setup(MemoryAdapter(), { store })
    const auth = await enrolled(config, "ada@example.com")
    expect((await signInWithPasskey(config, auth, new CookieJar())).url).toBe(ACCOUNT)
    expect(await counterOf(adapter, auth)).toBe(1)
    expect(logged(errors)).toMatch(/ordered in this process only/)
    expect(logged(errors)).toMatch(/store down/)
  })
})

describe("WA-02 a rolling upgrade: processes of the version before the common store keys share the spent challenges", () => {
  // That version remembered a spent challenge under `gatehouse:webauthn-challenge:<sha256>`; this one under
  // `gatehouse:webauthn:challenge:<sha256>`, and it claims the older key too while both versions may share a store.
  const digest = (challenge: string) => createHash("sha256").update(challenge).digest("base64url")

  it("WA-02 a challenge an older process spent is refused here", async () => {
    const store = MemoryStore()
    const { config, errors } = setup(MemoryAdapter(), { store })
    const auth = await enrolled(config, "ada@example.com", { signCount: "zero" })
    const jar = new CookieJar()
    const { body } = await getOptions(config, jar, { action: "authenticate" })
    const challenge = (body.options as { challenge: string }).challenge
    // The older process verified this assertion and spent the challenge under its key.
    expect(await store.claim(`gatehouse:webauthn-challenge:${digest(challenge)}`, "1", 900)).toBe(true)
    const replay = await postCallback(config, jar, "authenticate", auth.authenticate(body.options))
    expect(replay.url).toBe(REFUSED)
    expect(sessionCookiesSet(replay.res)).toEqual([])
    expect(logged(errors)).toMatch(/already used/)
  })

  it("WA-02 a challenge spent here is spent under both keys, so an older process refuses it too", async () => {
    const store = MemoryStore()
    const { config } = setup(MemoryAdapter(), { store })
    const auth = await enrolled(config, "ada@example.com", { signCount: "zero" })
    const jar = new CookieJar()
    const { body } = await getOptions(config, jar, { action: "authenticate" })
    const challenge = (body.options as { challenge: string }).challenge
    expect((await postCallback(config, jar, "authenticate", auth.authenticate(body.options))).url).toBe(ACCOUNT)
    expect(await store.get(`gatehouse:webauthn:challenge:${digest(challenge)}`)).toBe("1")
    // What the older process does with a replay: claim its key, which is taken.
    expect(await store.claim(`gatehouse:webauthn-challenge:${digest(challenge)}`, "1", 900)).toBe(false)
  })
})

// ------------------------------------------------------------------------------------------------------------- WA-05

describe.each(ALGS)("WA-05 origin, type, RP and flags (%s)", (alg) => {
  const getCases: [string, Parameters<SoftAuthenticator["authenticate"]>[1]][] = [
    ["a foreign clientDataJSON.origin", { origin: "https://evil.test" }],
    ["type webauthn.create on get", { type: "webauthn.create" }],
    ["another RP's rpIdHash", { rpId: "evil.test" }],
    ["the UP flag clear", { userPresent: false }],
    ["the UV flag clear (Passkey requires user verification)", { userVerified: false }],
    ["a broken signature", { breakSignature: true }],
  ]
  it.each(getCases)("WA-05 authentication with %s is refused", async (_label, overrides) => {
    const { config, adapter } = setup()
    const auth = await enrolled(config, "ada@example.com", { alg })
    const jar = new CookieJar()
    const posted = await postCallback(config, jar, "authenticate", await assertion(config, auth, jar, overrides))
    expect(posted.url).toBe(REFUSED)
    expect(sessionCookiesSet(posted.res)).toEqual([])
    expect(await session(config, jar)).toBeNull()
    expect(await counterOf(adapter, auth)).toBe(0)
  })

  const createCases: [string, Parameters<SoftAuthenticator["register"]>[1]][] = [
    ["a foreign clientDataJSON.origin", { origin: "https://evil.test" }],
    ["type webauthn.get on create", { type: "webauthn.get" }],
    ["another RP's rpIdHash", { rpId: "evil.test" }],
    ["the UP flag clear", { userPresent: false }],
    ["the UV flag clear (Passkey requires user verification)", { userVerified: false }],
  ]
  it.each(createCases)("WA-05 registration with %s is refused and writes nothing", async (_label, overrides) => {
    const adapter = MemoryAdapter()
    const { config } = setup(adapter)
    const jar = new CookieJar()
    const { body } = await getOptions(config, jar, { action: "register", email: "new@example.com" })
    const posted = await postCallback(config, jar, "register", softPasskey({ alg }).register(body.options, overrides))
    expect(posted.url).toBe(REFUSED)
    expect(sessionCookiesSet(posted.res)).toEqual([])
    expect(memoryRows(adapter)).toEqual({ users: 0, accounts: 0, authenticators: 0, sessions: 0 })
  })
})

describe("WA-05 the relying party comes from the canonical origin (AUTH_URL, trustHost)", () => {
  const forwarded = { "x-forwarded-host": "evil.test" }
  async function optionsVia(
    config: AuthConfig,
    jar: CookieJar,
    headers: Record<string, string>,
    query = "action=authenticate",
  ) {
    const res = await Auth(
      new Request(`${ORIGIN}/auth/webauthn-options/passkey?${query}`, {
        headers: { cookie: jar.header(), ...headers },
      }),
      config,
    )
    jar.store(res)
    return (await res.json()) as { action: string; options: { rpId?: string; rp?: { id: string }; challenge: string } }
  }

  it("WA-05 with AUTH_URL set, X-Forwarded-Host does not move the RP (trustHost true or not); an assertion for the forwarded origin fails", async () => {
    const adapter = MemoryAdapter()
    const plain = setup(adapter)
    const auth = await enrolled(plain.config, "ada@example.com")
    for (const trustHost of [true, false]) {
      vi.stubEnv("AUTH_URL", `${ORIGIN}/auth`)
      const { config } = setup(adapter, { trustHost })
      const jar = new CookieJar()
      const opts = await optionsVia(config, jar, forwarded)
      expect(opts.options.rpId).toBe("localhost")
      const reg = await optionsVia(config, new CookieJar(), forwarded, "action=register&email=new%40example.com")
      expect(reg.options.rp?.id).toBe("localhost")
      // A page on evil.test asking the passkey: clientDataJSON carries that origin.
      const csrf = await csrfToken(config, jar)
      const evil = await rawPost(
        config,
        copyJar(jar),
        {
          action: "authenticate",
          data: JSON.stringify(auth.authenticate(opts.options, { origin: "http://evil.test" })),
          csrfToken: csrf,
          callbackUrl: ACCOUNT,
        },
        { headers: forwarded },
      )
      expect(evil.url).toBe(REFUSED)
      expect(sessionCookiesSet(evil.res)).toEqual([])
      // The app's own origin still works through the proxy.
      const jar2 = new CookieJar()
      const opts2 = await optionsVia(config, jar2, forwarded)
      const csrf2 = await csrfToken(config, jar2)
      const good = await rawPost(
        config,
        jar2,
        {
          action: "authenticate",
          data: JSON.stringify(auth.authenticate(opts2.options)),
          csrfToken: csrf2,
          callbackUrl: ACCOUNT,
        },
        { headers: forwarded },
      )
      expect(good.url).toBe(ACCOUNT)
      vi.unstubAllEnvs()
    }
  })

  it("WA-05 without AUTH_URL, a trusted X-Forwarded-Host names the RP, and a passkey of the app's own origin fails through it", async () => {
    const adapter = MemoryAdapter()
    const { config } = setup(adapter)
    const auth = await enrolled(config, "ada@example.com")
    const jar = new CookieJar()
    const opts = await optionsVia(config, jar, forwarded)
    expect(opts.options.rpId).toBe("evil.test")
    const csrf = await csrfToken(config, jar)
    // The localhost passkey answering evil.test's challenge (its own origin and RP id): not evil.test's RP.
    const posted = await rawPost(
      config,
      jar,
      {
        action: "authenticate",
        data: JSON.stringify(auth.authenticate({ ...opts.options, rpId: "localhost" })),
        csrfToken: csrf,
        callbackUrl: "http://evil.test/account",
      },
      { headers: forwarded },
    )
    expect(posted.url).toBe("http://evil.test/auth/error?error=WebAuthnVerificationError")
    expect(sessionCookiesSet(posted.res)).toEqual([])
    // Without the header the RP is the request's own host.
    expect((await optionsVia(config, new CookieJar(), {})).options.rpId).toBe("localhost")
  })
})

// ------------------------------------------------------------------------------------------------------------- WA-06

describe.each(ALGS)("WA-06 credential and user handle (%s)", (alg) => {
  async function twoUsers() {
    const adapter = MemoryAdapter()
    const { config, errors } = setup(adapter)
    const authA = await enrolled(config, "a@example.com", { alg })
    const authB = await enrolled(config, "b@example.com", { alg })
    const userA = (await adapter.getUserByEmail!("a@example.com"))!
    const userB = (await adapter.getUserByEmail!("b@example.com"))!
    return { adapter, config, errors, authA, authB, userA, userB }
  }

  it("WA-06 an unknown credential and A's credential with B's user handle get the same answer", async () => {
    const { adapter, config, authA, authB, userB } = await twoUsers()
    expect(Buffer.from(authB.credentials[0]!.userHandle, "base64url").toString("utf8")).toBe(`gh1.${userB.id}`)
    const stranger = softPasskey({ alg })
    stranger.register(localCreationOptions())
    for (const returnRedirect of [true, false]) {
      const answers: Raw[] = []
      // 1. a credential the server never saw (a real key, valid signature)
      const jar1 = new CookieJar()
      const a1 = await assertion(config, stranger, jar1)
      answers.push(
        await rawPost(
          config,
          jar1,
          {
            action: "authenticate",
            data: JSON.stringify(a1),
            csrfToken: await csrfToken(config, jar1),
            callbackUrl: ACCOUNT,
          },
          { returnRedirect },
        ),
      )
      // 2. an unknown credential id on A's signature
      const jar2 = new CookieJar()
      const a2 = await assertion(config, authA, jar2, { credentialId: b64url(randomBytes(24)) })
      answers.push(
        await rawPost(
          config,
          jar2,
          {
            action: "authenticate",
            data: JSON.stringify(a2),
            csrfToken: await csrfToken(config, jar2),
            callbackUrl: ACCOUNT,
          },
          { returnRedirect },
        ),
      )
      // 3. A's credential, signed by A, with B's user handle
      const before = await counterOf(adapter, authA)
      const jar3 = new CookieJar()
      const a3 = await assertion(config, authA, jar3, { userHandle: authB.credentials[0]!.userHandle })
      answers.push(
        await rawPost(
          config,
          jar3,
          {
            action: "authenticate",
            data: JSON.stringify(a3),
            csrfToken: await csrfToken(config, jar3),
            callbackUrl: ACCOUNT,
          },
          { returnRedirect },
        ),
      )
      expect(await counterOf(adapter, authA)).toBe(before)
      for (const a of answers) {
        expect(sessionCookiesSet(a.res)).toEqual([])
        expect(a.url).toBe(REFUSED)
      }
      const view = (a: Raw) => ({
        status: a.status,
        location: a.location,
        body: a.text,
        cookies: a.res.headers.getSetCookie().map((c) => c.replace(/=[^;]*/, "=")),
      })
      expect(view(answers[1]!)).toEqual(view(answers[0]!))
      expect(view(answers[2]!)).toEqual(view(answers[0]!))
    }
  })

  it("WA-06 A's credential with its own user handle, or none, signs in as A (never as B)", async () => {
    const { config, authA, authB } = await twoUsers()
    const jar1 = new CookieJar()
    expect((await postCallback(config, jar1, "authenticate", await assertion(config, authA, jar1))).url).toBe(ACCOUNT)
    expect((await session(config, jar1))?.user.email).toBe("a@example.com")
    const jar2 = new CookieJar()
    expect(
      (await postCallback(config, jar2, "authenticate", await assertion(config, authA, jar2, { userHandle: null })))
        .url,
    ).toBe(ACCOUNT)
    expect((await session(config, jar2))?.user.email).toBe("a@example.com")
    // A handle Gatehouse did not issue (Auth.js's random bytes) is not evidence either way.
    const jar3 = new CookieJar()
    expect(
      (
        await postCallback(
          config,
          jar3,
          "authenticate",
          await assertion(config, authA, jar3, { userHandle: b64url(randomBytes(32)) }),
        )
      ).url,
    ).toBe(ACCOUNT)
    expect((await session(config, jar3))?.user.email).toBe("a@example.com")
    // B still signs in as B.
    const jar4 = new CookieJar()
    expect((await signInWithPasskey(config, authB, jar4)).url).toBe(ACCOUNT)
    expect((await session(config, jar4))?.user.email).toBe("b@example.com")
  })
})

// ------------------------------------------------------------------------------------------------------------- WA-07

describe("WA-07 malformed callback bodies", () => {
  const INVALID = { status: 400, error: "InvalidRequest" }
  type Expect = { status: number; error: string } | "refused"

  async function check(
    kind: "register" | "authenticate",
    data: string,
    expected: Expect,
    mutateFields?: (f: Record<string, string>) => void,
  ) {
    const adapter = MemoryAdapter()
    const { config, errors } = setup(adapter)
    let auth: SoftAuthenticator | undefined
    if (kind === "authenticate") auth = await enrolled(config, "ada@example.com")
    const rows = memoryRows(adapter)
    const jar = new CookieJar()
    await getOptions(
      config,
      jar,
      kind === "register" ? { action: "register", email: "new@example.com" } : { action: "authenticate" },
    )
    errors.length = 0
    const fields = { action: kind, data, csrfToken: await csrfToken(config, jar), callbackUrl: ACCOUNT }
    mutateFields?.(fields)
    const posted = await rawPost(config, jar, fields)
    expect(posted.ms).toBeLessThan(1000)
    if (expected === "refused") {
      expect(posted.url).toBe(REFUSED)
    } else {
      expect(posted.status).toBe(expected.status)
      expect(JSON.parse(posted.text)).toMatchObject({ error: expected.error })
    }
    expect(sessionCookiesSet(posted.res)).toEqual([])
    expect(memoryRows(adapter)).toEqual(rows)
    if (auth) expect(await counterOf(adapter, auth)).toBe(0)
    // No crash: every logged error is one of Gatehouse's, never a TypeError from deep in a parser.
    for (const e of errors)
      expect((e as { type?: string }).type).toMatch(/^(InvalidRequest|WebAuthnVerificationError)$/)
    return posted
  }

  /** A real registration response for fresh options, to be mangled. */
  function validRegistration(options: any) {
    return softPasskey().register(options)
  }

  it("WA-07 `data` that is not JSON, or JSON of the wrong shape, is 400 InvalidRequest", async () => {
    await check("authenticate", "not json{", INVALID)
    await check("authenticate", "", INVALID)
    await check("authenticate", "null", INVALID)
    await check("authenticate", "[1,2]", INVALID)
    await check("authenticate", "42", INVALID)
    await check("authenticate", JSON.stringify({ response: {} }), INVALID) // no id
    await check("authenticate", JSON.stringify({ id: "", response: {} }), INVALID)
    await check("register", JSON.stringify({ id: "abc" }), INVALID) // no response
    await check("register", JSON.stringify({ id: "abc", response: { attestationObject: { nested: true } } }), INVALID)
    await check("authenticate", JSON.stringify({ id: "not base64url!", response: {} }), INVALID)
  })

  it("WA-07 a callback without a valid action is 400 InvalidRequest", async () => {
    await check("authenticate", JSON.stringify({ id: "abc", response: {} }), INVALID, (f) => {
      f.action = "steal"
    })
    await check("authenticate", JSON.stringify({ id: "abc", response: {} }), INVALID, (f) => {
      delete f.action
    })
  })

  it("WA-07 bad CBOR in attestationObject is refused with WebAuthnVerificationError", async () => {
    const adapter = MemoryAdapter()
    const { config } = setup(adapter)
    const { body } = await getOptions(config, new CookieJar(), { action: "register", email: "x@example.com" })
    const good = validRegistration(body.options)
    const cases = [
      b64url(Uint8Array.of(0xff, 0x00, 0x13, 0x37)), // a break code with nothing to break
      b64url(Uint8Array.of(0xa3, 0x63)), // map of 3, truncated
      b64url(Uint8Array.of(0x5b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)), // a byte string claiming 2^64-1 bytes
      b64url(Uint8Array.from(Array.from({ length: 2000 }, () => 0x81))), // 2000 nested arrays
      b64url(
        encodeCbor(
          new Map<string, CborValue>([
            ["fmt", "none"],
            ["attStmt", new Map()],
            ["authData", new Uint8Array(10)],
          ]),
        ),
      ), // authData too short
      good.response.attestationObject.slice(0, good.response.attestationObject.length - 40), // truncated real one
    ]
    for (const attestationObject of cases) {
      await check("register", JSON.stringify({ ...good, response: { ...good.response, attestationObject } }), "refused")
    }
  })

  it("WA-07 non-JSON clientDataJSON, garbage base64 and short authenticator data are refused with WebAuthnVerificationError", async () => {
    const { body } = await getOptions(setup().config, new CookieJar(), { action: "register", email: "x@example.com" })
    const reg = validRegistration(body.options)
    await check(
      "register",
      JSON.stringify({ ...reg, response: { ...reg.response, clientDataJSON: b64url(Buffer.from("not json at all")) } }),
      "refused",
    )
    await check(
      "register",
      JSON.stringify({ ...reg, response: { ...reg.response, clientDataJSON: "!!!%%%***" } }),
      "refused",
    )
    await check(
      "register",
      JSON.stringify({ ...reg, response: { ...reg.response, attestationObject: "@@@@====" } }),
      "refused",
    )
    const auth = softPasskey()
    auth.register(localCreationOptions())
    const ass = auth.authenticate({ challenge: b64url(randomBytes(32)), rpId: "localhost" })
    await check(
      "authenticate",
      JSON.stringify({ ...ass, response: { ...ass.response, clientDataJSON: b64url(Buffer.from("[[[")) } }),
      "refused",
    )
    await check(
      "authenticate",
      JSON.stringify({ ...ass, response: { ...ass.response, authenticatorData: "AAAA" } }),
      "refused",
    )
    await check("authenticate", JSON.stringify({ ...ass, response: { ...ass.response, signature: "~~~~" } }), "refused")
  })

  it("WA-07 a 1 MiB attestationObject is 413 (form body limit, 64 KiB); a 40 KiB one is 400 (credential limit, 32 KiB)", async () => {
    const { body } = await getOptions(setup().config, new CookieJar(), { action: "register", email: "x@example.com" })
    const reg = validRegistration(body.options)
    const huge = b64url(randomBytes(1024 * 1024))
    const big = await check(
      "register",
      JSON.stringify({ ...reg, response: { ...reg.response, attestationObject: huge } }),
      { status: 413, error: "InvalidRequest" },
    )
    expect(big.res.headers.get("location")).toBeNull()
    await check(
      "register",
      JSON.stringify({ ...reg, response: { ...reg.response, attestationObject: b64url(randomBytes(30 * 1024)) } }),
      INVALID,
    )
  })
})

// -------------------------------------------------------------------------------------------------- account rules

describe("WebAuthn registration and existing users", () => {
  it("options for registering an e-mail that already has a user, signed out, answer 400 Invalid request", async () => {
    const adapter = MemoryAdapter()
    const { config } = setup(adapter)
    await adapter.createUser!({ id: "u1", email: "taken@example.com", emailVerified: new Date() })
    const jar = new CookieJar()
    const answer = await getOptions(config, jar, { action: "register", email: "taken@example.com" })
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual({ error: "Invalid request" })
    expect(answer.res.headers.get("set-cookie")).toBeNull()
    // Case and spaces do not make a second address.
    expect(
      (await getOptions(config, new CookieJar(), { action: "register", email: " Taken@Example.com" })).status,
    ).toBe(400)
  })

  it.each([false, true])(
    "a registration whose e-mail gained a user after its options were issued is refused; nothing is linked to that user (allowDangerousEmailAccountLinking %s)",
    async (dangerous) => {
      const adapter = MemoryAdapter()
      const { config } = setup(adapter, {
        providers: [Passkey({ allowDangerousEmailAccountLinking: dangerous } as never)],
      })
      const jar = new CookieJar()
      const { body } = await getOptions(config, jar, { action: "register", email: "victim@example.com" })
      expect(body.action).toBe("register")
      const victim = await adapter.createUser!({ id: "victim", email: "victim@example.com", emailVerified: new Date() })
      const posted = await postCallback(config, jar, "register", softPasskey().register(body.options))
      expect(posted.url).toBe(`${ORIGIN}/auth/signin?error=OAuthAccountNotLinked`)
      expect(sessionCookiesSet(posted.res)).toEqual([])
      expect(memoryRows(adapter)).toEqual({ users: 1, accounts: 0, authenticators: 0, sessions: 0 })
      expect(await adapter.listAuthenticatorsByUserId!(victim.id)).toEqual([])
      expect(await adapter.getUser!(victim.id)).toEqual(victim)
    },
  )

  it.each(["jwt", "database"] as const)(
    "a signed-in user adds a second passkey; both sign in as that user (%s sessions)",
    async (strategy) => {
      const adapter = MemoryAdapter()
      const { config } = setup(adapter, { session: { strategy } })
      const first = softPasskey({ alg: "ES256" })
      const jar = new CookieJar()
      expect((await registerPasskey(config, first, jar, "ada@example.com")).url).toBe(ACCOUNT)
      const user = (await adapter.getUserByEmail!("ada@example.com"))!
      const second = softPasskey({ alg: "EdDSA" })
      const opts = await getOptions(config, jar, { action: "register" })
      expect(opts.body.action).toBe("register")
      expect(opts.body.options.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([first.credentials[0]!.id])
      expect(Buffer.from(opts.body.options.user.id, "base64url").toString()).toBe(`gh1.${user.id}`)
      const added = await postCallback(config, jar, "register", second.register(opts.body.options))
      expect(added.url).toBe(ACCOUNT)
      expect(adapter.users.size).toBe(1)
      expect((await adapter.listAuthenticatorsByUserId!(user.id)).map((a) => a.credentialID).sort()).toEqual(
        [first, second].map((a) => storedId(a.credentials[0]!.id)).sort(),
      )
      for (const auth of [first, second]) {
        const fresh = new CookieJar()
        expect((await signInWithPasskey(config, auth, fresh)).url).toBe(ACCOUNT)
        const s = await session(config, fresh)
        expect(s?.user.email).toBe("ada@example.com")
      }
    },
  )

  it("a sign-up registration started signed out is refused when it is completed signed in as A; nothing is added to A", async () => {
    const adapter = MemoryAdapter()
    const { config, errors } = setup(adapter)
    const jarA = new CookieJar()
    await registerPasskey(config, softPasskey(), jarA, "a@example.com")
    const userA = (await adapter.getUserByEmail!("a@example.com"))!
    const jar = new CookieJar()
    const { body } = await getOptions(config, jar, { action: "register", email: "new@example.com" })
    expect(body.action).toBe("register")
    jar.cookies.set("authjs.session-token", jarA.cookies.get("authjs.session-token")!)
    const rows = memoryRows(adapter)
    const posted = await postCallback(config, jar, "register", softPasskey().register(body.options))
    expect(posted.url).toBe(REFUSED)
    expect(logged(errors)).toMatch(/started signed out/)
    expect(memoryRows(adapter)).toEqual(rows)
    expect(await adapter.listAuthenticatorsByUserId!(userA.id)).toHaveLength(1)
    expect(await adapter.getUserByEmail!("new@example.com")).toBeNull()
  })

  it("a registration started by signed-in user A is refused once B is signed in instead (or nobody is)", async () => {
    const adapter = MemoryAdapter()
    const { config, errors } = setup(adapter)
    const jarA = new CookieJar()
    await registerPasskey(config, softPasskey(), jarA, "a@example.com")
    const jarB = new CookieJar()
    await registerPasskey(config, softPasskey(), jarB, "b@example.com")
    const userA = (await adapter.getUserByEmail!("a@example.com"))!
    const userB = (await adapter.getUserByEmail!("b@example.com"))!
    const opts = await getOptions(config, jarA, { action: "register" })
    expect(opts.body.action).toBe("register")
    const challenge = jarA.cookies.get("authjs.challenge")!
    const response = softPasskey().register(opts.body.options)
    // The same browser, now holding B's session and A's registration challenge.
    const asB = copyJar(jarB)
    asB.cookies.set("authjs.challenge", challenge)
    const rows = memoryRows(adapter)
    const posted = await postCallback(config, asB, "register", response)
    expect(posted.url).toBe(REFUSED)
    expect(logged(errors)).toMatch(/started by another signed-in user/)
    expect(memoryRows(adapter)).toEqual(rows)
    expect(await adapter.listAuthenticatorsByUserId!(userA.id)).toHaveLength(1)
    expect(await adapter.listAuthenticatorsByUserId!(userB.id)).toHaveLength(1)
    // Signed out (a browser holding only A's new registration challenge): refused as well.
    const opts2 = await getOptions(config, jarA, { action: "register" })
    const nobody = new CookieJar()
    nobody.cookies.set("authjs.challenge", jarA.cookies.get("authjs.challenge")!)
    const signedOut = await postCallback(config, nobody, "register", softPasskey().register(opts2.body.options))
    expect(signedOut.url).toBe(REFUSED)
    expect(sessionCookiesSet(signedOut.res)).toEqual([])
    expect(memoryRows(adapter)).toEqual(rows)
  })
})

// ------------------------------------------------------------------------------------------------------------- CSRF

describe("WebAuthn callback CSRF", () => {
  it("a callback without the CSRF token (or with a wrong one) is MissingCSRF and writes nothing", async () => {
    const adapter = MemoryAdapter()
    const { config, errors } = setup(adapter)
    for (const token of [undefined, "forged|token"]) {
      const jar = new CookieJar()
      await csrfToken(config, jar)
      const { body } = await getOptions(config, jar, { action: "register", email: "new@example.com" })
      const fields: Record<string, string> = {
        action: "register",
        data: JSON.stringify(softPasskey().register(body.options)),
        callbackUrl: ACCOUNT,
      }
      if (token) fields.csrfToken = token
      errors.length = 0
      const posted = await rawPost(config, jar, fields)
      expect(posted.url).toBe(`${ORIGIN}/auth/signin?error=MissingCSRF`)
      expect(sessionCookiesSet(posted.res)).toEqual([])
      expect(errors.map((e) => (e as { type?: string }).type)).toEqual(["MissingCSRF"])
      expect(memoryRows(adapter)).toEqual({ users: 0, accounts: 0, authenticators: 0, sessions: 0 })
    }
  })
})

// ------------------------------------------------------------------------------------------------------ config errors

describe("WebAuthn configuration errors", () => {
  async function optionsStatus(config: AuthConfig): Promise<{ status: number; body: unknown }> {
    const res = await Auth(new Request(`${ORIGIN}/auth/webauthn-options/passkey`), config)
    return { status: res.status, body: await res.json() }
  }
  function collecting(overrides: Partial<AuthConfig>, adapter: Adapter | undefined = MemoryAdapter()) {
    const errors: Error[] = []
    const warnings: string[] = []
    const config = passkeyConfig(adapter as Adapter, {
      logger: { error: (e: Error) => void errors.push(e), warn: (c: string) => void warnings.push(c), debug() {} },
      ...overrides,
    })
    return { config, errors, warnings }
  }
  const CONFIG_BODY = {
    message: "There was a problem with the server configuration. Check the server logs for more information.",
  }

  it.each<[string, () => ReturnType<typeof collecting>, string, RegExp?]>([
    ["without experimental.enableWebAuthn", () => collecting({ experimental: {} }), "ExperimentalFeatureNotEnabled"],
    [
      "without an adapter",
      () => collecting({ adapter: undefined, session: { strategy: "jwt" } }),
      "MissingAdapter",
      /WebAuthn provider "passkey" needs an `adapter`/,
    ],
    [
      "with an adapter lacking authenticator methods",
      () => {
        const {
          getAuthenticator: _g,
          createAuthenticator: _c,
          listAuthenticatorsByUserId: _l,
          updateAuthenticatorCounter: _u,
          ...partial
        } = MemoryAdapter()
        return collecting({}, partial as Adapter)
      },
      "MissingAdapterMethods",
      /getAuthenticator, createAuthenticator, listAuthenticatorsByUserId, updateAuthenticatorCounter/,
    ],
    [
      "with two conditional-UI providers",
      () => collecting({ providers: [Passkey(), WebAuthn()] }),
      "DuplicateConditionalUI",
    ],
    [
      "with conditional UI and no webauthn autocomplete field",
      () =>
        collecting({
          providers: [Passkey({ formFields: { email: { label: "Email", required: true, autocomplete: "username" } } })],
        }),
      "MissingWebAuthnAutocomplete",
    ],
  ])("GET /webauthn-options %s is a 500 configuration error (%s)", async (_label, make, type, message) => {
    const { config, errors } = make()
    expect(await optionsStatus(config)).toEqual({ status: 500, body: CONFIG_BODY })
    expect(errors.map((e) => (e as { type?: string }).type)).toEqual([type])
    if (message) expect(errors[0]!.message).toMatch(message)
  })

  it("two WebAuthn providers with one conditional UI are fine", async () => {
    const { config, errors } = collecting({ providers: [Passkey(), WebAuthn({ enableConditionalUI: false })] })
    expect((await optionsStatus(config)).status).toBe(200)
    expect(errors).toEqual([])
  })

  it("enableWebAuthn logs the experimental-webauthn warning once per config object, not per request", async () => {
    const one = collecting({})
    for (let i = 0; i < 3; i++) expect((await optionsStatus(one.config)).status).toBe(200)
    await Auth(new Request(`${ORIGIN}/auth/session`), one.config)
    expect(one.warnings.filter((w) => w === "experimental-webauthn")).toHaveLength(1)
    const two = collecting({})
    await optionsStatus(two.config)
    expect(two.warnings.filter((w) => w === "experimental-webauthn")).toHaveLength(1)
  })
})

// ---------------------------------------------------------------------------------------------- gatehouse/authenticators

describe("gatehouse/authenticators", () => {
  it("lists a user's passkeys, removes one only for its owner, and a removed passkey no longer signs in", async () => {
    const adapter = MemoryAdapter()
    const { config } = setup(adapter)
    const authA = await enrolled(config, "a@example.com")
    const authB = await enrolled(config, "b@example.com", { alg: "EdDSA" })
    const userA = (await adapter.getUserByEmail!("a@example.com"))!
    const userB = (await adapter.getUserByEmail!("b@example.com"))!
    const idA = storedId(authA.credentials[0]!.id)
    const idB = storedId(authB.credentials[0]!.id)
    expect(await listAuthenticators(config, userA.id)).toEqual([
      {
        credentialID: idA,
        provider: "passkey",
        counter: 0,
        credentialDeviceType: "singleDevice",
        credentialBackedUp: false,
        transports: ["internal"],
      },
    ])
    expect(await listAuthenticators(config, "nobody")).toEqual([])
    // Someone else's credential id removes nothing.
    expect(await removeAuthenticator(config, userA.id, idB)).toBe(false)
    expect(await removeAuthenticator(config, userA.id, "bm90LWEtY3JlZGVudGlhbA==")).toBe(false)
    expect((await listAuthenticators(config, userB.id)).map((a) => a.credentialID)).toEqual([idB])
    expect((await signInWithPasskey(config, authB, new CookieJar())).url).toBe(ACCOUNT)
    // The owner removes it: authenticator and account row go.
    expect(await removeAuthenticator(config, userA.id, idA)).toBe(true)
    expect(await listAuthenticators(config, userA.id)).toEqual([])
    expect(await adapter.getAccount!(idA, "passkey")).toBeNull()
    expect(await removeAuthenticator(config, userA.id, idA)).toBe(false)
    const jar = new CookieJar()
    const after = await signInWithPasskey(config, authA, jar)
    expect(after.url).toBe(REFUSED)
    expect(sessionCookiesSet(after.res)).toEqual([])
    expect(await adapter.getUser!(userA.id)).not.toBeNull()
  })
})
