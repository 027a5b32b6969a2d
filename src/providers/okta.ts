// Okta (OpenID Connect): the org or custom authorization server issuer is required; endpoints come from discovery.
import { standardClaimsUser } from "./oidc-claims.js"
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The claims of an Okta ID token (standard claims; Okta adds its own, such as `ver`, `idp`, `amr`). */
export interface OktaProfile {
  iss: string
  sub: string
  aud: string
  exp: number
  iat: number
  email: string
  email_verified?: boolean
  name: string
  preferred_username: string
  given_name: string
  family_name: string
  zoneinfo: string
  locale: string
  picture: string
  ver?: number
  idp: string
  amr?: string[]
  auth_time?: number
  [claim: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * Okta sign-in. Callback URL to register (Sign-in redirect URI): `<origin><basePath>/callback/okta`.
 * Env: AUTH_OKTA_ID, AUTH_OKTA_SECRET, AUTH_OKTA_ISSUER (e.g. `https://dev-123.okta.com` or
 * `https://dev-123.okta.com/oauth2/default` for a custom authorization server).
 */
export default function Okta<P extends OktaProfile>(options: OIDCUserConfig<P> = {}): OAuthConfigBase<P> {
  return {
    id: "okta",
    name: "Okta",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    checks: ["pkce", "state"],
    profile: standardClaimsUser,
    style: {
      // A ring, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Ccircle cx='12' cy='12' r='7' fill='none' stroke='%23fff' stroke-width='4'/%3E%3C/svg%3E",
      bg: "#000",
      text: "#fff",
    },
    options,
  }
}
export { Okta }
