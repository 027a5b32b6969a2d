// Twitch (OpenID Connect): fixed issuer, client_secret_post, the e-mail and picture asked for through `claims`.
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The claims of a Twitch ID token (with the `claims` Gatehouse requests). */
export interface TwitchProfile {
  iss: string
  sub: string
  aud: string
  preferred_username: string
  email: string
  email_verified?: boolean
  picture: string
  [claim: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * Twitch sign-in. Callback URL to register: `<origin><basePath>/callback/twitch`.
 * Env: AUTH_TWITCH_ID, AUTH_TWITCH_SECRET.
 */
export default function Twitch(options: OIDCUserConfig<TwitchProfile> = {}): OAuthConfigBase<TwitchProfile> {
  return {
    id: "twitch",
    name: "Twitch",
    type: "oidc",
    issuer: "https://id.twitch.tv/oauth2",
    client: { token_endpoint_auth_method: "client_secret_post" },
    authorization: {
      params: {
        scope: "openid user:read:email",
        // Twitch puts these in the ID token only when asked (OIDC Core §5.5).
        claims: JSON.stringify({
          id_token: { email: null, email_verified: null, picture: null, preferred_username: null },
        }),
      },
    },
    token: {
      // Twitch answers `scope` as a JSON array; RFC 6749 §5.1 wants a space-separated string.
      async conform(response) {
        if (!response.ok) return undefined
        const body = (await response
          .clone()
          .json()
          .catch(() => undefined)) as Record<string, unknown> | undefined
        if (!body || !Array.isArray(body.scope)) return undefined
        return new Response(JSON.stringify({ ...body, scope: body.scope.join(" ") }), {
          status: response.status,
          headers: { "content-type": "application/json" },
        })
      },
    },
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.preferred_username ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }
    },
    style: {
      // A speech-bubble glyph with two bars, drawn for Gatehouse: white on Twitch's purple.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath fill='%23fff' fill-rule='evenodd' d='M4 2h17v12l-5 5h-4l-3 3H7v-3H3V6zM11 7v5h2V7zM16 7v5h2V7z'/%3E%3C/svg%3E",
      bg: "#65459B",
      text: "#fff",
    },
    options,
  }
}
export { Twitch }
