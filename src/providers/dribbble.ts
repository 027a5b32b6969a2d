// Dribbble (OAuth 2, API v2): authorize and token on dribbble.com, the user from `GET /v2/user` on api.dribbble.com.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The user as `GET /v2/user` returns it (the fields Gatehouse reads). */
export interface DribbbleProfile {
  id: number
  login?: string
  name: string
  email: string
  avatar_url: string
  [key: string]: any // `any`, as in Auth.js: other fields read untyped
}

export interface DribbbleOptions extends OAuthUserConfig<DribbbleProfile> {
  /** Space-separated Dribbble scopes: `public` (default) and/or `upload`. */
  scope?: string
}

/**
 * Dribbble sign-in. Callback URL to register: `<origin><basePath>/callback/dribbble`.
 * Env: AUTH_DRIBBBLE_ID, AUTH_DRIBBBLE_SECRET.
 */
export default function Dribbble(options: DribbbleOptions = {}): OAuthConfigBase<DribbbleProfile> {
  const { scope = "public", ...userOptions } = options
  return {
    id: "dribbble",
    name: "Dribbble",
    type: "oauth",
    authorization: { url: "https://dribbble.com/oauth/authorize", params: { scope } },
    token: "https://dribbble.com/oauth/token",
    userinfo: "https://api.dribbble.com/v2/user",
    profile(profile) {
      return {
        id: profile.id == null ? "" : String(profile.id),
        name: profile.name ?? profile.login ?? null,
        email: profile.email ?? null,
        image: profile.avatar_url ?? null,
      }
    },
    style: {
      // A pink ball with its seams, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%23ea4c89' stroke-width='2'%3E%3Ccircle cx='12' cy='12' r='10'/%3E%3Cpath d='M5 5c5 4 11 6 17 6M8 3c4 5 7 12 8 19M2 14c6-4 12-5 16-2'/%3E%3C/svg%3E",
      bg: "#000",
      text: "#fff",
    },
    options: userOptions,
  }
}
export { Dribbble }
