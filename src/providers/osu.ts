// osu! (OAuth 2, API v2): osu.ppy.sh endpoints, the identify scope, and the /api/v2/me → user mapping.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The user as `GET https://osu.ppy.sh/api/v2/me` returns it (the fields Gatehouse reads; osu! sends many more). */
export interface OsuProfile {
  id: number
  username: string
  avatar_url: string
  country_code: string
  is_bot: boolean
  is_supporter: boolean
  playmode: string
  [key: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * osu! sign-in. Callback URL to register: `<origin><basePath>/callback/osu`. Env: AUTH_OSU_ID, AUTH_OSU_SECRET.
 * osu! does not share e-mail addresses: the user's e-mail is always null.
 */
export default function Osu<P extends OsuProfile>(options: OAuthUserConfig<P> = {}): OAuthConfigBase<P> {
  return {
    id: "osu",
    name: "osu!",
    type: "oauth",
    authorization: { url: "https://osu.ppy.sh/oauth/authorize", params: { scope: "identify" } },
    token: "https://osu.ppy.sh/oauth/token",
    userinfo: "https://osu.ppy.sh/api/v2/me",
    profile(profile) {
      return {
        id: profile.id != null ? String(profile.id) : "",
        name: profile.username ?? null,
        email: null,
        image: profile.avatar_url ?? null,
      }
    },
    style: {
      // A circle with "!", drawn for Gatehouse, on osu!'s pink; dark text, as white on this pink is under 4.5:1.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cg stroke='%23fff' stroke-width='2.4' stroke-linecap='round' fill='none'%3E%3Ccircle cx='12' cy='12' r='9'/%3E%3Cpath d='M12 7v6'/%3E%3C/g%3E%3Ccircle cx='12' cy='16.6' r='1.4' fill='%23fff'/%3E%3C/svg%3E",
      bg: "#ff66aa",
      text: "#000",
    },
    options,
  }
}
export { Osu }
