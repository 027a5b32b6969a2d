// Passage by 1Password (OpenID Connect): the issuer is the app's, https://auth.passage.id/v1/apps/<app id>.
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The claims of a Passage ID token. */
export interface PassageProfile {
  iss: string
  sub: string
  aud: string | string[]
  exp: number
  iat: number
  email: string
  email_verified: boolean
  phone_number?: string
  phone_number_verified: boolean
  auth_time: number
  azp: string
  client_id: string
  at_hash: string
  c_hash: string
  phone: string
  [claim: string]: unknown
}

/**
 * Passage sign-in. Callback URL to register on the OIDC client: `<origin><basePath>/callback/passage`.
 * Env: AUTH_PASSAGE_ID, AUTH_PASSAGE_SECRET, AUTH_PASSAGE_ISSUER (`https://auth.passage.id/v1/apps/<app id>`).
 * The client authenticates with HTTP Basic (client_secret_basic).
 */
export default function Passage(options: OIDCUserConfig<PassageProfile> = {}): OAuthConfigBase<PassageProfile> {
  return {
    id: "passage",
    name: "Passage",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    client: { token_endpoint_auth_method: "client_secret_basic" },
    checks: ["pkce"],
    profile(profile) {
      const name = typeof profile.name === "string" ? profile.name : null
      return { id: profile.sub, name, email: profile.email ?? null, image: null }
    },
    style: {
      // A doorway with a passage arrow, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%23fff' stroke-width='2' stroke-linecap='round' stroke-linejoin='round'%3E%3Cpath d='M4 21V4h9v17M13 12h7M17 9l3 3-3 3'/%3E%3C/svg%3E",
      bg: "#3d53f6",
      text: "#fff",
    },
    options,
  }
}
export { Passage }
