// gatehouse/v4/providers/oauth: next-auth 4's OAuth provider option shapes (its `next-auth/providers/oauth` module),
// types only, and the option types of the gatehouse/v4/providers modules. The v4 provider modules
// (gatehouse/v4/providers/<id>) and a custom provider object in this shape are turned into Gatehouse providers by
// translate.ts; docs/migration.md ("From next-auth v4") lists what differs.
import type {
  OAuthClientOptions,
  OAuthConfigBase,
  OAuthUserConfig as GatehouseOAuthUserConfig,
} from "../../../providers/types.js"
import type { Awaitable, Profile, TokenSet, User } from "../../../records.js"

/** The checks a v4 provider may ask for; `"none"` turns them off. */
export type ChecksType = "pkce" | "state" | "none" | "nonce"

/**
 * The check values a v4 `token.request` hook receives. Gatehouse has already compared `state` (and checks the nonce
 * of the ID token itself), so only the PKCE `code_verifier` is passed on.
 */
export interface OAuthChecks {
  code_verifier?: string
  state?: string
  nonce?: string
}

/** Tokens as v4's hooks see them: the token response, with openid-client's `claims()` (the ID token's payload). */
export type V4TokenSet = TokenSet & {
  /** The ID token's claims, decoded; Gatehouse checks the ID token itself after the token request. */
  claims(): Record<string, unknown>
}

/**
 * The `client` a v4 `token.request` / `userinfo.request` hook receives. next-auth 4 passed an openid-client Client;
 * Gatehouse does not use openid-client and passes this stand-in with the calls v4 hooks use (the code exchange, a
 * grant, a refresh, the userinfo request and the metadata). Any other openid-client method throws when called.
 */
export interface V4Client {
  /** The client registration: client_id, client_secret, redirect_uris and the provider's `client` options. */
  metadata: Record<string, unknown>
  /** The endpoints as configured (no discovery is made for the hook). */
  issuer: { metadata: Record<string, unknown> }
  /** The authorization-code exchange at the token endpoint; `extras.exchangeBody` adds form fields. */
  oauthCallback(
    redirectUri: string | undefined,
    parameters: Record<string, unknown>,
    checks?: OAuthChecks,
    extras?: { exchangeBody?: Record<string, unknown> },
  ): Promise<V4TokenSet>
  /** As `oauthCallback`; the ID token in the answer is checked by Gatehouse afterwards, not here. */
  callback(
    redirectUri: string | undefined,
    parameters: Record<string, unknown>,
    checks?: OAuthChecks,
    extras?: { exchangeBody?: Record<string, unknown> },
  ): Promise<V4TokenSet>
  /** A token request with this form body (grant_type and the rest), authenticated as the client. */
  grant(body: Record<string, unknown>): Promise<V4TokenSet>
  /** A refresh_token grant. */
  refresh(refreshToken: string | { refresh_token?: string }): Promise<V4TokenSet>
  /** GET of the userinfo endpoint with the access token as a Bearer token; `params` go into the query. */
  userinfo(
    accessToken: string | { access_token?: string },
    options?: { params?: Record<string, unknown> },
  ): Promise<Profile>
}

/** Endpoint parameters. */
export type UrlParams = Record<string, unknown>

type EndpointRequest<C, R, P> = (
  context: C & {
    /** A stand-in for openid-client's Client (see V4Client). */
    client: V4Client
    /** The provider as configured, with its `callbackUrl` and `signinUrl` where Gatehouse knows them. */
    provider: OAuthConfig<P> & { signinUrl: string; callbackUrl: string }
  },
) => Awaitable<R>

/** An endpoint as an object: its URL, extra parameters and (token, userinfo) a hook that replaces the request. */
export interface EndpointHandler<P extends UrlParams, C = unknown, R = unknown> {
  url?: string
  params?: P
  /** Replaces the request to this endpoint. Called for `token` and `userinfo`; next-auth 4 never called it for `authorization`, nor does Gatehouse. */
  request?: EndpointRequest<C, R, P>
}

export type AuthorizationEndpointHandler = EndpointHandler<UrlParams>

export type TokenEndpointHandler = EndpointHandler<
  UrlParams,
  {
    /** The callback's parameters (code, state, …) and the endpoint's `params`. */
    params: Record<string, string>
    checks: OAuthChecks
  },
  { tokens: TokenSet }
>

export type UserinfoEndpointHandler = EndpointHandler<UrlParams, { tokens: V4TokenSet }, Profile>

/** next-auth 4's button style: the dark variants are accepted and not used by Gatehouse's page. */
export interface OAuthProviderButtonStyles {
  logo?: string
  logoDark?: string
  bg?: string
  bgDark?: string
  text?: string
  textDark?: string
}

/** next-auth 4's `httpOptions` (openid-client's): Gatehouse reads `timeout` only. */
export interface HttpOptions {
  /** Milliseconds; becomes the provider's `timeout`. */
  timeout?: number
  [option: string]: unknown
}

/** An OAuth 2 / OIDC (or, with `version: "1.0A"`, OAuth 1.0a) provider as next-auth 4 declares it. */
export interface OAuthConfig<P> {
  id: string
  name: string
  type: "oauth"
  /** The discovery document's URL: the provider is then OpenID Connect (its issuer is this URL without the well-known path). */
  wellKnown?: string
  /** Accepted, not used: ID token keys come from discovery's `jwks_uri`. */
  jwks_endpoint?: string
  issuer?: string
  authorization?: string | AuthorizationEndpointHandler
  token?: string | TokenEndpointHandler
  userinfo?: string | UserinfoEndpointHandler
  version?: string
  profile: (profile: P, tokens: TokenSet) => Awaitable<User>
  checks?: ChecksType | ChecksType[]
  client?: Partial<OAuthClientOptions>
  /** Client keys for private_key_jwt: not supported (Gatehouse authenticates with the client secret). */
  jwks?: { keys: unknown[] }
  clientId?: string
  clientSecret?: string
  /** Take the profile from the ID token (OpenID Connect). */
  idToken?: boolean
  region?: string
  httpOptions?: HttpOptions
  style?: OAuthProviderButtonStyles
  /** The options given to a provider function, merged over its defaults. */
  options?: OAuthUserConfig<P>
  accessTokenUrl?: string
  requestTokenUrl?: string
  profileUrl?: string
  /** OAuth 1: only HMAC-SHA1 is supported. */
  encoding?: string
  allowDangerousEmailAccountLinking?: boolean
}

/** What a v4 OAuth provider function takes (v4 requires `clientId` and `clientSecret`). */
export type OAuthUserConfig<P> = Omit<Partial<OAuthConfig<P>>, "options" | "type"> &
  Required<Pick<OAuthConfig<P>, "clientId" | "clientSecret">>

/** A v4 OAuth provider function. */
export type OAuthProvider = <P extends Record<string, unknown>>(options: Partial<OAuthConfig<P>>) => OAuthConfig<P>

/**
 * A catalogue provider function. Its parameter is `any` in the constraint: with `never` there, TypeScript reads
 * `Parameters<F>[0]` of a generic F from the constraint and every option becomes `never`.
 */
// biome-ignore lint/suspicious/noExplicitAny: see above; F itself keeps the catalogue function's own parameter type
export type CatalogueProvider = (options?: any) => OAuthConfigBase<object>

type ProfileOf<F extends CatalogueProvider> =
  ReturnType<F> extends OAuthConfigBase<infer P> ? P : Record<string, unknown>

/**
 * What a v4 module of a catalogue provider accepts: the catalogue's options with next-auth 4's shapes and names of
 * the options they share.
 */
export type V4ProviderOptions<F extends CatalogueProvider> = Omit<
  GatehouseOAuthUserConfig<ProfileOf<F>> & NonNullable<Parameters<F>[0]>,
  "authorization" | "token" | "userinfo" | "checks" | "style"
> &
  Partial<
    Pick<
      OAuthUserConfig<ProfileOf<F>>,
      "authorization" | "token" | "userinfo" | "checks" | "httpOptions" | "wellKnown" | "jwks_endpoint" | "region"
    >
  > & {
    style?: OAuthProviderButtonStyles
    /** Azure AD and Azure AD B2C: the tenant (Azure AD default "common"); FusionAuth: the tenant's discovery. */
    tenantId?: string
    /** Azure AD B2C: the user flow (policy) that names the issuer with `tenantId`. */
    primaryUserFlow?: string
    /** Bungie: `{ "X-API-Key": … }` (the catalogue's `apiKey`). */
    headers?: Record<string, string>
  }

export type { V4CredentialsUserConfig } from "./v4-credentials.js"
export type { V4EmailUserConfig } from "./v4-email.js"
