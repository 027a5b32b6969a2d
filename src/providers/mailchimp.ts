// Mailchimp (OAuth 2): login.mailchimp.com endpoints and the metadata → user mapping.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The body of `GET https://login.mailchimp.com/oauth2/metadata` (the fields Gatehouse reads). */
export interface MailchimpProfile {
  dc: string
  role?: string
  accountname: string
  user_id?: number
  login: {
    email: string
    avatar?: string | null
    login_id: number
    login_name?: string
    login_email?: string
  }
  api_endpoint?: string
  [key: string]: unknown
}

/**
 * Mailchimp sign-in. Callback URL to register: `<origin><basePath>/callback/mailchimp`.
 * Env: AUTH_MAILCHIMP_ID, AUTH_MAILCHIMP_SECRET. `dc` and `api_endpoint` in the profile say which data centre to call.
 */
export default function Mailchimp(options: OAuthUserConfig<MailchimpProfile> = {}): OAuthConfigBase<MailchimpProfile> {
  return {
    id: "mailchimp",
    name: "Mailchimp",
    type: "oauth",
    authorization: "https://login.mailchimp.com/oauth2/authorize",
    token: "https://login.mailchimp.com/oauth2/token",
    userinfo: {
      url: "https://login.mailchimp.com/oauth2/metadata",
      // Mailchimp's OAuth guide reads the metadata with `Authorization: OAuth <token>`.
      async request({ tokens, fetch, url }) {
        const response = await fetch(url, {
          headers: { Authorization: `OAuth ${String(tokens.access_token)}`, Accept: "application/json" },
        })
        if (!response.ok) throw new Error(`Mailchimp answered HTTP ${response.status} to ${url}`)
        return (await response.json()) as Record<string, unknown>
      },
    },
    profile(profile) {
      const login = profile.login
      return {
        id: login?.login_id != null ? String(login.login_id) : "",
        name: profile.accountname ?? null,
        email: login?.email ?? null,
        image: login?.avatar ?? null,
      }
    },
    style: {
      // A round face with a wink, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Ccircle cx='12' cy='12' r='9' fill='%23ffe01b'/%3E%3Ccircle cx='9' cy='10' r='1.5'/%3E%3Cpath fill='none' stroke='%23000' stroke-width='1.8' d='M13.5 10h3M8 14.5q4 3 8 0'/%3E%3C/svg%3E",
      bg: "#000",
      text: "#fff",
    },
    options,
  }
}
export { Mailchimp }
