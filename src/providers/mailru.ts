// Mail.ru (OAuth 2): oauth.mail.ru endpoints and the userinfo → user mapping.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The user as `GET https://oauth.mail.ru/userinfo` returns it (the fields Gatehouse reads). */
export interface MailRuProfile {
  id: string
  email?: string
  name?: string
  first_name?: string
  last_name?: string
  nickname?: string
  image?: string
  gender?: string
  birthday?: string
  locale?: string
  [key: string]: unknown
}

/**
 * Mail.ru sign-in. Callback URL to register: `<origin><basePath>/callback/mailru`.
 * Env: AUTH_MAILRU_ID, AUTH_MAILRU_SECRET.
 */
export default function Mailru(options: OAuthUserConfig<MailRuProfile> = {}): OAuthConfigBase<MailRuProfile> {
  return {
    id: "mailru",
    name: "Mail.ru",
    type: "oauth",
    authorization: { url: "https://oauth.mail.ru/login", params: { scope: "userinfo" } },
    token: "https://oauth.mail.ru/token",
    userinfo: "https://oauth.mail.ru/userinfo",
    profile(profile) {
      const full = [profile.first_name, profile.last_name].filter(Boolean).join(" ")
      return {
        id: profile.id === undefined || profile.id === null ? "" : String(profile.id),
        name: profile.name ?? (full || null),
        email: profile.email ?? null,
        image: profile.image ?? null,
      }
    },
    style: {
      // An "@", drawn for Gatehouse: white on Mail.ru's blue.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cg fill='none' stroke='%23fff' stroke-width='2.4' stroke-linecap='round'%3E%3Ccircle cx='12' cy='12' r='4'/%3E%3Cpath d='M16 8v5a2.5 2.5 0 0 0 5 0v-1a9 9 0 1 0-3.5 7.1'/%3E%3C/g%3E%3C/svg%3E",
      bg: "#005ff9",
      text: "#fff",
    },
    options,
  }
}
export { Mailru }
