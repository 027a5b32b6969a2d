// Naver (OAuth 2): Naver Login endpoints; the profile comes wrapped in `{ resultcode, message, response }`.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The body of `GET https://openapi.naver.com/v1/nid/me` (the fields Gatehouse reads). */
export interface NaverProfile {
  resultcode: string
  message: string
  response: {
    id: string
    nickname?: string
    name?: string
    email?: string
    gender?: "F" | "M" | "U"
    age?: string
    birthday?: string
    profile_image?: string
    birthyear?: string
    mobile?: string
    [key: string]: unknown
  }
  [key: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * Naver sign-in. Callback URL to register: `<origin><basePath>/callback/naver`.
 * Env: AUTH_NAVER_ID, AUTH_NAVER_SECRET. The profile fields released are chosen in the Naver developer console.
 */
export default function Naver<P extends NaverProfile>(options: OAuthUserConfig<P> = {}): OAuthConfigBase<P> {
  return {
    id: "naver",
    name: "Naver",
    type: "oauth",
    authorization: "https://nid.naver.com/oauth2.0/authorize",
    token: "https://nid.naver.com/oauth2.0/token",
    userinfo: "https://openapi.naver.com/v1/nid/me",
    profile(profile) {
      const user = profile.response
      return {
        id: user?.id ?? "",
        name: user?.nickname ?? user?.name ?? null,
        email: user?.email ?? null,
        image: user?.profile_image ?? null,
      }
    },
    style: {
      // The "N" block, drawn for Gatehouse, on Naver's green; dark text, as white on this green is under 4.5:1.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath fill='%23fff' d='M4 4h5.6l4.8 7V4H20v16h-5.6l-4.8-7v7H4z'/%3E%3C/svg%3E",
      bg: "#03c75a",
      text: "#000",
    },
    options,
  }
}
export { Naver }
