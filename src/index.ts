// Public entry of `gatehouse`: named re-exports only.
export { Auth } from "./auth.js"
export { isAuthAction } from "./actions/table.js"
export { createActionURL, setEnvDefaults } from "./config/env.js"
export { customFetch, raw, skipCSRFCheck } from "./symbols.js"
export type {
  Account,
  AuthAction,
  AuthConfig,
  Awaitable,
  CallbacksOptions,
  Cookie,
  CookieOption,
  CookieSerializeOptions,
  CookiesOptions,
  CredentialInput,
  DefaultSession,
  EventCallbacks,
  JWT,
  JWTOptions,
  LoggerInstance,
  PagesOptions,
  Profile,
  ResponseInternal,
  Session,
  SessionOptions,
  SessionRevocationOptions,
  Theme,
  TokenSet,
  User,
} from "./types.js"
export type { InferJWT, InferSession } from "./infer.js"
export type { Provider, ProviderType } from "./providers/types.js"
export type { Adapter, AdapterAccount, AdapterSession, AdapterUser, VerificationToken } from "./adapters/index.js"
export type { SharedStore } from "./stores/index.js"
