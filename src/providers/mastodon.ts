// Mastodon (OAuth 2 on an instance): the instance URL as `issuer`, scope read, GET /api/v1/accounts/verify_credentials.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The account as Mastodon's `GET /api/v1/accounts/verify_credentials` returns it (the fields Gatehouse reads). */
export interface MastodonProfile {
  id: string
  username: string
  acct: string
  display_name: string
  url: string
  avatar: string
  avatar_static: string
  locked: boolean
  bot: boolean
  created_at: string
  [key: string]: any // `any`, as in Auth.js: other fields read untyped
}

export interface MastodonOptions extends OAuthUserConfig<MastodonProfile> {
  /** Required: the instance URL, e.g. `https://mastodon.social` (endpoints hang off it; no discovery). */
  issuer?: string
}

/**
 * Mastodon sign-in (an application registered on the instance). Callback URL: `<origin><basePath>/callback/mastodon`.
 * Env: AUTH_MASTODON_ID, AUTH_MASTODON_SECRET; the instance URL goes in `issuer` (AUTH_MASTODON_ISSUER with the
 * function form and setEnvDefaults). Mastodon shares no e-mail under `read`.
 */
export default function Mastodon(options: MastodonOptions = {}): OAuthConfigBase<MastodonProfile> {
  const { issuer, ...userOptions } = options
  const base = issuer?.replace(/\/$/, "")
  return {
    id: "mastodon",
    name: "Mastodon",
    type: "oauth",
    ...(base
      ? {
          authorization: { url: `${base}/oauth/authorize`, params: { scope: "read" } },
          token: `${base}/oauth/token`,
          userinfo: `${base}/api/v1/accounts/verify_credentials`,
        }
      : { authorization: { params: { scope: "read" } } }),
    profile(profile) {
      return {
        id: profile.id == null ? undefined : String(profile.id),
        name: profile.username ?? null,
        email: null,
        image: profile.avatar_static ?? null,
      }
    },
    style: {
      // A speech bubble, drawn for Gatehouse: white on a deeper Mastodon violet (7.3:1; #6364FF gives 4.4:1).
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath fill='%23fff' d='M4 3h16a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2H9l-4 4v-4H4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2zM7 12h2V8h2v4h2V8h2v4h2V7.5A2.5 2.5 0 0 0 14.5 5c-1 0-2 .5-2.5 1.3C11.5 5.5 10.5 5 9.5 5A2.5 2.5 0 0 0 7 7.5z' fill-rule='evenodd'/%3E%3C/svg%3E",
      bg: "#563ACC",
      text: "#fff",
    },
    options: userOptions,
  }
}
export { Mastodon }
