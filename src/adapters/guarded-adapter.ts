// Internal: wraps the configured adapter so every call has a timeout and fails as a typed AdapterError naming the method.
import { AdapterError, AuthError } from "../errors.js"
import { withTimeout } from "../lib/timeout.js"
import type { Adapter } from "./index.js"

/** Default time an adapter call may take before it fails (docs/security.md DB-03). */
const DEFAULT_ADAPTER_TIMEOUT_MS = 10_000

/** An adapter whose methods all exist in the type (the config check guarantees the ones a strategy needs). */
export type GuardedAdapter = Required<Adapter> & {
  readonly raw: Adapter
  transaction?: <T>(fn: (tx: GuardedAdapter) => Promise<T>) => Promise<T>
}

/** An AdapterError that says which method failed. */
export class AdapterCallError extends AdapterError {
  /**
   * @param timedOut the call did not answer in time; `late` is the abandoned call, which may still complete
   *   (a caller undoing its writes must undo that one too)
   */
  constructor(
    readonly method: string,
    cause: unknown,
    readonly timedOut = false,
    readonly late?: Promise<unknown>,
  ) {
    super(timedOut ? `Adapter method "${method}" did not answer in time.` : `Adapter method "${method}" failed.`, {
      cause,
    })
  }
}

const methods = [
  "createUser",
  "getUser",
  "getUserByEmail",
  "getUserByAccount",
  "updateUser",
  "deleteUser",
  "linkAccount",
  "unlinkAccount",
  "createSession",
  "getSessionAndUser",
  "updateSession",
  "deleteSession",
  "createVerificationToken",
  "useVerificationToken",
  "getAccount",
  "getAuthenticator",
  "createAuthenticator",
  "listAuthenticatorsByUserId",
  "updateAuthenticatorCounter",
  "deleteAuthenticator",
] as const

/**
 * Runs `fn` in the adapter's transaction. The transaction must start (pool checkout, BEGIN) within the timeout; one
 * that starts later is made to fail at once, so it rolls back instead of writing for a sign-in already abandoned. Errors
 * of the transaction itself (checkout, BEGIN, COMMIT) become AdapterError; `fn`'s own errors pass through.
 */
async function guardTransaction<T>(
  adapter: Adapter,
  tx: <R>(fn: (tx: Adapter) => Promise<R>) => Promise<R>,
  fn: (inner: GuardedAdapter) => Promise<T>,
  timeoutMs: number,
): Promise<T> {
  let abandoned = false
  let started!: () => void
  const start = new Promise<void>((resolve) => (started = resolve))
  const run = Promise.resolve().then(() =>
    tx.call(adapter, (inner: Adapter) => {
      if (abandoned) throw new AdapterCallError("transaction", new Error("started after the sign-in gave up on it"))
      started()
      return fn(guardAdapter(inner, timeoutMs))
    }),
  )
  try {
    // The deadline is on the start only (or on a failure before it); a started transaction runs as long as `fn` does.
    await withTimeout(
      () => Promise.race([start, run]),
      timeoutMs,
      () => {
        abandoned = true
        run.catch(() => {})
        return new AdapterCallError("transaction", new Error(`did not start within ${timeoutMs} ms`), true)
      },
    )
    return (await run) as T
  } catch (error) {
    if (error instanceof AuthError) throw error
    throw new AdapterCallError("transaction", error)
  }
}

/** Wraps every method of `adapter`: a missing method throws AdapterError when called, never a TypeError. */
export function guardAdapter(adapter: Adapter, timeoutMs = DEFAULT_ADAPTER_TIMEOUT_MS): GuardedAdapter {
  const guarded: Record<string, unknown> = { raw: adapter }
  for (const method of methods) {
    // Not an async function: withTimeout's one promise is the answer, its failures mapped to AdapterCallError.
    const timedOut = (late: Promise<unknown>) =>
      new AdapterCallError(method, new Error(`timed out after ${timeoutMs} ms`), true, late)
    const failed = (error: unknown) => (error instanceof AdapterCallError ? error : new AdapterCallError(method, error))
    guarded[method] = (...args: unknown[]) => {
      const fn = adapter[method] as ((...a: unknown[]) => unknown) | undefined
      if (typeof fn !== "function")
        return Promise.reject(new AdapterCallError(method, new Error("the adapter does not implement this method")))
      return withTimeout(() => fn.apply(adapter, args), timeoutMs, timedOut, failed)
    }
  }
  const tx = (adapter as { transaction?: <T>(fn: (tx: Adapter) => Promise<T>) => Promise<T> }).transaction
  if (typeof tx === "function") {
    guarded.transaction = <T>(fn: (inner: GuardedAdapter) => Promise<T>) => guardTransaction(adapter, tx, fn, timeoutMs)
  }
  return guarded as unknown as GuardedAdapter
}
