// The rate-limit stores that live in this process (MemoryRateLimitStore's). They see every identifier the process
// reads anyway, so the guard hands them short identifiers as they are instead of hashing each one
// (sign-in-limit.ts `keyOf`). Not exported from gatehouse/rate-limit: a store a user writes is always given hashes.
// Stores are typed structurally here (object): importing RateLimitStore from index.ts would make a cycle.
const inProcessStores = new WeakSet<object>()

/** Notes that `store` keeps its keys in this process's memory. */
export function markInProcess(store: object): void {
  inProcessStores.add(store)
}

/** Whether `store` is one MemoryRateLimitStore made. */
export function isInProcessStore(store: object): boolean {
  return inProcessStores.has(store)
}
