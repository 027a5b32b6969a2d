// Public types: the config, callbacks, events, session and JWT shapes (same names and fields as @auth/core).
import type { raw, skipCSRFCheck } from "./symbols.js"
import type { Adapter, AdapterSession, AdapterUser } from "./adapters/index.js"
import type { Provider } from "./providers/types.js"
import type { RateLimitOptions } from "./rate-limit/index.js"
import type { SharedStore } from "./stores/index.js"
import type { Account, Awaitable, CredentialInput, Profile, Theme, User } from "./records.js"
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from "./webauthn/types.js"

export type {
  Account,
  AuthorizationDetails,
  Awaitable,
  CredentialInput,
  DefaultUser,
  JsonValue,
  Profile,
  Theme,
  TokenSet,
  User,
} from "./records.js"
export type { AdapterAuthenticator as Authenticator } from "./adapters/index.js"

/** The value a promise resolves to (Auth.js exports this helper from its types). */
export type Awaited<T> = T extends Promise<infer U> ? U : T

/** A version such as `v9`, `v9.0` or `v9.0.1`. */
export type SemverString = `v${number}` | `v${number}.${number}` | `v${number}.${number}.${number}`

/** The `?error=` codes of the error page. */
export type ErrorPageParam = "Configuration" | "AccessDenied" | "Verification"

/** The `?error=` codes the sign-in page shows. */
export type SignInPageErrorParam =
  | "Signin"
  | "OAuthSignin"
  | "OAuthCallbackError"
  | "OAuthCreateAccount"
  | "EmailCreateAccount"
  | "Callback"
  | "OAuthAccountNotLinked"
  | "EmailSignin"
  | "CredentialsSignin"
  | "SessionRequired"

/** A provider as `GET /providers` lists it. */
export interface PublicProvider {
  id: string
  name: string
  type: string
  signinUrl: string
  callbackUrl: string
}

/** What `GET /webauthn-options/<id>` answers: the options for the ceremony the server chose. */
export type WebAuthnOptionsResponseBody =
  | { action: "authenticate"; options: PublicKeyCredentialRequestOptionsJSON }
  | { action: "register"; options: PublicKeyCredentialCreationOptionsJSON }

/** Every action the handler answers, as the first path segment after `basePath` (actions/table.ts has a rule for each). */
export type AuthAction =
  | "callback"
  | "csrf"
  | "error"
  | "providers"
  | "session"
  | "signin"
  | "signout"
  | "verify-request"
  | "webauthn-options"

/** The claims Gatehouse puts in every session JWT (Auth.js's `DefaultJWT`). */
export interface DefaultJWT extends Record<string, unknown> {
  name?: string | null
  email?: string | null
  picture?: string | null
  sub?: string
  iat?: number
  exp?: number
  jti?: string
}

/**
 * The JWT kept (encrypted) in the session cookie under the `jwt` strategy. Add claims by module augmentation:
 * `declare module "gatehouse/jwt" { interface JWT { role?: string } }` (or of `gatehouse/types`).
 */
export interface JWT extends DefaultJWT {}

/**
 * What `/session` returns by default: the user's name, e-mail and image, and the expiry (ISO date). When a provider's
 * access token could not be refreshed (`refreshAccessToken`), the default session also carries
 * `error: "RefreshTokenError"`; declare it on `Session` by augmentation to read it typed (it is not declared here, so
 * an app's own `error` declaration, of whatever type, does not clash).
 */
export interface DefaultSession {
  user?: User
  expires: string
}

/**
 * What `/session` returns to the client. Add fields by module augmentation, as with Auth.js:
 * `declare module "gatehouse/types" { interface Session { userId: string } }`.
 */
export interface Session extends DefaultSession {}

export interface CookieOption {
  name: string
  options: CookieSerializeOptions
}

/** Cookie attributes (the subset of the `cookie` package options Gatehouse writes). */
export interface CookieSerializeOptions {
  path?: string
  domain?: string
  expires?: Date
  maxAge?: number
  httpOnly?: boolean
  secure?: boolean
  sameSite?: "lax" | "strict" | "none" | boolean
  partitioned?: boolean
}

export interface CookiesOptions {
  sessionToken: CookieOption
  callbackUrl: CookieOption
  csrfToken: CookieOption
  pkceCodeVerifier: CookieOption
  state: CookieOption
  nonce: CookieOption
  webauthnChallenge: CookieOption
}

export interface JWTEncodeParams<Payload = JWT> {
  token?: Payload
  salt: string
  secret: string | string[]
  maxAge?: number
}

export interface JWTDecodeParams {
  token?: string
  salt: string
  secret: string | string[]
}

export interface JWTOptions {
  /** Seconds until the token expires. Default: `session.maxAge`. */
  maxAge: number
  encode: (params: JWTEncodeParams) => Awaitable<string>
  decode: (params: JWTDecodeParams) => Awaitable<JWT | null>
}

export interface SessionOptions {
  strategy: "jwt" | "database"
  maxAge: number
  updateAge: number
  generateSessionToken: () => string
  /**
   * Where a JWT session keeps the provider's tokens (access, refresh, ID) of an OAuth/OIDC sign-in. `"cookie"` (the
   * default, as Auth.js): in the session token, and only for a provider with `refreshAccessToken: true`. `"server"`:
   * for every OAuth/OIDC sign-in, sealed in `store` under the session id (TTL `maxAge`, renewed on re-issue, deleted on
   * sign-out); the cookie holds a reference only. Either way the `jwt` and `session` callbacks read them as
   * `token.account`: read them there instead of copying them into the token. Gatehouse only (docs/guide.md
   * "Cookie budget").
   */
  tokens?: "cookie" | "server"
  /**
   * When a JWT session cookie (all its chunks) passes `cookie` bytes, or the Cookie header it makes with the request's
   * other cookies passes `header` bytes, the logger gets one `session-cookie-size` warning per config naming the
   * largest claims. Default `{ cookie: 4096, header: 8192 }` (nginx's default header buffer); `false` turns it off.
   * Gatehouse only.
   */
  cookieBudget?: { cookie?: number; header?: number } | false
  /**
   * Lets `gatehouse/sessions` list a user's sessions and revoke them (one, or all: "sign out everywhere"), and makes
   * sign-out end a copied cookie too. Off by default: the JWT session check then makes no store call. JWT sessions
   * keep the list and the revocation entries in `store` (the default memory store serves one process only; with
   * several processes use `gatehouse/stores/postgres` or `/redis`); database sessions keep the list there and end a
   * session by deleting its row. Gatehouse only (docs/guide.md, "Listing and revoking sessions").
   */
  revocation?: boolean | SessionRevocationOptions
}

/** The options of `session.revocation` (Gatehouse only). */
export interface SessionRevocationOptions {
  /**
   * What a JWT session check does when the store cannot say whether the session was revoked: `"deny"` (the default)
   * answers no session for that request, keeping the cookie, so a store an attacker can disturb never revives a
   * revoked cookie; `"allow"` serves the session. Under `"deny"` a sign-in whose session cannot be listed fails.
   */
  onStoreError?: "deny" | "allow"
  /**
   * Seconds a process trusts its own "not revoked" answer for a session before asking the store again (default 1;
   * 0 asks on every check). It bounds how long a revocation takes to reach another process; a store with
   * notifications (Redis, PostgreSQL) usually brings that down to milliseconds.
   */
  cacheSeconds?: number
}

export interface PagesOptions {
  signIn: string
  signOut: string
  error: string
  verifyRequest: string
  newUser: string
}

/**
 * The warning codes Gatehouse emits: Auth.js's, plus `credentials-authorize-missing-id` and `rate-limit-proxy-untrusted`
 * (a proxy in front sends X-Forwarded-For but `rateLimit.clientAddress` is not set; docs/rate-limit.md).
 */
export type WarningCode =
  | "debug-enabled"
  | "csrf-disabled"
  | "experimental-webauthn"
  | "env-url-basepath-redundant"
  | "env-url-basepath-mismatch"
  | "credentials-authorize-missing-id"
  | "rate-limit-proxy-untrusted"
  // An e-mail provider with neither AUTH_URL nor trustedOrigins: its sign-ins are refused (docs/providers/email.md).
  | "email-link-origin-missing"
  // secret[N] (N >= 1, a retired secret) is shorter than 32 characters: it only opens what it sealed before.
  | `secret-${number}-short`
  // A JWT session cookie passed session.cookieBudget: the metadata gives the sizes and the largest claims' names.
  | "session-cookie-size"

/** Methods (not function properties), so an Auth.js logger object fits as it is. */
export interface LoggerInstance {
  /** `metadata`: only for some codes (`session-cookie-size`: sizes and claim names); never a token or secret. */
  warn(code: WarningCode, metadata?: Record<string, unknown>): void
  error(error: Error): void
  debug(message: string, metadata?: unknown): void
}

/** Callbacks are declared as methods so Auth.js callback objects (typed against @auth/core) fit as they are. */
export interface CallbacksOptions {
  signIn?(params: {
    user: User | AdapterUser
    account?: Account | null
    profile?: Profile
    email?: { verificationRequest?: boolean }
    /** The credentials as submitted (their values are strings); typed as in Auth.js so its callbacks compile. */
    credentials?: Record<string, CredentialInput>
  }): Awaitable<boolean | string>
  redirect?(params: { url: string; baseUrl: string }): Awaitable<string>
  /**
   * Shapes what `/session` returns. JWT strategy: `{ session, token }`; database strategy: `{ session, user }`
   * (plus `newSession` and `trigger: "update"` on updates). Typed as the intersection, as in Auth.js.
   */
  session?(params: {
    session: { user: AdapterUser } & AdapterSession & Session
    token: JWT
    user: AdapterUser
    /** The client's update data (`trigger: "update"`); validate before use. */
    newSession: any // eslint-disable-line @typescript-eslint/no-explicit-any -- as in Auth.js: arbitrary client data
    trigger?: "update"
  }): Awaitable<Session | DefaultSession | Record<string, unknown> | null>
  jwt?(params: {
    token: JWT
    user: User | AdapterUser
    account?: Account | null
    profile?: Profile
    trigger?: "signIn" | "signUp" | "update"
    isNewUser?: boolean
    /** The client's update data (`trigger: "update"`); validate before use. */
    session?: any // eslint-disable-line @typescript-eslint/no-explicit-any -- as in Auth.js: arbitrary client data
  }): Awaitable<JWT | null>
}

export interface EventCallbacks {
  signIn?(message: { user: User; account?: Account | null; profile?: Profile; isNewUser?: boolean }): Awaitable<void>
  /** Database strategy: `{ session }` (what deleteSession returned); JWT strategy: `{ token }`. */
  signOut?(message: { session: AdapterSession | null | undefined | void } | { token: JWT | null }): Awaitable<void>
  createUser?(message: { user: User }): Awaitable<void>
  updateUser?(message: { user: User }): Awaitable<void>
  linkAccount?(message: { user: User | AdapterUser; account: Account; profile: User | AdapterUser }): Awaitable<void>
  /** JWT strategy: `{ session, token }`; database strategy: `{ session }` (typed as in Auth.js). */
  session?(message: { session: Session; token: JWT }): Awaitable<void>
}

/** The configuration of `Auth()`. Only `providers` is required. */
export interface AuthConfig {
  providers: Provider[]
  adapter?: Adapter
  /** Milliseconds an adapter call may take before it fails with AdapterError (default 10000). Gatehouse only. */
  adapterTimeout?: number
  basePath?: string
  callbacks?: CallbacksOptions
  cookies?: Partial<{
    [K in keyof CookiesOptions]: Partial<CookieOption> & { options?: Partial<CookieSerializeOptions> }
  }>
  debug?: boolean
  events?: EventCallbacks
  experimental?: { enableWebAuthn?: boolean }
  jwt?: Partial<JWTOptions>
  /**
   * Language of the built-in pages (`"en"`, `"de"`, or a tag such as `"de-AT"`, matched by its language). Unset: each
   * request's Accept-Language picks one, English when none matches. Gatehouse only (docs/pages.md).
   */
  locale?: string
  logger?: Partial<LoggerInstance>
  pages?: Partial<PagesOptions>
  /** Set to the `raw` marker (`{ ...config, raw }`) to get the internal response object. */
  raw?: typeof raw
  /**
   * Limits e-mail sign-in requests and credentials attempts per identifier and per client address (docs/rate-limit.md).
   * On by default: 5 per identifier and 30 per address in 15 minutes. `false` turns it off. Gatehouse only.
   */
  rateLimit?: RateLimitOptions | false
  redirectProxyUrl?: string
  /**
   * Origins of this app's other deployments that the redirect proxy may forward an authorization response to:
   * exact origins, or `https://*.preview.example` for one subdomain label. Env: AUTH_TRUSTED_ORIGINS (comma-separated).
   * Gatehouse only: Auth.js forwards to whatever origin the state names.
   */
  trustedOrigins?: string[]
  secret?: string | string[]
  session?: Partial<SessionOptions>
  /** Set to the `skipCSRFCheck` marker when the framework already protects against CSRF. */
  skipCSRFCheck?: typeof skipCSRFCheck
  /**
   * Where state shared by every app process lives (the cross-process access-token refresh lock and its sealed
   * result): `gatehouse/stores/postgres` or `gatehouse/stores/redis` when you run several processes. Default: an
   * in-memory store, one per process. Gatehouse only.
   */
  store?: SharedStore
  theme?: Theme
  trustHost?: boolean
  useSecureCookies?: boolean
  /**
   * `"accept"`: keep users of a next-auth v4 app (or of `gatehouse/v4`) signed in after the move to this API. A request
   * without this app's session cookie but with next-auth v4's (`next-auth.session-token`, `__Secure-` on https, or its
   * chunks) is read once through the normal session read (the `jwt` and `session` callbacks run), answered with the
   * session, and its cookie re-issued as this app's session cookie while every v4 cookie name is expired in the same
   * response. JWT sessions: the v4 token is decrypted as next-auth 4 encrypted it, under each `secret` in turn (or
   * through a custom `jwt.decode` with the salt `""`). Database sessions: the v4 cookie holds the token of a row in
   * the same sessions table, looked up through the adapter. An unreadable or expired v4 cookie reads as signed out and
   * is expired; a present session cookie of this app always wins. Sign-out ends a v4 session too.
   *
   * Remove it once the v4 session cookie's lifetime (its `session.maxAge`, 30 days by default) has passed since the
   * switch: any v4 cookie left by then has expired. Without it a v4 cookie is ignored. Any other value is a
   * configuration error. Gatehouse only (docs/migration.md).
   */
  v4Cookies?: "accept"
}

/** One cookie to set, as the raw response carries it. */
export interface Cookie {
  name: string
  value: string
  options: CookieSerializeOptions
}

/** The internal response: what `Auth()` returns with the `raw` marker, before it becomes a web `Response`. */
export interface ResponseInternal<Body = unknown> {
  status?: number
  headers?: Record<string, string>
  body?: Body
  redirect?: string
  cookies?: Cookie[]
}
