// The public types of gatehouse/v4 (next-auth 4.24's `next-auth` module): AuthOptions and the shapes it names.
// Records whose shape agrees with Gatehouse's (User, Session, Account, Profile, JWT, Theme, …) are Gatehouse's own
// types re-exported, so `declare module "gatehouse/v4" { interface Session { … } }` reaches the same declaration
// the session code returns; the rest are declared here as next-auth 4 declares them (v4's logger, jwt options,
// callbacks and events with required members, for `Parameters<CallbacksOptions["session"]>` and the like).
import type { Adapter, AdapterUser } from "../../adapters/index.js"
import type { Provider } from "../../providers/types.js"
import type {
  Account,
  Awaitable,
  AuthAction as CoreAuthAction,
  CookieSerializeOptions,
  CookiesOptions as CoreCookiesOptions,
  CredentialInput,
  DefaultSession,
  JWT,
  PagesOptions,
  Profile,
  Session,
  SessionOptions as CoreSessionOptions,
  Theme,
  User,
} from "../../types.js"

export type {
  Account,
  Awaitable,
  CookieOption,
  DefaultSession,
  DefaultUser,
  PagesOptions,
  Profile,
  Session,
  Theme,
  TokenSet,
  User,
} from "../../types.js"

/** An ISO 8601 date string (a session's `expires`). */
export type ISODateString = string

/** next-auth 4's logger: a code first, then details. Gatehouse calls `error` with the error's code in v4's spelling. */
export interface LoggerInstance {
  warn: (code: string) => void
  error: (code: string, metadata: unknown) => void
  debug: (code: string, metadata: unknown) => void
}

/** next-auth 4's `jwt.encode` parameters: no `salt` means the session token's (""). */
export interface JWTEncodeParams {
  token?: JWT
  salt?: string
  secret: string | Buffer
  /** Seconds; default 30 days. */
  maxAge?: number
}

/** next-auth 4's `jwt.decode` parameters: no `salt` means the session token's (""). */
export interface JWTDecodeParams {
  token?: string
  salt?: string
  secret: string | Buffer
}

/** The `jwt` option of next-auth 4. */
export interface JWTOptions {
  /** @deprecated Use the top-level `secret` (or NEXTAUTH_SECRET). */
  secret: string
  maxAge: number
  encode: (params: JWTEncodeParams) => Awaitable<string>
  decode: (params: JWTDecodeParams) => Awaitable<JWT | null>
}

/** A secret as next-auth 4 takes it. */
export type Secret = string | Buffer

export type SessionStrategy = CoreSessionOptions["strategy"]

/**
 * The `session` option of next-auth 4: Gatehouse's (maxAge: seconds until an idle session expires, default 30 days;
 * updateAge: seconds between extensions, default 1 day, 0 on every read), whose token generator may be async.
 */
export interface SessionOptions extends Omit<CoreSessionOptions, "generateSessionToken"> {
  generateSessionToken: () => Awaitable<string>
}

/** The cookies next-auth 4 lets an app rename or re-attribute: Gatehouse's but the passkey challenge (v4 has none). */
export interface CookiesOptions extends Omit<CoreCookiesOptions, "webauthnChallenge"> {}

/** next-auth 4's callbacks (each one optional in AuthOptions through Partial). */
export interface CallbacksOptions<P = Profile, A = Account> {
  signIn: (params: {
    user: User | AdapterUser
    account: A | null
    profile?: P
    email?: { verificationRequest?: boolean }
    credentials?: Record<string, CredentialInput>
  }) => Awaitable<string | boolean>
  redirect: (params: { url: string; baseUrl: string }) => Awaitable<string>
  session: (
    params: {
      session: Session
      /** JWT strategy. */
      token: JWT
      /** Database strategy. */
      user: AdapterUser
    } & {
      /** Database strategy, `trigger: "update"`: what the client sent; validate it. */
      // biome-ignore lint/suspicious/noExplicitAny: arbitrary client data, typed as next-auth 4 types it
      newSession: any
      trigger: "update"
    },
  ) => Awaitable<Session | DefaultSession>
  jwt: (params: {
    token: JWT
    user: User | AdapterUser
    account: A | null
    profile?: P
    trigger?: "signIn" | "signUp" | "update"
    /** @deprecated Use `trigger === "signUp"`. */
    isNewUser?: boolean
    /** `trigger: "update"`: what the client sent; validate it. */
    // biome-ignore lint/suspicious/noExplicitAny: arbitrary client data, typed as next-auth 4 types it
    session?: any
  }) => Awaitable<JWT>
}

/** next-auth 4's events. */
export interface EventCallbacks {
  signIn: (message: { user: User; account: Account | null; profile?: Profile; isNewUser?: boolean }) => Awaitable<void>
  signOut: (message: { session: Session; token: JWT }) => Awaitable<void>
  createUser: (message: { user: User }) => Awaitable<void>
  updateUser: (message: { user: User }) => Awaitable<void>
  linkAccount: (message: { user: User | AdapterUser; account: Account; profile: User | AdapterUser }) => Awaitable<void>
  session: (message: { session: Session; token: JWT }) => Awaitable<void>
}

export type EventType = keyof EventCallbacks

/** The actions of next-auth 4's route (the first segment after `/api/auth`): Gatehouse's but passkeys, and `_log`. */
export type AuthAction = Exclude<CoreAuthAction, "webauthn-options"> | "_log"

/** The options of NextAuth, getServerSession and (their `pages`) withAuth: next-auth 4's AuthOptions. */
export interface AuthOptions {
  /** Providers, from `gatehouse/v4/providers/<id>` (or Gatehouse's own provider configs). */
  providers: Provider[]
  /** Default: `jwt.secret`, then NEXTAUTH_SECRET, then AUTH_SECRET. A list rotates: the first seals, each reads. */
  secret?: string | string[]
  session?: Partial<SessionOptions>
  jwt?: Partial<JWTOptions>
  pages?: Partial<PagesOptions>
  callbacks?: Partial<CallbacksOptions>
  events?: Partial<EventCallbacks>
  adapter?: Adapter
  debug?: boolean
  logger?: Partial<LoggerInstance>
  theme?: Theme
  useSecureCookies?: boolean
  cookies?: Partial<CookiesOptions>
}

/** next-auth 4's other name for AuthOptions. */
export type NextAuthOptions = AuthOptions

/** The request next-auth 4's core handler reads (exported by `next-auth` as a type). */
export interface RequestInternal {
  url?: URL
  method?: "GET" | "POST"
  cookies?: Partial<Record<string, string>>
  headers?: Record<string, unknown>
  query?: Record<string, unknown>
  body?: Record<string, unknown>
  action: AuthAction
  providerId?: string
  error?: string
}

/** The answer of next-auth 4's core handler (exported by `next-auth` as `OutgoingResponse`). */
export interface OutgoingResponse<Body = unknown> {
  status?: number
  headers?: { key: string; value: string }[]
  body?: Body
  redirect?: string
  cookies?: { name: string; value: string; options: CookieSerializeOptions }[]
}
