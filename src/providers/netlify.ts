// Netlify (OAuth 2): app.netlify.com authorization, api.netlify.com token and user endpoints.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The user as `GET https://api.netlify.com/api/v1/user` returns it (the fields Gatehouse reads). */
export interface NetlifyProfile {
  id: string
  uid?: string
  full_name: string | null
  avatar_url: string | null
  email: string | null
  slug?: string
  [key: string]: unknown
}

/**
 * Netlify sign-in. Callback URL to register: `<origin><basePath>/callback/netlify`.
 * Env: AUTH_NETLIFY_ID, AUTH_NETLIFY_SECRET.
 */
export default function Netlify(options: OAuthUserConfig<NetlifyProfile> = {}): OAuthConfigBase<NetlifyProfile> {
  return {
    id: "netlify",
    name: "Netlify",
    type: "oauth",
    authorization: { url: "https://app.netlify.com/authorize", params: { scope: "" } },
    token: "https://api.netlify.com/oauth/token",
    userinfo: "https://api.netlify.com/api/v1/user",
    profile(profile) {
      return {
        id: profile.id != null ? String(profile.id) : "",
        name: profile.full_name ?? null,
        email: profile.email ?? null,
        image: profile.avatar_url ?? null,
      }
    },
    style: {
      // A diamond, drawn for Gatehouse: Netlify's teal with its dark teal for the mark and the text.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath fill='%23014847' d='M12 2l10 10l-10 10L2 12z'/%3E%3Cpath fill='%2332e6e2' d='M12 8l4 4l-4 4l-4-4z'/%3E%3C/svg%3E",
      bg: "#32e6e2",
      text: "#014847",
      brandColor: "#32e6e2",
    },
    options,
  }
}
export { Netlify }
