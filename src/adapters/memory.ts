// In-memory adapter for tests and the demo: the whole Adapter interface on Maps, with the same uniqueness rules as the SQL schema.
import { AdapterError } from "../errors.js"
import type {
  Adapter,
  AdapterAccount,
  AdapterAuthenticator,
  AdapterSession,
  AdapterUser,
  VerificationToken,
} from "./index.js"

/** The adapter plus its tables, for inspection in tests. */
export interface MemoryAdapter extends Adapter {
  readonly users: Map<string, AdapterUser>
  readonly accounts: Map<string, AdapterAccount>
  readonly sessions: Map<string, AdapterSession>
  readonly verificationTokens: Map<string, VerificationToken>
  readonly authenticators: Map<string, AdapterAuthenticator>
}

const accountKey = (provider: string, providerAccountId: string) => `${provider}\u0000${providerAccountId}`
const tokenKey = (identifier: string, token: string) => `${identifier}\u0000${token}`
const copy = <T extends object>(value: T): T => structuredClone(value)

/** Creates an empty in-memory adapter. Data lives as long as the returned object. */
export function MemoryAdapter(): MemoryAdapter {
  const users = new Map<string, AdapterUser>()
  const accounts = new Map<string, AdapterAccount>()
  const sessions = new Map<string, AdapterSession>()
  const verificationTokens = new Map<string, VerificationToken>()
  const authenticators = new Map<string, AdapterAuthenticator>()
  const userByEmail = (email: string) => [...users.values()].find((u) => u.email === email)

  return {
    users,
    accounts,
    sessions,
    verificationTokens,
    authenticators,
    async createUser(user) {
      const id = user.id ?? crypto.randomUUID()
      if (users.has(id)) throw new AdapterError(`createUser: a user with id "${id}" already exists.`)
      if (user.email && userByEmail(user.email))
        throw new AdapterError(`createUser: another user already has the email "${user.email}".`)
      const stored = { ...copy(user), id }
      users.set(id, stored)
      return copy(stored)
    },
    async getUser(id) {
      const user = users.get(id)
      return user ? copy(user) : null
    },
    async getUserByEmail(email) {
      const user = userByEmail(email)
      return user ? copy(user) : null
    },
    async getUserByAccount({ provider, providerAccountId }) {
      const account = accounts.get(accountKey(provider, providerAccountId))
      const user = account ? users.get(account.userId) : undefined
      return user ? copy(user) : null
    },
    async updateUser(patch) {
      const user = users.get(patch.id)
      if (!user) throw new AdapterError(`updateUser: there is no user with id "${patch.id}".`)
      if (patch.email && patch.email !== user.email && userByEmail(patch.email))
        throw new AdapterError(`updateUser: another user already has the email "${patch.email}".`)
      const updated = { ...user, ...copy(patch) }
      users.set(patch.id, updated)
      return copy(updated)
    },
    async deleteUser(id) {
      const user = users.get(id)
      users.delete(id)
      for (const [k, a] of accounts) if (a.userId === id) accounts.delete(k)
      for (const [k, s] of sessions) if (s.userId === id) sessions.delete(k)
      for (const [k, a] of authenticators) if (a.userId === id) authenticators.delete(k)
      return user ? copy(user) : null
    },
    async linkAccount(account) {
      const key = accountKey(account.provider, account.providerAccountId)
      if (accounts.has(key))
        throw new AdapterError(
          `linkAccount: the ${account.provider} account "${account.providerAccountId}" is already linked.`,
        )
      if (!users.has(account.userId))
        throw new AdapterError(`linkAccount: there is no user with id "${account.userId}"; create the user first.`)
      accounts.set(key, copy(account))
      return copy(account)
    },
    async unlinkAccount({ provider, providerAccountId }) {
      const key = accountKey(provider, providerAccountId)
      const account = accounts.get(key)
      accounts.delete(key)
      return account ? copy(account) : undefined
    },
    async createSession(session) {
      if (sessions.has(session.sessionToken))
        throw new AdapterError("createSession: a session with this token already exists.")
      if (!users.has(session.userId))
        throw new AdapterError(`createSession: there is no user with id "${session.userId}"; create the user first.`)
      sessions.set(session.sessionToken, copy(session))
      return copy(session)
    },
    async getSessionAndUser(sessionToken) {
      const session = sessions.get(sessionToken)
      const user = session ? users.get(session.userId) : undefined
      return session && user ? { session: copy(session), user: copy(user) } : null
    },
    async updateSession(patch) {
      const session = sessions.get(patch.sessionToken)
      if (!session) return null
      const updated = { ...session, ...copy(patch) }
      sessions.set(patch.sessionToken, updated)
      return copy(updated)
    },
    async deleteSession(sessionToken) {
      const session = sessions.get(sessionToken)
      sessions.delete(sessionToken)
      return session ? copy(session) : null
    },
    async createVerificationToken(token) {
      verificationTokens.set(tokenKey(token.identifier, token.token), copy(token))
      return copy(token)
    },
    async useVerificationToken({ identifier, token }) {
      const key = tokenKey(identifier, token)
      const found = verificationTokens.get(key)
      verificationTokens.delete(key)
      return found ? copy(found) : null
    },
    async getAccount(providerAccountId, provider) {
      const account = accounts.get(accountKey(provider, providerAccountId))
      return account ? copy(account) : null
    },
    async getAuthenticator(credentialID) {
      const found = authenticators.get(credentialID)
      return found ? copy(found) : null
    },
    async createAuthenticator(authenticator) {
      if (authenticators.has(authenticator.credentialID))
        throw new AdapterError(
          `createAuthenticator: an authenticator with credentialID "${authenticator.credentialID}" already exists.`,
        )
      if (!users.has(authenticator.userId))
        throw new AdapterError(
          `createAuthenticator: there is no user with id "${authenticator.userId}"; create the user first.`,
        )
      authenticators.set(authenticator.credentialID, copy(authenticator))
      return copy(authenticator)
    },
    async listAuthenticatorsByUserId(userId) {
      return [...authenticators.values()].filter((a) => a.userId === userId).map(copy)
    },
    async updateAuthenticatorCounter(credentialID, counter) {
      const found = authenticators.get(credentialID)
      if (!found)
        throw new AdapterError(
          `updateAuthenticatorCounter: there is no authenticator with credentialID "${credentialID}".`,
        )
      found.counter = counter
      return copy(found)
    },
    async deleteAuthenticator(credentialID) {
      const found = authenticators.get(credentialID)
      authenticators.delete(credentialID)
      return found ? copy(found) : null
    },
  }
}
export default MemoryAdapter
