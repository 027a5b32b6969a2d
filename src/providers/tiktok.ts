// TikTok (OAuth 2, Login Kit v2): `client_key` instead of client_id, form-encoded token request, `{data, error}` envelopes.
import { OAuthCallbackError } from "../errors.js"
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** `data.user` of `GET /v2/user/info/`; which fields arrive depends on the `fields` query parameter. */
export interface TikTokUser {
  /** Unique id of the user in this application (`open_id`). */
  open_id: string
  avatar_url: string
  display_name: string
  username: string
  /** Higher-resolution avatar (requested through `avatar_large_url`). */
  avatar_large_url?: string
  avatar_url_100?: string
  bio_description?: string
  /** Not provided by TikTok. */
  email?: string
  follower_count?: number
  following_count?: number
  /** Whether TikTok has given the account a verified badge. */
  is_verified?: boolean
  likes_count?: number
  profile_deep_link?: string
  /** The same for one user across all apps of one developer (one open_id per app). */
  union_id?: string
  video_count?: number
}

/** TikTok's error envelope; `code` is `"ok"` on success. */
export interface TikTokError {
  code: string
  log_id: string
  message: string
}

/** The user-info response: `data.user` on success, `error` always present (`code: "ok"` when fine). */
export interface TikTokProfile {
  data: { user: TikTokUser }
  error: TikTokError
}

/** The same type under its Auth.js name (`@auth/core/providers/tiktok` exports `TiktokProfile`). */
export type TiktokProfile = TikTokProfile

export interface TikTokOptions extends OAuthUserConfig<TikTokProfile> {
  /** User-info fields to request besides open_id, avatar_url, display_name and username. */
  fields?: string[]
}

const AUTHORIZE = "https://www.tiktok.com/v2/auth/authorize"
const TOKEN = "https://open.tiktokapis.com/v2/oauth/token/"
const USER_INFO = "https://open.tiktokapis.com/v2/user/info/"

/** A TikTok failure as a typed error whose message carries the code and log_id (never the token). */
function tiktokError(error: Partial<TikTokError> | undefined, status: number): OAuthCallbackError {
  const code = error?.code ?? "unknown"
  const message = error?.message ? `: ${error.message}` : ""
  return new OAuthCallbackError(
    `TikTok returned error "${code}" (log_id ${error?.log_id ?? "none"}, HTTP ${status})${message}`,
  )
}

/** A string field of an unknown JSON body. */
function stringField(body: unknown, key: string): string | undefined {
  const value = typeof body === "object" && body !== null ? (body as Record<string, unknown>)[key] : undefined
  return typeof value === "string" ? value : undefined
}

/**
 * TikTok sign-in. Callback URL to register: `<origin><basePath>/callback/tiktok` (TikTok refuses localhost in
 * production apps; use sandbox mode and a tunnel while developing). Env: AUTH_TIKTOK_ID (the Client Key), AUTH_TIKTOK_SECRET.
 */
export default function TikTok(options: TikTokOptions = {}): OAuthConfigBase<TikTokProfile> {
  const { fields = [], ...userOptions } = options
  const userInfo = new URL(USER_INFO)
  userInfo.searchParams.set(
    "fields",
    [...new Set(["open_id", "avatar_url", "display_name", "username", ...fields])].join(","),
  )
  return {
    id: "tiktok",
    name: "TikTok",
    type: "oauth",
    checks: ["pkce", "state"],
    client: { token_endpoint_auth_method: "client_secret_post" },
    // client_key is TikTok's name for the client id; the function form sees the id even when it comes from AUTH_TIKTOK_ID.
    authorization: {
      url: AUTHORIZE,
      params: { scope: "user.info.profile", client_key: ({ clientId }: { clientId: string }) => clientId },
    },
    token: {
      url: TOKEN,
      params: { client_key: ({ clientId }: { clientId: string }) => clientId },
      // TikTok answers errors with 200 and `{ error, error_description, log_id }`: a failure whose message keeps the
      // error code and TikTok's log_id (for TikTok support), never the description.
      async conform(response) {
        const body: unknown = await response
          .clone()
          .json()
          .catch(() => undefined)
        const error = stringField(body, "error")
        if (error !== undefined)
          throw tiktokError({ code: error, log_id: stringField(body, "log_id") }, response.status)
        return undefined
      },
    },
    userinfo: {
      url: userInfo.href,
      async request({ tokens, fetch, url }) {
        const response = await fetch(url, { headers: { Authorization: `Bearer ${String(tokens.access_token)}` } })
        const body = (await response.json().catch(() => undefined)) as Partial<TikTokProfile> | undefined
        // A 200 whose error code is not "ok" is a failure too.
        if (!response.ok || !body || body.error?.code !== "ok" || !body.data?.user)
          throw tiktokError(body?.error, response.status)
        return body as unknown as Record<string, unknown>
      },
    },
    profile(profile) {
      const user = (profile as TikTokProfile).data.user
      return {
        id: user.open_id,
        name: user.display_name ?? null,
        email: user.email ?? user.username ?? null,
        image: user.avatar_url ?? null,
      }
    },
    style: {
      // TikTok's note with its cyan and red offsets, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cg fill='none' stroke-width='2.6' stroke-linecap='round'%3E%3Cpath stroke='%2325F4EE' transform='translate(-.9 -.9)' d='M13 3.5v12a3.6 3.6 0 1 1-3.6-3.6M13 3.5c.4 2.7 2.4 4.7 5.6 4.8'/%3E%3Cpath stroke='%23FE2C55' transform='translate(.9 .9)' d='M13 3.5v12a3.6 3.6 0 1 1-3.6-3.6M13 3.5c.4 2.7 2.4 4.7 5.6 4.8'/%3E%3Cpath stroke='%23fff' d='M13 3.5v12a3.6 3.6 0 1 1-3.6-3.6M13 3.5c.4 2.7 2.4 4.7 5.6 4.8'/%3E%3C/g%3E%3C/svg%3E",
      bg: "#000",
      text: "#fff",
    },
    options: userOptions,
  }
}
export { TikTok }
