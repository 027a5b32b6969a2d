// Pipedrive (OAuth 2): oauth.pipedrive.com endpoints and the v1 users/me → user mapping.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The body of `GET https://api.pipedrive.com/v1/users/me` (the fields Gatehouse reads). */
export interface PipedriveProfile {
  success: boolean
  data: {
    id: number
    name: string
    email: string
    default_currency?: string
    locale?: string
    lang?: number
    phone?: string
    activated?: boolean
    last_login?: Date
    created?: Date
    modified?: Date
    signup_flow_variation?: string
    has_created_company?: boolean
    is_admin?: number
    active_flag?: boolean
    timezone_name?: string
    timezone_offset?: string
    role_id?: number
    icon_url?: string
    is_you?: boolean
    company_id?: number
    company_name?: string
    company_domain?: string
    company_country?: string
    company_industry?: string
    language?: { language_code?: string; country_code?: string }
    [key: string]: unknown
  }
  [key: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * Pipedrive sign-in. Callback URL to register: `<origin><basePath>/callback/pipedrive`.
 * Env: AUTH_PIPEDRIVE_ID, AUTH_PIPEDRIVE_SECRET. Scopes are set on the app in Pipedrive's Developer Hub.
 */
export default function Pipedrive<P extends PipedriveProfile>(options: OAuthUserConfig<P> = {}): OAuthConfigBase<P> {
  return {
    id: "pipedrive",
    name: "Pipedrive",
    type: "oauth",
    authorization: "https://oauth.pipedrive.com/oauth/authorize",
    token: "https://oauth.pipedrive.com/oauth/token",
    userinfo: "https://api.pipedrive.com/v1/users/me",
    profile(profile) {
      const user = profile.data
      return {
        id: user?.id != null ? String(user.id) : "",
        name: user?.name ?? null,
        email: user?.email ?? null,
        image: user?.icon_url ?? null,
      }
    },
    style: {
      // A lower-case p, drawn for Gatehouse, on a dark green.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Ccircle cx='13' cy='10' r='5' fill='none' stroke='%23fff' stroke-width='3'/%3E%3Cpath fill='%23fff' d='M6.5 5h3v16h-3z'/%3E%3C/svg%3E",
      bg: "#017737",
      text: "#fff",
    },
    options,
  }
}
export { Pipedrive }
