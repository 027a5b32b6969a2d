// Mattermost (OAuth 2 on a self-hosted server): the instance URL as `issuer`, client_secret_post, GET /api/v4/users/me.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The user as Mattermost's `GET /api/v4/users/me` returns it (the fields Gatehouse reads). */
export interface MattermostProfile {
  id: string
  username: string
  email: string
  first_name: string
  last_name: string
  nickname: string
  locale: string
  create_at: number
  update_at: number
  delete_at: number
  auth_data: string
  auth_service: string
  email_verified: boolean
  position: string
  roles: string
  last_password_update: number
  disable_welcome_email: boolean
  terms_of_service_id?: string
  terms_of_service_create_at?: number
  notify_props: {
    channel: string
    comments: string
    desktop: string
    desktop_sound: string
    desktop_threads: string
    email: string
    email_threads: string
    first_name: string
    mention_keys: string
    push: string
    push_status: string
    push_threads: string
  }
  timezone: { automaticTimezone: string; manualTimezone: string; useAutomaticTimezone: string }
  [key: string]: unknown
}

export interface MattermostOptions extends OAuthUserConfig<MattermostProfile> {
  /** Required: the server's URL, e.g. `https://mattermost.example.com` (endpoints hang off it; no discovery). */
  issuer?: string
}

/**
 * Mattermost sign-in (an OAuth 2.0 application on your server). Callback URL: `<origin><basePath>/callback/mattermost`.
 * Env: AUTH_MATTERMOST_ID, AUTH_MATTERMOST_SECRET; the server URL goes in `issuer` (AUTH_MATTERMOST_ISSUER with the
 * function form and setEnvDefaults).
 */
export default function Mattermost(options: MattermostOptions = {}): OAuthConfigBase<MattermostProfile> {
  const { issuer, ...userOptions } = options
  const base = issuer?.replace(/\/$/, "")
  return {
    id: "mattermost",
    name: "Mattermost",
    type: "oauth",
    client: { token_endpoint_auth_method: "client_secret_post" },
    ...(base
      ? {
          authorization: `${base}/oauth/authorize`,
          token: `${base}/oauth/access_token`,
          userinfo: `${base}/api/v4/users/me`,
        }
      : {}),
    profile(profile) {
      const full = [profile.first_name, profile.last_name].filter(Boolean).join(" ")
      return {
        id: profile.id == null ? undefined : String(profile.id),
        name: profile.username || full || null,
        email: profile.email ?? null,
        image: null,
      }
    },
    style: {
      // A ring with a diagonal cut, drawn for Gatehouse: white on black (21:1).
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%23fff' stroke-width='2.5'%3E%3Cpath d='M15 3.5A9 9 0 1 1 7 4.5'/%3E%3Cpath d='M10 7l5 1.5l-1.5 5'/%3E%3C/svg%3E",
      bg: "#000",
      text: "#fff",
    },
    options: userOptions,
  }
}
export { Mattermost }
