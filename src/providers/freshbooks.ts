// FreshBooks (OAuth 2): auth.freshbooks.com authorization and the identity (users/me) → user mapping.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The body of `GET https://api.freshbooks.com/auth/api/v1/users/me` (the fields Gatehouse reads). */
export interface FreshbooksProfile {
  response: {
    id: number
    identity_id?: number
    first_name: string | null
    last_name: string | null
    email: string | null
    confirmed_at?: string | null
    [key: string]: unknown
  }
  [key: string]: unknown
}

/**
 * FreshBooks sign-in. Callback URL to register (it must be https): `<origin><basePath>/callback/freshbooks`.
 * Env: AUTH_FRESHBOOKS_ID, AUTH_FRESHBOOKS_SECRET. FreshBooks has no profile picture: image is null.
 */
export default function Freshbooks(
  options: OAuthUserConfig<FreshbooksProfile> = {},
): OAuthConfigBase<FreshbooksProfile> {
  return {
    id: "freshbooks",
    name: "Freshbooks",
    type: "oauth",
    authorization: "https://auth.freshbooks.com/service/auth/oauth/authorize",
    token: "https://api.freshbooks.com/auth/oauth/token",
    userinfo: "https://api.freshbooks.com/auth/api/v1/users/me",
    profile(profile) {
      const user = profile.response
      const name = [user?.first_name, user?.last_name].filter((p) => typeof p === "string" && p !== "").join(" ")
      return {
        id: user?.id != null ? String(user.id) : "",
        name: name || null,
        email: user?.email ?? null,
        image: null,
      }
    },
    style: {
      // A bold F, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath fill='%23fff' d='M6 3h12v3.5H10V10h7v3.5h-7V21H6z'/%3E%3C/svg%3E",
      bg: "#0075dd",
      text: "#fff",
    },
    options,
  }
}
export { Freshbooks }
