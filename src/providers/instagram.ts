// Instagram (OAuth 2, "Instagram API with Instagram login"): authorize, short-lived token, `GET /me` on graph.instagram.com.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The account as `GET /me?fields=id,user_id,username,name,account_type,profile_picture_url` returns it. */
export interface InstagramProfile {
  id: string
  user_id?: string
  username: string
  name?: string
  account_type?: string
  profile_picture_url?: string
  [key: string]: unknown
}

/**
 * Instagram sign-in (professional accounts). Callback URL to register: `<origin><basePath>/callback/instagram`.
 * Env: AUTH_INSTAGRAM_ID, AUTH_INSTAGRAM_SECRET. Instagram shares no e-mail address, so `user.email` is null.
 */
export default function Instagram(options: OAuthUserConfig<InstagramProfile> = {}): OAuthConfigBase<InstagramProfile> {
  return {
    id: "instagram",
    name: "Instagram",
    type: "oauth",
    authorization: { url: "https://api.instagram.com/oauth/authorize", params: { scope: "instagram_business_basic" } },
    token: "https://api.instagram.com/oauth/access_token",
    userinfo: "https://graph.instagram.com/me?fields=id,user_id,username,name,account_type,profile_picture_url",
    // Instagram reads the client credentials from the form body only.
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      return {
        id: profile.id == null ? "" : String(profile.id),
        name: profile.username ?? profile.name ?? null,
        email: null,
        image: profile.profile_picture_url ?? null,
      }
    },
    style: {
      // A camera outline (rounded square, lens, flash), drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%23000' stroke-width='2'%3E%3Crect x='3' y='3' width='18' height='18' rx='5'/%3E%3Ccircle cx='12' cy='12' r='4'/%3E%3Ccircle cx='17.3' cy='6.7' r='.6' fill='%23000'/%3E%3C/svg%3E",
      bg: "#fff",
      text: "#000",
    },
    options,
  }
}
export { Instagram }
