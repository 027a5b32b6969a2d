// The rate-limit stores that live in this process (MemoryRateLimitStore's). They see every identifier the process
// reads anyway, so the guard hands them short identifiers as they are instead of hashing each one
// (sign-in-limit.ts `keyOf`). Not exported from gatehouse/rate-limit: a store a user writes is always given hashes.
import type { RateLimitStore } from "./index.js"

const inProcessStores = new WeakSet<RateLimitStore>()

/** Notes that `store` keeps its keys in this process's memory. */
export function markInProcess(store: RateLimitStore): void {
  inProcessStores.add(store)
}

/** Whether `store` is one MemoryRateLimitStore made. */
export function isInProcessStore(store: RateLimitStore): boolean {
  return inProcessStores.has(store)
}
