// CSRF double-submit cookie `token|SHA-256(token + secret)` (docs/wire-format.md §5); minted only by the actions that
// need one.
import { type Awaitable, digest, randomBytes, timingSafeEqual, toHex } from "#crypto"
import type { AuthRequest, ResolvedConfig } from "../pipeline-types.js"
import type { Cookie } from "../types.js"

function hashToken(token: string, secret: string): Awaitable<string> {
  return digest("SHA-256", `${token}${secret}`, "hex")
}

/** Whether the first 64 characters of `value` are lower-case hex digits. */
function isHex64(value: string): boolean {
  for (let i = 0; i < 64; i++) {
    const c = value.charCodeAt(i)
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false
  }
  return true
}

/**
 * The token and hash of the request's CSRF cookie when it has the cookie's form, `<64 hex>|<64 hex>` (a loop over
 * the characters: a regular expression with captures costs several times as much on every POST); whether it is
 * authentic is the caller's check (`hash` against hashToken(token)), so each answer awaits one hash and nothing more.
 * Only the token's digits are looped over: the caller compares the hash with a hash it made (64 lower-case hex
 * digits), so a hash of any other form is refused there.
 */
function csrfCookie(req: AuthRequest, config: ResolvedConfig): { token: string; hash: string } | undefined {
  const value = req.cookies[config.cookies(req.secure).csrfToken.name]
  if (value === undefined || value.length !== 129 || value.charCodeAt(64) !== 124) return undefined
  if (!isHex64(value)) return undefined
  return { token: value.slice(0, 64), hash: value.slice(65) }
}

/** The CSRF token to show the client: the cookie's when authentic, else a new one plus its Set-Cookie. */
export async function ensureCsrfToken(
  req: AuthRequest,
  config: ResolvedConfig,
): Promise<{ token: string; cookie?: Cookie }> {
  const cookie = csrfCookie(req, config)
  if (cookie && timingSafeEqual(cookie.hash, await hashToken(cookie.token, config.csrfSecret)))
    return { token: cookie.token }
  const token = toHex(randomBytes(32))
  const option = config.cookies(req.secure).csrfToken
  return {
    token,
    cookie: {
      name: option.name,
      value: `${token}|${await hashToken(token, config.csrfSecret)}`,
      options: { ...option.options },
    },
  }
}

/**
 * Whether a POST carries a valid double-submit token: the body's `csrfToken` equals the token of an
 * authentic cookie. The token is read only from the body (never the query, docs/security.md CS-04).
 */
export async function isCsrfValid(req: AuthRequest, config: ResolvedConfig): Promise<boolean> {
  const sent = req.body.csrfToken
  if (typeof sent !== "string" || sent.length !== 64) return false
  const cookie = csrfCookie(req, config)
  if (!cookie) return false
  // The node backend hashes synchronously: awaited only when the backend answered with a promise.
  const hashed = hashToken(cookie.token, config.csrfSecret)
  if (!timingSafeEqual(cookie.hash, typeof hashed === "string" ? hashed : await hashed)) return false
  return timingSafeEqual(sent, cookie.token)
}

/**
 * Whether the browser says this POST came from another site (Fetch Metadata / Origin), which no
 * legitimate form or fetch of the app does (docs/security.md CS-06).
 */
export function isCrossSite(req: AuthRequest): boolean {
  const site = req.header.get("sec-fetch-site")
  if (site === "cross-site") return true
  const origin = req.header.get("origin")
  if (origin === null || origin === "null") return origin === "null"
  return origin !== req.origin && origin !== req.url.origin
}
