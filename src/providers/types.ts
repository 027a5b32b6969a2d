// Provider config shapes. Providers are data plus profile mapping; flow logic lives in flows/.
import type { Awaitable, CredentialInput, User } from "../types.js"

export type ProviderType = "oauth" | "oidc" | "email" | "credentials" | "webauthn"

interface CommonProviderOptions {
  id: string
  name: string
  type: ProviderType
}

/** A credentials provider: your `authorize` decides who the user is. */
export interface CredentialsConfig<Fields extends Record<string, CredentialInput> = Record<string, CredentialInput>> extends CommonProviderOptions {
  type: "credentials"
  /** The form fields the built-in sign-in page renders, keyed by the body field name. */
  credentials: Fields
  /** Returns the user for these credentials, or null when they are wrong. Throw a `CredentialsSignin` subclass to pass a `code`. */
  authorize: (credentials: Partial<Record<keyof Fields, unknown>>, request: Request) => Awaitable<User | null>
}

/** Placeholder shapes for provider kinds implemented in later capabilities; they are listed by `/providers`. */
export interface OAuthConfigBase extends CommonProviderOptions {
  type: "oauth" | "oidc"
  clientId?: string
  clientSecret?: string
  issuer?: string
  [key: string]: unknown
}
export interface EmailConfigBase extends CommonProviderOptions {
  type: "email"
  [key: string]: unknown
}
export interface WebAuthnConfigBase extends CommonProviderOptions {
  type: "webauthn"
  [key: string]: unknown
}

export type ProviderConfig = CredentialsConfig | OAuthConfigBase | EmailConfigBase | WebAuthnConfigBase

/** A provider as `providers: [...]` accepts it: a config object, or a function returning one (called with no arguments). */
export type Provider = ProviderConfig | ((options?: Record<string, unknown>) => ProviderConfig)
