// Duende IdentityServer 6+ (OpenID Connect, self-hosted): the server's issuer is required; endpoints come from discovery.
import { standardClaimsUser, type StandardIdTokenClaims } from "./oidc-claims.js"
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The standard claims of a Duende IdentityServer ID token (`openid profile email`). */
export type DuendeISUser = StandardIdTokenClaims

/**
 * Duende IdentityServer sign-in. Redirect URI to register on the client: `<origin><basePath>/callback/duende-identity-server6`.
 * Env: AUTH_DUENDE_IDENTITY_SERVER6_ID, AUTH_DUENDE_IDENTITY_SERVER6_SECRET, AUTH_DUENDE_IDENTITY_SERVER6_ISSUER (the server's base URL, e.g. `https://demo.duendesoftware.com`).
 */
export default function DuendeIdentityServer6<P extends DuendeISUser>(
  options: OIDCUserConfig<P> = {},
): OAuthConfigBase<P> {
  return {
    id: "duende-identity-server6",
    name: "DuendeIdentityServer6",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    checks: ["pkce"],
    profile: standardClaimsUser,
    style: {
      // A shield, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath d='M12 2l8 3v6c0 5-3.5 9-8 11-4.5-2-8-6-8-11V5z' fill='none' stroke='%23fff' stroke-width='2' stroke-linejoin='round'/%3E%3C/svg%3E",
      bg: "#1a1a2e",
      text: "#fff",
    },
    options,
  }
}
export { DuendeIdentityServer6 }
