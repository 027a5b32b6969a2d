// OAuth 1.0a (RFC 5849) client: parameter encoding, signature base string, HMAC-SHA1, and the three-legged requests.
// No config, cookies or adapters in here.
import { type Awaitable, hmac, randomBytes, toHex } from "#crypto"
import { OAuthCallbackError, OAuthSignInError } from "../errors.js"
import { merged } from "../lib/merged.js"

/** Percent-encoding of RFC 5849 §3.6: everything but unreserved characters, UTF-8, uppercase hex. */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}

/** The base string URI of RFC 5849 §3.4.1.2: scheme and host lowercased, default port dropped, no query or fragment. */
export function baseStringUri(url: URL): string {
  const scheme = url.protocol.toLowerCase()
  const host = url.hostname.toLowerCase()
  const defaultPort =
    (scheme === "http:" && url.port === "80") || (scheme === "https:" && url.port === "443") || url.port === ""
  return `${scheme}//${host}${defaultPort ? "" : `:${url.port}`}${url.pathname}`
}

/**
 * Parameter normalisation of RFC 5849 §3.4.1.3.2: every name and value encoded, sorted by name then value
 * (byte order), joined as name=value with "&". Repeated names are kept.
 */
export function normalizeParameters(params: readonly (readonly [string, string])[]): string {
  return params
    .map(([k, v]) => [percentEncode(k), percentEncode(v)] as const)
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&")
}

/** The signature base string of RFC 5849 §3.4.1.1. */
export function signatureBaseString(method: string, url: URL, params: readonly (readonly [string, string])[]): string {
  return `${method.toUpperCase()}&${percentEncode(baseStringUri(url))}&${percentEncode(normalizeParameters(params))}`
}

/** HMAC-SHA1 signature of RFC 5849 §3.4.2: key = encode(client secret) & encode(token secret). */
export function hmacSha1Signature(baseString: string, clientSecret: string, tokenSecret = ""): Awaitable<string> {
  return hmac("SHA-1", `${percentEncode(clientSecret)}&${percentEncode(tokenSecret)}`, baseString, "base64")
}

export interface OAuth1Credentials {
  consumerKey: string
  consumerSecret: string
  token?: string
  tokenSecret?: string
}

/** A nonce of 128 random bits (RFC 5849 §3.3: unique per timestamp). */
export function makeNonce(): string {
  return toHex(randomBytes(16))
}

/**
 * Signs a request and returns its `Authorization: OAuth …` header (RFC 5849 §3.5.1). Query parameters and
 * form-encoded body parameters are part of the signature; `extra` holds protocol parameters such as
 * oauth_callback or oauth_verifier.
 */
export async function authorizationHeader(
  method: string,
  url: URL,
  credentials: OAuth1Credentials,
  extra: Record<string, string> = {},
  body?: URLSearchParams,
  now = Math.floor(Date.now() / 1000),
  nonce = makeNonce(),
): Promise<string> {
  const oauth: Record<string, string> = {
    oauth_consumer_key: credentials.consumerKey,
    oauth_nonce: nonce,
    oauth_signature_method: "HMAC-SHA1",
    oauth_timestamp: String(now),
    oauth_version: "1.0",
    ...(credentials.token ? { oauth_token: credentials.token } : {}),
    ...extra,
  }
  const params: [string, string][] = [...url.searchParams, ...Object.entries(oauth), ...(body ? [...body] : [])]
  const signature = await hmacSha1Signature(
    signatureBaseString(method, url, params),
    credentials.consumerSecret,
    credentials.tokenSecret,
  )
  const header = merged(oauth, { oauth_signature: signature })
  return `OAuth ${Object.entries(header)
    .map(([k, v]) => `${percentEncode(k)}="${percentEncode(v)}"`)
    .join(", ")}`
}

/**
 * Failures carry the Auth.js type of the route they happen on: leg 1 runs on sign-in (OAuthSignInError), leg 3
 * and the profile request on the callback (OAuthCallbackError). Messages carry no secret.
 */
type StepError = typeof OAuthSignInError | typeof OAuthCallbackError

async function formResponse(response: Response, step: string, Failure: StepError): Promise<URLSearchParams> {
  const text = await response.text()
  if (response.status !== 200) throw new Failure(`The ${step} request answered ${response.status}.`)
  return new URLSearchParams(text)
}

/** Leg 1 (RFC 5849 §2.1): temporary credentials; requires oauth_callback_confirmed=true (docs/security.md O1-04). */
export async function requestTemporaryCredentials(
  fetchFn: typeof fetch,
  url: URL,
  credentials: OAuth1Credentials,
  callback: string,
): Promise<{ token: string; tokenSecret: string }> {
  const response = await fetchFn(url.href, {
    method: "POST",
    headers: { authorization: await authorizationHeader("POST", url, credentials, { oauth_callback: callback }) },
  })
  const params = await formResponse(response, "request-token", OAuthSignInError)
  const token = params.get("oauth_token")
  const tokenSecret = params.get("oauth_token_secret")
  if (params.get("oauth_callback_confirmed") !== "true")
    throw new OAuthSignInError("The request-token response did not confirm the callback.")
  if (!token || !tokenSecret)
    throw new OAuthSignInError("The request-token response has no oauth_token / oauth_token_secret.")
  return { token, tokenSecret }
}

/** Leg 3 (RFC 5849 §2.3): exchanges the verified temporary credentials for token credentials. */
export async function requestTokenCredentials(
  fetchFn: typeof fetch,
  url: URL,
  credentials: OAuth1Credentials & { token: string; tokenSecret: string },
  verifier: string,
): Promise<Record<string, string>> {
  const response = await fetchFn(url.href, {
    method: "POST",
    headers: { authorization: await authorizationHeader("POST", url, credentials, { oauth_verifier: verifier }) },
  })
  const params = await formResponse(response, "access-token", OAuthCallbackError)
  if (!params.get("oauth_token") || !params.get("oauth_token_secret"))
    throw new OAuthCallbackError("The access-token response has no oauth_token / oauth_token_secret.")
  return Object.fromEntries(params)
}

/** A signed GET of a protected resource (the profile), as JSON. */
export async function signedGetJson(
  fetchFn: typeof fetch,
  url: URL,
  credentials: OAuth1Credentials,
): Promise<Record<string, unknown>> {
  const response = await fetchFn(url.href, {
    headers: { authorization: await authorizationHeader("GET", url, credentials), accept: "application/json" },
  })
  if (response.status !== 200) throw new OAuthCallbackError(`The profile request answered ${response.status}.`)
  const body: unknown = await response.json().catch(() => undefined)
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new OAuthCallbackError("The profile response is not a JSON object.")
  return body as Record<string, unknown>
}
