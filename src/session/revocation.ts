// JWT session revocation (`session.revocation`): the revocation entries in the shared store, and per store a short
// cache of "not revoked" answers that keeps the session check cheap. A revocation written here evicts the local answer
// at once; other processes drop theirs when the store's notification arrives, and within `cacheSeconds` without it.
import { AdapterError, UnsupportedStrategy } from "../errors.js"
import { CLOCK_TOLERANCE } from "../jwt/jwe.js"
import type { ResolvedConfig, ResolvedRevocation } from "../pipeline-types.js"
import type { SharedStore } from "../stores/index.js"
import { storeKey } from "../stores/keys.js"
import { ownerOf } from "./session-list.js"
import type { SessionRevocationOptions } from "../types.js"

/** The channel a revocation is announced on; the message is the revoked session id. */
const REVOCATION_CHANNEL = "gatehouse:revocations"

const DEFAULT_CACHE_SECONDS = 1
/** Longer than this, a revocation would wait too long to reach the other processes: refused as a config error. */
const MAX_CACHE_SECONDS = 300
/** Answers kept per store; past it the expired ones go, then all (the next checks ask the store). */
const MAX_CACHED = 50_000
/** After a failed subscription, the next session check tries again no sooner than this. */
const RESUBSCRIBE_MS = 30_000

/** Store calls this module makes: the SharedStore ones plus the optional notifications (stores/index.ts). */
type NotifyingStore = SharedStore & {
  publish?(channel: string, message: string): Promise<void>
  subscribe?(channel: string, listener: (message: string) => void): Promise<() => Promise<void>>
}

/** `session.revocation` checked and filled in; a bad value is a configuration error naming it. */
export function resolveRevocation(option: unknown): { value?: ResolvedRevocation; error?: UnsupportedStrategy } {
  if (option === undefined || option === false) return {}
  if (option === true) return { value: Object.freeze({ onStoreError: "deny", cacheSeconds: DEFAULT_CACHE_SECONDS }) }
  const bad = (what: string) => ({ error: new UnsupportedStrategy(`\`session.revocation\`: ${what}.`) })
  if (typeof option !== "object" || option === null || Array.isArray(option))
    return bad(`must be true, false or { onStoreError, cacheSeconds }; got ${typeof option}`)
  const unknown = Object.keys(option).filter((k) => k !== "onStoreError" && k !== "cacheSeconds")
  if (unknown.length) return bad(`unknown option ${JSON.stringify(unknown[0]?.slice(0, 40))}`)
  const { onStoreError = "deny", cacheSeconds = DEFAULT_CACHE_SECONDS } = option as SessionRevocationOptions
  if (onStoreError !== "deny" && onStoreError !== "allow") return bad('`onStoreError` must be "deny" or "allow"')
  if (typeof cacheSeconds !== "number" || !(cacheSeconds >= 0) || cacheSeconds > MAX_CACHE_SECONDS)
    return bad(`\`cacheSeconds\` must be a number of seconds from 0 to ${MAX_CACHE_SECONDS}`)
  return { value: Object.freeze({ onStoreError, cacheSeconds }) }
}

/** Per store: the "not revoked" answers (sid -> until, ms) and the state of the store subscription. */
interface LocalState {
  notRevoked: Map<string, number>
  /** Bumped by every eviction: an answer fetched across one is not cached (it may predate the revocation). */
  epoch: number
  subscribed: boolean
  retryAt: number
  /** The store failed and nothing has succeeded since: the failure was logged once. */
  failing: boolean
}
/**
 * One state per store the process uses, not per config: configs derived from one another (an integration's, the
 * app's) and configs sharing a store see a revocation written through any of them at once.
 */
const states = new WeakMap<object, LocalState>()
/** The key of the configs without a `store`: they share the process-wide memory store (config/resolve.ts). */
const PROCESS_STORE = {}

function stateOf(config: ResolvedConfig): LocalState {
  const key = config.source.store ?? PROCESS_STORE
  let state = states.get(key)
  if (!state) {
    state = { notRevoked: new Map(), epoch: 0, subscribed: false, retryAt: 0, failing: false }
    states.set(key, state)
  }
  return state
}

function evict(state: LocalState, sid: string): void {
  state.epoch++
  state.notRevoked.delete(sid)
}

function remember(state: LocalState, sid: string, until: number, now: number): void {
  const cache = state.notRevoked
  if (cache.size >= MAX_CACHED) {
    for (const [k, t] of cache) if (t <= now) cache.delete(k)
    if (cache.size >= MAX_CACHED) cache.clear()
  }
  cache.set(sid, until)
}

/** Subscribes to the revocation channel once per store, when the store has notifications. */
function listen(config: ResolvedConfig, state: LocalState): void {
  const store = config.store as NotifyingStore
  if (state.subscribed || !store.subscribe || Date.now() < state.retryAt) return
  state.subscribed = true
  store
    .subscribe(REVOCATION_CHANNEL, (sid) => evict(state, sid))
    .then(undefined, (cause) => {
      state.subscribed = false
      state.retryAt = Date.now() + RESUBSCRIBE_MS
      config.logger.error(
        new AdapterError(
          `The store's revocation notifications could not be subscribed to; revocations reach this process within ${config.revocation?.cacheSeconds} s.`,
          { cause },
        ),
      )
    })
}

/** Logs a store failure of the revocation check once, until a check succeeds again. */
function reportStoreFailure(config: ResolvedConfig, state: LocalState, cause: unknown): void {
  if (state.failing) return
  state.failing = true
  const answer = config.revocation?.onStoreError === "allow" ? "served" : "refused (cookies kept)"
  config.logger.error(
    new AdapterError(
      `The store could not say whether a session was revoked; sessions are ${answer} until it answers again.`,
      { cause },
    ),
  )
}

type RevocationVerdict = "ok" | "revoked" | "unlisted" | "unavailable"

/** The store key of a revocation entry. */
const revokedKey = (sid: string): string => storeKey("revoked", sid)

/**
 * Whether the session `sid` was revoked: "revoked"; "unlisted" when it is not revoked but missing from the session
 * list (issued before revocation was on, or the list lost it: the caller lists it); "ok"; or "unavailable" when the
 * store failed (logged once per outage). An "ok" answer is reused for `cacheSeconds`.
 */
export function checkRevoked(config: ResolvedConfig, sid: string): "ok" | Promise<RevocationVerdict> {
  const state = stateOf(config)
  const now = Date.now()
  const until = state.notRevoked.get(sid)
  // A cached answer is given synchronously: the common check makes no promise.
  if (until !== undefined && until > now) return "ok"
  return askStore(config, state, sid, now)
}

async function askStore(
  config: ResolvedConfig,
  state: LocalState,
  sid: string,
  now: number,
): Promise<RevocationVerdict> {
  listen(config, state)
  const epoch = state.epoch
  let entry: string | null
  let owner: string | null
  try {
    ;[entry, owner] = await Promise.all([config.store.get(revokedKey(sid)), ownerOf(config, sid)])
  } catch (cause) {
    reportStoreFailure(config, state, cause)
    return "unavailable"
  }
  state.failing = false
  if (entry !== null) return "revoked"
  if (owner === null) return "unlisted"
  const seconds = config.revocation?.cacheSeconds ?? 0
  if (seconds > 0 && state.epoch === epoch) remember(state, sid, now + seconds * 1000, now)
  return "ok"
}

/**
 * How long a revocation entry lives: past the latest expiry any cookie of the session can have. Every cookie that
 * carries the id was issued before the revocation, or within the cache time after it by a process that had not
 * heard, so it expires within `jwt.maxAge` of then; the clock tolerance of the expiry check comes on top.
 */
function entrySeconds(config: ResolvedConfig): number {
  return config.jwt.maxAge + (config.revocation?.cacheSeconds ?? 0) + CLOCK_TOLERANCE + 60
}

/**
 * Revokes the JWT session `sid` in every process sharing the store: writes its revocation entry (a failure throws
 * AdapterError), drops this process's cached answer, and announces it on the store's channel when it has one.
 */
export async function markRevoked(config: ResolvedConfig, sid: string): Promise<void> {
  try {
    await config.store.set(revokedKey(sid), "1", entrySeconds(config))
  } catch (cause) {
    throw new AdapterError("The session could not be revoked: the store did not take the revocation entry.", { cause })
  }
  evict(stateOf(config), sid)
  const store = config.store as NotifyingStore
  try {
    await store.publish?.(REVOCATION_CHANNEL, sid)
  } catch (cause) {
    config.logger.error(
      new AdapterError(
        `The revocation could not be announced; other processes see it within ${config.revocation?.cacheSeconds} s.`,
        { cause },
      ),
    )
  }
}
