// The config gatehouse/v4 hands the pipeline: the app's next-auth 4 AuthOptions, copied once per object, with the
// nextAuthV4 marker (next-auth 4's wire format: cookie names, session JWE, NEXTAUTH_URL…), the secret next-auth 4
// would use, and a v4-style logger adapted to Gatehouse's. The app's object is never changed (next-auth 4 wrote the
// secret into it).
import { resolveConfig } from "../../config/resolve.js"
import { readEnv } from "../../lib/env.js"
import type { ResolvedConfig } from "../../pipeline-types.js"
import { nextAuthV4 } from "../../symbols.js"
import type { AuthConfig, LoggerInstance as GatehouseLogger } from "../../types.js"
import type { AuthOptions, LoggerInstance } from "./types.js"

/** A Gatehouse config that asks for next-auth 4's wire format. */
export type V4Config = AuthConfig & { [nextAuthV4]: typeof nextAuthV4 }

/** What getServerSession accepts: AuthOptions whose `providers` may be left out. */
export type PartialAuthOptions = Partial<AuthOptions>

const derived = new WeakMap<object, V4Config>()

/** next-auth 4's secret rule: `secret`, else `jwt.secret`, else NEXTAUTH_SECRET, else AUTH_SECRET. */
function v4Secret(options: PartialAuthOptions): string | undefined {
  return options.secret ?? options.jwt?.secret ?? readEnv("NEXTAUTH_SECRET") ?? readEnv("AUTH_SECRET")
}

/** An error type in next-auth 4's code style: `JWTSessionError` → `JWT_SESSION_ERROR`. */
function v4Code(error: Error): string {
  const name = (error as { type?: unknown }).type
  const text = typeof name === "string" ? name : error.name || "Error"
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toUpperCase()
}

/** A next-auth 4 logger (code first, then details) as Gatehouse calls its logger (an Error; a warning code). */
function adaptLogger(logger: Partial<LoggerInstance>): Partial<GatehouseLogger> {
  const adapted: Partial<GatehouseLogger> = {}
  if (logger.error) adapted.error = (error) => logger.error?.(v4Code(error), error)
  if (logger.warn) adapted.warn = (code) => logger.warn?.(code)
  if (logger.debug) adapted.debug = (message, metadata) => logger.debug?.(message, metadata)
  return adapted
}

/** The pipeline config for an app's AuthOptions, made once per options object. */
export function v4Config(options: PartialAuthOptions): V4Config {
  const hit = derived.get(options)
  if (hit) return hit
  const { logger, ...rest } = options
  const config = {
    ...(rest as unknown as Omit<AuthConfig, "providers">),
    providers: (options.providers ?? []) as AuthConfig["providers"],
    secret: v4Secret(options),
    ...(logger ? { logger: adaptLogger(logger) } : {}),
    [nextAuthV4]: nextAuthV4,
  } as V4Config
  derived.set(options, config)
  return config
}

/** The resolved config (resolution is memoised per config object). */
export function v4Resolved(options: PartialAuthOptions): ResolvedConfig {
  return resolveConfig(v4Config(options))
}
