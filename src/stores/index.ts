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
 * seconds); an entry past its TTL must read as absent and be claimable again. `publish` and `subscribe` are optional:
 * a store without them works the same, and only revocation across processes waits longer (the local cache time).
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
  /**
   * Optional, with `subscribe`: sends `message` to every subscriber of `channel`, in every process sharing the
   * store, this one included. Delivery is at most once and best effort (a subscriber whose connection is down misses
   * it), so Gatehouse only uses it to shorten a wait that is already bounded without it: a revoked session is refused
   * by every process within its local cache time (`session.revocation.cacheSeconds`) even with no notifications.
   * Channels are short ASCII names such as `gatehouse:revocations`; messages are short strings, never secrets.
   * Built in: memory (this process), Redis (PUBLISH) and PostgreSQL (`pg_notify`); D1 has none.
   */
  publish?(channel: string, message: string): Promise<void>
  /**
   * Optional, with `publish`: calls `listener` with each message published to `channel` from now on. Resolves
   * once the subscription is active (a message published after that reaches the listener), to a function that ends
   * it; a listener is called at most once per message and must not throw. A store that holds a connection for
   * listening may open it on the first subscription and close it after the last one ends.
   */
  subscribe?(channel: string, listener: (message: string) => void): Promise<() => Promise<void>>
}
