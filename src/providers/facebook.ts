// Facebook (OAuth 2, Meta Graph API): the dialog, the token endpoint and `GET /me` with the fields Gatehouse maps.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The user as `GET /me?fields=id,name,email,picture` returns it (Meta sends more when more fields are asked for). */
export interface FacebookProfile {
  id: string
  name?: string
  /** Only when the user granted the `email` permission and has a confirmed address. */
  email?: string
  picture: { data: { url: string; width?: number; height?: number; is_silhouette?: boolean } }
  [key: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * Facebook Login. Callback URL to register (Valid OAuth Redirect URIs): `<origin><basePath>/callback/facebook`.
 * Env: AUTH_FACEBOOK_ID, AUTH_FACEBOOK_SECRET. The dialog is unversioned, so it follows the API version set in the app
 * dashboard; pin one with `authorization: { url: "https://www.facebook.com/v23.0/dialog/oauth" }`.
 */
export default function Facebook<P extends FacebookProfile>(options: OAuthUserConfig<P> = {}): OAuthConfigBase<P> {
  return {
    id: "facebook",
    name: "Facebook",
    type: "oauth",
    authorization: { url: "https://www.facebook.com/dialog/oauth", params: { scope: "email" } },
    token: "https://graph.facebook.com/oauth/access_token",
    userinfo: "https://graph.facebook.com/me?fields=id,name,email,picture",
    profile(profile) {
      return {
        id: profile.id == null ? "" : String(profile.id),
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: profile.picture?.data?.url ?? null,
      }
    },
    style: {
      // A white "f", drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath fill='%23fff' d='M13.5 22v-8h2.7l.4-3.2h-3.1V8.9c0-.9.3-1.6 1.6-1.6h1.7V4.5c-.3 0-1.3-.1-2.5-.1c-2.4 0-4 1.5-4 4.1v2.3H7.6V14h2.7v8z'/%3E%3C/svg%3E",
      bg: "#006aff",
      text: "#fff",
    },
    options,
  }
}
export { Facebook }
