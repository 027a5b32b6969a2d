// Roblox (OpenID Connect): issuer apis.roblox.com/oauth/, PKCE and state, the profile from the ID token's claims.
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The claims of a Roblox ID token with the `profile` scope (Roblox shares no e-mail address). */
export interface RobloxProfile {
  iss: string
  sub: string
  aud: string
  exp: number
  iat: number
  nonce?: string
  name: string
  nickname: string
  preferred_username: string
  created_at: number
  profile: string
  picture: string | null
  [claim: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * Roblox sign-in. Callback URL to register: `<origin><basePath>/callback/roblox`.
 * Env: AUTH_ROBLOX_ID, AUTH_ROBLOX_SECRET.
 */
export default function Roblox(options: OIDCUserConfig<RobloxProfile> = {}): OAuthConfigBase<RobloxProfile> {
  return {
    id: "roblox",
    name: "Roblox",
    type: "oidc",
    issuer: "https://apis.roblox.com/oauth/",
    authorization: { params: { scope: "openid profile" } },
    checks: ["pkce", "state"],
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? profile.nickname ?? profile.preferred_username ?? null,
        email: null,
        image: profile.picture ?? null,
      }
    },
    style: {
      // A tilted square with a square hole, drawn for Gatehouse: white on Roblox's dark grey.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath fill='%23fff' fill-rule='evenodd' d='M6.3 2L22 6.3L17.7 22L2 17.7zM10.6 9.6l-1 3.8l3.8 1l1-3.8z'/%3E%3C/svg%3E",
      bg: "#232527",
      text: "#fff",
    },
    options,
  }
}
export { Roblox }
