// Internal: wraps the configured SharedStore so every call has a timeout and fails as a typed AdapterError naming the method.
import { AdapterError } from "../errors.js"
import { withTimeout } from "../lib/timeout.js"
import type { SharedStore } from "./index.js"

/** Time a store call may take before it fails: a refresh waits on the store, and a session read waits on the refresh. */
const STORE_TIMEOUT_MS = 2_000

/** A store call that failed or did not answer in time. */
export class StoreCallError extends AdapterError {
  constructor(
    readonly method: string,
    cause: unknown,
    readonly timedOut = false,
  ) {
    super(
      timedOut
        ? `Shared store method "${method}" did not answer within ${STORE_TIMEOUT_MS} ms.`
        : `Shared store method "${method}" failed.`,
      { cause },
    )
  }
}

const methods = ["claim", "get", "set", "delete"] as const

/** The methods a store must have; the config check names the missing ones. */
export function missingStoreMethods(store: unknown): string[] {
  if (!store || typeof store !== "object") return [...methods]
  return methods.filter((m) => typeof (store as Record<string, unknown>)[m] !== "function")
}

/**
 * Wraps each method of `store` with the timeout and StoreCallError; a synchronous throw becomes a rejection.
 * `publish` and `subscribe` are there only when the store has both, so a caller tells notifications apart by their
 * presence; the function `subscribe` resolves to is guarded as "unsubscribe", and a listener that throws is contained.
 */
export function guardStore(store: SharedStore, timeoutMs = STORE_TIMEOUT_MS): SharedStore {
  const run = <T>(method: string, fn: () => Promise<T>, onLate?: (late: Promise<T>) => void): Promise<T> =>
    withTimeout(
      fn,
      timeoutMs,
      (late) => {
        onLate?.(late)
        return new StoreCallError(method, new Error(`timed out after ${timeoutMs} ms`), true)
      },
      (error) => (error instanceof StoreCallError ? error : new StoreCallError(method, error)),
    )
  const { publish, subscribe } = store
  const notifications: Pick<SharedStore, "publish" | "subscribe"> =
    typeof publish === "function" && typeof subscribe === "function"
      ? {
          publish: (channel, message) => run("publish", () => publish.call(store, channel, message)),
          subscribe: async (channel, listener) => {
            const safe = (message: string) => {
              try {
                listener(message)
              } catch {
                // contained: a store's client library must never see a listener's error
              }
            }
            // A subscription that is only confirmed after the caller gave up is ended at once, not left listening.
            const end = await run(
              "subscribe",
              () => subscribe.call(store, channel, safe),
              (late) => void late.then((lateEnd) => lateEnd()).catch(() => {}),
            )
            return () => run("unsubscribe", async () => end())
          },
        }
      : {}
  return {
    ...notifications,
    claim: (key, value, ttlSeconds) => run("claim", () => store.claim(key, value, ttlSeconds)),
    get: (key) => run("get", () => store.get(key)),
    set: (key, value, ttlSeconds) => run("set", () => store.set(key, value, ttlSeconds)),
    delete: (key) => run("delete", () => store.delete(key)),
  }
}
