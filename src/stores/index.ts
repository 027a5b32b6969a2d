// Public entry `gatehouse/stores`: the SharedStore interface that state shared between app processes goes through
// (docs/contributing.md#rule-9).

/**
 * A small key-value store with expiry, shared by every process of one deployment. Gatehouse keeps short-lived
 * coordination state here (the lock and sealed result of an access-token refresh, spent passkey challenges, the
 * lock on a passkey's counter), so an app scales out by configuration. Built in: `gatehouse/stores/memory` (the default: one process only),
 * `gatehouse/stores/postgres`, `gatehouse/stores/redis` and `gatehouse/stores/d1` (Cloudflare Workers); `gatehouse/stores/testing` checks your own.
 *
 * Keys are short ASCII strings of the form `gatehouse:<feature>:<part>:…`; values are strings (Gatehouse seals anything
 * sensitive before it gets here). `ttlSeconds` is a positive number of seconds (Gatehouse passes whole
 * seconds); an entry past its TTL must read as absent and be claimable again.
 */
export interface SharedStore {
  /** Sets `key` only if it is absent (or expired). Resolves true when this call set it: atomic across processes. */
  claim(key: string, value: string, ttlSeconds: number): Promise<boolean>
  /** The value of `key`, or null when it is absent or expired. */
  get(key: string): Promise<string | null>
  /** Sets `key` whatever it held, with a new TTL. */
  set(key: string, value: string, ttlSeconds: number): Promise<void>
  /** Removes `key`; removing an absent key is not an error. */
  delete(key: string): Promise<void>
}
