// Provider config shapes. Providers are data plus profile mapping; flow logic lives in flows/.
import type { Awaitable, CredentialInput, TokenSet, User } from "../types.js"
import type { customFetch } from "../symbols.js"

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

/** An endpoint: a URL string, or `{ url, params }` (extra query/body parameters). */
export type EndpointOption = string | { url?: string | URL; params?: Record<string, unknown> }

/** The token endpoint: a URL or `{ url, params, conform }`; `conform` may fix a non-compliant response. */
export type TokenEndpointOption =
  | string
  | { url?: string | URL; params?: Record<string, unknown>; conform?: (response: Response) => Awaitable<Response | undefined> }

/** The userinfo endpoint: a URL or `{ url, params, request }`; `request` replaces the call entirely. */
export type UserinfoEndpointOption =
  | string
  | { url?: string | URL; params?: Record<string, unknown>; request?: (context: {
      tokens: TokenSet
      provider: OAuthConfigBase
      /** The provider's fetch (customFetch, timeout, size cap). */
      fetch: typeof fetch
      /** The userinfo URL as configured (user options applied). */
      url: string
    }) => Awaitable<Record<string, unknown>>
  }

/** The checks protecting the authorization-code flow. @see RFC 7636 (pkce), RFC 6749 §10.12 (state), OIDC Core §3.1.2.1 (nonce) */
export type OAuthCheck = "pkce" | "state" | "nonce" | "none"

/** Client metadata, as registered with the authorization server. */
export interface OAuthClientOptions {
  token_endpoint_auth_method?: "client_secret_basic" | "client_secret_post" | "client_secret_jwt" | "none"
  /** The algorithm the ID token must be signed with (default RS256). */
  id_token_signed_response_alg?: string
  [key: string]: unknown
}

/** An OAuth 2 (`type: "oauth"`) or OpenID Connect (`type: "oidc"`) provider, custom or built-in. */
export interface OAuthConfigBase<P = Record<string, unknown>> extends CommonProviderOptions {
  type: "oauth" | "oidc"
  clientId?: string
  clientSecret?: string
  /** The authorization server's issuer identifier; with it, endpoints come from discovery. */
  issuer?: string
  /** Explicit discovery document URL (default `<issuer>/.well-known/openid-configuration`). */
  wellKnown?: string
  authorization?: EndpointOption
  token?: TokenEndpointOption
  userinfo?: UserinfoEndpointOption
  client?: OAuthClientOptions
  /** Default `["pkce"]`; `state` is added when a redirect proxy is used. */
  checks?: OAuthCheck[]
  /** Maps the provider's profile to the user; default uses sub/id, name, email, picture. */
  profile?(profile: P, tokens: TokenSet): Awaitable<User>
  /** Picks the token fields stored on the account (database strategy). */
  account?(tokens: TokenSet): Record<string, unknown> | undefined
  /** Button style of the built-in sign-in page. */
  style?: { brandColor?: string; logo?: string; text?: string; bg?: string }
  /** Sign a user in by e-mail when an account with this e-mail exists (unsafe unless the provider verifies e-mails). */
  allowDangerousEmailAccountLinking?: boolean
  /** Base URL of a deployment that forwards callbacks to this one (preview deployments). */
  redirectProxyUrl?: string
  /** OIDC: take the profile from the ID token (default true); false fetches userinfo. */
  idToken?: boolean
  /** Refresh `account.access_token` from its `refresh_token` when it expires (JWT sessions). */
  refreshAccessToken?: boolean
  /** `"1.0A"` selects OAuth 1.0a (RFC 5849) with the four URL options below; anything else is OAuth 2. */
  version?: string
  /** OAuth 1.0a: temporary-credentials (request token) endpoint. */
  requestTokenUrl?: string
  /** OAuth 1.0a: where the user authorizes the request token. */
  authorizationUrl?: string
  /** OAuth 1.0a: token-credentials (access token) endpoint. */
  accessTokenUrl?: string
  /** OAuth 1.0a: the signed profile request. */
  profileUrl?: string
  /** Network timeout for requests to this provider, in milliseconds (default 10000). */
  timeout?: number
  /** Built-in providers keep the user's options here; they are merged over the defaults. */
  options?: Partial<OAuthConfigBase<P>> & Record<string, unknown>
  [customFetch]?: typeof fetch
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

/** The named keys of a type, without its string/number index signature (so Omit and Partial keep them typed). */
type KnownKeys<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] }

/** What a built-in provider function accepts: everything optional (client id and secret may come from env). */
export type OAuthUserConfig<P = Record<string, unknown>> = Partial<Omit<KnownKeys<OAuthConfigBase<P>>, "options" | "type">>

/** `Record<string, any>` (not `unknown`): every profile interface (VkProfile, …) must fit, as in Auth.js. */
export type ProviderConfig = CredentialsConfig | OAuthConfigBase<Record<string, any>> | EmailConfigBase | WebAuthnConfigBase

/** A provider as `providers: [...]` accepts it: a config object, or a function returning one (called with no arguments). */
export type Provider = ProviderConfig | ((options?: Record<string, unknown>) => ProviderConfig)
