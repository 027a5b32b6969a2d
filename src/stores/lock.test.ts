// Unit tests of withStoreLock: two "processes" (each its own guarded view of one shared store) exclude each other.
import { describe, expect, it, vi } from "vitest"
import type { SharedStore } from "./index.js"
import { guardStore } from "./guarded-store.js"
import { withStoreLock, type StoreLockOptions } from "./lock.js"
import { MemoryStore } from "./memory.js"

function deferred<T>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((res) => {
    resolve = res
  })
  return { promise, resolve }
}

const tick = () => new Promise((resolve) => setImmediate(resolve))

/** Options whose way-outs fail the test unless it expects them. */
function options<T>(extra: Partial<StoreLockOptions<T>> = {}): StoreLockOptions<T> {
  return {
    ttlSeconds: 30,
    waitMs: 5_000,
    backoffMs: [5, 10, 20],
    onWaitTimeout: () => {
      throw new Error("unexpected wait timeout")
    },
    onStoreError: (cause) => {
      throw new Error("unexpected store error", { cause })
    },
    onReleaseError: (cause) => {
      throw new Error("unexpected release error", { cause })
    },
    ...extra,
  }
}

/** One backend, two app processes: each has its own guarded store on it, as each app process would. */
function twoProcesses() {
  const backend = MemoryStore()
  return { backend, a: guardStore(backend), b: guardStore(backend) }
}

describe("withStoreLock", () => {
  it("two processes on one store never run at once; the second runs after the first released", async () => {
    const { backend, a, b } = twoProcesses()
    const events: string[] = []
    const holdA = deferred<void>()
    const first = withStoreLock(a, "gatehouse:test:lock", options(), async () => {
      events.push("a start")
      await holdA.promise
      events.push("a end")
      return "a"
    })
    await tick()
    expect(await backend.get("gatehouse:test:lock")).not.toBeNull()
    const second = withStoreLock(b, "gatehouse:test:lock", options(), async () => {
      events.push("b start")
      return "b"
    })
    await new Promise((resolve) => setTimeout(resolve, 60))
    expect(events).toEqual(["a start"])
    holdA.resolve()
    expect(await Promise.all([first, second])).toEqual(["a", "b"])
    expect(events).toEqual(["a start", "a end", "b start"])
    expect(await backend.get("gatehouse:test:lock")).toBeNull()
  })

  it("a waiter gets the holder's published result and does not run its own", async () => {
    const { backend, a, b } = twoProcesses()
    const resultKey = "gatehouse:test:result"
    const published = async () => (await backend.get(resultKey)) ?? undefined
    const holdA = deferred<void>()
    const runA = vi.fn(async () => {
      await holdA.promise
      await a.set(resultKey, "refreshed once", 60)
      return "refreshed once"
    })
    const runB = vi.fn(async () => "refreshed twice")
    const first = withStoreLock(a, "gatehouse:test:lock", options({ published }), runA)
    await tick()
    const second = withStoreLock(b, "gatehouse:test:lock", options({ published }), runB)
    await tick()
    holdA.resolve()
    expect(await Promise.all([first, second])).toEqual(["refreshed once", "refreshed once"])
    expect(runA).toHaveBeenCalledTimes(1)
    expect(runB).not.toHaveBeenCalled()
  })

  it("a result published between the look and the claim is used: the claim is given back and nothing runs", async () => {
    const { backend, a } = twoProcesses()
    let looks = 0
    const published = vi.fn(async () => (++looks === 1 ? undefined : "published meanwhile"))
    const run = vi.fn(async () => "ran")
    expect(await withStoreLock(a, "gatehouse:test:lock", options({ published }), run)).toBe("published meanwhile")
    expect(run).not.toHaveBeenCalled()
    expect(published).toHaveBeenCalledTimes(2)
    expect(await backend.get("gatehouse:test:lock")).toBeNull()
  })

  it("a crashed holder's lock expires: the next process runs after the claim's TTL, not before", async () => {
    const { backend, b } = twoProcesses()
    // Process A claimed for 1 s and died without releasing.
    expect(await backend.claim("gatehouse:test:lock", "crashed process", 1)).toBe(true)
    const started = performance.now()
    const result = await withStoreLock(b, "gatehouse:test:lock", options({ backoffMs: [25, 50] }), async () => {
      return performance.now() - started
    })
    expect(result).toBeGreaterThanOrEqual(900)
    expect(result).toBeLessThan(4_000)
    expect(await backend.get("gatehouse:test:lock")).toBeNull()
  })

  it("a hold that outlasts the wait ends in onWaitTimeout; the holder's key is left alone", async () => {
    const { backend, b } = twoProcesses()
    expect(await backend.claim("gatehouse:test:lock", "stuck", 30)).toBe(true)
    const run = vi.fn(async () => "ran")
    const outcome = await withStoreLock(
      b,
      "gatehouse:test:lock",
      options({ waitMs: 80, onWaitTimeout: () => "gave up" }),
      run,
    )
    expect(outcome).toBe("gave up")
    expect(run).not.toHaveBeenCalled()
    expect(await backend.get("gatehouse:test:lock")).toBe("stuck")
  })

  it("a failing store goes to onStoreError with the cause; a failed release to onReleaseError, the result kept", async () => {
    const down: SharedStore = {
      claim: async () => {
        throw new Error("connection refused")
      },
      get: async () => null,
      set: async () => {},
      delete: async () => {},
    }
    const onStoreError = vi.fn((cause: unknown) => `fallback: ${(cause as Error).message}`)
    expect(
      await withStoreLock(guardStore(down), "gatehouse:test:lock", options({ onStoreError }), async () => "x"),
    ).toBe('fallback: Shared store method "claim" failed.')

    const backend = MemoryStore()
    const noDelete: SharedStore = {
      ...backend,
      claim: backend.claim,
      get: backend.get,
      set: backend.set,
      delete: async () => {
        throw new Error("delete refused")
      },
    }
    const onReleaseError = vi.fn()
    expect(
      await withStoreLock(guardStore(noDelete), "gatehouse:test:lock", options({ onReleaseError }), async () => "ran"),
    ).toBe("ran")
    expect(onReleaseError).toHaveBeenCalledTimes(1)
  })
})
