// HubSpot (OAuth 2): authorize on app.hubspot.com, token on api.hubapi.com; the user comes from the access-token metadata.
import { OAuthCallbackError } from "../errors.js"
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** `GET /oauth/v1/access-tokens/<token>`: the token's metadata, naming the user and the portal (hub). */
export interface HubSpotProfile {
  /** The user's e-mail address. */
  user: string
  user_id: number
  hub_domain?: string
  hub_id?: number
  app_id?: number
  scopes?: string[]
  token_type?: string
  expires_in?: number
  [key: string]: unknown
}

/**
 * HubSpot sign-in. Callback URL to register: `<origin><basePath>/callback/hubspot`.
 * Env: AUTH_HUBSPOT_ID, AUTH_HUBSPOT_SECRET.
 */
export default function HubSpot<P extends HubSpotProfile>(options: OAuthUserConfig<P> = {}): OAuthConfigBase<P> {
  return {
    id: "hubspot",
    name: "HubSpot",
    type: "oauth",
    authorization: { url: "https://app.hubspot.com/oauth/authorize", params: { scope: "oauth" } },
    // HubSpot reads client_id and client_secret from the form body.
    client: { token_endpoint_auth_method: "client_secret_post" },
    token: "https://api.hubapi.com/oauth/v1/token",
    userinfo: {
      url: "https://api.hubapi.com/oauth/v1/access-tokens",
      async request({ tokens, fetch, url }) {
        const target = `${url.replace(/\/$/, "")}/${encodeURIComponent(String(tokens.access_token))}`
        const response = await fetch(target, { headers: { Accept: "application/json" } })
        if (!response.ok)
          throw new OAuthCallbackError(
            `HubSpot GET /oauth/v1/access-tokens answered ${response.status}, so the profile could not be read.`,
          )
        return (await response.json()) as Record<string, unknown>
      },
    },
    profile(profile) {
      return {
        id: profile.user_id == null ? "" : String(profile.user_id),
        name: profile.user ?? null,
        email: profile.user ?? null,
        image: null,
      }
    },
    style: {
      // A sprocket (hub with three spokes), drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%23000' stroke-width='2.2'%3E%3Ccircle cx='15' cy='14' r='4'/%3E%3Cpath d='M15 10V5M12 17l-6 4M12 11L5 6'/%3E%3Ccircle cx='15' cy='4' r='1.5' fill='%23000'/%3E%3C/svg%3E",
      // HubSpot's orange with black text: white on #ff7a59 is 2.6:1, below the 4.5:1 the page needs.
      bg: "#ff7a59",
      text: "#000",
    },
    options,
  }
}
export { HubSpot }
