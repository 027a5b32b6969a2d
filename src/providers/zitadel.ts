// ZITADEL (OpenID Connect): the instance domain is the issuer (required); endpoints come from discovery.
import { standardClaimsUser } from "./oidc-claims.js"
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The claims of a ZITADEL ID token (standard claims; ZITADEL adds `urn:zitadel:iam:*` ones on request). */
export interface ZitadelProfile {
  iss: string
  sub: string
  aud: string[] | string
  exp: number
  iat: number
  auth_time: number
  amr?: string[]
  azp: string
  email: string
  email_verified: boolean
  name: string
  given_name: string
  family_name: string
  preferred_username: string
  nickname?: string
  gender: string
  locale: string
  phone_number?: string
  phone_number_verified?: boolean
  picture: string
  updated_at?: number
  [claim: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * ZITADEL sign-in. Callback URL to register (Redirect URIs): `<origin><basePath>/callback/zitadel`.
 * Env: AUTH_ZITADEL_ID, AUTH_ZITADEL_SECRET, AUTH_ZITADEL_ISSUER (e.g. `https://my-instance.zitadel.cloud`).
 */
export default function ZITADEL<P extends ZitadelProfile>(options: OIDCUserConfig<P> = {}): OAuthConfigBase<P> {
  return {
    id: "zitadel",
    name: "ZITADEL",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    checks: ["pkce"],
    profile: standardClaimsUser,
    style: {
      // A triangle, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath d='M12 3l9 17H3z' fill='none' stroke='%23ff8f69' stroke-width='2.5' stroke-linejoin='round'/%3E%3C/svg%3E",
      bg: "#0f1013",
      text: "#fff",
    },
    options,
  }
}
export { ZITADEL }
