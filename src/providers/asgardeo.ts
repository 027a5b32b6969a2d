// Asgardeo (OpenID Connect, WSO2): the organisation's issuer is required; endpoints come from discovery.
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The claims of an Asgardeo ID token (scopes openid, profile, email). */
export interface AsgardeoProfile {
  iss: string
  sub: string
  aud: string
  exp: number
  iat: number
  azp?: string
  org_id?: string
  org_name?: string
  email: string
  email_verified?: boolean
  name?: string
  given_name: string
  family_name?: string
  username?: string
  picture: string
  [claim: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * Asgardeo sign-in. Callback URL to register (Authorized redirect URLs): `<origin><basePath>/callback/asgardeo`.
 * Env: AUTH_ASGARDEO_ID, AUTH_ASGARDEO_SECRET, AUTH_ASGARDEO_ISSUER: the Issuer of the application's Info tab,
 * `https://api.asgardeo.io/t/<org>/oauth2/token`; discovery is `<issuer>/.well-known/openid-configuration`.
 * The organisation URL alone (`https://api.asgardeo.io/t/<org>`, the form Auth.js's docs imply) is accepted as
 * `issuer` too and completed with `/oauth2/token`, the issuer Asgardeo puts in its discovery document and ID tokens.
 */
export default function Asgardeo(options: OIDCUserConfig<AsgardeoProfile> = {}): OAuthConfigBase<AsgardeoProfile> {
  const issuer = options.issuer?.replace(/\/$/, "")
  const userOptions = issuer && /\/t\/[^/]+$/.test(issuer) ? { ...options, issuer: `${issuer}/oauth2/token` } : options
  return {
    id: "asgardeo",
    name: "Asgardeo",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    checks: ["pkce"],
    profile(profile) {
      const parts = [profile.given_name, profile.family_name].filter((x) => x).join(" ")
      return {
        id: profile.sub,
        name: profile.name ?? (parts || profile.username) ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }
    },
    style: {
      // An "A" in orange, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%23ff7300' stroke-width='3' stroke-linejoin='round'%3E%3Cpath d='M4 21L12 3l8 18M8 14h8'/%3E%3C/svg%3E",
      bg: "#000",
      text: "#fff",
    },
    options: userOptions,
  }
}
export { Asgardeo }
