// Internal: the one in-process single-flight: calls for the same key share one promise, forgotten once it settles.

/**
 * The calls in flight in this process, one per key. `share` makes concurrent callers of one key share a single
 * call; `oneAtATime` runs each caller's own call, but never two for one key at once. An entry is removed as soon
 * as its call settles (fulfilled or rejected), so a later caller starts afresh and nothing piles up.
 */
export class SingleFlight<K, V> {
  readonly #flights = new Map<K, Promise<V>>()

  /** The call in flight for `key`, if any. */
  inFlight(key: K): Promise<V> | undefined {
    return this.#flights.get(key)
  }

  /** Joins the call in flight for `key`, or starts one with `start` (called at once; a synchronous throw rejects). */
  share(key: K, start: () => V | PromiseLike<V>): Promise<V> {
    const current = this.#flights.get(key)
    if (current) return current
    let call: Promise<V>
    try {
      call = Promise.resolve(start())
    } catch (error) {
      call = Promise.reject(error)
    }
    this.#flights.set(key, call)
    const forget = () => {
      if (this.#flights.get(key) === call) this.#flights.delete(key)
    }
    // Registered before any caller's own reaction, so a caller that resumes finds the key free.
    call.then(forget, forget)
    return call
  }

  /**
   * Runs `start` once no call for `key` is in flight, as the next one: callers of one key run one after another,
   * in the order they arrived, whatever the previous call's outcome.
   */
  async oneAtATime(key: K, start: () => V | PromiseLike<V>): Promise<V> {
    // Every waiter wakes when the current call settles; the first to resume starts its call, the others wait on that.
    for (let current = this.#flights.get(key); current; current = this.#flights.get(key))
      await current.then(
        () => {},
        () => {},
      )
    return this.share(key, start)
  }
}
