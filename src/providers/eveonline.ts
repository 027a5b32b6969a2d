// EVE Online (EVE SSO v2, OAuth 2): the character read from the JWT access token, checked against SSO's JWKS; state only.
import { fromBase64Url, fromUtf8, utf8, verifyJws } from "#crypto"
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The character the token was issued for, in the shape of SSO v1's `/oauth/verify` body (built from the v2 JWT). */
export interface EVEOnlineProfile {
  CharacterID: number
  CharacterName: string
  ExpiresOn: string
  Scopes: string
  TokenType: string
  CharacterOwnerHash: string
  IntellectualProperty: string
  [key: string]: any // `any`, as in Auth.js: other fields read untyped
}

const SSO = "https://login.eveonline.com"
/** EVE SSO writes `iss` with or without the scheme. */
const ISSUERS = new Set([SSO, "login.eveonline.com"])
const b64json = (part: string | undefined): Record<string, unknown> =>
  JSON.parse(fromUtf8(fromBase64Url(part ?? ""))) as Record<string, unknown>

/**
 * The v2 access token is an RS256 JWT; SSO v2 retired `/oauth/verify` and asks clients to check the token against
 * `<SSO>/oauth/jwks`. Checks signature, issuer, audience (the client id) and expiry, then returns the v1 verify shape.
 * @see https://docs.esi.evetech.net/docs/sso/validating_eve_jwt.html
 */
async function characterFromToken(
  token: string,
  clientId: string | undefined,
  fetch: typeof globalThis.fetch,
  jwksUrl: string,
): Promise<EVEOnlineProfile> {
  const [h, p, sig] = token.split(".")
  const header = b64json(h)
  const jwks = (await (await fetch(jwksUrl)).json()) as { keys?: (JsonWebKey & { kid?: string; alg?: string })[] }
  const jwk = jwks.keys?.find((k) => k.kid === header.kid && k.kty === "RSA")
  if (header.alg !== "RS256" || !jwk || !sig)
    throw new Error("EVE SSO access token: no RS256 key in the JWKS for its kid")
  if (!(await verifyJws("RS256", jwk, utf8(`${h}.${p}`), fromBase64Url(sig))))
    throw new Error("EVE SSO access token: bad signature")
  const claims = b64json(p)
  const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud]
  if (!ISSUERS.has(String(claims.iss))) throw new Error(`EVE SSO access token: unexpected issuer ${String(claims.iss)}`)
  if (clientId && !aud.includes(clientId)) throw new Error("EVE SSO access token: not issued to this client")
  if (typeof claims.exp !== "number" || claims.exp * 1000 < Date.now()) throw new Error("EVE SSO access token: expired")
  const sub = typeof claims.sub === "string" ? /^CHARACTER:EVE:(\d+)$/.exec(claims.sub)?.[1] : undefined
  return {
    CharacterID: sub ? Number(sub) : (undefined as unknown as number),
    CharacterName: String(claims.name ?? ""),
    ExpiresOn: new Date(claims.exp * 1000).toISOString(),
    Scopes: Array.isArray(claims.scp) ? claims.scp.join(" ") : String(claims.scp ?? ""),
    TokenType: "Character",
    CharacterOwnerHash: String(claims.owner ?? ""),
    IntellectualProperty: "EVE",
  }
}

/**
 * EVE Online sign-in. Callback URL to register: `<origin><basePath>/callback/eveonline`.
 * Env: AUTH_EVEONLINE_ID, AUTH_EVEONLINE_SECRET. EVE shares no e-mail address; the image is the character portrait.
 */
export default function EVEOnline<P extends EVEOnlineProfile>(options: OAuthUserConfig<P> = {}): OAuthConfigBase<P> {
  return {
    id: "eveonline",
    name: "EVE Online",
    type: "oauth",
    authorization: { url: `${SSO}/v2/oauth/authorize`, params: { scope: "publicData" } },
    token: `${SSO}/v2/oauth/token`,
    userinfo: {
      // The JWKS the access token is checked against (the token itself carries the character).
      url: `${SSO}/oauth/jwks`,
      request: ({ tokens, provider, fetch, url }) =>
        characterFromToken(String(tokens.access_token), provider.clientId, fetch, url),
    },
    checks: ["state"],
    profile(profile) {
      const id = profile.CharacterID != null ? String(profile.CharacterID) : ""
      return {
        id,
        name: profile.CharacterName ?? null,
        email: null,
        image: id ? `https://images.evetech.net/characters/${id}/portrait?size=128` : null,
      }
    },
    style: {
      // A ring with a horizon line, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Ccircle cx='12' cy='12' r='8.5' fill='none' stroke='%23fff' stroke-width='2.5'/%3E%3Cpath fill='%23fff' d='M2 11h20v2H2z'/%3E%3C/svg%3E",
      bg: "#000",
      text: "#fff",
    },
    options,
  }
}
export { EVEOnline }
