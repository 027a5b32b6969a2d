// Keycloak (OpenID Connect, self-hosted): the realm's issuer is required; endpoints come from its discovery document.
import { standardClaimsUser } from "./oidc-claims.js"
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The claims of a Keycloak ID token (the standard ones a realm sends with `openid profile email`). */
export interface KeycloakProfile {
  iss: string
  sub: string
  aud: string
  exp: number
  iat: number
  azp: string
  email: string
  email_verified: boolean
  name: string
  preferred_username: string
  given_name: string
  family_name: string
  picture: string
  [claim: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * Keycloak sign-in. Callback URL to register on the client: `<origin><basePath>/callback/keycloak`.
 * Env: AUTH_KEYCLOAK_ID, AUTH_KEYCLOAK_SECRET, AUTH_KEYCLOAK_ISSUER (the realm URL, e.g.
 * `https://keycloak.example.com/realms/my-realm`, no trailing slash).
 */
export default function Keycloak<P extends KeycloakProfile>(options: OIDCUserConfig<P> = {}): OAuthConfigBase<P> {
  return {
    id: "keycloak",
    name: "Keycloak",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    checks: ["pkce"],
    profile: standardClaimsUser,
    style: {
      // A hexagon with two chevrons, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%23fff' stroke-width='2' stroke-linejoin='round'%3E%3Cpath d='M7 3h10l5 9-5 9H7l-5-9z'/%3E%3Cpath d='M10 8l-3 4 3 4M14 8l3 4-3 4'/%3E%3C/svg%3E",
      bg: "#2a6496",
      text: "#fff",
      brandColor: "#428bca",
    },
    options,
  }
}
export { Keycloak }
