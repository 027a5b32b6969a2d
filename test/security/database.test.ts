// Security group I (docs/security.md §1.I, DB-01..DB-07) and the R9 race cases (docs/security.md §2): database adapter
// faults during sign-in, session reads and sign-out, injected by a wrapper around a real adapter
// (test/support/db-harness.ts), and parallel first sign-ins of one IdP account. Every case runs on the memory adapter
// (no transactions: the rollback path) and on the postgres adapter on PGlite (transactions) once
// src/adapters/postgres.ts exists.
//
// Conventions asserted for every failed sign-in: 302 to /auth/error?error=Configuration (AdapterError is not
// client-safe), no session cookie (I1), the check cookies expired (I4), the failing method named in the logged
// AdapterError, no createUser/linkAccount/signIn events, no orphan user/account/session rows; and a retry with
// the database healthy yields exactly 1 user + 1 account.
//
// Gatehouse's documented choices: an adapter failure on /session answers 200 null and keeps the cookie (DB-02);
// a call that never answers fails after `adapterTimeout` ms (DB-03); a failed deleteSession still expires the
// cookie and a failed updateSession still serves the session, unextended (DB-05).
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import type { Adapter, AdapterSession, AdapterUser, AuthConfig } from "../../src/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Credentials from "../../src/providers/credentials.js"
import { CookieJar, ORIGIN, get, setCookies, signIn as credentialsSignIn } from "../support/flow-kit.js"
import {
  type Backend,
  ERROR_CONFIGURATION,
  type Fault,
  type FaultyAdapter,
  SESSION_COOKIE,
  allBackends,
  clearsSession,
  createIdp,
  dbConfig,
  faulty,
  finishFlow,
  getSession,
  oauthSignIn,
  sessionSetCookie,
  setsSession,
  signOutReq,
  sleep,
  startFlow,
} from "../support/db-harness.js"

const backends = await allBackends()
afterAll(async () => {
  for (const b of backends) await b.close()
})

/** The adapterTimeout used by these tests (ms). No test bounds the time a request takes (that belongs to the
 * benchmark): a hanging call shows as one call counted by the faulty adapter and its "did not answer in time" error. */
const TIMEOUT = 250
const PKCE_COOKIE = "authjs.pkce.code_verifier"
const OLIVIA = { id: "olivia-1", name: "Olivia", email: "olivia@example.com", avatar: "https://img.example/o.png" }
const SIGN_IN_STEPS = ["getUserByAccount", "getUserByEmail", "createUser", "linkAccount", "createSession"] as const

const unhandled: unknown[] = []
const onUnhandled = (reason: unknown): void => void unhandled.push(reason)
process.on("unhandledRejection", onUnhandled)
afterAll(() => void process.off("unhandledRejection", onUnhandled))
afterEach(() => {
  expect(unhandled, "no unhandled rejection (I6)").toEqual([])
})

/** The AdapterError (with `.method`) anywhere in a logged error's cause chain. */
function adapterErrorsOf(errors: unknown[]): { method?: string; message: string }[] {
  const out: { method?: string; message: string }[] = []
  for (const e of errors) {
    let cur: unknown = e
    for (let depth = 0; cur instanceof Error && depth < 6; depth++) {
      if ((cur as { type?: string }).type === "AdapterError")
        out.push({ method: (cur as { method?: string }).method, message: cur.message })
      cur = cur.cause
    }
  }
  return out
}

/** Every account and session row points at an existing user. */
async function expectNoOrphans(backend: Backend): Promise<void> {
  const users = new Set((await backend.users()).map((u) => String(u.id)))
  for (const a of await backend.accounts())
    expect(users.has(String(a.userId)), `account ${a.provider}/${a.providerAccountId} has a user`).toBe(true)
  for (const s of await backend.sessions()) expect(users.has(String(s.userId)), "session row has a user").toBe(true)
}

function timerCount(): number {
  return process.getActiveResourcesInfo().filter((r) => r === "Timeout").length
}

describe.each(backends)("adapter faults on $name", (backend: Backend) => {
  let inner: Adapter
  let adapter: FaultyAdapter
  beforeEach(async () => {
    inner = await backend.fresh()
    adapter = faulty(inner)
  })

  function setup(overrides: Partial<AuthConfig> = {}) {
    const idp = createIdp("idp", OLIVIA)
    const { config, rec } = dbConfig(adapter, [idp.provider()], { adapterTimeout: TIMEOUT, ...overrides })
    return { idp, config, rec }
  }

  /** After a failed sign-in: the healthy retry yields exactly one user and one account, no orphans. */
  async function expectHealthyRetry(config: AuthConfig, idp: ReturnType<typeof createIdp>): Promise<void> {
    adapter.heal()
    const retry = await oauthSignIn(config, idp)
    expect(retry.location, "the retry with a healthy adapter signs in").toBe(ORIGIN)
    expect(setsSession(retry.res)).toBe(true)
    const counts = await backend.counts()
    expect({ users: counts.users, accounts: counts.accounts }).toEqual({ users: 1, accounts: 1 })
    await expectNoOrphans(backend)
    expect((await getSession(config, retry.jar)).body?.user).toMatchObject({ email: "olivia@example.com" })
  }

  describe("DB-01 / DB-03: a failing or hanging step of a first OAuth sign-in", () => {
    for (const step of SIGN_IN_STEPS) {
      for (const mode of ["throw", "hang"] as const) {
        const id = mode === "throw" ? "DB-01" : "DB-03"
        it(`${id} ${mode} in ${step}: error=Configuration, no session cookie, no orphan rows; a healthy retry yields 1 user + 1 account`, async () => {
          const { idp, config, rec } = setup()
          adapter.faults.set(step, mode === "throw" ? { kind: "throw" } : { kind: "hang" })
          const jar = new CookieJar()
          const path = await startFlow(config, idp, jar)
          const timersBefore = timerCount()
          const res = await finishFlow(config, jar, path)
          const location = res.headers.get("location")
          expect(res.status).toBe(302)
          expect(location).toBe(ERROR_CONFIGURATION)
          expect(setsSession(res), "no session cookie (I1)").toBe(false)
          expect(sessionSetCookie(res)).toBeUndefined()
          const pkce = setCookies(res).get(PKCE_COOKIE)
          expect(pkce?.attrs["max-age"], "the PKCE cookie is expired (I4)").toBe("0")
          expect(adapter.methods(), `the sign-in reached ${step}`).toContain(step)
          expect(adapterErrorsOf(rec.errors).map((e) => e.method)).toContain(step)
          if (mode === "hang") {
            expect(adapterErrorsOf(rec.errors).some((e) => /did not answer in time/.test(e.message))).toBe(true)
            // One hanging call is one timeout: the call is not retried after it.
            expect(adapter.hanging, "one hanging call, not retried").toBe(1)
            expect(timerCount(), "no timer left behind").toBeLessThanOrEqual(timersBefore)
          }
          expect(rec.of("createUser")).toEqual([])
          expect(rec.of("linkAccount")).toEqual([])
          expect(rec.of("signIn")).toEqual([])
          expect(await backend.counts(), "no orphan user, account or session row").toEqual({
            users: 0,
            accounts: 0,
            sessions: 0,
          })
          await expectHealthyRetry(config, idp)
        })
      }
    }

    it("DB-01 createSession throwing for a returning user keeps that user and account and writes no session", async () => {
      const { idp, config } = setup()
      await oauthSignIn(config, idp)
      const before = { users: await backend.users(), accounts: await backend.accounts() }
      adapter.faults.set("createSession", { kind: "throw" })
      const { res, location } = await oauthSignIn(config, idp)
      expect(location).toBe(ERROR_CONFIGURATION)
      expect(setsSession(res)).toBe(false)
      expect(await backend.counts()).toEqual({ users: 1, accounts: 1, sessions: 1 })
      expect((await backend.users()).map((u) => u.id)).toEqual(before.users.map((u) => u.id))
      expect((await backend.accounts()).map((a) => a.userId)).toEqual(before.accounts.map((a) => a.userId))
      adapter.heal()
      expect((await oauthSignIn(config, idp)).location).toBe(ORIGIN)
      expect(await backend.counts()).toEqual({ users: 1, accounts: 1, sessions: 2 })
    })

    it("DB-01 createSession throwing after linking a new account to the signed-in user unlinks it again", async () => {
      const a = createIdp("idpa", OLIVIA)
      const b = createIdp("idpb", { id: "olivia-on-b", email: "olivia.b@example.com" })
      const { config } = dbConfig(adapter, [a.provider(), b.provider()], { adapterTimeout: TIMEOUT })
      const { jar } = await oauthSignIn(config, a)
      adapter.faults.set("createSession", { kind: "throw" })
      const linked = await oauthSignIn(config, b, jar)
      expect(linked.location).toBe(ERROR_CONFIGURATION)
      expect(await backend.counts()).toEqual({ users: 1, accounts: 1, sessions: 1 })
      expect((await backend.accounts()).map((x) => x.provider)).toEqual(["idpa"])
      // Still signed in as before (the old cookie was not touched).
      expect((await getSession(config, jar)).body?.user).toMatchObject({ email: "olivia@example.com" })
    })

    for (const step of ["getUserByAccount", "createUser", "linkAccount"] as const) {
      it(`DB-01 throw in ${step} under the jwt strategy with an adapter: error=Configuration, no session cookie, no rows`, async () => {
        const { idp, config } = setup({ session: { strategy: "jwt" } })
        adapter.faults.set(step, { kind: "throw" })
        const { res, location } = await oauthSignIn(config, idp)
        expect(location).toBe(ERROR_CONFIGURATION)
        expect(setsSession(res)).toBe(false)
        expect(await backend.counts()).toEqual({ users: 0, accounts: 0, sessions: 0 })
        adapter.heal()
        const retry = await oauthSignIn(config, idp)
        expect(retry.location).toBe(ORIGIN)
        expect(await backend.counts()).toEqual({ users: 1, accounts: 1, sessions: 0 })
      })
    }

    for (const step of ["getUser", "createUser", "linkAccount", "createSession"] as const) {
      it(`DB-01 throw in ${step} at a credentials sign-in (database strategy): error=Configuration, no cookie, no user left behind`, async () => {
        const { config } = dbConfig(
          adapter,
          [
            Credentials({
              credentials: { username: {} },
              authorize: async () => ({ id: "user-c1", name: "Cred", email: "cred@example.com" }),
            }),
          ],
          { adapterTimeout: TIMEOUT },
        )
        adapter.faults.set(step, { kind: "throw" })
        const { res } = await credentialsSignIn(config, { username: "cred" } as never)
        expect(res.headers.get("location")).toBe(ERROR_CONFIGURATION)
        expect(setsSession(res)).toBe(false)
        expect(await backend.counts()).toEqual({ users: 0, accounts: 0, sessions: 0 })
        adapter.heal()
        const retry = await credentialsSignIn(config, { username: "cred" } as never)
        expect(retry.res.headers.get("location")).toBe(ORIGIN)
        // The user and its credentials account row (provider, authorize's id).
        expect(await backend.counts()).toEqual({ users: 1, accounts: 1, sessions: 1 })
      })
    }

    for (const step of ["createUser", "linkAccount", "createSession"] as const) {
      it(`DB-03 a ${step} write that completes only after adapterTimeout leaves no orphan rows and does not block the retry`, async () => {
        const { idp, config, rec } = setup()
        adapter.faults.set(step, { kind: "slow", ms: TIMEOUT * 2 })
        const { res, location } = await oauthSignIn(config, idp)
        expect(setsSession(res)).toBe(false)
        await sleep(TIMEOUT * 3) // let the late write land
        const counts = await backend.counts()
        expect(counts, "no orphan rows once the late write has landed").toEqual({ users: 0, accounts: 0, sessions: 0 })
        expect(location, "the timed-out sign-in reports the adapter failure").toBe(ERROR_CONFIGURATION)
        expect(adapterErrorsOf(rec.errors).map((e) => e.method)).toContain(step)
        await expectHealthyRetry(config, idp)
      })
    }
  })

  describe("DB-02 / DB-03: /session while the adapter fails", () => {
    it("DB-02 getSessionAndUser rejecting on /session: 200 null, the cookie is NOT cleared; it works again once the DB is back", async () => {
      const { idp, config, rec } = setup()
      const { jar } = await oauthSignIn(config, idp)
      const cookie = jar.cookies.get(SESSION_COOKIE)
      adapter.faults.set("getSessionAndUser", { kind: "throw" })
      const { res, body } = await getSession(config, jar)
      expect(res.status).toBe(200)
      expect(body, "never a truthy session while the DB is down").toBeNull()
      expect(sessionSetCookie(res), "the session cookie is kept (documented choice)").toBeUndefined()
      expect(jar.cookies.get(SESSION_COOKIE)).toBe(cookie)
      expect(rec.errorTypes()).toContain("SessionTokenError")
      expect(adapterErrorsOf(rec.errors).map((e) => e.method)).toContain("getSessionAndUser")
      expect(rec.of("session")).toEqual([])
      expect(await backend.counts()).toEqual({ users: 1, accounts: 1, sessions: 1 })
      // POST /session (update) behaves the same.
      const csrf = (
        (await (await Auth(get("/auth/csrf", { cookie: jar.header() }), config)).json()) as { csrfToken: string }
      ).csrfToken
      const upd = await Auth(
        new Request(`${ORIGIN}/auth/session`, {
          method: "POST",
          headers: { "content-type": "application/json", cookie: jar.header() },
          body: JSON.stringify({ csrfToken: csrf, data: {} }),
        }),
        config,
      )
      expect(await upd.json()).toBeNull()
      expect(sessionSetCookie(upd)).toBeUndefined()
      adapter.heal()
      expect((await getSession(config, jar)).body?.user).toMatchObject({ email: "olivia@example.com" })
    })

    it("DB-03 getSessionAndUser never answering: /session answers 200 null after adapterTimeout, cookie kept, no timer left", async () => {
      const { idp, config, rec } = setup()
      const { jar } = await oauthSignIn(config, idp)
      adapter.faults.set("getSessionAndUser", { kind: "hang" })
      const timersBefore = timerCount()
      const { res, body } = await getSession(config, jar)
      expect(body).toBeNull()
      expect(adapter.hanging, "one hanging call, not retried").toBe(1)
      expect(sessionSetCookie(res)).toBeUndefined()
      expect(
        adapterErrorsOf(rec.errors).some(
          (e) => e.method === "getSessionAndUser" && /did not answer in time/.test(e.message),
        ),
      ).toBe(true)
      expect(timerCount()).toBeLessThanOrEqual(timersBefore)
    })

    it("DB-03 the default adapterTimeout is 10 s (a hanging call still fails, later)", async () => {
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] })
      try {
        const idp = createIdp("idp", OLIVIA)
        const { config } = dbConfig(adapter, [idp.provider()])
        adapter.faults.set("getSessionAndUser", { kind: "hang" })
        const pending = Auth(get("/auth/session", { cookie: `${SESSION_COOKIE}=tok` }), config)
        let settled = false
        void pending.then(() => (settled = true))
        await vi.advanceTimersByTimeAsync(9_900)
        expect(settled).toBe(false)
        await vi.advanceTimersByTimeAsync(200)
        expect(settled).toBe(true)
        expect(await (await pending).json()).toBeNull()
      } finally {
        vi.useRealTimers()
      }
    })
  })

  describe("DB-05: sign-out and refresh while the adapter fails", () => {
    it("DB-05 deleteSession throwing at sign-out still expires the cookie and redirects; the error is logged", async () => {
      const { idp, config, rec } = setup()
      const { jar } = await oauthSignIn(config, idp)
      adapter.faults.set("deleteSession", { kind: "throw" })
      const res = await signOutReq(config, jar)
      expect(res.status).toBe(302)
      expect(res.headers.get("location")).toBe(ORIGIN)
      expect(clearsSession(res)).toBe(true)
      expect(rec.errorTypes()).toContain("SignOutError")
      expect(adapterErrorsOf(rec.errors).map((e) => e.method)).toContain("deleteSession")
    })

    it("DB-05 deleteSession hanging at sign-out: the cookie is expired after adapterTimeout", async () => {
      const { idp, config, rec } = setup()
      const { jar } = await oauthSignIn(config, idp)
      adapter.faults.set("deleteSession", { kind: "hang" })
      const res = await signOutReq(config, jar)
      expect(clearsSession(res)).toBe(true)
      expect(adapter.hanging, "one hanging call, not retried").toBe(1)
      expect(
        adapterErrorsOf(rec.errors).some(
          (e) => e.method === "deleteSession" && /did not answer in time/.test(e.message),
        ),
      ).toBe(true)
    })

    for (const mode of ["throw", "hang"] as const) {
      it(`DB-05 updateSession ${mode === "throw" ? "throwing" : "hanging"} when due: the session is served, its expiry not extended`, async () => {
        const { idp, config, rec } = setup({ session: { updateAge: 0, maxAge: 3600 } })
        const { jar } = await oauthSignIn(config, idp)
        const [row] = await backend.sessions()
        const before = new Date(row!.expires).valueOf()
        await sleep(5)
        adapter.faults.set("updateSession", mode === "throw" ? { kind: "throw" } : { kind: "hang" })
        const { res, body } = await getSession(config, jar)
        if (mode === "hang") expect(adapter.hanging, "one hanging call, not retried").toBe(1)
        expect(body?.user).toMatchObject({ email: "olivia@example.com" })
        expect(body?.expires).toBe(new Date(before).toISOString())
        expect(sessionSetCookie(res), "no extended cookie").toBeUndefined()
        expect(new Date((await backend.sessions())[0]!.expires).valueOf()).toBe(before)
        expect(adapterErrorsOf(rec.errors).map((e) => e.method)).toContain("updateSession")
        adapter.heal()
        const healed = await getSession(config, jar)
        expect(setsSession(healed.res)).toBe(true)
        expect(new Date((await backend.sessions())[0]!.expires).valueOf()).toBeGreaterThan(before)
      })
    }
  })

  describe("DB-06: malformed rows from the adapter", () => {
    async function signedIn() {
      const s = setup()
      const { jar } = await oauthSignIn(s.config, s.idp)
      return { ...s, jar }
    }
    const withResult = (value: (real: { session: AdapterSession; user: AdapterUser } | null) => unknown): Fault => ({
      kind: "result",
      value: value as (r: unknown) => unknown,
    })

    const malformed: [string, (real: { session: AdapterSession; user: AdapterUser } | null) => unknown][] = [
      ['expires: "foo"', (r) => ({ ...r, session: { ...r!.session, expires: "foo" } })],
      ["expires: null", (r) => ({ ...r, session: { ...r!.session, expires: null } })],
      ["expires: an invalid Date", (r) => ({ ...r, session: { ...r!.session, expires: new Date(Number.NaN) } })],
      ["a null user", (r) => ({ ...r, user: null })],
      ["a user without id", (r) => ({ ...r, user: { ...r!.user, id: undefined } })],
      ["a user whose id is an object", (r) => ({ ...r, user: { ...r!.user, id: { $ne: null } } })],
      ["a null session", (r) => ({ ...r, session: null })],
      ["a non-object", () => "yes"],
    ]
    for (const [label, value] of malformed) {
      it(`DB-06 getSessionAndUser returning ${label}: null session, cookie cleared, no session event`, async () => {
        const { config, rec, jar } = await signedIn()
        adapter.faults.set("getSessionAndUser", withResult(value))
        const { res, body } = await getSession(config, jar)
        expect(res.status).toBe(200)
        expect(body).toBeNull()
        expect(clearsSession(res)).toBe(true)
        expect(rec.of("session")).toEqual([])
      })
    }

    it("DB-06 an expired row returned by the adapter is rejected and deleted", async () => {
      const { config, jar } = await signedIn()
      adapter.faults.set(
        "getSessionAndUser",
        withResult((r) => ({ ...r, session: { ...r!.session, expires: new Date(Date.now() - 1) } })),
      )
      const { body, res } = await getSession(config, jar)
      expect(body).toBeNull()
      expect(clearsSession(res)).toBe(true)
      expect(adapter.methods()).toContain("deleteSession")
      expect((await backend.counts()).sessions).toBe(0)
    })

    it("DB-06 extra fields on the rows are not exposed by the default session; an ISO-string expiry is accepted", async () => {
      const { config, jar } = await signedIn()
      adapter.faults.set(
        "getSessionAndUser",
        withResult((r) => ({
          session: { ...r!.session, expires: new Date(r!.session.expires).toISOString(), ip: "10.0.0.1" },
          user: { ...r!.user, passwordHash: "$argon2id$secret", role: "admin" },
        })),
      )
      const { body, res } = await getSession(config, jar)
      expect(body).not.toBeNull()
      expect(Object.keys(body!).sort()).toEqual(["expires", "user"])
      expect(Object.keys(body!.user as object).sort()).toEqual(["email", "image", "name"])
      expect(JSON.stringify(body)).not.toContain("argon2")
      expect(clearsSession(res)).toBe(false)
    })

    it("DB-06 a cookie whose token has no row: null, cookie cleared, nothing written", async () => {
      const { config } = setup()
      const res = await Auth(
        get("/auth/session", { cookie: `${SESSION_COOKIE}=00000000-0000-4000-8000-000000000000` }),
        config,
      )
      expect(await res.json()).toBeNull()
      expect(clearsSession(res)).toBe(true)
      expect(adapter.methods().filter((m) => /^(create|update|delete|link)/.test(m))).toEqual([])
    })
  })

  describe("DB-07: user deleted while sessions exist", () => {
    it("DB-07 every session of a deleted user is rejected at its next check", async () => {
      const { idp, config } = setup()
      const one = await oauthSignIn(config, idp)
      const two = await oauthSignIn(config, idp)
      expect((await getSession(config, one.jar)).body).not.toBeNull()
      const [user] = await backend.users()
      await inner.deleteUser!(user!.id)
      for (const jar of [one.jar, two.jar]) {
        const { res, body } = await getSession(config, jar)
        expect(body).toBeNull()
        expect(clearsSession(res)).toBe(true)
      }
      await expectNoOrphans(backend)
    })

    it("DB-07 an adapter that leaves session rows behind (returns the session with a null user) still yields no session", async () => {
      const { idp, config } = setup()
      const { jar } = await oauthSignIn(config, idp)
      adapter.faults.set("getSessionAndUser", {
        kind: "result",
        value: (r) => (r ? { ...(r as object), user: null } : r),
      })
      expect((await getSession(config, jar)).body).toBeNull()
    })
  })

  // DB-04 (useVerificationToken throws after deleting the row) is tested with the e-mail flow: test/email/security.test.ts.

  // -------------------------------------------------------------------------------------------------------
  // R9

  describe("R9 races", () => {
    it("R9 20 parallel first sign-ins of one IdP account (20 browsers, each with its own state/PKCE) → 1 user, 1 account", async () => {
      // The default adapter timeout: the 250 ms the fault tests use is too tight for 20 parallel sign-ins on a loaded machine.
      const { idp, config, rec } = setup({ adapterTimeout: 10_000 })
      // Widen the race windows: every adapter call takes a few ms.
      for (const m of ["getUserByAccount", "getUserByEmail", "createUser", "linkAccount", "createSession"])
        adapter.faults.set(m, { kind: "slow", ms: 3 })
      const jars = Array.from({ length: 20 }, () => new CookieJar())
      const paths: string[] = []
      for (const jar of jars) paths.push(await startFlow(config, idp, jar))
      const results = await Promise.all(jars.map((jar, i) => finishFlow(config, jar, paths[i]!)))
      expect(results.map((r) => r.headers.get("location"))).toEqual(Array(20).fill(ORIGIN))
      expect(results.every(setsSession)).toBe(true)
      expect(await backend.counts()).toEqual({ users: 1, accounts: 1, sessions: 20 })
      await expectNoOrphans(backend)
      const [user] = await backend.users()
      expect((await backend.sessions()).every((s) => String(s.userId) === String(user!.id))).toBe(true)
      expect(rec.of("createUser")).toHaveLength(1)
      expect(rec.of("linkAccount")).toHaveLength(1)
      expect(rec.of("signIn").filter((m) => m.isNewUser)).toHaveLength(1)
      expect(rec.errors).toEqual([])
      for (const jar of jars)
        expect((await getSession(config, jar)).body?.user).toMatchObject({ email: "olivia@example.com" })
    })

    it("R9 20 parallel callbacks replaying one code/state → exactly 1 session", async () => {
      const { idp, config } = setup()
      const jar = new CookieJar()
      const path = await startFlow(config, idp, jar)
      const cookie = jar.header()
      const results = await Promise.all(Array.from({ length: 20 }, () => Auth(get(path, { cookie }), config)))
      expect(results.filter(setsSession)).toHaveLength(1)
      expect(await backend.counts()).toEqual({ users: 1, accounts: 1, sessions: 1 })
    })

    /** 10 + 10 first sign-ins of one account through two module instances (two "processes", each with its own dedupe map). */
    async function twoProcesses(): Promise<(string | null)[]> {
      const idp = createIdp("idp", OLIVIA)
      for (const m of ["getUserByAccount", "getUserByEmail", "createUser", "linkAccount", "createSession"])
        adapter.faults.set(m, { kind: "slow", ms: 3 })
      vi.resetModules()
      const other = (await import("../../src/index.js")) as { Auth: typeof Auth; customFetch: symbol }
      expect(other.Auth).not.toBe(Auth)
      const procA = dbConfig(adapter, [idp.provider()], { adapterTimeout: 2000 })
      // The second instance has its own customFetch symbol.
      const procB = dbConfig(adapter, [idp.provider({ [other.customFetch]: idp.fetch } as never)], {
        adapterTimeout: 2000,
      })
      const flows: { auth: typeof Auth; config: AuthConfig; jar: CookieJar; path: string }[] = []
      for (let i = 0; i < 10; i++) {
        for (const [auth, p] of [
          [Auth, procA],
          [other.Auth, procB],
        ] as const) {
          const jar = new CookieJar()
          flows.push({ auth, config: p.config, jar, path: await startFlow(p.config, idp, jar) })
        }
      }
      const results = await Promise.all(flows.map((f) => f.auth(get(f.path, { cookie: f.jar.header() }), f.config)))
      return results.map((r) => r.headers.get("location"))
    }

    it("R9 parallel first sign-ins from two processes (separate module instances) sharing one database → 1 user, 1 account, no orphans", async () => {
      const locations = await twoProcesses()
      const counts = await backend.counts()
      expect({ users: counts.users, accounts: counts.accounts }).toEqual({ users: 1, accounts: 1 })
      await expectNoOrphans(backend)
      expect(locations.filter((l) => l === ORIGIN).length).toBeGreaterThanOrEqual(10)
      expect(
        locations.filter((l) => l === ERROR_CONFIGURATION),
        "no adapter error reaches the user",
      ).toEqual([])
    })

    it("R9 parallel first sign-ins from two processes: every sign-in of the account's owner succeeds (none sees OAuthAccountNotLinked)", async () => {
      const locations = await twoProcesses()
      expect(
        locations.filter((l) => l !== ORIGIN),
        "sign-ins that did not succeed",
      ).toEqual([])
    })
  })
})

describe("R9 dedupe scope", () => {
  it("R9 the in-process dedupe of concurrent first sign-ins never shares a user across two configs with different adapters", async () => {
    const idp = createIdp("idp", OLIVIA)
    const tenantA = faulty(MemoryAdapter())
    const tenantB = faulty(MemoryAdapter())
    for (const t of [tenantA, tenantB])
      for (const m of ["getUserByAccount", "createUser", "linkAccount"]) t.faults.set(m, { kind: "slow", ms: 5 })
    const a = dbConfig(tenantA, [idp.provider()])
    const b = dbConfig(tenantB, [idp.provider()])
    const jarA = new CookieJar()
    const jarB = new CookieJar()
    const pathA = await startFlow(a.config, idp, jarA)
    const pathB = await startFlow(b.config, idp, jarB)
    const [resA, resB] = await Promise.all([finishFlow(a.config, jarA, pathA), finishFlow(b.config, jarB, pathB)])
    expect(resA.headers.get("location")).toBe(ORIGIN)
    expect(
      resB.headers.get("location"),
      `tenant B: ${JSON.stringify(b.rec.errors.map((e) => String((e as Error).cause ?? e)))}`,
    ).toBe(ORIGIN)
    const inner = (t: FaultyAdapter) => t.inner as ReturnType<typeof MemoryAdapter>
    expect([inner(tenantA).users.size, inner(tenantB).users.size]).toEqual([1, 1])
    expect([inner(tenantA).accounts.size, inner(tenantB).accounts.size]).toEqual([1, 1])
    const userA = [...inner(tenantA).users.keys()][0]
    expect(
      [...inner(tenantB).sessions.values()].every((s) => s.userId !== userA),
      "tenant B's session never points at tenant A's user",
    ).toBe(true)
  })
})
