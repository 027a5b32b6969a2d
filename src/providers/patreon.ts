// Patreon (OAuth 2, API v2): the identity endpoint with the user fields asked for explicitly.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The body of `GET https://www.patreon.com/api/oauth2/v2/identity` (JSON:API; the user fields Gatehouse asks for). */
export interface PatreonProfile {
  data: {
    id: string
    type?: "user"
    attributes: {
      full_name?: string
      email?: string
      is_email_verified?: boolean
      image_url?: string
      thumb_url?: string
      vanity?: string | null
      url?: string
      [key: string]: unknown
    }
  }
  links?: { self?: string }
  [key: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * Patreon sign-in. Callback URL to register: `<origin><basePath>/callback/patreon`.
 * Env: AUTH_PATREON_ID, AUTH_PATREON_SECRET. API v2 returns only the fields named in `fields[user]`; change the
 * `userinfo` URL to ask for others.
 */
export default function Patreon<P extends PatreonProfile>(options: OAuthUserConfig<P> = {}): OAuthConfigBase<P> {
  return {
    id: "patreon",
    name: "Patreon",
    type: "oauth",
    authorization: { url: "https://www.patreon.com/oauth2/authorize", params: { scope: "identity identity[email]" } },
    token: "https://www.patreon.com/api/oauth2/token",
    userinfo:
      "https://www.patreon.com/api/oauth2/v2/identity?fields%5Buser%5D=full_name,email,is_email_verified,image_url",
    profile(profile) {
      const user = profile.data
      return {
        id: user?.id ?? "",
        name: user?.attributes?.full_name ?? null,
        email: user?.attributes?.email ?? null,
        image: user?.attributes?.image_url ?? null,
      }
    },
    style: {
      // A circle and a bar, drawn for Gatehouse, on Patreon's coral; dark text, as white on it is under 4.5:1.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Ccircle cx='14.5' cy='9.5' r='6.5' fill='%23000'/%3E%3Cpath fill='%23000' d='M3 3h3.5v18H3z'/%3E%3C/svg%3E",
      bg: "#e85b46",
      text: "#000",
    },
    options,
  }
}
export { Patreon }
