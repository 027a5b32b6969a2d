// Decrypted session tokens, remembered per config: a user's browser sends the same session cookie on every request
// until it is re-issued (updateAge, a day by default), and decrypting it (HMAC-SHA-512 + AES-CBC) is most of a
// session read's cost. A hit returns exactly what decrypting would: the payload is kept as its JSON text (parsed
// anew for each read, so a callback that changes its token cannot change the cache) and its time claims are
// checked on every read. Bounded; the oldest entries go first. (A payload of primitives only is copied shallowly.)
import { assertTimeClaims, nowSeconds } from "../jwt/jwe.js"
import type { JWT } from "../types.js"

/** Most tokens remembered per config: about 1 KiB each, so a few MiB at most. */
const MAX_ENTRIES = 4096

interface Entry {
  /** The payload when every claim is a primitive: a shallow copy is then a full copy. */
  flat: Readonly<JWT> | undefined
  /** Otherwise its JSON text, parsed anew for each read. */
  json: string | undefined
  secretIndex: number
}

export class DecodedTokenCache {
  readonly #entries = new Map<string, Entry>()

  /** The payload of a token decrypted before (time claims checked now), or undefined. Throws JWTSessionError when it expired. */
  get(token: string): { payload: JWT; secretIndex: number } | undefined {
    const entry = this.#entries.get(token)
    if (!entry) return undefined
    const payload: JWT = entry.flat ? { ...entry.flat } : (JSON.parse(entry.json as string) as JWT)
    try {
      assertTimeClaims(payload, nowSeconds())
    } catch (error) {
      this.#entries.delete(token)
      throw error
    }
    return { payload, secretIndex: entry.secretIndex }
  }

  /** Remembers a token that decrypted and passed its time checks. */
  set(token: string, payload: JWT, secretIndex: number): void {
    if (this.#entries.size >= MAX_ENTRIES) {
      const oldest = this.#entries.keys().next().value
      if (oldest !== undefined) this.#entries.delete(oldest)
    }
    const flat = Object.values(payload).every((value) => value === null || typeof value !== "object")
    this.#entries.set(
      token,
      flat
        ? { flat: Object.freeze({ ...payload }), json: undefined, secretIndex }
        : { flat: undefined, json: JSON.stringify(payload), secretIndex },
    )
  }
}
