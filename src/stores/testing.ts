// `gatehouse/stores/testing`: the SharedStore conformance suite for vitest; every built-in store runs it, and so can yours.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { SharedStore } from "./index.js"
import { storeKey } from "./keys.js"

/** Options of {@link runStoreConformanceSuite}. */
export interface StoreConformanceOptions {
  /** Shown in the describe title, e.g. "redis (node-redis)". */
  name: string
  /** Creates the store under test, once, before the first check; it may hold other keys. */
  store: () => SharedStore | Promise<SharedStore>
  /** Runs once after the last check: close the client, drop the schema. */
  cleanup?: () => void | Promise<void>
  /** Callers racing to claim one key (default 20). */
  concurrency?: number
}

interface Check {
  title: string
  run: (store: SharedStore, concurrency: number) => Promise<void>
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
/** A key no other check or run uses, shaped like the keys Gatehouse writes. */
const freshKey = (label: string): string => storeKey("conformance", label, crypto.randomUUID())

const checks: Check[] = [
  {
    title: "get of a key never set is null",
    run: async (store) => {
      expect(await store.get(freshKey("absent"))).toBeNull()
    },
  },
  {
    title: "set then get returns the value; a second set replaces it",
    run: async (store) => {
      const key = freshKey("set")
      await store.set(key, "first", 60)
      expect(await store.get(key)).toBe("first")
      await store.set(key, "second", 60)
      expect(await store.get(key)).toBe("second")
    },
  },
  {
    title: "values round-trip unchanged: empty, unicode, quotes and 16 KiB",
    run: async (store) => {
      const values = ["", "ünïcødé ✓ 🔑", `'"\\;-- %_?`, "x".repeat(16 * 1024), "eyJhbGciOiJkaXIifQ..aXY.Y3Q.dGFn"]
      const keys = values.map((_, i) => freshKey(`value-${i}`))
      await Promise.all(values.map((value, i) => store.set(keys[i] as string, value, 60)))
      expect(await Promise.all(keys.map((key) => store.get(key)))).toEqual(values)
    },
  },
  {
    title: "keys are independent: a key and its prefix or extension hold their own values",
    run: async (store) => {
      const base = freshKey("prefix")
      await store.set(base, "base", 60)
      await store.set(`${base}:x`, "extended", 60)
      expect(await store.claim(base.slice(0, -1), "shorter", 60)).toBe(true)
      expect([await store.get(base), await store.get(`${base}:x`), await store.get(base.slice(0, -1))]).toEqual([
        "base",
        "extended",
        "shorter",
      ])
    },
  },
  {
    title: "claim of an absent key sets it and answers true; a second claim answers false and leaves the value",
    run: async (store) => {
      const key = freshKey("claim")
      expect(await store.claim(key, "winner", 60)).toBe(true)
      expect(await store.get(key)).toBe("winner")
      expect(await store.claim(key, "loser", 60)).toBe(false)
      expect(await store.get(key)).toBe("winner")
    },
  },
  {
    title: "claim of a key that set() wrote answers false",
    run: async (store) => {
      const key = freshKey("claim-after-set")
      await store.set(key, "held", 60)
      expect(await store.claim(key, "other", 60)).toBe(false)
      expect(await store.get(key)).toBe("held")
    },
  },
  {
    title: "racing claims of one key: exactly one answers true, and its value is the one stored",
    run: async (store, concurrency) => {
      const key = freshKey("race")
      const results = await Promise.all(
        Array.from({ length: concurrency }, (_, i) => store.claim(key, `caller-${i}`, 60)),
      )
      expect(results.filter(Boolean)).toHaveLength(1)
      expect(await store.get(key)).toBe(`caller-${results.indexOf(true)}`)
    },
  },
  {
    title: "delete removes a key, which can then be claimed again; deleting an absent key is not an error",
    run: async (store) => {
      const key = freshKey("delete")
      expect(await store.claim(key, "first", 60)).toBe(true)
      await store.delete(key)
      expect(await store.get(key)).toBeNull()
      expect(await store.claim(key, "second", 60)).toBe(true)
      expect(await store.get(key)).toBe("second")
      await store.delete(freshKey("never-set"))
    },
  },
  {
    title: "an entry past its TTL reads as absent and can be claimed again; set() gives a claimed key a new TTL",
    run: async (store) => {
      const claimed = freshKey("ttl-claim")
      const written = freshKey("ttl-set")
      const extended = freshKey("ttl-extended")
      expect(await store.claim(claimed, "old", 1)).toBe(true)
      await store.set(written, "old", 1)
      expect(await store.claim(extended, "short", 1)).toBe(true)
      await store.set(extended, "long", 60)
      expect(await store.get(claimed)).toBe("old") // not expired early
      await sleep(1_300)
      expect(await store.get(claimed)).toBeNull()
      expect(await store.get(written)).toBeNull()
      expect(await store.get(extended)).toBe("long")
      expect(await store.claim(claimed, "new", 60)).toBe(true)
      expect(await store.get(claimed)).toBe("new")
      expect(await store.claim(written, "new", 60)).toBe(true)
    },
  },
]

/** The title of every check, in order. */
export const storeConformanceChecks: readonly string[] = checks.map((c) => c.title)

/**
 * Registers the conformance suite for one SharedStore with vitest (call it at the top level of a test file).
 * Checks use fresh keys and never assume an empty store, so they may run against a live database or Redis.
 */
export function runStoreConformanceSuite(options: StoreConformanceOptions): void {
  const concurrency = options.concurrency ?? 20
  let store: SharedStore | undefined
  describe(`store conformance: ${options.name}`, () => {
    beforeAll(async () => {
      store = await options.store()
    })
    afterAll(async () => {
      await options.cleanup?.()
    })
    for (const check of checks) {
      it(check.title, async () => {
        if (!store) expect.fail("The store factory did not produce a store.")
        await check.run(store, concurrency)
      })
    }
  })
}
