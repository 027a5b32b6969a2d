// Public entry `gatehouse/rate-limit`: the store interface sign-in rate limits count through, the options, and the memory store (the default).
import { markInProcess } from "./in-process.js"

/** What one counted attempt returns: the attempts in the current window (this one included) and when the window ends. */
export interface RateLimitHit {
  /** Attempts counted under the key in the current window, this one included. */
  count: number
  /** When the current window ends (milliseconds since the epoch); the count starts again from zero after it. */
  resetAt: number
  /**
   * Which window the attempt was counted in, for a store whose `resetAt` cannot name it exactly (Redis derives
   * `resetAt` from a TTL). Opaque to Gatehouse: it hands the hit back to `undo` unchanged.
   */
  window?: string
}

/**
 * Where sign-in attempts are counted: one fixed window per key. `hit` must be atomic across every process that
 * shares the store (count and expiry set together), or concurrent attempts slip past the limit. Built in:
 * `MemoryRateLimitStore` (the default, one process) and `RedisRateLimitStore` (`gatehouse/rate-limit/redis`).
 *
 * A store may answer synchronously (the memory store does): Gatehouse then counts the attempt with no promise and
 * no timer. A promise is given the store timeout (1 s), after which the attempt is let through (fail-open).
 *
 * `undo` gets the hit it takes back. It must change the count only while the window that hit was counted in is
 * still the key's current one, and never take a count below zero: a slow sign-in whose undo arrives after its
 * window ended would otherwise hand the next window an extra attempt. A store written for the older one-argument
 * `undo(key)` still compiles (it ignores the hit) but keeps that flaw; compare the hit's `resetAt` or `window`.
 */
export interface RateLimitStore {
  /** Counts one attempt under `key`. The first attempt of a window starts it; it lasts `windowMs` milliseconds. */
  hit(key: string, windowMs: number): RateLimitHit | Promise<RateLimitHit>
  /**
   * Takes back one attempt (a credentials sign-in that succeeded): `hit` is what `hit(key, ...)` returned for it.
   * A no-op when that window is over or the count is already zero; never creates a key.
   */
  undo(key: string, hit: RateLimitHit): void | Promise<void>
}

/**
 * Where the per-address limit reads the client's address. `"socket"`: the peer the server sees, never a header.
 * `{ header, proxies }`: a header that proxies you run set, read from its right end (see RateLimitOptions.clientAddress).
 */
export type ClientAddressSource =
  | "socket"
  | {
      /** The header your proxy sets: `x-forwarded-for`, or a one-address header such as `x-real-ip` or `cf-connecting-ip`. */
      header: string
      /**
       * How many proxies you run in front of the app, each appending to the header: the address is the entry this many
       * places from the right. Default 1. Entries further left were sent by the client and are never read.
       */
      proxies?: number
    }

/**
 * The `rateLimit` option: how many e-mail sign-in requests and credentials attempts are allowed per window.
 * Every field is optional; `rateLimit: false` turns limiting off.
 */
export interface RateLimitOptions {
  /** Length of a window in seconds. Default 900 (15 minutes). */
  window?: number
  /** Attempts per identifier (the e-mail address or the username) per window. Default 5. */
  max?: number
  /** Attempts per client address (an IPv6 address counts per /64) per window. Default 30. */
  maxPerAddress?: number
  /** Where attempts are counted. Default: a memory store per process; use the Redis store when you run several processes. */
  store?: RateLimitStore
  /**
   * Where the client address comes from; proxy headers are trusted only when this says so (never because of
   * `trustHost` or AUTH_URL). Default: the framework's own proxy setting where it has one (Express `trust proxy`,
   * then `req.ip`), else the socket's address; a private or loopback peer that sends X-Forwarded-For is then an
   * undeclared proxy, so the address is unknown and a `rate-limit-proxy-untrusted` warning is logged once. Behind
   * proxies you run, set `{ header: "x-forwarded-for", proxies: <how many> }` (docs/rate-limit.md, "Behind a proxy").
   */
  clientAddress?: ClientAddressSource
}

/** The defaults of `rateLimit`: 5 attempts per identifier and 30 per client address in 15 minutes. */
export const RATE_LIMIT_DEFAULTS: Readonly<Required<Omit<RateLimitOptions, "store" | "clientAddress">>> = Object.freeze(
  { window: 900, max: 5, maxPerAddress: 30 },
)

/** Options of {@link MemoryRateLimitStore}. */
export interface MemoryRateLimitStoreOptions {
  /**
   * Most keys held at once (default 100000, a few tens of MB at most). When full, expired windows are dropped
   * first, then the oldest ones: a flood of distinct keys cannot grow memory without bound.
   */
  maxEntries?: number
}

/** The memory store, which answers synchronously, with the number of keys it holds (for tests and monitoring). */
export interface MemoryRateLimitStore extends RateLimitStore {
  /** Counts one attempt under `key`, synchronously. */
  hit(key: string, windowMs: number): RateLimitHit
  /** Takes back one attempt of `hit`'s window, synchronously. */
  undo(key: string, hit: RateLimitHit): void
  readonly size: number
}

/** How often (at most) a memory store walks its keys to drop expired windows, in milliseconds. */
const SWEEP_INTERVAL_MS = 60_000

/**
 * A store in this process's memory: correct for one process only (each process counts on its own, so N processes
 * allow N times the limit). Memory is bounded by `maxEntries`; expired windows are swept as attempts arrive, with no
 * timer that would keep the process alive.
 */
export function MemoryRateLimitStore(options: MemoryRateLimitStoreOptions = {}): MemoryRateLimitStore {
  const maxEntries = options.maxEntries ?? 100_000
  if (!Number.isInteger(maxEntries) || maxEntries < 1)
    throw new TypeError("MemoryRateLimitStore: `maxEntries` must be a positive integer.")
  // Insertion order is window start order (an entry is re-inserted when its window restarts), so the first key is the oldest.
  const windows = new Map<string, RateLimitHit>()
  let lastSweep = Date.now()

  const sweep = (now: number): void => {
    lastSweep = now
    for (const [key, entry] of windows) if (entry.resetAt <= now) windows.delete(key)
  }

  const hit = (key: string, windowMs: number): RateLimitHit => {
    const now = Date.now()
    if (now - lastSweep >= SWEEP_INTERVAL_MS) sweep(now)
    const entry = windows.get(key)
    if (entry && entry.resetAt > now) {
      entry.count += 1
      return { count: entry.count, resetAt: entry.resetAt }
    }
    if (entry) windows.delete(key)
    else if (windows.size >= maxEntries) {
      sweep(now)
      if (windows.size >= maxEntries) windows.delete(windows.keys().next().value as string)
    }
    const fresh = { count: 1, resetAt: now + windowMs }
    windows.set(key, fresh)
    return { count: 1, resetAt: fresh.resetAt }
  }
  const undo = (key: string, hit: RateLimitHit | undefined): void => {
    // A window of a key is named by its resetAt: the next window of the key ends strictly later.
    const entry = windows.get(key)
    if (entry && entry.resetAt === hit?.resetAt && entry.resetAt > Date.now() && entry.count > 0) entry.count -= 1
  }
  const store: MemoryRateLimitStore = {
    get size() {
      return windows.size
    },
    hit,
    undo,
  }
  markInProcess(store)
  return store
}
