// Kinde (OpenID Connect): the business domain is the issuer (required); endpoints come from discovery.
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The claims of a Kinde ID token (scopes openid, profile, email). */
export interface KindeProfile {
  iss: string
  sub: string
  aud: string[] | string
  exp: number
  iat: number
  at_hash?: string
  auth_time?: number
  azp?: string
  jti?: string
  org_codes?: string[]
  email?: string
  email_verified?: boolean
  name?: string
  given_name?: string
  family_name?: string
  picture: string
  updated_at?: number
  [claim: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * Kinde sign-in. Callback URL to register (Allowed callback URLs): `<origin><basePath>/callback/kinde`.
 * Env: AUTH_KINDE_ID, AUTH_KINDE_SECRET, AUTH_KINDE_ISSUER (e.g. `https://my-business.kinde.com`).
 */
export default function Kinde(options: OIDCUserConfig<KindeProfile> = {}): OAuthConfigBase<KindeProfile> {
  return {
    id: "kinde",
    name: "Kinde",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    checks: ["state", "pkce"],
    profile(profile) {
      const parts = [profile.given_name, profile.family_name].filter((x) => x).join(" ")
      return {
        id: profile.sub,
        name: profile.name ?? (parts || null),
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }
    },
    style: {
      // A "K", drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%230f0f0f' stroke-width='3'%3E%3Cpath d='M7 3v18M18 3l-9 9 9 9'/%3E%3C/svg%3E",
      bg: "#fff",
      text: "#0f0f0f",
    },
    options,
  }
}
export { Kinde }
