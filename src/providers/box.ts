// Box (OAuth 2): authorize on account.box.com, token and `GET /2.0/users/me` on api.box.com.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The user as `GET /2.0/users/me` returns it (the fields Gatehouse reads). `login` is the user's e-mail address. */
export interface BoxProfile {
  id: string
  type?: "user"
  name: string
  login: string
  avatar_url?: string
  [key: string]: unknown
}

/**
 * Box sign-in. Callback URL to register (Redirect URI): `<origin><basePath>/callback/box`.
 * Env: AUTH_BOX_ID, AUTH_BOX_SECRET.
 */
export default function Box(options: OAuthUserConfig<BoxProfile> = {}): OAuthConfigBase<BoxProfile> {
  return {
    id: "box",
    name: "Box",
    type: "oauth",
    authorization: "https://account.box.com/api/oauth2/authorize",
    token: "https://api.box.com/oauth2/token",
    userinfo: "https://api.box.com/2.0/users/me",
    profile(profile) {
      return {
        id: profile.id == null ? "" : String(profile.id),
        name: profile.name ?? null,
        email: profile.login ?? null,
        image: profile.avatar_url ?? null,
      }
    },
    style: {
      // A white lower-case "b", drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%23fff' stroke-width='2.6'%3E%3Cpath d='M6 3v14'/%3E%3Ccircle cx='11' cy='15' r='5'/%3E%3C/svg%3E",
      bg: "#0075C9",
      text: "#fff",
    },
    options,
  }
}
export { Box }
