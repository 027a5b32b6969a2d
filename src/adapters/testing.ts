// Adapter conformance suite for vitest: registers one describe block that checks every Adapter method against the contract the core relies on.
import { afterAll, assert, beforeAll, describe, expect, it } from "vitest"
import type { Adapter, AdapterAccount, AdapterAuthenticator, AdapterUser } from "./index.js"

/** Options of {@link runAdapterConformanceSuite}. */
export interface AdapterConformanceOptions {
  /** Shown in the describe title, e.g. "postgres (PGlite)". */
  name: string
  /** Creates the adapter under test, once, before the first test; its tables must exist and may be empty. */
  adapter: () => Adapter | Promise<Adapter>
  /** Runs once after the last test: close the pool, drop the schema. */
  cleanup?: () => void | Promise<void>
  /**
   * Checks to leave out, by check id (shown in brackets in each title, e.g. "unique:email"), by method
   * name (every check that calls it) or by tag ("webauthn"). A method the adapter lacks fails the checks
   * that need it unless it is skipped here, so a gap is always a decision, never an accident.
   */
  skip?: string[]
  /** Callers racing for one verification token in the big single-use check (default 20). */
  concurrency?: number
}

type Method = Exclude<keyof Adapter, symbol>
type FullAdapter = Required<Adapter>

interface Check {
  id: string
  group: string
  title: string
  needs: Method[]
  /** Methods an adapter may lack (Gatehouse extensions): without them the check is skipped, not failed. */
  optional?: Method[]
  tags?: string[]
  run: (adapter: FullAdapter, options: Required<Pick<AdapterConformanceOptions, "concurrency">>) => Promise<void>
}

const DAY = 24 * 60 * 60 * 1000
const unique = (): string => crypto.randomUUID().slice(0, 8)
/** A future instant with a millisecond part, so a store that drops milliseconds is noticed. */
const future = (ms = DAY): Date => new Date(Math.floor((Date.now() + ms) / 1000) * 1000 + 321)
const has = (adapter: Adapter, method: Method): boolean => typeof adapter[method] === "function"

/** Ids are compared as strings: some stores return numbers (see the "ids:string" check). */
function expectSameId(actual: unknown, expected: unknown): void {
  expect(String(actual)).toBe(String(expected))
}

function expectSameDate(actual: unknown, expected: Date): void {
  expect(actual).toBeInstanceOf(Date)
  expect((actual as Date).valueOf()).toBe(expected.valueOf())
}

/**
 * Passes when `fn` throws or rejects with anything: drivers differ in what they throw on a constraint.
 * The suite's own failures are vitest assertion failures (assert.fail), as a failed `expect` is, never library errors.
 */
async function expectFailure(what: string, fn: () => unknown): Promise<void> {
  try {
    await fn()
  } catch {
    return
  }
  assert.fail(`Expected ${what} to fail, but it succeeded.`)
}

function newUser(adapter: FullAdapter, patch: Partial<AdapterUser> = {}): Promise<AdapterUser> {
  const tag = unique()
  return Promise.resolve(
    adapter.createUser({
      id: crypto.randomUUID(), // the core proposes an id; a store may keep it or assign its own
      name: `User ${tag}`,
      email: `user-${tag}@example.com`,
      emailVerified: null,
      image: `https://img.example/${tag}.png`,
      ...patch,
    }),
  )
}

function newAccount(userId: string, patch: Partial<AdapterAccount> = {}): AdapterAccount {
  const tag = unique()
  return {
    userId,
    type: "oauth",
    provider: "github",
    providerAccountId: `gh-${tag}`,
    access_token: `at-${tag}`,
    refresh_token: `rt-${tag}`,
    expires_at: Math.floor(Date.now() / 1000) + 3600,
    token_type: "bearer",
    scope: "read:user user:email",
    id_token: `idt-${tag}`,
    session_state: `ss-${tag}`,
    ...patch,
  }
}

const base64 = (text: string): string => btoa(text)

/** An authenticator as the WebAuthn flow stores it: credentialID and public key base64, providerAccountId the credentialID. */
function newAuthenticator(userId: string, patch: Partial<AdapterAuthenticator> = {}): AdapterAuthenticator {
  const credentialID = base64(`cred-${crypto.randomUUID()}`)
  return {
    credentialID,
    userId,
    providerAccountId: credentialID,
    credentialPublicKey: base64(`pk-${crypto.randomUUID()}-${unique()}`),
    counter: 0,
    credentialDeviceType: "singleDevice",
    credentialBackedUp: false,
    transports: "internal,hybrid",
    ...patch,
  }
}

/** Every field of `expected`, userId compared as a string; transports absent and null count as the same. */
function expectSameAuthenticator(
  actual: AdapterAuthenticator | null | undefined,
  expected: AdapterAuthenticator,
): void {
  expect(actual).toBeTruthy()
  const { userId, transports, ...rest } = expected
  expect(actual).toMatchObject(rest)
  expectSameId(actual?.userId, userId)
  expect(typeof actual?.counter).toBe("number")
  expect(actual?.transports ?? null).toBe(transports ?? null)
}

async function newSession(adapter: FullAdapter, userId: string) {
  const session = { sessionToken: crypto.randomUUID(), userId, expires: future() }
  await adapter.createSession(session)
  return session
}

const checks: Check[] = [
  // ---- users ----
  {
    id: "createUser",
    group: "users",
    title: "createUser returns the stored user with an id and its fields",
    needs: ["createUser"],
    run: async (a) => {
      const emailVerified = future(-DAY)
      const user = await newUser(a, { name: "Ada", email: `ada-${unique()}@example.com`, emailVerified })
      expect(user.id).toBeTruthy()
      expect(user.name).toBe("Ada")
      expect(user.email).toMatch(/^ada-/)
      expect(user.image).toMatch(/^https:\/\/img\.example\//)
      expectSameDate(user.emailVerified, emailVerified)
    },
  },
  {
    id: "ids:string",
    group: "users",
    title: "user ids and session userIds are strings",
    needs: ["createUser", "getUser"],
    run: async (a) => {
      const user = await newUser(a)
      expect(typeof user.id).toBe("string")
      expect(typeof (await a.getUser(user.id))?.id).toBe("string")
      if (has(a, "createSession") && has(a, "getSessionAndUser")) {
        const { sessionToken } = await newSession(a, user.id)
        const found = await a.getSessionAndUser(sessionToken)
        expect(typeof found?.session.userId).toBe("string")
        expect(typeof found?.user.id).toBe("string")
      }
    },
  },
  {
    id: "getUser",
    group: "users",
    title: "getUser finds a user by id, with dates as Date",
    needs: ["createUser", "getUser"],
    run: async (a) => {
      const emailVerified = future(-DAY)
      const user = await newUser(a, { emailVerified })
      const found = await a.getUser(user.id)
      expectSameId(found?.id, user.id)
      expect(found?.email).toBe(user.email)
      expect(found?.name).toBe(user.name)
      expectSameDate(found?.emailVerified, emailVerified)
    },
  },
  {
    id: "getUser:unknown",
    group: "users",
    title: "getUser returns null for an id no user has",
    needs: ["getUser"],
    run: async (a) => {
      expect(await a.getUser(crypto.randomUUID())).toBeNull()
    },
  },
  {
    id: "getUser:foreign-id-format",
    group: "users",
    title: "getUser returns null (does not throw) for ids of another format",
    needs: ["getUser"],
    run: async (a) => {
      expect(await a.getUser("2147483000")).toBeNull()
      expect(await a.getUser("not-an-id")).toBeNull()
    },
  },
  {
    id: "emailVerified:null",
    group: "users",
    title: "emailVerified null round-trips as null",
    needs: ["createUser", "getUser"],
    run: async (a) => {
      const user = await newUser(a, { emailVerified: null })
      expect(user.emailVerified).toBeNull()
      expect((await a.getUser(user.id))?.emailVerified).toBeNull()
    },
  },
  {
    id: "getUserByEmail",
    group: "users",
    title: "getUserByEmail finds the user; an unknown e-mail gives null",
    needs: ["createUser", "getUserByEmail"],
    run: async (a) => {
      const user = await newUser(a)
      expectSameId((await a.getUserByEmail(user.email))?.id, user.id)
      expect(await a.getUserByEmail(`nobody-${unique()}@example.com`)).toBeNull()
    },
  },
  {
    id: "updateUser",
    group: "users",
    title: "updateUser changes only the given fields and returns the user",
    needs: ["createUser", "getUser", "updateUser"],
    run: async (a) => {
      const user = await newUser(a)
      const renamed = await a.updateUser({ id: user.id, name: "Renamed" })
      expectSameId(renamed.id, user.id)
      expect(renamed.name).toBe("Renamed")
      expect(renamed.email).toBe(user.email)
      const emailVerified = future(-1000)
      const verified = await a.updateUser({ id: user.id, emailVerified })
      expectSameDate(verified.emailVerified, emailVerified)
      const found = await a.getUser(user.id)
      expect(found?.name).toBe("Renamed")
      expect(found?.email).toBe(user.email)
      expect(found?.image).toBe(user.image)
      expectSameDate(found?.emailVerified, emailVerified)
    },
  },
  {
    id: "deleteUser",
    group: "users",
    title: "deleteUser removes the user with its sessions and accounts",
    needs: [
      "createUser",
      "getUser",
      "deleteUser",
      "linkAccount",
      "getUserByAccount",
      "createSession",
      "getSessionAndUser",
    ],
    run: async (a) => {
      const user = await newUser(a)
      const account = newAccount(user.id)
      await a.linkAccount(account)
      const { sessionToken } = await newSession(a, user.id)
      const bystander = await newUser(a)
      const bystanderSession = await newSession(a, bystander.id)
      await a.deleteUser(user.id)
      expect(await a.getUser(user.id)).toBeNull()
      expect(await a.getSessionAndUser(sessionToken)).toBeNull()
      expect(await a.getUserByAccount(account)).toBeNull()
      if (has(a, "getAccount")) expect(await a.getAccount(account.providerAccountId, account.provider)).toBeNull()
      expectSameId((await a.getSessionAndUser(bystanderSession.sessionToken))?.user.id, bystander.id)
    },
  },
  {
    id: "unique:email",
    group: "users",
    title: "createUser with an e-mail already taken fails",
    needs: ["createUser"],
    run: async (a) => {
      const user = await newUser(a)
      await expectFailure("a second user with the same e-mail", () => newUser(a, { email: user.email }))
    },
  },

  // ---- accounts ----
  {
    id: "linkAccount",
    group: "accounts",
    title: "linkAccount makes the user findable by (provider, providerAccountId)",
    needs: ["createUser", "linkAccount", "getUserByAccount"],
    run: async (a) => {
      const user = await newUser(a)
      const account = newAccount(user.id)
      const linked = await a.linkAccount(account)
      if (linked) {
        expect(linked.providerAccountId).toBe(account.providerAccountId)
        expect(linked.expires_at).toBe(account.expires_at)
      }
      expectSameId((await a.getUserByAccount(account))?.id, user.id)
      expect(await a.getUserByAccount({ provider: "github", providerAccountId: `none-${unique()}` })).toBeNull()
    },
  },
  {
    id: "getAccount",
    group: "accounts",
    title: "getAccount returns every token field, expires_at as a number of seconds",
    needs: ["createUser", "linkAccount", "getAccount"],
    run: async (a) => {
      const user = await newUser(a)
      const account = newAccount(user.id, { type: "oidc", provider: "google" })
      await a.linkAccount(account)
      const found = await a.getAccount(account.providerAccountId, account.provider)
      expect(found).toMatchObject({ ...account, userId: expect.anything() })
      expectSameId(found?.userId, user.id)
      expect(typeof found?.expires_at).toBe("number")
      expect(await a.getAccount(`none-${unique()}`, "google")).toBeNull()
    },
  },
  {
    id: "unlinkAccount",
    group: "accounts",
    title: "unlinkAccount removes that account only",
    needs: ["createUser", "linkAccount", "unlinkAccount", "getUserByAccount"],
    run: async (a) => {
      const user = await newUser(a)
      const first = newAccount(user.id)
      const second = newAccount(user.id, { provider: "gitlab" })
      await a.linkAccount(first)
      await a.linkAccount(second)
      await a.unlinkAccount({ provider: first.provider, providerAccountId: first.providerAccountId })
      expect(await a.getUserByAccount(first)).toBeNull()
      expectSameId((await a.getUserByAccount(second))?.id, user.id)
    },
  },
  {
    id: "unique:account",
    group: "accounts",
    title: "linking an account already linked (same provider and id) fails, even for another user",
    needs: ["createUser", "linkAccount"],
    run: async (a) => {
      const owner = await newUser(a)
      const other = await newUser(a)
      const account = newAccount(owner.id)
      await a.linkAccount(account)
      await expectFailure("a second account with the same (provider, providerAccountId)", () =>
        a.linkAccount({ ...account, userId: other.id }),
      )
    },
  },
  {
    id: "account:provider-scope",
    group: "accounts",
    title: "the same providerAccountId under two providers is two accounts",
    needs: ["createUser", "linkAccount", "getUserByAccount"],
    run: async (a) => {
      const one = await newUser(a)
      const two = await newUser(a)
      const providerAccountId = `shared-${unique()}`
      await a.linkAccount(newAccount(one.id, { provider: "github", providerAccountId }))
      await a.linkAccount(newAccount(two.id, { provider: "gitlab", providerAccountId }))
      expectSameId((await a.getUserByAccount({ provider: "github", providerAccountId }))?.id, one.id)
      expectSameId((await a.getUserByAccount({ provider: "gitlab", providerAccountId }))?.id, two.id)
    },
  },

  // ---- sessions ----
  {
    id: "createSession",
    group: "sessions",
    title: "createSession returns the session with expires as a Date",
    needs: ["createUser", "createSession"],
    run: async (a) => {
      const user = await newUser(a)
      const input = { sessionToken: crypto.randomUUID(), userId: user.id, expires: future() }
      const session = await a.createSession(input)
      expect(session.sessionToken).toBe(input.sessionToken)
      expectSameId(session.userId, user.id)
      expectSameDate(session.expires, input.expires)
    },
  },
  {
    id: "getSessionAndUser",
    group: "sessions",
    title: "getSessionAndUser returns the session and its user; an unknown token gives null",
    needs: ["createUser", "createSession", "getSessionAndUser"],
    run: async (a) => {
      const user = await newUser(a)
      const session = await newSession(a, user.id)
      const found = await a.getSessionAndUser(session.sessionToken)
      expect(found?.session.sessionToken).toBe(session.sessionToken)
      expectSameId(found?.session.userId, user.id)
      expectSameDate(found?.session.expires, session.expires)
      expectSameId(found?.user.id, user.id)
      expect(found?.user.email).toBe(user.email)
      expect(await a.getSessionAndUser(crypto.randomUUID())).toBeNull()
    },
  },
  {
    id: "updateSession",
    group: "sessions",
    title: "updateSession moves expires",
    needs: ["createUser", "createSession", "updateSession", "getSessionAndUser"],
    run: async (a) => {
      const user = await newUser(a)
      const session = await newSession(a, user.id)
      const expires = future(30 * DAY)
      const updated = await a.updateSession({ sessionToken: session.sessionToken, expires })
      if (updated) expectSameDate(updated.expires, expires)
      expectSameDate((await a.getSessionAndUser(session.sessionToken))?.session.expires, expires)
    },
  },
  {
    id: "updateSession:unknown",
    group: "sessions",
    title: "updateSession of an unknown token returns null or undefined",
    needs: ["updateSession"],
    run: async (a) => {
      expect(await a.updateSession({ sessionToken: crypto.randomUUID(), expires: future() })).toBeFalsy()
    },
  },
  {
    id: "deleteSession",
    group: "sessions",
    title: "deleteSession ends the session; deleting an unknown token is not an error",
    needs: ["createUser", "createSession", "deleteSession", "getSessionAndUser"],
    run: async (a) => {
      const user = await newUser(a)
      const session = await newSession(a, user.id)
      await a.deleteSession(session.sessionToken)
      expect(await a.getSessionAndUser(session.sessionToken)).toBeNull()
      await a.deleteSession(crypto.randomUUID())
    },
  },
  {
    id: "unique:sessionToken",
    group: "sessions",
    title: "createSession with a token already in use fails",
    needs: ["createUser", "createSession"],
    run: async (a) => {
      const user = await newUser(a)
      const session = await newSession(a, user.id)
      await expectFailure("a second session with the same token", () =>
        a.createSession({ ...session, expires: future(2 * DAY) }),
      )
    },
  },

  // ---- verification tokens ----
  {
    id: "verificationToken",
    group: "verification tokens",
    title: "a verification token is returned once, with expires as a Date; the second use gives null",
    needs: ["createVerificationToken", "useVerificationToken"],
    run: async (a) => {
      const input = { identifier: `v-${unique()}@example.com`, token: crypto.randomUUID(), expires: future(600_000) }
      const created = await a.createVerificationToken(input)
      if (created) expect(created).toMatchObject({ identifier: input.identifier, token: input.token })
      const used = await a.useVerificationToken({ identifier: input.identifier, token: input.token })
      expect(used?.identifier).toBe(input.identifier)
      expect(used?.token).toBe(input.token)
      expectSameDate(used?.expires, input.expires)
      expect(await a.useVerificationToken({ identifier: input.identifier, token: input.token })).toBeNull()
    },
  },
  {
    id: "verificationToken:mismatch",
    group: "verification tokens",
    title: "a token is only used with its own identifier",
    needs: ["createVerificationToken", "useVerificationToken"],
    run: async (a) => {
      const input = { identifier: `v-${unique()}@example.com`, token: crypto.randomUUID(), expires: future(600_000) }
      await a.createVerificationToken(input)
      expect(
        await a.useVerificationToken({ identifier: `other-${unique()}@example.com`, token: input.token }),
      ).toBeNull()
      expect(await a.useVerificationToken({ identifier: input.identifier, token: crypto.randomUUID() })).toBeNull()
      expect((await a.useVerificationToken(input))?.token).toBe(input.token)
    },
  },
  {
    id: "verificationToken:expired",
    group: "verification tokens",
    title:
      "an expired token is still returned (with its expires) and deleted, so e-mail sign-in can tell expiry and leaves no row",
    needs: ["createVerificationToken", "useVerificationToken"],
    run: async (a) => {
      const input = {
        identifier: `v-${unique()}@example.com`,
        token: crypto.randomUUID(),
        expires: new Date(Date.now() - 60_000),
      }
      await a.createVerificationToken(input)
      const used = await a.useVerificationToken({ identifier: input.identifier, token: input.token })
      expect(used?.token).toBe(input.token)
      expectSameDate(used?.expires, input.expires)
      expect(await a.useVerificationToken({ identifier: input.identifier, token: input.token })).toBeNull()
    },
  },
  {
    id: "verificationToken:concurrent-2",
    group: "verification tokens",
    title: "two concurrent uses of one token: exactly one wins",
    needs: ["createVerificationToken", "useVerificationToken"],
    run: async (a) => {
      await expectSingleWinner(a, 2)
    },
  },
  {
    id: "verificationToken:concurrent-n",
    group: "verification tokens",
    title: "many concurrent uses of one token: exactly one wins",
    needs: ["createVerificationToken", "useVerificationToken"],
    run: async (a, options) => {
      await expectSingleWinner(a, options.concurrency)
    },
  },

  // ---- WebAuthn authenticators ----
  {
    id: "authenticators",
    group: "authenticators",
    title:
      "createAuthenticator stores every field and getAuthenticator gives it back (credentialID and key as base64, counter as a number)",
    tags: ["webauthn"],
    needs: ["createUser", "createAuthenticator", "getAuthenticator"],
    run: async (a) => {
      const user = await newUser(a)
      const single = newAuthenticator(user.id, {
        counter: 0,
        credentialBackedUp: false,
        credentialDeviceType: "singleDevice",
        transports: "usb,nfc",
      })
      if (has(a, "linkAccount"))
        await a.linkAccount(
          newAccount(user.id, { type: "webauthn", provider: "webauthn", providerAccountId: single.credentialID }),
        )
      const synced = newAuthenticator(user.id, {
        counter: 12,
        credentialBackedUp: true,
        credentialDeviceType: "multiDevice",
        transports: null,
      })
      for (const authenticator of [single, synced]) {
        const created = await a.createAuthenticator(authenticator)
        expectSameAuthenticator(created, authenticator)
        expectSameAuthenticator(await a.getAuthenticator(authenticator.credentialID), authenticator)
      }
    },
  },
  {
    id: "getAuthenticator:unknown",
    group: "authenticators",
    title: "getAuthenticator returns null for a credentialID no authenticator has",
    tags: ["webauthn"],
    needs: ["getAuthenticator"],
    run: async (a) => {
      expect(await a.getAuthenticator(base64(`none-${unique()}`))).toBeNull()
    },
  },
  {
    id: "listAuthenticatorsByUserId",
    group: "authenticators",
    title: "listAuthenticatorsByUserId returns that user's authenticators only; none gives []",
    tags: ["webauthn"],
    needs: ["createUser", "createAuthenticator", "listAuthenticatorsByUserId"],
    run: async (a) => {
      const user = await newUser(a)
      const other = await newUser(a)
      const mine = [
        newAuthenticator(user.id),
        newAuthenticator(user.id, { credentialBackedUp: true, transports: null }),
      ]
      for (const authenticator of mine) await a.createAuthenticator(authenticator)
      await a.createAuthenticator(newAuthenticator(other.id))
      const listed = await a.listAuthenticatorsByUserId(user.id)
      expect(listed.map((x) => x.credentialID).sort()).toEqual(mine.map((x) => x.credentialID).sort())
      for (const authenticator of mine)
        expectSameAuthenticator(
          listed.find((x) => x.credentialID === authenticator.credentialID),
          authenticator,
        )
      expect(await a.listAuthenticatorsByUserId((await newUser(a)).id)).toEqual([])
    },
  },
  {
    id: "updateAuthenticatorCounter",
    group: "authenticators",
    title:
      "updateAuthenticatorCounter returns the updated authenticator and the new counter persists; others keep theirs",
    tags: ["webauthn"],
    needs: ["createUser", "createAuthenticator", "getAuthenticator", "updateAuthenticatorCounter"],
    run: async (a) => {
      const user = await newUser(a)
      const authenticator = newAuthenticator(user.id, { counter: 3 })
      const bystander = newAuthenticator(user.id, { counter: 3 })
      await a.createAuthenticator(authenticator)
      await a.createAuthenticator(bystander)
      const updated = await a.updateAuthenticatorCounter(authenticator.credentialID, 7)
      expectSameAuthenticator(updated, { ...authenticator, counter: 7 })
      expectSameAuthenticator(await a.getAuthenticator(authenticator.credentialID), { ...authenticator, counter: 7 })
      expect((await a.getAuthenticator(bystander.credentialID))?.counter).toBe(3)
    },
  },
  {
    id: "authenticator:counter-uint32",
    group: "authenticators",
    title: "a counter up to 2^32 - 1 (WebAuthn's signCount is 32 bits unsigned) is stored and returned as a number",
    tags: ["webauthn"],
    needs: ["createUser", "createAuthenticator", "getAuthenticator", "updateAuthenticatorCounter"],
    run: async (a) => {
      const user = await newUser(a)
      const authenticator = newAuthenticator(user.id, { counter: 2 ** 31 })
      await a.createAuthenticator(authenticator)
      expect((await a.getAuthenticator(authenticator.credentialID))?.counter).toBe(2 ** 31)
      expect((await a.updateAuthenticatorCounter(authenticator.credentialID, 2 ** 32 - 1)).counter).toBe(2 ** 32 - 1)
      expect((await a.getAuthenticator(authenticator.credentialID))?.counter).toBe(2 ** 32 - 1)
    },
  },
  {
    id: "unique:credentialID",
    group: "authenticators",
    title: "createAuthenticator with a credentialID already registered fails, even for another user",
    tags: ["webauthn"],
    needs: ["createUser", "createAuthenticator", "getAuthenticator"],
    run: async (a) => {
      const user = await newUser(a)
      const other = await newUser(a)
      const authenticator = newAuthenticator(user.id, {
        credentialBackedUp: true,
        credentialDeviceType: "multiDevice",
        transports: null,
      })
      await a.createAuthenticator(authenticator)
      await expectFailure("a second authenticator with the same credentialID", () =>
        a.createAuthenticator(authenticator),
      )
      await expectFailure("the same credentialID for another user", () =>
        a.createAuthenticator({ ...newAuthenticator(other.id), credentialID: authenticator.credentialID }),
      )
      expectSameAuthenticator(await a.getAuthenticator(authenticator.credentialID), authenticator)
    },
  },
  {
    id: "deleteAuthenticator",
    group: "authenticators",
    title:
      "deleteAuthenticator (Gatehouse extension, checked when implemented) removes that authenticator only; an unknown id is not an error",
    tags: ["webauthn"],
    needs: ["createUser", "createAuthenticator", "getAuthenticator", "listAuthenticatorsByUserId"],
    optional: ["deleteAuthenticator"],
    run: async (a) => {
      const user = await newUser(a)
      const removed = newAuthenticator(user.id)
      const kept = newAuthenticator(user.id)
      await a.createAuthenticator(removed)
      await a.createAuthenticator(kept)
      const result = await a.deleteAuthenticator(removed.credentialID)
      if (result) expectSameAuthenticator(result, removed)
      expect(await a.getAuthenticator(removed.credentialID)).toBeNull()
      expect((await a.listAuthenticatorsByUserId(user.id)).map((x) => x.credentialID)).toEqual([kept.credentialID])
      expect(await a.deleteAuthenticator(base64(`none-${unique()}`))).toBeFalsy()
    },
  },
  {
    id: "deleteUser:authenticators",
    group: "authenticators",
    title: "deleteUser removes the user's authenticators; other users' stay",
    tags: ["webauthn"],
    needs: ["createUser", "deleteUser", "createAuthenticator", "getAuthenticator", "listAuthenticatorsByUserId"],
    run: async (a) => {
      const user = await newUser(a)
      const bystander = await newUser(a)
      const authenticator = newAuthenticator(user.id)
      const theirs = newAuthenticator(bystander.id)
      await a.createAuthenticator(authenticator)
      await a.createAuthenticator(theirs)
      await a.deleteUser(user.id)
      expect(await a.getAuthenticator(authenticator.credentialID)).toBeNull()
      expect(await a.listAuthenticatorsByUserId(user.id)).toEqual([])
      expectSameAuthenticator(await a.getAuthenticator(theirs.credentialID), theirs)
    },
  },
]

/** Creates one token, races `callers` uses of it, and expects exactly one to get it. */
async function expectSingleWinner(a: FullAdapter, callers: number): Promise<void> {
  const input = { identifier: `race-${unique()}@example.com`, token: crypto.randomUUID(), expires: future(600_000) }
  await a.createVerificationToken(input)
  const results = await Promise.all(
    Array.from({ length: callers }, () => Promise.resolve(a.useVerificationToken(input))),
  )
  expect(results.filter((r) => r !== null && r !== undefined)).toHaveLength(1)
}

/** Every id, method and tag `skip` accepts. */
export const conformanceCheckIds: readonly string[] = checks.map((c) => c.id)

/**
 * Registers the conformance suite for one adapter with vitest (call it at the top level of a test file).
 * Checks share one adapter and never assume an empty store, so they may run against a live schema.
 */
export function runAdapterConformanceSuite(options: AdapterConformanceOptions): void {
  const skip = new Set(options.skip ?? [])
  const known = new Set(checks.flatMap((c) => [c.id, ...c.needs, ...(c.optional ?? []), ...(c.tags ?? [])]))
  const typos = [...skip].filter((entry) => !known.has(entry))
  if (typos.length)
    assert.fail(
      `runAdapterConformanceSuite: unknown skip entries ${typos.join(", ")}; use a check id, method name or tag.`,
    )
  const settings = { concurrency: options.concurrency ?? 20 }
  let adapter: Adapter | undefined

  describe(`adapter conformance: ${options.name}`, () => {
    beforeAll(async () => {
      adapter = await options.adapter()
    })
    afterAll(async () => {
      await options.cleanup?.()
    })
    for (const group of new Set(checks.map((c) => c.group))) {
      describe(group, () => {
        for (const check of checks.filter((c) => c.group === group)) {
          const title = `${check.title} [${check.id}]`
          const skipped = [check.id, ...check.needs, ...(check.optional ?? []), ...(check.tags ?? [])].some((entry) =>
            skip.has(entry),
          )
          if (skipped) {
            it.skip(title, () => undefined)
            continue
          }
          it(title, async (context) => {
            if (!adapter) assert.fail("The adapter factory did not produce an adapter.")
            const missing = check.needs.filter((method) => !has(adapter!, method))
            if (missing.length) {
              assert.fail(
                `The adapter does not implement ${missing.join(", ")}. If that is intended, pass skip: ${JSON.stringify(missing)}.`,
              )
            }
            const absent = (check.optional ?? []).filter((method) => !has(adapter!, method))
            if (absent.length) return context.skip(`the adapter does not implement ${absent.join(", ")} (optional)`)
            await check.run(adapter as FullAdapter, settings)
          })
        }
      })
    }
  })
}
