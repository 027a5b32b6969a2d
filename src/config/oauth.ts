// Normalises an OAuth 2 / OIDC provider once, at config resolve time: env defaults, endpoints parsed, checks set.
import { InvalidEndpoints } from "../errors.js"
import { customFetch } from "../symbols.js"
import type {
  OAuthCheck,
  OAuthConfigBase,
  TokenEndpointOption,
  UserinfoEndpointOption,
  EndpointOption,
} from "../providers/types.js"
import type { User } from "../types.js"
import { boundedFetch, isAllowedEndpoint } from "../protocols/http.js"
import { readEnv } from "../lib/env.js"
import type { Endpoint, ResolvedOAuthProvider } from "../pipeline-types.js"

const DEFAULT_TIMEOUT = 10_000

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof URL) &&
    Object.getPrototypeOf(value) === Object.prototype
  )
}

/** Deep merge of plain objects; arrays, functions and other values from `override` replace. */
function deepMerge<T extends Record<string, unknown>>(base: T, override: Record<string, unknown> | undefined): T {
  if (!override) return base
  const out: Record<string, unknown> = { ...base }
  for (const key of Reflect.ownKeys(override)) {
    const value = (override as Record<string | symbol, unknown>)[key]
    if (value === undefined) continue
    const current = (out as Record<string | symbol, unknown>)[key]
    ;(out as Record<string | symbol, unknown>)[key] =
      typeof key === "string" && isPlainObject(current) && isPlainObject(value) ? deepMerge(current, value) : value
  }
  return out as T
}

function stringParams(params: Record<string, unknown> | undefined, clientId: string): Record<string, string> {
  const out: Record<string, string> = {}
  if (!params) return out
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue
    out[k] = typeof v === "function" ? String((v as (c: { clientId: string }) => unknown)({ clientId })) : String(v)
  }
  return out
}

function parseEndpoint(
  option: EndpointOption | TokenEndpointOption | UserinfoEndpointOption | undefined,
  field: string,
  providerId: string,
  clientId = "",
): Endpoint {
  const raw = typeof option === "string" ? option : option?.url
  const params = typeof option === "object" ? stringParams(option.params, clientId) : {}
  if (raw === undefined) return { url: undefined, params }
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new InvalidEndpoints(`Provider "${providerId}": \`${field}\` is not a valid URL.`)
  }
  if (!isAllowedEndpoint(url))
    throw new InvalidEndpoints(
      `Provider "${providerId}": \`${field}\` must use https (plain http is allowed only on localhost).`,
    )
  return { url, params }
}

/** The profile mapping Auth.js applies to custom providers without `profile`; a field the profile lacks is left out. */
function defaultProfile(profile: Record<string, unknown>): User {
  const id = profile.sub ?? profile.id
  const name = profile.name ?? profile.nickname ?? profile.preferred_username
  return {
    ...(id === undefined || id === null ? {} : { id: String(id) }),
    ...(name === undefined ? {} : { name: name as string | null }),
    ...(profile.email === undefined ? {} : { email: profile.email as string | null }),
    ...(profile.picture === undefined ? {} : { image: profile.picture as string | null }),
  }
}

function resolveOAuth1Endpoints(p: OAuthConfigBase): ResolvedOAuthProvider["oauth1"] {
  const names = ["requestTokenUrl", "authorizationUrl", "accessTokenUrl", "profileUrl"] as const
  const missing = names.filter((n) => !p[n])
  if (missing.length)
    throw new InvalidEndpoints(
      `Provider "${p.id}": an OAuth 1.0a provider needs ${missing.map((m) => `\`${m}\``).join(", ")}.`,
    )
  const [requestTokenUrl, authorizationUrl, accessTokenUrl, profileUrl] = names.map(
    (n) => parseEndpoint(p[n], n, p.id).url as URL,
  )
  return Object.freeze({
    requestTokenUrl: requestTokenUrl!,
    authorizationUrl: authorizationUrl!,
    accessTokenUrl: accessTokenUrl!,
    profileUrl: profileUrl!,
  })
}

/** The endpoint options a user may give as a bare URL. */
const ENDPOINT_OPTIONS = ["authorization", "token", "userinfo"] as const
/** For an OAuth 1.0a provider, the URL option each endpoint option stands for. */
const OAUTH1_URL_OPTION = {
  authorization: "authorizationUrl",
  token: "accessTokenUrl",
  userinfo: "profileUrl",
} as const
const OAUTH1_URL_OPTIONS = ["requestTokenUrl", "authorizationUrl", "accessTokenUrl", "profileUrl"] as const

function urlOf(option: unknown): string | URL | undefined {
  if (typeof option === "string" || option instanceof URL) return option
  if (isPlainObject(option) && (typeof option.url === "string" || option.url instanceof URL)) return option.url
  return undefined
}

/**
 * A user's URL in place of a provider's: the user's scheme, host, path and query, plus the query parameters of the
 * provider's URL that the user's does not set (VK's `v`, TikTok's `fields`), which are part of the provider's request.
 */
function replaceUrl(providerUrl: string | URL | undefined, userUrl: string | URL): string | URL {
  if (providerUrl === undefined) return userUrl
  let base: URL
  let next: URL
  try {
    base = new URL(providerUrl)
    next = new URL(userUrl)
  } catch {
    return userUrl // an invalid URL is reported when the endpoint is parsed
  }
  for (const [key, value] of base.searchParams) if (!next.searchParams.has(key)) next.searchParams.append(key, value)
  return next.href
}

/**
 * The user's options with each endpoint override reduced to what it replaces: a URL given for `authorization`,
 * `token` or `userinfo` (a string, or the `url` of an object) replaces only the provider's URL, so the provider's
 * params, `conform` / `request` hooks and client authentication stay (the deep merge keeps them). On an OAuth 1.0a
 * provider the three options name its authorize, access-token and profile URLs.
 */
function endpointOverrides(
  defaults: Record<string, unknown>,
  options: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...options }
  const version = options.version ?? defaults.version
  if (typeof version === "string" && version.toUpperCase() === "1.0A") {
    for (const key of ENDPOINT_OPTIONS) {
      const url = urlOf(out[key])
      if (url === undefined) continue
      delete out[key]
      out[OAUTH1_URL_OPTION[key]] ??= url
    }
    for (const key of OAUTH1_URL_OPTIONS) {
      const url = urlOf(out[key])
      if (url !== undefined) out[key] = replaceUrl(urlOf(defaults[key]), url)
    }
    return out
  }
  for (const key of ENDPOINT_OPTIONS) {
    const option = out[key]
    const url = urlOf(option)
    if (url === undefined) continue
    const provider = defaults[key]
    const replaced = replaceUrl(urlOf(provider), url)
    if (isPlainObject(provider)) out[key] = isPlainObject(option) ? { ...option, url: replaced } : { url: replaced }
    else out[key] = isPlainObject(option) ? { ...option, url: replaced } : replaced
  }
  return out
}

/**
 * A provider with the user's `options` deep-merged over the built-in defaults (and `options` removed); an endpoint
 * given as a URL replaces only the provider's URL for that endpoint (see endpointOverrides).
 */
export function withOptions<T extends object>(provider: T): T {
  const { options, ...defaults } = provider as T & { options?: Record<string, unknown> }
  if (!options) return defaults as T
  return deepMerge(defaults as Record<string, unknown>, endpointOverrides(defaults, options)) as T
}

function issuerTemplateOf(p: OAuthConfigBase): ResolvedOAuthProvider["issuerTemplate"] {
  const t = p.issuerTemplate
  if (t === undefined) return undefined
  if (typeof t?.placeholder !== "string" || !t.placeholder || typeof t.claim !== "string" || !t.claim) {
    throw new InvalidEndpoints(`Provider "${p.id}": \`issuerTemplate\` needs a \`placeholder\` and a \`claim\`.`)
  }
  return Object.freeze({ placeholder: t.placeholder, claim: t.claim })
}

/** Applies user options (withOptions), env defaults and checks to an OAuth/OIDC provider. */
export function resolveOAuthProvider(
  input: OAuthConfigBase,
  globalRedirectProxyUrl: string | undefined,
): ResolvedOAuthProvider {
  const merged = withOptions(input) // idempotent: a provider resolveProviders already merged has no options left
  const id = merged.id
  // AUTH_<ID>_ID / _SECRET / _ISSUER fill what the config leaves unset, for every provider (docs/wire-format.md §7.1).
  const envPrefix = `AUTH_${id.toUpperCase().replace(/-/g, "_")}`
  const p: OAuthConfigBase = {
    ...merged,
    clientId: merged.clientId ?? readEnv(`${envPrefix}_ID`),
    clientSecret: merged.clientSecret ?? readEnv(`${envPrefix}_SECRET`),
    issuer: merged.issuer ?? readEnv(`${envPrefix}_ISSUER`),
  }
  const oauth1 = p.version?.toUpperCase() === "1.0A" ? resolveOAuth1Endpoints(p) : undefined
  // The one read of which variant of the OAuth kind the provider declared; the flow and protocols read `oidc`.
  const oidc = p.type === "oidc"
  if (oidc && !p.issuer) throw new InvalidEndpoints(`Provider "${id}": an OIDC provider needs an \`issuer\`.`)
  if (!oauth1 && !p.issuer && !p.wellKnown) {
    const missing = (["authorization", "token"] as const).filter(
      (k) => !p[k] || (typeof p[k] === "object" && !(p[k] as { url?: unknown }).url),
    )
    const userinfo = p.userinfo
    const hasUserinfo =
      typeof userinfo === "string" ||
      (typeof userinfo === "object" && (userinfo.url !== undefined || typeof userinfo.request === "function"))
    if (missing.length || !hasUserinfo) {
      throw new InvalidEndpoints(
        `Provider "${id}": set \`issuer\`, or the ${[...missing, ...(hasUserinfo ? [] : ["userinfo"])].map((m) => `\`${m}\``).join(", ")} endpoint(s).`,
      )
    }
  }
  if (p.issuer) {
    let issuerUrl: URL
    try {
      issuerUrl = new URL(p.issuer)
    } catch {
      throw new InvalidEndpoints(`Provider "${id}": \`issuer\` is not a valid URL.`)
    }
    if (!isAllowedEndpoint(issuerUrl))
      throw new InvalidEndpoints(
        `Provider "${id}": \`issuer\` must use https (plain http is allowed only on localhost).`,
      )
  }
  const authorization = parseEndpoint(p.authorization, "authorization", id, p.clientId)
  const inUrlScope = authorization.url?.searchParams.has("scope")
  if (!inUrlScope && authorization.params.scope === undefined) authorization.params.scope = "openid profile email"
  const formPost =
    (authorization.params.response_mode ?? authorization.url?.searchParams.get("response_mode")) === "form_post"
  const token = parseEndpoint(p.token, "token", id, p.clientId)
  const userinfo = parseEndpoint(p.userinfo, "userinfo", id, p.clientId)
  const checks = new Set((p.checks ?? ["pkce"]).filter((c): c is Exclude<OAuthCheck, "none"> => c !== "none"))
  let redirectProxyUrl: string | undefined
  const proxy = formPost ? undefined : (p.redirectProxyUrl ?? globalRedirectProxyUrl)
  if (proxy) {
    redirectProxyUrl = `${proxy.replace(/\/$/, "")}/callback/${id}`
    checks.add("state")
  }
  const method = p.client?.token_endpoint_auth_method ?? "client_secret_basic"
  if (!["client_secret_basic", "client_secret_post", "client_secret_jwt", "none"].includes(method)) {
    throw new InvalidEndpoints(
      `Provider "${id}": \`client.token_endpoint_auth_method\` "${String(method)}" is not supported (use client_secret_basic, client_secret_post, client_secret_jwt or none).`,
    )
  }
  let wellKnown: URL | undefined
  if (p.wellKnown) {
    wellKnown = parseEndpoint(p.wellKnown, "wellKnown", id).url
  }
  const baseFetch =
    (p[customFetch] as typeof fetch | undefined) ?? ((...args: Parameters<typeof fetch>) => fetch(...args))
  return Object.freeze({
    id,
    name: p.name ?? id,
    type: p.type,
    issuer: p.issuer,
    wellKnown,
    clientId: p.clientId ?? "",
    clientSecret: p.clientSecret,
    client: Object.freeze({ ...p.client, token_endpoint_auth_method: method }),
    authorization,
    token: {
      ...token,
      conform: typeof p.token === "object" ? p.token.conform : undefined,
      request: typeof p.token === "object" && typeof p.token.request === "function" ? p.token.request : undefined,
    },
    userinfo: { ...userinfo, request: typeof p.userinfo === "object" ? p.userinfo.request : undefined },
    checks,
    profile: (p.profile as ResolvedOAuthProvider["profile"] | undefined) ?? defaultProfile,
    account: p.account,
    idToken: p.idToken ?? oidc,
    oidc,
    redirectProxyUrl,
    formPost,
    oauth1,
    allowDangerousEmailAccountLinking: p.allowDangerousEmailAccountLinking === true,
    refreshAccessToken: p.refreshAccessToken === true,
    fetch: boundedFetch(baseFetch, typeof p.timeout === "number" && p.timeout > 0 ? p.timeout : DEFAULT_TIMEOUT),
    style: p.style,
    profileCallbackFields: Array.isArray(p.profileCallbackFields)
      ? p.profileCallbackFields.filter((f: unknown): f is string => typeof f === "string")
      : [],
    issuerTemplate: issuerTemplateOf(p),
    source: p,
  })
}
