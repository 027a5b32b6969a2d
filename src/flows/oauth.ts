// OAuth 2 / OIDC sign-in: start() -> redirect to the authorization endpoint; finish() -> VerifiedIdentity (or a proxy forward).
import { randomUUID } from "#crypto"
import { AccessDenied, InvalidCheck, OAuthCallbackError, OAuthProfileParseError, OAuthSignInError } from "../errors.js"
import type {
  AuthRequest,
  ResolvedConfig,
  ResolvedOAuthProvider,
  VerifiedIdentity,
  WireFormat,
} from "../pipeline-types.js"
import {
  buildAuthorizationUrl,
  exchangeCode,
  fetchProfile,
  getAuthorizationServer,
  oauth,
  safeCause,
  validateCallback,
} from "../protocols/oauth2.js"
import { merged } from "../lib/merged.js"
import { clearChecks, createChecks, decodeState, readChecks } from "../security/check-cookies.js"
import { resolveCallbackUrl } from "../security/redirect.js"
import type { Account, Cookie, TokenSet, User } from "../types.js"

/**
 * Missing client credentials only break sign-in with that provider (OAuthSignInError), not every route:
 * a provider whose env vars are unset must not take the session endpoint down.
 */
export function assertClientCredentials(p: ResolvedOAuthProvider): void {
  const env = `AUTH_${p.id.toUpperCase().replace(/-/g, "_")}`
  if (!p.clientId)
    throw new OAuthSignInError(
      `Provider "${p.id}": \`clientId\` is missing (or set ${env}_ID and call setEnvDefaults).`,
    )
  if (p.client.token_endpoint_auth_method !== "none" && !p.clientSecret) {
    throw new OAuthSignInError(
      `Provider "${p.id}": \`clientSecret\` is missing (or set ${env}_SECRET and call setEnvDefaults).`,
    )
  }
}

/** This deployment's callback URL for a provider. */
export function callbackUrlOf(req: AuthRequest, config: ResolvedConfig, p: ResolvedOAuthProvider): string {
  return `${req.origin}${config.basePath}/callback/${p.id}`
}

/** Whether this deployment is the redirect proxy itself (the proxy URL's origin is ours). */
function isOnRedirectProxy(req: AuthRequest, p: ResolvedOAuthProvider): boolean {
  if (!p.redirectProxyUrl) return false
  try {
    return new URL(p.redirectProxyUrl).origin === req.origin
  } catch {
    return false
  }
}

/** The redirect_uri sent to the provider: the proxy's callback when one is configured (and we are not it). */
function redirectUriOf(req: AuthRequest, config: ResolvedConfig, p: ResolvedOAuthProvider): string {
  return p.redirectProxyUrl && !isOnRedirectProxy(req, p) ? p.redirectProxyUrl : callbackUrlOf(req, config, p)
}

/** POST /signin/<id>: the authorization URL, the sealed check cookies and the callback-url cookie. */
export async function startOAuth(
  req: AuthRequest,
  config: ResolvedConfig,
  p: ResolvedOAuthProvider,
): Promise<{ redirect: string; cookies: Cookie[] }> {
  assertClientCredentials(p)
  let as
  try {
    as = await getAuthorizationServer(p)
  } catch (cause) {
    throw new OAuthSignInError(`Provider "${p.id}": the authorization server metadata could not be loaded.`, { cause })
  }
  const redirectUri = redirectUriOf(req, config, p)
  const proxied = redirectUri !== callbackUrlOf(req, config, p)
  const { params, cookies } = await createChecks(
    p,
    req,
    config,
    redirectUri,
    proxied ? callbackUrlOf(req, config, p) : undefined,
  )
  const url = buildAuthorizationUrl(as, p, redirectUri, req.query, params)
  const callbackUrl = await resolveCallbackUrl(req, config)
  // With form_post the IdP's POST back is cross-site, so the callback-url cookie must be SameSite=None as well.
  cookies.push(callbackUrlCookie(req, config, callbackUrl, p.formPost))
  config.logger.debug("oauth: authorization request", { provider: p.id, checks: [...p.checks] })
  return { redirect: url.href, cookies }
}

/** The result of a callback: a signed-in identity, or a forward to the deployment that started the flow. */
export type OAuthFinish =
  | { kind: "identity"; identity: VerifiedIdentity; cookies: Cookie[] }
  | { kind: "forward"; redirect: string }

function callbackParams(req: AuthRequest): URLSearchParams {
  return req.method === "POST" && req.form ? req.form : req.query
}

/**
 * GET/POST /callback/<id>: upstream error -> AccessDenied / OAuthCallbackError; check cookies -> InvalidCheck;
 * state and iss validated before any token call; code exchange, ID token, profile; then the identity.
 */
export async function finishOAuth(
  req: AuthRequest,
  config: ResolvedConfig,
  p: ResolvedOAuthProvider,
): Promise<OAuthFinish> {
  const params = callbackParams(req)
  const state = params.get("state")
  if (state && isOnRedirectProxy(req, p)) {
    const { origin } = await decodeState(state, config)
    if (origin) {
      let target: URL
      try {
        target = new URL(origin)
      } catch {
        throw new InvalidCheck("The state names an invalid origin.")
      }
      if (target.origin !== req.origin) {
        // Only to this app's own deployments: a state minted on an origin taken from a spoofed Host would otherwise
        // carry the victim's authorization code to the attacker (docs/differences.md, "Redirect proxy").
        if (!config.isTrustedOrigin(target.origin)) {
          throw new InvalidCheck(
            `The redirect proxy refused to forward to ${target.origin}: add it to \`trustedOrigins\` (AUTH_TRUSTED_ORIGINS) if it is a deployment of this app.`,
          )
        }
        return { kind: "forward", redirect: `${target.href.split("?")[0]}?${params}` }
      }
    }
  }
  const error = params.get("error")
  if (error !== null) {
    // The description is never rendered or logged verbatim beyond its code (docs/security.md OA-10).
    if (error === "access_denied")
      throw Object.assign(new AccessDenied(`Provider "${p.id}" reported that the user denied access.`), {
        code: "access_denied" as const,
      })
    throw new OAuthCallbackError(`Provider "${p.id}" returned the error "${error.slice(0, 64)}".`)
  }
  assertClientCredentials(p)
  const redirectUri = redirectUriOf(req, config, p)
  const checks = await readChecks(p, req, config, redirectUri)
  let as
  try {
    as = await getAuthorizationServer(p)
  } catch (cause) {
    throw new OAuthCallbackError(`Provider "${p.id}": the authorization server metadata could not be loaded.`, {
      cause,
    })
  }
  let validated
  try {
    validated = validateCallback(as, p, params, checks.state)
  } catch (cause) {
    if (cause instanceof oauth.AuthorizationResponseError)
      throw new OAuthCallbackError(`Provider "${p.id}" returned the error "${cause.error}".`, {
        cause: safeCause(cause),
      })
    throw new InvalidCheck(
      `The callback failed validation: ${cause instanceof Error ? cause.message : "invalid parameters"}.`,
      { cause: safeCause(cause) },
    )
  }
  const tokenResponse = await exchangeCode(as, p, validated, redirectUri, checks.codeVerifier, checks.nonce)
  const profile = withCallbackFields(await fetchProfile(as, p, tokenResponse), p, params)
  const tokens: TokenSet = { ...tokenResponse }
  if (typeof tokenResponse.expires_in === "number")
    tokens.expires_at = Math.floor(Date.now() / 1000) + tokenResponse.expires_in
  const identity = await identityFromProfile(p, profile, tokens, p.type, config.wire)
  config.logger.debug("oauth: signed in", { provider: p.id })
  return { kind: "identity", identity, cookies: clearChecks(req, config) }
}

/**
 * Copies the authorization response parameters a provider names in `profileCallbackFields` onto the raw profile (JSON
 * values parsed), for `profile()` to read: Apple posts the user's name only there, once. The verified claims win: a
 * field never replaces one the ID token or userinfo already set, and nothing here is integrity-protected, so a provider
 * must not take an id or e-mail from it.
 */
function withCallbackFields(
  profile: Record<string, unknown>,
  p: ResolvedOAuthProvider,
  params: URLSearchParams,
): Record<string, unknown> {
  if (p.profileCallbackFields.length === 0) return profile
  const out = { ...profile }
  for (const name of p.profileCallbackFields) {
    const raw = params.get(name)
    if (raw === null || raw.length > 4096 || Object.hasOwn(out, name)) continue
    try {
      out[name] = JSON.parse(raw)
    } catch {
      out[name] = raw
    }
  }
  return out
}

/**
 * Maps a provider profile to the verified identity, for OAuth 1 and 2 alike: `profile()` must return an `id`
 * (the account's stable key, docs/security.md OA-16); the user gets a fresh id (the adapter decides the real one) and a
 * lower-cased e-mail; the account is the token set plus provider, type and providerAccountId. Under next-auth 4's wire
 * format the user keeps the profile's id, as next-auth 4 does: without an adapter it is the session token's `sub`, so
 * a v4 app's `session.user.id` (and what it stored under it) stays the provider's id after the switch.
 */
export async function identityFromProfile(
  p: ResolvedOAuthProvider,
  profile: Record<string, unknown>,
  tokens: TokenSet,
  type: ResolvedOAuthProvider["type"],
  wire: WireFormat,
): Promise<VerifiedIdentity> {
  let mapped
  try {
    mapped = await p.profile(profile, tokens)
  } catch (cause) {
    throw new OAuthProfileParseError(`Provider "${p.id}": the profile callback threw.`, { cause })
  }
  if (
    !mapped ||
    typeof mapped !== "object" ||
    mapped.id === undefined ||
    mapped.id === null ||
    String(mapped.id) === ""
  ) {
    throw new OAuthProfileParseError(
      `Provider "${p.id}": the profile has no id (map it in the provider's \`profile\` callback).`,
    )
  }
  // The token response is the provider's JSON: merged keeps an own __proto__ key in it a plain property.
  const account: Account = merged(tokens as Record<string, unknown>, {
    provider: p.id,
    type,
    providerAccountId: String(mapped.id),
  }) as Account
  const user = userOfProfile(mapped)
  return { user: wire === "next-auth-v4" ? merged(user, { id: String(mapped.id) }) : user, account, profile }
}

/**
 * The user a mapped profile gives: a fresh id, the e-mail lower-cased, and no `name`, `email` or `image` key the
 * profile left null or out, so the session token and `/session` carry only what the provider gave (`{"user":{}}` for a
 * bare profile, as in Auth.js, whose default mapping strips them and which drops a null e-mail).
 */
function userOfProfile(mapped: User): VerifiedIdentity["user"] {
  const { name, email, image, ...rest } = mapped
  return merged(rest, {
    id: randomUUID(),
    ...(name !== null && name !== undefined ? { name } : {}),
    ...(typeof email === "string" ? { email: email.toLowerCase() } : {}),
    ...(image !== null && image !== undefined ? { image } : {}),
  })
}

/** The callback-url cookie a sign-in start sets (SameSite=None when the provider answers cross-site with form_post). */
export function callbackUrlCookie(
  req: AuthRequest,
  config: ResolvedConfig,
  callbackUrl: string,
  crossSite: boolean,
): Cookie {
  const option = config.cookies(req.secure).callbackUrl
  return {
    name: option.name,
    value: callbackUrl,
    options: merged(option.options, crossSite ? { sameSite: "none" as const, secure: true } : {}),
  }
}
