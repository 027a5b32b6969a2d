// The values passed between the stages, in one module of their own (docs/contributing.md#rule-8): the resolved config,
// the request as the handler reads it, the identity a sign-in flow verified, what linking made of it, and the session
// strategy interface. Types only; every folder imports them from here, so no stage imports back up the data flow.
import type { AdapterAccount, AdapterAuthenticator, AdapterUser } from "./adapters/index.js"
import type { GuardedAdapter } from "./adapters/guard.js"
import type { AuthError } from "./errors.js"
import type { SharedStore } from "./stores/index.js"
import type {
  OAuthCheck,
  OAuthClientOptions,
  OAuthConfigBase,
  ProviderConfig,
  TokenEndpointOption,
  UserinfoEndpointOption,
} from "./providers/types.js"
import type { Account, Awaitable, Theme, TokenSet, User } from "./records.js"
import type {
  AuthAction,
  AuthConfig,
  CallbacksOptions,
  Cookie,
  CookiesOptions,
  EventCallbacks,
  JWTOptions,
  LoggerInstance,
  PagesOptions,
  JWT,
  Session,
  SessionOptions,
} from "./types.js"

/**
 * Header lookup by name (case-insensitive); a `Headers` object is one. Declared here rather than beside RequestInput
 * so the declarations the browser entries reach (through the config types) name nothing of Node's.
 */
export interface HeaderReader {
  get(name: string): string | null
}

/** An endpoint after normalisation. */
export interface Endpoint {
  url: URL | undefined
  params: Record<string, string>
}

/** An OAuth/OIDC provider ready for the flow: every default applied, every URL parsed and checked. */
export interface ResolvedOAuthProvider {
  readonly id: string
  readonly name: string
  readonly type: "oauth" | "oidc"
  readonly issuer: string | undefined
  readonly wellKnown: URL | undefined
  readonly clientId: string
  readonly clientSecret: string | undefined
  readonly client: Readonly<
    OAuthClientOptions & { token_endpoint_auth_method: NonNullable<OAuthClientOptions["token_endpoint_auth_method"]> }
  >
  readonly authorization: Readonly<Endpoint>
  readonly token: Readonly<Endpoint> & {
    conform?: (response: Response) => Awaitable<Response | undefined>
    request?: Extract<TokenEndpointOption, { request?: unknown }>["request"]
  }
  readonly userinfo: Readonly<Endpoint> & {
    request?: Extract<UserinfoEndpointOption, { request?: unknown }>["request"]
  }
  readonly checks: ReadonlySet<Exclude<OAuthCheck, "none">>
  readonly profile: (profile: Record<string, unknown>, tokens: TokenSet) => Awaitable<User>
  /** The provider's `account` callback; a void return means no token fields are stored (as in Auth.js). */
  readonly account: ((tokens: TokenSet) => Record<string, unknown> | undefined | void) | undefined
  readonly idToken: boolean
  /** The proxy's callback URL (`<redirectProxyUrl>/callback/<id>`) when a redirect proxy is used. */
  readonly redirectProxyUrl: string | undefined
  readonly formPost: boolean
  /** Set for OAuth 1.0a providers (`version: "1.0A"`): the four endpoints of RFC 5849. */
  readonly oauth1:
    | Readonly<{ requestTokenUrl: URL; authorizationUrl: URL; accessTokenUrl: URL; profileUrl: URL }>
    | undefined
  readonly allowDangerousEmailAccountLinking: boolean
  readonly refreshAccessToken: boolean
  /** fetch with timeout, no redirects and a size cap (customFetch honoured). */
  readonly fetch: typeof fetch
  readonly style: OAuthConfigBase["style"]
  /** Callback parameters copied onto the raw profile (OAuthConfigBase.profileCallbackFields). */
  readonly profileCallbackFields: readonly string[]
  /** A multi-tenant issuer's placeholder and the ID token claim that fills it (OAuthConfigBase.issuerTemplate). */
  readonly issuerTemplate: Readonly<{ placeholder: string; claim: string }> | undefined
  /** The provider object as configured (for user hooks such as `userinfo.request`). */
  readonly source: OAuthConfigBase
}

/** A provider as the handler uses it: OAuth/OIDC providers fully normalised, others as configured. */
export type ResolvedProvider = ResolvedOAuthProvider | Readonly<Exclude<ProviderConfig, OAuthConfigBase>>

/** The config after defaults, checks and derivations; built once per config object and frozen. */
export interface ResolvedConfig {
  readonly source: AuthConfig
  readonly basePath: string
  readonly secrets: readonly string[]
  /** The secret as Auth.js stringifies it for CSRF hashes (arrays comma-joined). */
  readonly csrfSecret: string
  readonly providers: ReadonlyMap<string, ResolvedProvider>
  readonly providerList: readonly ResolvedProvider[]
  readonly session: Readonly<SessionOptions>
  /** How sessions are issued, read, updated and revoked: chosen once here from `session.strategy`. */
  readonly sessionStrategy: SessionStrategy
  readonly jwt: Readonly<Partial<Pick<JWTOptions, "encode" | "decode">> & { maxAge: number }>
  readonly callbacks: Readonly<CallbacksOptions>
  readonly events: Readonly<EventCallbacks>
  readonly logger: LoggerInstance
  readonly pages: Readonly<Partial<PagesOptions>>
  readonly theme: Readonly<Theme>
  /** The adapter with timeouts and typed errors on every call. */
  readonly adapter: GuardedAdapter | undefined
  /** The shared store (`store`, else the process-wide memory store), with a timeout and typed errors on every call. */
  readonly store: SharedStore
  readonly skipCSRF: boolean
  readonly raw: boolean
  readonly trustHost: boolean
  /** Whether an origin is one of `trustedOrigins` (the redirect proxy forwards only there). */
  readonly isTrustedOrigin: (origin: string) => boolean
  /** AUTH_URL, when set: the canonical origin of every URL the handler builds (docs/security.md HT-02). */
  readonly canonicalUrl: URL | undefined
  readonly useSecureCookies: boolean | undefined
  /** A configuration error found at resolve time; every request answers with it. */
  readonly error: AuthError | undefined
  /** Cookie names and attributes for a secure or plain origin, user overrides applied. */
  cookies(secure: boolean): Readonly<CookiesOptions>
}

/** A request as the handler sees it; built once, read everywhere, never mutated. */
export interface AuthRequest {
  readonly url: URL
  /** The canonical origin (see request/host.ts); base of every URL the handler builds. */
  readonly origin: string
  /** Whether cookies get `Secure` and the `__Secure-`/`__Host-` names. */
  readonly secure: boolean
  readonly action: AuthAction
  readonly providerId: string | undefined
  /** GET or POST (a HEAD is read as its GET, with `head` set). */
  readonly method: string
  /** The request was a HEAD: answer as the GET would, without a body. */
  readonly head: boolean
  /** Single-header lookup (cheap on every front door). */
  readonly header: HeaderReader
  /** All request headers (built on first use by front doors that read native requests). */
  readonly headers: Headers
  readonly cookies: Record<string, string>
  readonly query: URLSearchParams
  /** The parsed body (POST with a form or JSON content type), else an empty object. */
  readonly body: Readonly<Record<string, unknown>>
  /** A form body as sent (duplicates kept), for protocol checks such as form_post callbacks. */
  readonly form: URLSearchParams | undefined
  /** Whether the client asked for `{url}` JSON instead of a redirect. */
  readonly returnRedirect: boolean
  /**
   * The client's IP address, found as `rule` (the resolved `rateLimit.clientAddress`) says (request/parse.ts
   * `clientAddressOf`). Called by the sign-in rate limit only; absent where no sign-in can be (session reads).
   */
  clientAddress?(rule: ClientAddressRule): ClientAddress
}

/**
 * Where the client's address comes from (the resolved `rateLimit.clientAddress`). "default": the framework's own
 * proxy setting where it has one (Express `trust proxy`), else the socket, unknown behind an undeclared proxy;
 * "socket": the socket's address, always; a header: its entry `proxies` places from the right end.
 */
export type ClientAddressRule = "default" | "socket" | { readonly header: string; readonly proxies: number }

/** A client address, or why it is unknown. */
export interface ClientAddress {
  /** The IP address; undefined when unknown (the sign-in rate limit then counts per identifier only). */
  readonly address: string | undefined
  /** A private or loopback peer sent proxy headers (X-Forwarded-For, Forwarded, X-Real-IP) that no setting trusts. */
  readonly undeclaredProxy: boolean
}

/** What every sign-in flow hands on: who signed in, with which account (docs/contributing.md#rule-2). */
export interface VerifiedIdentity {
  user: User & { id: string }
  account: Account
  /** The provider's profile as it sent it (OAuth / OIDC). */
  profile?: Record<string, unknown>
  /** The credentials as submitted (credentials flow only), for the signIn callback. */
  credentials?: Record<string, string>
  /**
   * A WebAuthn registration's new authenticator, stored by account linking once the user is known (in the same
   * transaction as the user and account when the adapter has one).
   */
  authenticator?: Omit<AdapterAuthenticator, "userId">
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
  /** The authenticator a WebAuthn registration stored (for rollback). */
  createdAuthenticator?: AdapterAuthenticator
}

/** A session read: what `/session` answers (null when signed out) and any cookie the read sets or clears. */
export interface SessionAnswer {
  session: Session | null
  cookies?: Cookie[] | undefined
  /** The token after the `jwt` callback (JWT strategy, signed in). Server-side reads hand it to the app (Hono's authUser). */
  token?: JWT
  /** The adapter user (database strategy, signed in). */
  user?: AdapterUser
}

export interface SessionStrategy {
  readonly name: "jwt" | "database"
  /** The user already signed in on this browser (to link a new account to), if it is an adapter user. */
  currentUser(req: AuthRequest, config: ResolvedConfig): Promise<AdapterUser | undefined>
  /** Starts the session of a linked sign-in, replacing any session the browser had; returns its cookies. */
  issue(signedIn: LinkOutcome, identity: VerifiedIdentity, req: AuthRequest, config: ResolvedConfig): Promise<Cookie[]>
  /** Reads the session (and, with `update`, changes it: POST /session); slides its expiry when due. Never throws for bad cookies. */
  read(req: AuthRequest, config: ResolvedConfig, update?: { data: unknown }): Promise<SessionAnswer>
  /** Ends the session (sign-out): fires the signOut event and returns the cookies that expire it. */
  revoke(req: AuthRequest, config: ResolvedConfig): Promise<Cookie[]>
}
