// The identifier (username or e-mail) a user typed into a sign-in form that failed, carried to the sign-in page that
// follows in a sealed, HttpOnly, five-minute cookie: never in the URL, never a password, read once and cleared.
import type { AuthRequest, ResolvedConfig, ResolvedProvider } from "../domain.js"
import { assertTimeClaims, decryptClaims, encryptClaims, nowSeconds, withTimeClaims } from "../jwt/jwe.js"
import { identifierField, type KeptIdentifier } from "../pages/signin.js"
import type { Cookie, CookieOption } from "../types.js"

/** Long enough to retype a password; short enough that a shared computer forgets the name soon. */
const KEPT_SECONDS = 300
/** Longer than any e-mail address (254) or sensible username: a longer value is not kept. */
const MAX_LENGTH = 320

/**
 * The cookie's name and attributes: the callback-url cookie's (so a `cookies.callbackUrl` override of domain or
 * sameSite applies here too) under its own name, `__Secure-` on https as the other flow cookies.
 */
function option(req: AuthRequest, config: ResolvedConfig): CookieOption {
  const base = config.cookies(req.secure).callbackUrl
  return { name: `${req.secure ? "__Secure-" : ""}authjs.signin-identifier`, options: { ...base.options, httpOnly: true } }
}

/**
 * The cookie that keeps what the user typed into `provider`'s identifier field, or undefined when there is nothing to
 * keep. Sealed with the secret under the cookie's name: a value set by anyone else (a sibling subdomain tossing a
 * cookie) does not open, so no one can put a name of their choosing into another user's form. Callers set it only
 * after the CSRF check passed (a failed credentials or e-mail sign-in), so a cross-site POST cannot either.
 */
export function keptIdentifierCookie(req: AuthRequest, config: ResolvedConfig, provider: ResolvedProvider): Cookie | undefined {
  if (req.method !== "POST") return undefined
  const field = identifierField(provider)
  const value = field === undefined ? undefined : req.body[field]
  if (field === undefined || typeof value !== "string" || value.trim() === "" || value.length > MAX_LENGTH) return undefined
  const { name, options } = option(req, config)
  const payload = withTimeClaims({ provider: provider.id, field, value }, KEPT_SECONDS, nowSeconds())
  const sealed = encryptClaims(payload, config.secrets[0] as string, name)
  return { name, value: sealed, options: { ...options, maxAge: KEPT_SECONDS, expires: new Date(Date.now() + KEPT_SECONDS * 1000) } }
}

/**
 * The kept identifier this request carries (undefined when none, or when it does not open, has expired, or names a
 * provider or field the config no longer has), and the cookie that clears it when there was one.
 */
export function readKeptIdentifier(req: AuthRequest, config: ResolvedConfig): { kept?: KeptIdentifier; clear?: Cookie } {
  const { name, options } = option(req, config)
  const raw = req.cookies[name]
  if (raw === undefined) return {}
  const clear: Cookie = { name, value: "", options: { ...options, maxAge: 0, expires: undefined } }
  try {
    const { payload } = decryptClaims(raw, config.secrets, name)
    assertTimeClaims(payload, nowSeconds())
    const { provider: id, field, value } = payload
    const provider = typeof id === "string" ? config.providers.get(id) : undefined
    if (!provider || typeof field !== "string" || field !== identifierField(provider) || typeof value !== "string" || value.length > MAX_LENGTH) return { clear }
    return { kept: { providerId: provider.id, field, value }, clear }
  } catch {
    return { clear }
  }
}
