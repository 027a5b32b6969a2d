// Kakao (OAuth 2): Kakao Login endpoints, client_secret_post, and the kakao_account → user mapping.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** Value types of Kakao's account fields, under the names @auth/core exports. */
export type DateTime = string
export type Gender = "female" | "male"
export type Birthday = "SOLAR" | "LUNAR"
export type AgeRange =
  | "1-9"
  | "10-14"
  | "15-19"
  | "20-29"
  | "30-39"
  | "40-49"
  | "50-59"
  | "60-69"
  | "70-79"
  | "80-89"
  | "90-"

/** The user as `GET https://kapi.kakao.com/v2/user/me` returns it (the fields Gatehouse reads; Kakao sends more). */
export interface KakaoProfile {
  id: number
  connected_at?: string
  properties?: { nickname?: string; profile_image?: string; thumbnail_image?: string; [key: string]: unknown }
  kakao_account?: {
    profile?: {
      nickname?: string
      profile_image_url?: string
      thumbnail_image_url?: string
      is_default_image?: boolean
    }
    email?: string
    is_email_valid?: boolean
    is_email_verified?: boolean
    name?: string
    [key: string]: unknown
  }
  [key: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * Kakao sign-in. Callback URL to register (Redirect URI): `<origin><basePath>/callback/kakao`.
 * Env: AUTH_KAKAO_ID (the REST API key), AUTH_KAKAO_SECRET (the client secret). The consent items (scope) are chosen
 * in the Kakao developer console; pass `authorization: { params: { scope: "..." } }` to ask for more.
 */
export default function Kakao<P extends KakaoProfile>(options: OAuthUserConfig<P> = {}): OAuthConfigBase<P> {
  return {
    id: "kakao",
    name: "Kakao",
    type: "oauth",
    authorization: { url: "https://kauth.kakao.com/oauth/authorize", params: { scope: "" } },
    token: "https://kauth.kakao.com/oauth/token",
    userinfo: "https://kapi.kakao.com/v2/user/me",
    // Kakao reads client_id and client_secret from the form body.
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      const account = profile.kakao_account
      return {
        id: profile.id === undefined || profile.id === null ? "" : String(profile.id),
        name: account?.profile?.nickname ?? null,
        email: account?.email ?? null,
        image: account?.profile?.profile_image_url ?? null,
      }
    },
    style: {
      // A speech bubble, drawn for Gatehouse: Kakao's yellow with its near-black label colour.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath fill='%23191919' d='M12 4c-5 0-9 3.1-9 7c0 2.5 1.6 4.6 4.1 5.9l-1 3.7l4.3-2.8c.5.1 1 .1 1.6.1c5 0 9-3.1 9-7s-4-7-9-7z'/%3E%3C/svg%3E",
      bg: "#fee500",
      text: "#191919",
    },
    options,
  }
}
export { Kakao }
