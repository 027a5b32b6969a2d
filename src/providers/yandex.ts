// Yandex ID (OAuth 2): login:info, login:email and login:avatar, the account from login.yandex.ru/info.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The account as Yandex ID's `GET https://login.yandex.ru/info?format=json` returns it (the fields Gatehouse reads). */
export interface YandexProfile {
  id: string
  login: string
  client_id: string
  psuid: string
  display_name?: string
  real_name?: string
  first_name?: string
  last_name?: string
  sex?: "male" | "female" | null
  default_email?: string
  emails?: string[]
  default_avatar_id?: string
  default_phone?: { id: number; number: string }
  is_avatar_empty?: boolean
  birthday?: string | null
  [key: string]: unknown
}

/**
 * Yandex ID sign-in. Callback URL to register: `<origin><basePath>/callback/yandex`.
 * Env: AUTH_YANDEX_ID, AUTH_YANDEX_SECRET.
 */
export default function Yandex(options: OAuthUserConfig<YandexProfile> = {}): OAuthConfigBase<YandexProfile> {
  return {
    id: "yandex",
    name: "Yandex",
    type: "oauth",
    authorization: {
      url: "https://oauth.yandex.ru/authorize",
      params: { scope: "login:info login:email login:avatar" },
    },
    token: "https://oauth.yandex.ru/token",
    userinfo: "https://login.yandex.ru/info?format=json",
    profile(profile) {
      const avatar =
        profile.default_avatar_id && !profile.is_avatar_empty
          ? `https://avatars.yandex.net/get-yapic/${profile.default_avatar_id}/islands-200`
          : null
      return {
        id: profile.id == null ? undefined : String(profile.id),
        name: profile.display_name ?? profile.real_name ?? profile.first_name ?? profile.login ?? null,
        email: profile.default_email ?? profile.emails?.[0] ?? null,
        image: avatar,
      }
    },
    style: {
      // A bold Я, drawn for Gatehouse: black on Yandex yellow (13.9:1).
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath fill='%23000' d='M16 2h-4.5C8 2 6 4 6 7c0 2.4 1.2 3.8 3.3 4.6L5.5 22h3l3.6-10H13v10h3zM13 4.5V9.6h-1.3C10 9.6 9 8.7 9 7s1-2.5 2.7-2.5z' fill-rule='evenodd'/%3E%3C/svg%3E",
      bg: "#ffcc00",
      text: "#000",
    },
    options,
  }
}
export { Yandex }
