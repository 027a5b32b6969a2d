// Vipps MobilePay Login (OpenID Connect): issuer https://api.vipps.no/access-management-1.0/access/, profile from userinfo.
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The userinfo Vipps Login returns for the openid, name and email scopes (more with address, phoneNumber, ...). */
export interface VippsProfile {
  sub: string
  name: string
  given_name: string
  family_name: string
  email: string
  email_verified: boolean
  phone_number: string
  sid: string
  [claim: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * Vipps sign-in. Redirect URI to register in the Vipps portal: `<origin><basePath>/callback/vipps`.
 * Env: AUTH_VIPPS_ID, AUTH_VIPPS_SECRET. For the test environment pass
 * `issuer: "https://apitest.vipps.no/access-management-1.0/access/"`.
 */
export default function Vipps(options: OIDCUserConfig<VippsProfile> = {}): OAuthConfigBase<VippsProfile> {
  return {
    id: "vipps",
    name: "Vipps",
    type: "oidc",
    issuer: "https://api.vipps.no/access-management-1.0/access/",
    authorization: { params: { scope: "openid name email" } },
    idToken: false,
    checks: ["pkce", "state", "nonce"],
    profile(profile) {
      const name = profile.name ?? ([profile.given_name, profile.family_name].filter(Boolean).join(" ") || null)
      return { id: profile.sub, name, email: profile.email ?? null, image: null }
    },
    style: {
      // A stylised smile under two dots, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%23000' stroke-width='2.2' stroke-linecap='round'%3E%3Cpath d='M5 13c3 5 11 5 14 0'/%3E%3Ccircle cx='15' cy='8' r='1.2' fill='%23000'/%3E%3C/svg%3E",
      bg: "#ff5b24",
      text: "#000",
    },
    options,
  }
}
export { Vipps }
