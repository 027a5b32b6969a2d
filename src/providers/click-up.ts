// ClickUp (OAuth 2): app.clickup.com authorization, the v2 token and user endpoints, state only.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The body of `GET https://api.clickup.com/api/v2/user` (the fields Gatehouse reads). */
export interface ClickUpProfile {
  user: {
    id: number
    username: string
    email?: string | null
    color: string
    profilePicture: string
    initials?: string
    [key: string]: unknown
  }
  [key: string]: unknown
}

/**
 * ClickUp sign-in. Callback URL to register (its redirect host): `<origin><basePath>/callback/click-up`.
 * Env: AUTH_CLICK_UP_ID, AUTH_CLICK_UP_SECRET. ClickUp's authorization page takes no PKCE: state is the check.
 */
export default function ClickUp(options: OAuthUserConfig<ClickUpProfile> = {}): OAuthConfigBase<ClickUpProfile> {
  return {
    id: "click-up",
    name: "ClickUp",
    type: "oauth",
    authorization: "https://app.clickup.com/api",
    token: "https://api.clickup.com/api/v2/oauth/token",
    userinfo: "https://api.clickup.com/api/v2/user",
    checks: ["state"],
    // ClickUp's token reference takes client_id and client_secret as parameters, not in an Authorization header.
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      const user = profile.user
      return {
        id: user?.id != null ? String(user.id) : "",
        name: user?.username ?? null,
        email: user?.email ?? null,
        image: user?.profilePicture ?? null,
      }
    },
    style: {
      // An upward chevron over a bar, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath fill='none' stroke='%23fff' stroke-width='3' stroke-linecap='round' stroke-linejoin='round' d='M5 13l7-6l7 6M5 18.5q7 4 14 0'/%3E%3C/svg%3E",
      bg: "#24292f",
      text: "#fff",
    },
    options,
  }
}
export { ClickUp }
