// `session.tokens: "server"`: the provider's tokens (access, refresh, ID) of a JWT session live in the shared store,
// sealed under the secret and keyed by the session id (sid); the cookie keeps the sid and a marker claim only. A read
// puts them back as `token.account` for the refresh and the callbacks; a re-issue writes them back (and renews the
// entry's TTL); sign-out deletes them.
import { AdapterError } from "../errors.js"
import type { AuthRequest, ResolvedConfig } from "../pipeline-types.js"
import { decryptClaims, encryptClaims } from "../jwt/jwe.js"
import type { Account, JWT } from "../types.js"
import { keyDigest, storeKey } from "../stores/keys.js"
import { refreshingProvider, type SessionAccount, sessionAccountOf } from "./refresh.js"
import { newSessionId, SESSION_ID_CLAIM, sessionIdOf } from "./session-id.js"
import { merged } from "../lib/merged.js"

/** The cookie claim that says "this session's provider tokens are in the store under its sid". */
const SERVER_TOKENS_CLAIM = "stk"
/** HKDF salt of the sealed entries: no other Gatehouse token opens with this key. */
const SEAL_SALT = "gatehouse.tokens"

/** What `token.account` holds under `tokens: "server"`: the refresh fields, plus the ID token (it costs no cookie). */
export type ServerAccount = SessionAccount & { id_token?: string }

/** What a read found in the store, kept per request for the write that may follow. */
type Loaded = { sid: string; status: "loaded" } | { sid: string; status: "missing" } | { sid: string; status: "failed" }
const loads = new WeakMap<AuthRequest, Loaded>()

/** Sids whose missing entry was logged already (bounded): a lost store logs once per session, not once per read. */
const reportedMissing = new Set<string>()

function serverSide(config: ResolvedConfig): boolean {
  return config.session.tokens === "server"
}

/**
 * The account fields a new session token carries in `token.account` at sign-in: with `tokens: "server"`, those of any
 * sign-in that returned an access token (ID token included); else only for a provider that refreshes (refresh.ts).
 */
export function accountToKeep(account: Account, config: ResolvedConfig): ServerAccount | undefined {
  if (serverSide(config)) {
    const kept: ServerAccount | undefined = sessionAccountOf(account)
    if (kept && typeof account.id_token === "string") kept.id_token = account.id_token
    return kept
  }
  return refreshingProvider(config, account.provider) ? sessionAccountOf(account) : undefined
}

async function entryKey(sid: string): Promise<string> {
  return storeKey("tokens", await keyDigest(sid))
}

function isAccount(value: unknown): value is ServerAccount {
  if (!value || typeof value !== "object" || Array.isArray(value)) return false
  const a = value as Record<string, unknown>
  return typeof a.provider === "string" && typeof a.access_token === "string"
}

/** Whether a cookie token's provider tokens are in the store (it carries the marker claim). */
export function holdsServerTokens(token: JWT): boolean {
  return token[SERVER_TOKENS_CLAIM] !== undefined
}

/**
 * The token a read works with: a cookie token that carries the marker gets its `account` back from the store. A missing entry (expired, deleted, a memory store that restarted) is logged once and marks
 * the session `error: "RefreshTokenError"` (the app asks the user to sign in again, as after a failed refresh); a
 * store that fails is logged and the read goes on without the tokens, the marker kept for the next read.
 */
export async function withServerTokens(token: JWT, req: AuthRequest, config: ResolvedConfig): Promise<JWT> {
  // Under any `tokens` setting: a session issued while it was "server" keeps its tokens after a switch back.
  if (!holdsServerTokens(token)) return token
  const { [SERVER_TOKENS_CLAIM]: _marker, account: _stale, ...rest } = token
  const sid = sessionIdOf(token)
  if (!sid) return rest
  try {
    const value = await config.store.get(await entryKey(sid))
    if (value === null) {
      loads.set(req, { sid, status: "missing" })
      if (!reportedMissing.has(sid)) {
        if (reportedMissing.size >= 1000) reportedMissing.clear()
        reportedMissing.add(sid)
        config.logger.error(
          new AdapterError(
            "The provider tokens of this session are not in the store (expired, deleted, or the store lost them); the session is marked RefreshTokenError.",
          ),
        )
      }
      return merged(rest, { error: "RefreshTokenError" as const })
    }
    const { payload } = await decryptClaims(value, config.secrets, SEAL_SALT)
    if (payload.sid !== sid || !isAccount(payload.account))
      throw new AdapterError("the stored provider tokens belong to another session or are malformed")
    loads.set(req, { sid, status: "loaded" })
    return merged(rest, { account: payload.account })
  } catch (cause) {
    loads.set(req, { sid, status: "failed" })
    config.logger.error(
      new AdapterError("The provider tokens of this session could not be read from the store.", { cause }),
    )
    return rest
  }
}

/**
 * The token the cookie carries: under `tokens: "server"`, `account` goes to the store (sealed, TTL `session.maxAge`,
 * under the token's sid, minted here when the token has none) and the cookie keeps the marker instead. When the store
 * cannot take it, the tokens stay in this cookie (logged; the next re-issue moves them) rather than being lost.
 */
export function toCookieToken(token: JWT, req: AuthRequest, config: ResolvedConfig): JWT | Promise<JWT> {
  // `tokens: "cookie"` with nothing read from the store (every sign-in by default): the token as it is, no promise.
  if (!loads.get(req) && !serverSide(config)) return token
  return storeTokens(token, req, config)
}

async function storeTokens(token: JWT, req: AuthRequest, config: ResolvedConfig): Promise<JWT> {
  const loaded = loads.get(req)
  const { [SERVER_TOKENS_CLAIM]: _marker, ...plain } = token
  const account = plain.account
  if (!isAccount(account)) {
    // The store was down on the read: the entry is still there; keep pointing at it.
    if (loaded?.status === "failed" && sessionIdOf(plain) === loaded.sid)
      return merged(plain, { [SERVER_TOKENS_CLAIM]: 1 })
    // The jwt callback dropped the tokens (or never had them): so does the store.
    if (loaded?.status === "loaded") await dropEntry(loaded.sid, config)
    return plain
  }
  if (!serverSide(config)) {
    // Back to `tokens: "cookie"`: the tokens read from the store move into this cookie, and the entry goes.
    if (loaded?.status === "loaded") await dropEntry(loaded.sid, config)
    return plain
  }
  const sid = sessionIdOf(plain) ?? newSessionId()
  const { account: _moved, ...rest } = plain
  try {
    const value = await encryptClaims({ sid, account }, config.secrets[0] as string, SEAL_SALT)
    await config.store.set(await entryKey(sid), value, config.session.maxAge)
  } catch (cause) {
    config.logger.error(
      new AdapterError("The provider tokens could not be written to the store; this cookie carries them instead.", {
        cause,
      }),
    )
    return plain
  }
  // A jwt callback that replaced the sid leaves the old entry behind: remove it.
  if (loaded && loaded.sid !== sid && loaded.status !== "failed") await dropEntry(loaded.sid, config)
  return merged(rest, { [SESSION_ID_CLAIM]: sid, [SERVER_TOKENS_CLAIM]: 1 })
}

async function dropEntry(sid: string, config: ResolvedConfig): Promise<void> {
  try {
    await config.store.delete(await entryKey(sid))
  } catch (cause) {
    config.logger.error(new AdapterError("The provider tokens of an ended session could not be deleted.", { cause }))
  }
}

/** A revoked session (gatehouse/sessions): its stored provider tokens, if any, are deleted (failures logged). */
export async function dropServerTokensOf(sid: string, config: ResolvedConfig): Promise<void> {
  await dropEntry(sid, config)
}

/** Sign-out (or a jwt callback that ends the session): the session's stored provider tokens are deleted. */
export async function dropServerTokens(token: JWT, config: ResolvedConfig): Promise<void> {
  if (token[SERVER_TOKENS_CLAIM] === undefined) return
  const sid = sessionIdOf(token)
  if (sid) await dropEntry(sid, config)
}
