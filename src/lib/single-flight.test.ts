// Unit tests of SingleFlight: one shared call per key, forgotten after it settles; one call at a time per key, in order.
import { describe, expect, it, vi } from "vitest"
import { SingleFlight } from "./single-flight.js"

function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

const tick = () => new Promise((resolve) => setImmediate(resolve))

describe("SingleFlight.share", () => {
  it("concurrent callers of one key share one call; another key gets its own", async () => {
    const flights = new SingleFlight<string, number>()
    const call = deferred<number>()
    const start = vi.fn(() => call.promise)
    const other = vi.fn(async () => 2)
    const a = flights.share("k", start)
    const b = flights.share("k", start)
    expect(b).toBe(a)
    expect(flights.inFlight("k")).toBe(a)
    expect(await flights.share("other", other)).toBe(2)
    call.resolve(1)
    expect(await Promise.all([a, b])).toEqual([1, 1])
    expect(start).toHaveBeenCalledTimes(1)
    expect(other).toHaveBeenCalledTimes(1)
  })

  it("forgets the call once it resolves: the next caller starts a new one", async () => {
    const flights = new SingleFlight<string, number>()
    let n = 0
    const start = vi.fn(async () => ++n)
    expect(await flights.share("k", start)).toBe(1)
    expect(flights.inFlight("k")).toBeUndefined()
    expect(await flights.share("k", start)).toBe(2)
    expect(start).toHaveBeenCalledTimes(2)
  })

  it("forgets the call once it rejects: every joined caller sees the error, then the next caller starts afresh", async () => {
    const flights = new SingleFlight<string, string>()
    const call = deferred<string>()
    const a = flights.share("k", () => call.promise)
    const b = flights.share("k", () => Promise.resolve("never started"))
    call.reject(new Error("provider down"))
    await expect(a).rejects.toThrow("provider down")
    await expect(b).rejects.toThrow("provider down")
    expect(flights.inFlight("k")).toBeUndefined()
    expect(await flights.share("k", async () => "retried")).toBe("retried")
  })

  it("a synchronous throw becomes the shared rejection and is forgotten too", async () => {
    const flights = new SingleFlight<string, string>()
    const failing = flights.share("k", () => {
      throw new Error("sync")
    })
    await expect(failing).rejects.toThrow("sync")
    expect(flights.inFlight("k")).toBeUndefined()
  })
})

describe("SingleFlight.oneAtATime", () => {
  it("runs each caller's call, one at a time per key, in arrival order, past a failure", async () => {
    const flights = new SingleFlight<string, string>()
    const gates = [deferred<void>(), deferred<void>(), deferred<void>()]
    const events: string[] = []
    let running = 0
    let most = 0
    const job = (i: number) => async () => {
      running++
      most = Math.max(most, running)
      events.push(`start ${i}`)
      await gates[i]!.promise
      running--
      events.push(`end ${i}`)
      if (i === 0) throw new Error("first failed")
      return `result ${i}`
    }
    const results = [0, 1, 2].map((i) =>
      flights.oneAtATime("credential", job(i)).then(
        (value) => value,
        (error: Error) => error.message,
      ),
    )
    // Another key is not held up by this one.
    expect(await flights.oneAtATime("another", async () => "free")).toBe("free")
    await tick()
    expect(events).toEqual(["start 0"])
    gates[2]!.resolve() // the last caller's gate opening early changes nothing: it has not started
    gates[0]!.resolve()
    await tick()
    expect(events).toEqual(["start 0", "end 0", "start 1"])
    gates[1]!.resolve()
    expect(await Promise.all(results)).toEqual(["first failed", "result 1", "result 2"])
    expect(events).toEqual(["start 0", "end 0", "start 1", "end 1", "start 2", "end 2"])
    expect(most).toBe(1)
    expect(flights.inFlight("credential")).toBeUndefined()
  })
})
