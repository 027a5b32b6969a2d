// VK (OAuth 2 as VK really behaves): API version in the URLs, no PKCE, token without token_type, e-mail in the token response.
import { OAuthCallbackError } from "../errors.js"
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"
import type { VkProfile } from "./vk-profile.js"

export type { VkProfile } from "./vk-profile.js"

/** The API version used unless `apiVersion` (or a `v=` in one of the URL options) says otherwise. */
export const VK_DEFAULT_API_VERSION = "5.126"

export interface VkOptions extends OAuthUserConfig<VkProfile> {
  /** The VK API version for every URL (default 5.126). A `v=` already in a URL option wins for that URL. */
  apiVersion?: string
  accessTokenUrl?: string
  requestTokenUrl?: string
  authorizationUrl?: string
  profileUrl?: string
}

function withVersion(url: string, version: string): string {
  const parsed = new URL(url)
  if (!parsed.searchParams.has("v")) parsed.searchParams.set("v", version)
  return parsed.href
}

/** The largest photo the profile carries (when requested through `fields`), else photo_100. */
function bestPhoto(p: VkProfile): string | null {
  return p.photo_max_orig ?? p.photo_400_orig ?? p.photo_200_orig ?? p.photo_200 ?? p.photo_100 ?? null
}

/**
 * VK sign-in. Callback URL to register: `<origin><basePath>/callback/vk`. Env: AUTH_VK_ID, AUTH_VK_SECRET.
 * The four URL options of the VK docs (accessTokenUrl, requestTokenUrl, authorizationUrl, profileUrl) are honoured,
 * with their `v=` parameter.
 */
export default function VK(options: VkOptions = {}): OAuthConfigBase<VkProfile> {
  const {
    apiVersion = VK_DEFAULT_API_VERSION,
    accessTokenUrl,
    requestTokenUrl,
    authorizationUrl,
    profileUrl,
    ...userOptions
  } = options
  const authorize = withVersion(
    authorizationUrl ?? "https://oauth.vk.com/authorize?response_type=code&scope=email",
    apiVersion,
  )
  // VK documents one endpoint for both; an explicit accessTokenUrl wins over requestTokenUrl.
  const token = withVersion(accessTokenUrl ?? requestTokenUrl ?? "https://oauth.vk.com/access_token", apiVersion)
  const users = withVersion(profileUrl ?? "https://api.vk.com/method/users.get?fields=photo_100", apiVersion)
  return {
    id: "vk",
    name: "VK",
    type: "oauth",
    // VK rejects PKCE ("Code challenge method is unsupported"); state protects the flow instead.
    checks: ["state"],
    client: { token_endpoint_auth_method: "client_secret_post" },
    authorization: authorize,
    token: {
      url: token,
      // VK's token response has no token_type, which OAuth 2 requires (RFC 6749 §5.1): add the one it means.
      async conform(response) {
        if (!response.ok) return undefined
        const body = (await response
          .clone()
          .json()
          .catch(() => undefined)) as Record<string, unknown> | undefined
        if (!body || typeof body !== "object" || body.token_type !== undefined || typeof body.access_token !== "string")
          return undefined
        return new Response(JSON.stringify({ ...body, token_type: "bearer" }), {
          status: response.status,
          headers: { "content-type": "application/json" },
        })
      },
    },
    userinfo: {
      url: users,
      async request({ tokens, fetch, url }) {
        const response = await fetch(url, {
          headers: { Authorization: `Bearer ${String(tokens.access_token)}`, Accept: "application/json" },
        })
        const body = (await response.json().catch(() => undefined)) as
          | { response?: VkProfile[]; error?: { error_code?: number; error_msg?: string } }
          | undefined
        if (!response.ok || !body || body.error || !Array.isArray(body.response) || !body.response[0]) {
          // The VK error code only, never its text: as for OAuth errors, codes are logged and descriptions are not.
          throw new OAuthCallbackError(
            `VK users.get failed (HTTP ${response.status}${body?.error?.error_code !== undefined ? `, VK error ${body.error.error_code}` : ""}).`,
          )
        }
        // VK returns the e-mail only in the token response.
        return { ...body.response[0], ...(typeof tokens.email === "string" ? { email: tokens.email } : {}) }
      },
    },
    profile(profile) {
      const name = [profile.first_name, profile.last_name]
        .filter((part) => typeof part === "string" && part !== "")
        .join(" ")
      return { id: String(profile.id), name: name || null, email: profile.email ?? null, image: bestPhoto(profile) }
    },
    style: {
      // The "VK" letters, drawn for Gatehouse. VK's blue darkened (from #07F) so white text meets 4.5:1 contrast.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath fill='none' stroke='%23fff' stroke-width='2.4' stroke-linecap='round' stroke-linejoin='round' d='M2.5 7l3.6 10l3.6-10M13.5 7v10M20.5 7l-6.2 5l6.2 5'/%3E%3C/svg%3E",
      bg: "#0068e0",
      text: "#fff",
    },
    options: userOptions,
  }
}
export { VK }
