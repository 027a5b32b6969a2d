// Resolves and checks a config once per config object (WeakMap memo); the result is frozen and shared by all requests.
import { randomBytes, toBase64Url } from "#crypto"
import {
  type AuthError,
  InvalidEndpoints,
  MissingAdapter,
  MissingAdapterMethods,
  MissingStoreMethods,
  MissingSecret,
  ExperimentalFeatureNotEnabled,
  InvalidProvider,
  UntrustedHost,
} from "../errors.js"
import { createLogger } from "../logger.js"
import { cookiePolicy } from "../cookies/policy.js"
import { databaseStrategy, jwtStrategy } from "../session/index.js"
import { checkV4CookiesOption } from "../session/legacy-v4.js"
import { resolveRevocation } from "../session/revocation.js"
import { checkSessionSizeOptions } from "../session/cookie-budget.js"
import type { ResolvedConfig, ResolvedProvider, SignInKind, WireFormat } from "../pipeline-types.js"
import { nextAuthV4, raw, skipCSRFCheck } from "../symbols.js"
import type { AuthConfig } from "../types.js"
import { allKinds, kindFor, kindOf, signInKinds } from "../flows/registry.js"
import { withOptions } from "./oauth.js"
import { guardAdapter } from "../adapters/guarded-adapter.js"
import { trustHostRule, v4Origin } from "./env.js"
import { configEnv, v4EnvSecret } from "../lib/env.js"
import { trustedOriginMatcher } from "../security/origins.js"
import { DEFAULT_MAX_AGE } from "../jwt/jwe.js"
import { guardStore, missingStoreMethods } from "../stores/guarded-store.js"
import type { SharedStore } from "../stores/index.js"
import { MemoryStore } from "../stores/memory.js"

/** Secrets shorter than this are refused: a short secret makes every session token guessable offline. */
const MIN_SECRET_LENGTH = 32

const memo = new WeakMap<AuthConfig, ResolvedConfig>()
/** The default store: one per process, shared by every config in it (as one process shares its memory). */
let processStore: SharedStore | undefined

function normalizeBasePath(basePath: string | undefined, fallback = "/auth"): string {
  const path = basePath ?? fallback
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path
}

/** The wire format a config asks for: next-auth 4's when it carries the `nextAuthV4` marker (symbols.ts). */
function wireOf(config: AuthConfig): WireFormat {
  return (config as { [nextAuthV4]?: unknown })[nextAuthV4] === nextAuthV4 ? "next-auth-v4" : "authjs"
}

/**
 * The secret of a next-auth 4 config: `secret`, else `jwt.secret` (next-auth 4's older option), else NEXTAUTH_SECRET,
 * else AUTH_SECRET, as next-auth 4's handlers fill it.
 */
function v4Secret(config: AuthConfig, env: (name: string) => string | undefined): AuthConfig["secret"] {
  if (Array.isArray(config.secret) ? config.secret.length > 0 : config.secret) return config.secret
  const jwtSecret = (config.jwt as { secret?: unknown } | undefined)?.secret
  if (typeof jwtSecret === "string" && jwtSecret !== "") return jwtSecret
  return v4EnvSecret(env)
}

function resolveProviders(config: AuthConfig): { list: ResolvedProvider[]; error?: AuthError } {
  const redirectProxyUrl = config.redirectProxyUrl ?? configEnv(config)("AUTH_REDIRECT_PROXY_URL")
  const list: ResolvedProvider[] = []
  const seen = new Set<string>()
  if (!Array.isArray(config.providers))
    return { list, error: new InvalidEndpoints("`providers` must be an array of providers.") }
  for (const [index, entry] of config.providers.entries()) {
    let provider
    try {
      const raw = typeof entry === "function" ? entry() : entry
      // Built-in providers carry the user's options (a custom `id` included) in `options`: merge them first, once.
      provider = raw && typeof raw === "object" ? withOptions(raw) : raw
    } catch (cause) {
      return {
        list,
        error: new InvalidEndpoints(
          `providers[${index}] could not be created: ${cause instanceof Error ? cause.message : String(cause)}`,
          { cause },
        ),
      }
    }
    if (!provider || typeof provider !== "object" || typeof provider.id !== "string" || provider.id === "") {
      return { list, error: new InvalidEndpoints(`providers[${index}] has no \`id\`.`) }
    }
    if (seen.has(provider.id)) {
      return {
        list,
        error: new InvalidEndpoints(
          `providers[${index}]: duplicate provider id "${provider.id}"; give each provider a unique \`id\`.`,
        ),
      }
    }
    seen.add(provider.id)
    // The one place a provider type is checked: past here every provider has a kind (ResolvedConfig.kindOf).
    const kind = kindFor(provider.type)
    if (!kind) {
      return {
        list,
        error: new InvalidProvider(
          `providers[${index}] ("${provider.id}"): unknown provider type "${String(provider.type)}"; the types are ${Object.keys(signInKinds).join(", ")}.`,
        ),
      }
    }
    try {
      list.push(kind.resolve(provider, { index, redirectProxyUrl }))
    } catch (error) {
      return { list, error: error as AuthError }
    }
  }
  return { list }
}

/**
 * The secret list and its check. The first secret signs everything new and must have MIN_SECRET_LENGTH characters.
 * A later one only opens what an earlier secret sealed (cookies, links), so a shorter one is let through, for an app
 * that moves off a short secret without signing anyone out (next-auth 4 took any length); `short` lists their indexes.
 */
function checkSecrets(
  secret: AuthConfig["secret"],
  envName: string,
): { secrets: string[]; short: number[]; error?: AuthError } {
  const secrets = Array.isArray(secret) ? secret.filter((s) => s !== undefined) : secret ? [secret] : []
  const short: number[] = []
  if (secrets.length === 0) {
    return {
      secrets,
      short,
      error: new MissingSecret(
        `Please define a \`secret\` (or set the ${envName} environment variable). Generate one with \`openssl rand -base64 33\`.`,
      ),
    }
  }
  for (const [i, s] of secrets.entries()) {
    const where = Array.isArray(secret) ? `secret[${i}]` : "secret"
    if (typeof s !== "string") return { secrets, short, error: new MissingSecret(`\`${where}\` must be a string.`) }
    if (i > 0 && s !== "" && s.length < MIN_SECRET_LENGTH) short.push(i)
    else if (s.length < MIN_SECRET_LENGTH) {
      return {
        secrets,
        short,
        error: new MissingSecret(
          `\`${where}\` is too short (${s.length} characters); use at least ${MIN_SECRET_LENGTH}, e.g. from \`openssl rand -base64 33\`.`,
        ),
      }
    }
  }
  return { secrets, short }
}

/** A database session token: 256 bits from the CSPRNG, base64url (URL-safe, like the UUIDs Auth.js issues). */
function newSessionToken(): string {
  return toBase64Url(randomBytes(32))
}

const databaseMethods = [
  "createUser",
  "getUser",
  "getUserByEmail",
  "getUserByAccount",
  "updateUser",
  "linkAccount",
  "createSession",
  "getSessionAndUser",
  "updateSession",
  "deleteSession",
] as const

/**
 * What a kind asks of a config that has its providers (`providers`, in config order): the experimental flag it needs,
 * the adapter and its methods, then the kind's own checks across its providers.
 */
function checkKind(
  kind: SignInKind,
  providers: readonly ResolvedProvider[],
  config: AuthConfig,
  adapter: AuthConfig["adapter"],
): AuthError | undefined {
  const first = providers[0]!
  if (kind.experimental && !config.experimental?.[kind.experimental])
    return new ExperimentalFeatureNotEnabled(
      `${kind.label} is experimental: set \`experimental.${kind.experimental}: true\` to use it.`,
    )
  if (kind.adapter) {
    if (!adapter)
      return new MissingAdapter(
        `The ${kind.label} provider "${first.id}" needs an \`adapter\` ${kind.adapter.purpose}.`,
      )
    const missing = kind.adapter.methods.filter((m) => typeof adapter[m] !== "function")
    if (missing.length)
      return new MissingAdapterMethods(
        `The adapter lacks methods the ${kind.label} provider "${first.id}" needs: ${missing.join(", ")}.`,
      )
  }
  return kind.checkProviders?.(providers)
}

function build(config: AuthConfig): ResolvedConfig {
  const wire = wireOf(config)
  const v4 = wire === "next-auth-v4"
  // process.env, or the environment the front door read (Hono on Workers: the bindings).
  const env = configEnv(config)
  const secret = v4 ? v4Secret(config, env) : config.secret
  const { list, error: providerError } = resolveProviders(config)
  const { secrets, short, error: secretError } = checkSecrets(secret, v4 ? "NEXTAUTH_SECRET" : "AUTH_SECRET")
  const logger = createLogger(
    config,
    secrets.filter((s) => typeof s === "string"),
  )
  let canonicalUrl: URL | undefined
  let trustHost: boolean
  let basePath: string
  if (v4) {
    // next-auth 4 (docs/wire-format.md): NEXTAUTH_URL, else the forwarded host where trusted, else localhost:3000.
    const origin = v4Origin(config.trustHost, env)
    canonicalUrl = origin.canonicalUrl
    trustHost = origin.trustHost
    basePath = normalizeBasePath(config.basePath ?? origin.basePath)
  } else {
    const authUrl = env("AUTH_URL")
    try {
      canonicalUrl = authUrl ? new URL(authUrl) : undefined
    } catch {
      canonicalUrl = undefined
    }
    trustHost = trustHostRule(config.trustHost, env, { platformDefaults: false })
    basePath = normalizeBasePath(config.basePath)
  }
  const adapter = config.adapter
  const strategy = config.session?.strategy ?? (adapter ? "database" : "jwt")
  const maxAge = config.session?.maxAge ?? DEFAULT_MAX_AGE
  let error: AuthError | undefined
  if (!trustHost && !canonicalUrl) {
    error = new UntrustedHost(
      "Host must be trusted: set `trustHost: true` (or AUTH_TRUST_HOST=true) when your platform sets the Host header safely, or set AUTH_URL.",
    )
  }
  error ??= secretError ?? providerError
  let isTrustedOrigin: (origin: string) => boolean = () => false
  const trustedOrigins =
    config.trustedOrigins ??
    env("AUTH_TRUSTED_ORIGINS")
      ?.split(",")
      .map((o) => o.trim())
      .filter(Boolean) ??
    []
  try {
    isTrustedOrigin = trustedOriginMatcher(trustedOrigins)
  } catch (cause) {
    error ??= new UntrustedHost(cause instanceof Error ? cause.message : String(cause))
  }
  if (!error && strategy === "database") {
    if (!adapter) error = new MissingAdapter('`session.strategy: "database"` needs an `adapter`.')
    else {
      const missing = databaseMethods.filter((m) => typeof adapter[m] !== "function")
      if (missing.length)
        error = new MissingAdapterMethods(
          `The adapter lacks methods the database strategy needs: ${missing.join(", ")}.`,
        )
    }
  }
  const missingStore = config.store === undefined ? [] : missingStoreMethods(config.store)
  if (!error && missingStore.length)
    error = new MissingStoreMethods(
      `\`store\` lacks methods of a SharedStore (gatehouse/stores): ${missingStore.join(", ")}.`,
    )
  error ??= checkV4CookiesOption(config)
  const revocation = resolveRevocation(config.session?.revocation)
  error ??= revocation.error
  const sizeOptions = checkSessionSizeOptions(config.session)
  error ??= sizeOptions.error
  // Each kind's providers, in registry order, so the kinds' checks run in that order (the first error wins).
  const byKind = new Map<SignInKind, ResolvedProvider[]>()
  for (const kind of allKinds) {
    const ofKind = list.filter((p) => kindOf(p) === kind)
    if (ofKind.length) byKind.set(kind, ofKind)
  }
  for (const [kind, ofKind] of byKind) error ??= checkKind(kind, ofKind, config, adapter)
  const resolved: ResolvedConfig = {
    source: config,
    wire,
    basePath,
    secrets,
    csrfSecret: Array.isArray(secret) ? secret.join(",") : String(secret ?? ""),
    providers: new Map(list.map((p) => [p.id, p])),
    providerList: list,
    session: Object.freeze({
      strategy,
      maxAge,
      updateAge: config.session?.updateAge ?? 86400,
      generateSessionToken: config.session?.generateSessionToken ?? newSessionToken,
      tokens: sizeOptions.tokens,
      cookieBudget: sizeOptions.cookieBudget,
    }),
    sessionStrategy: strategy === "database" ? databaseStrategy : jwtStrategy,
    kindOf,
    jwt: Object.freeze({
      maxAge: config.jwt?.maxAge ?? maxAge,
      encode: config.jwt?.encode,
      decode: config.jwt?.decode,
    }),
    callbacks: Object.freeze({ ...config.callbacks }),
    events: Object.freeze({ ...config.events }),
    logger,
    pages: Object.freeze({ ...config.pages }),
    theme: Object.freeze({ colorScheme: "auto", ...config.theme }),
    adapter: adapter ? guardAdapter(adapter, config.adapterTimeout) : undefined,
    revocation: revocation.value,
    store: guardStore(config.store && !missingStore.length ? config.store : (processStore ??= MemoryStore())),
    skipCSRF: config.skipCSRFCheck === skipCSRFCheck,
    raw: config.raw === raw,
    trustHost,
    isTrustedOrigin,
    canonicalUrl,
    useSecureCookies: config.useSecureCookies,
    error,
    cookies: cookiePolicy(config.cookies, wire),
  }
  for (const kind of byKind.keys()) {
    const warning = kind.warning?.({ canonicalUrl, trustedOrigins })
    if (warning) logger.warn(warning)
  }
  if (!error) for (const index of short) logger.warn(`secret-${index}-short`)
  if (config.experimental?.enableWebAuthn) logger.warn("experimental-webauthn")
  if (config.debug) logger.warn("debug-enabled")
  return Object.freeze(resolved)
}

/** The resolved config for this config object, computed on first use and cached. */
export function resolveConfig(config: AuthConfig): ResolvedConfig {
  let resolved = memo.get(config)
  if (!resolved) {
    resolved = build(config)
    memo.set(config, resolved)
  }
  return resolved
}
