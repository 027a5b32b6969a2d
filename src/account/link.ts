// The one place where users and accounts are found, created or linked, and where the signIn callback decides
// (docs/wire-format.md §8.4). Every flow's verified identity goes through linkIdentity(); it dedupes concurrent first
// sign-ins, retries a lost unique-constraint race, and writes in a transaction or undoes its own writes.
import { randomUUID } from "#crypto"
import { AccessDenied, AccountNotLinked, OAuthAccountNotLinked } from "../errors.js"
import type { AdapterAccount, AdapterUser } from "../adapters/index.js"
import { AdapterCallError, type GuardedAdapter } from "../adapters/guarded-adapter.js"
import type { AuthRequest, LinkOutcome, LinkRule, ResolvedConfig, VerifiedIdentity } from "../pipeline-types.js"
import { emitEvent } from "../events.js"
import { domainToUnicode } from "../lib/idn.js"
import { SingleFlight } from "../lib/single-flight.js"
import { applyRedirect } from "../security/redirect.js"
import type { Account, CredentialInput, TokenSet } from "../types.js"
import { merged } from "../lib/merged.js"

/**
 * Runs the `signIn` callback: `true` continues (undefined), a string ends the sign-in with a redirect
 * there (through the redirect callback), `false` or a throw is AccessDenied with the original message. `email` is
 * passed when an e-mail sign-in asks before sending its link (`{ verificationRequest: true }`).
 */
export async function authorizeSignIn(
  identity: VerifiedIdentity,
  req: AuthRequest,
  config: ResolvedConfig,
  email?: { verificationRequest: boolean },
): Promise<string | undefined> {
  const callback = config.callbacks.signIn
  if (!callback) return undefined
  let result: boolean | string
  try {
    result = await callback({
      user: identity.user,
      account: identity.account,
      ...(identity.profile ? { profile: identity.profile } : {}),
      // The submitted strings, under the type Auth.js gives this parameter (its signIn callbacks compile unchanged).
      ...(identity.credentials
        ? { credentials: identity.credentials as unknown as Record<string, CredentialInput> }
        : {}),
      ...(email ? { email } : {}),
    })
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    throw new AccessDenied(message, { cause: error })
  }
  if (typeof result === "string") return applyRedirect(result, req, config)
  if (!result) throw new AccessDenied("The signIn callback refused the sign-in.")
  return undefined
}

/** The token fields Auth.js stores on an account row by default. */
const defaultAccountFields = [
  "access_token",
  "id_token",
  "refresh_token",
  "expires_at",
  "scope",
  "token_type",
  "session_state",
  // OAuth 1.0a token credentials (RFC 5849 §2.3): stored instead of access/refresh tokens.
  "oauth_token",
  "oauth_token_secret",
] as const

/** The account row for a provider account: `provider.account(tokens)` or the default token fields. */
function accountRowOf(account: Account, userId: string, config: ResolvedConfig): AdapterAccount {
  const provider = config.providers.get(account.provider)
  const pick =
    provider && "account" in provider && typeof provider.account === "function" ? provider.account : undefined
  const tokens = account as unknown as TokenSet
  const fields: Record<string, unknown> = pick
    ? { ...(pick(tokens) ?? {}) }
    : Object.fromEntries(defaultAccountFields.filter((k) => tokens[k] !== undefined).map((k) => [k, tokens[k]]))
  return merged(fields, {
    provider: account.provider,
    type: account.type as AdapterAccount["type"],
    providerAccountId: account.providerAccountId,
    userId,
  }) as AdapterAccount
}

/**
 * Whether the IdP vouches for the profile's e-mail: only `email_verified` of boolean `true` or the string "true"
 * (some IdPs send strings) counts; "false", absent or anything else is unverified.
 */
function idpVerifiedEmail(profile: Record<string, unknown> | undefined): boolean {
  const claim = profile?.email_verified
  return claim === true || claim === "true"
}

/**
 * Finds or creates the user for a provider account, as the kind's link rule says (`rule.user`, flows/kinds/):
 * the mailbox's user for an e-mail sign-in; else existing account → its user (OAuthAccountNotLinked if another user
 * is signed in); the flow's user id (credentials) → that user, or one created for it; signed-in user + new
 * account → link; e-mail of an existing user → OAuthAccountNotLinked unless the provider allows dangerous
 * linking and both the IdP and the local row vouch for the address; otherwise create the user and link the account.
 */
async function findOrCreate(
  adapter: GuardedAdapter,
  identity: VerifiedIdentity,
  rule: LinkRule,
  currentUser: AdapterUser | undefined,
  config: ResolvedConfig,
  writes: Partial<LinkOutcome>,
): Promise<LinkOutcome> {
  const { account, user } = identity
  if (rule.user === "mailbox") return emailUser(adapter, identity, config, writes)
  const existing = await adapter.getUserByAccount({
    provider: account.provider,
    providerAccountId: account.providerAccountId,
  })
  if (existing) {
    if (currentUser && currentUser.id !== existing.id)
      throw new OAuthAccountNotLinked("This account is already linked to another user.")
    return { user: existing, isNewUser: false }
  }
  if (rule.user === "flow-id") return credentialsUser(adapter, identity, config, writes)
  if (currentUser) {
    const linked = accountRowOf(account, currentUser.id, config)
    await adapter.linkAccount(linked)
    writes.linkedAccount = linked
    return { user: currentUser, isNewUser: false, linkedAccount: linked }
  }
  const email = typeof user.email === "string" && user.email !== "" ? user.email : undefined
  const byEmail = email ? await adapter.getUserByEmail(email) : null
  if (byEmail) {
    const provider = config.providers.get(account.provider)
    const allowed =
      provider !== undefined &&
      "allowDangerousEmailAccountLinking" in provider &&
      provider.allowDangerousEmailAccountLinking === true
    // Dangerous linking still needs both sides to vouch for the address: the IdP must say it verified it, and the
    // local row must have proven it (docs/security.md OA-19), or a pre-registered impostor row would capture the account.
    if (!allowed || !idpVerifiedEmail(identity.profile) || !byEmail.emailVerified) {
      throw new OAuthAccountNotLinked(
        "Another account already uses this e-mail. Sign in with the account you used originally.",
      )
    }
    const linked = accountRowOf(account, byEmail.id, config)
    await adapter.linkAccount(linked)
    writes.linkedAccount = linked
    return { user: byEmail, isNewUser: false, linkedAccount: linked }
  }
  const { id: flowUserId, ...profileUser } = user
  // An address the IdP says it verified (email_verified true or "true") counts as verified here too. A passkey proves no address.
  const emailVerified = email && idpVerifiedEmail(identity.profile) ? new Date() : null
  // An OAuth profile's id is the provider's; a WebAuthn sign-up's is the one its credential's user handle names.
  const id = rule.keepsFlowUserId ? flowUserId : randomUUID()
  return createAndLink(
    adapter,
    merged(profileUser, { id, email: email ?? null, emailVerified }) as unknown as AdapterUser,
    identity,
    config,
    writes,
  )
}

/**
 * The user of a normalised e-mail address. Auth.js stored Unicode domains as typed, so when nothing is found under
 * the ASCII (punycode) spelling the Unicode one is tried too: such a user keeps their account after the switch.
 */
export async function userByEmailAddress(adapter: GuardedAdapter, email: string): Promise<AdapterUser | null> {
  const found = await adapter.getUserByEmail(email)
  if (found) return found
  const at = email.lastIndexOf("@")
  const unicodeDomain = at === -1 ? undefined : domainToUnicode(email.slice(at + 1))
  if (unicodeDomain === undefined || unicodeDomain === email.slice(at + 1)) return null
  return adapter.getUserByEmail(`${email.slice(0, at)}@${unicodeDomain}`)
}

/** What linking made of an e-mail sign-in: also the existing user whose address it proved, for the updateUser event. */
type EmailLinkOutcome = LinkOutcome & { updatedUser?: AdapterUser }

/**
 * E-mail sign-in (docs/wire-format.md §8.4): the clicked link proved the mailbox. The user with that address signs in
 * when its address was proven before; a user whose address was never proven (made by a credentials sign-in, or by a
 * provider that does not verify addresses) belongs to whoever made it, so the mailbox owner is refused with
 * AccountNotLinked and nothing changes (docs/security.md EM-10), unless the provider sets
 * `allowDangerousEmailAccountLinking` (then the address is marked proven and the user signs in, as in Auth.js). No
 * user: one is created with `emailVerified` now. No account row is linked.
 */
async function emailUser(
  adapter: GuardedAdapter,
  identity: VerifiedIdentity,
  config: ResolvedConfig,
  writes: Partial<LinkOutcome>,
): Promise<EmailLinkOutcome> {
  const email = String(identity.user.email)
  const existing = await userByEmailAddress(adapter, email)
  if (existing) {
    if (existing.emailVerified) return { user: existing, isNewUser: false }
    const provider = config.providers.get(identity.account.provider) as
      | { allowDangerousEmailAccountLinking?: unknown }
      | undefined
    if (provider?.allowDangerousEmailAccountLinking !== true) {
      throw new AccountNotLinked(
        "An account with this address exists, but its address was never proven (it was made with a password or by a " +
          "provider that does not verify addresses), so an e-mail link does not sign into it. Sign in the way the account " +
          "was made, or set allowDangerousEmailAccountLinking on the e-mail provider to trust the link.",
      )
    }
    const updated = await adapter.updateUser({ id: existing.id, emailVerified: new Date() })
    return { user: updated ?? existing, isNewUser: false, updatedUser: updated ?? existing }
  }
  const id = randomUUID()
  writes.pendingUserId = id
  let created: AdapterUser
  try {
    created = await adapter.createUser({ id, email, emailVerified: new Date() })
  } catch (error) {
    if (error instanceof AdapterCallError && error.late) writes.lateCreate = error.late
    throw error
  }
  writes.createdUser = created
  return { user: created, isNewUser: true, createdUser: created }
}

/** Creates the user (noting the id it asked for, so a failed or late write can be undone) and links the account to it. */
async function createAndLink(
  adapter: GuardedAdapter,
  user: AdapterUser,
  identity: VerifiedIdentity,
  config: ResolvedConfig,
  writes: Partial<LinkOutcome>,
): Promise<LinkOutcome> {
  writes.pendingUserId = user.id
  let created: AdapterUser
  try {
    created = await adapter.createUser(user)
  } catch (error) {
    if (error instanceof AdapterCallError && error.late) writes.lateCreate = error.late
    throw error
  }
  writes.createdUser = created
  const linked = accountRowOf(identity.account, created.id, config)
  await adapter.linkAccount(linked)
  writes.linkedAccount = linked
  return { user: created, isNewUser: true, createdUser: created, linkedAccount: linked }
}

/**
 * Credentials with database sessions: `authorize` vouches for its user's id and nothing else. The user is the
 * adapter row of that id, or the one created for it on an earlier sign-in (found through its credentials account
 * row, so adapters that choose their own ids work). An existing user who merely has the same e-mail is never adopted:
 * that would hand any account to whoever can make `authorize` return its address (docs/adapters.md).
 */
async function credentialsUser(
  adapter: GuardedAdapter,
  identity: VerifiedIdentity,
  config: ResolvedConfig,
  writes: Partial<LinkOutcome>,
): Promise<LinkOutcome> {
  const { user } = identity
  const byId = await adapter.getUser(user.id)
  if (byId) return { user: byId, isNewUser: false }
  // Compared and stored lower-cased, as OAuth e-mails are, so a change of case is not a way around the check.
  const email = typeof user.email === "string" && user.email !== "" ? user.email.toLowerCase() : null
  if (email && (await adapter.getUserByEmail(email))) {
    throw new AccountNotLinked(
      "`authorize` returned an id that is not in the adapter, with the e-mail of an existing user. Return that user's adapter id to sign it in.",
    )
  }
  const row = {
    id: user.id,
    name: user.name ?? null,
    email,
    image: user.image ?? null,
    emailVerified: null,
  } as unknown as AdapterUser
  return createAndLink(adapter, row, identity, config, writes)
}

/**
 * Undoes what a failed sign-in wrote; failures are logged, never thrown (the original error wins). A user this sign-in
 * created is deleted first, in one call that takes its accounts and sessions with it, so a failure part-way leaves the
 * user and its account together and the next sign-in finds them; unlinking first could leave a user without its
 * account, locked out of its own provider account (docs/reliability.md, R5). An account linked to a user who existed
 * before is unlinked on its own.
 */
export async function rollback(
  adapter: GuardedAdapter,
  outcome: Partial<LinkOutcome>,
  config: ResolvedConfig,
): Promise<void> {
  const userId = outcome.createdUser?.id ?? outcome.pendingUserId
  const created = outcome.createdUser !== undefined || outcome.pendingUserId !== undefined
  let userDeleted = false
  try {
    // Deleting by the id this sign-in chose also removes a row whose createUser failed after writing it.
    if (userId !== undefined && (outcome.createdUser || (await adapter.getUser(userId)))) {
      await adapter.deleteUser(userId)
      userDeleted = true
    }
  } catch (error) {
    config.logger.error(error as Error)
  }
  // A passkey added to a user who existed before is removed on its own (deleting a created user took it already).
  const authenticator = outcome.createdAuthenticator
  if (authenticator && !userDeleted && typeof adapter.raw.deleteAuthenticator === "function") {
    try {
      await adapter.deleteAuthenticator(authenticator.credentialID)
    } catch (error) {
      config.logger.error(error as Error)
    }
  }
  const account = outcome.linkedAccount
  if (account && (!created || userDeleted)) {
    try {
      await adapter.unlinkAccount({ provider: account.provider, providerAccountId: account.providerAccountId })
    } catch (error) {
      // After deleteUser an adapter that cascades has removed the account already; only an existing user's matters.
      if (!userDeleted) config.logger.error(error as Error)
    }
  }
  // A createUser that timed out may still land: undo it when it does (the adapter may also have chosen its own id).
  outcome.lateCreate?.then(
    async (late) => {
      const lateId = (late as { id?: string } | null | undefined)?.id ?? userId
      if (lateId === undefined) return
      try {
        await adapter.deleteUser(lateId)
      } catch (error) {
        config.logger.error(error as Error)
      }
    },
    () => {},
  )
}

/** Fires the createUser / linkAccount events for what a committed sign-in wrote. */
export async function emitLinkEvents(
  outcome: LinkOutcome,
  identity: VerifiedIdentity,
  config: ResolvedConfig,
): Promise<void> {
  if (outcome.createdUser) await emitEvent(config, "createUser", { user: outcome.createdUser })
  const updated = (outcome as EmailLinkOutcome).updatedUser
  if (updated) await emitEvent(config, "updateUser", { user: updated })
  if (outcome.linkedAccount) {
    await emitEvent(config, "linkAccount", { user: outcome.user, account: identity.account, profile: identity.user })
  }
}

/** Whether an error came from a write that a concurrent sign-in can make fail (a unique constraint), worth one retry. */
function isRetryableLinkError(error: unknown): boolean {
  return (
    error instanceof AdapterCallError &&
    !error.timedOut &&
    (error.method === "createUser" || error.method === "linkAccount")
  )
}

/** Attempts before giving up on a unique-constraint race with another process. */
const LINK_ATTEMPTS = 3

/** Links the identity, then stores the authenticator a WebAuthn registration brought, under the user it linked to. */
async function linkAndStore(
  adapter: GuardedAdapter,
  identity: VerifiedIdentity,
  rule: LinkRule,
  signedIn: AdapterUser | undefined,
  config: ResolvedConfig,
  writes: Partial<LinkOutcome>,
): Promise<LinkOutcome> {
  const outcome = await findOrCreate(adapter, identity, rule, signedIn, config, writes)
  if (!identity.authenticator) return outcome
  const created = await adapter.createAuthenticator(merged(identity.authenticator, { userId: outcome.user.id }))
  writes.createdAuthenticator = created
  return merged(outcome, { createdAuthenticator: created })
}

/** One link attempt: in the adapter's transaction when it has one, else undoing this attempt's writes on failure. */
async function linkOnce(
  adapter: GuardedAdapter,
  identity: VerifiedIdentity,
  rule: LinkRule,
  signedIn: AdapterUser | undefined,
  config: ResolvedConfig,
): Promise<LinkOutcome> {
  if (adapter.transaction) return adapter.transaction((tx) => linkAndStore(tx, identity, rule, signedIn, config, {}))
  const writes: Partial<LinkOutcome> = {}
  try {
    return await linkAndStore(adapter, identity, rule, signedIn, config, writes)
  } catch (error) {
    await rollback(adapter, writes, config)
    throw error
  }
}

async function linkWithRetry(
  adapter: GuardedAdapter,
  identity: VerifiedIdentity,
  rule: LinkRule,
  signedIn: AdapterUser | undefined,
  config: ResolvedConfig,
): Promise<LinkOutcome> {
  for (let i = 1; ; i++) {
    try {
      return await linkOnce(adapter, identity, rule, signedIn, config)
    } catch (error) {
      // A concurrent sign-in (maybe another process) created the same user or account: look again shortly.
      if (!isRetryableLinkError(error) || i >= LINK_ATTEMPTS) throw error
      config.logger.debug("link: retrying after a conflicting write", {
        provider: identity.account.provider,
        attempt: i,
      })
      await new Promise((resolve) => setTimeout(resolve, 25 * i))
    }
  }
}

/**
 * Concurrent first sign-ins of one provider account in this process share one link (docs/security.md R9: one user, one account).
 * Keyed per adapter, so two configs with different stores never share a result.
 */
const inflightLinks = new WeakMap<object, SingleFlight<string, LinkOutcome>>()

/**
 * The user a verified identity signs in as, by its kind's link rule (`rule`, flows/kinds/). Without an adapter (or,
 * for credentials, under JWT sessions) that is the flow's own user; with one, the account is found, linked to the
 * signed-in user (`currentUser`, asked only when the rule links to it) or created. A waiter on a concurrent
 * identical sign-in whose attempt failed tries on its own.
 */
export async function linkIdentity(
  identity: VerifiedIdentity,
  rule: LinkRule,
  currentUser: () => Promise<AdapterUser | undefined>,
  config: ResolvedConfig,
): Promise<LinkOutcome> {
  const adapter = config.adapter
  if (!adapter || (!rule.withJwtSessions && config.session.strategy !== "database"))
    return { user: identity.user, isNewUser: false }
  // An e-mail sign-in is the mailbox's user whoever is signed in on this browser: nothing is linked to the current user.
  const signedIn = rule.toSignedInUser ? await currentUser() : undefined
  if (signedIn) return linkWithRetry(adapter, identity, rule, signedIn, config)
  let perAdapter = inflightLinks.get(adapter.raw)
  if (!perAdapter) inflightLinks.set(adapter.raw, (perAdapter = new SingleFlight()))
  const key = `${identity.account.provider}\u0000${identity.account.providerAccountId}`
  const shared = perAdapter.inFlight(key)
  if (shared) {
    const outcome = await shared.catch(() => undefined)
    if (outcome) return { user: outcome.user, isNewUser: false }
    return linkWithRetry(adapter, identity, rule, undefined, config)
  }
  return perAdapter.share(key, () => linkWithRetry(adapter, identity, rule, undefined, config))
}
