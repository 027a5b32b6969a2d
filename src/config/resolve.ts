// Resolves and checks a config once per config object (WeakMap memo); the result is frozen and shared by all requests.
import { randomBytesPooled } from "../lib/random.js"
import {
  type AuthError,
  InvalidEndpoints,
  MissingAdapter,
  MissingAdapterMethods,
  MissingStoreMethods,
  MissingAuthorize,
  MissingSecret,
  ExperimentalFeatureNotEnabled,
  InvalidProvider,
  UntrustedHost,
  DuplicateConditionalUI,
  MissingWebAuthnAutocomplete,
} from "../errors.js"
import { createLogger } from "../logger.js"
import { cookiePolicy } from "../cookies/policy.js"
import { databaseStrategy, jwtStrategy } from "../session/index.js"
import type { ResolvedConfig, ResolvedProvider } from "../domain.js"
import { raw, skipCSRFCheck } from "../symbols.js"
import type { AuthConfig } from "../types.js"
import type { OAuthConfigBase } from "../providers/types.js"
import type { WebAuthnConfig } from "../providers/webauthn.js"
import { resolveOAuthProvider, withOptions } from "./oauth.js"
import { guardAdapter } from "../adapters/guard.js"
import { readEnv, trustHostRule } from "./env.js"
import { trustedOriginMatcher } from "../security/origins.js"
import { DEFAULT_MAX_AGE } from "../jwt/jwe.js"
import { guardStore, missingStoreMethods } from "../stores/guard.js"
import type { SharedStore } from "../stores/index.js"
import { MemoryStore } from "../stores/memory.js"

/** Secrets shorter than this are refused: a short secret makes every session token guessable offline. */
export const MIN_SECRET_LENGTH = 32

const memo = new WeakMap<AuthConfig, ResolvedConfig>()
/** The default store: one per process, shared by every config in it (as one process shares its memory). */
let processStore: SharedStore | undefined

function normaliseBasePath(basePath: string | undefined): string {
  const path = basePath ?? "/auth"
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path
}

function resolveProviders(config: AuthConfig): { list: ResolvedProvider[]; error?: AuthError } {
  const redirectProxyUrl = config.redirectProxyUrl ?? readEnv("AUTH_REDIRECT_PROXY_URL")
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
    if (provider.type === "credentials" && typeof provider.authorize !== "function") {
      return {
        list,
        error: new MissingAuthorize(
          `providers[${index}] ("${provider.id}"): a credentials provider needs an \`authorize\` function.`,
        ),
      }
    }
    if (provider.type === "email" && typeof provider.sendVerificationRequest !== "function") {
      return {
        list,
        error: new InvalidProvider(
          `providers[${index}] ("${provider.id}"): an email provider needs a \`sendVerificationRequest\` function.`,
        ),
      }
    }
    if (provider.type === "oauth" || provider.type === "oidc") {
      try {
        list.push(resolveOAuthProvider(provider as OAuthConfigBase, redirectProxyUrl))
      } catch (error) {
        return { list, error: error as AuthError }
      }
      continue
    }
    // An e-mail provider's API key may come from AUTH_<ID>_KEY, as OAuth client ids come from AUTH_<ID>_ID.
    const envKey =
      provider.type === "email" && provider.apiKey === undefined
        ? readEnv(`AUTH_${provider.id.toUpperCase().replace(/-/g, "_")}_KEY`)
        : undefined
    list.push(
      Object.freeze({
        ...provider,
        ...(envKey ? { apiKey: envKey } : {}),
        name: provider.name ?? provider.id,
      }) as ResolvedProvider,
    )
  }
  return { list }
}

function checkSecrets(secret: AuthConfig["secret"]): { secrets: string[]; error?: AuthError } {
  const secrets = Array.isArray(secret) ? secret.filter((s) => s !== undefined) : secret ? [secret] : []
  if (secrets.length === 0) {
    return {
      secrets,
      error: new MissingSecret(
        "Please define a `secret` (or set the AUTH_SECRET environment variable). Generate one with `openssl rand -base64 33`.",
      ),
    }
  }
  for (const [i, s] of secrets.entries()) {
    const where = Array.isArray(secret) ? `secret[${i}]` : "secret"
    if (typeof s !== "string") return { secrets, error: new MissingSecret(`\`${where}\` must be a string.`) }
    if (s.length < MIN_SECRET_LENGTH) {
      return {
        secrets,
        error: new MissingSecret(
          `\`${where}\` is too short (${s.length} characters); use at least ${MIN_SECRET_LENGTH}, e.g. from \`openssl rand -base64 33\`.`,
        ),
      }
    }
  }
  return { secrets }
}

/** A database session token: 256 bits from the CSPRNG, base64url (URL-safe, like the UUIDs Auth.js issues). */
function newSessionToken(): string {
  return randomBytesPooled(32).toString("base64url")
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

/** What e-mail sign-in calls: the token pair, and the user lookups and writes of the click (wire.md §8.4). */
const emailMethods = [
  "createVerificationToken",
  "useVerificationToken",
  "getUserByEmail",
  "createUser",
  "updateUser",
] as const

/** What WebAuthn calls: Auth.js's list, plus the lookups account linking makes for a sign-up (wire.md §9). */
const webAuthnMethods = [
  "createUser",
  "getUser",
  "getUserByEmail",
  "getUserByAccount",
  "linkAccount",
  "getAccount",
  "getAuthenticator",
  "createAuthenticator",
  "listAuthenticatorsByUserId",
  "updateAuthenticatorCounter",
] as const

/** WebAuthn providers need an adapter with their methods; at most one may offer autofill, and its form must ask for it. */
function checkWebAuthn(
  list: readonly { type: string; id: string }[],
  adapter: AuthConfig["adapter"],
): AuthError | undefined {
  const webauthn = list.filter((p) => p.type === "webauthn") as unknown as WebAuthnConfig[]
  if (!webauthn.length) return undefined
  const first = webauthn[0]!
  if (!adapter)
    return new MissingAdapter(
      `The WebAuthn provider "${first.id}" needs an \`adapter\` to store users, accounts and authenticators.`,
    )
  const missing = webAuthnMethods.filter((m) => typeof adapter[m] !== "function")
  if (missing.length)
    return new MissingAdapterMethods(
      `The adapter lacks methods the WebAuthn provider "${first.id}" needs: ${missing.join(", ")}.`,
    )
  const conditional = webauthn.filter((p) => p.enableConditionalUI)
  if (conditional.length > 1) {
    return new DuplicateConditionalUI(
      `Only one WebAuthn provider may set enableConditionalUI; ${conditional.map((p) => `"${p.id}"`).join(" and ")} both do.`,
    )
  }
  const autofill = conditional[0]
  if (
    autofill &&
    !Object.values(autofill.formFields ?? {}).some(
      (f) => typeof f?.autocomplete === "string" && f.autocomplete.split(/\s+/).includes("webauthn"),
    )
  ) {
    return new MissingWebAuthnAutocomplete(
      `The WebAuthn provider "${autofill.id}" enables conditional UI, so one of its formFields needs "webauthn" in its autocomplete (as "username webauthn").`,
    )
  }
  return undefined
}

function build(config: AuthConfig): ResolvedConfig {
  const { list, error: providerError } = resolveProviders(config)
  const { secrets, error: secretError } = checkSecrets(config.secret)
  const logger = createLogger(
    config,
    secrets.filter((s) => typeof s === "string"),
  )
  const authUrl = readEnv("AUTH_URL")
  let canonicalUrl: URL | undefined
  try {
    canonicalUrl = authUrl ? new URL(authUrl) : undefined
  } catch {
    canonicalUrl = undefined
  }
  const trustHost = trustHostRule(config.trustHost, readEnv, { platformDefaults: false })
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
    readEnv("AUTH_TRUSTED_ORIGINS")
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
  const emailProvider = list.find((p) => p.type === "email")
  if (!error && emailProvider) {
    // Checked per config: another config's email provider never makes this one need an adapter (unlike Auth.js).
    if (!adapter)
      error = new MissingAdapter(
        `The email provider "${emailProvider.id}" needs an \`adapter\` to store verification tokens.`,
      )
    else {
      const missing = emailMethods.filter((m) => typeof adapter[m] !== "function")
      if (missing.length)
        error = new MissingAdapterMethods(
          `The adapter lacks methods the email provider "${emailProvider.id}" needs: ${missing.join(", ")}.`,
        )
    }
  }
  if (!error && list.some((p) => p.type === "webauthn") && !config.experimental?.enableWebAuthn) {
    error = new ExperimentalFeatureNotEnabled(
      "WebAuthn is experimental: set `experimental.enableWebAuthn: true` to use it.",
    )
  }
  error ??= checkWebAuthn(list, adapter)
  const resolved: ResolvedConfig = {
    source: config,
    basePath: normaliseBasePath(config.basePath),
    secrets,
    csrfSecret: Array.isArray(config.secret) ? config.secret.join(",") : String(config.secret ?? ""),
    providers: new Map(list.map((p) => [p.id, p])),
    providerList: list,
    session: Object.freeze({
      strategy,
      maxAge,
      updateAge: config.session?.updateAge ?? 86400,
      generateSessionToken: config.session?.generateSessionToken ?? newSessionToken,
    }),
    sessionStrategy: strategy === "database" ? databaseStrategy : jwtStrategy,
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
    store: guardStore(config.store && !missingStore.length ? config.store : (processStore ??= MemoryStore())),
    skipCSRF: config.skipCSRFCheck === skipCSRFCheck,
    raw: config.raw === raw,
    trustHost,
    isTrustedOrigin,
    canonicalUrl,
    useSecureCookies: config.useSecureCookies,
    error,
    cookies: cookiePolicy(config.cookies),
  }
  // Mailed links are built only from AUTH_URL or a trusted origin (docs/security.md EM-11): say so once, not per refusal.
  if (emailProvider && !canonicalUrl && trustedOrigins.length === 0) logger.warn("email-link-origin-missing")
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
