// Logto (OpenID Connect): the tenant's OIDC issuer (`<endpoint>/oidc`) is required; endpoints come from discovery.
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The claims of a Logto ID token (scopes openid, profile, email). */
export interface LogtoProfile {
  iss: string
  sub: string
  aud: string
  exp: number
  iat: number
  at_hash?: string
  name: string
  username: string
  picture: string
  email: string
  email_verified: boolean
  phone_number: string
  phone_number_verified: boolean
  address: string
  custom_data: object
  identities: object
  sso_identities: object[]
  organizations: string[]
  organization_data: object[]
  organization_roles: string[]
  [claim: string]: unknown
}

/**
 * Logto sign-in. Callback URL to register (Redirect URIs): `<origin><basePath>/callback/logto`.
 * Env: AUTH_LOGTO_ID, AUTH_LOGTO_SECRET, AUTH_LOGTO_ISSUER (e.g. `https://my-tenant.logto.app/oidc`).
 * `offline_access` is in the scope, so Logto returns a refresh token.
 */
export default function Logto(options: OIDCUserConfig<LogtoProfile> = {}): OAuthConfigBase<LogtoProfile> {
  return {
    id: "logto",
    name: "Logto",
    type: "oidc",
    authorization: { params: { scope: "offline_access openid email profile" } },
    checks: ["pkce"],
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? profile.username ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }
    },
    style: {
      // A rounded square with a diagonal, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%23fff' stroke-width='2.5'%3E%3Crect x='4' y='4' width='16' height='16' rx='4'/%3E%3Cpath d='M9 15l6-6'/%3E%3C/svg%3E",
      bg: "#5d34f2",
      text: "#fff",
    },
    options,
  }
}
export { Logto }
