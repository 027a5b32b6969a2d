// The values passed between the stages, in one module of their own (docs/contributing.md#rule-8): the resolved config,
// the request as the handler reads it, the identity a sign-in flow verified, what linking made of it, and the session
// strategy interface. Types only; every folder imports them from here, so no stage imports back up the data flow.
import type { Adapter, AdapterAccount, AdapterAuthenticator, AdapterUser } from "./adapters/index.js"
import type { GuardedAdapter } from "./adapters/guarded-adapter.js"
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
import type { PageLocale } from "./pages/locales/types.js"
import type {
  AuthAction,
  AuthConfig,
  ResponseInternal,
  WarningCode,
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
  readonly type: OAuthConfigBase["type"]
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
  /**
   * OpenID Connect (`type: "oidc"`): the token response must carry an ID token, whose claims are the profile unless
   * `idToken` is false, and an issuer is required. Plain OAuth 2 otherwise.
   */
  readonly oidc: boolean
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

/**
 * The wire format a config speaks: "authjs" (Auth.js v5, the default) or "next-auth-v4" (next-auth 4.24's cookie
 * names, session JWE, `{}` for no session, origin and error rules), chosen by the `nextAuthV4` marker (symbols.ts).
 */
export type WireFormat = "authjs" | "next-auth-v4"

/** The config after defaults, checks and derivations; built once per config object and frozen. */
export interface ResolvedConfig {
  readonly source: AuthConfig
  /** The wire format: next-auth 4's when the config carries the `nextAuthV4` marker, else Auth.js's. */
  readonly wire: WireFormat
  readonly basePath: string
  readonly secrets: readonly string[]
  /** The secret as Auth.js stringifies it for CSRF hashes (arrays comma-joined). */
  readonly csrfSecret: string
  readonly providers: ReadonlyMap<string, ResolvedProvider>
  readonly providerList: readonly ResolvedProvider[]
  /** `tokens` and `cookieBudget` resolved: the default filled in, both limits set (session/cookie-budget.ts), or false. */
  readonly session: Readonly<
    Omit<SessionOptions, "tokens" | "cookieBudget"> & {
      tokens: "cookie" | "server"
      cookieBudget: { cookie: number; header: number } | false
    }
  >
  /** How sessions are issued, read, updated and revoked: chosen once here from `session.strategy`. */
  readonly sessionStrategy: SessionStrategy
  /** The sign-in kind of a configured provider (flows/registry.ts): a lookup by its type, which resolution checked. */
  kindOf(provider: ResolvedProvider): SignInKind
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
  /** `session.revocation` resolved (session/revocation.ts), or undefined when it is off. */
  readonly revocation: ResolvedRevocation | undefined
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

/** `session.revocation` with its defaults filled in. */
export interface ResolvedRevocation {
  readonly onStoreError: "deny" | "allow"
  readonly cacheSeconds: number
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
  /** The names a form body sends more than once, each at its second showing (empty for any other body). */
  readonly repeatedFields: readonly string[]
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
  /** The id the session list gives the request's session (`session.revocation`), when it carries a valid one. */
  listedIdOf(req: AuthRequest, config: ResolvedConfig): Promise<string | undefined>
  /** Ends a listed session wherever its cookie is (gatehouse/sessions); throws when it could not. */
  endListed(entry: ListedSession, config: ResolvedConfig): Promise<void>
}

/** A session as the per-user session list in the store keeps it (session/session-list.ts). Times in ms since the epoch. */
export interface ListedSession {
  /** The session id: a JWT session's `sid`; for a database session an HMAC of its token, never the token. */
  id: string
  createdAt: number
  expires: number
  lastSeenAt?: number
  userAgent?: string
  /** Database sessions: the session token, sealed under the secret, so the session can be ended through the adapter. */
  sealed?: string
}

/** The routes of `/<action>/<provider id>` a sign-in kind answers. */
export type KindAction = "signin" | "callback" | "webauthn-options"

/**
 * What the router runs before a kind's step on one route, in this order: the CSRF check, then the sign-in rate limit,
 * then the step (docs/security.md CR-03, RL-01). The method check (405) and the provider lookup come before all of it.
 */
export interface KindRoute {
  /** The methods of this route for the kind's providers, where they narrow the action's (actions/table.ts). */
  readonly methods?: readonly ("GET" | "POST")[]
  /** The POST must carry a valid CSRF token and come from this site. */
  readonly csrf: boolean
  /** Counted by the sign-in rate limit (rate-limit/sign-in-limit.ts), after the CSRF check. */
  readonly rateLimit?: KindRateLimit
}

/** How the sign-in rate limit counts a kind's attempts (docs/rate-limit.md). */
export interface KindRateLimit {
  /** The identifiers an attempt is counted under, each its own key (the client address is counted besides). */
  identifiers(body: Readonly<Record<string, unknown>>, provider: ResolvedProvider): string[]
  /** A step that succeeded takes its attempt back, so only failures use up the limit (credentials). */
  readonly undoOnSuccess: boolean
}

/** What a kind's callback step hands the shared callback path: an identity and the cookies the step sets, or a redirect. */
type KindFinish = { identity: VerifiedIdentity; cookies: Cookie[] } | { redirect: string }

/** What a kind's provider resolution may read besides the provider. */
interface KindResolveContext {
  /** The provider's position in `providers`, for messages. */
  readonly index: number
  /** `redirectProxyUrl` of the config, else AUTH_REDIRECT_PROXY_URL. */
  readonly redirectProxyUrl: string | undefined
}

/** How account linking (account/link.ts) finds the user a kind's verified identity signs in as. */
export interface LinkRule {
  /**
   * "account": the user of the account row, else the signed-in user or the user with the e-mail (when both sides vouch
   * for it), else a new user; "mailbox": the user of the proven address (no account row); "flow-id": the user of the
   * id the flow vouches for (found by id or account row, else created), never one found by e-mail.
   */
  readonly user: "account" | "mailbox" | "flow-id"
  /** Users and accounts go through the adapter under JWT sessions too (credentials: only with database sessions). */
  readonly withJwtSessions: boolean
  /** The account may be linked to the user already signed in on this browser. */
  readonly toSignedInUser: boolean
  /** A user created now keeps the flow's id (WebAuthn: the credential's user handle) instead of a new UUID. */
  readonly keepsFlowUserId: boolean
}

/**
 * One kind of sign-in (credentials, e-mail, OAuth/OIDC with its OAuth 1.0a variant, WebAuthn): everything the
 * handler does differently for its providers, in one object per kind (flows/kinds/), found through the registry
 * (flows/registry.ts) by the provider's `type`. Every stage reads these properties instead of comparing types.
 */
export interface SignInKind {
  /** How messages name the kind's providers ("the email provider", "the WebAuthn provider"). */
  readonly label: string
  /** Validates one configured provider and returns it resolved; throws the AuthError that refuses the config. */
  resolve(provider: ProviderConfig, context: KindResolveContext): ResolvedProvider
  /**
   * The environment variables `setEnvDefaults` fills the kind's providers from: field -> suffix of `AUTH_<ID>_`
   * (OAuth: `clientId` from AUTH_<ID>_ID, ...).
   */
  readonly env: Readonly<Record<string, string>>
  /** Off unless the config sets `experimental.<flag>: true`. */
  readonly experimental?: "enableWebAuthn"
  /** The adapter methods a config with one of the kind's providers needs, and what it needs the adapter for. */
  readonly adapter?: { readonly methods: readonly (keyof Adapter)[]; readonly purpose: string }
  /** Checks the kind's providers of one config together, after the adapter check (first error wins). */
  checkProviders?(providers: readonly ResolvedProvider[]): AuthError | undefined
  /** A warning logged once when a config with one of the kind's providers is resolved, if any. */
  warning?(context: { canonicalUrl: URL | undefined; trustedOrigins: readonly string[] }): WarningCode | undefined
  /** Form fields the kind's steps read besides the common ones (router.ts): a repeat of any is refused (docs/security.md HN-01). */
  readsFields?(provider: ResolvedProvider): readonly string[]
  /** The guards of each route, and the step the route runs once they pass. */
  readonly routes: KindRoutes
  /**
   * Where a form POST of the user's input starts a sign-in (the sign-in page's forms and buttons, the server-side and
   * browser `signIn`): `/signin/<id>`, or `/callback/<id>` when the input itself signs in.
   */
  readonly formAction: "signin" | "callback"
  readonly linking: LinkRule
  /** The signIn event reports `isNewUser` (OAuth also reports the profile; credentials neither, as in Auth.js). */
  readonly reportsNewUser: boolean
  /** Its providers may refresh access tokens (`refreshAccessToken`) in JWT sessions (session/refresh.ts). */
  readonly refreshesAccessTokens: boolean
  /** Its accounts hold the user's authenticators (passkeys), which gatehouse/authenticators lists and removes. */
  readonly holdsAuthenticators: boolean
  /** Its part of the built-in sign-in page (pages/signin.ts). */
  readonly page: SignInPageSection
}

/** The routes of a sign-in kind: the guards of each, and the step it runs once they pass. */
export interface KindRoutes {
  /** POST /signin/<id>: start the sign-in (a redirect to the provider, a mailed link, or back to the sign-in page). */
  readonly signin: KindRoute & {
    start(req: AuthRequest, config: ResolvedConfig, provider: ResolvedProvider): Promise<ResponseInternal>
  }
  /** /callback/<id>: finish the sign-in; actions/callback.ts takes the identity on to a session. */
  readonly callback: KindRoute & {
    finish(req: AuthRequest, config: ResolvedConfig, provider: ResolvedProvider): Promise<KindFinish>
  }
  /** GET /webauthn-options/<id>: the options of the browser ceremony, for kinds that have one. */
  readonly "webauthn-options"?: KindRoute & {
    options(
      req: AuthRequest,
      config: ResolvedConfig,
      provider: ResolvedProvider,
    ): Promise<{ status: number; body: unknown; cookies: Cookie[] }>
  }
}

/** A form field as the page renders it (credentials `credentials` and WebAuthn `formFields`, Auth.js's shape). */
export interface FieldSpec {
  label?: unknown
  type?: unknown
  placeholder?: unknown
  autocomplete?: unknown
  required?: unknown
}

/** A field of a form on the page, planned before any is rendered so labels and ids can be checked page-wide. */
export interface PlannedField {
  name: string
  spec: FieldSpec
  label: string
}

/**
 * A sign-in kind's part of the built-in sign-in page. The page lays out the places in a fixed order (the buttons, the
 * main form, the further methods) and renders each place the same way for every kind that uses it.
 */
interface SignInPageSection {
  /**
   * Where the provider goes: "button", a button at the top (OAuth); "form", the main form or one behind a disclosure
   * (a form with no fields is left out); "passkey", a passkey button and a "Create a passkey" form.
   */
  readonly place: "button" | "form" | "passkey"
  /** The fields of its form, with their labels (none for a button). */
  fields(p: ResolvedProvider, locale: PageLocale): PlannedField[]
  /** The field that names the user: kept by the form script after a failure, and where passkeys are offered. */
  identifierField?(p: ResolvedProvider): string | undefined
  /** The provider's name in the page's language, when it keeps the kind's default name (Auth.js's "Email"). */
  localName?(p: ResolvedProvider, locale: PageLocale): string | undefined
  /** The `?error=` code of a failed sign-in with this form: the first such form is shown open. */
  readonly failureCode?: string
  /** A passkey provider that offers its passkeys in the main form's identifier field (`enableConditionalUI`). */
  conditionalUI?(p: ResolvedProvider): boolean
}
