// Provider config shapes, under the names @auth/core/providers uses. Providers are data plus profile mapping; flow logic lives in flows/.
import type { Awaitable, CredentialInput, ProviderType, Theme, TokenSet, User } from "../records.js"
import type { customFetch } from "../symbols.js"
import type { CredentialsProviderId, EmailProviderId, OAuthProviderId, WebAuthnProviderId } from "./ids.js"

export type { CredentialInput, ProviderType } from "../records.js"

/** The fields every provider has. */
export interface CommonProviderOptions {
  id: string
  name: string
  type: ProviderType
}

/** Ids of the built-in providers of each kind (generated into ids.ts); any other string is a valid id too (see ProviderId). */
export type { CredentialsProviderId, EmailProviderId, OAuthProviderId, WebAuthnProviderId } from "./ids.js"
/** Any provider id; the built-in ones are suggested by editors. */
export type ProviderId = CredentialsProviderId | EmailProviderId | OAuthProviderId | WebAuthnProviderId | (string & {})

/** A credentials provider: your `authorize` decides who the user is. */
export interface CredentialsConfig<Fields extends Record<string, CredentialInput> = Record<string, CredentialInput>>
  extends CommonProviderOptions {
  type: "credentials"
  /** The form fields the built-in sign-in page renders, keyed by the body field name. */
  credentials: Fields
  /** Returns the user for these credentials, or null when they are wrong. Throw a `CredentialsSignin` subclass to pass a `code`. */
  authorize: (credentials: Partial<Record<keyof Fields, unknown>>, request: Request) => Awaitable<User | null>
}

/** An endpoint: a URL string, or `{ url, params }` (extra query/body parameters). */
export type EndpointOption = string | { url?: string | URL; params?: Record<string, unknown> }

/**
 * The token endpoint: a URL or `{ url, params, conform }`. `conform` sees a copy of each token response (code exchange
 * and refresh) and returns a fixed one, or nothing to keep it; it may also throw to fail the request, as TikTok's does
 * for an error sent with HTTP 200. At the callback an OAuthCallbackError it throws is used as it is (so its message can
 * carry the provider's error code and request id); any other error is wrapped in one.
 */
export type TokenEndpointOption =
  | string
  | {
      url?: string | URL
      params?: Record<string, unknown>
      conform?: (response: Response) => Awaitable<Response | undefined>
      /**
       * Replaces the token request, for a provider whose token endpoint is not RFC 6749 §4.1.3 / §6 (Azure DevOps's
       * JWT-bearer assertion grant, WeChat's GET with the secret in the query). It runs after the callback passed its
       * state / PKCE / `iss` checks, and what it returns is validated as a token response would be (an `access_token`
       * and `token_type`; for OIDC the ID token's claims, nonce and signature). (Auth.js declares this hook but
       * 0.41.3 never calls it for the token endpoint.)
       */
      request?: (context: TokenRequestContext) => Awaitable<{ tokens: TokenSet }>
    }

/** What a token endpoint's `request` hook receives. */
export interface TokenRequestContext {
  /** `authorization_code` at the callback; `refresh_token` when an access token is refreshed. */
  grantType: "authorization_code" | "refresh_token"
  /** The callback's parameters (`code`, `state`, ...) at the callback; empty for a refresh. */
  params: Record<string, string>
  /** The PKCE verifier, when the provider uses the pkce check. */
  checks: { code_verifier?: string }
  /** The refresh token being used (refresh only). */
  refreshToken?: string
  /** The provider as configured, with the resolved client credentials and its callback URL (the `redirect_uri`). */
  provider: OAuthConfigBase & { clientId: string; clientSecret?: string; callbackUrl: string }
  /** The token endpoint URL (user options applied). */
  url: string
  /** The provider's fetch (customFetch, timeout, size cap, no redirects). */
  fetch: typeof fetch
}

/** The userinfo endpoint: a URL or `{ url, params, request }`; `request` replaces the call entirely. */
export type UserinfoEndpointOption =
  | string
  | {
      url?: string | URL
      params?: Record<string, unknown>
      request?: (context: {
        tokens: TokenSet
        provider: OAuthConfigBase
        /** The provider's fetch (customFetch, timeout, size cap). */
        fetch: typeof fetch
        /** The userinfo URL as configured (user options applied). */
        url: string
      }) => Awaitable<Record<string, unknown>>
    }

/** The object forms of the three endpoint options (Auth.js's names for them). */
export type AuthorizationEndpointHandler = Exclude<EndpointOption, string>
export type TokenEndpointHandler = Exclude<TokenEndpointOption, string>
export type UserinfoEndpointHandler = Exclude<UserinfoEndpointOption, string>
export type OAuthEndpointType = "authorization" | "token" | "userinfo"

/** The checks protecting the authorization-code flow. @see RFC 7636 (pkce), RFC 6749 §10.12 (state), OIDC Core §3.1.2.1 (nonce) */
export type OAuthCheck = "pkce" | "state" | "nonce" | "none"
/** A provider's `checks` option. (@auth/core exports this name with an open type.) */
export type OAuthChecks = OAuthCheck[]

// The two callbacks are declared through a method so their parameters are bivariant, as OAuthConfigBase's methods are:
// a callback typed against @auth/core's narrower TokenSet then fits.
/** Maps the provider's profile to the user. */
export type ProfileCallback<P> = { callback(profile: P, tokens: TokenSet): Awaitable<User> }["callback"]
/** Picks the token fields stored on the account row (nothing returned: no token fields are stored). */
export type AccountCallback = { callback(tokens: TokenSet): TokenSet | undefined | void }["callback"]

/** Button style of the built-in sign-in page (docs/pages.md). */
export interface OAuthProviderButtonStyles {
  /**
   * Image shown in the button: a `data:image/…` URI (the built-in providers ship their marks this way, so no request
   * leaves the page), an https: URL or a root-relative path. Other schemes are not shown.
   */
  logo?: string
  /** Button text colour; used with `bg` when both are CSS colours with at least 4.5:1 contrast. */
  text?: string
  /** Button background colour. */
  bg?: string
  /** Accepted for Auth.js compatibility; the built-in page does not use it. */
  brandColor?: string
}

/**
 * Client metadata, as registered with the authorization server. Any `token_endpoint_auth_method` type-checks (as in
 * Auth.js); one Gatehouse does not support is refused when the config is resolved.
 */
export interface OAuthClientOptions {
  token_endpoint_auth_method?:
    | "client_secret_basic"
    | "client_secret_post"
    | "client_secret_jwt"
    | "none"
    | (string & {})
  /** The algorithm the ID token must be signed with (default RS256). */
  id_token_signed_response_alg?: string
  /** Set when the client registered signed UserInfo answers: they must be JWTs signed with this algorithm. */
  userinfo_signed_response_alg?: string
  [key: string]: unknown
}

/** An OAuth 2 (`type: "oauth"`) or OpenID Connect (`type: "oidc"`) provider, custom or built-in. */
export interface OAuthConfigBase<P = Record<string, unknown>> extends CommonProviderOptions {
  type: Extract<ProviderType, "oauth" | "oidc">
  clientId?: string
  clientSecret?: string
  /** The authorization server's issuer identifier; with it, endpoints come from discovery. */
  issuer?: string
  /** Explicit discovery document URL (default `<issuer>/.well-known/openid-configuration`). */
  wellKnown?: string
  /** Accepted for Auth.js compatibility and not used (nor is it by Auth.js): ID token keys come from discovery's `jwks_uri`. */
  jwks_endpoint?: unknown
  authorization?: EndpointOption
  token?: TokenEndpointOption
  userinfo?: UserinfoEndpointOption
  client?: OAuthClientOptions
  /** Default `["pkce"]`; `state` is added when a redirect proxy is used. */
  checks?: OAuthChecks
  /** Maps the provider's profile to the user; default uses sub/id, name, email, picture. */
  profile?(profile: P, tokens: TokenSet): Awaitable<User>
  /** Picks the token fields stored on the account (database strategy); returning nothing stores no token fields. */
  account?: AccountCallback
  style?: OAuthProviderButtonStyles
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
  /**
   * Authorization response parameters copied onto the raw profile before `profile()` runs (JSON values parsed), for
   * providers that send profile data only there (Apple's one-time `user`). Not integrity-protected: never an id or e-mail.
   */
  profileCallbackFields?: readonly string[]
  /**
   * A multi-tenant issuer (Microsoft Entra ID's `common` / `organizations`): discovery answers an issuer with
   * `placeholder` in it (`https://login.microsoftonline.com/{tenantid}/v2.0`), and each ID token's `iss` is that
   * template with the token's `claim` (`tid`) filled in. The discovered template must give back the configured issuer
   * with the placeholder replaced by the configured issuer's own segment; each ID token must then match the template
   * for its own tenant. Restrict which tenants may sign in in the `signIn` callback (the profile carries the claim).
   */
  issuerTemplate?: { placeholder: string; claim: string }
  /** Built-in providers keep the user's options here; they are merged over the defaults. */
  options?: Partial<OAuthConfigBase<P>> & Record<string, unknown>
  [customFetch]?: typeof fetch
  /** `any` (not `unknown`), so interfaces such as @auth/core's OAuth2Config and OIDCConfig fit as they are. */
  [key: string]: any
}

/** An OAuth 2 provider (`type: "oauth"`). */
export interface OAuth2Config<P = Record<string, unknown>> extends OAuthConfigBase<P> {
  type: "oauth"
  checks?: Array<"pkce" | "state" | "none">
}

/** An OpenID Connect provider (`type: "oidc"`): the profile comes from the ID token unless `idToken: false`. */
export interface OIDCConfig<P = Record<string, unknown>> extends OAuthConfigBase<P> {
  type: "oidc"
  checks?: Array<"pkce" | "state" | "nonce" | "none">
  idToken?: boolean
}

export type OAuthConfig<P = Record<string, unknown>> = OIDCConfig<P> | OAuth2Config<P>

/** An OIDC provider with its defaults applied: `checks` and `idToken` are always set. */
export type OIDCConfigInternal<P = Record<string, unknown>> = OIDCConfig<P> & {
  checks: NonNullable<OIDCConfig<P>["checks"]>
  idToken: boolean
}

/** What `sendVerificationRequest` receives: where the link goes, who gets it, and the page theme. */
export interface EmailProviderSendVerificationRequestParams {
  identifier: string
  url: string
  expires: Date
  provider: EmailConfig
  token: string
  theme: Theme
  request: Request
}

export type EmailProviderType = "email"

/** An e-mail (magic link) provider: `sendVerificationRequest` delivers the sign-in link. */
export interface EmailConfig extends CommonProviderOptions {
  type: "email"
  /** The sender address. */
  from?: string
  /** Seconds the link stays valid. */
  maxAge?: number
  sendVerificationRequest(params: EmailProviderSendVerificationRequestParams): Awaitable<void>
  /** Hashes the token before it is stored (default: the config's secret). */
  secret?: string
  /** For providers that send through an HTTP API. */
  apiKey?: string
  /** For providers that send through SMTP: a connection URL or transport options. */
  server?: unknown
  generateVerificationToken?(): Awaitable<string>
  normalizeIdentifier?(identifier: string): string
  /**
   * Sign the mailbox owner into an existing user whose address was never proven (made by a credentials sign-in or an
   * unverifying provider), as Auth.js does. Off by default: such a user belongs to whoever made it (EM-10).
   */
  allowDangerousEmailAccountLinking?: boolean
  options?: EmailUserConfig
}

/** What an e-mail provider function accepts. */
export type EmailUserConfig = Omit<Partial<EmailConfig>, "options" | "type">

// Any object of these types is accepted as a provider (an e-mail provider's `sendVerificationRequest` is checked when
// the config is resolved). The index signatures are `any` (not `unknown`) so interfaces such as @auth/core's
// EmailConfig and WebAuthnConfig fit too.
export interface EmailConfigBase extends CommonProviderOptions {
  type: "email"
  [key: string]: any
}
export interface WebAuthnConfigBase extends CommonProviderOptions {
  type: "webauthn"
  [key: string]: any
}

/** The named keys of a type, without its string/number index signature (so Omit and Partial keep them typed). */
type KnownKeys<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] }

/** What a built-in provider function accepts: everything optional (client id and secret may come from env). */
export type OAuthUserConfig<P = Record<string, unknown>> = Partial<
  Omit<KnownKeys<OAuthConfigBase<P>>, "options" | "type">
>
export type OIDCUserConfig<P = Record<string, unknown>> = Partial<Omit<KnownKeys<OIDCConfig<P>>, "options" | "type">>

/** `Record<string, any>` (not `unknown`): every profile interface (VkProfile, …) must fit, as in Auth.js. */
export type ProviderConfig =
  | CredentialsConfig
  | OAuthConfigBase<Record<string, any>>
  | EmailConfigBase
  | WebAuthnConfigBase

/**
 * A provider as `providers: [...]` accepts it: a config object, or a function returning one (called with no arguments).
 * `P` types an OAuth provider's profile, as in Auth.js's `Provider<P>`.
 */
export type Provider<P extends Record<string, any> = Record<string, any>> =
  | Exclude<ProviderConfig, OAuthConfigBase<Record<string, any>>>
  | OAuthConfigBase<P>
  | ((options?: Record<string, unknown>) => ProviderConfig)

/** The `providers` option. */
export type AppProviders = Provider[]

/** A provider as `GET /providers` lists it. */
export interface AppProvider extends CommonProviderOptions {
  signinUrl: string
  callbackUrl: string
}
