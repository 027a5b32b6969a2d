// OneLogin (OpenID Connect v2): the account's issuer is required (`https://<subdomain>.onelogin.com/oidc/2`).
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The claims of a OneLogin ID token (`openid profile email`; OneLogin adds `groups`, `params` when configured). */
export interface OneLoginProfile {
  iss: string
  sub: string
  aud: string
  exp: number
  iat: number
  name?: string
  preferred_username?: string
  given_name?: string
  family_name?: string
  email?: string
  updated_at?: number
  groups?: string[]
  [claim: string]: unknown
}

/**
 * OneLogin sign-in. Redirect URI to register on the OIDC app: `<origin><basePath>/callback/onelogin`.
 * Env: AUTH_ONELOGIN_ID, AUTH_ONELOGIN_SECRET, AUTH_ONELOGIN_ISSUER. The `issuer` option (or the env value, through
 * setEnvDefaults) may be the account URL `https://<subdomain>.onelogin.com`: it is completed with `/oidc/2`, the issuer
 * OneLogin publishes in its discovery document and ID tokens.
 */
export default function OneLogin(options: OIDCUserConfig<OneLoginProfile> = {}): OAuthConfigBase<OneLoginProfile> {
  const issuer = options.issuer?.replace(/\/+$/, "")
  const userOptions = issuer && /^https:\/\/[^/]+$/.test(issuer) ? { ...options, issuer: `${issuer}/oidc/2` } : options
  return {
    id: "onelogin",
    name: "OneLogin",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    checks: ["pkce"],
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? profile.preferred_username ?? null,
        email: profile.email ?? null,
        image: null,
      }
    },
    style: {
      // A "1" in a circle, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%23fff' stroke-width='2'%3E%3Ccircle cx='12' cy='12' r='9'/%3E%3Cpath d='M10 9l2-1.5V17'/%3E%3C/svg%3E",
      bg: "#1c1f2a",
      text: "#fff",
    },
    options: userOptions,
  }
}
export { OneLogin }
