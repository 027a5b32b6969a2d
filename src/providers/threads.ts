// Threads (OAuth 2, Meta's Threads API): threads_basic, client_secret_post, the user from graph.threads.net/v1.0/me.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The user as `GET https://graph.threads.net/v1.0/me?fields=id,username,threads_profile_picture_url` returns it. */
export interface ThreadsProfile {
  id: string
  username?: string
  name?: string
  threads_profile_picture_url?: string
  threads_biography?: string
  /** Auth.js types the answer as wrapped in `data`; the Graph API sends the fields at the top, and both are read. */
  data: { id: string; username?: string; threads_profile_picture_url?: string; threads_biography?: string }
  [key: string]: unknown
}

/**
 * Threads sign-in. Callback URL to register (Threads redirect callback URL): `<origin><basePath>/callback/threads`.
 * Env: AUTH_THREADS_ID, AUTH_THREADS_SECRET (the Threads app id and secret). Threads shares no e-mail.
 */
export default function Threads(options: OAuthUserConfig<ThreadsProfile> = {}): OAuthConfigBase<ThreadsProfile> {
  return {
    id: "threads",
    name: "Threads",
    type: "oauth",
    checks: ["state"],
    authorization: { url: "https://threads.net/oauth/authorize", params: { scope: "threads_basic" } },
    token: {
      url: "https://graph.threads.net/oauth/access_token",
      // Threads answers { access_token, user_id } without token_type, which OAuth 2 requires: the bearer type is added.
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
    userinfo: "https://graph.threads.net/v1.0/me?fields=id,username,threads_profile_picture_url",
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      const user = profile.data ?? profile
      return {
        id: user.id == null ? undefined : String(user.id),
        name: user.username || null,
        email: null,
        image: user.threads_profile_picture_url || null,
      }
    },
    style: {
      // An at-sign loop, drawn for Gatehouse: white on black (21:1).
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%23fff' stroke-width='2.2' stroke-linecap='round'%3E%3Cpath d='M17 8.5C16 5.5 14 4 11.5 4C7 4 4.5 7.5 4.5 12s2.5 8 7 8c3 0 5.5-1.5 6-4.5s-2-5-5.5-4.5c-2 .3-3 1.5-3 2.8s1.2 2.3 3 2.2c2.5-.2 3.5-2 3.5-5.5'/%3E%3C/svg%3E",
      bg: "#000",
      text: "#fff",
    },
    options,
  }
}
export { Threads }
