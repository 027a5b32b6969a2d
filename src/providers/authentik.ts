// authentik (OpenID Connect, self-hosted): the application's issuer (with its slug) is required; discovery gives the rest.
import { standardClaimsUser } from "./oidc-claims.js"
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The claims of an authentik ID token (scopes openid, profile, email). */
export interface AuthentikProfile {
  iss: string
  sub: string
  aud: string
  exp: number
  iat: number
  auth_time: number
  acr: string
  email: string
  email_verified: boolean
  name: string
  given_name: string
  family_name: string
  preferred_username: string
  nickname: string
  groups: string[]
  picture?: string
  [claim: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * authentik sign-in. Callback URL to register (Redirect URIs): `<origin><basePath>/callback/authentik`.
 * Env: AUTH_AUTHENTIK_ID, AUTH_AUTHENTIK_SECRET, AUTH_AUTHENTIK_ISSUER
 * (`https://authentik.example.com/application/o/<slug>`, no trailing slash).
 */
export default function Authentik<P extends AuthentikProfile>(options: OIDCUserConfig<P> = {}): OAuthConfigBase<P> {
  return {
    id: "authentik",
    name: "Authentik",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    checks: ["pkce"],
    profile: standardClaimsUser,
    style: {
      // An open circle with a dot, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath d='M4 16a8 8 0 1 1 16 0' fill='none' stroke='%23000' stroke-width='3'/%3E%3Ccircle cx='12' cy='16' r='3' fill='%23000'/%3E%3C/svg%3E",
      bg: "#fd4b2d",
      text: "#000",
    },
    options,
  }
}
export { Authentik }
