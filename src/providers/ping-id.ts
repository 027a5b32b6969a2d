// Ping Identity (OpenID Connect, PingOne): the environment's issuer is required; endpoints come from discovery.
import { standardClaimsUser, type StandardIdTokenClaims } from "./oidc-claims.js"
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The claims of a PingOne ID token (`openid profile email`): the standard ones, PingOne's own (`env`, `org`, `p1.region`), any others. */
export interface PingProfile extends StandardIdTokenClaims {
  acr: string
  amr: [string]
  auth_time: number
  at_hash: string
  sid: string
  preferred_username: string
  given_name: string
  family_name: string
  name: string
  email: string
  picture: string
  updated_at: number
  env: string
  org: string
  "p1.region": string
  [claim: string]: any // `any`, as in Auth.js: other claims read untyped
}

/**
 * Ping Identity sign-in. Redirect URI to register on the client: `<origin><basePath>/callback/ping-id`.
 * Env: AUTH_PING_ID_ID, AUTH_PING_ID_SECRET, AUTH_PING_ID_ISSUER (e.g. `https://auth.pingone.com/<environment id>/as`).
 */
export default function PingId(options: OIDCUserConfig<PingProfile> = {}): OAuthConfigBase<PingProfile> {
  return {
    id: "ping-id",
    name: "Ping Identity",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    checks: ["pkce"],
    profile: standardClaimsUser,
    style: {
      // A dot in a ring, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Ccircle cx='12' cy='12' r='8' fill='none' stroke='%23fff' stroke-width='2'/%3E%3Ccircle cx='12' cy='12' r='3' fill='%23fff'/%3E%3C/svg%3E",
      bg: "#b3282d",
      text: "#fff",
    },
    options,
  }
}
export { PingId }
