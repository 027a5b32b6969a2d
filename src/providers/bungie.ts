// Bungie.net (OAuth 2): the current user's Bungie.net account, read with the app's X-API-Key.
import { readEnv } from "../lib/env.js"
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The body of `GET https://www.bungie.net/Platform/User/GetMembershipsForCurrentUser/` (the fields Gatehouse reads). */
export interface BungieProfile {
  Response: {
    bungieNetUser: {
      membershipId: string
      uniqueName?: string
      displayName: string
      profilePicturePath?: string
      [key: string]: unknown
    }
    destinyMemberships?: Record<string, unknown>[]
    [key: string]: unknown
  }
  ErrorCode?: number
  ErrorStatus?: string
  [key: string]: unknown
}

const ORIGIN = "https://www.bungie.net"

/**
 * Bungie sign-in. Callback URL to register (https only): `<origin><basePath>/callback/bungie`.
 * Env: AUTH_BUNGIE_ID, AUTH_BUNGIE_SECRET (a confidential client). Every Bungie.net API call needs the app's API key
 * in `X-API-Key`: pass it as `apiKey` (default: the BUNGIE_API_KEY environment variable). Bungie shares no e-mail.
 */
export default function Bungie(
  options: OAuthUserConfig<BungieProfile> & { apiKey?: string } = {},
): OAuthConfigBase<BungieProfile> {
  const { apiKey, ...rest } = options
  return {
    id: "bungie",
    name: "Bungie",
    type: "oauth",
    authorization: { url: `${ORIGIN}/en/OAuth/Authorize`, params: { reauth: "true" } },
    token: `${ORIGIN}/platform/app/oauth/token/`,
    userinfo: {
      url: `${ORIGIN}/Platform/User/GetMembershipsForCurrentUser/`,
      async request({ tokens, fetch, url }) {
        const key = apiKey ?? readEnv("BUNGIE_API_KEY") ?? ""
        const response = await fetch(url, {
          headers: { Authorization: `Bearer ${String(tokens.access_token)}`, "X-API-Key": key },
        })
        if (!response.ok) throw new Error(`Bungie.net answered HTTP ${response.status} to ${url}`)
        return (await response.json()) as Record<string, unknown>
      },
    },
    profile(profile) {
      const user = profile.Response?.bungieNetUser
      const path = user?.profilePicturePath
      const image = path ? `${ORIGIN}${path.startsWith("/") ? "" : "/"}${path}` : null
      return {
        id: user?.membershipId != null ? String(user.membershipId) : "",
        name: user?.displayName ?? null,
        email: null,
        image,
      }
    },
    style: {
      // A split circle, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Ccircle cx='12' cy='12' r='8.5' fill='none' stroke='%23fff' stroke-width='2.5'/%3E%3Cpath fill='%23fff' d='M11 2h2v20h-2zM12 7l4 5l-4 5l-4-5z'/%3E%3C/svg%3E",
      bg: "#000",
      text: "#fff",
    },
    options: rest,
  }
}
export { Bungie }
