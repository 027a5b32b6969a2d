// Concept2 Logbook (OAuth 2): log.concept2.com endpoints and the /api/users/me → user mapping.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The body of `GET https://log.concept2.com/api/users/me` (the fields Gatehouse reads). */
export interface Concept2Profile {
  data: {
    id: number
    username: string
    first_name?: string
    last_name?: string
    email?: string | null
    profile_image?: string | null
    [key: string]: unknown
  }
  [key: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * Concept2 Logbook sign-in. Callback URL to register: `<origin><basePath>/callback/concept2`.
 * Env: AUTH_CONCEPT2_ID, AUTH_CONCEPT2_SECRET. Scopes are comma-separated, as the Logbook API documents.
 */
export default function Concept2(options: OAuthUserConfig<Concept2Profile> = {}): OAuthConfigBase<Concept2Profile> {
  return {
    id: "concept2",
    name: "Concept2",
    type: "oauth",
    authorization: { url: "https://log.concept2.com/oauth/authorize", params: { scope: "user:read,results:write" } },
    token: "https://log.concept2.com/oauth/access_token",
    userinfo: "https://log.concept2.com/api/users/me",
    profile(profile) {
      const user = profile.data
      return {
        id: user?.id != null ? String(user.id) : "",
        name: user?.username ?? null,
        email: user?.email ?? null,
        image: user?.profile_image ?? null,
      }
    },
    style: {
      // A C around an oar blade, drawn for Gatehouse, on a navy blue.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath fill='none' stroke='%23fff' stroke-width='3' d='M18 6.5A8 8 0 1 0 18 17.5'/%3E%3Cpath fill='%23fff' d='M11 9h4v6h-4z'/%3E%3C/svg%3E",
      bg: "#003a70",
      text: "#fff",
    },
    options,
  }
}
export { Concept2 }
