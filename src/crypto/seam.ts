// The crypto seam: the one module every byte of session crypto, randomness and binary encoding goes through. Code
// imports it as "#crypto"; package.json "imports" picks the backend by export condition (node, bun, deno → node.ts on
// node:crypto and Buffer; edge-light, workerd, worker, browser and anything else → web.ts on Web Crypto), so no code
// sniffs the runtime. This file only declares the contract both backends meet (src/crypto/seam.test.ts checks it).
// Results are `Awaitable`: node.ts answers synchronously, web.ts with promises; callers always `await`.

export type Awaitable<T> = T | Promise<T>

/** Which backend the export conditions chose. */
export declare const backend: "node" | "web"

// --- Encodings (synchronous in both backends) ---

/** UTF-8 bytes of a string. */
export declare function utf8(text: string): Uint8Array
/** The string that UTF-8 bytes spell (invalid sequences become U+FFFD). */
export declare function fromUtf8(bytes: Uint8Array): string
/** base64url without padding (RFC 4648 §5); a string argument is taken as UTF-8. */
export declare function toBase64Url(data: Uint8Array | string): string
/** Bytes of base64url text, padding optional; callers check the alphabet first where it matters. */
export declare function fromBase64Url(text: string): Uint8Array
/** Standard base64 with padding (RFC 4648 §4); a string argument is taken as UTF-8. */
export declare function toBase64(data: Uint8Array | string): string
/** Bytes of standard base64 text. */
export declare function fromBase64(text: string): Uint8Array
/** Lower-case hex. */
export declare function toHex(bytes: Uint8Array): string
/** One array holding the parts in order. */
export declare function concatBytes(...parts: Uint8Array[]): Uint8Array
/** Constant-time equality of two byte strings (strings are compared as UTF-8); false when the lengths differ. */
export declare function timingSafeEqual(a: Uint8Array | string, b: Uint8Array | string): boolean

// --- Randomness (synchronous in both backends) ---

/** `size` bytes from the platform CSPRNG. */
export declare function randomBytes(size: number): Uint8Array
/** A random (version 4) UUID. */
export declare function randomUUID(): string

// --- Hashes, MACs, key derivation ---

export type HashAlg = "SHA-1" | "SHA-256" | "SHA-384" | "SHA-512"
/** A text form of a digest or MAC: lower-case hex, padded base64, or unpadded base64url. */
export type TextEncoding = "hex" | "base64" | "base64url"
/** The digest of the data (a string is taken as UTF-8), as bytes or, with an encoding, as text. */
export declare function digest(alg: HashAlg, data: Uint8Array | string): Awaitable<Uint8Array>
export declare function digest(alg: HashAlg, data: Uint8Array | string, encoding: TextEncoding): Awaitable<string>
/**
 * SHA-256 at once, for public text that is hashed where nothing can wait (the pages' CSP hashes of inline styles, at
 * load and while a page renders). The web backend runs it in plain JS: use `digest` for anything else.
 */
export declare function sha256Sync(data: Uint8Array | string): Uint8Array
/**
 * HMAC of the data under the key (strings as UTF-8), as bytes or, with an encoding, as text. The web backend imports
 * each string key once and caches it.
 */
export declare function hmac(alg: HashAlg, key: Uint8Array | string, data: Uint8Array | string): Awaitable<Uint8Array>
export declare function hmac(
  alg: HashAlg,
  key: Uint8Array | string,
  data: Uint8Array | string,
  encoding: TextEncoding,
): Awaitable<string>
/** HKDF (RFC 5869) with SHA-256. */
export declare function hkdf(
  ikm: Uint8Array | string,
  salt: Uint8Array | string,
  info: Uint8Array | string,
  length: number,
): Awaitable<Uint8Array>

// --- JWE content encryption (RFC 7518 §5.2 A256CBC-HS512, §5.3 A256GCM) ---

export type ContentEncryption = "A256CBC-HS512" | "A256GCM"
/** A content-encryption key made ready once (node: its raw halves; web: imported CryptoKeys), then reused. */
export interface ContentKey {
  readonly enc: ContentEncryption
}
/** Prepares a raw key: 64 bytes for A256CBC-HS512, 32 for A256GCM. */
export declare function importContentKey(enc: ContentEncryption, raw: Uint8Array): Awaitable<ContentKey>
/** Encrypts and authenticates; the IV is the caller's (16 bytes for CBC, 12 for GCM). */
export declare function encryptContent(
  key: ContentKey,
  iv: Uint8Array,
  aad: Uint8Array,
  plaintext: Uint8Array,
): Awaitable<{ ciphertext: Uint8Array; tag: Uint8Array }>
/** Authenticates, then decrypts; throws when the tag does not match or the padding is bad. */
export declare function decryptContent(
  key: ContentKey,
  iv: Uint8Array,
  aad: Uint8Array,
  ciphertext: Uint8Array,
  tag: Uint8Array,
): Awaitable<Uint8Array>

// --- Signatures (ID tokens and other JWS) ---

/**
 * Whether `signature` is a valid JWS signature of `data` under the public JWK: RS256/384/512, PS256/384/512,
 * ES256/384/512 (raw r‖s, RFC 7518 §3.4) and EdDSA over Ed25519 (RFC 8037). The key is made from the JWK once per JWK
 * object, so pass the same objects (a cached JWKS). Throws for another algorithm or a JWK that is no such key.
 * (HS* is an HMAC: `hmac` and `timingSafeEqual`.)
 */
export declare function verifyJws(
  alg: string,
  jwk: JsonWebKey,
  data: Uint8Array,
  signature: Uint8Array,
): Awaitable<boolean>
