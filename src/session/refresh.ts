// Keeps an OAuth access token fresh inside a JWT session: refresh once when expired, once per process (in-memory
// fast path) and once across every process sharing the config's store (a lock key and a sealed result key).
import { AdapterError, RefreshTokenError } from "../errors.js"
import type { ResolvedConfig, ResolvedOAuthProvider } from "../pipeline-types.js"
import { decryptClaims, encryptClaims } from "../jwt/jwe.js"
import type { JWT } from "../types.js"
import type { Account } from "../types.js"
import { SingleFlight } from "../lib/single-flight.js"
import { keyDigest, storeKey } from "../stores/keys.js"
import { withStoreLock } from "../stores/lock.js"
import { merged } from "../lib/merged.js"

/**
 * The provider of this id when it refreshes access tokens: its sign-in kind can (OAuth, `refreshesAccessTokens`) and
 * it sets `refreshAccessToken: true`.
 */
export function refreshingProvider(config: ResolvedConfig, providerId: string): ResolvedOAuthProvider | undefined {
  const provider = config.providers.get(providerId)
  if (!provider || !config.kindOf(provider).refreshesAccessTokens) return undefined
  return (provider as ResolvedOAuthProvider).refreshAccessToken ? (provider as ResolvedOAuthProvider) : undefined
}

/** The provider tokens kept in the session token when the provider sets `refreshAccessToken: true`. */
export interface SessionAccount {
  provider: string
  providerAccountId: string
  access_token: string
  refresh_token?: string
  expires_at?: number
  token_type?: string
  scope?: string
}

/** Refresh this many seconds before `expires_at`, so a token is never used in its last moments. */
const EXPIRY_MARGIN = 30
/** A refresh result is reused for requests that still carry the old refresh token (cookie not yet replaced). */
const RESULT_TTL_MS = 60_000
/** A failed refresh is retried sooner: the provider may only have been down for a moment. */
const FAILURE_TTL_MS = 10_000
/** HKDF salt of the sealed results in the store: no other Gatehouse token opens with this key. */
const SEAL_SALT = "gatehouse.refresh"
/** A provider's request timeout when it sets none (as config/oauth.ts). */
const DEFAULT_PROVIDER_TIMEOUT_MS = 10_000
/** How long a process waiting for another's refresh sleeps between looks at the store: short first, then capped. */
const POLL_DELAYS_MS = [25, 50, 100, 150] as const

type Outcome = { ok: true; account: SessionAccount } | { ok: false }

/** Per resolved config: the refreshes under way in this process, and recent outcomes for late readers. */
interface LocalState {
  inflight: SingleFlight<string, Outcome>
  recent: Map<string, { outcome: Outcome; at: number }>
}
const locals = new WeakMap<ResolvedConfig, LocalState>()

function localState(config: ResolvedConfig): LocalState {
  let state = locals.get(config)
  if (!state) {
    state = { inflight: new SingleFlight(), recent: new Map() }
    locals.set(config, state)
  }
  return state
}

/** The account fields stored in the token at sign-in (not the ID token: it is large and not needed to call APIs). */
export function sessionAccountOf(account: Account): SessionAccount | undefined {
  if (typeof account.access_token !== "string") return undefined
  return {
    provider: account.provider,
    providerAccountId: account.providerAccountId,
    access_token: account.access_token,
    ...(typeof account.refresh_token === "string" ? { refresh_token: account.refresh_token } : {}),
    ...(typeof account.expires_at === "number" ? { expires_at: account.expires_at } : {}),
    ...(typeof account.token_type === "string" ? { token_type: account.token_type } : {}),
    ...(typeof account.scope === "string" ? { scope: account.scope } : {}),
  }
}

async function runRefresh(p: ResolvedOAuthProvider, current: SessionAccount, config: ResolvedConfig): Promise<Outcome> {
  // The OAuth client loads with the first refresh, not with every session read (see flows/kinds/oauth.ts).
  const { getAuthorizationServer, refreshTokens, safeCause } = await import("../protocols/oauth2.js")
  try {
    const as = await getAuthorizationServer(p)
    // A token `request` hook may need the redirect URI (Azure DevOps sends it on refresh too): known only with AUTH_URL.
    const callbackUrl =
      p.redirectProxyUrl ??
      (config.canonicalUrl ? `${config.canonicalUrl.origin}${config.basePath}/callback/${p.id}` : "")
    const tokens = await refreshTokens(as, p, current.refresh_token as string, callbackUrl)
    const { expires_at: _stale, ...rest } = current
    const expiresIn = Number(tokens.expires_in)
    const account: SessionAccount = merged(rest, {
      access_token: tokens.access_token,
      // Keep the old refresh token when the server does not rotate it. @see RFC 6749 §6
      ...(typeof tokens.refresh_token === "string" ? { refresh_token: tokens.refresh_token } : {}),
      // An ID token is kept only under session.tokens: "server" (server-tokens.ts): a new one replaces it.
      ...("id_token" in current && typeof tokens.id_token === "string" ? { id_token: tokens.id_token } : {}),
      // Without a lifetime the new token is used until a call fails; the stale expiry must not trigger refreshes.
      ...(Number.isFinite(expiresIn) && expiresIn > 0 ? { expires_at: Math.floor(Date.now() / 1000) + expiresIn } : {}),
    })
    return { ok: true, account }
  } catch (cause) {
    config.logger.error(
      new RefreshTokenError(`Provider "${p.id}": the access token could not be refreshed.`, {
        cause: safeCause(cause),
      }),
    )
    return { ok: false }
  }
}

// ---- the cross-process part: one refresh per (provider, refresh token) among all processes sharing the store ----

interface StoreKeys {
  /** sha256 of the refresh token: keys and sealed results name it, never the token itself. */
  digest: string
  lock: string
  result: string
}

/** The lock outlives the winner's refresh: discovery and the token request each end within the provider timeout. */
function lockSeconds(p: ResolvedOAuthProvider): number {
  const timeout =
    typeof p.source.timeout === "number" && p.source.timeout > 0 ? p.source.timeout : DEFAULT_PROVIDER_TIMEOUT_MS
  return Math.ceil((2 * timeout) / 1000) + 5
}

function isSessionAccount(value: unknown, providerId: string): value is SessionAccount {
  if (!value || typeof value !== "object") return false
  const a = value as Record<string, unknown>
  return (
    a.provider === providerId &&
    typeof a.providerAccountId === "string" &&
    typeof a.access_token === "string" &&
    (a.refresh_token === undefined || typeof a.refresh_token === "string") &&
    (a.expires_at === undefined || typeof a.expires_at === "number")
  )
}

/** The outcome as the store keeps it: encrypted under the first secret, bound to its provider and refresh token. */
function seal(outcome: Outcome, p: ResolvedOAuthProvider, keys: StoreKeys, config: ResolvedConfig): Promise<string> {
  const payload = {
    provider: p.id,
    digest: keys.digest,
    ok: outcome.ok,
    ...(outcome.ok ? { account: outcome.account } : {}),
  }
  return encryptClaims(payload, config.secrets[0] as string, SEAL_SALT)
}

/** Opens a stored outcome; throws when it is not ours or names another refresh token (a value moved between keys). */
async function unseal(
  value: string,
  p: ResolvedOAuthProvider,
  keys: StoreKeys,
  config: ResolvedConfig,
): Promise<Outcome> {
  const { payload } = await decryptClaims(value, config.secrets, SEAL_SALT)
  if (payload.provider !== p.id || payload.digest !== keys.digest)
    throw new AdapterError("the stored refresh result belongs to another refresh token")
  if (payload.ok === false) return { ok: false }
  if (payload.ok !== true || !isSessionAccount(payload.account, p.id))
    throw new AdapterError("the stored refresh result is malformed")
  return { ok: true, account: payload.account }
}

/** Store failures end here: logged, and the caller goes on without the store (never a failed request). */
function logStoreFailure(p: ResolvedOAuthProvider, what: string, cause: unknown, config: ResolvedConfig): void {
  config.logger.error(new AdapterError(`Provider "${p.id}": the shared store ${what}.`, { cause }))
}

/** The lock's holder: refresh at the provider and share the sealed outcome (the lock is released after it is written). */
async function refreshAndShare(
  p: ResolvedOAuthProvider,
  current: SessionAccount,
  config: ResolvedConfig,
  keys: StoreKeys,
): Promise<Outcome> {
  const outcome = await runRefresh(p, current, config)
  try {
    // The result is written before the lock goes: whoever claims the lock after us finds the result first.
    await config.store.set(
      keys.result,
      await seal(outcome, p, keys, config),
      (outcome.ok ? RESULT_TTL_MS : FAILURE_TTL_MS) / 1000,
    )
  } catch (cause) {
    logStoreFailure(p, "could not share the refresh result with other processes", cause, config)
  }
  return outcome
}

/**
 * One refresh across processes: a stored result is used as it is; else the process that holds the lock refreshes,
 * and the others poll for its sealed result until the lock would have expired. Any store failure before the
 * refresh falls back to refreshing in this process (the in-process dedupe still holds).
 */
async function sharedRefresh(
  p: ResolvedOAuthProvider,
  current: SessionAccount,
  config: ResolvedConfig,
): Promise<Outcome> {
  const digest = await keyDigest(current.refresh_token as string)
  const keys: StoreKeys = {
    digest,
    lock: storeKey("refresh", "lock", p.id, digest),
    result: storeKey("refresh", "result", p.id, digest),
  }
  const lockTtl = lockSeconds(p)
  return withStoreLock(
    config.store,
    keys.lock,
    {
      ttlSeconds: lockTtl,
      waitMs: lockTtl * 1000 + 1000,
      backoffMs: POLL_DELAYS_MS,
      published: async () => {
        const value = await config.store.get(keys.result)
        return value === null ? undefined : unseal(value, p, keys, config)
      },
      onWaitTimeout: () => {
        config.logger.error(
          new RefreshTokenError(
            `Provider "${p.id}": another process held the refresh lock and shared no result within ${lockTtl} s.`,
          ),
        )
        return { ok: false }
      },
      onStoreError: (cause) => {
        logStoreFailure(p, "failed before the access-token refresh; refreshing in this process only", cause, config)
        return runRefresh(p, current, config)
      },
      onReleaseError: (cause) => logStoreFailure(p, "could not release the refresh lock", cause, config),
    },
    () => refreshAndShare(p, current, config, keys),
  )
}

/**
 * Returns the token with a refreshed `account` when its access token has expired (or a `RefreshTokenError`
 * marker when refreshing failed), or undefined when nothing had to change. Concurrent reads in this process
 * share one refresh without touching the store; processes sharing the store share one refresh through it.
 */
export async function refreshIfDue(token: JWT, config: ResolvedConfig): Promise<JWT | undefined> {
  const account = token.account as SessionAccount | undefined
  if (!account || typeof account.refresh_token !== "string" || typeof account.expires_at !== "number") return undefined
  if (account.expires_at - EXPIRY_MARGIN > Date.now() / 1000) return undefined
  const provider = refreshingProvider(config, account.provider)
  if (!provider) return undefined
  const key = `${provider.id}\u0000${account.refresh_token}`
  const { inflight, recent } = localState(config)
  const cached = recent.get(key)
  let outcome: Outcome
  if (cached && Date.now() - cached.at < (cached.outcome.ok ? RESULT_TTL_MS : FAILURE_TTL_MS)) {
    outcome = cached.outcome
  } else {
    outcome = await inflight.share(key, () => sharedRefresh(provider, account, config))
    recent.set(key, { outcome, at: Date.now() })
    if (recent.size > 1000) for (const [k, v] of recent) if (Date.now() - v.at >= RESULT_TTL_MS) recent.delete(k)
  }
  if (outcome.ok) {
    const { error: _previous, ...rest } = token
    return merged(rest, { account: outcome.account })
  }
  return merged(token, { error: "RefreshTokenError" as const })
}
