// The one place where users and accounts are found, created or linked, and where the signIn callback decides (wire.md §8.4).
import { randomUUID } from "node:crypto"
import { AccessDenied, OAuthAccountNotLinked } from "../errors.js"
import type { AdapterAccount, AdapterUser } from "../adapters/index.js"
import { AdapterCallError, type GuardedAdapter } from "../adapters/guard.js"
import type { ResolvedConfig } from "../config/resolve.js"
import { emitEvent } from "../events.js"
import type { VerifiedIdentity } from "../flows/credentials.js"
import type { AuthRequest } from "../request/parse.js"
import { applyRedirect } from "../security/redirect.js"
import type { Account, TokenSet } from "../types.js"

/**
 * Runs the `signIn` callback: `true` continues (undefined), a string ends the sign-in with a redirect
 * there (through the redirect callback), `false` or a throw is AccessDenied with the original message.
 */
export async function authorizeSignIn(identity: VerifiedIdentity, req: AuthRequest, config: ResolvedConfig): Promise<string | undefined> {
  const callback = config.callbacks.signIn
  if (!callback) return undefined
  let result: boolean | string
  try {
    result = await callback({
      user: identity.user,
      account: identity.account,
      ...(identity.profile ? { profile: identity.profile } : {}),
      ...(identity.credentials ? { credentials: identity.credentials } : {}),
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
  "access_token", "id_token", "refresh_token", "expires_at", "scope", "token_type", "session_state",
  // OAuth 1.0a token credentials (RFC 5849 §2.3): stored instead of access/refresh tokens.
  "oauth_token", "oauth_token_secret",
] as const

/** The account row for a provider account: `provider.account(tokens)` or the default token fields. */
export function accountRowOf(account: Account, userId: string, config: ResolvedConfig): AdapterAccount {
  const provider = config.providers.get(account.provider)
  const pick = provider && "account" in provider && typeof provider.account === "function" ? provider.account : undefined
  const tokens = account as unknown as TokenSet
  const fields: Record<string, unknown> = pick
    ? { ...(pick(tokens) ?? {}) }
    : Object.fromEntries(defaultAccountFields.filter((k) => tokens[k] !== undefined).map((k) => [k, tokens[k]]))
  return { ...fields, provider: account.provider, type: account.type as AdapterAccount["type"], providerAccountId: account.providerAccountId, userId }
}

/** What linking decided: the user to sign in, whether it was created now, and the writes it made (for rollback). */
export interface LinkOutcome {
  user: AdapterUser
  isNewUser: boolean
  createdUser?: AdapterUser
  linkedAccount?: AdapterAccount
  /** The id this sign-in asked createUser to use, known even when the call failed or timed out. */
  pendingUserId?: string
  /** A createUser call abandoned after a timeout, which may still complete. */
  lateCreate?: Promise<unknown>
}

/**
 * Finds or creates the user for a provider account:
 * existing account → its user (OAuthAccountNotLinked if another user is signed in); signed-in user + new
 * account → link; e-mail of an existing user → OAuthAccountNotLinked unless the provider allows dangerous
 * linking (and the IdP did not say the e-mail is unverified); otherwise create the user and link the account.
 */
export async function linkAccount(
  adapter: GuardedAdapter, identity: VerifiedIdentity, currentUser: AdapterUser | undefined, config: ResolvedConfig,
  writes: Partial<LinkOutcome> = {},
): Promise<LinkOutcome> {
  const { account, user } = identity
  const existing = await adapter.getUserByAccount({ provider: account.provider, providerAccountId: account.providerAccountId })
  if (existing) {
    if (currentUser && currentUser.id !== existing.id) throw new OAuthAccountNotLinked("This account is already linked to another user.")
    return { user: existing, isNewUser: false }
  }
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
    const allowed = provider !== undefined && "allowDangerousEmailAccountLinking" in provider && provider.allowDangerousEmailAccountLinking === true
    // Dangerous linking still needs both sides to vouch for the address: the IdP must not call it unverified,
    // and the local row must have proven it (OA-19), or a pre-registered impostor row would capture the account.
    if (!allowed || identity.profile?.email_verified === false || !byEmail.emailVerified) {
      throw new OAuthAccountNotLinked("Another account already uses this e-mail. Sign in with the account you used originally.")
    }
    const linked = accountRowOf(account, byEmail.id, config)
    await adapter.linkAccount(linked)
    writes.linkedAccount = linked
    return { user: byEmail, isNewUser: false, linkedAccount: linked }
  }
  const { id: _providerUserId, ...profileUser } = user
  // An address the IdP says it verified (OIDC email_verified) counts as verified here too.
  const emailVerified = email && identity.profile?.email_verified === true ? new Date() : null
  const id = randomUUID()
  writes.pendingUserId = id
  let created: AdapterUser
  try {
    created = await adapter.createUser({ ...profileUser, id, email: email ?? null, emailVerified } as unknown as AdapterUser)
  } catch (error) {
    if (error instanceof AdapterCallError && error.late) writes.lateCreate = error.late
    throw error
  }
  writes.createdUser = created
  const linked = accountRowOf(account, created.id, config)
  await adapter.linkAccount(linked)
  writes.linkedAccount = linked
  return { user: created, isNewUser: true, createdUser: created, linkedAccount: linked }
}

/** Undoes what a failed sign-in wrote, newest first; failures are logged, never thrown (the original error wins). */
export async function rollback(adapter: GuardedAdapter, outcome: Partial<LinkOutcome>, config: ResolvedConfig): Promise<void> {
  try {
    if (outcome.linkedAccount) await adapter.unlinkAccount({ provider: outcome.linkedAccount.provider, providerAccountId: outcome.linkedAccount.providerAccountId })
  } catch (error) {
    config.logger.error(error as Error)
  }
  const userId = outcome.createdUser?.id ?? outcome.pendingUserId
  try {
    // Deleting by the id this sign-in chose also removes a row whose createUser failed after writing it.
    if (userId !== undefined && (outcome.createdUser || (await adapter.getUser(userId)))) await adapter.deleteUser(userId)
  } catch (error) {
    config.logger.error(error as Error)
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
export async function emitLinkEvents(outcome: LinkOutcome, identity: VerifiedIdentity, config: ResolvedConfig): Promise<void> {
  if (outcome.createdUser) await emitEvent(config, "createUser", { user: outcome.createdUser })
  if (outcome.linkedAccount) {
    await emitEvent(config, "linkAccount", { user: outcome.user, account: identity.account, profile: identity.user })
  }
}

/** Whether an error came from a write that a concurrent sign-in can make fail (a unique constraint), worth one retry. */
export function isRetryableLinkError(error: unknown): boolean {
  return error instanceof AdapterCallError && !error.timedOut && (error.method === "createUser" || error.method === "linkAccount")
}
