// Database sessions and account linking through Auth() (docs/wire-format.md §2.2, §2.9, §8.4, §9):
// OAuth first / repeat sign-in rows, the linking rules, the jwt strategy with an adapter (trigger "signUp"),
// events, pages.newUser, sign-out, the updateAge rule, expired rows, credentials with database sessions.
//
// Every scenario runs on each backend: the memory adapter, the postgres adapter on PGlite (once
// src/adapters/postgres.ts exists), and a real PostgreSQL when DATABASE_URL is set. The IdP is a plain
// OAuth 2 server answered in-process through the provider's `customFetch` (test/support/db-harness.ts).
// A last block runs a third-party Auth.js adapter (@auth/pg-adapter, numeric SERIAL ids) for drop-in parity.
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { Auth } from "../src/index.js"
import type { Adapter } from "../src/index.js"
import Credentials from "../src/providers/credentials.js"
import { CookieJar, ORIGIN, alice, fetchCsrf, get, postForm, signIn as credentialsSignIn } from "./support/flow-kit.js"
import {
  type Backend,
  NOT_LINKED,
  SESSION_COOKIE,
  allBackends,
  clearsSession,
  createIdp,
  dbConfig,
  faulty,
  getSession,
  oauthSignIn,
  sessionSetCookie,
  setsSession,
  signOutReq,
} from "./support/db-harness.js"

const backends = await allBackends()
afterAll(async () => {
  for (const b of backends) await b.close()
})
afterEach(() => {
  vi.useRealTimers()
})

const DAY = 86_400
/** Default session tokens: 256 CSPRNG bits, base64url (docs/wire-format.md §4; ASVS 5.0 7.2.2 asks for 128). */
const SESSION_TOKEN = /^[A-Za-z0-9_-]{43}$/
const OLIVIA = { id: "olivia-1", name: "Olivia", email: "Olivia@Example.COM", avatar: "https://img.example/o.png" }
const BOB = { id: "bob-7", name: "Bob", email: "bob@example.com", avatar: "https://img.example/b.png" }

function credentialsProvider() {
  return Credentials({
    credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
    authorize: async (c) => (c.username === "alice" && c.password === "password" ? { ...alice } : null),
  })
}

describe.each(backends)("database sessions on $name", (backend: Backend) => {
  let adapter: Adapter
  beforeEach(async () => {
    adapter = await backend.fresh()
  })

  describe("OAuth sign-in and linking (docs/wire-format.md §8.4)", () => {
    it("first sign-in creates one user, one account and one session row; database is the default strategy with an adapter", async () => {
      const idp = createIdp("idp", OLIVIA)
      const jwtCalls: unknown[] = []
      const { config, rec } = dbConfig(adapter, [idp.provider()], {
        callbacks: { jwt: ({ token }) => (jwtCalls.push(token), token) },
      })
      const { res, location, jar } = await oauthSignIn(config, idp, undefined, { callbackUrl: "/dashboard" })
      expect(res.status).toBe(302)
      expect(location).toBe(`${ORIGIN}/dashboard`)
      expect(await backend.counts()).toEqual({ users: 1, accounts: 1, sessions: 1 })

      const [user] = await backend.users()
      expect(user).toMatchObject({
        name: "Olivia",
        email: "olivia@example.com",
        image: "https://img.example/o.png",
        emailVerified: null,
      })
      const [account] = await backend.accounts()
      expect(account).toMatchObject({
        provider: "idp",
        providerAccountId: "olivia-1",
        userId: user!.id,
        type: "oauth",
        token_type: "bearer",
        scope: "read:user",
      })
      expect(typeof (account as Record<string, unknown>).access_token).toBe("string")
      expect(Number((account as Record<string, unknown>).expires_at)).toBeGreaterThan(Date.now() / 1000)
      if (backend.name === "memory") expect(account).not.toHaveProperty("expires_in")

      // The cookie holds only the row's token (no JWE), with the row's expiry.
      const [row] = await backend.sessions()
      expect(row!.userId).toBe(user!.id)
      const cookie = sessionSetCookie(res)!
      expect(cookie.value).toBe(row!.sessionToken)
      expect(cookie.value).toMatch(SESSION_TOKEN)
      expect(cookie.attrs).toMatchObject({ httponly: true, samesite: "Lax", path: "/" })
      const expires = new Date(row!.expires).valueOf()
      expect(Math.abs(expires - (Date.now() + 30 * DAY * 1000))).toBeLessThan(5_000)
      expect(Math.abs(new Date(cookie.attrs.expires as string).valueOf() - expires)).toBeLessThan(1_000)
      expect(Number(cookie.attrs["max-age"])).toBeGreaterThan(30 * DAY - 10)

      const { body } = await getSession(config, jar)
      expect(body).toEqual({
        user: { name: "Olivia", email: "olivia@example.com", image: "https://img.example/o.png" },
        expires: new Date(expires).toISOString(),
      })
      expect(jwtCalls, "the jwt callback is not part of the database strategy").toEqual([])
      expect(rec.errors).toEqual([])
    })

    it("a second sign-in reuses the user and account and creates a new session", async () => {
      const idp = createIdp("idp", OLIVIA)
      const { config, rec } = dbConfig(adapter, [idp.provider()])
      const first = await oauthSignIn(config, idp)
      const second = await oauthSignIn(config, idp)
      expect(second.location).toBe(ORIGIN)
      expect(await backend.counts()).toEqual({ users: 1, accounts: 1, sessions: 2 })
      expect(sessionSetCookie(second.res)!.value).not.toBe(sessionSetCookie(first.res)!.value)
      expect(rec.of("createUser")).toHaveLength(1)
      expect(rec.of("linkAccount")).toHaveLength(1)
      expect(rec.of("signIn").map((m) => m.isNewUser)).toEqual([true, false])
      // Both browsers are signed in as the same user.
      expect((await getSession(config, first.jar)).body?.user).toMatchObject({ email: "olivia@example.com" })
      expect((await getSession(config, second.jar)).body?.user).toMatchObject({ email: "olivia@example.com" })

      // A sign-in again in an already signed-in browser (same account): its user, a fresh session, and the
      // session it replaces is gone (CK-13).
      const replaced = (await backend.sessions()).find(
        (row) => row.sessionToken === decodeURIComponent(first.jar.cookies.get(SESSION_COOKIE)!),
      )
      expect(replaced).toBeDefined()
      const third = await oauthSignIn(config, idp, first.jar)
      expect(third.location).toBe(ORIGIN)
      expect(await backend.counts()).toEqual({ users: 1, accounts: 1, sessions: 2 })
      expect((await backend.sessions()).map((row) => row.sessionToken)).not.toContain(replaced!.sessionToken)
      expect(rec.errors).toEqual([])
    })

    it("an existing account signs in as its user even when the IdP's e-mail changed", async () => {
      const idp = createIdp("idp", OLIVIA)
      const { config } = dbConfig(adapter, [idp.provider()])
      await oauthSignIn(config, idp)
      const [before] = await backend.users()
      idp.profile = { ...OLIVIA, email: "olivia.new@example.com", name: "Olivia N." }
      const { jar, location } = await oauthSignIn(config, idp)
      expect(location).toBe(ORIGIN)
      expect(await backend.counts()).toEqual({ users: 1, accounts: 1, sessions: 2 })
      expect((await getSession(config, jar)).body?.user).toMatchObject({ email: "olivia@example.com" })
      expect((await backend.sessions()).every((s) => s.userId === before!.id)).toBe(true)
    })

    it("a signed-in user who signs in with a new account of another provider gets it linked", async () => {
      const a = createIdp("idpa", OLIVIA)
      const b = createIdp("idpb", { ...BOB, id: "olivia-on-b" })
      const { config, rec } = dbConfig(adapter, [a.provider(), b.provider()])
      const { jar } = await oauthSignIn(config, a)
      const [user] = await backend.users()
      const linked = await oauthSignIn(config, b, jar)
      expect(linked.location).toBe(ORIGIN)
      // Linking signs in again: the session of the browser is replaced, not added to (CK-13).
      expect(await backend.counts()).toEqual({ users: 1, accounts: 2, sessions: 1 })
      const accounts = await backend.accounts()
      expect(accounts.map((x) => [x.provider, x.providerAccountId, x.userId]).sort()).toEqual([
        ["idpa", "olivia-1", user!.id],
        ["idpb", "olivia-on-b", user!.id],
      ])
      expect(rec.of("createUser")).toHaveLength(1)
      const linkEvents = rec.of("linkAccount")
      expect(linkEvents).toHaveLength(2)
      expect(linkEvents[1]!.user).toMatchObject({ id: user!.id })
      expect(linkEvents[1]!.account).toMatchObject({ provider: "idpb", providerAccountId: "olivia-on-b" })
      expect(rec.of("signIn")[1]).toMatchObject({ isNewUser: false, user: { id: user!.id } })
      // The new session (cookie replaced) is the same user's; a fresh browser with B alone is that user too.
      expect((await getSession(config, jar)).body?.user).toMatchObject({ email: "olivia@example.com" })
      const viaB = await oauthSignIn(config, b)
      expect((await getSession(config, viaB.jar)).body?.user).toMatchObject({ email: "olivia@example.com" })
      expect((await backend.counts()).users).toBe(1)
    })

    it("signed in as one user, an account already linked to another user is OAuthAccountNotLinked and changes nothing", async () => {
      const a = createIdp("idpa", OLIVIA)
      const b = createIdp("idpb", BOB)
      const { config } = dbConfig(adapter, [a.provider(), b.provider()])
      const olivia = await oauthSignIn(config, a)
      await oauthSignIn(config, b)
      const before = await backend.counts()
      const oliviaToken = olivia.jar.cookies.get(SESSION_COOKIE)
      const res = await oauthSignIn(config, b, olivia.jar)
      expect(res.location).toBe(NOT_LINKED)
      expect(setsSession(res.res)).toBe(false)
      expect(await backend.counts()).toEqual(before)
      expect(olivia.jar.cookies.get(SESSION_COOKIE)).toBe(oliviaToken)
      expect((await getSession(config, olivia.jar)).body?.user).toMatchObject({ email: "olivia@example.com" })
    })

    it("a new account whose e-mail belongs to an existing user is OAuthAccountNotLinked (no rows, no cookie)", async () => {
      const a = createIdp("idpa", OLIVIA)
      const b = createIdp("idpb", { id: "someone-on-b", name: "O.", email: "OLIVIA@example.com" })
      const { config, rec } = dbConfig(adapter, [a.provider(), b.provider()])
      await oauthSignIn(config, a)
      const res = await oauthSignIn(config, b)
      expect(res.res.status).toBe(302)
      expect(res.location).toBe(NOT_LINKED)
      expect(setsSession(res.res)).toBe(false)
      expect(await backend.counts()).toEqual({ users: 1, accounts: 1, sessions: 1 })
      expect(rec.errorTypes()).toContain("OAuthAccountNotLinked")
      expect(rec.of("signIn")).toHaveLength(1)
    })

    it("allowDangerousEmailAccountLinking links the new account to the user with that (verified) e-mail", async () => {
      // The first IdP vouches for the address (email_verified: true), so the local row is verified.
      const a = createIdp("idpa", { ...OLIVIA, email_verified: true })
      const b = createIdp("idpb", {
        id: "olivia-on-b",
        name: "O.",
        email: "olivia@example.com",
        email_verified: "true",
      })
      const { config, rec } = dbConfig(adapter, [a.provider(), b.provider({ allowDangerousEmailAccountLinking: true })])
      await oauthSignIn(config, a)
      const [user] = await backend.users()
      const res = await oauthSignIn(config, b)
      expect(res.location).toBe(ORIGIN)
      expect(setsSession(res.res)).toBe(true)
      expect(await backend.counts()).toEqual({ users: 1, accounts: 2, sessions: 2 })
      expect((await backend.accounts()).every((x) => x.userId === user!.id)).toBe(true)
      expect(rec.of("linkAccount")).toHaveLength(2)
      expect(rec.of("signIn")[1]).toMatchObject({ isNewUser: false })
      expect((await getSession(config, res.jar)).body?.user).toMatchObject({
        email: "olivia@example.com",
        name: "Olivia",
      })
    })

    it("allowDangerousEmailAccountLinking never links to a local row whose e-mail was never verified (OA-19)", async () => {
      const a = createIdp("idpa", OLIVIA)
      const b = createIdp("idpb", { id: "olivia-on-b", email: "olivia@example.com", email_verified: true })
      const { config } = dbConfig(adapter, [a.provider(), b.provider({ allowDangerousEmailAccountLinking: true })])
      await oauthSignIn(config, a)
      expect((await backend.users())[0]!.emailVerified ?? null).toBeNull()
      const res = await oauthSignIn(config, b)
      expect(res.location).toBe(NOT_LINKED)
      expect(await backend.counts()).toEqual({ users: 1, accounts: 1, sessions: 1 })
    })

    it("allowDangerousEmailAccountLinking never links when the IdP says email_verified: false", async () => {
      const a = createIdp("idpa", { ...OLIVIA, email_verified: true })
      const b = createIdp("idpb", { id: "olivia-on-b", email: "olivia@example.com", email_verified: false })
      const { config } = dbConfig(adapter, [a.provider(), b.provider({ allowDangerousEmailAccountLinking: true })])
      await oauthSignIn(config, a)
      const res = await oauthSignIn(config, b)
      expect(res.location).toBe(NOT_LINKED)
      expect(await backend.counts()).toEqual({ users: 1, accounts: 1, sessions: 1 })
    })

    it("a profile without e-mail creates its own user (no lookup by e-mail)", async () => {
      const idp = createIdp("idp", { id: "anon-1", name: "Anon", email: null })
      const fa = faulty(adapter)
      const { config } = dbConfig(fa, [idp.provider()])
      const { location } = await oauthSignIn(config, idp)
      expect(location).toBe(ORIGIN)
      expect(await backend.counts()).toEqual({ users: 1, accounts: 1, sessions: 1 })
      expect(fa.methods()).not.toContain("getUserByEmail")
      expect((await backend.users())[0]!.email ?? null).toBeNull()
    })
  })

  describe("events, jwt strategy with an adapter, pages.newUser", () => {
    it("events: createUser, linkAccount, signIn (isNewUser), session, signOut ({session}) with their payloads", async () => {
      const idp = createIdp("idp", OLIVIA)
      const { config, rec } = dbConfig(adapter, [idp.provider()])
      const { jar } = await oauthSignIn(config, idp)
      const [user] = await backend.users()
      expect(rec.events.map((e) => e.name)).toEqual(["createUser", "linkAccount", "signIn"])
      expect(rec.of("createUser")[0]!.user).toMatchObject({ id: user!.id, email: "olivia@example.com", name: "Olivia" })
      const link = rec.of("linkAccount")[0]!
      expect(link.user).toMatchObject({ id: user!.id })
      expect(link.account).toMatchObject({ provider: "idp", providerAccountId: "olivia-1", type: "oauth" })
      expect(link.profile).toMatchObject({ email: "olivia@example.com", name: "Olivia" })
      const signInEvent = rec.of("signIn")[0]!
      expect(signInEvent).toMatchObject({
        isNewUser: true,
        user: { id: user!.id },
        account: { provider: "idp", providerAccountId: "olivia-1" },
      })
      expect(signInEvent.profile).toMatchObject({ id: "olivia-1", email: "Olivia@Example.COM" })

      const { body } = await getSession(config, jar)
      expect(rec.of("session")).toEqual([{ session: body }])

      const token = jar.cookies.get(SESSION_COOKIE)!
      await signOutReq(config, jar)
      const signOut = rec.of("signOut")
      expect(signOut).toHaveLength(1)
      expect(signOut[0]!.session).toMatchObject({ sessionToken: decodeURIComponent(token), userId: user!.id })
      expect(signOut[0]).not.toHaveProperty("token")
    })

    it("jwt strategy with an adapter: rows for user and account but none for sessions; jwt trigger signUp/isNewUser, then signIn", async () => {
      const idp = createIdp("idp", OLIVIA)
      const calls: Record<string, unknown>[] = []
      const { config, rec } = dbConfig(adapter, [idp.provider()], {
        session: { strategy: "jwt" },
        callbacks: { jwt: (params) => (calls.push(params as Record<string, unknown>), params.token) },
      })
      const first = await oauthSignIn(config, idp)
      expect(first.location).toBe(ORIGIN)
      expect(await backend.counts()).toEqual({ users: 1, accounts: 1, sessions: 0 })
      const [user] = await backend.users()
      expect(calls[0]).toMatchObject({
        trigger: "signUp",
        isNewUser: true,
        user: { id: user!.id },
        account: { provider: "idp" },
        token: { sub: user!.id, email: "olivia@example.com" },
      })
      expect(sessionSetCookie(first.res)!.value.split(".")).toHaveLength(5)
      expect(rec.of("signIn")[0]).toMatchObject({ isNewUser: true })

      const second = await oauthSignIn(config, idp)
      expect(await backend.counts()).toEqual({ users: 1, accounts: 1, sessions: 0 })
      const signInCall = calls.find((c, i) => i > 0 && c.account)
      expect(signInCall).toMatchObject({
        trigger: "signIn",
        isNewUser: false,
        user: { id: user!.id },
        token: { sub: user!.id },
      })
      expect((await getSession(config, second.jar)).body?.user).toMatchObject({ email: "olivia@example.com" })
    })

    it("jwt strategy with an adapter: the signed-in user (token.sub) gets a new provider account linked", async () => {
      const a = createIdp("idpa", OLIVIA)
      const b = createIdp("idpb", { ...BOB, id: "olivia-on-b" })
      const { config } = dbConfig(adapter, [a.provider(), b.provider()], { session: { strategy: "jwt" } })
      const { jar } = await oauthSignIn(config, a)
      await oauthSignIn(config, b, jar)
      const [user] = await backend.users()
      expect(await backend.counts()).toEqual({ users: 1, accounts: 2, sessions: 0 })
      expect((await backend.accounts()).every((x) => x.userId === user!.id)).toBe(true)
    })

    it("pages.newUser: a new user goes to <newUser>?callbackUrl=…, a returning one to the callbackUrl", async () => {
      const idp = createIdp("idp", OLIVIA)
      const { config } = dbConfig(adapter, [idp.provider()], { pages: { newUser: "/welcome" } })
      const first = await oauthSignIn(config, idp, undefined, { callbackUrl: "/dashboard" })
      const target = new URL(first.location, ORIGIN)
      expect(target.pathname).toBe("/welcome")
      expect(target.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/dashboard`)
      expect(setsSession(first.res)).toBe(true)
      const second = await oauthSignIn(config, idp, undefined, { callbackUrl: "/dashboard" })
      expect(second.location).toBe(`${ORIGIN}/dashboard`)
    })
  })

  describe("sign-out, updateAge, expiry (docs/wire-format.md §2.2, §2.9)", () => {
    it("sign-out deletes the session row and expires the cookie; the old token is dead afterwards", async () => {
      const idp = createIdp("idp", OLIVIA)
      const { config } = dbConfig(adapter, [idp.provider()])
      const { jar } = await oauthSignIn(config, idp)
      const other = await oauthSignIn(config, idp)
      const token = jar.cookies.get(SESSION_COOKIE)!
      const res = await signOutReq(config, jar)
      expect(res.status).toBe(302)
      expect(res.headers.get("location")).toBe(ORIGIN)
      expect(clearsSession(res)).toBe(true)
      expect(sessionSetCookie(res)!.attrs).toMatchObject({ "max-age": "0", path: "/" })
      expect(jar.cookies.has(SESSION_COOKIE)).toBe(false)
      const rows = await backend.sessions()
      expect(rows.map((s) => s.sessionToken)).toEqual([decodeURIComponent(other.jar.cookies.get(SESSION_COOKIE)!)])
      expect(await backend.counts()).toEqual({ users: 1, accounts: 1, sessions: 1 })
      // A copy of the old cookie no longer works (server-side revocation), and is cleared.
      const replay = await Auth(get("/auth/session", { cookie: `${SESSION_COOKIE}=${token}` }), config)
      expect(await replay.json()).toBeNull()
      expect(clearsSession(replay)).toBe(true)
      // The other browser is still signed in.
      expect((await getSession(config, other.jar)).body).not.toBeNull()
    })

    it("updateAge: updateSession runs only when due, then extends the row and re-sets the cookie", async () => {
      const idp = createIdp("idp", OLIVIA)
      const spy = faulty(adapter)
      const { config } = dbConfig(spy, [idp.provider()], { session: { maxAge: 3600, updateAge: 600 } })
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() })
      const t0 = Date.now()
      const { jar } = await oauthSignIn(config, idp)
      const token = decodeURIComponent(jar.cookies.get(SESSION_COOKIE)!)
      const updates = () => spy.calls.filter((c) => c.method === "updateSession")

      const fresh = await getSession(config, jar)
      expect(fresh.body?.expires).toBe(new Date(t0 + 3600_000).toISOString())
      expect(updates()).toHaveLength(0)
      expect(sessionSetCookie(fresh.res)).toBeUndefined()

      vi.setSystemTime(t0 + 599_000)
      await getSession(config, jar)
      expect(updates(), "not due before updateAge has passed").toHaveLength(0)

      vi.setSystemTime(t0 + 601_000)
      const due = await getSession(config, jar)
      expect(updates()).toHaveLength(1)
      const patch = updates()[0]!.args[0] as { sessionToken: string; expires: Date }
      expect(patch.sessionToken).toBe(token)
      expect(new Date(patch.expires).valueOf()).toBe(t0 + 601_000 + 3600_000)
      const [row] = await backend.sessions()
      expect(new Date(row!.expires).valueOf()).toBe(t0 + 601_000 + 3600_000)
      const cookie = sessionSetCookie(due.res)!
      expect(cookie.value).toBe(token)
      expect(new Date(cookie.attrs.expires as string).valueOf()).toBe(
        Math.floor((t0 + 601_000 + 3600_000) / 1000) * 1000,
      )
      // Auth.js answers with the stored (pre-update) expiry (docs/wire-format.md §2.2).
      expect(due.body?.expires).toBe(new Date(t0 + 3600_000).toISOString())

      vi.setSystemTime(t0 + 602_000)
      await getSession(config, jar)
      expect(updates(), "just extended: not due again").toHaveLength(1)
      vi.setSystemTime(t0 + 1202_000)
      await getSession(config, jar)
      expect(updates()).toHaveLength(2)
    })

    it("updateAge 0 extends the session on every read", async () => {
      const idp = createIdp("idp", OLIVIA)
      const spy = faulty(adapter)
      const { config } = dbConfig(spy, [idp.provider()], { session: { updateAge: 0 } })
      const { jar } = await oauthSignIn(config, idp)
      for (let i = 0; i < 3; i++) {
        const { res, body } = await getSession(config, jar)
        expect(body).not.toBeNull()
        expect(setsSession(res)).toBe(true)
      }
      expect(spy.calls.filter((c) => c.method === "updateSession")).toHaveLength(3)
    })

    it("an expired session is rejected (null), its row deleted and the cookie cleared", async () => {
      const idp = createIdp("idp", OLIVIA)
      const spy = faulty(adapter)
      const { config, rec } = dbConfig(spy, [idp.provider()], { session: { maxAge: 60 } })
      const { jar } = await oauthSignIn(config, idp)
      const token = decodeURIComponent(jar.cookies.get(SESSION_COOKIE)!)
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 61_000 })
      const { res, body } = await getSession(config, jar)
      expect(body).toBeNull()
      expect(clearsSession(res)).toBe(true)
      expect(spy.calls.filter((c) => c.method === "deleteSession").map((c) => c.args[0])).toEqual([token])
      expect(await backend.counts()).toEqual({ users: 1, accounts: 1, sessions: 0 })
      expect(rec.of("session")).toHaveLength(0)
    })

    it("a row that expired in the store (another writer) is rejected the same way", async () => {
      const idp = createIdp("idp", OLIVIA)
      const { config } = dbConfig(adapter, [idp.provider()])
      const { jar } = await oauthSignIn(config, idp)
      const token = decodeURIComponent(jar.cookies.get(SESSION_COOKIE)!)
      await backend.setSessionExpires(token, new Date(Date.now() - 1000))
      expect((await getSession(config, jar)).body).toBeNull()
      expect((await backend.counts()).sessions).toBe(0)
    })

    it("POST /session (update) under the database strategy passes newSession and trigger to the session callback", async () => {
      const idp = createIdp("idp", OLIVIA)
      const seen: Record<string, unknown>[] = []
      const { config } = dbConfig(adapter, [idp.provider()], {
        callbacks: {
          session: (p) => (
            seen.push(p as Record<string, unknown>),
            { ...p.session, extra: (p as { newSession?: unknown }).newSession ?? null }
          ),
        },
      })
      const { jar } = await oauthSignIn(config, idp)
      const csrfToken = await fetchCsrf(config, jar)
      const res = await Auth(
        new Request(`${ORIGIN}/auth/session`, {
          method: "POST",
          headers: { "content-type": "application/json", cookie: jar.header() },
          body: JSON.stringify({ csrfToken, data: { theme: "dark" } }),
        }),
        config,
      )
      expect(res.status).toBe(200)
      const body = (await res.json()) as Record<string, unknown>
      expect(body.extra).toEqual({ theme: "dark" })
      const last = seen.at(-1)!
      expect(last).toMatchObject({
        trigger: "update",
        newSession: { theme: "dark" },
        user: { email: "olivia@example.com" },
      })
      expect((last.session as Record<string, unknown>).sessionToken).toBe(
        decodeURIComponent(jar.cookies.get(SESSION_COOKIE)!),
      )
    })
  })

  describe("credentials with database sessions", () => {
    it("creates a session row; the user authorize returned is created in the adapter when missing, reused after", async () => {
      const { config, rec } = dbConfig(adapter, [credentialsProvider()])
      const { jar, res } = await credentialsSignIn(config)
      expect(res.status).toBe(302)
      expect(res.headers.get("location")).toBe(ORIGIN)
      // The user authorize vouched for gets a credentials account row (provider, authorize's id), so adapters
      // that choose their own user ids find it again next time.
      expect(await backend.counts()).toEqual({ users: 1, accounts: 1, sessions: 1 })
      const [user] = await backend.users()
      expect(user).toMatchObject({ email: alice.email, name: alice.name })
      expect((await backend.accounts()).map((a) => [a.provider, a.type, a.providerAccountId, a.userId])).toEqual([
        ["credentials", "credentials", alice.id, user!.id],
      ])
      const [row] = await backend.sessions()
      expect(row!.userId).toBe(user!.id)
      expect(sessionSetCookie(res)!.value).toBe(row!.sessionToken)
      expect((await getSession(config, jar)).body?.user).toEqual({
        name: alice.name,
        email: alice.email,
        image: alice.image,
      })

      const again = await credentialsSignIn(config)
      expect(again.res.headers.get("location")).toBe(ORIGIN)
      expect(await backend.counts()).toEqual({ users: 1, accounts: 1, sessions: 2 })
      expect(rec.errors).toEqual([])
      expect((await getSession(config, again.jar)).body?.user).toMatchObject({ email: alice.email })
    })

    it("a user that already exists in the adapter (authorize returns its stored id) is not created again", async () => {
      // Adapters may assign their own ids (SERIAL): authorize returns the id the adapter stored.
      const stored = await adapter.createUser!({
        id: alice.id,
        name: alice.name,
        email: alice.email,
        image: null,
        emailVerified: null,
      })
      const existing = (await backend.users())[0]!
      expect(String(existing.id)).toBe(String(stored.id))
      const provider = Credentials({
        credentials: { username: {}, password: {} },
        authorize: async (c) =>
          c.username === "alice" ? { id: String(stored.id), name: alice.name, email: alice.email } : null,
      })
      const { config } = dbConfig(adapter, [provider], {})
      const { jar, res } = await credentialsSignIn(config)
      expect(res.headers.get("location")).toBe(ORIGIN)
      expect(await backend.counts()).toEqual({ users: 1, accounts: 0, sessions: 1 })
      expect((await backend.sessions())[0]!.userId).toBe(existing.id)
      expect((await getSession(config, jar)).body?.user).toMatchObject({ email: alice.email })
    })

    it("wrong credentials create no rows and no cookie", async () => {
      const { config } = dbConfig(adapter, [credentialsProvider()])
      const jar = new CookieJar()
      const csrfToken = await fetchCsrf(config, jar)
      const res = await Auth(
        postForm(
          "/auth/callback/credentials",
          { csrfToken, username: "alice", password: "nope" },
          { cookie: jar.header() },
        ),
        config,
      )
      expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials`)
      expect(setsSession(res)).toBe(false)
      expect(await backend.counts()).toEqual({ users: 0, accounts: 0, sessions: 0 })
    })
  })
})

// ---------------------------------------------------------------------------------------------------------
// Drop-in parity: an Auth.js adapter from npm (@auth/pg-adapter) on PGlite, with the schema from the Auth.js docs
// (SERIAL ids, so users come back with numeric `id`s, as with node-postgres in production).

const AUTHJS_PG_SCHEMA = `
CREATE TABLE verification_token (identifier TEXT NOT NULL, expires TIMESTAMPTZ NOT NULL, token TEXT NOT NULL, PRIMARY KEY (identifier, token));
CREATE TABLE accounts (id SERIAL, "userId" INTEGER NOT NULL, type VARCHAR(255) NOT NULL, provider VARCHAR(255) NOT NULL,
  "providerAccountId" VARCHAR(255) NOT NULL, refresh_token TEXT, access_token TEXT, expires_at BIGINT, id_token TEXT, scope TEXT,
  session_state TEXT, token_type TEXT, PRIMARY KEY (id));
CREATE TABLE sessions (id SERIAL, "userId" INTEGER NOT NULL, expires TIMESTAMPTZ NOT NULL, "sessionToken" VARCHAR(255) NOT NULL, PRIMARY KEY (id));
CREATE TABLE users (id SERIAL, name VARCHAR(255), email VARCHAR(255), "emailVerified" TIMESTAMPTZ, image TEXT, PRIMARY KEY (id));
`

describe("drop-in: @auth/pg-adapter (Auth.js adapter, numeric ids) on PGlite", () => {
  it("OAuth sign-in, /session, second sign-in and sign-out work with an adapter that returns numeric user ids", async () => {
    const { PGlite } = await import("@electric-sql/pglite")
    const PostgresAdapter = (await import("@auth/pg-adapter")).default
    const db = new PGlite()
    try {
      await db.exec(AUTHJS_PG_SCHEMA)
      // node-postgres' result shape (rowCount) over PGlite.
      const client = {
        query: async (sql: string, params?: unknown[]) => {
          const r = await db.query<Record<string, unknown>>(sql, params)
          return { rows: r.rows, rowCount: r.rows.length || (r.affectedRows ?? 0) }
        },
      }
      const adapter = PostgresAdapter(client as never) as unknown as Adapter
      const idp = createIdp("idp", OLIVIA)
      const { config, rec } = dbConfig(adapter, [idp.provider()])
      const { jar, location } = await oauthSignIn(config, idp)
      expect(location).toBe(ORIGIN)
      const count = async (t: string) =>
        Number((await db.query<{ n: number }>(`select count(*)::int as n from ${t}`)).rows[0]!.n)
      expect([await count("users"), await count("accounts"), await count("sessions")]).toEqual([1, 1, 1])
      const session = await getSession(config, jar)
      expect(session.body, "a valid session whose user id is a number (SERIAL) must be served").toMatchObject({
        user: { email: "olivia@example.com" },
      })
      expect(clearsSession(session.res)).toBe(false)
      const again = await oauthSignIn(config, idp)
      expect(again.location).toBe(ORIGIN)
      expect([await count("users"), await count("accounts"), await count("sessions")]).toEqual([1, 1, 2])
      const out = await signOutReq(config, again.jar)
      expect(clearsSession(out)).toBe(true)
      expect(await count("sessions")).toBe(1)
      expect(rec.errors).toEqual([])
    } finally {
      await db.close()
    }
  })
})
