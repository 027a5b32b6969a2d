// Strava (OAuth 2): www.strava.com endpoints, client_secret_post, and the athlete → user mapping.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The athlete as `GET https://www.strava.com/api/v3/athlete` returns it (the fields Gatehouse reads). */
export interface StravaProfile {
  id: number
  username?: string | null
  firstname: string
  lastname: string
  profile: string
  profile_medium?: string
  city?: string | null
  country?: string | null
  [key: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * Strava sign-in. Callback URL to register: the Authorization Callback Domain of your app, and
 * `<origin><basePath>/callback/strava` as the redirect. Env: AUTH_STRAVA_ID, AUTH_STRAVA_SECRET.
 * Strava shares no e-mail address: it is always null.
 */
export default function Strava<P extends StravaProfile>(options: OAuthUserConfig<P> = {}): OAuthConfigBase<P> {
  return {
    id: "strava",
    name: "Strava",
    type: "oauth",
    authorization: {
      url: "https://www.strava.com/api/v3/oauth/authorize",
      params: { scope: "read", approval_prompt: "auto", response_type: "code" },
    },
    token: "https://www.strava.com/api/v3/oauth/token",
    userinfo: "https://www.strava.com/api/v3/athlete",
    // Strava reads client_id and client_secret from the form body.
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      const name = [profile.firstname, profile.lastname]
        .filter((part) => typeof part === "string" && part !== "")
        .join(" ")
      return {
        id: profile.id != null ? String(profile.id) : "",
        name: name || null,
        email: null,
        image: profile.profile ?? null,
      }
    },
    style: {
      // Two peaks, drawn for Gatehouse, on Strava's orange; dark text, as white on this orange is under 4.5:1.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath fill='%23fff' d='M10 2L4 14h3.6L10 9.3l2.4 4.7H16zM16 14l-1.8 3.6l-1.8-3.6H9.8l4.4 8l4.4-8z'/%3E%3C/svg%3E",
      bg: "#fc4c02",
      text: "#000",
    },
    options,
  }
}
export { Strava }
