// Trakt (OAuth 2): /users/me?extended=full with the trakt-api-version and trakt-api-key headers; the slug is the id.
import { OAuthCallbackError } from "../errors.js"
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The user as Trakt's `GET /users/me?extended=full` returns it (the fields Gatehouse reads). Trakt shares no e-mail. */
export interface TraktProfile {
  username: string
  private: boolean
  name: string
  vip: boolean
  vip_ep: boolean
  ids: { slug: string; uuid?: string }
  joined_at: string
  location: string | null
  about: string | null
  gender: string | null
  age: number | null
  images: { avatar: { full: string } }
  [key: string]: any // `any`, as in Auth.js: other fields read untyped
}

/** The name @auth/core gives this type. */
export type TraktUser = TraktProfile

/**
 * Trakt sign-in. Callback URL to register: `<origin><basePath>/callback/trakt`.
 * Env: AUTH_TRAKT_ID, AUTH_TRAKT_SECRET. The client id also goes out as the `trakt-api-key` header.
 */
export default function Trakt<P extends TraktProfile>(options: OAuthUserConfig<P> = {}): OAuthConfigBase<P> {
  return {
    id: "trakt",
    name: "Trakt",
    type: "oauth",
    authorization: { url: "https://trakt.tv/oauth/authorize", params: { scope: "" } },
    token: "https://api.trakt.tv/oauth/token",
    userinfo: {
      url: "https://api.trakt.tv/users/me?extended=full",
      async request({ tokens, provider, fetch, url }) {
        const headers = {
          Authorization: `Bearer ${String(tokens.access_token)}`,
          "trakt-api-version": "2",
          "trakt-api-key": String(provider.clientId ?? ""),
          "Content-Type": "application/json",
        }
        const response = await fetch(url, { headers })
        if (!response.ok)
          throw new OAuthCallbackError(
            `Trakt GET ${url} answered ${response.status}, so the profile could not be read.`,
          )
        return (await response.json()) as Record<string, unknown>
      },
    },
    profile(profile) {
      const slug = profile.ids?.slug
      return {
        id: slug == null ? undefined : String(slug),
        name: profile.name || profile.username || null,
        email: null,
        image: profile.images?.avatar?.full ?? null,
      }
    },
    style: {
      // A play mark in a ring, drawn for Gatehouse: white on a deeper Trakt red (5.2:1; #ED2224 gives 4.3:1).
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Ccircle cx='12' cy='12' r='9.5' fill='none' stroke='%23fff' stroke-width='2'/%3E%3Cpath fill='%23fff' d='M10 7.5l6 4.5l-6 4.5z'/%3E%3C/svg%3E",
      bg: "#D41F1F",
      text: "#fff",
    },
    options,
  }
}
export { Trakt }
