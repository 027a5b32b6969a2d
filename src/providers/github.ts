// GitHub (OAuth 2): endpoints, scopes and profile mapping; the e-mail comes from /user/emails when the profile hides it.
import { OAuthCallbackError } from "../errors.js"
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The GitHub user as `GET /user` returns it (the fields Gatehouse reads; GitHub sends more). */
export interface GitHubProfile {
  id: number
  login: string
  name: string | null
  email: string | null
  avatar_url: string
  html_url: string
  node_id: string
  gravatar_id: string | null
  url: string
  followers_url: string
  following_url: string
  gists_url: string
  starred_url: string
  subscriptions_url: string
  organizations_url: string
  repos_url: string
  events_url: string
  received_events_url: string
  type: string
  site_admin: boolean
  company: string | null
  blog: string | null
  location: string | null
  hireable: boolean | null
  bio: string | null
  twitter_username?: string | null
  public_repos: number
  public_gists: number
  followers: number
  following: number
  created_at: string
  updated_at: string
  private_gists?: number
  total_private_repos?: number
  owned_private_repos?: number
  disk_usage?: number
  suspended_at?: string | null
  collaborators?: number
  two_factor_authentication: boolean
  plan?: { collaborators: number; name: string; space: number; private_repos: number }
  [key: string]: unknown
}

/** One address of `GET /user/emails` (Auth.js's name). GitHub sends `visibility: null` for an address it does not show. */
export interface GitHubEmail {
  email: string
  primary: boolean
  verified: boolean
  visibility: "public" | "private" | null
}

/** For GitHub Enterprise Server: the instance's base URL (e.g. https://github.example.com). */
export interface GitHubOptions extends OAuthUserConfig<GitHubProfile> {
  enterprise?: { baseUrl?: string }
}

/**
 * GitHub sign-in. Callback URL to register: `<origin><basePath>/callback/github`.
 * Env: AUTH_GITHUB_ID, AUTH_GITHUB_SECRET.
 */
export default function GitHub(options: GitHubOptions = {}): OAuthConfigBase<GitHubProfile> {
  const { enterprise, ...userOptions } = options
  const web = enterprise?.baseUrl?.replace(/\/$/, "") ?? "https://github.com"
  const api = enterprise?.baseUrl ? `${web}/api/v3` : "https://api.github.com"
  return {
    id: "github",
    name: "GitHub",
    type: "oauth",
    authorization: { url: `${web}/login/oauth/authorize`, params: { scope: "read:user user:email" } },
    token: `${web}/login/oauth/access_token`,
    userinfo: {
      url: `${api}/user`,
      async request({ tokens, fetch, url: userUrl }) {
        const headers = {
          Authorization: `Bearer ${String(tokens.access_token)}`,
          "User-Agent": "gatehouse",
          Accept: "application/vnd.github+json",
        }
        const response = await fetch(userUrl, { headers })
        if (!response.ok)
          throw new OAuthCallbackError(
            `GitHub GET ${userUrl} answered ${response.status}, so the profile could not be read.`,
          )
        const profile = (await response.json()) as GitHubProfile
        if (!profile.email) {
          // The profile's e-mail is only the public one; the primary verified address needs the user:email scope.
          const emails = await fetch(`${userUrl.replace(/\/$/, "")}/emails`, { headers })
          if (emails.ok) {
            const list = (await emails.json()) as GitHubEmail[]
            const primary = Array.isArray(list) ? list.find((e) => e.primary && e.verified) : undefined
            profile.email = primary?.email ?? null
            // GitHub said this address is verified: pass that on, as an OIDC provider would (account linking reads it).
            if (primary) profile.email_verified = true
          }
        }
        return profile
      },
    },
    profile(profile) {
      return {
        id: String(profile.id),
        name: profile.name ?? profile.login,
        email: profile.email,
        image: profile.avatar_url,
      }
    },
    style: {
      // GitHub's cat mark, drawn for Gatehouse: white on the button colour.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath fill='%23fff' fill-rule='evenodd' d='M12 1a11 11 0 1 0 0 22a11 11 0 1 0 0-22zM9.6 21.2v-2.7c-2.9-.6-4.6-2.4-4.6-5.4c0-1.2.4-2.2 1.1-3c-.2-.7-.3-1.9.2-3.3c1.1 0 2.1.6 3 1.2c.9-.3 1.8-.4 2.7-.4s1.8.1 2.7.4c.9-.6 1.9-1.2 3-1.2c.5 1.4.4 2.6.2 3.3c.7.8 1.1 1.8 1.1 3c0 3-1.7 4.8-4.6 5.4v2.7zM6.3 17.6c1 .2 1.6.9 2 1.6c.3.5.8.7 1.3.6v1.1c-1.1.2-2-.3-2.5-1.2c-.3-.6-.6-1-1.1-1.2z'/%3E%3C/svg%3E",
      bg: "#24292f",
      text: "#fff",
    },
    options: userOptions,
  }
}
export { GitHub }
