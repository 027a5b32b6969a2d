// SimpleLogin by Proton (OpenID Connect): issuer https://app.simplelogin.io.
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The claims SimpleLogin returns for the openid, profile and email scopes. */
export interface SimpleLoginProfile {
  sub: string
  client: string
  email: string
  email_verified: boolean
  name: string
  avatar_url?: string
  id: number
  [claim: string]: unknown
}

/**
 * SimpleLogin sign-in. Authorized redirect URI to add on the app: `<origin><basePath>/callback/simplelogin`.
 * Env: AUTH_SIMPLELOGIN_ID, AUTH_SIMPLELOGIN_SECRET.
 */
export default function SimpleLogin<P extends SimpleLoginProfile>(options: OIDCUserConfig<P> = {}): OAuthConfigBase<P> {
  return {
    id: "simplelogin",
    name: "SimpleLogin",
    type: "oidc",
    issuer: "https://app.simplelogin.io",
    authorization: { params: { scope: "openid profile email" } },
    checks: ["pkce"],
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: profile.avatar_url ?? null,
      }
    },
    style: {
      // An envelope with a mask-like fold, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%23fff' stroke-width='2' stroke-linejoin='round'%3E%3Crect x='3' y='5' width='18' height='14' rx='2'/%3E%3Cpath d='M3 7l9 6 9-6'/%3E%3C/svg%3E",
      bg: "#c2105a",
      text: "#fff",
      brandColor: "#e3156a",
    },
    options,
  }
}
export { SimpleLogin }
