// Pinterest (OAuth 2, API v5): www.pinterest.com authorization, api.pinterest.com token and user_account.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The body of `GET https://api.pinterest.com/v5/user_account` (the fields Gatehouse reads). */
export interface PinterestProfile {
  account_type: "BUSINESS" | "PINNER"
  id?: string
  profile_image: string
  website_url: string
  username: string
  business_name?: string
  [key: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * Pinterest sign-in. Callback URL to register: `<origin><basePath>/callback/pinterest`.
 * Env: AUTH_PINTEREST_ID (the app ID), AUTH_PINTEREST_SECRET. Pinterest shares no e-mail address: it is always null.
 */
export default function Pinterest<P extends PinterestProfile>(options: OAuthUserConfig<P> = {}): OAuthConfigBase<P> {
  return {
    id: "pinterest",
    name: "Pinterest",
    type: "oauth",
    authorization: { url: "https://www.pinterest.com/oauth", params: { scope: "user_accounts:read" } },
    // Pinterest's token endpoint takes the app ID and secret as HTTP Basic (the default client_secret_basic).
    token: "https://api.pinterest.com/v5/oauth/token",
    userinfo: "https://api.pinterest.com/v5/user_account",
    profile(profile) {
      // The username is the account key, as in Auth.js (so existing accounts keep linking).
      return {
        id: profile.username ?? "",
        name: profile.username ?? null,
        email: null,
        image: profile.profile_image ?? null,
      }
    },
    style: {
      // A "P" in a circle, drawn for Gatehouse: white on Pinterest's red.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Ccircle cx='12' cy='12' r='10' fill='%23fff'/%3E%3Cpath d='M10 18.5V7h2.8a3.1 3.1 0 0 1 0 6.2H10' fill='none' stroke='%23bd081c' stroke-width='2.4' stroke-linecap='round' stroke-linejoin='round'/%3E%3C/svg%3E",
      bg: "#bd081c",
      text: "#fff",
      brandColor: "#bd081c",
    },
    options,
  }
}
export { Pinterest }
