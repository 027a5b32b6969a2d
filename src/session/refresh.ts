// Keeps an OAuth access token fresh inside a JWT session: refresh once when expired, shared by concurrent reads.
import { RefreshTokenError } from "../errors.js"
import type { ResolvedConfig } from "../domain.js"
import type { ResolvedOAuthProvider } from "../config/oauth.js"
import { getAuthorizationServer, refreshTokens, safeCause } from "../protocols/oauth2.js"
import type { JWT } from "../types.js"
import type { Account } from "../types.js"

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

type Outcome = { ok: true; account: SessionAccount } | { ok: false }
const inflight = new Map<string, Promise<Outcome>>()
const recent = new Map<string, { outcome: Outcome; at: number }>()

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
  try {
    const as = await getAuthorizationServer(p)
    const tokens = await refreshTokens(as, p, current.refresh_token as string)
    const { expires_at: _stale, ...rest } = current
    const expiresIn = Number(tokens.expires_in)
    const account: SessionAccount = {
      ...rest,
      access_token: tokens.access_token,
      // Keep the old refresh token when the server does not rotate it. @see RFC 6749 §6
      ...(typeof tokens.refresh_token === "string" ? { refresh_token: tokens.refresh_token } : {}),
      // Without a lifetime the new token is used until a call fails; the stale expiry must not trigger refreshes.
      ...(Number.isFinite(expiresIn) && expiresIn > 0 ? { expires_at: Math.floor(Date.now() / 1000) + expiresIn } : {}),
    }
    return { ok: true, account }
  } catch (cause) {
    config.logger.error(new RefreshTokenError(`Provider "${p.id}": the access token could not be refreshed.`, { cause: safeCause(cause) }))
    return { ok: false }
  }
}

/**
 * Returns the token with a refreshed `account` when its access token has expired (or a `RefreshTokenError`
 * marker when refreshing failed), or undefined when nothing had to change. Concurrent reads share one refresh.
 */
export async function refreshIfDue(token: JWT, config: ResolvedConfig): Promise<JWT | undefined> {
  const account = token.account as SessionAccount | undefined
  if (!account || typeof account.refresh_token !== "string" || typeof account.expires_at !== "number") return undefined
  if (account.expires_at - EXPIRY_MARGIN > Date.now() / 1000) return undefined
  const provider = config.providers.get(account.provider)
  if (!provider || (provider.type !== "oauth" && provider.type !== "oidc") || !provider.refreshAccessToken) return undefined
  const key = `${provider.id}\u0000${account.refresh_token}`
  const cached = recent.get(key)
  let outcome: Outcome
  if (cached && Date.now() - cached.at < (cached.outcome.ok ? RESULT_TTL_MS : FAILURE_TTL_MS)) {
    outcome = cached.outcome
  } else {
    let pending = inflight.get(key)
    if (!pending) {
      pending = runRefresh(provider, account, config)
      inflight.set(key, pending)
    }
    try {
      outcome = await pending
    } finally {
      inflight.delete(key)
    }
    recent.set(key, { outcome, at: Date.now() })
    if (recent.size > 1000) for (const [k, v] of recent) if (Date.now() - v.at >= RESULT_TTL_MS) recent.delete(k)
  }
  if (outcome.ok) {
    const { error: _previous, ...rest } = token
    return { ...rest, account: outcome.account }
  }
  return { ...token, error: "RefreshTokenError" }
}
