// Eventbrite (OAuth 2): client_secret_post, the v3 users/me endpoint and the primary e-mail address.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The body of `GET https://www.eventbriteapi.com/v3/users/me/` (the fields Gatehouse reads). */
export interface EventbriteProfile {
  id: string
  name: string
  first_name: string
  last_name: string
  emails: { email: string; verified: boolean; primary: boolean }[]
  image_id: string
  [key: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * Eventbrite sign-in. Callback URL to register (the app's OAuth Redirect URI): `<origin><basePath>/callback/eventbrite`.
 * Env: AUTH_EVENTBRITE_ID (the API key), AUTH_EVENTBRITE_SECRET (the client secret).
 */
export default function Eventbrite<P extends EventbriteProfile>(options: OAuthUserConfig<P> = {}): OAuthConfigBase<P> {
  return {
    id: "eventbrite",
    name: "Eventbrite",
    type: "oauth",
    authorization: { url: "https://www.eventbrite.com/oauth/authorize", params: { scope: "user.profile" } },
    token: "https://www.eventbrite.com/oauth/token",
    userinfo: "https://www.eventbriteapi.com/v3/users/me/",
    // Eventbrite reads client_id and client_secret from the form body.
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      const email = Array.isArray(profile.emails) ? profile.emails.find((e) => e.primary)?.email : undefined
      const image = profile.image_id
        ? `https://img.evbuc.com/https%3A%2F%2Fcdn.evbuc.com%2Fimages%2F${encodeURIComponent(profile.image_id)}%2F1%2Foriginal.jpg`
        : null
      return {
        id: profile.id != null ? String(profile.id) : "",
        name: profile.name ?? null,
        email: email ?? null,
        image,
      }
    },
    style: {
      // A lower-case e, drawn for Gatehouse, on Eventbrite's orange; dark text, as white on it is under 4.5:1.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath fill='none' stroke='%23000' stroke-width='3' d='M5.5 12h13a6.5 6.5 0 1 0-2 5'/%3E%3C/svg%3E",
      bg: "#f05537",
      text: "#000",
    },
    options,
  }
}
export { Eventbrite }
