// Todoist (OAuth 2): todoist.com authorization and token, client_secret_post, the user from API v1's /user.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The user as `GET https://api.todoist.com/api/v1/user` returns it (the fields Gatehouse reads). */
export interface TodoistProfile {
  id: string
  email: string
  full_name: string
  avatar_big?: string | null
  avatar_medium?: string | null
  avatar_small?: string | null
  lang?: string
  [key: string]: unknown
}

/**
 * Todoist sign-in. Callback URL to register (OAuth redirect URL): `<origin><basePath>/callback/todoist`.
 * Env: AUTH_TODOIST_ID, AUTH_TODOIST_SECRET.
 */
export default function Todoist<P extends TodoistProfile>(options: OAuthUserConfig<P> = {}): OAuthConfigBase<P> {
  return {
    id: "todoist",
    name: "Todoist",
    type: "oauth",
    authorization: { url: "https://todoist.com/oauth/authorize", params: { scope: "data:read" } },
    token: "https://todoist.com/oauth/access_token",
    // Todoist reads client_id and client_secret from the form body.
    client: { token_endpoint_auth_method: "client_secret_post" },
    userinfo: "https://api.todoist.com/api/v1/user",
    profile(profile) {
      return {
        id: profile.id != null ? String(profile.id) : "",
        name: profile.full_name ?? null,
        email: profile.email ?? null,
        image: profile.avatar_big ?? null,
      }
    },
    style: {
      // Three stacked chevrons, drawn for Gatehouse, on Todoist's red with dark text.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath d='M4 7.5l8 4.5l8-4.5M4 12l8 4.5l8-4.5M4 16.5l8 4.5l8-4.5' fill='none' stroke='%23fff' stroke-width='2' stroke-linecap='round' stroke-linejoin='round'/%3E%3C/svg%3E",
      bg: "#e44332",
      text: "#000",
    },
    options,
  }
}
export { Todoist }
