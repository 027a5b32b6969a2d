// Internal: the one timeout for calls into user-supplied code (adapters, shared stores, rate-limit stores).

/** Resolved to a marker no caller can return, so a race against it tells whether a promise had already settled. */
const PENDING: unique symbol = Symbol("pending")
const pending = Promise.resolve(PENDING)

/** Whether a value is a promise (or any thenable): a store that may answer synchronously is checked with this. */
export const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  (typeof value === "object" || typeof value === "function") &&
  value !== null &&
  typeof (value as { then?: unknown }).then === "function"

/**
 * Calls `run` and settles as its result does, or rejects with what `onTimeout` returns when the result has not
 * settled within `ms`. A synchronous throw becomes a rejection. A plain value, or a promise already settled (an
 * in-memory store's `async` method), returns without a timer; otherwise one timer is set, unref'd, and cleared as
 * soon as the call settles either way. `onTimeout` gets the abandoned call, which may still settle later (its
 * rejection is handled here, so it is never reported as unhandled).
 */
export async function withTimeout<T>(
  run: () => T | PromiseLike<T>,
  ms: number,
  onTimeout: (late: Promise<T>) => unknown,
): Promise<T> {
  const result = run()
  if (!isThenable(result)) return result
  const call = Promise.resolve(result)
  // A settled native promise wins this race: its reaction was queued before the marker's.
  const early = await Promise.race([call, pending])
  if (early !== PENDING) return early as T
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      call.catch(() => {})
      reject(onTimeout(call))
    }, ms)
    // Node.js: the timer alone keeps no process alive. Elsewhere the handle may be a plain number, without unref.
    ;(timer as { unref?: () => void }).unref?.()
  })
  try {
    return await Promise.race([call, timeout])
  } finally {
    clearTimeout(timer)
  }
}
