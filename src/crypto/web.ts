// The crypto seam on Web Crypto: Next's Edge runtime, Cloudflare workerd, browsers and any runtime without node:crypto.
// No Buffer, no node:* import, no `process`. Encodings and randomness are synchronous (plain JS over tables, and
// getRandomValues); hashes, MACs, HKDF, content encryption and signatures answer with promises from crypto.subtle.
// Every CryptoKey is imported once: HMAC keys per key (a bounded map for string keys), content keys by the caller
// (importContentKey), public keys per JWK object. The contract is src/crypto/seam.ts.
import type { ContentEncryption, ContentKey, HashAlg, TextEncoding } from "./seam.js"

export const backend = "web" as const

/** Web Crypto's BufferSource wants ArrayBuffer-backed views; every array here is one. */
type Bytes = Uint8Array<ArrayBuffer>
const source = (bytes: Uint8Array): Bytes => bytes as Bytes

function subtle(): SubtleCrypto {
  return globalThis.crypto.subtle
}

// --- Encodings ---

const encoder = new TextEncoder()
// ignoreBOM keeps a leading U+FEFF in the text, as Node's decoder does; invalid sequences become U+FFFD.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true })

export function utf8(text: string): Uint8Array {
  return encoder.encode(text)
}

export function fromUtf8(bytes: Uint8Array): string {
  return decoder.decode(bytes)
}

function bytesOf(data: Uint8Array | string): Uint8Array {
  return typeof data === "string" ? encoder.encode(data) : data
}

const STANDARD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
const URL_SAFE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

/** Every 12-bit group as its two base64 characters, so three bytes take two look-ups. */
function pairTable(alphabet: string): string[] {
  const table: string[] = new Array(4096)
  for (let i = 0; i < 4096; i++) table[i] = (alphabet[i >> 6] as string) + (alphabet[i & 63] as string)
  return table
}
let standardPairs: string[] | undefined
let urlPairs: string[] | undefined

function encodeBase64(bytes: Uint8Array, alphabet: string, pairs: string[], pad: boolean): string {
  const n = bytes.length
  const whole = n - (n % 3)
  let out = ""
  for (let i = 0; i < whole; i += 3) {
    const word = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number)
    out += (pairs[word >> 12] as string) + (pairs[word & 4095] as string)
  }
  if (n - whole === 1) {
    const b = bytes[whole] as number
    out += (alphabet[b >> 2] as string) + (alphabet[(b & 3) << 4] as string)
    if (pad) out += "=="
  } else if (n - whole === 2) {
    const word = ((bytes[whole] as number) << 8) | (bytes[whole + 1] as number)
    out += (alphabet[word >> 10] as string) + (alphabet[(word >> 4) & 63] as string)
    out += alphabet[(word & 15) << 2] as string
    if (pad) out += "="
  }
  return out
}

export function toBase64Url(data: Uint8Array | string): string {
  urlPairs ??= pairTable(URL_SAFE)
  return encodeBase64(bytesOf(data), URL_SAFE, urlPairs, false)
}

export function toBase64(data: Uint8Array | string): string {
  standardPairs ??= pairTable(STANDARD)
  return encodeBase64(bytesOf(data), STANDARD, standardPairs, true)
}

// Both alphabets decode in both functions, as Node's decoder does: characters outside them are skipped, the first
// "=" ends the data, a lone trailing character is dropped. Same bytes as the node backend for any input.
const SEXTET = new Int8Array(128).fill(-1)
for (let i = 0; i < 64; i++) {
  SEXTET[STANDARD.charCodeAt(i)] = i
  SEXTET[URL_SAFE.charCodeAt(i)] = i
}
const PAD = 61 // "="

function decodeBase64(text: string): Uint8Array {
  const out = new Uint8Array(Math.floor((text.length * 3) / 4) + 3)
  let length = 0
  let acc = 0
  let count = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === PAD) break
    const value = code < 128 ? (SEXTET[code] as number) : -1
    if (value < 0) continue
    acc = (acc << 6) | value
    if (++count === 4) {
      out[length++] = acc >> 16
      out[length++] = (acc >> 8) & 255
      out[length++] = acc & 255
      acc = 0
      count = 0
    }
  }
  if (count === 2) out[length++] = acc >> 4
  else if (count === 3) {
    out[length++] = acc >> 10
    out[length++] = (acc >> 2) & 255
  }
  return out.slice(0, length)
}

export function fromBase64Url(text: string): Uint8Array {
  return decodeBase64(text)
}

export function fromBase64(text: string): Uint8Array {
  return decodeBase64(text)
}

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"))

export function toHex(bytes: Uint8Array): string {
  let out = ""
  for (let i = 0; i < bytes.length; i++) out += HEX[bytes[i] as number] as string
  return out
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let size = 0
  for (const part of parts) size += part.length
  const out = new Uint8Array(size)
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

export function timingSafeEqual(a: Uint8Array | string, b: Uint8Array | string): boolean {
  const x = bytesOf(a)
  const y = bytesOf(b)
  if (x.length !== y.length) return false
  let diff = 0
  for (let i = 0; i < x.length; i++) diff |= (x[i] as number) ^ (y[i] as number)
  return diff === 0
}

// --- Randomness ---

/** getRandomValues fills at most 65,536 bytes a call. */
const RANDOM_CHUNK = 65_536

export function randomBytes(size: number): Uint8Array {
  const out = new Uint8Array(size)
  for (let at = 0; at < size; at += RANDOM_CHUNK) globalThis.crypto.getRandomValues(out.subarray(at, at + RANDOM_CHUNK))
  return out
}

export function randomUUID(): string {
  if (typeof globalThis.crypto.randomUUID === "function") return globalThis.crypto.randomUUID()
  const b = randomBytes(16)
  b[6] = ((b[6] as number) & 0x0f) | 0x40
  b[8] = ((b[8] as number) & 0x3f) | 0x80
  const hex = toHex(b)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

// --- Hashes, MACs, key derivation ---

/** Bytes as the text form asked for. */
function encode(bytes: Uint8Array, encoding: TextEncoding): string {
  return encoding === "hex" ? toHex(bytes) : encoding === "base64" ? toBase64(bytes) : toBase64Url(bytes)
}

export function digest(alg: HashAlg, data: Uint8Array | string): Promise<Uint8Array>
export function digest(alg: HashAlg, data: Uint8Array | string, encoding: TextEncoding): Promise<string>
export async function digest(
  alg: HashAlg,
  data: Uint8Array | string,
  encoding?: TextEncoding,
): Promise<Uint8Array | string> {
  const bytes = new Uint8Array(await subtle().digest(alg, source(bytesOf(data))))
  return encoding === undefined ? bytes : encode(bytes, encoding)
}

/** SHA-256's round constants (FIPS 180-4 §4.2.2). */
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
])

/** SHA-256 in plain JS (FIPS 180-4 §6.2): the synchronous hash for public text; `digest` is the fast path. */
export function sha256Sync(data: Uint8Array | string): Uint8Array {
  const message = bytesOf(data)
  // The message, a 1 bit, zeros, and its length in bits as a 64-bit big-endian number, in 64-byte blocks.
  const blocks = Math.ceil((message.length + 9) / 64)
  const padded = new Uint8Array(blocks * 64)
  padded.set(message)
  padded[message.length] = 0x80
  const view = new DataView(padded.buffer)
  view.setUint32(padded.length - 8, Math.floor(message.length / 0x20000000))
  view.setUint32(padded.length - 4, (message.length * 8) >>> 0)
  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ])
  const w = new Uint32Array(64)
  const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n))
  for (let block = 0; block < blocks; block++) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(block * 64 + t * 4)
    for (let t = 16; t < 64; t++) {
      const x = w[t - 15] as number
      const y = w[t - 2] as number
      const s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x >>> 3)
      const s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y >>> 10)
      w[t] = (w[t - 16] as number) + s0 + (w[t - 7] as number) + s1
    }
    let a = h[0] as number
    let b = h[1] as number
    let c = h[2] as number
    let d = h[3] as number
    let e = h[4] as number
    let f = h[5] as number
    let g = h[6] as number
    let k = h[7] as number
    for (let t = 0; t < 64; t++) {
      const sum1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
      const choose = (e & f) ^ (~e & g)
      const t1 = (k + sum1 + choose + (K[t] as number) + (w[t] as number)) >>> 0
      const sum0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
      const majority = (a & b) ^ (a & c) ^ (b & c)
      const t2 = (sum0 + majority) >>> 0
      k = g
      g = f
      f = e
      e = (d + t1) >>> 0
      d = c
      c = b
      b = a
      a = (t1 + t2) >>> 0
    }
    h[0] = (h[0] as number) + a
    h[1] = (h[1] as number) + b
    h[2] = (h[2] as number) + c
    h[3] = (h[3] as number) + d
    h[4] = (h[4] as number) + e
    h[5] = (h[5] as number) + f
    h[6] = (h[6] as number) + g
    h[7] = (h[7] as number) + k
  }
  const out = new Uint8Array(32)
  const outView = new DataView(out.buffer)
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, h[i] as number)
  return out
}

const MAX_HMAC_KEYS = 256
/** Imported HMAC keys for string keys (secrets), by algorithm and key; the oldest goes first past the bound. */
const hmacKeysByText = new Map<string, Promise<CryptoKey>>()
/** Imported HMAC keys for byte keys, by array object. */
const hmacKeysByBytes = new WeakMap<Uint8Array, Map<HashAlg, Promise<CryptoKey>>>()

function importHmacKey(alg: HashAlg, raw: Uint8Array): Promise<CryptoKey> {
  // An empty key and a single zero byte give the same HMAC (the key is zero-padded to the block size); Web Crypto
  // refuses empty keys, Node takes them.
  const bytes = raw.length === 0 ? new Uint8Array(1) : raw
  return subtle().importKey("raw", source(bytes), { name: "HMAC", hash: alg }, false, ["sign"]) as Promise<CryptoKey>
}

function hmacKey(alg: HashAlg, key: Uint8Array | string): Promise<CryptoKey> {
  if (typeof key === "string") {
    const id = `${alg}\u0000${key}`
    let hit = hmacKeysByText.get(id)
    if (!hit) {
      hit = importHmacKey(alg, encoder.encode(key))
      if (hmacKeysByText.size >= MAX_HMAC_KEYS) hmacKeysByText.delete(hmacKeysByText.keys().next().value as string)
      hmacKeysByText.set(id, hit)
    }
    return hit
  }
  let byAlg = hmacKeysByBytes.get(key)
  if (!byAlg) {
    byAlg = new Map()
    hmacKeysByBytes.set(key, byAlg)
  }
  let hit = byAlg.get(alg)
  if (!hit) {
    hit = importHmacKey(alg, key.slice()) // a copy: the import reads the bytes later than now
    byAlg.set(alg, hit)
  }
  return hit
}

export function hmac(alg: HashAlg, key: Uint8Array | string, data: Uint8Array | string): Promise<Uint8Array>
export function hmac(
  alg: HashAlg,
  key: Uint8Array | string,
  data: Uint8Array | string,
  encoding: TextEncoding,
): Promise<string>
export async function hmac(
  alg: HashAlg,
  key: Uint8Array | string,
  data: Uint8Array | string,
  encoding?: TextEncoding,
): Promise<Uint8Array | string> {
  const cryptoKey = await hmacKey(alg, key)
  const bytes = new Uint8Array(await subtle().sign("HMAC", cryptoKey, source(bytesOf(data))))
  return encoding === undefined ? bytes : encode(bytes, encoding)
}

export async function hkdf(
  ikm: Uint8Array | string,
  salt: Uint8Array | string,
  info: Uint8Array | string,
  length: number,
): Promise<Uint8Array> {
  const key = await subtle().importKey("raw", source(bytesOf(ikm)), "HKDF", false, ["deriveBits"])
  const params = { name: "HKDF", hash: "SHA-256", salt: source(bytesOf(salt)), info: source(bytesOf(info)) }
  return new Uint8Array(await subtle().deriveBits(params, key, length * 8))
}

// --- JWE content encryption ---

interface WebContentKey extends ContentKey {
  /** A256CBC-HS512: AES-CBC under the last 32 bytes; A256GCM: AES-GCM under all 32. */
  readonly encKey: CryptoKey
  /** A256CBC-HS512: HMAC-SHA-512 under the first 32 bytes. */
  readonly macKey: CryptoKey | undefined
}

export async function importContentKey(enc: ContentEncryption, raw: Uint8Array): Promise<ContentKey> {
  if (enc === "A256CBC-HS512") {
    if (raw.length !== 64) throw new TypeError("A256CBC-HS512 takes a 64-byte key")
    const [macKey, encKey] = await Promise.all([
      subtle().importKey("raw", source(raw.slice(0, 32)), { name: "HMAC", hash: "SHA-512" }, false, ["sign"]),
      subtle().importKey("raw", source(raw.slice(32, 64)), "AES-CBC", false, ["encrypt", "decrypt"]),
    ])
    return { enc, encKey, macKey } as WebContentKey
  }
  if (raw.length !== 32) throw new TypeError("A256GCM takes a 32-byte key")
  const encKey = await subtle().importKey("raw", source(raw.slice()), "AES-GCM", false, ["encrypt", "decrypt"])
  return { enc, encKey, macKey: undefined } as WebContentKey
}

/** The A256CBC-HS512 tag: HMAC-SHA-512 over AAD ‖ IV ‖ ciphertext ‖ AL, cut to 32 bytes (RFC 7518 §5.2.2.1). */
async function cbcTag(macKey: CryptoKey, aad: Uint8Array, iv: Uint8Array, ciphertext: Uint8Array): Promise<Uint8Array> {
  const al = new Uint8Array(8)
  const view = new DataView(al.buffer)
  view.setUint32(0, Math.floor(aad.length / 0x20000000))
  view.setUint32(4, (aad.length * 8) >>> 0)
  const mac = await subtle().sign("HMAC", macKey, source(concatBytes(aad, iv, ciphertext, al)))
  return new Uint8Array(mac, 0, 32)
}

export async function encryptContent(
  key: ContentKey,
  iv: Uint8Array,
  aad: Uint8Array,
  plaintext: Uint8Array,
): Promise<{ ciphertext: Uint8Array; tag: Uint8Array }> {
  const { encKey, macKey } = key as WebContentKey
  if (key.enc === "A256CBC-HS512") {
    const ciphertext = new Uint8Array(
      await subtle().encrypt({ name: "AES-CBC", iv: source(iv) }, encKey, source(plaintext)),
    )
    return { ciphertext, tag: await cbcTag(macKey as CryptoKey, aad, iv, ciphertext) }
  }
  const sealed = new Uint8Array(
    await subtle().encrypt(
      { name: "AES-GCM", iv: source(iv), additionalData: source(aad), tagLength: 128 },
      encKey,
      source(plaintext),
    ),
  )
  // Web Crypto appends the 16-byte tag to the ciphertext; JWE carries it apart.
  return { ciphertext: sealed.subarray(0, sealed.length - 16), tag: sealed.subarray(sealed.length - 16) }
}

export async function decryptContent(
  key: ContentKey,
  iv: Uint8Array,
  aad: Uint8Array,
  ciphertext: Uint8Array,
  tag: Uint8Array,
): Promise<Uint8Array> {
  const { encKey, macKey } = key as WebContentKey
  if (key.enc === "A256CBC-HS512") {
    if (iv.length !== 16 || tag.length !== 32) throw new Error("bad iv or tag length")
    if (!timingSafeEqual(await cbcTag(macKey as CryptoKey, aad, iv, ciphertext), tag))
      throw new Error("authentication tag mismatch")
    return new Uint8Array(await subtle().decrypt({ name: "AES-CBC", iv: source(iv) }, encKey, source(ciphertext)))
  }
  if (iv.length !== 12 || tag.length !== 16) throw new Error("bad iv or tag length")
  const sealed = concatBytes(ciphertext, tag)
  return new Uint8Array(
    await subtle().decrypt(
      { name: "AES-GCM", iv: source(iv), additionalData: source(aad), tagLength: 128 },
      encKey,
      source(sealed),
    ),
  )
}

// --- Signatures ---

/** Imported verification keys per JWK object (a cached JWKS hands the same objects back), then per algorithm. */
const verifyKeys = new WeakMap<JsonWebKey, Map<string, Promise<CryptoKey>>>()

/** The import parameters for a JWS algorithm, or undefined when it is not one. */
function importParams(alg: string, jwk: JsonWebKey): RsaHashedImportParams | EcKeyImportParams | Algorithm | undefined {
  const hash = `SHA-${alg.slice(2)}`
  switch (alg) {
    case "RS256":
    case "RS384":
    case "RS512":
      return { name: "RSASSA-PKCS1-v1_5", hash }
    case "PS256":
    case "PS384":
    case "PS512":
      return { name: "RSA-PSS", hash }
    case "ES256":
    case "ES384":
    case "ES512":
      return { name: "ECDSA", namedCurve: jwk.crv ?? "" }
    case "EdDSA":
    case "Ed25519":
      return { name: "Ed25519" }
    default:
      return undefined
  }
}

/** Only the public members: `alg`, `use` and `key_ops` would make Web Crypto refuse keys Node takes. */
function publicMembers(jwk: JsonWebKey): JsonWebKey {
  const { kty, n, e, crv, x, y } = jwk
  return kty === "RSA" ? { kty, n, e } : kty === "EC" ? { kty, crv, x, y } : { kty, crv, x }
}

function verifyKey(alg: string, jwk: JsonWebKey, load: () => Promise<CryptoKey>): Promise<CryptoKey> {
  let byAlg = verifyKeys.get(jwk)
  if (!byAlg) {
    byAlg = new Map()
    verifyKeys.set(jwk, byAlg)
  }
  let hit = byAlg.get(alg)
  if (!hit) {
    hit = load()
    byAlg.set(alg, hit)
  }
  return hit
}

export async function verifyJws(
  alg: string,
  jwk: JsonWebKey,
  data: Uint8Array,
  signature: Uint8Array,
): Promise<boolean> {
  const params = importParams(alg, jwk)
  if (!params) throw new TypeError(`unsupported JWS algorithm ${alg}`)
  const key = await verifyKey(alg, jwk, () => subtle().importKey("jwk", publicMembers(jwk), params, false, ["verify"]))
  const bits = Number(alg.slice(2))
  const verifyParams: Algorithm | RsaPssParams | EcdsaParams =
    params.name === "RSA-PSS"
      ? { name: "RSA-PSS", saltLength: bits / 8 }
      : params.name === "ECDSA"
        ? { name: "ECDSA", hash: `SHA-${bits}` }
        : params
  return subtle().verify(verifyParams, key, source(signature), source(data))
}
