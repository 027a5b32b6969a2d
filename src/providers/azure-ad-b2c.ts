// Azure AD B2C (OpenID Connect): the user flow's issuer is required; endpoints come from its discovery document.
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The claims of an Azure AD B2C ID token (those a user flow returns; `emails` when "Email Addresses" is selected). */
export interface AzureADB2CProfile {
  iss: string
  sub: string
  aud: string
  exp: number
  iat: number
  nbf: number
  auth_time: number
  /** The user flow (policy) that issued the token. */
  tfp: string
  oid: string
  name: string
  given_name?: string
  family_name?: string
  preferred_username: string
  emails: string[]
  idp?: string
  ver: string
  country: string
  postalCode: string
  [claim: string]: unknown
}

/**
 * Azure AD B2C sign-in. Redirect URI to register: `<origin><basePath>/callback/azure-ad-b2c`.
 * Env: AUTH_AZURE_AD_B2C_ID, AUTH_AZURE_AD_B2C_SECRET, AUTH_AZURE_AD_B2C_ISSUER (the `issuer` of the user flow's
 * metadata, e.g. `https://<tenant>.b2clogin.com/<tenant id>/v2.0/`; its discovery URL may be given as `wellKnown`).
 */
export default function AzureADB2C(
  options: OIDCUserConfig<AzureADB2CProfile> = {},
): OAuthConfigBase<AzureADB2CProfile> {
  return {
    id: "azure-ad-b2c",
    name: "Azure AD B2C",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    checks: ["pkce"],
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? profile.preferred_username ?? null,
        email: profile.emails?.[0] ?? null,
        image: null,
      }
    },
    style: {
      // Four squares around a person, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='%23fff'%3E%3Cpath d='M3 3h8v8H3zM13 3h8v8h-8zM3 13h8v8H3z'/%3E%3Ccircle cx='17' cy='15' r='2'/%3E%3Cpath d='M13 21a4 3 0 0 1 8 0z'/%3E%3C/svg%3E",
      bg: "#0072c6",
      text: "#fff",
    },
    options,
  }
}
export { AzureADB2C }
