// Dropbox (OAuth 2): account_info.read, an offline (refresh) token, and the account from POST /2/users/get_current_account.
import { OAuthCallbackError } from "../errors.js"
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The account as Dropbox's `POST /2/users/get_current_account` returns it (the fields Gatehouse reads). */
export interface DropboxProfile {
  account_id: string
  name: { given_name: string; surname: string; familiar_name: string; display_name: string; abbreviated_name: string }
  email: string
  email_verified: boolean
  profile_photo_url?: string
  disabled?: boolean
  [key: string]: unknown
}

/**
 * Dropbox sign-in. Callback URL to register: `<origin><basePath>/callback/dropbox`.
 * Env: AUTH_DROPBOX_ID, AUTH_DROPBOX_SECRET.
 */
export default function Dropbox(options: OAuthUserConfig<DropboxProfile> = {}): OAuthConfigBase<DropboxProfile> {
  return {
    id: "dropbox",
    name: "Dropbox",
    type: "oauth",
    authorization: {
      url: "https://www.dropbox.com/oauth2/authorize",
      params: { token_access_type: "offline", scope: "account_info.read" },
    },
    token: "https://api.dropboxapi.com/oauth2/token",
    userinfo: {
      url: "https://api.dropboxapi.com/2/users/get_current_account",
      // An RPC endpoint: POST with no body (Dropbox refuses a GET).
      async request({ tokens, fetch, url }) {
        const response = await fetch(url, {
          method: "POST",
          headers: { Authorization: `Bearer ${String(tokens.access_token)}` },
        })
        if (!response.ok)
          throw new OAuthCallbackError(
            `Dropbox POST ${url} answered ${response.status}, so the profile could not be read.`,
          )
        return (await response.json()) as Record<string, unknown>
      },
    },
    profile(profile) {
      return {
        id: profile.account_id == null ? undefined : String(profile.account_id),
        name: profile.name?.display_name ?? null,
        email: profile.email ?? null,
        image: profile.profile_photo_url ?? null,
      }
    },
    style: {
      // Dropbox's open box (four diamonds), drawn for Gatehouse: white on Dropbox blue (5:1).
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath fill='%23fff' d='M7 3l5 3.2l-5 3.2l-5-3.2zM17 3l5 3.2l-5 3.2l-5-3.2zM2 12.6l5-3.2l5 3.2l-5 3.2zM12 12.6l5-3.2l5 3.2l-5 3.2zM7 17l5-3.2l5 3.2l-5 3.2z'/%3E%3C/svg%3E",
      bg: "#0061FE",
      text: "#fff",
      brandColor: "#0061FE",
    },
    options,
  }
}
export { Dropbox }
