// 42 School (OAuth 2, the 42 intranet API): authorize and token on api.intra.42.fr, the profile from `GET /v2/me`.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The user as `GET /v2/me` returns it (the fields Gatehouse reads; the intranet sends many more: cursus, projects...). */
export interface FortyTwoProfile {
  id: number
  email: string
  login: string
  first_name: string
  last_name: string
  usual_full_name: null | string
  displayname: string
  url: string
  image: { link: string; versions: { micro: string; small: string; medium: string; large: string } }
  [key: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * 42 School sign-in. Callback URL to register: `<origin><basePath>/callback/42-school`.
 * Env: AUTH_42_SCHOOL_ID, AUTH_42_SCHOOL_SECRET.
 */
export default function FortyTwo<P extends FortyTwoProfile>(options: OAuthUserConfig<P> = {}): OAuthConfigBase<P> {
  return {
    id: "42-school",
    name: "42 School",
    type: "oauth",
    authorization: { url: "https://api.intra.42.fr/oauth/authorize", params: { scope: "public" } },
    token: "https://api.intra.42.fr/oauth/token",
    userinfo: "https://api.intra.42.fr/v2/me",
    profile(profile) {
      return {
        id: profile.id == null ? "" : String(profile.id),
        name: profile.usual_full_name ?? profile.displayname ?? profile.login ?? null,
        email: profile.email ?? null,
        image: profile.image?.link ?? null,
      }
    },
    style: {
      // "42" as two white blocks, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='%23fff'%3E%3Cpath d='M9 5L1 13v3h6v3h3v-6H5l4-4zM13 5v4l4-4zm4 4l-4 4v4h4v-4l4-4V5z'/%3E%3C/svg%3E",
      bg: "#000",
      text: "#fff",
    },
    options,
  }
}
export { FortyTwo }
