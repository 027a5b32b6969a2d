// Atlassian (OAuth 2.0 3LO): audience api.atlassian.com, read:me, state only, GET api.atlassian.com/me.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The user as Atlassian's `GET /me` returns it (the fields Gatehouse reads). */
export interface AtlassianProfile {
  account_id: string
  account_type?: string
  account_status?: string
  email: string
  email_verified?: boolean
  name: string
  nickname?: string
  picture: string
  locale?: string
  [key: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * Atlassian sign-in. Callback URL to register: `<origin><basePath>/callback/atlassian`.
 * Env: AUTH_ATLASSIAN_ID, AUTH_ATLASSIAN_SECRET.
 */
export default function Atlassian(options: OAuthUserConfig<AtlassianProfile> = {}): OAuthConfigBase<AtlassianProfile> {
  return {
    id: "atlassian",
    name: "Atlassian",
    type: "oauth",
    checks: ["state"],
    authorization: {
      url: "https://auth.atlassian.com/authorize",
      params: { audience: "api.atlassian.com", scope: "read:me" },
    },
    token: "https://auth.atlassian.com/oauth/token",
    userinfo: "https://api.atlassian.com/me",
    profile(profile) {
      return {
        id: profile.account_id == null ? undefined : String(profile.account_id),
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }
    },
    style: {
      // Two rising strokes (Atlassian's mark, simplified), drawn for Gatehouse: Atlassian blue on white.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath fill='%230052CC' d='M7 11.5c.4-.5 1-.4 1.3.1l3.2 9.4H2.5zM12.3 2.5c.3-.6 1.1-.6 1.4 0L21.5 21h-7.4L10.6 9.5c.3-2.5 1-5 1.7-7z'/%3E%3C/svg%3E",
      bg: "#fff",
      text: "#0052CC",
    },
    options,
  }
}
export { Atlassian }
