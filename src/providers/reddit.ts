// Reddit (OAuth 2): the identity scope, state only (no PKCE), GET oauth.reddit.com/api/v1/me.
import { OAuthCallbackError } from "../errors.js"
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The account as Reddit's `GET /api/v1/me` returns it (the fields Gatehouse reads; Reddit sends many more). */
export interface RedditProfile {
  /** The base-36 account id (without the `t2_` prefix). */
  id: string
  name: string
  icon_img?: string
  snoovatar_img?: string
  verified?: boolean
  [key: string]: unknown
}

/**
 * Reddit sign-in. Callback URL to register: `<origin><basePath>/callback/reddit`.
 * Env: AUTH_REDDIT_ID, AUTH_REDDIT_SECRET. Reddit never shares the e-mail: the user's email is null.
 * For a refresh token add `authorization: { params: { duration: "permanent" } }`.
 */
export default function Reddit(options: OAuthUserConfig<RedditProfile> = {}): OAuthConfigBase<RedditProfile> {
  return {
    id: "reddit",
    name: "Reddit",
    type: "oauth",
    checks: ["state"],
    authorization: { url: "https://www.reddit.com/api/v1/authorize", params: { scope: "identity" } },
    token: "https://www.reddit.com/api/v1/access_token",
    userinfo: {
      url: "https://oauth.reddit.com/api/v1/me",
      // Reddit's API rules ask for a descriptive User-Agent (<platform>:<app id>:<version>); generic ones are throttled.
      async request({ tokens, fetch, url, provider }) {
        const headers = {
          Authorization: `Bearer ${String(tokens.access_token)}`,
          "User-Agent": `web:${String(provider.clientId ?? "gatehouse")}:v1 (gatehouse)`,
        }
        const response = await fetch(url, { headers })
        if (!response.ok)
          throw new OAuthCallbackError(
            `Reddit GET ${url} answered ${response.status}, so the profile could not be read.`,
          )
        return (await response.json()) as Record<string, unknown>
      },
    },
    profile(profile) {
      // Reddit HTML-escapes the query of its image URLs.
      const image = profile.icon_img ? profile.icon_img.replace(/&amp;/g, "&") : null
      return { id: profile.id == null ? undefined : String(profile.id), name: profile.name ?? null, email: null, image }
    },
    style: {
      // An alien head with antenna, drawn for Gatehouse: black on Reddit's orange-red (white would be 3.4:1).
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cg fill='%23000'%3E%3Cellipse cx='12' cy='15' rx='8' ry='5.5'/%3E%3Ccircle cx='17.5' cy='4.5' r='1.8'/%3E%3Cpath d='M12 9.5l1.5-6l4 1' stroke='%23000' stroke-width='1.2' fill='none'/%3E%3C/g%3E%3Ccircle cx='9' cy='14' r='1.3' fill='%23FF4500'/%3E%3Ccircle cx='15' cy='14' r='1.3' fill='%23FF4500'/%3E%3C/svg%3E",
      bg: "#FF4500",
      text: "#000",
      brandColor: "#FF4500",
    },
    options,
  }
}
export { Reddit }
