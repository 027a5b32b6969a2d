// The config's store guard (src/stores/guarded-store.ts) on the optional notification methods: they are passed
// through only when the store has both, failures and timeouts become StoreCallError naming the method, a listener
// that throws reaches neither the store nor the other listeners, and a subscription confirmed too late is ended.
import { describe, expect, it } from "vitest"
import { guardStore, StoreCallError } from "../../src/stores/guarded-store.js"
import type { SharedStore } from "../../src/stores/index.js"
import { MemoryStore } from "../../src/stores/memory.js"

const plain = (): SharedStore => {
  const { claim, get, set, delete: del } = MemoryStore()
  return { claim, get, set, delete: del }
}

describe("guardStore: publish and subscribe", () => {
  it("are absent when the store has neither or only one of them, present when it has both", () => {
    expect(guardStore(plain()).publish).toBeUndefined()
    expect(guardStore(plain()).subscribe).toBeUndefined()
    const onlyPublish = { ...plain(), publish: async () => {} }
    expect([typeof guardStore(onlyPublish).publish, typeof guardStore(onlyPublish).subscribe]).toEqual([
      "undefined",
      "undefined",
    ])
    const guarded = guardStore(MemoryStore())
    expect([typeof guarded.publish, typeof guarded.subscribe]).toEqual(["function", "function"])
  })

  it("deliver through the guard; unsubscribe ends delivery; a throwing listener does not stop the next one", async () => {
    const guarded = guardStore(MemoryStore())
    const got: string[] = []
    const endThrowing = await guarded.subscribe?.("gatehouse:revocations", () => {
      throw new Error("listener bug")
    })
    const end = await guarded.subscribe?.("gatehouse:revocations", (m) => got.push(m))
    await guarded.publish?.("gatehouse:revocations", "a")
    expect(got).toEqual(["a"])
    await end?.()
    await endThrowing?.()
    await guarded.publish?.("gatehouse:revocations", "b")
    expect(got).toEqual(["a"])
  })

  it("a failing publish, subscribe or unsubscribe rejects with StoreCallError naming it", async () => {
    const boom = new Error("connection refused")
    const failing: SharedStore = {
      ...plain(),
      publish: async () => {
        throw boom
      },
      subscribe: async () => {
        throw boom
      },
    }
    const guarded = guardStore(failing)
    await expect(guarded.publish?.("c", "m")).rejects.toMatchObject({
      type: "AdapterError",
      method: "publish",
      cause: boom,
    })
    await expect(guarded.subscribe?.("c", () => {})).rejects.toMatchObject({ method: "subscribe", cause: boom })
    const endFails = guardStore({
      ...plain(),
      publish: async () => {},
      subscribe: async () => () => Promise.reject(boom),
    })
    const end = await endFails.subscribe?.("c", () => {})
    await expect(end?.()).rejects.toBeInstanceOf(StoreCallError)
    await expect(end?.()).rejects.toMatchObject({ method: "unsubscribe" })
  })

  it("a subscribe that answers after the timeout rejects, and the late subscription is ended at once", async () => {
    let ended = 0
    let confirm: (end: () => Promise<void>) => void = () => {}
    const slow: SharedStore = {
      ...plain(),
      publish: async () => {},
      subscribe: () =>
        new Promise((resolve) => {
          confirm = resolve
        }),
    }
    const guarded = guardStore(slow, 50)
    await expect(guarded.subscribe?.("c", () => {})).rejects.toMatchObject({ method: "subscribe", timedOut: true })
    confirm(async () => {
      ended++
    })
    await expect.poll(() => ended).toBe(1)
  })
})
