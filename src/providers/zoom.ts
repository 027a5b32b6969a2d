// Zoom (OAuth 2): zoom.us authorization and token, the user from api.zoom.us/v2/users/me.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The user as `GET https://api.zoom.us/v2/users/me` returns it (the fields Gatehouse reads; Zoom sends more). */
export interface ZoomProfile {
  id: string
  first_name: string
  last_name: string
  display_name?: string
  email: string
  pic_url: string
  type: number
  account_id: string
  verified: number
  [key: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * Zoom sign-in. Callback URL to register (Redirect URL for OAuth, also on the allow list):
 * `<origin><basePath>/callback/zoom`. Env: AUTH_ZOOM_ID, AUTH_ZOOM_SECRET. The scopes are chosen on the app in the
 * Zoom Marketplace (it needs the user's own profile, `user:read:user`).
 */
export default function Zoom(options: OAuthUserConfig<ZoomProfile> = {}): OAuthConfigBase<ZoomProfile> {
  return {
    id: "zoom",
    name: "Zoom",
    type: "oauth",
    authorization: { url: "https://zoom.us/oauth/authorize", params: { scope: "" } },
    // Zoom's token endpoint takes the client credentials as HTTP Basic (the default client_secret_basic).
    token: "https://zoom.us/oauth/token",
    userinfo: "https://api.zoom.us/v2/users/me",
    profile(profile) {
      const name = [profile.first_name, profile.last_name]
        .filter((part) => typeof part === "string" && part !== "")
        .join(" ")
      return {
        id: profile.id != null ? String(profile.id) : "",
        name: name || profile.display_name || null,
        email: profile.email ?? null,
        image: profile.pic_url ?? null,
      }
    },
    style: {
      // A video camera, drawn for Gatehouse: white on Zoom's blue.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Crect x='2' y='7' width='13' height='10' rx='2.5' fill='%23fff'/%3E%3Cpath fill='%23fff' d='M16 10.5l5-3.5v10l-5-3.5z'/%3E%3C/svg%3E",
      bg: "#0b5cff",
      text: "#fff",
    },
    options,
  }
}
export { Zoom }
