// OAuth 1.0a sign-in (RFC 5849): request token -> user authorization -> access token -> signed profile request.
import { randomUUID } from "node:crypto"
import { AccessDenied, OAuthCallbackError, OAuthProfileParseError, OAuthSignInError } from "../errors.js"
import type { ResolvedConfig } from "../config/resolve.js"
import { type ResolvedOAuthProvider, assertClientCredentials } from "../config/oauth.js"
import { requestTemporaryCredentials, requestTokenCredentials, signedGetJson } from "../protocols/oauth1.js"
import type { AuthRequest } from "../request/parse.js"
import { clearChecks, readTemporaryCredentials, sealTemporaryCredentials } from "../security/checks.js"
import { resolveCallbackUrl } from "../security/redirect.js"
import type { Account, Cookie, TokenSet } from "../types.js"
import type { OAuthFinish } from "./oauth.js"
import { callbackUrlOf } from "./oauth.js"

type OAuth1Provider = ResolvedOAuthProvider & { oauth1: NonNullable<ResolvedOAuthProvider["oauth1"]> }

/** POST /signin/<id>: obtain temporary credentials, seal them in a cookie, send the user to authorize them. */
export async function startOAuth1(req: AuthRequest, config: ResolvedConfig, p: OAuth1Provider): Promise<{ redirect: string; cookies: Cookie[] }> {
  assertClientCredentials(p)
  const callback = callbackUrlOf(req, config, p)
  let temporary
  try {
    temporary = await requestTemporaryCredentials(p.fetch, p.oauth1.requestTokenUrl, { consumerKey: p.clientId, consumerSecret: p.clientSecret as string }, callback)
  } catch (cause) {
    throw new OAuthSignInError(`Provider "${p.id}": the request-token step failed.`, { cause })
  }
  const url = new URL(p.oauth1.authorizationUrl)
  url.searchParams.set("oauth_token", temporary.token)
  const callbackUrl = await resolveCallbackUrl(req, config)
  const option = config.cookies(req.secure).callbackUrl
  return {
    redirect: url.href,
    cookies: [
      sealTemporaryCredentials(p, req, config, callback, temporary.token, temporary.tokenSecret),
      { name: option.name, value: callbackUrl, options: { ...option.options } },
    ],
  }
}

/** GET /callback/<id>?oauth_token&oauth_verifier (or ?denied=): verify against the sealed request token, then exchange it. */
export async function finishOAuth1(req: AuthRequest, config: ResolvedConfig, p: OAuth1Provider): Promise<OAuthFinish> {
  const params = req.method === "POST" && req.form ? req.form : req.query
  if (params.has("denied")) throw new AccessDenied(`Provider "${p.id}" reported that the user denied access.`)
  const oauthToken = params.get("oauth_token")
  const verifier = params.get("oauth_verifier")
  if (!oauthToken || !verifier) throw new OAuthCallbackError(`Provider "${p.id}": the callback lacks oauth_token or oauth_verifier.`)
  assertClientCredentials(p)
  const callback = callbackUrlOf(req, config, p)
  const temporary = readTemporaryCredentials(p, req, config, callback, oauthToken)
  const consumer = { consumerKey: p.clientId, consumerSecret: p.clientSecret as string }
  let tokens: Record<string, string>
  let profile: Record<string, unknown>
  try {
    tokens = await requestTokenCredentials(p.fetch, p.oauth1.accessTokenUrl, { ...consumer, ...temporary }, verifier)
    profile = await signedGetJson(p.fetch, p.oauth1.profileUrl, { ...consumer, token: tokens.oauth_token, tokenSecret: tokens.oauth_token_secret })
  } catch (cause) {
    throw new OAuthCallbackError(`Provider "${p.id}": ${cause instanceof Error ? cause.message : "the token exchange failed"}`, { cause })
  }
  let mapped
  try {
    mapped = await p.profile(profile, tokens as TokenSet)
  } catch (cause) {
    throw new OAuthProfileParseError(`Provider "${p.id}": the profile callback threw.`, { cause })
  }
  if (!mapped || mapped.id === undefined || mapped.id === null || String(mapped.id) === "") {
    throw new OAuthProfileParseError(`Provider "${p.id}": the profile has no id.`)
  }
  const account: Account = { ...tokens, provider: p.id, type: "oauth", providerAccountId: String(mapped.id) }
  const email = typeof mapped.email === "string" ? mapped.email.toLowerCase() : mapped.email ?? null
  return { kind: "identity", identity: { user: { ...mapped, id: randomUUID(), email }, account, profile }, cookies: clearChecks(req, config) }
}
