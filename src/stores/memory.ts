// `gatehouse/stores/memory`: the default SharedStore, a bounded Map with expiry; shares nothing beyond this process.
import { AdapterError } from "../errors.js"
import { createChannelHub } from "./channels.js"
import type { SharedStore } from "./index.js"

/** Options of {@link MemoryStore}. */
export interface MemoryStoreOptions {
  /**
   * Entries kept at most (default 10000); past it expired entries go first, then the oldest. Session revocations and
   * session lists (`gatehouse:revoked:…`, `gatehouse:sessions:…`) are not counted and never pushed out before their
   * expiry: a full store must not bring a revoked session back.
   */
  maxEntries?: number
}

/**
 * The memory store; `size` counts the entries held, expired ones not yet swept included. `publish` delivers to this
 * store object's subscribers before it resolves, so every config sharing the object sees a revocation at once.
 */
export interface MemoryStore extends SharedStore {
  readonly size: number
  /** Calls this store object's subscribers of `channel` with `message`, before it resolves. */
  publish(channel: string, message: string): Promise<void>
  /** Listens to `channel` on this store object; resolves to the function that stops it. */
  subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>>
}

const DEFAULT_MAX_ENTRIES = 10_000
/** Keys a full store never pushes out: losing one would revive a revoked session or hide a session from its list. */
const PINNED_PREFIXES = ["gatehouse:revoked:", "gatehouse:sessions:"]
const isPinned = (key: string): boolean => PINNED_PREFIXES.some((prefix) => key.startsWith(prefix))
/** A full store sweeps expired entries at most this often, so a store full of live entries costs O(1) per write. */
const SWEEP_INTERVAL_MS = 1_000

function checkTtl(ttlSeconds: number): number {
  if (typeof ttlSeconds !== "number" || !(ttlSeconds > 0) || !Number.isFinite(ttlSeconds)) {
    throw new AdapterError(`ttlSeconds must be a positive number of seconds, got ${String(ttlSeconds)}.`)
  }
  return ttlSeconds * 1000
}

/**
 * Creates an empty in-memory store. Expiry follows `Date.now()`. Right for one process; with several app
 * processes use `gatehouse/stores/postgres` or `gatehouse/stores/redis`, which every process sees.
 */
export function MemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  const maxEntries = Math.max(1, Math.floor(options.maxEntries ?? DEFAULT_MAX_ENTRIES))
  // Insertion order is age order: a write deletes before it sets, so the first key is always the oldest write.
  const entries = new Map<string, { value: string; expiresAt: number }>()
  // Pinned keys (isPinned) live apart: they leave only by expiry or delete, swept as the map doubles in size.
  const pinned = new Map<string, { value: string; expiresAt: number }>()
  let pinnedSweepAt = 1024
  let lastSweep = 0
  const hub = createChannelHub({ listen: async () => {}, unlisten: async () => {} })

  const mapOf = (key: string) => (isPinned(key) ? pinned : entries)
  const live = (key: string, now: number) => {
    const map = mapOf(key)
    const entry = map.get(key)
    if (entry && entry.expiresAt <= now) {
      map.delete(key)
      return undefined
    }
    return entry
  }
  const writePinned = (key: string, value: string, ttlMs: number, now: number) => {
    pinned.delete(key)
    if (pinned.size >= pinnedSweepAt) {
      for (const [k, e] of pinned) if (e.expiresAt <= now) pinned.delete(k)
      pinnedSweepAt = Math.max(1024, pinned.size * 2)
    }
    pinned.set(key, { value, expiresAt: now + ttlMs })
  }
  const write = (key: string, value: string, ttlMs: number, now: number) => {
    if (isPinned(key)) return writePinned(key, value, ttlMs, now)
    entries.delete(key)
    if (entries.size >= maxEntries && now - lastSweep >= SWEEP_INTERVAL_MS) {
      lastSweep = now
      for (const [k, e] of entries) if (e.expiresAt <= now) entries.delete(k)
    }
    while (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string)
    entries.set(key, { value, expiresAt: now + ttlMs })
  }

  return {
    get size() {
      return entries.size + pinned.size
    },
    async claim(key, value, ttlSeconds) {
      const ttlMs = checkTtl(ttlSeconds)
      const now = Date.now()
      if (live(key, now)) return false
      write(key, value, ttlMs, now)
      return true
    },
    async get(key) {
      return live(key, Date.now())?.value ?? null
    },
    async set(key, value, ttlSeconds) {
      write(key, value, checkTtl(ttlSeconds), Date.now())
    },
    async delete(key) {
      mapOf(key).delete(key)
    },
    async publish(channel, message) {
      hub.deliver(channel, message)
    },
    subscribe: hub.subscribe,
  }
}

export default MemoryStore
