// Environment defaults and URL helpers: setEnvDefaults, createActionURL, isAuthAction (wire.md §7).
import { createLogger } from "../logger.js"
import type { AuthAction, AuthConfig } from "../types.js"
import type { ProviderConfig } from "../providers/types.js"

const actions: ReadonlySet<string> = new Set<AuthAction>([
  "providers", "session", "csrf", "signin", "signout", "callback", "verify-request", "error", "webauthn-options",
])

/** True when the string is one of the handler's actions. */
export function isAuthAction(action: string): action is AuthAction {
  return actions.has(action)
}

type Env = Record<string, string | undefined>

/** The one reader of process environment variables; empty values count as unset. Undefined where there is no `process`. */
export function readEnv(name: string): string | undefined {
  return typeof process !== "undefined" ? process.env[name] || undefined : undefined
}

/** `AUTH_TRUST_HOST` as a boolean: `false`/`0`/empty mean no (Auth.js treats any value as yes, a bug). */
export function envFlag(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined
  return !/^(false|0|no|off|)$/i.test(value.trim())
}

/**
 * Fills unset config fields from environment variables: basePath from AUTH_URL, secret from
 * AUTH_SECRET and AUTH_SECRET_1..3 (newest first), redirectProxyUrl, trustHost, and each provider's
 * AUTH_<ID>_ID / _SECRET / _ISSUER / _KEY. Mutates `config`, as its Auth.js namesake does.
 */
export function setEnvDefaults(envObject: Env, config: AuthConfig, suppressBasePathWarning = false): void {
  try {
    const url = envObject.AUTH_URL
    if (url) {
      if (config.basePath) {
        if (!suppressBasePathWarning) createLogger(config).warn("env-url-basepath-redundant")
      } else {
        config.basePath = new URL(url).pathname
      }
    }
  } catch {
    // an unparsable AUTH_URL leaves basePath alone
  } finally {
    config.basePath ??= "/auth"
  }
  if (!config.secret?.length) {
    const secrets: string[] = []
    if (envObject.AUTH_SECRET) secrets.push(envObject.AUTH_SECRET)
    for (const i of [1, 2, 3]) {
      const secret = envObject[`AUTH_SECRET_${i}`]
      if (secret) secrets.unshift(secret)
    }
    config.secret = secrets
  }
  config.redirectProxyUrl ??= envObject.AUTH_REDIRECT_PROXY_URL
  if (config.trustHost === undefined) {
    const explicit = envFlag(envObject.AUTH_TRUST_HOST)
    config.trustHost = envObject.AUTH_URL !== undefined
      ? true
      : explicit ?? !!(envObject.VERCEL ?? envObject.CF_PAGES ?? (envObject.NODE_ENV !== "production" ? "1" : undefined))
  }
  config.providers = config.providers.map((provider) => {
    const first = typeof provider === "function" ? provider({}) : provider
    const ID = first.id.toUpperCase().replace(/-/g, "_")
    const clientId = envObject[`AUTH_${ID}_ID`]
    const clientSecret = envObject[`AUTH_${ID}_SECRET`]
    const issuer = envObject[`AUTH_${ID}_ISSUER`]
    const apiKey = envObject[`AUTH_${ID}_KEY`]
    const final = (typeof provider === "function" ? provider({ clientId, clientSecret, issuer, apiKey }) : provider) as ProviderConfig & Record<string, unknown>
    if (final.type === "oauth" || final.type === "oidc") {
      final.clientId ??= clientId
      final.clientSecret ??= clientSecret
      final.issuer ??= issuer
    } else if (final.type === "email") {
      final.apiKey ??= apiKey
    }
    return final
  })
}

/**
 * The absolute URL of an action: from AUTH_URL when set (its path dropped when it differs from a
 * configured basePath), else from X-Forwarded-Host/Host and X-Forwarded-Proto or `protocol`.
 */
export function createActionURL(
  action: AuthAction,
  protocol: string,
  headers: Headers,
  envObject: Env,
  config: Pick<AuthConfig, "basePath" | "logger">,
): URL {
  const basePath = config?.basePath
  const envUrl = envObject.AUTH_URL ?? envObject.NEXTAUTH_URL
  let url: URL
  if (envUrl) {
    url = new URL(envUrl)
    if (basePath && basePath !== "/" && url.pathname !== "/") {
      if (url.pathname !== basePath) createLogger(config).warn("env-url-basepath-mismatch")
      url.pathname = "/"
    }
  } else {
    const host = headers.get("x-forwarded-host") ?? headers.get("host")
    const proto = headers.get("x-forwarded-proto") ?? protocol ?? "https"
    url = new URL(`${proto.endsWith(":") ? proto : `${proto}:`}//${host}`)
  }
  const base = url.toString().replace(/\/$/, "")
  if (basePath) return new URL(`${base}/${basePath.replace(/(^\/|\/$)/g, "")}/${action}`)
  return new URL(`${base}/${action}`)
}
