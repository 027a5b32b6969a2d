// Type tests: a custom RateLimitStore, with the two-argument undo (key and the hit it takes back) or written for the older one-argument undo, is accepted by `rateLimit.store`; `rateLimit.clientAddress` takes "socket" or { header, proxies? }.
import type { AuthConfig } from "gatehouse"
import type { ClientAddressSource, RateLimitHit, RateLimitStore } from "gatehouse/rate-limit"
import { MemoryRateLimitStore } from "gatehouse/rate-limit"
import { RedisRateLimitStore } from "gatehouse/rate-limit/redis"
import { createClient } from "@redis/client"

const counts = new Map<string, RateLimitHit>()

export const current: RateLimitStore = {
  async hit(key, windowMs) {
    const hit = { count: (counts.get(key)?.count ?? 0) + 1, resetAt: counts.get(key)?.resetAt ?? Date.now() + windowMs }
    counts.set(key, hit)
    return hit
  },
  async undo(key, hit) {
    const entry = counts.get(key)
    if (entry && entry.resetAt === hit.resetAt && entry.count > 0) entry.count -= 1
  },
}

// A store written before undo named its hit still compiles (it ignores the hit; see the migration note in docs/rate-limit.md).
export const older: RateLimitStore = {
  hit: async (_key: string, windowMs: number) => ({ count: 1, resetAt: Date.now() + windowMs }),
  undo: async (_key: string) => {},
}

export const configs: AuthConfig[] = [
  { providers: [], rateLimit: { store: current } },
  { providers: [], rateLimit: { store: older } },
  { providers: [], rateLimit: { store: MemoryRateLimitStore() } },
  { providers: [], rateLimit: { store: RedisRateLimitStore(createClient()) } },
]

export const windowed: RateLimitHit = { count: 1, resetAt: 0, window: "w" }

declare const store: RateLimitStore
// @ts-expect-error undo names the hit it takes back
export const bare: Promise<void> = store.undo("key")

// `rateLimit.clientAddress`: the socket, or a header that proxies you run set (read from its right end).
export const addressed: AuthConfig[] = [
  { providers: [], rateLimit: { clientAddress: "socket" } },
  { providers: [], rateLimit: { clientAddress: { header: "x-forwarded-for", proxies: 2 } } },
  { providers: [], rateLimit: { clientAddress: { header: "cf-connecting-ip" } } },
]
export const source: ClientAddressSource = { header: "x-real-ip" }
// @ts-expect-error a bare header name is not a source: say { header } so the right-end rule is explicit
export const bareHeader: ClientAddressSource = "x-forwarded-for"
