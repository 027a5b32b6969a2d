// WordPress.com (OAuth 2): the auth scope, the user from the REST API's /rest/v1/me.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The user as WordPress.com's `GET https://public-api.wordpress.com/rest/v1/me` returns it (the fields Gatehouse reads). */
export interface WordPressProfile {
  ID: number
  display_name: string
  username: string
  email: string
  primary_blog?: number
  avatar_URL?: string
  profile_URL?: string
  email_verified?: boolean
  [key: string]: unknown
}

/**
 * WordPress.com sign-in. Callback URL to register: `<origin><basePath>/callback/wordpress`.
 * Env: AUTH_WORDPRESS_ID, AUTH_WORDPRESS_SECRET.
 */
export default function WordPress(options: OAuthUserConfig<WordPressProfile> = {}): OAuthConfigBase<WordPressProfile> {
  return {
    id: "wordpress",
    name: "WordPress.com",
    type: "oauth",
    authorization: { url: "https://public-api.wordpress.com/oauth2/authorize", params: { scope: "auth" } },
    token: "https://public-api.wordpress.com/oauth2/token",
    userinfo: "https://public-api.wordpress.com/rest/v1/me",
    profile(profile) {
      return {
        id: profile.ID == null ? undefined : String(profile.ID),
        name: profile.display_name ?? profile.username ?? null,
        email: profile.email ?? null,
        image: profile.avatar_URL ?? null,
      }
    },
    style: {
      // A ringed W, drawn for Gatehouse: white on WordPress blue (5.1:1).
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%23fff' stroke-width='2' stroke-linejoin='round'%3E%3Ccircle cx='12' cy='12' r='10'/%3E%3Cpath d='M5.5 8l3.5 9l3-7l3 7l3.5-9'/%3E%3C/svg%3E",
      bg: "#21759B",
      text: "#fff",
    },
    options,
  }
}
export { WordPress }
