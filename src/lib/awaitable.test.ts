// Unit tests of whenReady: a value continues at once (no promise made), a promise after it settles, a rejection passes.
import { describe, expect, it } from "vitest"
import { whenReady } from "./awaitable.js"

describe("whenReady", () => {
  it("continues at once on a value and answers a value", () => {
    const order: string[] = []
    const out = whenReady(2, (n) => {
      order.push("next")
      return n * 3
    })
    order.push("after")
    expect(out).toBe(6)
    expect(order).toEqual(["next", "after"])
  })

  it("continues after a promise and answers a promise", async () => {
    const order: string[] = []
    const out = whenReady(Promise.resolve(2), (n) => {
      order.push("next")
      return n * 3
    })
    order.push("after")
    expect(out).toBeInstanceOf(Promise)
    expect(await out).toBe(6)
    expect(order).toEqual(["after", "next"])
  })

  it("passes a rejection on without calling next, and a throw in next out as it is", async () => {
    let called = false
    await expect(
      whenReady(Promise.reject(new Error("no")), () => {
        called = true
      }),
    ).rejects.toThrow("no")
    expect(called).toBe(false)
    expect(() =>
      whenReady(1, () => {
        throw new Error("thrown")
      }),
    ).toThrow("thrown")
  })
})
