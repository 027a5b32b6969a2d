// The Auth.js wire format rebuilt independently of src/ with node:crypto (docs/wire-format.md §4, §5), so security
// tests can forge session tokens and CSRF cookies the way an attacker would: HKDF keys and kids, dir + A256CBC-HS512
// sealing under any header, junk JWEs and single bit flips.
import { createCipheriv, createHash, createHmac, hkdfSync, randomBytes } from "node:crypto"

export const b64u = {
  enc: (b: Uint8Array | string): string => Buffer.from(b).toString("base64url"),
  dec: (s: string): Buffer => Buffer.from(s, "base64url"),
}

export function sha256hex(s: string): string {
  return createHash("sha256").update(s, "utf8").digest("hex")
}

/** The CSRF cookie value `token|SHA-256(token+secret)` (secret arrays comma-joined). */
export function csrfCookieValue(token: string, secret: string | string[]): string {
  return `${token}|${sha256hex(token + String(secret))}`
}

export function deriveKey(secret: string, salt: string, length = 64): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, salt, `Auth.js Generated Encryption Key (${salt})`, length))
}

/** RFC 7638 thumbprint of the oct JWK, SHA-512 for 64-byte keys, SHA-256 for 32-byte keys. */
export function kidFor(key: Buffer): string {
  const json = `{"k":"${b64u.enc(key)}","kty":"oct"}`
  return createHash(key.length === 64 ? "sha512" : "sha256")
    .update(json)
    .digest("base64url")
}

/**
 * Seals `plaintext` as a compact JWE with the given protected header using dir + A256CBC-HS512
 * semantics (RFC 7518 5.2.5) and the 64-byte `key`, whatever the header claims. This lets a
 * test produce a cryptographically valid token carrying a hostile header (zip, crit, extra
 * members) or hostile claims (no exp).
 */
export function sealCbcHs512(
  header: Record<string, unknown>,
  plaintext: Uint8Array | string,
  key: Buffer,
  encryptedKey = "",
): string {
  const protectedB64 = b64u.enc(JSON.stringify(header))
  const aad = Buffer.from(protectedB64, "ascii")
  const macKey = key.subarray(0, 32)
  const encKey = key.subarray(32, 64)
  const iv = randomBytes(16)
  const cipher = createCipheriv("aes-256-cbc", encKey, iv)
  const ct = Buffer.concat([cipher.update(Buffer.from(plaintext)), cipher.final()])
  const al = Buffer.alloc(8)
  al.writeBigUInt64BE(BigInt(aad.length * 8))
  const tag = createHmac("sha512", macKey)
    .update(Buffer.concat([aad, iv, ct, al]))
    .digest()
    .subarray(0, 32)
  return [protectedB64, encryptedKey, b64u.enc(iv), b64u.enc(ct), b64u.enc(tag)].join(".")
}

/** A session token exactly as Auth.js would produce it, but with full control over claims and header. */
export function forgeSessionToken(opts: {
  secret: string
  salt: string
  claims: Record<string, unknown>
  header?: Record<string, unknown>
  omitKid?: boolean
  kid?: string
}): string {
  const key = deriveKey(opts.secret, opts.salt)
  const header: Record<string, unknown> = { alg: "dir", enc: "A256CBC-HS512" }
  if (!opts.omitKid) header.kid = opts.kid ?? kidFor(key)
  Object.assign(header, opts.header ?? {})
  return sealCbcHs512(header, JSON.stringify(opts.claims), key)
}

/** A compact JWE with `header` and random (non-decryptable) parts. */
export function junkJwe(header: Record<string, unknown>, encryptedKey = ""): string {
  return [
    b64u.enc(JSON.stringify(header)),
    encryptedKey,
    b64u.enc(randomBytes(16)),
    b64u.enc(randomBytes(48)),
    b64u.enc(randomBytes(32)),
  ].join(".")
}

export const nowSec = (): number => Math.floor(Date.now() / 1000)

/** Flips one bit in the middle of the decoded bytes of part `index` of a compact JWE. */
export function flipBit(jwe: string, index: number): string {
  const parts = jwe.split(".")
  const bytes = b64u.dec(parts[index]!)
  const at = Math.floor(bytes.length / 2)
  bytes[at] = bytes[at]! ^ 0x01
  parts[index] = b64u.enc(bytes)
  return parts.join(".")
}
