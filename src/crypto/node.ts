// The crypto seam on Node.js (also Bun and Deno): node:crypto and Buffer, every answer synchronous, so the session hot
// path awaits values, never promises it has to wait a tick for. The contract is src/crypto/seam.ts.
import {
  type KeyObject,
  constants,
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  createPublicKey,
  hkdfSync,
  randomFillSync,
  randomUUID as nodeRandomUUID,
  timingSafeEqual as nodeTimingSafeEqual,
  verify,
} from "node:crypto"
import * as nodeCrypto from "node:crypto"
import type { Awaitable, ContentEncryption, ContentKey, HashAlg, TextEncoding } from "./seam.js"

// The contract's types, for code that imports #crypto: tsconfig.json maps it here (so tsx and tsc run and check the
// source alike), and the signatures below are the contract's own (Awaitable results), so no caller can rely on this
// backend answering synchronously. seam.test.ts checks that they match the contract both ways.
export type { Awaitable, ContentEncryption, ContentKey, HashAlg, TextEncoding } from "./seam.js"

export const backend = "node" as const

/** A Buffer over the same memory (no copy). */
function view(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}

function bytesOf(data: Uint8Array | string): Buffer {
  return typeof data === "string" ? Buffer.from(data, "utf8") : view(data)
}

// --- Encodings ---

export function utf8(text: string): Uint8Array {
  return Buffer.from(text, "utf8")
}

export function fromUtf8(bytes: Uint8Array): string {
  return view(bytes).toString("utf8")
}

export function toBase64Url(data: Uint8Array | string): string {
  return bytesOf(data).toString("base64url")
}

export function fromBase64Url(text: string): Uint8Array {
  return Buffer.from(text, "base64url")
}

export function toBase64(data: Uint8Array | string): string {
  return bytesOf(data).toString("base64")
}

export function fromBase64(text: string): Uint8Array {
  return Buffer.from(text, "base64")
}

export function toHex(bytes: Uint8Array): string {
  return view(bytes).toString("hex")
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  return Buffer.concat(parts)
}

export function timingSafeEqual(a: Uint8Array | string, b: Uint8Array | string): boolean {
  const x = bytesOf(a)
  const y = bytesOf(b)
  return x.length === y.length && nodeTimingSafeEqual(x, y)
}

// --- Randomness ---

// Bytes cut from a pool refilled 4 KiB at a time: one randomFillSync call per 128 tokens instead of one each (each
// call into OpenSSL costs microseconds on the hot path). No byte is handed out twice: the pool is replaced, never
// rewritten, so every view handed out stays valid.
const POOL_SIZE = 4096
let pool = Buffer.alloc(0)
let offset = POOL_SIZE

export function randomBytes(size: number): Uint8Array {
  if (size > POOL_SIZE) return randomFillSync(Buffer.allocUnsafe(size))
  if (offset + size > POOL_SIZE) {
    pool = randomFillSync(Buffer.allocUnsafe(POOL_SIZE))
    offset = 0
  }
  const bytes = pool.subarray(offset, offset + size)
  offset += size
  return bytes
}

export function randomUUID(): string {
  return nodeRandomUUID()
}

// --- Hashes, MACs, key derivation ---

const HASH: Record<HashAlg, string> = { "SHA-1": "sha1", "SHA-256": "sha256", "SHA-384": "sha384", "SHA-512": "sha512" }

/**
 * node:crypto's one-shot `hash(alg, data, encoding)` (Node.js 20.12+, 21.7+): one call into OpenSSL with no Hash
 * object, about 9k instructions for a short input where createHash().update().digest() takes about 15k (callgrind).
 * Older Node.js versions, and Bun or Deno without it, take createHash.
 */
const hashOnce = (nodeCrypto as { hash?: typeof nodeCrypto.hash }).hash

// Strings go into the hash as they are (UTF-8) and text comes out of it directly: a Buffer each way costs more than
// the hash of a short input.
export function digest(alg: HashAlg, data: Uint8Array | string): Awaitable<Uint8Array>
export function digest(alg: HashAlg, data: Uint8Array | string, encoding: TextEncoding): Awaitable<string>
export function digest(
  alg: HashAlg,
  data: Uint8Array | string,
  encoding?: TextEncoding,
): Awaitable<Uint8Array | string> {
  if (hashOnce) return hashOnce(HASH[alg], data, encoding ?? "buffer")
  const hash = createHash(HASH[alg])
  if (typeof data === "string") hash.update(data, "utf8")
  else hash.update(data)
  return encoding === undefined ? hash.digest() : hash.digest(encoding)
}

export function sha256Sync(data: Uint8Array | string): Uint8Array {
  if (hashOnce) return hashOnce("sha256", data, "buffer")
  return typeof data === "string"
    ? createHash("sha256").update(data, "utf8").digest()
    : createHash("sha256").update(data).digest()
}

export function hmac(alg: HashAlg, key: Uint8Array | string, data: Uint8Array | string): Awaitable<Uint8Array>
export function hmac(
  alg: HashAlg,
  key: Uint8Array | string,
  data: Uint8Array | string,
  encoding: TextEncoding,
): Awaitable<string>
export function hmac(
  alg: HashAlg,
  key: Uint8Array | string,
  data: Uint8Array | string,
  encoding?: TextEncoding,
): Awaitable<Uint8Array | string> {
  const mac = createHmac(HASH[alg], key)
  if (typeof data === "string") mac.update(data, "utf8")
  else mac.update(data)
  return encoding === undefined ? mac.digest() : mac.digest(encoding)
}

export function hkdf(
  ikm: Uint8Array | string,
  salt: Uint8Array | string,
  info: Uint8Array | string,
  length: number,
): Awaitable<Uint8Array> {
  return new Uint8Array(hkdfSync("sha256", bytesOf(ikm), bytesOf(salt), bytesOf(info), length))
}

// --- JWE content encryption ---

interface NodeContentKey extends ContentKey {
  /** A256CBC-HS512: the HMAC half (first 32 bytes); A256GCM: unused. */
  readonly macKey: Buffer
  /** A256CBC-HS512 with a one-shot hash: the MAC key padded to SHA-512's 128-byte block, XOR 0x36 and XOR 0x5c. */
  readonly ipad?: Buffer
  readonly opad?: Buffer
  /** A256CBC-HS512: the AES half (last 32 bytes); A256GCM: the whole key. */
  readonly encKey: Buffer
}

export function importContentKey(enc: ContentEncryption, raw: Uint8Array): Awaitable<ContentKey> {
  const bytes = Buffer.from(raw) // a private copy: the caller's array may change
  if (enc === "A256CBC-HS512") {
    if (bytes.length !== 64) throw new TypeError("A256CBC-HS512 takes a 64-byte key")
    const macKey = bytes.subarray(0, 32)
    const pads = hashOnce ? { ipad: padKey(macKey, 0x36), opad: padKey(macKey, 0x5c) } : {}
    return { enc, macKey, encKey: bytes.subarray(32, 64), ...pads } as NodeContentKey
  }
  if (bytes.length !== 32) throw new TypeError("A256GCM takes a 32-byte key")
  return { enc, macKey: Buffer.alloc(0), encKey: bytes } as NodeContentKey
}

/** An HMAC-SHA-512 pad (RFC 2104 §2): the key (at most one block) zero-filled to 128 bytes, each byte XOR `byte`. */
function padKey(key: Buffer, byte: number): Buffer {
  const pad = Buffer.alloc(128, byte)
  for (let i = 0; i < key.length; i++) pad[i] = (key[i] as number) ^ byte
  return pad
}

/**
 * The A256CBC-HS512 tag: HMAC-SHA-512 over AAD ‖ IV ‖ ciphertext ‖ AL, cut to 32 bytes (RFC 7518 §5.2.2.1). With
 * the one-shot hash it is RFC 2104's two hashes, H(opad ‖ H(ipad ‖ message)), over the key's pads made once: the
 * same blocks OpenSSL's HMAC hashes, without a Hmac object and four update calls (about 25k instructions a tag).
 */
function cbcTag(key: NodeContentKey, aad: Uint8Array, iv: Uint8Array, ciphertext: Uint8Array): Buffer {
  const al = alBlock(aad.length)
  const { ipad, opad } = key
  // The pads exist only where the one-shot hash does (importContentKey).
  if (!hashOnce || !ipad || !opad) {
    return createHmac("sha512", key.macKey)
      .update(aad)
      .update(iv)
      .update(ciphertext)
      .update(al)
      .digest()
      .subarray(0, 32)
  }
  const inner = Buffer.allocUnsafe(128 + aad.length + iv.length + ciphertext.length + 8)
  inner.set(ipad, 0)
  let at = 128
  inner.set(aad, at)
  at += aad.length
  inner.set(iv, at)
  at += iv.length
  inner.set(ciphertext, at)
  inner.set(al, at + ciphertext.length)
  const outer = Buffer.allocUnsafe(128 + 64)
  outer.set(opad, 0)
  outer.set(hashOnce("sha512", inner, "buffer") as unknown as Buffer, 128)
  return (hashOnce("sha512", outer, "buffer") as unknown as Buffer).subarray(0, 32)
}

/**
 * AL (the AAD's length in bits, 64-bit big-endian) for the last AAD length seen, kept: a key's tokens share their
 * header, so the length rarely changes. The block is only ever read (hashed), never written after it is made.
 */
let lastAl = { aadLength: -1, block: Buffer.alloc(8) }
function alBlock(aadLength: number): Buffer {
  if (aadLength !== lastAl.aadLength) {
    const block = Buffer.alloc(8)
    block.writeUInt32BE(Math.floor(aadLength / 0x20000000), 0)
    block.writeUInt32BE((aadLength * 8) >>> 0, 4)
    lastAl = { aadLength, block }
  }
  return lastAl.block
}

export function encryptContent(
  key: ContentKey,
  iv: Uint8Array,
  aad: Uint8Array,
  plaintext: Uint8Array,
): Awaitable<{ ciphertext: Uint8Array; tag: Uint8Array }> {
  const { encKey } = key as NodeContentKey
  if (key.enc === "A256CBC-HS512") {
    const cipher = createCipheriv("aes-256-cbc", encKey, iv)
    const first = cipher.update(plaintext)
    const last = cipher.final()
    const ciphertext = last.length === 0 ? first : Buffer.concat([first, last])
    return { ciphertext, tag: cbcTag(key as NodeContentKey, aad, iv, ciphertext) }
  }
  const cipher = createCipheriv("aes-256-gcm", encKey, iv)
  cipher.setAAD(aad)
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()])
  return { ciphertext, tag: cipher.getAuthTag() }
}

export function decryptContent(
  key: ContentKey,
  iv: Uint8Array,
  aad: Uint8Array,
  ciphertext: Uint8Array,
  tag: Uint8Array,
): Awaitable<Uint8Array> {
  const { encKey } = key as NodeContentKey
  if (key.enc === "A256CBC-HS512") {
    if (iv.length !== 16 || tag.length !== 32) throw new Error("bad iv or tag length")
    if (!nodeTimingSafeEqual(cbcTag(key as NodeContentKey, aad, iv, ciphertext), tag))
      throw new Error("authentication tag mismatch")
    const decipher = createDecipheriv("aes-256-cbc", encKey, iv)
    return Buffer.concat([decipher.update(ciphertext), decipher.final()])
  }
  if (iv.length !== 12 || tag.length !== 16) throw new Error("bad iv or tag length")
  const decipher = createDecipheriv("aes-256-gcm", encKey, iv)
  decipher.setAAD(aad)
  decipher.setAuthTag(tag)
  return Buffer.concat([decipher.update(ciphertext), decipher.final()])
}

// --- Signatures ---

/** Public keys made from JWKs, once per JWK object (a cached JWKS hands the same objects back). */
const publicKeys = new WeakMap<JsonWebKey, KeyObject>()

function publicKey(jwk: JsonWebKey): KeyObject {
  let key = publicKeys.get(jwk)
  if (!key) {
    key = createPublicKey({ key: jwk as import("node:crypto").JsonWebKey, format: "jwk" })
    publicKeys.set(jwk, key)
  }
  return key
}

export function verifyJws(alg: string, jwk: JsonWebKey, data: Uint8Array, signature: Uint8Array): Awaitable<boolean> {
  const bits = alg.slice(2)
  switch (alg) {
    case "RS256":
    case "RS384":
    case "RS512":
      return verify(`sha${bits}`, data, publicKey(jwk), signature)
    case "PS256":
    case "PS384":
    case "PS512":
      return verify(
        `sha${bits}`,
        data,
        { key: publicKey(jwk), padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: Number(bits) / 8 },
        signature,
      )
    case "ES256":
    case "ES384":
    case "ES512":
      return verify(`sha${bits}`, data, { key: publicKey(jwk), dsaEncoding: "ieee-p1363" }, signature)
    case "EdDSA":
    case "Ed25519":
      return verify(null, data, publicKey(jwk), signature)
    default:
      throw new TypeError(`unsupported JWS algorithm ${alg}`)
  }
}
