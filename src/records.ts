// Public record types every layer shares (users, accounts, profiles, provider token sets, theme): a leaf module, so
// that types.ts, adapters/ and providers/ can all use them without importing each other in a cycle. Re-exported by
// `gatehouse/types`, where module augmentation (`declare module "gatehouse/types" { interface User { … } }`) reaches them.

export type Awaitable<T> = T | PromiseLike<T>

/** A signed-in user as a provider or `authorize` returns it. */
export interface User {
  id?: string
  name?: string | null
  email?: string | null
  image?: string | null
}

/** The provider account used to sign in (for credentials: `{ provider, type, providerAccountId }`). */
export interface Account {
  provider: string
  type: "oauth" | "oidc" | "email" | "credentials" | "webauthn"
  providerAccountId: string
  userId?: string
  access_token?: string
  refresh_token?: string
  expires_at?: number
  token_type?: string
  scope?: string
  id_token?: string
  session_state?: string | null
  [key: string]: unknown
}

/** The OAuth profile as the provider returned it. */
export interface Profile {
  sub?: string | null
  name?: string | null
  email?: string | null
  image?: string | null
  [claim: string]: unknown
}

export interface CredentialInput {
  label?: string
  type?: string
  placeholder?: string
  [key: string]: unknown
}

export interface Theme {
  colorScheme?: "auto" | "dark" | "light"
  logo?: string
  brandColor?: string
  buttonText?: string
}

export type TokenSet = Record<string, unknown>
