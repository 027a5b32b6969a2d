// Environment defaults and URL helpers: setEnvDefaults, the front doors' deriveConfig, createActionURL and the
// trust-host rule (docs/wire-format.md §7).
import { createLogger } from "../logger.js"
import type { AuthAction, AuthConfig } from "../types.js"
import type { ProviderConfig } from "../providers/types.js"
import { kindFor } from "../flows/registry.js"

type Env = Record<string, string | undefined>

/** `AUTH_TRUST_HOST` as a boolean: `false`/`0`/empty mean no (Auth.js treats any value as yes, a bug). */
function envFlag(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined
  return !/^(false|0|no|off|)$/i.test(value.trim())
}

function isUrl(value: string | undefined): boolean {
  if (!value) return false
  try {
    new URL(value)
    return true
  } catch {
    return false
  }
}

/**
 * The one trust-host rule: `trustHost` as configured, else AUTH_TRUST_HOST (`false`/`0` mean no), else true when
 * AUTH_URL is a URL (every URL then comes from it). With `platformDefaults` (setEnvDefaults, as Auth.js's does), a
 * Vercel or Cloudflare Pages deployment, or NODE_ENV other than production, also means yes.
 */
export function trustHostRule(
  configured: boolean | undefined,
  env: (name: string) => string | undefined,
  options: { platformDefaults: boolean },
): boolean {
  if (configured !== undefined) return configured
  const explicit = envFlag(env("AUTH_TRUST_HOST"))
  if (explicit !== undefined) return explicit
  if (isUrl(env("AUTH_URL"))) return true
  if (!options.platformDefaults) return false
  return env("VERCEL") !== undefined || env("CF_PAGES") !== undefined || env("NODE_ENV") !== "production"
}

/** next-auth 4's default base URL: where it builds every URL when NEXTAUTH_URL is unset and no host is trusted. */
const V4_DEFAULT_URL = "http://localhost:3000/api/auth"

/**
 * next-auth 4's origin rule (docs/wire-format.md §7), for a config with the `nextAuthV4` marker. NEXTAUTH_URL wins (a
 * value without a scheme gets `https://`, as next-auth 4 adds it); its path is the basePath, `/api/auth` when it has
 * none. Else, when VERCEL is set or AUTH_TRUST_HOST says yes (or `trustHost` is configured true), the request's
 * (forwarded) host; else `http://localhost:3000`. No configuration is refused for want of a trusted host.
 */
export function v4Origin(
  configured: boolean | undefined,
  env: (name: string) => string | undefined,
): { canonicalUrl: URL | undefined; trustHost: boolean; basePath: string } {
  const defaults = new URL(V4_DEFAULT_URL)
  const raw = env("NEXTAUTH_URL")
  if (raw !== undefined) {
    let url: URL | undefined
    try {
      url = new URL(raw.startsWith("http") ? raw : `https://${raw}`)
    } catch {
      url = undefined
    }
    // An unparsable NEXTAUTH_URL leaves no canonical URL and no trusted host: config resolution reports it.
    if (!url) return { canonicalUrl: undefined, trustHost: false, basePath: defaults.pathname }
    const path = url.pathname === "/" ? defaults.pathname : url.pathname.replace(/\/$/, "")
    return { canonicalUrl: new URL(url.origin), trustHost: true, basePath: path }
  }
  const trustHost = configured ?? (env("VERCEL") !== undefined || envFlag(env("AUTH_TRUST_HOST")) === true)
  return {
    canonicalUrl: trustHost ? undefined : new URL(defaults.origin),
    trustHost,
    basePath: defaults.pathname,
  }
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
  config.trustHost = trustHostRule(config.trustHost, (name) => envObject[name] || undefined, { platformDefaults: true })
  config.providers = config.providers.map((provider) => {
    const first = typeof provider === "function" ? provider({}) : provider
    const ID = first.id.toUpperCase().replace(/-/g, "_")
    const clientId = envObject[`AUTH_${ID}_ID`]
    const clientSecret = envObject[`AUTH_${ID}_SECRET`]
    const issuer = envObject[`AUTH_${ID}_ISSUER`]
    const apiKey = envObject[`AUTH_${ID}_KEY`]
    const final = (
      typeof provider === "function" ? provider({ clientId, clientSecret, issuer, apiKey }) : provider
    ) as ProviderConfig & Record<string, unknown>
    // The fields the provider's kind reads from AUTH_<ID>_* (OAuth: client id, secret, issuer; e-mail: the API key).
    for (const [field, suffix] of Object.entries(kindFor(final.type)?.env ?? {}))
      final[field] ??= envObject[`AUTH_${ID}_${suffix}`]
    return final
  })
}

/**
 * The basePath a front door uses when the config sets none: AUTH_URL's path (unless it is "/"), else the front door's
 * documented default. An unparsable AUTH_URL leaves the default (config resolution reports it).
 */
export function basePathFromEnv(configured: string | undefined, authUrl: string | undefined, fallback: string): string {
  if (configured) return configured
  if (authUrl) {
    try {
      const path = new URL(authUrl).pathname
      if (path !== "/") return path.endsWith("/") ? path.slice(0, -1) : path
    } catch {
      // an unparsable AUTH_URL leaves the default
    }
  }
  return fallback
}

/**
 * The config a front door runs: a copy of the user's config (their object is never changed) with `basePath` as the
 * front door chose it and, as setEnvDefaults fills them, the secrets (AUTH_SECRET_1..3, AUTH_SECRET), the redirect
 * proxy URL and the trust-host rule with its platform defaults. With `fillProviders`, each provider's AUTH_<ID>_* too,
 * on copies of the provider objects (Express, as @auth/express does); without, config resolution reads them.
 */
export function deriveConfig<C extends AuthConfig>(
  config: C,
  envObject: Env,
  basePath: string,
  fillProviders = false,
): C {
  const copy: C = {
    ...config,
    basePath,
    providers: fillProviders ? config.providers.map((p) => (typeof p === "function" ? p : { ...p })) : [],
  }
  setEnvDefaults(envObject, copy, true)
  return fillProviders ? copy : { ...copy, providers: config.providers }
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
