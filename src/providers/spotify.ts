// Spotify (OAuth 2): the user-read-email scope, GET /v1/me.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

export interface SpotifyImage {
  url: string
  height?: number | null
  width?: number | null
}

/** The user as Spotify's `GET /v1/me` returns it (the fields Gatehouse reads). */
export interface SpotifyProfile {
  id: string
  display_name: string
  email: string
  images: SpotifyImage[]
  country?: string
  product?: string
  [key: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * Spotify sign-in. Callback URL to register: `<origin><basePath>/callback/spotify`.
 * Env: AUTH_SPOTIFY_ID, AUTH_SPOTIFY_SECRET.
 */
export default function Spotify<P extends SpotifyProfile>(options: OAuthUserConfig<P> = {}): OAuthConfigBase<P> {
  return {
    id: "spotify",
    name: "Spotify",
    type: "oauth",
    authorization: { url: "https://accounts.spotify.com/authorize", params: { scope: "user-read-email" } },
    token: "https://accounts.spotify.com/api/token",
    userinfo: "https://api.spotify.com/v1/me",
    profile(profile) {
      return {
        id: profile.id == null ? undefined : String(profile.id),
        name: profile.display_name ?? null,
        email: profile.email ?? null,
        image: profile.images?.[0]?.url ?? null,
      }
    },
    style: {
      // Three sound-wave arcs, drawn for Gatehouse: black on Spotify's green (white would be 2.5:1).
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath fill='none' stroke='%23000' stroke-width='2.2' stroke-linecap='round' d='M5 8.5c5-1.5 10-1 14 1.5M6 12.5c4-1 8-.6 11.5 1.3M7 16.3c3-.7 6-.4 8.5 1'/%3E%3C/svg%3E",
      bg: "#1DB954",
      text: "#000",
      brandColor: "#1DB954",
    },
    options,
  }
}
export { Spotify }
