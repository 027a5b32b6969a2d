// Notion (OAuth 2 public integrations): owner=user authorization, Basic-auth token, the user from /v1/users/me.
import { OAuthCallbackError } from "../errors.js"
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The Notion API version sent as `Notion-Version`. */
export const NOTION_API_VERSION = "2022-06-28"

/** A Notion person user (the `bot.owner.user` of `GET /v1/users/me` for a user-owned integration). */
export interface NotionProfile {
  object: "user"
  id: string
  type?: "person"
  name: string | null
  avatar_url: string | null
  person?: { email?: string }
  [key: string]: any // `any`, as in Auth.js: other fields read untyped
}

/** The body of `GET https://api.notion.com/v1/users/me` with an integration's token. */
export interface NotionBotUser {
  object: "user"
  id: string
  type: "bot"
  bot?: { owner?: { type?: "user" | "workspace"; user?: NotionProfile }; workspace_name?: string | null }
  [key: string]: unknown
}

/**
 * Notion sign-in (a public integration). Callback URL to register: `<origin><basePath>/callback/notion`.
 * Env: AUTH_NOTION_ID (the OAuth client ID), AUTH_NOTION_SECRET. The e-mail needs the "Read user information
 * including email addresses" capability.
 */
export default function Notion<P extends NotionProfile>(options: OAuthUserConfig<P> = {}): OAuthConfigBase<P> {
  const host = "https://api.notion.com"
  return {
    id: "notion",
    name: "Notion",
    type: "oauth",
    authorization: { url: `${host}/v1/oauth/authorize`, params: { owner: "user", response_type: "code" } },
    // Notion's token endpoint takes the client credentials as HTTP Basic (the default client_secret_basic).
    token: `${host}/v1/oauth/token`,
    userinfo: {
      url: `${host}/v1/users/me`,
      async request({ tokens, fetch, url }) {
        const response = await fetch(url, {
          headers: {
            Authorization: `Bearer ${String(tokens.access_token)}`,
            "Notion-Version": NOTION_API_VERSION,
            Accept: "application/json",
          },
        })
        if (!response.ok)
          throw new OAuthCallbackError(
            `Notion GET ${url} answered ${response.status}, so the profile could not be read.`,
          )
        const me = (await response.json()) as NotionBotUser
        // The person who installed the integration; a workspace-owned bot has none (then the profile has no id).
        return (me?.bot?.owner?.user ?? {}) as Record<string, unknown>
      },
    },
    profile(profile) {
      return {
        id: profile.id ?? "",
        name: profile.name ?? null,
        email: profile.person?.email ?? null,
        image: profile.avatar_url ?? null,
      }
    },
    style: {
      // An "N" in a rounded square, drawn for Gatehouse: black on white, as Notion's own mark.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cg fill='none' stroke='%23000' stroke-width='2'%3E%3Crect x='3' y='3' width='18' height='18' rx='3'/%3E%3Cpath d='M8 17V7l8 10V7'/%3E%3C/g%3E%3C/svg%3E",
      bg: "#fff",
      text: "#000",
    },
    options,
  }
}
export { Notion }
