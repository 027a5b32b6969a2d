// Support code for the security groups C (CSRF), D (redirects) and E (session cookies / JWE).
// Not a test file itself. Independent of src/ internals: it re-implements the wire format
// (wire.md 4, 5) with node:crypto so the tests can forge cookies the way an attacker would.
import { createCipheriv, createHash, createHmac, hkdfSync, randomBytes } from "node:crypto"
import type { AuthConfig } from "../../src/index.js"

// ---------------------------------------------------------------------------------------------
// Logger spy (I5: nothing secret in logs; "internal type T logged once")

export interface LoggerSpy {
  logger: NonNullable<AuthConfig["logger"]>
  errors: unknown[]
  warnings: unknown[][]
  debugs: unknown[][]
  /** `.type` (or name) of every error passed to logger.error, in order. */
  types(): string[]
  /** Everything that was logged, flattened to text (messages, causes, metadata). */
  text(): string
}

function flatten(value: unknown, seen = new Set<unknown>()): string {
  if (value === null || value === undefined) return String(value)
  if (typeof value !== "object" && typeof value !== "function") return String(value)
  if (seen.has(value)) return ""
  seen.add(value)
  if (value instanceof Error) {
    const e = value as Error & { type?: string; cause?: unknown }
    return [e.name, e.type ?? "", e.message, flatten(e.cause, seen)].join(" ")
  }
  if (Array.isArray(value)) return value.map((v) => flatten(v, seen)).join(" ")
  const parts: string[] = []
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) parts.push(`${k}=${flatten(v, seen)}`)
  return parts.join(" ")
}

export function spyLogger(): LoggerSpy {
  const errors: unknown[] = []
  const warnings: unknown[][] = []
  const debugs: unknown[][] = []
  const logger = {
    error: (...args: unknown[]) => void errors.push(args.length === 1 ? args[0] : args),
    warn: (...args: unknown[]) => void warnings.push(args),
    debug: (...args: unknown[]) => void debugs.push(args),
  } as unknown as NonNullable<AuthConfig["logger"]>
  return {
    logger,
    errors,
    warnings,
    debugs,
    types: () =>
      errors.map((e) => {
        const x = e as { type?: unknown; name?: unknown }
        return typeof x?.type === "string" ? x.type : typeof x?.name === "string" ? x.name : String(e)
      }),
    text: () => [flatten(errors), flatten(warnings), flatten(debugs)].join("\n"),
  }
}

// ---------------------------------------------------------------------------------------------
// Response helpers

export async function bodyText(res: Response): Promise<string> {
  return await res.clone().text()
}

export interface ParsedCookie {
  name: string
  value: string
  raw: string
  attrs: Record<string, string | true>
}

/** All Set-Cookie headers in order (a name may occur twice: deletion then re-set). */
export function setCookieList(res: Response): ParsedCookie[] {
  return res.headers.getSetCookie().map((raw) => {
    const [pair = "", ...rest] = raw.split(";")
    const eq = pair.indexOf("=")
    const name = pair.slice(0, eq).trim()
    let value = pair.slice(eq + 1).trim()
    try {
      value = decodeURIComponent(value)
    } catch {
      /* keep raw */
    }
    const attrs: Record<string, string | true> = {}
    for (const part of rest) {
      const i = part.indexOf("=")
      if (i === -1) attrs[part.trim().toLowerCase()] = true
      else attrs[part.slice(0, i).trim().toLowerCase()] = part.slice(i + 1).trim()
    }
    return { name, value, raw, attrs }
  })
}

/** True when the Set-Cookie removes the cookie (empty value and Max-Age<=0 or Expires in the past). */
export function isDeletion(c: ParsedCookie): boolean {
  const maxAge = c.attrs["max-age"]
  if (typeof maxAge === "string" && Number(maxAge) <= 0) return true
  const expires = c.attrs["expires"]
  if (typeof expires === "string" && Date.parse(expires) <= Date.now()) return true
  return false
}

/** The final state of each cookie name after applying the response's Set-Cookie headers in order. */
export function finalCookies(res: Response): Map<string, ParsedCookie> {
  const m = new Map<string, ParsedCookie>()
  for (const c of setCookieList(res)) m.set(c.name, c)
  return m
}

export function isSessionCookieName(name: string): boolean {
  return /^(__Secure-)?authjs\.session-token(\..+)?$/.test(name)
}

/** Set-Cookie entries that would leave a session cookie (or chunk) in the browser. */
export function sessionCookiesSet(res: Response): ParsedCookie[] {
  return [...finalCookies(res).values()].filter((c) => isSessionCookieName(c.name) && !isDeletion(c) && c.value !== "")
}

/** Set-Cookie entries that expire a session cookie (or chunk). */
export function sessionCookiesCleared(res: Response): ParsedCookie[] {
  return [...finalCookies(res).values()].filter((c) => isSessionCookieName(c.name) && (isDeletion(c) || c.value === ""))
}

/** Reassembles the session token a browser would hold after `res` (bare or chunked). */
export function sessionTokenFrom(res: Response): string | undefined {
  const set = sessionCookiesSet(res)
  if (set.length === 0) return undefined
  const bare = set.find((c) => !/\.\d+$/.test(c.name))
  if (bare) return bare.value
  return set
    .map((c) => ({ i: Number(c.name.slice(c.name.lastIndexOf(".") + 1)), v: c.value }))
    .sort((a, b) => a.i - b.i)
    .map((x) => x.v)
    .join("")
}

// ---------------------------------------------------------------------------------------------
// Crypto: the wire format, rebuilt independently (wire.md 4 and 5)

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
  return createHash(key.length === 64 ? "sha512" : "sha256").update(json).digest("base64url")
}

/**
 * Seals `plaintext` as a compact JWE with the given protected header using dir + A256CBC-HS512
 * semantics (RFC 7518 5.2.5) and the 64-byte `key`, whatever the header claims. This lets a
 * test produce a cryptographically valid token carrying a hostile header (zip, crit, extra
 * members) or hostile claims (no exp).
 */
export function sealCbcHs512(header: Record<string, unknown>, plaintext: Uint8Array | string, key: Buffer, encryptedKey = ""): string {
  const protectedB64 = b64u.enc(JSON.stringify(header))
  const aad = Buffer.from(protectedB64, "ascii")
  const macKey = key.subarray(0, 32)
  const encKey = key.subarray(32, 64)
  const iv = randomBytes(16)
  const cipher = createCipheriv("aes-256-cbc", encKey, iv)
  const ct = Buffer.concat([cipher.update(Buffer.from(plaintext)), cipher.final()])
  const al = Buffer.alloc(8)
  al.writeBigUInt64BE(BigInt(aad.length * 8))
  const tag = createHmac("sha512", macKey).update(Buffer.concat([aad, iv, ct, al])).digest().subarray(0, 32)
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
  return [b64u.enc(JSON.stringify(header)), encryptedKey, b64u.enc(randomBytes(16)), b64u.enc(randomBytes(48)), b64u.enc(randomBytes(32))].join(".")
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

// ---------------------------------------------------------------------------------------------
// Redirect target checks (group D)

/** Resolves a Location / attribute value the way a browser would (WHATWG URL against the page). */
export function resolvesTo(value: string, base: string): URL | null {
  try {
    return new URL(value, base)
  } catch {
    return null
  }
}

export function htmlUnescape(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&amp;/g, "&")
}

/** Every href/action/src/formaction/value attribute in an HTML page, unescaped. */
export function htmlAttributeValues(html: string): { name: string; value: string }[] {
  const out: { name: string; value: string }[] = []
  const re = /\s(href|action|src|formaction|value|content)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi
  for (let m = re.exec(html); m; m = re.exec(html)) out.push({ name: m[1]!.toLowerCase(), value: htmlUnescape(m[2] ?? m[3] ?? "") })
  return out
}
