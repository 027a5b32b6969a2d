// Twitter / X: OAuth 1.0a by default (RFC 5849, the v1.1 verify-credentials profile), OAuth 2 with PKCE when `version: "2.0"`.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** A post (tweet) expanded in `includes` (the seed's "pinned post"). */
export interface TwitterTweet {
  id: string
  text: string
}

/** The OAuth 2 `users/me` response: `data` and, with `expansions=pinned_tweet_id`, `includes.tweets`. */
export interface TwitterProfile {
  data: {
    /** Unique user id, a string to avoid large-integer problems. */
    id: string
    name: string
    username: string
    created_at?: string
    /** Returned when `user.fields` includes `description`. */
    description?: string
    /** Unsupported by Twitter (also with OAuth 2); always absent. */
    email?: string
    /** Returned when `user.fields` includes `entities`. */
    entities?: {
      description: { hashtags: { start: number; end: number; tag: string }[] }
      url: { urls: { start: number; end: number; url: string; expanded_url: string; display_url: string }[] }
    }
    /** Returned when `user.fields` includes `location`. */
    location?: string
    /** The pinned tweet's id; expanded in `includes.tweets` when `expansions` includes `pinned_tweet_id`. */
    pinned_tweet_id?: string
    profile_image_url?: string
    protected?: boolean
    /** Returned when `user.fields` includes `url`. */
    url?: string
    /** Returned when `user.fields` includes `verified`. */
    verified?: boolean
  }
  includes?: { tweets?: TwitterTweet[] }
  [claims: string]: unknown
}

/** The OAuth 1.0a profile: `GET 1.1/account/verify_credentials.json?include_email=true` (the fields mapped). */
export interface TwitterLegacyProfile {
  id: number
  id_str: string
  name: string
  screen_name: string
  /** Present only when the app has the "Request email address from users" permission. */
  email?: string
  profile_image_url_https?: string
  [key: string]: unknown
}

export interface TwitterOptions extends OAuthUserConfig<TwitterProfile | TwitterLegacyProfile> {
  /** `"2.0"` for OAuth 2 (PKCE + state, API v2, never an e-mail); default OAuth 1.0a. */
  version?: "2.0" | "1.0A"
  /** OAuth 2: the `user.fields` requested from `users/me` (profile_image_url is always added). */
  userFields?: string[]
  /** OAuth 2: the `expansions` of `users/me`, e.g. `["pinned_tweet_id"]` to fill `includes.tweets`. */
  expansions?: string[]
}

/** The full-size avatar: Twitter serves `…_normal.jpg` (48x48) unless the suffix is removed. */
function fullSizeImage(url: string | undefined): string | null {
  return url ? url.replace(/_normal(\.[a-z]+)$/i, "$1") : null
}

/** The X mark (the platform's current name), drawn for Gatehouse: white on black. */
const X_LOGO =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath fill='none' stroke='%23fff' stroke-width='1.6' stroke-linejoin='round' d='M3.5 3.5h4.6l12.4 17h-4.6z'/%3E%3Cpath stroke='%23fff' stroke-width='1.8' d='M20.2 3.2l-6.7 7.6M10.5 13.2l-6.7 7.6'/%3E%3C/svg%3E"

/**
 * Twitter / X sign-in. Callback URL to register: `<origin><basePath>/callback/twitter`.
 * Env: AUTH_TWITTER_ID, AUTH_TWITTER_SECRET (the API key and secret for OAuth 1.0a; the OAuth 2 client id and secret for 2.0).
 */
export default function Twitter(options: TwitterOptions = {}): OAuthConfigBase<TwitterProfile | TwitterLegacyProfile> {
  const { version, userFields, expansions, ...userOptions } = options
  if (version === "2.0") {
    const fields = [...new Set(["profile_image_url", ...(userFields ?? [])])].join(",")
    const me = new URL("https://api.x.com/2/users/me")
    me.searchParams.set("user.fields", fields)
    if (expansions?.length) me.searchParams.set("expansions", expansions.join(","))
    return {
      id: "twitter",
      name: "Twitter",
      type: "oauth",
      version: "2.0",
      checks: ["pkce", "state"],
      authorization: {
        url: "https://x.com/i/oauth2/authorize",
        params: { scope: "users.read tweet.read offline.access" },
      },
      token: "https://api.x.com/2/oauth2/token",
      userinfo: me.href,
      profile(profile) {
        const { data } = profile as TwitterProfile
        return { id: data.id, name: data.name, email: null, image: fullSizeImage(data.profile_image_url) }
      },
      style: { logo: X_LOGO, bg: "#000", text: "#fff" },
      options: userOptions,
    }
  }
  return {
    id: "twitter",
    name: "Twitter",
    type: "oauth",
    version: "1.0A",
    requestTokenUrl: "https://api.x.com/oauth/request_token",
    authorizationUrl: "https://api.x.com/oauth/authenticate",
    accessTokenUrl: "https://api.x.com/oauth/access_token",
    profileUrl: "https://api.x.com/1.1/account/verify_credentials.json?include_email=true",
    profile(profile) {
      const p = profile as TwitterLegacyProfile
      return {
        id: p.id_str ?? String(p.id),
        name: p.name,
        email: p.email ?? null,
        image: fullSizeImage(p.profile_image_url_https),
      }
    },
    style: { logo: X_LOGO, bg: "#000", text: "#fff" },
    options: userOptions,
  }
}
export { Twitter }
