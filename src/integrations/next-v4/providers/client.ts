// The `client` a next-auth 4 token / userinfo hook receives: a stand-in for openid-client's Client with the calls such
// hooks make (the code exchange, a grant, a refresh, userinfo, the metadata), on the provider's fetch. @see RFC 6749
// §2.3.1 (client authentication), §4.1.3 (code exchange), §6 (refresh); RFC 6750 §2.1 (Bearer)
import { fromBase64Url, fromUtf8, toBase64 } from "#crypto"
import { OAuthCallbackError } from "../../../errors.js"
import type { TokenSet } from "../../../records.js"
import type { OAuthChecks, V4Client, V4TokenSet } from "./oauth.js"

/** What the stand-in needs to know: the client, its endpoints as configured, and the provider's fetch. */
export interface ClientSetup {
  clientId: string
  clientSecret?: string
  /** The provider's `client` options (token_endpoint_auth_method, …). */
  client?: Record<string, unknown>
  callbackUrl?: string
  issuer?: string
  authorizationUrl?: string
  tokenUrl?: string
  userinfoUrl?: string
  fetch: typeof fetch
}

/** The payload of a JWT, unverified (Gatehouse verifies the ID token itself); {} when there is none. */
function jwtPayload(token: unknown): Record<string, unknown> {
  if (typeof token !== "string") return {}
  try {
    const payload: unknown = JSON.parse(fromUtf8(fromBase64Url(token.split(".")[1] ?? "")))
    return typeof payload === "object" && payload !== null ? (payload as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

/** Tokens with openid-client's `claims()` (not enumerable, so the tokens serialise as the plain token answer). */
export function v4TokenSet(tokens: TokenSet | Record<string, unknown>): V4TokenSet {
  const set = { ...tokens } as V4TokenSet
  Object.defineProperty(set, "claims", { value: () => jwtPayload(set.id_token), enumerable: false })
  return set
}

/** application/x-www-form-urlencoded, as RFC 6749 §2.3.1 asks for the client id and secret in Basic credentials. */
function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, "+")
}

function stringFields(fields: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(fields ?? {}))
    if (value !== undefined && value !== null) out[key] = typeof value === "string" ? value : JSON.stringify(value)
  return out
}

/** openid-client methods the stand-in does not offer: calling one says so. */
const UNSUPPORTED = [
  "authorizationUrl",
  "callbackParams",
  "endSessionUrl",
  "introspect",
  "revoke",
  "requestResource",
  "deviceAuthorization",
  "pushedAuthorizationRequest",
  "requestObject",
] as const

/** The stand-in for openid-client's Client that v4 hooks receive. */
export function v4Client(setup: ClientSetup): V4Client {
  const metadata: Record<string, unknown> = {
    client_id: setup.clientId,
    ...(setup.clientSecret === undefined ? {} : { client_secret: setup.clientSecret }),
    ...(setup.callbackUrl ? { redirect_uris: [setup.callbackUrl] } : {}),
    token_endpoint_auth_method: "client_secret_basic",
    ...setup.client,
  }
  const tokenRequest = async (body: Record<string, string>): Promise<V4TokenSet> => {
    if (!setup.tokenUrl)
      throw new OAuthCallbackError("The provider has no token endpoint for the hook's token request.")
    const form = new URLSearchParams(body)
    const headers: Record<string, string> = {
      accept: "application/json",
      "content-type": "application/x-www-form-urlencoded;charset=UTF-8",
    }
    const method = metadata.token_endpoint_auth_method
    if (method === "client_secret_basic") {
      headers.authorization = `Basic ${toBase64(`${formEncode(setup.clientId)}:${formEncode(setup.clientSecret ?? "")}`)}`
    } else if (method === "client_secret_post") {
      form.set("client_id", setup.clientId)
      if (setup.clientSecret !== undefined) form.set("client_secret", setup.clientSecret)
    } else if (method === "none") {
      form.set("client_id", setup.clientId)
    } else {
      throw new OAuthCallbackError(
        `The v4 client stand-in authenticates with client_secret_basic, client_secret_post or none, not "${String(method)}".`,
      )
    }
    const response = await setup.fetch(setup.tokenUrl, { method: "POST", headers, body: form })
    const answer: unknown = await response.json().catch(() => undefined)
    if (typeof answer !== "object" || answer === null || Array.isArray(answer))
      throw new OAuthCallbackError(`The token endpoint answered ${response.status} without a JSON object.`)
    const error = (answer as { error?: unknown }).error
    if (!response.ok || error !== undefined)
      throw new OAuthCallbackError(
        `The token endpoint answered ${response.status}${typeof error === "string" ? `: ${error}` : ""}.`,
      )
    return v4TokenSet(answer as Record<string, unknown>)
  }
  const exchange = (
    redirectUri: string | undefined,
    parameters: Record<string, unknown>,
    checks: OAuthChecks = {},
    extras: { exchangeBody?: Record<string, unknown> } = {},
  ): Promise<V4TokenSet> => {
    const code = parameters.code
    if (typeof code !== "string") throw new OAuthCallbackError("The callback carries no authorization code.")
    return tokenRequest({
      ...stringFields(extras.exchangeBody),
      grant_type: "authorization_code",
      code,
      ...(redirectUri ? { redirect_uri: redirectUri } : {}),
      ...(checks.code_verifier ? { code_verifier: checks.code_verifier } : {}),
    })
  }
  const client: V4Client = {
    metadata,
    issuer: {
      metadata: {
        ...(setup.issuer ? { issuer: setup.issuer } : {}),
        ...(setup.authorizationUrl ? { authorization_endpoint: setup.authorizationUrl } : {}),
        ...(setup.tokenUrl ? { token_endpoint: setup.tokenUrl } : {}),
        ...(setup.userinfoUrl ? { userinfo_endpoint: setup.userinfoUrl } : {}),
      },
    },
    oauthCallback: exchange,
    callback: exchange,
    grant: (body) => tokenRequest(stringFields(body)),
    refresh: (refreshToken) => {
      const token = typeof refreshToken === "string" ? refreshToken : refreshToken.refresh_token
      if (typeof token !== "string") throw new OAuthCallbackError("refresh() needs a refresh token.")
      return tokenRequest({ grant_type: "refresh_token", refresh_token: token })
    },
    async userinfo(accessToken, options = {}) {
      if (!setup.userinfoUrl) throw new OAuthCallbackError("The provider has no userinfo endpoint for the hook.")
      const token = typeof accessToken === "string" ? accessToken : accessToken.access_token
      const url = new URL(setup.userinfoUrl)
      for (const [key, value] of Object.entries(stringFields(options.params))) url.searchParams.set(key, value)
      const response = await setup.fetch(url.href, {
        headers: { accept: "application/json", authorization: `Bearer ${String(token)}` },
      })
      const profile: unknown = await response.json().catch(() => undefined)
      if (!response.ok || typeof profile !== "object" || profile === null || Array.isArray(profile))
        throw new OAuthCallbackError(`The userinfo endpoint answered ${response.status} without a JSON object.`)
      return profile as Record<string, unknown>
    },
  }
  for (const name of UNSUPPORTED) {
    Object.defineProperty(client, name, {
      enumerable: false,
      value: () => {
        throw new TypeError(
          `client.${name}() is an openid-client method that Gatehouse's v4 hook client does not offer (see docs/migration.md, "From next-auth v4").`,
        )
      },
    })
  }
  return client
}
