// WebAuthn challenges: sealed in the `authjs.challenge` cookie, bound to provider and ceremony, and usable once
// (the shared store remembers every challenge spent until it would have expired), so a captured assertion cannot be
// replayed even by a passkey whose signature counter is always 0 (docs/providers/passkey.md, docs/security.md WA-02).
import { WebAuthnVerificationError } from "../errors.js"
import type { AuthRequest, ResolvedConfig } from "../pipeline-types.js"
import { decryptClaims, encryptClaims, nowSeconds, withTimeClaims } from "../jwt/jwe.js"
import { flowCookie, lifetimeOf } from "../cookies/policy.js"
import type { Cookie } from "../types.js"
import { keyDigest, legacyChallengeKey, storeKey } from "../stores/keys.js"

export type WebAuthnAction = "register" | "authenticate"

/** The user a registration is for: who is signed in, or the new user it will create (with the id chosen for it). */
export interface RegisteringUser {
  id: string
  email: string
  name?: string | null
  /** The user exists (a signed-in user adds a passkey); false for a sign-up. */
  exists: boolean
}

/** What the challenge cookie holds. */
export interface ChallengeRecord {
  challenge: string
  action: WebAuthnAction
  provider: string
  user?: RegisteringUser
}

/**
 * Spends `challenge` in the shared store until `ttlSeconds` from now: true when this call spent it. The key holds a
 * hash, so the store never holds a usable challenge. Versions before the common key scheme (stores/keys.ts) wrote
 * another key; it is claimed too, so while old and new processes run side by side in a rolling upgrade a challenge
 * one of them spent is spent for the other, and no captured assertion can be replayed in between (WA-02).
 */
async function spend(config: ResolvedConfig, challenge: string, ttlSeconds: number): Promise<boolean> {
  const digest = await keyDigest(challenge)
  const [fresh, freshForOlderVersions] = await Promise.all([
    config.store.claim(storeKey("webauthn", "challenge", digest), "1", ttlSeconds),
    config.store.claim(legacyChallengeKey(digest), "1", ttlSeconds),
  ])
  return fresh && freshForOlderVersions
}

/** The challenge cookie for one ceremony, sealed under the cookie's name (docs/security.md CK-04) for the cookie's lifetime. */
export async function challengeCookie(
  req: AuthRequest,
  config: ResolvedConfig,
  record: ChallengeRecord,
): Promise<Cookie> {
  const option = config.cookies(req.secure).webauthnChallenge
  const lifetime = lifetimeOf(option)
  const payload = { purpose: "webauthn-challenge", ...record }
  return flowCookie(
    option,
    await encryptClaims(withTimeClaims(payload, lifetime, nowSeconds()), config.secrets[0] as string, option.name),
  )
}

function refuse(message: string, cause?: unknown): never {
  throw new WebAuthnVerificationError(message, cause === undefined ? undefined : { cause })
}

/**
 * Reads the challenge cookie for `provider`'s `action` and spends it: missing, expired, tampered, made for another
 * provider or the other ceremony (WA-03), or already spent (WA-02) is WebAuthnVerificationError. Spending is an atomic
 * claim in the shared store, so two requests racing with one challenge, even on two app servers, get one success.
 */
export async function spendChallenge(
  req: AuthRequest,
  config: ResolvedConfig,
  provider: string,
  action: WebAuthnAction,
): Promise<ChallengeRecord> {
  const option = config.cookies(req.secure).webauthnChallenge
  const raw = req.cookies[option.name]
  if (!raw) refuse("The WebAuthn challenge cookie is missing (expired, or the ceremony started in another browser).")
  let payload: Record<string, unknown>
  try {
    payload = (await decryptClaims(raw, config.secrets, option.name)).payload
  } catch (cause) {
    refuse("The WebAuthn challenge cookie could not be decrypted.", cause)
  }
  const now = nowSeconds()
  // No clock tolerance: the cookie's lifetime is the challenge's, and a spent challenge is remembered exactly that long.
  const exp = payload.exp
  if (typeof exp !== "number" || exp <= now) refuse("The WebAuthn challenge has expired; start again.")
  if (
    payload.purpose !== "webauthn-challenge" ||
    typeof payload.challenge !== "string" ||
    payload.challenge.length < 16
  ) {
    refuse("The WebAuthn challenge cookie holds no challenge.")
  }
  if (payload.provider !== provider) refuse("The WebAuthn challenge was made for another provider.")
  if (payload.action !== action) refuse(`The WebAuthn challenge was made for ${String(payload.action)}, not ${action}.`)
  if (!(await spend(config, payload.challenge, Math.max(1, exp - now + 1))))
    refuse("The WebAuthn challenge was already used: each sign-in needs a new one.")
  const record: ChallengeRecord = { challenge: payload.challenge, action, provider }
  const user = payload.user as Partial<RegisteringUser> | undefined
  if (user && typeof user.id === "string" && typeof user.email === "string") {
    record.user = {
      id: user.id,
      email: user.email,
      name: typeof user.name === "string" ? user.name : null,
      exists: user.exists === true,
    }
  }
  return record
}
