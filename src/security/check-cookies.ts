// Sealed, short-lived, provider-bound check cookies for the authorization-code flow: state, PKCE verifier, nonce
// (docs/wire-format.md §3.3).
import { digest, randomBytes, toBase64Url } from "#crypto"
import { InvalidCheck } from "../errors.js"
import type { AuthRequest, ResolvedConfig, ResolvedOAuthProvider } from "../pipeline-types.js"
import { assertTimeClaims, decryptClaims, encryptClaims, nowSeconds, withTimeClaims } from "../jwt/jwe.js"
import type { AuthorizationChecks } from "../protocols/oauth2.js"
import { expiredCookie, flowCookie, lifetimeOf } from "../cookies/policy.js"
import type { Cookie, CookieOption } from "../types.js"

const STATE_SALT = "encodedState"

/**
 * A fresh check value: 32 random bytes, base64url (43 characters). PKCE's code verifier takes the same form
 * (RFC 7636 §4.1: 256 bits of entropy, within its 43–128 unreserved characters).
 */
const randomCheckValue = (): string => toBase64Url(randomBytes(32))

/** Binds a check to one provider, issuer, client and redirect URI (docs/security.md OA-03). */
async function binding(p: ResolvedOAuthProvider, redirectUri: string): Promise<string> {
  const bound = await digest(
    "SHA-256",
    `${p.id}\u0000${p.issuer ?? ""}\u0000${p.clientId}\u0000${redirectUri}`,
    "base64url",
  )
  return bound.slice(0, 22)
}

/** Seals a check value for as long as its cookie lives (the cookie policy's lifetime, user overrides included). */
function seal(
  payload: Record<string, unknown>,
  config: ResolvedConfig,
  salt: string,
  lifetime: number,
): Promise<string> {
  return encryptClaims(withTimeClaims(payload, lifetime, nowSeconds()), config.secrets[0] as string, salt)
}

async function unseal(value: string, config: ResolvedConfig, salt: string): Promise<Record<string, unknown>> {
  const { payload } = await decryptClaims(value, config.secrets, salt)
  assertTimeClaims(payload, nowSeconds())
  return payload
}

/** A check cookie holding `payload` sealed under the cookie's own name (docs/security.md CK-04); SameSite=None for cross-site returns. */
async function checkCookie(
  option: CookieOption,
  payload: Record<string, unknown>,
  config: ResolvedConfig,
  sameSiteNone: boolean,
): Promise<Cookie> {
  const cookie = flowCookie(option, await seal(payload, config, option.name, lifetimeOf(option)))
  if (sameSiteNone) {
    cookie.options.sameSite = "none"
    cookie.options.secure = true
  }
  return cookie
}

export interface CreatedChecks {
  params: AuthorizationChecks
  cookies: Cookie[]
}

/**
 * Creates the configured checks for an authorization request and their sealed cookies. `proxyOrigin` is this
 * deployment's callback URL when the redirect goes through a proxy (stored in the state, docs/wire-format.md §10).
 * form_post flows need SameSite=None (and so Secure) check cookies, since the IdP's POST is cross-site (docs/security.md OA-22).
 */
export async function createChecks(
  p: ResolvedOAuthProvider,
  req: AuthRequest,
  config: ResolvedConfig,
  redirectUri: string,
  proxyOrigin?: string,
): Promise<CreatedChecks> {
  const names = config.cookies(req.secure)
  const bind = await binding(p, redirectUri)
  const params: AuthorizationChecks = {}
  const cookies: Cookie[] = []
  if (p.checks.has("state")) {
    const state = await seal(
      proxyOrigin ? { origin: proxyOrigin, random: randomCheckValue() } : { random: randomCheckValue() },
      config,
      STATE_SALT,
      lifetimeOf(names.state),
    )
    params.state = state
    cookies.push(await checkCookie(names.state, { value: state, provider: p.id, bind }, config, p.formPost))
  }
  if (p.checks.has("pkce")) {
    const verifier = randomCheckValue()
    // S256 (RFC 7636 §4.2): BASE64URL(SHA-256(ASCII(code_verifier))).
    params.codeChallenge = await digest("SHA-256", verifier, "base64url")
    cookies.push(
      await checkCookie(names.pkceCodeVerifier, { value: verifier, provider: p.id, bind }, config, p.formPost),
    )
  }
  if (p.checks.has("nonce")) {
    const nonce = randomCheckValue()
    params.nonce = nonce
    cookies.push(await checkCookie(names.nonce, { value: nonce, provider: p.id, bind }, config, p.formPost))
  }
  return { params, cookies }
}

/** The check values read back on the callback. */
export interface UsedChecks {
  state?: string
  codeVerifier?: string
  nonce?: string
}

async function readOne(
  req: AuthRequest,
  config: ResolvedConfig,
  option: CookieOption,
  p: ResolvedOAuthProvider,
  bind: string,
  what: string,
): Promise<string> {
  const raw = req.cookies[option.name]
  if (!raw)
    throw new InvalidCheck(`The ${what} cookie is missing (expired, or the sign-in started in another browser).`)
  let payload: Record<string, unknown>
  try {
    payload = await unseal(raw, config, option.name)
  } catch (cause) {
    throw new InvalidCheck(`The ${what} cookie could not be decrypted or has expired.`, { cause })
  }
  if (typeof payload.value !== "string" || payload.value === "")
    throw new InvalidCheck(`The ${what} cookie holds no value.`)
  if (payload.provider !== p.id || payload.bind !== bind)
    throw new InvalidCheck(`The ${what} cookie was made for another provider or client.`)
  return payload.value
}

/** Reads every configured check; any missing, expired, tampered or foreign cookie is InvalidCheck. A configured check is never skipped (docs/security.md OA-05). */
export async function readChecks(
  p: ResolvedOAuthProvider,
  req: AuthRequest,
  config: ResolvedConfig,
  redirectUri: string,
): Promise<UsedChecks> {
  const names = config.cookies(req.secure)
  const bind = await binding(p, redirectUri)
  const used: UsedChecks = {}
  if (p.checks.has("state")) used.state = await readOne(req, config, names.state, p, bind, "state")
  if (p.checks.has("pkce"))
    used.codeVerifier = await readOne(req, config, names.pkceCodeVerifier, p, bind, "PKCE code verifier")
  if (p.checks.has("nonce")) used.nonce = await readOne(req, config, names.nonce, p, bind, "nonce")
  return used
}

/** Expires the check cookies the request carried, WebAuthn's challenge included (after a callback, whatever its outcome: they are single-use). */
export function clearChecks(req: AuthRequest, config: ResolvedConfig): Cookie[] {
  const names = config.cookies(req.secure)
  const out: Cookie[] = []
  for (const option of [names.state, names.pkceCodeVerifier, names.nonce, names.webauthnChallenge]) {
    if (req.cookies[option.name] !== undefined) out.push(expiredCookie(option))
  }
  return out
}

/** Decodes the `state` parameter's sealed payload (redirect proxy: where the flow started). Throws InvalidCheck. */
export async function decodeState(state: string, config: ResolvedConfig): Promise<{ origin?: string }> {
  try {
    const payload = await unseal(state, config, STATE_SALT)
    return typeof payload.origin === "string" ? { origin: payload.origin } : {}
  } catch (cause) {
    throw new InvalidCheck("The state parameter could not be decrypted.", { cause })
  }
}

/**
 * OAuth 1.0a: seals the temporary credentials (request token and its secret) into the state cookie, so the
 * second leg needs no server memory (RFC 5849 §2.1-2.3).
 */
export async function sealTemporaryCredentials(
  p: ResolvedOAuthProvider,
  req: AuthRequest,
  config: ResolvedConfig,
  redirectUri: string,
  token: string,
  tokenSecret: string,
): Promise<Cookie> {
  const option = config.cookies(req.secure).state
  return checkCookie(
    option,
    { value: token, secret: tokenSecret, provider: p.id, bind: await binding(p, redirectUri) },
    config,
    false,
  )
}

/** Reads the temporary credentials back; the callback's oauth_token must be the one sealed (fixation, docs/security.md O1-02). */
export async function readTemporaryCredentials(
  p: ResolvedOAuthProvider,
  req: AuthRequest,
  config: ResolvedConfig,
  redirectUri: string,
  oauthToken: string,
): Promise<{ token: string; tokenSecret: string }> {
  const option = config.cookies(req.secure).state
  const raw = req.cookies[option.name]
  if (!raw)
    throw new InvalidCheck(
      "The OAuth 1.0a request-token cookie is missing (expired, or the sign-in started in another browser).",
    )
  let payload: Record<string, unknown>
  try {
    payload = await unseal(raw, config, option.name)
  } catch (cause) {
    throw new InvalidCheck("The OAuth 1.0a request-token cookie could not be decrypted or has expired.", { cause })
  }
  if (payload.provider !== p.id || payload.bind !== (await binding(p, redirectUri)))
    throw new InvalidCheck("The request-token cookie was made for another provider.")
  if (typeof payload.value !== "string" || typeof payload.secret !== "string" || payload.value !== oauthToken) {
    throw new InvalidCheck("The callback's oauth_token is not the request token of this browser.")
  }
  return { token: payload.value, tokenSecret: payload.secret }
}
