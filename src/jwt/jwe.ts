// Internal session-token codec: JWE compact serialisation, `dir` + A256CBC-HS512 (and A256GCM on decode), through the
// crypto seam (#crypto: node:crypto on Node, Web Crypto elsewhere). Not a public entry: `gatehouse/jwt` (index.ts)
// wraps it. Keys are HKDF-SHA256(secret, salt = cookie name) as Auth.js derives them, cached per (secret, salt) with the
// content key made ready once, so the node backend answers every step synchronously and the web backend imports each
// key once.
import {
  type ContentKey,
  decryptContent,
  digest,
  encryptContent,
  fromBase64Url,
  fromUtf8,
  hkdf,
  importContentKey,
  randomBytes,
  randomUUID,
  toBase64Url,
  utf8,
} from "#crypto"
import { JWTSessionError, MissingSecret } from "../errors.js"
import type { JWT, JWTDecodeParams, JWTEncodeParams } from "../types.js"
import { merged } from "../lib/merged.js"

/** 30 days, the default session and token lifetime. */
export const DEFAULT_MAX_AGE = 30 * 24 * 60 * 60

type Enc = "A256CBC-HS512" | "A256GCM"

/**
 * How a token's key is derived and its header written (docs/wire-format.md §4): "authjs" is Auth.js v5 / @auth/core
 * (HKDF info names the salt, the cookie name; a `kid` in the header); "next-auth-v4" is next-auth 4 (info
 * "NextAuth.js Generated Encryption Key", with " (<salt>)" only for a non-empty salt, which session tokens leave
 * empty; always A256GCM, 32 bytes; no `kid`).
 */
export type KeyScheme = "authjs" | "next-auth-v4"

/** A derived content-encryption key with its RFC 7638 thumbprint (`kid`). */
export interface DerivedKey {
  /** The HKDF output: 64 bytes for A256CBC-HS512, 32 for A256GCM. */
  readonly raw: Uint8Array
  /** The same key, made ready for the seam's content encryption. */
  readonly key: ContentKey
  readonly kid: string
  /** base64url of the protected header `{"alg":"dir","enc":…,"kid":…}`, built once. */
  readonly protectedHeader: string
  /** Its ASCII bytes, the AAD of every token this key seals. */
  readonly aad: Uint8Array
}

const MAX_KEY_CACHE = 256
/** Derived keys, or the derivation under way (so concurrent first uses derive once). */
const keyCache = new Map<string, DerivedKey | Promise<DerivedKey>>()

async function derive(secret: string, salt: string, enc: Enc, scheme: KeyScheme): Promise<DerivedKey> {
  const length = enc === "A256GCM" ? 32 : 64
  if (scheme === "next-auth-v4") {
    const raw = await hkdf(secret, salt, `NextAuth.js Generated Encryption Key${salt ? ` (${salt})` : ""}`, length)
    const protectedHeader = toBase64Url(`{"alg":"dir","enc":"${enc}"}`)
    return { raw, key: await importContentKey(enc, raw), kid: "", protectedHeader, aad: utf8(protectedHeader) }
  }
  const raw = await hkdf(secret, salt, `Auth.js Generated Encryption Key (${salt})`, length)
  const jwk = `{"k":"${toBase64Url(raw)}","kty":"oct"}`
  const kid = await digest(length === 64 ? "SHA-512" : "SHA-256", jwk, "base64url")
  const protectedHeader = toBase64Url(`{"alg":"dir","enc":"${enc}","kid":"${kid}"}`)
  return { raw, key: await importContentKey(enc, raw), kid, protectedHeader, aad: utf8(protectedHeader) }
}

/**
 * Derives (once) the key for a secret and salt: the cached key itself once derived (await it anyway). The cache is
 * keyed only by (scheme, enc, secret, salt), so garbage input can never grow it (docs/security.md DS-06). A
 * "next-auth-v4" key has no `kid` (an empty string).
 * @see RFC 5869 (HKDF), RFC 7638 (JWK thumbprint)
 */
export function deriveKey(
  secret: string,
  salt: string,
  enc: Enc = "A256CBC-HS512",
  scheme: KeyScheme = "authjs",
): DerivedKey | Promise<DerivedKey> {
  const cacheKey = `${scheme}\u0000${enc}\u0000${salt}\u0000${secret}`
  const hit = keyCache.get(cacheKey)
  if (hit) return hit
  if (keyCache.size >= MAX_KEY_CACHE) keyCache.delete(keyCache.keys().next().value as string)
  const pending = derive(secret, salt, enc, scheme).then(
    (derived) => {
      if (keyCache.get(cacheKey) === pending) keyCache.set(cacheKey, derived)
      return derived
    },
    (error: unknown) => {
      if (keyCache.get(cacheKey) === pending) keyCache.delete(cacheKey)
      throw error
    },
  )
  keyCache.set(cacheKey, pending)
  return pending
}

/** Encrypts a claims object with `dir` under the secret: A256CBC-HS512 ("authjs"), or A256GCM ("next-auth-v4"). */
export async function encryptClaims(
  payload: Record<string, unknown>,
  secret: string,
  salt: string,
  scheme: KeyScheme = "authjs",
): Promise<string> {
  const v4 = scheme === "next-auth-v4"
  // A cached key and the node backend's encryption are plain values: awaited only when they are promises, so a
  // sign-in does not pay two promise round trips for answers it already has.
  const derived = deriveKey(secret, salt, v4 ? "A256GCM" : "A256CBC-HS512", scheme)
  const { key, protectedHeader, aad } = derived instanceof Promise ? await derived : derived
  const iv = randomBytes(v4 ? 12 : 16)
  const sealed = encryptContent(key, iv, aad, utf8(JSON.stringify(payload)))
  const { ciphertext, tag } = sealed instanceof Promise ? await sealed : sealed
  return `${protectedHeader}..${toBase64Url(iv)}.${toBase64Url(ciphertext)}.${toBase64Url(tag)}`
}

const B64URL = /^[A-Za-z0-9_-]*$/
const MAX_TOKEN_LENGTH = 200_000

interface Header {
  alg: string
  enc: Enc
  kid?: string
}

/** Parses and checks the protected header before any key is derived (docs/security.md CK-02). */
function parseHeader(encoded: string): Header {
  let header: unknown
  try {
    header = JSON.parse(fromUtf8(fromBase64Url(encoded)))
  } catch {
    throw new JWTSessionError("protected header is not JSON")
  }
  if (typeof header !== "object" || header === null || Array.isArray(header))
    throw new JWTSessionError("protected header is not an object")
  const h = header as Record<string, unknown>
  for (const name of Object.keys(h)) {
    if (name !== "alg" && name !== "enc" && name !== "kid")
      throw new JWTSessionError(`unsupported header member "${name.slice(0, 20)}"`)
  }
  if (h.alg !== "dir") throw new JWTSessionError("alg must be dir")
  if (h.enc !== "A256CBC-HS512" && h.enc !== "A256GCM")
    throw new JWTSessionError("enc must be A256CBC-HS512 or A256GCM")
  if (h.kid !== undefined && typeof h.kid !== "string") throw new JWTSessionError("kid must be a string")
  return h as unknown as Header
}

/** The decrypted claims and which secret (index into the secrets) opened them. */
export interface Decrypted {
  payload: Record<string, unknown>
  secretIndex: number
}

/**
 * Decrypts and authenticates a compact JWE; throws `JWTSessionError` (the reason in its message, never token
 * material) on any fault. Claims are not checked here. An "authjs" token without a `kid` opens with the first secret
 * only (as Auth.js does). A "next-auth-v4" token carries no `kid` (one with a `kid` is refused): each secret is tried
 * in order, at most once each, so a list `[new, oldV4Secret]` reads the cookies next-auth 4 sealed under the old one.
 */
export async function decryptClaims(
  token: string,
  secrets: readonly string[],
  salt: string,
  scheme: KeyScheme = "authjs",
): Promise<Decrypted> {
  if (token.length > MAX_TOKEN_LENGTH) throw new JWTSessionError("token too large")
  const parts = token.split(".")
  if (parts.length !== 5) throw new JWTSessionError("not a compact JWE")
  const [h = "", encryptedKey, ivPart = "", ctPart = "", tagPart = ""] = parts
  if (encryptedKey !== "") throw new JWTSessionError("dir tokens have no encrypted key")
  if (!B64URL.test(h) || !B64URL.test(ivPart) || !B64URL.test(ctPart) || !B64URL.test(tagPart))
    throw new JWTSessionError("bad base64url")
  const header = parseHeader(h)
  const v4 = scheme === "next-auth-v4"
  if (v4 && header.kid !== undefined) throw new JWTSessionError("next-auth v4 tokens have no kid")
  const iv = fromBase64Url(ivPart)
  const tag = fromBase64Url(tagPart)
  const cbc = header.enc === "A256CBC-HS512"
  if (iv.length !== (cbc ? 16 : 12) || tag.length !== (cbc ? 32 : 16)) throw new JWTSessionError("bad iv or tag length")
  const ciphertext = fromBase64Url(ctPart)
  // The secret for the token: with a `kid`, the one whose derived key has that thumbprint (no trial decryption,
  // docs/security.md CK-06); without, the first secret, or under "next-auth-v4" each in turn (the list bounds it).
  let plaintext: Uint8Array | undefined
  let index = 0
  let failure = "no secret matches the token's kid"
  for (; index < secrets.length; index++) {
    const derived = await deriveKey(secrets[index] as string, salt, header.enc, scheme)
    if (header.kid !== undefined && derived.kid !== header.kid) continue
    try {
      const aad = h === derived.protectedHeader ? derived.aad : utf8(h)
      plaintext = await decryptContent(derived.key, iv, aad, ciphertext, tag)
      break
    } catch (error) {
      failure =
        error instanceof Error && error.message === "authentication tag mismatch" ? error.message : "decryption failed"
      // A token with a kid has one candidate key; one without opens under the first secret unless it is next-auth 4's.
      if (header.kid !== undefined || !v4) break
    }
  }
  if (plaintext === undefined) throw new JWTSessionError(failure)
  let payload: unknown
  try {
    payload = JSON.parse(fromUtf8(plaintext))
  } catch {
    throw new JWTSessionError("payload is not JSON")
  }
  if (typeof payload !== "object" || payload === null || Array.isArray(payload))
    throw new JWTSessionError("payload is not a claims object")
  return { payload: payload as Record<string, unknown>, secretIndex: index }
}

/** Seconds of clock skew tolerated on `exp` and `nbf`, as Auth.js. */
export const CLOCK_TOLERANCE = 15

/** Checks the time claims: `exp` required and not past (with tolerance), `nbf`/`iat` numeric if present. @see RFC 7519 §4.1.4 */
export function assertTimeClaims(payload: Record<string, unknown>, nowSeconds: number): void {
  const { exp, nbf, iat } = payload
  if (typeof exp !== "number" || !Number.isFinite(exp)) throw new JWTSessionError("exp missing")
  if (exp <= nowSeconds - CLOCK_TOLERANCE) throw new JWTSessionError("token expired")
  if (nbf !== undefined && (typeof nbf !== "number" || nbf > nowSeconds + CLOCK_TOLERANCE))
    throw new JWTSessionError("token not yet valid")
  if (iat !== undefined && typeof iat !== "number") throw new JWTSessionError("iat is not a number")
}

/** Adds `iat`, `exp` and a fresh `jti`, overwriting any present, as Auth.js does on every encode. */
export function withTimeClaims(
  token: Record<string, unknown>,
  maxAge: number,
  nowSeconds: number,
): Record<string, unknown> {
  return merged(token, { iat: nowSeconds, exp: nowSeconds + maxAge, jti: randomUUID() })
}

export const nowSeconds = (): number => Math.floor(Date.now() / 1000)

function secretList(secret: string | string[] | undefined): string[] {
  const list = Array.isArray(secret) ? secret : secret ? [secret] : []
  if (list.length === 0 || list.some((s) => typeof s !== "string" || s === ""))
    throw new MissingSecret("A `secret` is required to encode or decode a JWT.")
  return list
}

function assertSalt(salt: unknown, scheme: KeyScheme): asserts salt is string {
  // next-auth v4 session tokens use the empty salt; Auth.js requires the cookie name.
  if (scheme === "next-auth-v4" ? typeof salt !== "string" : typeof salt !== "string" || salt === "")
    throw new JWTSessionError("A `salt` is required: pass the session cookie name (e.g. `authjs.session-token`).")
}

/**
 * Encodes as `gatehouse/jwt`'s encode: adds `iat`, `exp`, `jti` and encrypts under the first secret. Under
 * "next-auth-v4" the salt may be empty (a session token's), as next-auth 4's encode takes it.
 */
export async function encodeToken(
  params: JWTEncodeParams<Record<string, unknown>>,
  scheme: KeyScheme = "authjs",
): Promise<string> {
  const { token = {}, secret, maxAge = DEFAULT_MAX_AGE, salt } = params
  assertSalt(salt, scheme)
  const secrets = secretList(secret)
  return await encryptClaims(withTimeClaims(token, maxAge, nowSeconds()), secrets[0] as string, salt, scheme)
}

/**
 * Decodes: null for an empty token (checked first, as Auth.js does), else the claims and which secret opened them;
 * rejects with JWTSessionError for a bad, foreign or expired token and MissingSecret without a secret.
 */
export async function decodeToken(
  params: JWTDecodeParams,
  scheme: KeyScheme = "authjs",
): Promise<{ payload: JWT; secretIndex: number } | null> {
  const { token, secret, salt } = params
  if (!token) return null
  assertSalt(salt, scheme)
  const secrets = secretList(secret)
  if (typeof token !== "string") throw new JWTSessionError("The token is not a string.")
  const { payload, secretIndex } = await decryptClaims(token, secrets, salt, scheme)
  assertTimeClaims(payload, nowSeconds())
  return { payload: payload as JWT, secretIndex }
}
