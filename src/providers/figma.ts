// Figma (OAuth 2): authorize on www.figma.com, token and `GET /v1/me` on api.figma.com; state only (Auth.js's checks).
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The user as `GET /v1/me` returns it. */
export interface FigmaProfile {
  id: string
  email: string
  handle: string
  img_url: string
  [key: string]: unknown
}

/**
 * Figma sign-in. Callback URL to register: `<origin><basePath>/callback/figma`.
 * Env: AUTH_FIGMA_ID, AUTH_FIGMA_SECRET. The default scope, `current_user:read`, is the one `GET /v1/me` needs; add
 * granular scopes (`file_content:read`, ...) through `authorization: { params: { scope } }`.
 */
export default function Figma(options: OAuthUserConfig<FigmaProfile> = {}): OAuthConfigBase<FigmaProfile> {
  return {
    id: "figma",
    name: "Figma",
    type: "oauth",
    authorization: { url: "https://www.figma.com/oauth", params: { scope: "current_user:read" } },
    token: "https://api.figma.com/v1/oauth/token",
    userinfo: "https://api.figma.com/v1/me",
    checks: ["state"],
    profile(profile) {
      return {
        id: profile.id == null ? "" : String(profile.id),
        name: profile.handle ?? null,
        email: profile.email ?? null,
        image: profile.img_url ?? null,
      }
    },
    style: {
      // Five rounded pieces (two columns), drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='%23000'%3E%3Cpath d='M8 2h4v6H8a3 3 0 0 1 0-6zm4 0h4a3 3 0 0 1 0 6h-4zM8 9h4v6H8a3 3 0 0 1 0-6zm0 7h4v3a3 3 0 1 1-4-3z'/%3E%3Ccircle cx='15' cy='12' r='3'/%3E%3C/svg%3E",
      // Figma's orange with black text: white on #ff7237 is 2.7:1, below the 4.5:1 the page needs.
      bg: "#ff7237",
      text: "#000",
    },
    options,
  }
}
export { Figma }
