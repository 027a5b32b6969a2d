// OAuth 2 / OIDC wire protocol on oauth4webapi: discovery, authorization URL, callback checks, code exchange, userinfo, refresh.
// No config, cookies or adapters in here. @see RFC 6749, RFC 7636, RFC 9207, OIDC Core 1.0
import * as o from "oauth4webapi"
import { fromBase64Url, fromUtf8, toBase64 } from "#crypto"
import { OAuthCallbackError, OAuthSignInError } from "../errors.js"
import { SingleFlight } from "../lib/single-flight.js"
import type { ResolvedOAuthProvider } from "../pipeline-types.js"
import type { TokenRequestContext } from "../providers/types.js"
import { isAllowedEndpoint } from "./http.js"
import { verifyJwsSignature } from "./jws.js"
import { merged } from "../lib/merged.js"

/** The issuer used for providers configured without one (Auth.js uses the same placeholder). */
const PLACEHOLDER_ISSUER = "https://authjs.dev"
/** Discovery documents are reused for this long. */
const DISCOVERY_TTL_MS = 60 * 60_000

const discoveryCache = new Map<string, { as: o.AuthorizationServer; expires: number }>()
/** Concurrent discoveries of one issuer share one request. */
const discoveryInflight = new SingleFlight<string, o.AuthorizationServer>()

function httpOptions(p: ResolvedOAuthProvider): { [o.customFetch]: typeof fetch; [o.allowInsecureRequests]: boolean } {
  // Endpoints were checked to be https or loopback http (config/oauth.ts, assertEndpoints), so plain http is safe to allow here.
  return { [o.customFetch]: p.fetch, [o.allowInsecureRequests]: true }
}

function assertEndpoints(as: o.AuthorizationServer, providerId: string): void {
  for (const key of ["authorization_endpoint", "token_endpoint", "userinfo_endpoint", "jwks_uri"] as const) {
    const value = as[key]
    if (value !== undefined && !isAllowedEndpoint(new URL(value))) {
      throw new OAuthSignInError(`Provider "${providerId}": the discovered ${key} must use https.`)
    }
  }
}

async function discover(p: ResolvedOAuthProvider): Promise<o.AuthorizationServer> {
  const issuer = new URL(p.issuer as string)
  let response = p.wellKnown
    ? await p.fetch(p.wellKnown.href, { headers: { accept: "application/json" } })
    : await o.discoveryRequest(issuer, httpOptions(p))
  let template: string | undefined
  if (p.issuerTemplate) [response, template] = await acceptIssuerTemplate(p, response)
  const as = await o.processDiscoveryResponse(issuer, response)
  assertEndpoints(as, p.id)
  // A template issuer is kept as the server's issuer: every ID token is checked against it for its own tenant.
  return template ? { ...as, issuer: template } : as
}

/**
 * A multi-tenant discovery document names a template issuer (`.../{tenantid}/v2.0`). It is accepted only when the
 * template, with the placeholder replaced by the configured issuer's own segment there (`common`), is the configured
 * issuer; the response is then handed on with that concrete issuer so the usual discovery checks run.
 */
async function acceptIssuerTemplate(
  p: ResolvedOAuthProvider,
  response: Response,
): Promise<[Response, string | undefined]> {
  const { placeholder } = p.issuerTemplate!
  if (response.status !== 200) return [response, undefined]
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => undefined)
  const announced = typeof body === "object" && body !== null ? (body as { issuer?: unknown }).issuer : undefined
  if (typeof announced !== "string" || !announced.includes(placeholder)) return [response, undefined]
  const configured = p.issuer as string
  // No fit: processDiscoveryResponse then refuses the mismatch.
  if (templateFill(announced, placeholder, configured) === undefined) return [response, undefined]
  const headers = new Headers(response.headers)
  return [
    new Response(JSON.stringify({ ...(body as object), issuer: configured }), { status: 200, headers }),
    announced,
  ]
}

/** The claim value that fills an issuer template: a plain segment (a tenant id), nothing that changes the URL's shape. */
const TEMPLATE_VALUE = /^[A-Za-z0-9._-]{1,64}$/

/** What `issuer` has where `template` has `placeholder`, when the rest is the same and that part is a plain segment. */
function templateFill(template: string, placeholder: string, issuer: string): string | undefined {
  const [before = "", after = "", ...rest] = template.split(placeholder)
  if (
    rest.length ||
    issuer.length <= before.length + after.length ||
    !issuer.startsWith(before) ||
    !issuer.endsWith(after)
  )
    return undefined
  const value = issuer.slice(before.length, issuer.length - after.length)
  return TEMPLATE_VALUE.test(value) ? value : undefined
}

/**
 * For a template issuer: the metadata with the issuer of this token response's ID token (its `claim` filled in), so
 * oauth4webapi's `iss` check compares with the tenant the token names; the signature is checked afterwards against
 * the discovered JWKS. A token response without a usable claim keeps the template, which no `iss` can equal.
 */
async function asForTokenResponse(
  as: o.AuthorizationServer,
  p: ResolvedOAuthProvider,
  response: Response,
): Promise<o.AuthorizationServer> {
  if (!p.issuerTemplate || !as.issuer.includes(p.issuerTemplate.placeholder)) return as
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => undefined)
  const idToken = typeof body === "object" && body !== null ? (body as { id_token?: unknown }).id_token : undefined
  if (typeof idToken !== "string") return as
  let value: unknown
  try {
    value = (JSON.parse(fromUtf8(fromBase64Url(idToken.split(".")[1] ?? ""))) as Record<string, unknown>)[
      p.issuerTemplate.claim
    ]
  } catch {
    return as
  }
  if (typeof value !== "string" || !TEMPLATE_VALUE.test(value)) return as
  return merged(as, { issuer: as.issuer.replace(p.issuerTemplate.placeholder, value) })
}

/**
 * The authorization server metadata: discovered (once per issuer, cached) when an issuer is set, with
 * explicitly configured endpoints taking precedence; else built from the configured endpoints.
 */
export async function getAuthorizationServer(p: ResolvedOAuthProvider): Promise<o.AuthorizationServer> {
  const explicit = {
    ...(p.authorization.url ? { authorization_endpoint: p.authorization.url.href } : {}),
    ...(p.token.url ? { token_endpoint: p.token.url.href } : {}),
    ...(p.userinfo.url ? { userinfo_endpoint: p.userinfo.url.href } : {}),
  }
  if (!p.issuer) return { issuer: PLACEHOLDER_ISSUER, ...explicit }
  // A plain OAuth 2 provider whose three endpoints are all given needs no discovery (as in Auth.js): its issuer (an
  // instance URL such as Mastodon's, maybe from AUTH_<ID>_ISSUER) still checks a returned `iss` (RFC 9207).
  const userinfoGiven = p.userinfo.url !== undefined || p.userinfo.request !== undefined
  if (!p.oidc && p.authorization.url && p.token.url && userinfoGiven) return { issuer: p.issuer, ...explicit }
  const cacheKey = `${p.issuer}\u0000${p.wellKnown?.href ?? ""}`
  const hit = discoveryCache.get(cacheKey)
  let as: o.AuthorizationServer
  if (hit && hit.expires > Date.now()) {
    as = hit.as
  } else {
    as = await discoveryInflight.share(cacheKey, async () => {
      const discovered = await discover(p)
      discoveryCache.set(cacheKey, { as: discovered, expires: Date.now() + DISCOVERY_TTL_MS })
      return discovered
    })
  }
  return merged(as, explicit) as o.AuthorizationServer
}

/** Test hook: forget discovered metadata. */
export function clearDiscoveryCache(): void {
  discoveryCache.clear()
}

function clientOf(p: ResolvedOAuthProvider): o.Client {
  return merged(p.client, { client_id: p.clientId }) as o.Client
}

/** The provider's extra token-request parameters (e.g. TikTok's client_key), sent in the form body. */
function tokenParams(p: ResolvedOAuthProvider): { additionalParameters?: Record<string, string> } {
  return Object.keys(p.token.params).length ? { additionalParameters: p.token.params } : {}
}

function clientAuthOf(p: ResolvedOAuthProvider): o.ClientAuth {
  switch (p.client.token_endpoint_auth_method) {
    case "client_secret_post":
      return o.ClientSecretPost(p.clientSecret as string)
    case "client_secret_jwt":
      return o.ClientSecretJwt(p.clientSecret as string)
    case "none":
      return o.None()
    default: {
      // RFC 6749 §2.3.1 form-encoding, done the way Auth.js does it (encodeURIComponent, space as "+"), which
      // providers that do not URL-decode Basic credentials also accept.
      const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, "+")
      const basic = `Basic ${toBase64(`${encode(p.clientId)}:${encode(p.clientSecret as string)}`)}`
      return (_as, _client, _body, headers) => {
        headers.set("authorization", basic)
      }
    }
  }
}

/** The check values sent in the authorization request. */
export interface AuthorizationChecks {
  state?: string
  codeChallenge?: string
  nonce?: string
}

/**
 * Builds the authorization request URL. Parameters merge in Auth.js order (configured params, params in the
 * configured URL, the sign-in request's query); then response_type, client_id, redirect_uri and the checks
 * are set last so nothing can override them. @see RFC 6749 §4.1.1, RFC 7636 §4.3
 */
export function buildAuthorizationUrl(
  as: o.AuthorizationServer,
  p: ResolvedOAuthProvider,
  redirectUri: string,
  requestQuery: URLSearchParams,
  checks: AuthorizationChecks,
): URL {
  if (!as.authorization_endpoint) throw new OAuthSignInError(`Provider "${p.id}" has no authorization endpoint.`)
  const url = new URL(as.authorization_endpoint)
  const merged = new Map<string, string>()
  for (const [k, v] of Object.entries(p.authorization.params)) merged.set(k, v)
  for (const [k, v] of url.searchParams) merged.set(k, v)
  for (const [k, v] of requestQuery) if (k !== "callbackUrl") merged.set(k, v)
  // The provider's own configured response_type may differ (Azure DevOps's `Assertion`); the request query never sets it.
  merged.set("response_type", p.authorization.params.response_type ?? "code")
  merged.set("client_id", p.clientId)
  merged.set("redirect_uri", redirectUri)
  for (const key of ["state", "code_challenge", "code_challenge_method", "nonce"]) merged.delete(key)
  if (checks.state !== undefined) merged.set("state", checks.state)
  if (checks.codeChallenge !== undefined) {
    merged.set("code_challenge", checks.codeChallenge)
    merged.set("code_challenge_method", "S256")
  }
  if (checks.nonce !== undefined) merged.set("nonce", checks.nonce)
  url.search = ""
  for (const [k, v] of merged) url.searchParams.set(k, v)
  return url
}

/** Callback parameters that passed the state and `iss` checks; only these can be exchanged for tokens. */
export type ValidatedCallback = URLSearchParams & { readonly __validatedCallback: true }

/**
 * Validates the authorization response: no duplicate parameters, `state` equal to the expected one,
 * `iss` equal to the issuer (and present when the server advertises it). Throws o.* errors.
 * @see RFC 9207 §2.4, RFC 6749 §10.12
 */
export function validateCallback(
  as: o.AuthorizationServer,
  p: ResolvedOAuthProvider,
  params: URLSearchParams,
  expectedState: string | undefined,
): ValidatedCallback {
  for (const name of ["code", "state", "iss"]) {
    if (params.getAll(name).length > 1)
      throw new o.OperationProcessingError(`"${name}" appears more than once in the callback.`)
  }
  let input = params
  let server = as
  if (!p.issuer && params.has("iss")) {
    // Without a configured issuer there is nothing to compare `iss` with; the per-provider redirect URI is the mix-up defence.
    input = new URLSearchParams(params)
    input.delete("iss")
  } else if (p.issuerTemplate && as.issuer.includes(p.issuerTemplate.placeholder)) {
    // A multi-tenant issuer: a returned `iss` must fit the template (any tenant); the ID token's `iss` is checked exactly later.
    const iss = params.get("iss")
    if (iss !== null) {
      if (templateFill(as.issuer, p.issuerTemplate.placeholder, iss) === undefined)
        throw new o.OperationProcessingError('"iss" does not match the issuer template.')
      input = new URLSearchParams(params)
      input.delete("iss")
    }
    server = merged(as, { authorization_response_iss_parameter_supported: false }) as o.AuthorizationServer
  }
  return o.validateAuthResponse(server, clientOf(p), input, expectedState ?? o.expectNoState) as ValidatedCallback
}

/**
 * A copy of an error with only its name and message: oauth4webapi errors carry the callback parameters or
 * the whole token response in `cause`, which a structured logger would serialise (tokens must never reach logs).
 */
export function safeCause(error: unknown): Error {
  const clean = new Error(error instanceof Error ? error.message : "unknown error")
  clean.name = error instanceof Error ? error.name : "Error"
  return clean
}

/** Wraps any protocol failure after the pre-checks as OAuthCallbackError, keeping only safe detail. */
function callbackError(message: string, error: unknown): OAuthCallbackError {
  if (error instanceof OAuthCallbackError) return error
  // Keep the OAuth error code, never the description. (A provider hook may throw its own OAuthCallbackError with
  // the provider's request id for support: see the token `conform` of providers/tiktok.ts.)
  const detail =
    error instanceof o.ResponseBodyError
      ? `${message}: ${error.error}`
      : error instanceof Error
        ? `${message}: ${error.message}`
        : message
  return new OAuthCallbackError(detail, { cause: safeCause(error) })
}

/**
 * Exchanges the code (with the PKCE verifier when configured) and validates the token response and the
 * ID token: claims by oauth4webapi, signature by JWKS here. @see RFC 6749 §4.1.3, OIDC Core §3.1.3.7
 */
export async function exchangeCode(
  as: o.AuthorizationServer,
  p: ResolvedOAuthProvider,
  callback: ValidatedCallback,
  redirectUri: string,
  codeVerifier: string | undefined,
  expectedNonce: string | undefined,
): Promise<o.TokenEndpointResponse> {
  const client = clientOf(p)
  try {
    let response = p.token.request
      ? await hookResponse(
          as,
          p,
          {
            grantType: "authorization_code",
            params: Object.fromEntries(callback),
            checks: codeVerifier ? { code_verifier: codeVerifier } : {},
          },
          redirectUri,
        )
      : await o.authorizationCodeGrantRequest(
          as,
          client,
          clientAuthOf(p),
          callback,
          redirectUri,
          codeVerifier ?? o.nopkce,
          merged(httpOptions(p), tokenParams(p)),
        )
    if (p.token.conform) response = (await p.token.conform(response.clone())) ?? response
    const requireIdToken = p.oidc
    as = await asForTokenResponse(as, p, response)
    const tokens = await o.processAuthorizationCodeResponse(as, client, response, {
      expectedNonce: expectedNonce ?? o.expectNoNonce,
      requireIdToken,
    })
    if (requireIdToken) assertIdTokenClaims(tokens, p)
    if (requireIdToken && typeof tokens.id_token === "string") {
      await verifyJwsSignature(tokens.id_token, {
        expectedAlg: p.client.id_token_signed_response_alg ?? "RS256",
        jwksUri: as.jwks_uri,
        clientSecret: p.clientSecret,
        fetch: p.fetch,
      })
    }
    return tokens
  } catch (error) {
    throw callbackError("The token request failed", error)
  }
}

/**
 * Runs a provider's token `request` hook and turns its tokens into a token response, so they pass the same checks as
 * tokens from the endpoint. The hook gets Auth.js's context (`params`, `checks`, `provider` with `clientSecret` and
 * `callbackUrl`) plus the grant, the token URL and the provider's fetch.
 */
async function hookResponse(
  as: o.AuthorizationServer,
  p: ResolvedOAuthProvider,
  grant: Pick<TokenRequestContext, "grantType" | "params" | "checks" | "refreshToken">,
  callbackUrl: string,
): Promise<Response> {
  const result = await p.token.request!({
    ...grant,
    provider: { ...p.source, clientId: p.clientId, clientSecret: p.clientSecret, callbackUrl },
    url: p.token.url?.href ?? as.token_endpoint ?? "",
    fetch: p.fetch,
  })
  const tokens = typeof result === "object" && result !== null ? (result as { tokens?: unknown }).tokens : undefined
  if (typeof tokens !== "object" || tokens === null || Array.isArray(tokens))
    throw new OAuthCallbackError("`token.request` returned no `tokens` object.")
  return new Response(JSON.stringify(tokens), { status: 200, headers: { "content-type": "application/json" } })
}

/** ID tokens older than this are refused (docs/security.md OA-14): a token-endpoint ID token is minted moments before. */
const MAX_ID_TOKEN_AGE_S = 60 * 60

/**
 * Checks oauth4webapi leaves to the client: every audience must be this client (OIDC Core §3.1.3.7 step 3:
 * untrusted extra audiences are rejected) and `iat` must be recent.
 */
function assertIdTokenClaims(tokens: o.TokenEndpointResponse, p: ResolvedOAuthProvider): void {
  const claims = o.getValidatedIdTokenClaims(tokens)
  if (!claims) return
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud]
  if (audiences.some((aud) => aud !== p.clientId))
    throw new OAuthCallbackError("The ID token is also meant for another audience.")
  if (typeof claims.iat !== "number" || claims.iat < Date.now() / 1000 - MAX_ID_TOKEN_AGE_S)
    throw new OAuthCallbackError("The ID token is too old (iat).")
}

/** The raw profile: the ID token claims (OIDC), or the userinfo response (OAuth, or OIDC with `idToken: false`). */
export async function fetchProfile(
  as: o.AuthorizationServer,
  p: ResolvedOAuthProvider,
  tokens: o.TokenEndpointResponse,
): Promise<Record<string, unknown>> {
  try {
    const claims = p.oidc ? o.getValidatedIdTokenClaims(tokens) : undefined
    if (claims && p.idToken) return { ...claims }
    if (p.userinfo.request) {
      const profile = await p.userinfo.request({
        tokens: { ...tokens },
        provider: p.source,
        fetch: p.fetch,
        url: p.userinfo.url?.href ?? as.userinfo_endpoint ?? "",
      })
      if (typeof profile !== "object" || profile === null)
        throw new OAuthCallbackError("`userinfo.request` returned no profile object.")
      return profile
    }
    if (!as.userinfo_endpoint) throw new OAuthCallbackError(`Provider "${p.id}" has no userinfo endpoint.`)
    const response = await o.userInfoRequest(as, clientOf(p), tokens.access_token, httpOptions(p))
    if (claims) {
      await verifySignedUserinfo(as, p, response)
      return { ...(await o.processUserInfoResponse(as, clientOf(p), claims.sub, response)) }
    }
    if (response.status !== 200) throw new OAuthCallbackError(`The userinfo request answered ${response.status}.`)
    const body: unknown = await response.json().catch(() => undefined)
    if (typeof body !== "object" || body === null || Array.isArray(body))
      throw new OAuthCallbackError("The userinfo response is not a JSON object.")
    return body as Record<string, unknown>
  } catch (error) {
    throw callbackError("The profile request failed", error)
  }
}

/**
 * A signed UserInfo answer (`application/jwt`, OIDC Core §5.3.2) has its signature checked against the issuer's JWKS
 * with the registered `userinfo_signed_response_alg` (oauth4webapi checks its claims, not its signature). A client
 * that registered the alg gets only signed answers: oauth4webapi refuses a JSON one.
 */
async function verifySignedUserinfo(
  as: o.AuthorizationServer,
  p: ResolvedOAuthProvider,
  response: Response,
): Promise<void> {
  const type = response.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase()
  if (type !== "application/jwt" || response.status !== 200) return
  const alg = p.client.userinfo_signed_response_alg
  if (typeof alg !== "string")
    throw new OAuthCallbackError(
      "A signed userinfo answer came, but no `client.userinfo_signed_response_alg` is configured.",
    )
  await verifyJwsSignature((await response.clone().text()).trim(), {
    expectedAlg: alg,
    jwksUri: as.jwks_uri,
    clientSecret: p.clientSecret,
    fetch: p.fetch,
  })
}

/**
 * Uses a refresh token, with the token endpoint's params and `conform` hook as for the code exchange (a provider such
 * as TikTok needs its own client parameter on every token request). @see RFC 6749 §6
 */
export async function refreshTokens(
  as: o.AuthorizationServer,
  p: ResolvedOAuthProvider,
  refreshToken: string,
  callbackUrl = "",
): Promise<o.TokenEndpointResponse> {
  const client = clientOf(p)
  let response = p.token.request
    ? await hookResponse(as, p, { grantType: "refresh_token", params: {}, checks: {}, refreshToken }, callbackUrl)
    : await o.refreshTokenGrantRequest(
        as,
        client,
        clientAuthOf(p),
        refreshToken,
        merged(httpOptions(p), tokenParams(p)),
      )
  if (p.token.conform) response = (await p.token.conform(response.clone())) ?? response
  return o.processRefreshTokenResponse(await asForTokenResponse(as, p, response), client, response)
}

export { o as oauth }
