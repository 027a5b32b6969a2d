// Account-takeover chains found by an attack review of fbc2602 (OA-19, CR-06, CK-13, session token strength), on every
// adapter backend.
import { afterAll, beforeEach, describe, expect, it } from "vitest"
import type { Adapter, AuthConfig } from "../../src/index.js"
import Credentials from "../../src/providers/credentials.js"
import { CookieJar, ORIGIN, signIn as credentialsSignIn } from "../support/flow-kit.js"
import {
  type Backend,
  NOT_LINKED,
  SESSION_COOKIE,
  allBackends,
  createIdp,
  dbConfig,
  getSession,
  oauthSignIn,
  setsSession,
} from "../support/db-harness.js"

const backends = await allBackends()
afterAll(async () => {
  for (const b of backends) await b.close()
})

const VICTIM = { id: "victim-at-idp", name: "Victim", email: "victim@example.com", email_verified: true }

describe.each(backends)("account takeover attempts on $name", (backend: Backend) => {
  let adapter: Adapter
  beforeEach(async () => {
    adapter = await backend.fresh()
  })

  describe("OA-19 a string email_verified", () => {
    for (const claim of ["false", "FALSE", "0", "", "no", null, 0, false, undefined] as const) {
      it(`OA-19 dangerous linking refuses email_verified ${JSON.stringify(claim)}: OAuthAccountNotLinked, nothing linked`, async () => {
        const victimIdp = createIdp("trusted", VICTIM)
        const attackerIdp = createIdp("lax", {
          id: "attacker-1",
          name: "Mallory",
          email: "victim@example.com",
          ...(claim === undefined ? {} : { email_verified: claim }),
        })
        const { config } = dbConfig(adapter, [
          victimIdp.provider(),
          attackerIdp.provider({ allowDangerousEmailAccountLinking: true }),
        ])
        await oauthSignIn(config, victimIdp)
        expect((await backend.users())[0]!.emailVerified).toBeInstanceOf(Date)
        const attack = await oauthSignIn(config, attackerIdp)
        expect(attack.location).toBe(NOT_LINKED)
        expect(setsSession(attack.res)).toBe(false)
        expect((await backend.accounts()).map((a) => a.provider)).toEqual(["trusted"])
      })
    }

    it('OA-19 dangerous linking accepts email_verified "true" (string) and true', async () => {
      for (const claim of ["true", true]) {
        adapter = await backend.fresh()
        const victimIdp = createIdp("trusted", VICTIM)
        const other = createIdp("other", {
          id: "same-person",
          name: "Victim",
          email: "victim@example.com",
          email_verified: claim,
        })
        const { config } = dbConfig(adapter, [
          victimIdp.provider(),
          other.provider({ allowDangerousEmailAccountLinking: true }),
        ])
        await oauthSignIn(config, victimIdp)
        const linked = await oauthSignIn(config, other)
        expect(linked.location).toBe(ORIGIN)
        expect(await backend.counts()).toMatchObject({ users: 1, accounts: 2 })
      }
    })

    it('OA-19 a new user from a profile with email_verified "false" gets emailVerified null; "true" gets a date', async () => {
      const unverified = createIdp("a", { ...VICTIM, email_verified: "false" })
      await oauthSignIn(dbConfig(adapter, [unverified.provider()]).config, unverified)
      expect((await backend.users())[0]!.emailVerified).toBeNull()
      adapter = await backend.fresh()
      const idp = createIdp("b", { ...VICTIM, email_verified: "true" })
      await oauthSignIn(dbConfig(adapter, [idp.provider()]).config, idp)
      expect((await backend.users())[0]!.emailVerified).toBeInstanceOf(Date)
    })
  })

  describe("CR-06 credentials never adopt another user by e-mail", () => {
    const victimIdp = createIdp("trusted", VICTIM)
    function credentialsConfig(returned: { id: string; email: string; name?: string }): AuthConfig {
      return dbConfig(adapter, [
        victimIdp.provider(),
        Credentials({
          credentials: { username: {}, password: {} },
          authorize: async () => ({ name: "Mallory", ...returned }),
        }),
      ]).config
    }

    it("CR-06 authorize returns an unknown id with a verified, OAuth-linked user's e-mail: AccountNotLinked, no session for the victim", async () => {
      const config = credentialsConfig({ id: "ldap-mallory", email: "victim@example.com" })
      const victim = await oauthSignIn(config, victimIdp)
      const [victimUser] = await backend.users()
      const attack = await credentialsSignIn(config, { username: "mallory", password: "x" })
      expect(attack.res.status).toBe(302)
      expect(attack.res.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=AccountNotLinked`)
      expect(attack.jar.cookies.has(SESSION_COOKIE)).toBe(false)
      expect(await backend.counts()).toEqual({ users: 1, accounts: 1, sessions: 1 })
      expect((await backend.sessions()).every((s) => String(s.userId) === String(victimUser!.id))).toBe(true)
      expect((await getSession(config, attack.jar)).body).toBeNull()
      expect((await getSession(config, victim.jar)).body?.user).toMatchObject({ email: "victim@example.com" })
    })

    it("CR-06 the e-mail case does not matter: VICTIM@EXAMPLE.COM is refused too", async () => {
      const config = credentialsConfig({ id: "ldap-mallory", email: "VICTIM@example.com" })
      await oauthSignIn(config, victimIdp)
      const attack = await credentialsSignIn(config, { username: "m", password: "x" })
      expect(attack.jar.cookies.has(SESSION_COOKIE)).toBe(false)
      expect(await backend.counts()).toMatchObject({ users: 1, sessions: 1 })
    })

    it("CR-06 authorize returning the adapter's own id signs that user in (the supported way)", async () => {
      const config = credentialsConfig({ id: "placeholder", email: "victim@example.com" })
      await oauthSignIn(config, victimIdp)
      const [victimUser] = await backend.users()
      const own = dbConfig(adapter, [
        Credentials({
          credentials: {},
          authorize: async () => ({ id: String(victimUser!.id), email: "victim@example.com" }),
        }),
      ]).config
      const res = await credentialsSignIn(own, { username: "v", password: "x" })
      expect(res.res.headers.get("location")).toBe(ORIGIN)
      expect((await getSession(own, res.jar)).body?.user).toMatchObject({ email: "victim@example.com" })
      expect(await backend.counts()).toMatchObject({ users: 1, accounts: 1 })
    })
  })

  describe("CK-13 database half: a new sign-in ends the session it replaces", () => {
    it("CK-13 signing in as another user over a database session deletes the old row; its token no longer reads", async () => {
      const users: Record<string, { id: string; email: string }> = {
        alice: { id: "u-alice", email: "alice@example.com" },
        bob: { id: "u-bob", email: "bob@example.com" },
      }
      const { config } = dbConfig(adapter, [
        Credentials({
          credentials: {},
          authorize: async (c) => users[String((c as Record<string, unknown>).username)] ?? null,
        }),
      ])
      const { Auth } = await import("../../src/index.js")
      const { fetchCsrf, postForm } = await import("../support/flow-kit.js")
      const jar = new CookieJar()
      const signInAs = async (username: string): Promise<Response> => {
        const csrfToken = await fetchCsrf(config, jar)
        const res = await Auth(
          postForm("/auth/callback/credentials", { csrfToken, username, password: "x" }, { cookie: jar.header() }),
          config,
        )
        jar.store(res)
        return res
      }
      await signInAs("alice")
      const oldToken = jar.cookies.get(SESSION_COOKIE)!
      const stolen = new CookieJar()
      stolen.cookies.set(SESSION_COOKIE, oldToken)
      expect((await getSession(config, stolen)).body?.user).toMatchObject({ email: "alice@example.com" })

      expect((await signInAs("bob")).headers.get("location")).toBe(ORIGIN)
      expect(jar.cookies.get(SESSION_COOKIE)).not.toBe(oldToken)
      expect((await getSession(config, jar)).body?.user).toMatchObject({ email: "bob@example.com" })
      expect((await getSession(config, stolen)).body).toBeNull()
      expect((await backend.sessions()).map((s) => s.sessionToken)).toEqual([
        decodeURIComponent(jar.cookies.get(SESSION_COOKIE)!),
      ])
    })

    it("CK-13 signing in again as the same user (credentials) also rotates the session row", async () => {
      const { config } = dbConfig(adapter, [
        Credentials({ credentials: {}, authorize: async () => ({ id: "c-1", email: "c@example.com" }) }),
      ])
      const first = await credentialsSignIn(config, { username: "c", password: "x" })
      const oldToken = first.jar.cookies.get(SESSION_COOKIE)!
      const csrf = new CookieJar()
      for (const [k, v] of first.jar.cookies) csrf.cookies.set(k, v)
      const { Auth } = await import("../../src/index.js")
      const { fetchCsrf, postForm } = await import("../support/flow-kit.js")
      const token = await fetchCsrf(config, csrf)
      const again = await Auth(
        postForm(
          "/auth/callback/credentials",
          { csrfToken: token, username: "c", password: "x" },
          { cookie: csrf.header() },
        ),
        config,
      )
      csrf.store(again)
      expect(csrf.cookies.get(SESSION_COOKIE)).not.toBe(oldToken)
      expect(await backend.counts()).toMatchObject({ sessions: 1 })
      expect((await backend.sessions())[0]!.sessionToken).toBe(decodeURIComponent(csrf.cookies.get(SESSION_COOKIE)!))
    })
  })

  it("ASVS 7.2.2 database session tokens carry 256 CSPRNG bits, URL-safe, all distinct", async () => {
    const { config } = dbConfig(adapter, [
      Credentials({ credentials: {}, authorize: async () => ({ id: "t-1", email: "t@example.com" }) }),
    ])
    const tokens = new Set<string>()
    for (let i = 0; i < 20; i++) {
      const { jar } = await credentialsSignIn(config, { username: "t", password: "x" })
      tokens.add(decodeURIComponent(jar.cookies.get(SESSION_COOKIE)!))
    }
    expect(tokens.size).toBe(20)
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(Buffer.from(token, "base64url")).toHaveLength(32)
    }
  })
})
