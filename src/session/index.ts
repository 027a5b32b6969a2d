// The session layer's entry: after a verified sign-in, link the account (adapter) and create the session — the single
// place sessions are created, for both strategies.
import type { AdapterUser } from "../adapters/index.js"
import type { GuardedAdapter } from "../adapters/guard.js"
import { type LinkOutcome, emitLinkEvents, isRetryableLinkError, linkAccount, rollback } from "../account/link.js"
import type { ResolvedConfig } from "../config/resolve.js"
import type { VerifiedIdentity } from "../flows/credentials.js"
import type { AuthRequest } from "../request/parse.js"
import type { Cookie, JWT } from "../types.js"
import { readChunked } from "./cookie-store.js"
import { createDatabaseSession, readDatabaseSession } from "./database.js"
import { clearJwtSession, issueJwtSession, readJwtSession } from "./jwt.js"
import { sessionAccountOf } from "./refresh.js"

/** The outcome of establishing a session. */
export interface Established {
  cookies: Cookie[]
  user: VerifiedIdentity["user"] | AdapterUser
  isNewUser: boolean
}

/** Encrypts the JWT session: default token `{name, email, picture, sub}`, then the `jwt` callback (null clears the session). */
async function issueJwt(identity: VerifiedIdentity, user: { id: string; name?: string | null; email?: string | null; image?: string | null }, isNewUser: boolean, req: AuthRequest, config: ResolvedConfig): Promise<Cookie[]> {
  const { account, profile } = identity
  const seen = readChunked(req.cookies, config.cookies(req.secure).sessionToken.name).names
  let token: JWT | null = { name: user.name, email: user.email, picture: user.image, sub: String(user.id) }
  const provider = config.providers.get(account.provider)
  if (provider && (provider.type === "oauth" || provider.type === "oidc") && provider.refreshAccessToken) {
    const kept = sessionAccountOf(account)
    if (kept) token.account = kept
  }
  const callback = config.callbacks.jwt
  if (callback) {
    token = await callback({ token, user: user as VerifiedIdentity["user"], account, ...(profile ? { profile } : {}), isNewUser, trigger: isNewUser ? "signUp" : "signIn" })
  }
  if (!token) return clearJwtSession(req, config, seen)
  return (await issueJwtSession(token, req, config, seen)).cookies
}

/** The user already signed in on this browser, if any (to link a new account to). */
async function currentUser(adapter: GuardedAdapter, req: AuthRequest, config: ResolvedConfig): Promise<AdapterUser | undefined> {
  if (config.session.strategy === "database") {
    const read = await readDatabaseSession(req, config)
    return read.status === "valid" ? read.user : undefined
  }
  const read = await readJwtSession(req, config)
  if (read.status !== "valid" || typeof read.token.sub !== "string") return undefined
  return (await adapter.getUser(read.token.sub)) ?? undefined
}

/**
 * Concurrent first sign-ins of one provider account in this process share one link (R9: one user, one account).
 * Keyed per adapter, so two configs with different stores never share a result.
 */
const inflightLinks = new WeakMap<object, Map<string, Promise<LinkOutcome>>>()

/** Attempts before giving up on a unique-constraint race with another process. */
const LINK_ATTEMPTS = 3

async function linkWithRecovery(adapter: GuardedAdapter, identity: VerifiedIdentity, signedIn: AdapterUser | undefined, config: ResolvedConfig): Promise<LinkOutcome> {
  const attempt = async (): Promise<LinkOutcome> => {
    if (adapter.transaction) return adapter.transaction((tx) => linkAccount(tx, identity, signedIn, config))
    const writes: Partial<LinkOutcome> = {}
    try {
      return await linkAccount(adapter, identity, signedIn, config, writes)
    } catch (error) {
      await rollback(adapter, writes, config)
      throw error
    }
  }
  for (let i = 1; ; i++) {
    try {
      return await attempt()
    } catch (error) {
      // A concurrent sign-in (maybe another process) created the same user or account: look again shortly.
      if (!isRetryableLinkError(error) || i >= LINK_ATTEMPTS) throw error
      config.logger.debug("link: retrying after a conflicting write", { provider: identity.account.provider, attempt: i })
      await new Promise((resolve) => setTimeout(resolve, 25 * i))
    }
  }
}

/** Links once per (adapter, provider account) at a time; a waiter whose shared attempt failed tries on its own. */
async function linkDeduped(adapter: GuardedAdapter, identity: VerifiedIdentity, signedIn: AdapterUser | undefined, config: ResolvedConfig): Promise<LinkOutcome> {
  if (signedIn) return linkWithRecovery(adapter, identity, signedIn, config)
  let perAdapter = inflightLinks.get(adapter.raw)
  if (!perAdapter) inflightLinks.set(adapter.raw, (perAdapter = new Map()))
  const key = `${identity.account.provider}\u0000${identity.account.providerAccountId}`
  const shared = perAdapter.get(key)
  if (shared) {
    const outcome = await shared.catch(() => undefined)
    if (outcome) return { user: outcome.user, isNewUser: false }
    return linkWithRecovery(adapter, identity, signedIn, config)
  }
  const pending = linkWithRecovery(adapter, identity, signedIn, config)
  perAdapter.set(key, pending)
  try {
    return await pending
  } finally {
    perAdapter.delete(key)
  }
}

/**
 * Establishes the session for a verified identity whose sign-in the `signIn` callback allowed: with an adapter,
 * links the account (in a transaction when the adapter offers one, else with rollback of this sign-in's writes) and,
 * for the database strategy, creates the session row; without one, issues the JWT from the provider's user.
 */
export async function establishSession(identity: VerifiedIdentity, req: AuthRequest, config: ResolvedConfig): Promise<Established> {
  const adapter = config.adapter
  const database = config.session.strategy === "database"
  const isCredentials = identity.account.type === "credentials"
  if (!adapter || (isCredentials && !database)) {
    return { cookies: await issueJwt(identity, identity.user, false, req, config), user: identity.user, isNewUser: false }
  }
  let outcome: LinkOutcome
  if (isCredentials) {
    // Credentials with database sessions: the user `authorize` returned must be (or becomes) a row of the adapter.
    // Adapters that assign their own ids (SERIAL) will not know authorize's id: fall back to the e-mail.
    const email = typeof identity.user.email === "string" && identity.user.email !== "" ? identity.user.email : undefined
    const existing = (await adapter.getUser(identity.user.id)) ?? (email ? await adapter.getUserByEmail(email) : null)
    if (existing) outcome = { user: existing, isNewUser: false }
    else {
      const { id, name, email, image } = identity.user
      const created = await adapter.createUser({ id, name: name ?? null, email: email ?? null, image: image ?? null, emailVerified: null } as unknown as AdapterUser)
      outcome = { user: created, isNewUser: true, createdUser: created }
    }
  } else {
    const signedIn = await currentUser(adapter, req, config)
    outcome = await linkDeduped(adapter, identity, signedIn, config)
  }
  let cookies: Cookie[]
  try {
    if (database) cookies = [(await createDatabaseSession(adapter, req, config, outcome.user.id)).cookie]
    else cookies = await issueJwt(identity, outcome.user as VerifiedIdentity["user"], outcome.isNewUser, req, config)
  } catch (error) {
    await rollback(adapter, outcome, config)
    throw error
  }
  await emitLinkEvents(outcome, identity, config)
  return { cookies, user: outcome.user, isNewUser: outcome.isNewUser }
}
