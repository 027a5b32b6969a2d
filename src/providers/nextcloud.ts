// Nextcloud (OAuth 2 on a self-hosted server): the instance URL as `issuer`, the user from the OCS users API.
import { OAuthCallbackError } from "../errors.js"
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The user as Nextcloud's `GET /ocs/v1.php/cloud/users/<user_id>` returns it under `ocs.data` (the fields Gatehouse reads). */
export interface NextcloudProfile {
  id: string
  displayname: string
  email: string | null
  enabled: boolean
  language: string
  locale: string
  [key: string]: any // `any`, as in Auth.js: other fields read untyped
}

export interface NextcloudOptions extends OAuthUserConfig<NextcloudProfile> {
  /** Required: the server's URL, e.g. `https://cloud.example.com` (endpoints hang off it; no discovery). */
  issuer?: string
}

/**
 * Nextcloud sign-in (an OAuth 2.0 client under Administration settings → Security).
 * Callback URL: `<origin><basePath>/callback/nextcloud`. Env: AUTH_NEXTCLOUD_ID, AUTH_NEXTCLOUD_SECRET; the server URL
 * goes in `issuer` (AUTH_NEXTCLOUD_ISSUER with the function form and setEnvDefaults).
 */
export default function Nextcloud(options: NextcloudOptions = {}): OAuthConfigBase<NextcloudProfile> {
  const { issuer, ...userOptions } = options
  const base = issuer?.replace(/\/$/, "")
  return {
    id: "nextcloud",
    name: "Nextcloud",
    type: "oauth",
    ...(base
      ? {
          authorization: `${base}/apps/oauth2/authorize`,
          token: `${base}/apps/oauth2/api/v1/token`,
          userinfo: {
            url: `${base}/ocs/v1.php/cloud/users`,
            // The token response names the user (user_id); the OCS API wants OCS-APIRequest and answers JSON on request.
            async request({ tokens, fetch, url }) {
              const target = `${url}/${encodeURIComponent(String(tokens.user_id ?? ""))}`
              const response = await fetch(target, {
                headers: {
                  Authorization: `Bearer ${String(tokens.access_token)}`,
                  "OCS-APIRequest": "true",
                  Accept: "application/json",
                },
              })
              if (!response.ok)
                throw new OAuthCallbackError(
                  `Nextcloud GET ${target} answered ${response.status}, so the profile could not be read.`,
                )
              const body = (await response.json()) as { ocs?: { data?: Record<string, unknown> } }
              return body.ocs?.data ?? {}
            },
          },
        }
      : {}),
    profile(profile) {
      if (profile.id == null) return { id: undefined }
      return {
        id: String(profile.id),
        name: profile.displayname ?? null,
        email: profile.email ?? null,
        image: `${base}/avatar/${encodeURIComponent(String(profile.id))}/512`,
      }
    },
    style: {
      // Three rings in a row, drawn for Gatehouse: Nextcloud blue (darkened to 5.8:1) on white.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%23006BA6' stroke-width='2'%3E%3Ccircle cx='12' cy='12' r='4.5'/%3E%3Ccircle cx='4' cy='12' r='2.3'/%3E%3Ccircle cx='20' cy='12' r='2.3'/%3E%3C/svg%3E",
      bg: "#fff",
      text: "#006BA6",
    },
    options: userOptions,
  }
}
export { Nextcloud }
