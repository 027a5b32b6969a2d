// OAuth 1.0a sign-in (RFC 5849): request token -> user authorization -> access token -> signed profile request.
import { AccessDenied, OAuthCallbackError, OAuthSignInError } from "../errors.js"
import type { AuthRequest, ResolvedConfig, ResolvedOAuthProvider } from "../pipeline-types.js"
import { requestTemporaryCredentials, requestTokenCredentials, signedGetJson } from "../protocols/oauth1.js"
import { clearChecks, readTemporaryCredentials, sealTemporaryCredentials } from "../security/check-cookies.js"
import { resolveCallbackUrl } from "../security/redirect.js"
import type { Cookie, TokenSet } from "../types.js"
import type { OAuthFinish } from "./oauth.js"
import { assertClientCredentials, callbackUrlCookie, callbackUrlOf, identityFromProfile } from "./oauth.js"

type OAuth1Provider = ResolvedOAuthProvider & { oauth1: NonNullable<ResolvedOAuthProvider["oauth1"]> }

/** POST /signin/<id>: obtain temporary credentials, seal them in a cookie, send the user to authorize them. */
export async function startOAuth1(
  req: AuthRequest,
  config: ResolvedConfig,
  p: OAuth1Provider,
): Promise<{ redirect: string; cookies: Cookie[] }> {
  assertClientCredentials(p)
  const callback = callbackUrlOf(req, config, p)
  let temporary
  try {
    temporary = await requestTemporaryCredentials(
      p.fetch,
      p.oauth1.requestTokenUrl,
      { consumerKey: p.clientId, consumerSecret: p.clientSecret as string },
      callback,
    )
  } catch (cause) {
    throw new OAuthSignInError(`Provider "${p.id}": the request-token step failed.`, { cause })
  }
  const url = new URL(p.oauth1.authorizationUrl)
  url.searchParams.set("oauth_token", temporary.token)
  return {
    redirect: url.href,
    cookies: [
      await sealTemporaryCredentials(p, req, config, callback, temporary.token, temporary.tokenSecret),
      callbackUrlCookie(req, config, await resolveCallbackUrl(req, config), false),
    ],
  }
}

/** GET /callback/<id>?oauth_token&oauth_verifier (or ?denied=): verify against the sealed request token, then exchange it. */
export async function finishOAuth1(req: AuthRequest, config: ResolvedConfig, p: OAuth1Provider): Promise<OAuthFinish> {
  const params = req.method === "POST" && req.form ? req.form : req.query
  if (params.has("denied"))
    throw Object.assign(new AccessDenied(`Provider "${p.id}" reported that the user denied access.`), {
      code: "access_denied" as const,
    })
  const oauthToken = params.get("oauth_token")
  const verifier = params.get("oauth_verifier")
  if (!oauthToken || !verifier)
    throw new OAuthCallbackError(`Provider "${p.id}": the callback lacks oauth_token or oauth_verifier.`)
  assertClientCredentials(p)
  const callback = callbackUrlOf(req, config, p)
  const temporary = await readTemporaryCredentials(p, req, config, callback, oauthToken)
  const consumer = { consumerKey: p.clientId, consumerSecret: p.clientSecret as string }
  let tokens: Record<string, string>
  let profile: Record<string, unknown>
  try {
    tokens = await requestTokenCredentials(p.fetch, p.oauth1.accessTokenUrl, { ...consumer, ...temporary }, verifier)
    profile = await signedGetJson(p.fetch, p.oauth1.profileUrl, {
      ...consumer,
      token: tokens.oauth_token,
      tokenSecret: tokens.oauth_token_secret,
    })
  } catch (cause) {
    throw new OAuthCallbackError(
      `Provider "${p.id}": ${cause instanceof Error ? cause.message : "the token exchange failed"}`,
      { cause },
    )
  }
  return {
    kind: "identity",
    identity: await identityFromProfile(p, profile, tokens as TokenSet, "oauth", config.wire),
    cookies: clearChecks(req, config),
  }
}
