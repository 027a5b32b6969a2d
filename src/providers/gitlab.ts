// GitLab (OAuth 2) on gitlab.com or a self-managed instance (`baseUrl`): read_user scope, GET /api/v4/user.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The user as GitLab's `GET /api/v4/user` returns it (the fields Gatehouse reads; GitLab sends more). */
export interface GitLabProfile {
  id: number
  username: string
  name: string
  email: string
  avatar_url: string
  web_url: string
  state: string
  [key: string]: any // `any`, as in Auth.js: other fields read untyped
}

export interface GitLabOptions extends OAuthUserConfig<GitLabProfile> {
  /** A self-managed instance's base URL (default https://gitlab.com). */
  baseUrl?: string | URL
}

/**
 * GitLab sign-in. Callback URL to register: `<origin><basePath>/callback/gitlab`.
 * Env: AUTH_GITLAB_ID, AUTH_GITLAB_SECRET. Self-managed: `GitLab({ baseUrl: "https://gitlab.example.com" })`.
 */
export default function GitLab(options: GitLabOptions = {}): OAuthConfigBase<GitLabProfile> {
  const { baseUrl, ...userOptions } = options
  const base = new URL(String(baseUrl ?? "https://gitlab.com")).href.replace(/\/?$/, "/")
  return {
    id: "gitlab",
    name: "GitLab",
    type: "oauth",
    authorization: { url: `${base}oauth/authorize`, params: { scope: "read_user" } },
    token: `${base}oauth/token`,
    userinfo: `${base}api/v4/user`,
    profile(profile) {
      const id = profile.id ?? (profile as { sub?: unknown }).sub
      return {
        id: id == null ? undefined : String(id),
        name: profile.name ?? profile.username,
        email: profile.email ?? null,
        image: profile.avatar_url ?? null,
      }
    },
    style: {
      // A fox-head glyph (three triangles), drawn for Gatehouse: dark on GitLab's orange (7:1).
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath fill='%23171321' d='M12 22L2 13l2.5-10l3 8h9l3-8l2.5 10z'/%3E%3C/svg%3E",
      bg: "#FC6D26",
      text: "#171321",
    },
    options: userOptions,
  }
}
export { GitLab }
