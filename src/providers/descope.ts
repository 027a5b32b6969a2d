// Descope (OpenID Connect): the issuer is https://api.descope.com/<project id>, the project id being the client id.
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The claims of a Descope ID token (standard OIDC claims plus Descope's own). */
export interface DescopeProfile {
  sub: string
  iss?: string
  email: string
  email_verified: boolean
  name: string
  given_name?: string
  family_name?: string
  picture: string
  phone_number: string
  phone_number_verified: boolean
  [claim: string]: unknown
}

/**
 * Descope sign-in. Callback URL to register: `<origin><basePath>/callback/descope`.
 * Env: AUTH_DESCOPE_ID (the Descope project id), AUTH_DESCOPE_SECRET (an access key); AUTH_DESCOPE_ISSUER optional
 * (default `https://api.descope.com/<project id>`).
 */
export default function Descope(options: OIDCUserConfig<DescopeProfile> = {}): OAuthConfigBase<DescopeProfile> {
  const issuer = options.issuer ?? (options.clientId ? `https://api.descope.com/${options.clientId}` : undefined)
  return {
    id: "descope",
    name: "Descope",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    checks: ["pkce", "state"],
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }
    },
    style: {
      // A key with a round bow, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%23fff' stroke-width='2' stroke-linecap='round'%3E%3Ccircle cx='8' cy='12' r='4'/%3E%3Cpath d='M12 12h9M18 12v3M21 12v3'/%3E%3C/svg%3E",
      bg: "#1c1c23",
      text: "#fff",
    },
    options: issuer ? { ...options, issuer } : options,
  }
}
export { Descope }
