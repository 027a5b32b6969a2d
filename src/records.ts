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

/** A value, or an object holding it in `value` (a signal: @auth/core types its inputs with preact's `<input>` props). */
export type ValueOrSignal<T> = T | { readonly value: T }

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

export type TokenSet = Record<string, unknown>
