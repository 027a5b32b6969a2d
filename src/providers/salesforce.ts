// Salesforce (OpenID Connect): issuer login.salesforce.com (or a My Domain / sandbox issuer), profile from userinfo.
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The Salesforce userinfo response (the fields Gatehouse reads; Salesforce sends more). */
export interface SalesforceProfile {
  sub: string
  user_id?: string
  organization_id?: string
  name?: string
  preferred_username?: string
  email: string
  email_verified?: boolean
  picture: string
  nickname: string
  [claim: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * Salesforce sign-in. Callback URL to register: `<origin><basePath>/callback/salesforce`.
 * Env: AUTH_SALESFORCE_ID (consumer key), AUTH_SALESFORCE_SECRET (consumer secret). For a sandbox pass
 * `issuer: "https://test.salesforce.com"`, or your My Domain URL (default https://login.salesforce.com).
 */
export default function Salesforce(
  options: OIDCUserConfig<SalesforceProfile> = {},
): OAuthConfigBase<SalesforceProfile> {
  return {
    id: "salesforce",
    name: "Salesforce",
    type: "oidc",
    issuer: "https://login.salesforce.com",
    // The ID token is checked, but the profile comes from userinfo (it carries the picture and the e-mail).
    idToken: false,
    checks: ["pkce", "state", "nonce"],
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }
    },
    style: {
      // A cloud, drawn for Gatehouse. Salesforce's blue darkened (from #00a1e0) so white text meets 4.5:1.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath fill='%23fff' d='M7 18.5a4.2 4.2 0 0 1-.7-8.3a5.2 5.2 0 0 1 9.6-1.8a4.6 4.6 0 1 1 1.8 10.1z'/%3E%3C/svg%3E",
      bg: "#0b5cab",
      text: "#fff",
    },
    options,
  }
}
export { Salesforce }
