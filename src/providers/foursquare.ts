// Foursquare (OAuth 2, Places API v2 users): authenticate and token on foursquare.com; `users/self` takes the token as `oauth_token`.
import { OAuthCallbackError } from "../errors.js"
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The user inside `GET /v2/users/self`'s `response` (the fields Gatehouse reads). */
export interface FoursquareUser {
  id: string
  firstName?: string
  lastName?: string
  contact?: { email?: string; [key: string]: unknown }
  photo?: { prefix: string; suffix: string }
  [key: string]: unknown
}

/** `GET /v2/users/self` as Foursquare answers it: `{ meta, response: { user } }`. */
export interface FoursquareProfile {
  meta?: { code: number; requestId?: string }
  response: { user: FoursquareUser }
  [key: string]: unknown
}

export interface FoursquareOptions extends OAuthUserConfig<FoursquareProfile> {
  /** The `v=` version date (YYYYMMDD) Foursquare's v2 API requires (default 20230131). */
  apiVersion?: string
}

/**
 * Foursquare sign-in. Callback URL to register: `<origin><basePath>/callback/foursquare`.
 * Env: AUTH_FOURSQUARE_ID, AUTH_FOURSQUARE_SECRET.
 */
export default function Foursquare(options: FoursquareOptions = {}): OAuthConfigBase<FoursquareProfile> {
  const { apiVersion = "20230131", ...userOptions } = options
  return {
    id: "foursquare",
    name: "Foursquare",
    type: "oauth",
    authorization: "https://foursquare.com/oauth2/authenticate",
    token: "https://foursquare.com/oauth2/access_token",
    userinfo: {
      url: `https://api.foursquare.com/v2/users/self?v=${apiVersion}`,
      async request({ tokens, fetch, url }) {
        // Foursquare's v2 API authenticates users by the `oauth_token` query parameter, not a Bearer header.
        const target = new URL(url)
        target.searchParams.set("oauth_token", String(tokens.access_token))
        const response = await fetch(target.href)
        if (!response.ok)
          throw new OAuthCallbackError(
            `Foursquare GET /v2/users/self answered ${response.status}, so the profile could not be read.`,
          )
        return (await response.json()) as Record<string, unknown>
      },
    },
    profile(profile) {
      const user = profile.response?.user ?? ({} as FoursquareUser)
      const name = [user.firstName, user.lastName].filter(Boolean).join(" ")
      return {
        id: user.id == null ? "" : String(user.id),
        name: name || null,
        email: user.contact?.email ?? null,
        image: user.photo ? `${user.photo.prefix}original${user.photo.suffix}` : null,
      }
    },
    style: {
      // A white pin, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='%23fff'%3E%3Cpath d='M12 2a7 7 0 0 0-7 7c0 5 7 13 7 13s7-8 7-13a7 7 0 0 0-7-7zm0 4a3 3 0 1 1 0 6a3 3 0 0 1 0-6z'/%3E%3C/svg%3E",
      bg: "#000",
      text: "#fff",
    },
    options: userOptions,
  }
}
export { Foursquare }
