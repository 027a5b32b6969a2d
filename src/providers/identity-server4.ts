// IdentityServer4 (OpenID Connect, self-hosted): the server's issuer is required; endpoints come from discovery.
import { standardClaimsUser, type StandardIdTokenClaims } from "./oidc-claims.js"
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The standard claims of a IdentityServer4 ID token (`openid profile email`). */
export type IdentityServer4Profile = StandardIdTokenClaims

/**
 * IdentityServer4 sign-in. Redirect URI to register on the client: `<origin><basePath>/callback/identity-server4`.
 * Env: AUTH_IDENTITY_SERVER4_ID, AUTH_IDENTITY_SERVER4_SECRET, AUTH_IDENTITY_SERVER4_ISSUER (the server's base URL, e.g. `https://identity.example.com`).
 */
export default function IdentityServer4(
  options: OIDCUserConfig<IdentityServer4Profile> = {},
): OAuthConfigBase<IdentityServer4Profile> {
  return {
    id: "identity-server4",
    name: "IdentityServer4",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    checks: ["pkce"],
    profile: standardClaimsUser,
    style: {
      // A key, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cg fill='none' stroke='%23fff' stroke-width='2'%3E%3Ccircle cx='8' cy='12' r='4'/%3E%3Cpath d='M12 12h9M18 12v4M21 12v3'/%3E%3C/g%3E%3C/svg%3E",
      bg: "#00579e",
      text: "#fff",
    },
    options,
  }
}
export { IdentityServer4 }
