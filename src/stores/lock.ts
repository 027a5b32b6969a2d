// Internal: the one lock across app processes, a claimed key in the shared store, waited for with backoff.
import { randomUUID } from "#crypto"
import type { SharedStore } from "./index.js"

/** How {@link withStoreLock} claims, waits and gives up; the callbacks decide what each way out returns. */
export interface StoreLockOptions<T> {
  /** Lifetime of the claim: a holder that dies without releasing frees the key after this many seconds. */
  ttlSeconds: number
  /** How long to wait for another holder before `onWaitTimeout` answers (measured on `performance.now()`). */
  waitMs: number
  /** Sleeps between claim attempts, in milliseconds; the last one repeats. */
  backoffMs: readonly number[]
  /**
   * Looked at before each claim, and once more right after winning one: a value ends the wait with it and `run`
   * is not called (another holder's shared result). Without it every caller runs `run` in turn.
   */
  published?: () => Promise<T | undefined>
  /** What the call returns (or throws) when `waitMs` passed while another process held the key. */
  onWaitTimeout: () => T | Promise<T>
  /** What the call returns (or throws) when the store (or `published`) failed before the lock was held. */
  onStoreError: (cause: unknown) => T | Promise<T>
  /** Told when a release failed; the claim expires on its own after `ttlSeconds`. */
  onReleaseError: (cause: unknown) => void
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

type Acquired<T> = { kind: "held" } | { kind: "published"; value: T } | { kind: "timed out" }

/**
 * Runs `run` while this process holds `key` in `store`, so among every process sharing the store one at a time runs
 * it: the key is claimed (atomic in the store), another holder is waited for with `backoffMs` between attempts, and
 * the key is deleted once `run` settles. A holder that dies keeps the others out only until its claim expires.
 * The release is a plain delete (the store has no compare-and-delete), so `run` must end well within `ttlSeconds`.
 * The store's own failures never reach the caller as such: `onStoreError` and `onReleaseError` decide.
 */
export async function withStoreLock<T>(
  store: SharedStore,
  key: string,
  options: StoreLockOptions<T>,
  run: () => Promise<T>,
): Promise<T> {
  const release = () => store.delete(key).catch(options.onReleaseError)
  let acquired: Acquired<T>
  try {
    acquired = await acquire(store, key, options, release)
  } catch (cause) {
    return options.onStoreError(cause)
  }
  if (acquired.kind === "timed out") return options.onWaitTimeout()
  if (acquired.kind === "published") return acquired.value
  try {
    return await run()
  } finally {
    await release()
  }
}

async function acquire<T>(
  store: SharedStore,
  key: string,
  options: StoreLockOptions<T>,
  release: () => Promise<void>,
): Promise<Acquired<T>> {
  const deadline = performance.now() + options.waitMs
  for (let attempt = 0; ; attempt++) {
    const found = await options.published?.()
    if (found !== undefined) return { kind: "published", value: found }
    if (await store.claim(key, randomUUID(), options.ttlSeconds)) break
    if (performance.now() >= deadline) return { kind: "timed out" }
    await sleep(options.backoffMs[Math.min(attempt, options.backoffMs.length - 1)] as number)
  }
  // The previous holder may have published and released between our look and our claim.
  let late: T | undefined
  try {
    late = await options.published?.()
  } catch (cause) {
    await release()
    throw cause
  }
  if (late === undefined) return { kind: "held" }
  await release()
  return { kind: "published", value: late }
}
