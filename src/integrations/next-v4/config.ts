// The config gatehouse/v4 hands the pipeline: the app's next-auth 4 AuthOptions, copied once per object, with the
// nextAuthV4 marker (next-auth 4's wire format: cookie names, session JWE, NEXTAUTH_URL, and the secret next-auth 4
// would use, which config resolution picks: config/resolve.ts v4Secret) and a v4-style logger adapted to Gatehouse's.
// The app's object is never changed (next-auth 4 wrote the secret into it).
import { resolveConfig } from "../../config/resolve.js"
import { errorProviderOf } from "../../logger.js"
import type { ResolvedConfig } from "../../pipeline-types.js"
import { nextAuthV4 } from "../../symbols.js"
import { PerConfig } from "../front-door.js"
import { fromV4Provider } from "./providers/translate.js"
import type { AuthConfig, LoggerInstance as GatehouseLogger } from "../../types.js"
import type { AuthOptions, LoggerInstance } from "./types.js"

/** A Gatehouse config that asks for next-auth 4's wire format. */
export type V4Config = AuthConfig & { [nextAuthV4]: typeof nextAuthV4 }

/** What getServerSession accepts: AuthOptions whose `providers` may be left out. */
export type PartialAuthOptions = Partial<AuthOptions>

const derived = new PerConfig<V4Config>()

/**
 * Gatehouse's type in next-auth 4's code style, for the errors next-auth 4 has no code of its own for: `RateLimited`
 * → `RATE_LIMITED`, `OAuthAccountNotLinked` → `OAUTH_ACCOUNT_NOT_LINKED` (next-auth 4 writes OAuth as one word).
 */
function derivedCode(text: string): string {
  return text
    .replace(/OAuth/g, "Oauth")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toUpperCase()
}

/** What next-auth 4 hands its logger with a code: the error, or `{ error, providerId }` with what was thrown. */
type V4Metadata = Error | { error: Error; providerId?: string }

/**
 * The code next-auth 4.24.15 logs in the situation each Gatehouse error type reports: its config errors' `code`
 * fields (core/errors.ts) and the codes of its `logger.error` calls. "provider" marks the codes it logs as
 * `{ error, providerId }`, `error` being what was thrown (the Gatehouse error's cause, when it has one). A type not
 * listed is one next-auth 4 has no code for (it answered without logging, or had no such check): its type in the
 * same style.
 */
export const v4ErrorCodes: Readonly<Record<string, readonly [code: string, metadata?: "provider"]>> = {
  MissingSecret: ["NO_SECRET"],
  MissingAdapter: ["EMAIL_REQUIRES_ADAPTER_ERROR"],
  MissingAdapterMethods: ["MISSING_ADAPTER_METHODS_ERROR"],
  MissingAuthorize: ["CALLBACK_CREDENTIALS_HANDLER_ERROR"],
  UnsupportedStrategy: ["CALLBACK_CREDENTIALS_JWT_ERROR"],
  InvalidCallbackUrl: ["INVALID_CALLBACK_URL_ERROR"],
  ErrorPageLoop: ["AUTH_ON_ERROR_PAGE_ERROR"],
  EmailSignInError: ["SIGNIN_EMAIL_ERROR", "provider"],
  OAuthSignInError: ["SIGNIN_OAUTH_ERROR", "provider"],
  OAuthCallbackError: ["OAUTH_CALLBACK_ERROR", "provider"],
  // next-auth 4 put the provider's raw profile beside the error (`OAuthProfile`); Gatehouse keeps profiles out of logs.
  OAuthProfileParseError: ["OAUTH_PARSE_PROFILE_ERROR", "provider"],
  JWTSessionError: ["JWT_SESSION_ERROR"],
  SessionTokenError: ["SESSION_ERROR"],
  SignOutError: ["SIGNOUT_ERROR"],
}

/** An event handler's failure, as events.ts words it: next-auth 4 logs `<EVENT>_EVENT_ERROR` (`SIGN_IN_EVENT_ERROR`). */
const EVENT_MESSAGE = /^The "(\w+)" event handler threw\.$/

/** The `[code, metadata]` next-auth 4 would log for a Gatehouse error (the table above, events and adapter calls). */
export function v4LogCall(error: Error): [code: string, metadata: V4Metadata] {
  const type = (error as { type?: unknown }).type
  const name = typeof type === "string" ? type : error.name || "Error"
  const thrown = error.cause instanceof Error ? error.cause : error
  const entry = v4ErrorCodes[name]
  if (entry) {
    const [code, metadata] = entry
    if (metadata !== "provider") return [code, error]
    const providerId = errorProviderOf(error)
    return [code, providerId === undefined ? { error: thrown } : { error: thrown, providerId }]
  }
  if (name === "EventError") {
    const event = EVENT_MESSAGE.exec(error.message)?.[1]
    if (event) return [`${event.replace(/([A-Z])/g, "_$1").toUpperCase()}_EVENT_ERROR`, thrown]
  }
  // next-auth 4 wrapped each adapter method and logged `adapter_error_<method>` with what the method threw.
  const method = (error as { method?: unknown }).method
  if (name === "AdapterError" && typeof method === "string") return [`adapter_error_${method}`, thrown]
  return [derivedCode(name), error]
}

/** next-auth 4's warning codes for Gatehouse's warnings where it has one; the others in the same style. */
function v4WarningCode(code: string): string {
  return code === "debug-enabled" ? "DEBUG_ENABLED" : code.replace(/-/g, "_").toUpperCase()
}

/** A next-auth 4 logger (code first, then details) as Gatehouse calls its logger (an Error; a warning code). */
function adaptLogger(logger: Partial<LoggerInstance>): Partial<GatehouseLogger> {
  const adapted: Partial<GatehouseLogger> = {}
  if (logger.error) adapted.error = (error) => logger.error?.(...v4LogCall(error))
  if (logger.warn) adapted.warn = (code) => logger.warn?.(v4WarningCode(code))
  if (logger.debug) adapted.debug = (message, metadata) => logger.debug?.(message, metadata)
  return adapted
}

/** The pipeline config for an app's AuthOptions, made once per options object. */
export function v4Config(options: PartialAuthOptions): V4Config {
  return derived.get(options, "", () => {
    const { logger, ...rest } = options
    return {
      ...(rest as unknown as Omit<AuthConfig, "providers">),
      // Custom next-auth 4 provider objects (`{ id, type: "oauth", wellKnown, idToken, … }`) are translated as the
      // gatehouse/v4/providers modules' are; made lazily, so a provider that cannot be translated is a configuration
      // error of this config (config resolution calls the function inside its checks), not a throw here.
      providers: (options.providers ?? []).map(
        (entry: unknown) => () => fromV4Provider(typeof entry === "function" ? (entry as () => unknown)() : entry),
      ) as AuthConfig["providers"],
      ...(logger ? { logger: adaptLogger(logger) } : {}),
      [nextAuthV4]: nextAuthV4,
    } as V4Config
  })
}

/** The resolved config (resolution is memoised per config object). */
export function v4Resolved(options: PartialAuthOptions): ResolvedConfig {
  return resolveConfig(v4Config(options))
}
