// Auth0 (OpenID Connect): the tenant domain is the issuer (required); endpoints come from discovery.
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The claims of an Auth0 ID token (standard claims plus the ones Auth0 adds for the connection). */
export interface Auth0Profile {
  iss: string
  sub: string
  aud: string
  exp: number
  iat: number
  sid?: string
  email: string
  email_verified: boolean
  name: string
  nickname: string
  given_name: string
  family_name: string
  picture: string
  updated_at?: string
  [claim: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * Auth0 sign-in. Callback URL to register (Allowed Callback URLs): `<origin><basePath>/callback/auth0`.
 * Env: AUTH_AUTH0_ID, AUTH_AUTH0_SECRET, AUTH_AUTH0_ISSUER (e.g. `https://my-tenant.eu.auth0.com`).
 */
export default function Auth0(options: OIDCUserConfig<Auth0Profile> = {}): OAuthConfigBase<Auth0Profile> {
  return {
    id: "auth0",
    name: "Auth0",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    checks: ["pkce"],
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? profile.nickname ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }
    },
    style: {
      // A four-pointed star, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath fill='%23000' d='M12 2l2.6 7.4L22 12l-7.4 2.6L12 22l-2.6-7.4L2 12l7.4-2.6z'/%3E%3C/svg%3E",
      bg: "#eb5424",
      text: "#000",
    },
    options,
  }
}
export { Auth0 }
