// Public record types every layer shares (users, accounts, profiles, provider token sets, theme): a leaf module, so
// that types.ts, adapters/ and providers/ can all use them without importing each other in a cycle. Re-exported by
// `gatehouse/types`, where module augmentation (`declare module "gatehouse/types" { interface User { … } }`) reaches them.

export type Awaitable<T> = T | PromiseLike<T>

/** JSON values as token responses carry them: the index signature of accounts and token sets (the shape @auth/core uses). */
export type JsonPrimitive = string | number | boolean | null
export type JsonObject = { [Key in string]?: JsonValue }
export type JsonArray = JsonValue[]
export type JsonValue = JsonPrimitive | JsonObject | JsonArray

/** One entry of a token response's `authorization_details` (RFC 9396 §7). */
export interface AuthorizationDetails {
  type: string
  locations?: string[]
  actions?: string[]
  datatypes?: string[]
  privileges?: string[]
  identifier?: string
  [parameter: string]: JsonValue | undefined
}

/**
 * The fields of a token response (RFC 6749 §5.1), all optional, plus `expires_at` (seconds since the epoch). Other
 * members are JSON values, as in @auth/core's TokenSet, so app code reading `tokens.access_token` type-checks unchanged.
 */
export interface TokenSet {
  access_token?: string
  token_type?: Lowercase<string>
  expires_in?: number
  expires_at?: number
  refresh_token?: string
  scope?: string
  id_token?: string
  authorization_details?: AuthorizationDetails[]
  [parameter: string]: JsonValue | undefined
}

/** The user fields every sign-in knows (Auth.js's `DefaultUser`); `User` extends it. */
export interface DefaultUser {
  id?: string
  name?: string | null
  email?: string | null
  image?: string | null
}

/** A signed-in user as a provider or `authorize` returns it. Add fields by module augmentation of `gatehouse/types`. */
export interface User extends DefaultUser {}

/** The provider types (`provider.type`), one per sign-in kind but OAuth's two: the one declaration of the union. */
export type ProviderType = "oauth" | "oidc" | "email" | "credentials" | "webauthn"

/**
 * The provider account used to sign in (for credentials: `{ provider, type, providerAccountId }`): the token response's
 * fields plus who it belongs to, as in @auth/core.
 */
export interface Account extends TokenSet {
  provider: string
  type: ProviderType
  providerAccountId: string
  userId?: string
  session_state?: string | null
}

/** The OAuth profile as the provider returned it: the OpenID Connect standard claims (OIDC Core §5.1), and any others. */
export interface Profile {
  id?: string | null
  sub?: string | null
  name?: string | null
  given_name?: string | null
  family_name?: string | null
  middle_name?: string | null
  nickname?: string | null
  preferred_username?: string | null
  profile?: string | null
  /** `any`, as in @auth/core: providers send a URL string, some an object (Facebook's `{ data: { url } }`). */
  picture?: any // eslint-disable-line @typescript-eslint/no-explicit-any -- as in Auth.js
  website?: string | null
  email?: string | null
  email_verified?: boolean | null
  gender?: string | null
  birthdate?: string | null
  zoneinfo?: string | null
  locale?: string | null
  phone_number?: string | null
  updated_at?: Date | string | number | null
  address?: {
    formatted?: string | null
    street_address?: string | null
    locality?: string | null
    region?: string | null
    postal_code?: string | null
    country?: string | null
  } | null
  [claim: string]: unknown
}

/** A value, or an object holding it in `value` (a signal: @auth/core types its inputs with preact's `<input>` props). */
type ValueOrSignal<T> = T | { readonly value: T }

/**
 * One field of a credentials provider. The sign-in page renders `label`, `type` and `placeholder` when they are
 * strings (a signal or any other value falls back to the field name, "text" and nothing).
 */
export interface CredentialInput {
  label?: string
  type?: ValueOrSignal<string | undefined>
  placeholder?: ValueOrSignal<string | undefined>
  /** Any other `<input>` attribute. `any` (not `unknown`), so @auth/core's CredentialInput interface fits as it is. */
  [key: string]: any
}

export interface Theme {
  colorScheme?: "auto" | "dark" | "light"
  logo?: string
  brandColor?: string
  buttonText?: string
  /** Gatehouse only: the app's name in the built-in pages' titles and the sign-in heading ("Sign in to Acme"). */
  brandName?: string
}
