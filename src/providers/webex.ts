// Webex (OAuth 2): spark:kms + spark:people_read, the person from GET /people/me; `apiBaseUrl` for other Webex clouds.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The person as Webex's `GET /v1/people/me` returns it (the fields Gatehouse reads). */
export interface WebexProfile {
  id: string
  emails: string[]
  displayName?: string
  firstName?: string
  lastName?: string
  avatar?: string
  orgId?: string
  [key: string]: any // `any`, as in Auth.js: other fields read untyped
}

export interface WebexOptions extends OAuthUserConfig<WebexProfile> {
  /** The API base (default `https://webexapis.com/v1`); authorize, access_token and people/me hang off it. */
  apiBaseUrl?: string
}

/**
 * Webex sign-in. Callback URL to register: `<origin><basePath>/callback/webex`.
 * Env: AUTH_WEBEX_ID, AUTH_WEBEX_SECRET.
 */
export default function Webex(options: WebexOptions = {}): OAuthConfigBase<WebexProfile> {
  const { apiBaseUrl = "https://webexapis.com/v1", ...userOptions } = options
  const base = apiBaseUrl.replace(/\/$/, "")
  return {
    id: "webex",
    name: "Webex",
    type: "oauth",
    authorization: { url: `${base}/authorize`, params: { scope: "spark:kms spark:people_read" } },
    token: {
      url: `${base}/access_token`,
      // Webex's documented answer carries no token_type, which OAuth 2 requires: the bearer type is added when missing.
      async conform(response) {
        if (!response.ok) return undefined
        const body = (await response
          .clone()
          .json()
          .catch(() => undefined)) as Record<string, unknown> | undefined
        if (!body || typeof body.token_type === "string") return undefined
        return new Response(JSON.stringify({ ...body, token_type: "bearer" }), {
          status: response.status,
          headers: { "content-type": "application/json" },
        })
      },
    },
    userinfo: `${base}/people/me`,
    profile(profile) {
      return {
        id: profile.id == null ? undefined : String(profile.id),
        name: profile.displayName ?? null,
        email: profile.emails?.[0] ?? null,
        image: profile.avatar ?? null,
      }
    },
    style: {
      // Two interlocking rings, drawn for Gatehouse: black on Webex cyan (9.8:1).
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%23000' stroke-width='2.5'%3E%3Ccircle cx='8.5' cy='12' r='6'/%3E%3Ccircle cx='15.5' cy='12' r='6'/%3E%3C/svg%3E",
      bg: "#07C1E4",
      text: "#000",
    },
    options: userOptions,
  }
}
export { Webex }
