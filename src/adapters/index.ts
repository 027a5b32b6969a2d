// The Adapter interface and record types, identical in shape to @auth/core/adapters.
import type { AuthorizationDetails, Awaitable, JsonValue, ProviderType, User } from "../records.js"

export type { JsonArray, JsonObject, JsonPrimitive, JsonValue } from "../records.js"

/** The provider kinds that store an account row (credentials sign-ins store none). */
export type AdapterAccountType = Exclude<ProviderType, "credentials">

/**
 * Whether a value is an ISO 8601 date-time string (`2024-05-01T10:00:00.000Z`): for adapters whose database returns
 * dates as text, to turn them back into `Date`s. The same helper @auth/core/adapters exports.
 */
export function isDate(value: unknown): value is string {
  return (
    typeof value === "string" &&
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value) &&
    !Number.isNaN(Date.parse(value))
  )
}

/** A user row. It extends User (as in @auth/core), so `declare module "gatehouse/types" { interface User { … } }` reaches it. */
export interface AdapterUser extends User {
  id: string
  email: string
  emailVerified: Date | null
}

export interface AdapterAccount {
  userId: string
  type: AdapterAccountType
  provider: string
  providerAccountId: string
  access_token?: string
  refresh_token?: string
  expires_in?: number
  expires_at?: number
  /** Lower-cased, as oauth4webapi normalises it. */
  token_type?: Lowercase<string>
  scope?: string
  id_token?: string
  session_state?: string | null
  authorization_details?: AuthorizationDetails[]
  [key: string]: JsonValue | undefined
}

export interface AdapterSession {
  sessionToken: string
  userId: string
  expires: Date
}

export interface VerificationToken {
  identifier: string
  expires: Date
  token: string
}

export interface AdapterAuthenticator {
  credentialID: string
  userId: string
  providerAccountId: string
  counter: number
  credentialBackedUp: boolean
  credentialPublicKey: string
  credentialDeviceType: string
  transports?: string | null
}

/** Every method is optional; which ones a config needs depends on the strategy and providers. */
export interface Adapter {
  createUser?(user: AdapterUser): Awaitable<AdapterUser>
  getUser?(id: string): Awaitable<AdapterUser | null>
  getUserByEmail?(email: string): Awaitable<AdapterUser | null>
  getUserByAccount?(
    providerAccountId: Pick<AdapterAccount, "provider" | "providerAccountId">,
  ): Awaitable<AdapterUser | null>
  updateUser?(user: Partial<AdapterUser> & Pick<AdapterUser, "id">): Awaitable<AdapterUser>
  deleteUser?(userId: string): Promise<void> | Awaitable<AdapterUser | null | undefined>
  linkAccount?(account: AdapterAccount): Promise<void> | Awaitable<AdapterAccount | null | undefined>
  unlinkAccount?(
    providerAccountId: Pick<AdapterAccount, "provider" | "providerAccountId">,
  ): Promise<void> | Awaitable<AdapterAccount | undefined>
  createSession?(session: { sessionToken: string; userId: string; expires: Date }): Awaitable<AdapterSession>
  getSessionAndUser?(sessionToken: string): Awaitable<{ session: AdapterSession; user: AdapterUser } | null>
  updateSession?(
    session: Partial<AdapterSession> & Pick<AdapterSession, "sessionToken">,
  ): Awaitable<AdapterSession | null | undefined>
  deleteSession?(sessionToken: string): Promise<void> | Awaitable<AdapterSession | null | undefined>
  createVerificationToken?(verificationToken: VerificationToken): Awaitable<VerificationToken | null | undefined>
  useVerificationToken?(params: { identifier: string; token: string }): Awaitable<VerificationToken | null>
  getAccount?(
    providerAccountId: AdapterAccount["providerAccountId"],
    provider: AdapterAccount["provider"],
  ): Awaitable<AdapterAccount | null>
  getAuthenticator?(credentialID: AdapterAuthenticator["credentialID"]): Awaitable<AdapterAuthenticator | null>
  createAuthenticator?(authenticator: AdapterAuthenticator): Awaitable<AdapterAuthenticator>
  listAuthenticatorsByUserId?(userId: AdapterAuthenticator["userId"]): Awaitable<AdapterAuthenticator[]>
  updateAuthenticatorCounter?(
    credentialID: AdapterAuthenticator["credentialID"],
    newCounter: AdapterAuthenticator["counter"],
  ): Awaitable<AdapterAuthenticator>
  /**
   * Gatehouse extension (not in @auth/core): removes one authenticator (passkey), as the server API behind an
   * account page's "remove this passkey" does. Returns the removed record, or null/undefined when none had that id.
   */
  deleteAuthenticator?(
    credentialID: AdapterAuthenticator["credentialID"],
  ): Awaitable<AdapterAuthenticator | null | undefined | void>
}
