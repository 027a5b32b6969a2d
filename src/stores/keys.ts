// Internal: the one scheme for the keys Gatehouse writes to a shared store, `gatehouse:<feature>:<part>:…`.
import { type Awaitable, digest } from "#crypto"

/**
 * A store key: `gatehouse`, the feature, then the parts, joined with `:`; e.g. `storeKey("webauthn", "challenge",
 * digest)` is `gatehouse:webauthn:challenge:<digest>`. Features in use: `webauthn` (spent challenges, the counter
 * lock), `refresh` (the access-token refresh lock and result), `rl` (the Redis rate-limit store's default prefix).
 * The last part is usually a {@link keyDigest}, so a key never holds a secret.
 */
export function storeKey(feature: string, ...parts: string[]): string {
  return ["gatehouse", feature, ...parts].join(":")
}

/** The part of a key that names a secret value (a challenge, a credential id, a refresh token): its SHA-256, base64url. */
export function keyDigest(value: string): Awaitable<string> {
  return digest("SHA-256", value, "base64url")
}

/**
 * The one key an earlier version spelled outside this scheme: a spent WebAuthn challenge. It is still claimed beside
 * `storeKey("webauthn", "challenge", digest)`, so old and new processes sharing a store in a rolling upgrade see each
 * other's spent challenges (security/webauthn-challenge.ts).
 */
export function legacyChallengeKey(digest: string): string {
  return `gatehouse:webauthn-challenge:${digest}`
}
