// FusionAuth (OpenID Connect, self-hosted): the instance URL is the issuer (required); a tenant may be selected.
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The claims of a FusionAuth ID token. */
export interface FusionAuthProfile {
  iss: string
  sub: string
  aud: string
  exp: number
  iat: number
  authenticationType: string
  applicationId?: string
  tid?: string
  email: string
  email_verified: boolean
  name?: string
  given_name?: string
  middle_name?: string
  family_name?: string
  preferred_username?: string
  picture?: string
  roles?: string[]
  [claim: string]: any // `any`, as in Auth.js: other fields read untyped
}

/** `tenantId` is needed only when the instance has more than one tenant. */
export interface FusionAuthOptions extends OIDCUserConfig<FusionAuthProfile> {
  tenantId?: string
}

/**
 * FusionAuth sign-in. Callback URL to register (Authorized redirect URLs): `<origin><basePath>/callback/fusionauth`.
 * Env: AUTH_FUSIONAUTH_ID, AUTH_FUSIONAUTH_SECRET, AUTH_FUSIONAUTH_ISSUER (e.g. `https://auth.example.com`).
 * `offline_access` is in the scope, so FusionAuth returns a refresh token when the application allows it.
 */
export default function FusionAuth(options: FusionAuthOptions = {}): OAuthConfigBase<FusionAuthProfile> {
  const { tenantId, ...userOptions } = options
  const issuer = userOptions.issuer?.replace(/\/$/, "")
  return {
    id: "fusionauth",
    name: "FusionAuth",
    type: "oidc",
    // With a tenant, its discovery document (FusionAuth serves one per tenant through ?tenantId=).
    ...(tenantId && issuer
      ? { wellKnown: `${issuer}/.well-known/openid-configuration?tenantId=${encodeURIComponent(tenantId)}` }
      : {}),
    authorization: { params: { scope: "openid offline_access email profile", ...(tenantId ? { tenantId } : {}) } },
    checks: ["pkce", "state"],
    profile(profile) {
      const parts = [profile.given_name, profile.middle_name, profile.family_name].filter((x) => x).join(" ")
      return {
        id: profile.sub,
        name: profile.name ?? profile.preferred_username ?? (parts || null),
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }
    },
    style: {
      // A shield, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath d='M12 2l8 3v6c0 5-3.5 9-8 11-4.5-2-8-6-8-11V5z' fill='%23000'/%3E%3C/svg%3E",
      bg: "#f58320",
      text: "#000",
    },
    options: userOptions,
  }
}
export { FusionAuth }
