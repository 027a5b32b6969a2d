// Zoho Accounts (OAuth 2): the AaaServer.profile.Read scope, the user from /oauth/user/info (accounts.zoho.com).
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The user as Zoho's `GET https://accounts.zoho.com/oauth/user/info` returns it. */
export interface ZohoProfile {
  ZUID: number | string
  First_Name: string
  Last_Name: string
  Display_Name?: string
  Email: string
  [key: string]: unknown
}

/**
 * Zoho sign-in (the US data centre, accounts.zoho.com). Callback URL to register: `<origin><basePath>/callback/zoho`.
 * Env: AUTH_ZOHO_ID, AUTH_ZOHO_SECRET.
 */
export default function Zoho(options: OAuthUserConfig<ZohoProfile> = {}): OAuthConfigBase<ZohoProfile> {
  return {
    id: "zoho",
    name: "Zoho",
    type: "oauth",
    authorization: { url: "https://accounts.zoho.com/oauth/v2/auth", params: { scope: "AaaServer.profile.Read" } },
    token: "https://accounts.zoho.com/oauth/v2/token",
    userinfo: "https://accounts.zoho.com/oauth/user/info",
    profile(profile) {
      const full = [profile.First_Name, profile.Last_Name].filter(Boolean).join(" ")
      return {
        id: profile.ZUID == null ? undefined : String(profile.ZUID),
        name: full || profile.Display_Name || null,
        email: profile.Email ?? null,
        image: null,
      }
    },
    style: {
      // Four overlapping squares, drawn for Gatehouse: white on Zoho blue (5.4:1).
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%23fff' stroke-width='2'%3E%3Crect x='2' y='7' width='5' height='10'/%3E%3Crect x='7.5' y='7' width='5' height='10' transform='rotate(-10 10 12)'/%3E%3Crect x='13' y='7' width='4' height='10'/%3E%3Crect x='18' y='7' width='4' height='10'/%3E%3C/svg%3E",
      bg: "#226DB4",
      text: "#fff",
    },
    options,
  }
}
export { Zoho }
