// Internal session-token codec: JWE compact serialisation, `dir` + A256CBC-HS512 (and A256GCM on decode), on
// synchronous node:crypto, and the sync encode/decode the library's hot path uses. Not a public entry: `gatehouse/jwt`
// (index.ts) wraps it. Keys are HKDF-SHA256(secret, salt = cookie name) as Auth.js derives them, cached per (secret, salt).
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomUUID,
  timingSafeEqual,
} from "node:crypto"
import { randomBytesPooled } from "../lib/random.js"
import { JWTSessionError, MissingSecret } from "../errors.js"
import type { JWT, JWTDecodeParams, JWTEncodeParams } from "../types.js"

/** 30 days, the default session and token lifetime. */
export const DEFAULT_MAX_AGE = 30 * 24 * 60 * 60

type Enc = "A256CBC-HS512" | "A256GCM"

/** A derived content-encryption key with its RFC 7638 thumbprint (`kid`). */
interface DerivedKey {
  readonly key: Buffer
  readonly kid: string
  /** base64url of the protected header `{"alg":"dir","enc":…,"kid":…}`, built once. */
  readonly protectedHeader: string
}

const MAX_KEY_CACHE = 256
const keyCache = new Map<string, DerivedKey>()

/**
 * Derives (once) the key for a secret and salt. The cache is keyed only by (enc, secret, salt), so
 * garbage input can never grow it (docs/security.md DS-06).
 * @see RFC 5869 (HKDF), RFC 7638 (JWK thumbprint)
 */
export function deriveKey(secret: string, salt: string, enc: Enc = "A256CBC-HS512"): DerivedKey {
  const cacheKey = `${enc}\u0000${salt}\u0000${secret}`
  const hit = keyCache.get(cacheKey)
  if (hit) return hit
  const length = enc === "A256GCM" ? 32 : 64
  const info = `Auth.js Generated Encryption Key (${salt})`
  const key = Buffer.from(hkdfSync("sha256", secret, salt, info, length))
  const jwk = `{"k":"${key.toString("base64url")}","kty":"oct"}`
  const kid = createHash(length === 64 ? "sha512" : "sha256")
    .update(jwk)
    .digest("base64url")
  const protectedHeader = Buffer.from(`{"alg":"dir","enc":"${enc}","kid":"${kid}"}`).toString("base64url")
  const derived: DerivedKey = { key, kid, protectedHeader }
  if (keyCache.size >= MAX_KEY_CACHE) keyCache.delete(keyCache.keys().next().value as string)
  keyCache.set(cacheKey, derived)
  return derived
}

function lengthBlock(aadLength: number): Buffer {
  const al = Buffer.alloc(8)
  al.writeBigUInt64BE(BigInt(aadLength) * 8n)
  return al
}

/** The A256CBC-HS512 authentication tag. @see RFC 7518 §5.2.2.1 */
function cbcTag(macKey: Buffer, aad: Buffer, iv: Buffer, ciphertext: Buffer): Buffer {
  return createHmac("sha512", macKey)
    .update(aad)
    .update(iv)
    .update(ciphertext)
    .update(lengthBlock(aad.length))
    .digest()
    .subarray(0, 32)
}

/** 16 fresh random bytes for a CBC IV. */
function nextIv(): Buffer {
  return randomBytesPooled(16)
}

/** Encrypts a claims object with `dir` + A256CBC-HS512 under the first secret. */
export function encryptClaims(payload: Record<string, unknown>, secret: string, salt: string): string {
  const { key, protectedHeader } = deriveKey(secret, salt)
  const iv = nextIv()
  const cipher = createCipheriv("aes-256-cbc", key.subarray(32, 64), iv)
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(payload), "utf8"), cipher.final()])
  const tag = cbcTag(key.subarray(0, 32), Buffer.from(protectedHeader, "ascii"), iv, ciphertext)
  return `${protectedHeader}..${iv.toString("base64url")}.${ciphertext.toString("base64url")}.${tag.toString("base64url")}`
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
    header = JSON.parse(Buffer.from(encoded, "base64url").toString("utf8"))
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

/**
 * Picks the secret for a token: with a `kid`, the one whose derived key has that thumbprint (no trial
 * decryption, docs/security.md CK-06); without, only the first secret (as Auth.js does).
 */
function selectKey(header: Header, secrets: readonly string[], salt: string): { derived: DerivedKey; index: number } {
  if (header.kid === undefined) return { derived: deriveKey(secrets[0] as string, salt, header.enc), index: 0 }
  for (let i = 0; i < secrets.length; i++) {
    const derived = deriveKey(secrets[i] as string, salt, header.enc)
    if (derived.kid === header.kid) return { derived, index: i }
  }
  throw new JWTSessionError("no secret matches the token's kid")
}

/** The decrypted claims and which secret (index into the secrets) opened them. */
export interface Decrypted {
  payload: Record<string, unknown>
  secretIndex: number
}

/** Decrypts and authenticates a compact JWE; throws `JWTSessionError` (the reason in its message, never token material) on any fault. Claims are not checked here. */
export function decryptClaims(token: string, secrets: readonly string[], salt: string): Decrypted {
  if (token.length > MAX_TOKEN_LENGTH) throw new JWTSessionError("token too large")
  const parts = token.split(".")
  if (parts.length !== 5) throw new JWTSessionError("not a compact JWE")
  const [h = "", encryptedKey, ivPart = "", ctPart = "", tagPart = ""] = parts
  if (encryptedKey !== "") throw new JWTSessionError("dir tokens have no encrypted key")
  if (!B64URL.test(h) || !B64URL.test(ivPart) || !B64URL.test(ctPart) || !B64URL.test(tagPart))
    throw new JWTSessionError("bad base64url")
  const header = parseHeader(h)
  const { derived, index } = selectKey(header, secrets, salt)
  const iv = Buffer.from(ivPart, "base64url")
  const ciphertext = Buffer.from(ctPart, "base64url")
  const tag = Buffer.from(tagPart, "base64url")
  const aad = Buffer.from(h, "ascii")
  let plaintext: Buffer
  try {
    if (header.enc === "A256CBC-HS512") {
      if (iv.length !== 16 || tag.length !== 32) throw new JWTSessionError("bad iv or tag length")
      const expected = cbcTag(derived.key.subarray(0, 32), aad, iv, ciphertext)
      if (!timingSafeEqual(expected, tag)) throw new JWTSessionError("authentication tag mismatch")
      const decipher = createDecipheriv("aes-256-cbc", derived.key.subarray(32, 64), iv)
      plaintext = Buffer.concat([decipher.update(ciphertext), decipher.final()])
    } else {
      if (iv.length !== 12 || tag.length !== 16) throw new JWTSessionError("bad iv or tag length")
      const decipher = createDecipheriv("aes-256-gcm", derived.key, iv)
      decipher.setAAD(aad)
      decipher.setAuthTag(tag)
      plaintext = Buffer.concat([decipher.update(ciphertext), decipher.final()])
    }
  } catch (error) {
    if (error instanceof JWTSessionError) throw error
    throw new JWTSessionError("decryption failed")
  }
  let payload: unknown
  try {
    payload = JSON.parse(plaintext.toString("utf8"))
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
  return { ...token, iat: nowSeconds, exp: nowSeconds + maxAge, jti: randomUUID() }
}

export const nowSeconds = (): number => Math.floor(Date.now() / 1000)

function secretList(secret: string | string[] | undefined): string[] {
  const list = Array.isArray(secret) ? secret : secret ? [secret] : []
  if (list.length === 0 || list.some((s) => typeof s !== "string" || s === ""))
    throw new MissingSecret("A `secret` is required to encode or decode a JWT.")
  return list
}

function assertSalt(salt: unknown): asserts salt is string {
  if (typeof salt !== "string" || salt === "")
    throw new JWTSessionError("A `salt` is required: pass the session cookie name (e.g. `authjs.session-token`).")
}

/** Synchronous encode: adds `iat`, `exp`, `jti` and encrypts under the first secret. */
export function encodeSync(params: JWTEncodeParams<Record<string, unknown>>): string {
  const { token = {}, secret, maxAge = DEFAULT_MAX_AGE, salt } = params
  assertSalt(salt)
  const secrets = secretList(secret)
  return encryptClaims(withTimeClaims(token, maxAge, nowSeconds()), secrets[0] as string, salt)
}

/**
 * Synchronous decode: null for an empty token (checked first, as Auth.js does), else the claims and which secret
 * opened them; throws JWTSessionError for a bad, foreign or expired token and MissingSecret without a secret.
 */
export function decodeSync(params: JWTDecodeParams): { payload: JWT; secretIndex: number } | null {
  const { token, secret, salt } = params
  if (!token) return null
  assertSalt(salt)
  const secrets = secretList(secret)
  if (typeof token !== "string") throw new JWTSessionError("The token is not a string.")
  const { payload, secretIndex } = decryptClaims(token, secrets, salt)
  assertTimeClaims(payload, nowSeconds())
  return { payload: payload as JWT, secretIndex }
}
