// Shared domain values passed between the stages: the identity a sign-in flow verified, and what linking made of it.
import type { AdapterAccount, AdapterUser } from "./adapters/index.js"
import type { Account, User } from "./types.js"

/** What every sign-in flow hands on: who signed in, with which account (design rule 2). */
export interface VerifiedIdentity {
  user: User & { id: string }
  account: Account
  /** The provider's profile as it sent it (OAuth / OIDC). */
  profile?: Record<string, unknown>
  /** The credentials as submitted (credentials flow only), for the signIn callback. */
  credentials?: Record<string, string>
}

/** What account linking decided: the user to sign in, whether it was created now, and the writes it made (for rollback). */
export interface LinkOutcome {
  user: AdapterUser | VerifiedIdentity["user"]
  isNewUser: boolean
  createdUser?: AdapterUser
  linkedAccount?: AdapterAccount
  /** The id this sign-in asked createUser to use, known even when the call failed or timed out. */
  pendingUserId?: string
  /** A createUser call abandoned after a timeout, which may still complete. */
  lateCreate?: Promise<unknown>
}
