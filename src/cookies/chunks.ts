// Session-token chunking: a token longer than a browser allows in one cookie is split into `.0…n` cookies
// (docs/wire-format.md §3.2).
import type { Cookie, CookieOption, CookieSerializeOptions } from "../types.js"
import { expiredCookie, isCookieName } from "./policy.js"

/** Browsers allow 4096 bytes per cookie; Auth.js reserves 160 for name and attributes. */
export const CHUNK_SIZE = 4096 - 160
/** next-auth 4 reserves 163 bytes, so its chunks hold 3,933 characters. */
export const V4_CHUNK_SIZE = 4096 - 163
/** More chunks than this are treated as an attack, not a session (docs/security.md DS-01). */
export const MAX_CHUNKS = 50

/** The session cookie as the request carried it: the joined value and every chunk name seen. */
export interface SessionCookieRead {
  /** The joined token, or undefined when absent or malformed (see `names` to clean up). */
  value: string | undefined
  /** All cookie names of this session cookie present in the request (bare and `.N`). */
  names: string[]
}

/**
 * Reads a possibly chunked session cookie. Valid forms: the bare name alone, or `.0…n-1` with no gap or
 * duplicate and at most MAX_CHUNKS. Anything else is malformed (docs/security.md CK-09) and yields no value.
 */
export function readChunked(cookies: Record<string, string>, name: string): SessionCookieRead {
  const names: string[] = []
  const chunks: string[] = []
  let bare: string | undefined
  let malformed = false
  const prefix = `${name}.`
  for (const cookieName in cookies) {
    if (cookieName === name) {
      names.push(cookieName)
      bare = cookies[cookieName]
    } else if (cookieName.startsWith(prefix)) {
      names.push(cookieName)
      const suffix = cookieName.slice(prefix.length)
      const index = /^(0|[1-9][0-9]{0,2})$/.test(suffix) ? Number(suffix) : -1
      if (index < 0 || index >= MAX_CHUNKS) malformed = true
      else chunks[index] = cookies[cookieName] as string
    }
  }
  if (names.length === 0) return { value: undefined, names }
  if (bare !== undefined) {
    if (names.length > 1) malformed = true
    return { value: malformed || bare === "" ? undefined : bare, names }
  }
  if (malformed || names.length > MAX_CHUNKS) return { value: undefined, names }
  let joined = ""
  for (let i = 0; i < names.length; i++) {
    const chunk = chunks[i]
    if (chunk === undefined || chunk === "") return { value: undefined, names }
    joined += chunk
  }
  return { value: joined, names }
}

/**
 * The Set-Cookie list that replaces whatever session cookie the request had with `value`
 * (chunked when longer than `chunkSize`, CHUNK_SIZE unless the wire format says V4_CHUNK_SIZE); stale chunk names are
 * expired.
 */
export function writeChunked(
  option: CookieOption,
  value: string,
  options: CookieSerializeOptions,
  seen: readonly string[],
  chunkSize: number = CHUNK_SIZE,
): Cookie[] {
  const out: Cookie[] = []
  if (value.length <= chunkSize) {
    out.push({ name: option.name, value, options })
  } else {
    const count = Math.ceil(value.length / chunkSize)
    for (let i = 0; i < count; i++) {
      out.push({ name: `${option.name}.${i}`, value: value.slice(i * chunkSize, (i + 1) * chunkSize), options })
    }
  }
  // The names just written are the first `written` entries, one per chunk of this token: a scan of those, no Set.
  const written = out.length
  for (const name of seen)
    if (!isWritten(out, written, name) && isCookieName(name)) out.push(expiredCookie(option, name))
  return out
}

function isWritten(out: readonly Cookie[], written: number, name: string): boolean {
  for (let i = 0; i < written; i++) if ((out[i] as Cookie).name === name) return true
  return false
}

/** Expires every session cookie name the request carried (and the bare name when none was seen). */
export function clearChunked(option: CookieOption, seen: readonly string[]): Cookie[] {
  // A name the browser sent that no Set-Cookie can carry (".é", ". 0") was not set by us and cannot be expired.
  const names = seen.filter(isCookieName)
  return (names.length > 0 ? names : [option.name]).map((name) => expiredCookie(option, name))
}
