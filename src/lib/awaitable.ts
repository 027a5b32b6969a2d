// Continuing after an Awaitable (the crypto seam answers with values on Node and with promises on Web Crypto): at once
// on a value, after the promise otherwise, so a hot path on Node pays no microtask for an answer it already has.
import type { Awaitable } from "#crypto"

/** `next(value)` now when `value` is not a promise, else once it settles (a rejection passes through). */
export function whenReady<T, U>(value: Awaitable<T>, next: (value: T) => Awaitable<U>): Awaitable<U> {
  return value instanceof Promise ? value.then(next) : next(value)
}
