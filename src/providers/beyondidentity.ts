// Beyond Identity (OpenID Connect, passwordless): the issuer is the application's URL on its tenant and realm.
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The claims of a Beyond Identity ID token. */
export interface BeyondIdentityProfile {
  sub: string
  email: string
  name: string
  preferred_username: string
  [claim: string]: unknown
}

/**
 * Beyond Identity sign-in. Callback URL to register on the application: `<origin><basePath>/callback/beyondidentity`.
 * Env: AUTH_BEYONDIDENTITY_ID, AUTH_BEYONDIDENTITY_SECRET, AUTH_BEYONDIDENTITY_ISSUER (the application's issuer,
 * `https://auth-<region>.beyondidentity.com/v1/tenants/<tenant>/realms/<realm>/applications/<app>`).
 */
export default function BeyondIdentity(
  options: OIDCUserConfig<BeyondIdentityProfile> = {},
): OAuthConfigBase<BeyondIdentityProfile> {
  return {
    id: "beyondidentity",
    name: "Beyond Identity",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    checks: ["pkce"],
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? profile.preferred_username ?? null,
        email: profile.email ?? null,
        image: null,
        preferred_username: profile.preferred_username,
      }
    },
    style: {
      // A fingerprint-like set of arcs, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%23fff' stroke-width='2' stroke-linecap='round'%3E%3Cpath d='M5 16a7 7 0 0 1 14 0M8 18a4 4 0 0 1 8 0M12 19v-2M7 9a7 7 0 0 1 10 0'/%3E%3C/svg%3E",
      bg: "#3b62b0",
      text: "#fff",
    },
    options,
  }
}
export { BeyondIdentity }
