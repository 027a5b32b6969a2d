// Medium (OAuth 2): medium.com authorization, the v1 tokens endpoint (client_secret_post) and /v1/me.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The body of `GET https://api.medium.com/v1/me`. */
export interface MediumProfile {
  data: {
    id: string
    username: string
    name: string
    url?: string
    imageUrl?: string
    [key: string]: unknown
  }
  [key: string]: unknown
}

/**
 * Medium sign-in. Callback URL to register: `<origin><basePath>/callback/medium`.
 * Env: AUTH_MEDIUM_ID, AUTH_MEDIUM_SECRET. Medium shares no e-mail address: it is always null. Medium no longer
 * issues new integration tokens to new apps; existing apps keep working.
 */
export default function Medium(options: OAuthUserConfig<MediumProfile> = {}): OAuthConfigBase<MediumProfile> {
  return {
    id: "medium",
    name: "Medium",
    type: "oauth",
    authorization: { url: "https://medium.com/m/oauth/authorize", params: { scope: "basicProfile" } },
    token: "https://api.medium.com/v1/tokens",
    userinfo: "https://api.medium.com/v1/me",
    // Medium reads client_id and client_secret from the form body.
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      const user = profile.data
      return { id: user?.id ?? "", name: user?.name ?? null, email: null, image: user?.imageUrl ?? null }
    },
    style: {
      // Three ellipses of falling size, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='%23fff'%3E%3Cellipse cx='7' cy='12' rx='6' ry='6.5'/%3E%3Cellipse cx='17' cy='12' rx='3' ry='6'/%3E%3Cellipse cx='22' cy='12' rx='1.2' ry='5.2'/%3E%3C/svg%3E",
      bg: "#000",
      text: "#fff",
    },
    options,
  }
}
export { Medium }
