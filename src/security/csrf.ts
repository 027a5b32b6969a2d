// CSRF double-submit cookie `token|SHA-256(token + secret)` (docs/wire-format.md §5); minted only by the actions that
// need one.
import { digest, randomBytes, timingSafeEqual, toHex } from "#crypto"
import type { AuthRequest, ResolvedConfig } from "../pipeline-types.js"
import type { Cookie } from "../types.js"

async function hashToken(token: string, secret: string): Promise<string> {
  return toHex(await digest("SHA-256", `${token}${secret}`))
}

const COOKIE_VALUE = /^([0-9a-f]{64})\|([0-9a-f]{64})$/

/** The token in the request's CSRF cookie when the cookie is authentic, else undefined. */
async function readCsrfCookie(req: AuthRequest, config: ResolvedConfig): Promise<string | undefined> {
  const value = req.cookies[config.cookies(req.secure).csrfToken.name]
  if (value === undefined) return undefined
  const match = COOKIE_VALUE.exec(value)
  if (!match) return undefined
  const [, token = "", hash = ""] = match
  return timingSafeEqual(hash, await hashToken(token, config.csrfSecret)) ? token : undefined
}

/** The CSRF token to show the client: the cookie's when authentic, else a new one plus its Set-Cookie. */
export async function ensureCsrfToken(
  req: AuthRequest,
  config: ResolvedConfig,
): Promise<{ token: string; cookie?: Cookie }> {
  const existing = await readCsrfCookie(req, config)
  if (existing) return { token: existing }
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
  const token = await readCsrfCookie(req, config)
  return token !== undefined && timingSafeEqual(sent, token)
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
