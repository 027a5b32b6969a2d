// FACEIT (OAuth 2): accounts.faceit.com authorization, HTTP Basic client auth, the userinfo resource.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The body of `GET https://api.faceit.com/auth/v1/resources/userinfo` (the fields Gatehouse reads). */
export interface FaceItProfile {
  guid: string
  name?: string
  nickname?: string
  email?: string
  picture?: string
  locale?: string
  [key: string]: unknown
}

/**
 * FACEIT sign-in. Callback URL to register: `<origin><basePath>/callback/faceit`.
 * Env: AUTH_FACEIT_ID, AUTH_FACEIT_SECRET. The token request authenticates with HTTP Basic (the default).
 */
export default function FACEIT(options: OAuthUserConfig<FaceItProfile> = {}): OAuthConfigBase<FaceItProfile> {
  return {
    id: "faceit",
    name: "FACEIT",
    type: "oauth",
    authorization: { url: "https://accounts.faceit.com/accounts", params: { redirect_popup: "true" } },
    token: "https://api.faceit.com/auth/v1/oauth/token",
    userinfo: "https://api.faceit.com/auth/v1/resources/userinfo",
    profile(profile) {
      return {
        id: profile.guid ?? "",
        name: profile.name ?? profile.nickname ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }
    },
    style: {
      // A forward-pointing wedge, drawn for Gatehouse, on FACEIT's orange with dark text.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath fill='%23000' d='M21 3L3 10.5h9.5L21 21z'/%3E%3C/svg%3E",
      bg: "#ff5500",
      text: "#000",
    },
    options,
  }
}
export { FACEIT }
