// Fuzz (RL-03): random runs of hits, undos of any earlier hit (late, repeated, early) and clock steps
// against the memory rate-limit store, checked against a model: an undo moves only its own open window, never below zero.
import fc from "fast-check"
import { afterEach, describe, expect, it, vi } from "vitest"
import { MemoryRateLimitStore, type RateLimitHit } from "../../src/rate-limit/index.js"
import { FUZZ_RUNS, fuzz, fuzzTimeout } from "./arbitraries.js"

const FILE = "test/fuzz/rate-limit-undo.test.ts"
const KEYS = ["a", "b", "c"] as const
const WINDOW_MS = 1_000

type Op = { kind: "hit"; key: number } | { kind: "undo"; of: number } | { kind: "wait"; ms: number }

const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant("hit" as const), key: fc.nat(KEYS.length - 1) }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant("undo" as const), of: fc.nat() }), weight: 3 },
  {
    arbitrary: fc.record({
      kind: fc.constant("wait" as const),
      ms: fc.oneof(fc.integer({ min: 0, max: 400 }), fc.constantFrom(999, 1_000, 1_001, 2_500)),
    }),
    weight: 1,
  },
)

/** The model: per key, the open window (an id, its end) and its count. */
interface Window {
  id: number
  resetAt: number
  count: number
}

afterEach(() => {
  vi.useRealTimers()
})

describe("fuzz: memory rate-limit store undo", () => {
  it(
    `RL-03: an undo takes back only from its own hit's window while open, never below zero (${FUZZ_RUNS} runs)`,
    async () => {
      vi.useFakeTimers({ now: 1_700_000_000_000 })
      await fuzz(
        FILE,
        fc.asyncProperty(fc.array(op, { maxLength: 60 }), async (ops) => {
          vi.setSystemTime(1_700_000_000_000)
          const store = MemoryRateLimitStore()
          const model = new Map<string, Window>()
          const hits: Array<{ key: string; hit: RateLimitHit; window: number }> = []
          let windows = 0
          for (const step of ops) {
            const now = Date.now()
            if (step.kind === "wait") {
              vi.setSystemTime(now + step.ms)
            } else if (step.kind === "hit") {
              const key = KEYS[step.key]!
              let open = model.get(key)
              if (!open || open.resetAt <= now) {
                open = { id: windows++, resetAt: now + WINDOW_MS, count: 0 }
                model.set(key, open)
              }
              open.count += 1
              const hit = await store.hit(key, WINDOW_MS)
              expect(hit).toMatchObject({ count: open.count, resetAt: open.resetAt })
              hits.push({ key, hit, window: open.id })
            } else if (hits.length > 0) {
              // Undo any earlier hit (under its key, as the contract says): once, again, or after its window.
              const earlier = hits[step.of % hits.length]!
              await store.undo(earlier.key, earlier.hit)
              const open = model.get(earlier.key)
              if (open && open.id === earlier.window && open.resetAt > now && open.count > 0) open.count -= 1
            }
          }
          // What each key holds now shows in its next count.
          for (const key of KEYS) {
            const open = model.get(key)
            const expected = open && open.resetAt > Date.now() ? open.count + 1 : 1
            expect((await store.hit(key, WINDOW_MS)).count).toBe(expected)
          }
        }),
      )
    },
    fuzzTimeout(0.5),
  )
})
