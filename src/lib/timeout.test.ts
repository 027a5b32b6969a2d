// Unit tests of withTimeout: the caller's error on timeout, the timer cleared and unref'd, none for plain values.
import { afterEach, describe, expect, it, vi } from "vitest"
import { withTimeout } from "./timeout.js"

class CallerError extends Error {
  constructor(
    message: string,
    readonly late?: Promise<unknown>,
  ) {
    super(message)
  }
}

function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

describe("withTimeout", () => {
  it("rejects with the caller's own error after `ms`, hands it the abandoned call, and leaves no timer behind", async () => {
    vi.useFakeTimers()
    const call = deferred<string>()
    const result = withTimeout(
      () => call.promise,
      50,
      (late) => new CallerError('store method "get" did not answer', late),
    )
    const settled = result.then(
      () => "resolved",
      (error: unknown) => error,
    )
    await vi.advanceTimersByTimeAsync(49)
    expect(vi.getTimerCount()).toBe(1)
    await vi.advanceTimersByTimeAsync(1)
    const error = await settled
    expect(error).toBeInstanceOf(CallerError)
    expect((error as CallerError).message).toBe('store method "get" did not answer')
    expect((error as CallerError).late).toBeInstanceOf(Promise)
    expect(vi.getTimerCount()).toBe(0)
    // The abandoned call failing later is handled: no unhandled rejection.
    vi.useRealTimers()
    const unhandled = vi.fn()
    process.on("unhandledRejection", unhandled)
    try {
      call.reject(new Error("late failure"))
      await new Promise((resolve) => setImmediate(resolve))
      expect(unhandled).not.toHaveBeenCalled()
    } finally {
      process.off("unhandledRejection", unhandled)
    }
  })

  it("clears its timer when the call resolves or rejects in time", async () => {
    vi.useFakeTimers()
    const ok = deferred<number>()
    const first = withTimeout(
      () => ok.promise,
      1000,
      () => new Error("timeout"),
    )
    await vi.advanceTimersByTimeAsync(10)
    expect(vi.getTimerCount()).toBe(1)
    ok.resolve(7)
    expect(await first).toBe(7)
    expect(vi.getTimerCount()).toBe(0)

    const bad = deferred<number>()
    const second = withTimeout(
      () => bad.promise,
      1000,
      () => new Error("timeout"),
    )
    await vi.advanceTimersByTimeAsync(10)
    expect(vi.getTimerCount()).toBe(1)
    bad.reject(new CallerError("connection refused"))
    await expect(second).rejects.toThrow(CallerError)
    expect(vi.getTimerCount()).toBe(0)
  })

  it("unrefs its timer, so a hung call never keeps the process alive", async () => {
    const setTimer = vi.spyOn(globalThis, "setTimeout")
    const call = deferred<void>()
    const result = withTimeout(
      () => call.promise,
      60_000,
      () => new Error("timeout"),
    )
    await new Promise((resolve) => setImmediate(resolve))
    expect(setTimer).toHaveBeenCalledTimes(1)
    const timer = setTimer.mock.results[0]!.value as NodeJS.Timeout
    expect(timer.hasRef()).toBe(false)
    call.resolve()
    await result
  })

  it("sets no timer for a plain value or a synchronous throw, and leaves none for a settled promise", async () => {
    const setTimer = vi.spyOn(globalThis, "setTimeout")
    const clearTimer = vi.spyOn(globalThis, "clearTimeout")
    expect(
      await withTimeout(
        () => 5,
        10,
        () => new Error("timeout"),
      ),
    ).toBe(5)
    expect(setTimer).not.toHaveBeenCalled()
    expect(
      await withTimeout(
        async () => "memory store",
        10,
        () => new Error("timeout"),
      ),
    ).toBe("memory store")
    const refused = new CallerError("refused")
    await expect(
      withTimeout(
        () => Promise.reject(refused),
        10,
        () => new Error("timeout"),
      ),
    ).rejects.toBe(refused)
    // Each promise's timer is cleared as it settles.
    expect(setTimer).toHaveBeenCalledTimes(2)
    expect(clearTimer.mock.calls.map(([timer]) => timer)).toEqual(setTimer.mock.results.map((r) => r.value))
    setTimer.mockClear()
    const thrown = new CallerError("thrown synchronously")
    await expect(
      withTimeout(
        () => {
          throw thrown
        },
        10,
        () => new Error("timeout"),
      ),
    ).rejects.toBe(thrown)
    expect(setTimer).not.toHaveBeenCalled()
  })

  it("passes a pending call's own rejection through unchanged", async () => {
    const call = deferred<void>()
    const result = withTimeout(
      () => call.promise,
      1000,
      () => new Error("timeout"),
    )
    const cause = new CallerError("adapter failed")
    call.reject(cause)
    await expect(result).rejects.toBe(cause)
  })

  it("maps the call's own failures (throw or rejection) with mapError, but not the timeout's error", async () => {
    vi.useFakeTimers()
    const wrap = (error: unknown) => new CallerError(`wrapped: ${(error as Error).message}`)
    await expect(
      withTimeout(
        () => {
          throw new Error("sync")
        },
        10,
        () => new Error("timeout"),
        wrap,
      ),
    ).rejects.toThrow("wrapped: sync")
    await expect(
      withTimeout(
        () => Promise.reject(new Error("async")),
        10,
        () => new Error("timeout"),
        wrap,
      ),
    ).rejects.toThrow("wrapped: async")
    const hung = withTimeout(
      () => new Promise<never>(() => {}),
      10,
      () => new Error("timeout"),
      wrap,
    )
    const settled = hung.catch((error: unknown) => error)
    await vi.advanceTimersByTimeAsync(10)
    expect(((await settled) as Error).message).toBe("timeout")
  })
})
