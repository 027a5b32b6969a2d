// Bitbucket Cloud (OAuth 2): the account scope, GET api.bitbucket.org/2.0/user.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The user as Bitbucket's `GET /2.0/user` returns it (the fields Gatehouse reads). */
export interface BitbucketProfile {
  /** The Atlassian account id. */
  account_id: string
  uuid: string
  username: string
  display_name: string
  nickname: string
  links: {
    self: { href?: string }
    avatar: { href?: string }
    repositories: { href?: string }
    snippets: { href?: string }
    html: { href?: string }
    hooks: { href?: string }
    [link: string]: { href?: string }
  }
  created_on: string
  type: string
  has_2fa_enabled: boolean | null
  is_staff: boolean
  account_status: string
  location: string | null
  [key: string]: unknown
}

/**
 * Bitbucket sign-in. Callback URL to register: `<origin><basePath>/callback/bitbucket`.
 * Env: AUTH_BITBUCKET_ID, AUTH_BITBUCKET_SECRET (the OAuth consumer's key and secret).
 * `GET /2.0/user` carries no e-mail, so the user's email is null (as in Auth.js).
 */
export default function Bitbucket(options: OAuthUserConfig<BitbucketProfile> = {}): OAuthConfigBase<BitbucketProfile> {
  return {
    id: "bitbucket",
    name: "Bitbucket",
    type: "oauth",
    authorization: { url: "https://bitbucket.org/site/oauth2/authorize", params: { scope: "account" } },
    token: "https://bitbucket.org/site/oauth2/access_token",
    userinfo: "https://api.bitbucket.org/2.0/user",
    profile(profile) {
      return {
        id: profile.account_id == null ? undefined : String(profile.account_id),
        name: profile.display_name ?? profile.username ?? null,
        email: null,
        image: profile.links?.avatar?.href ?? null,
      }
    },
    style: {
      // A bucket, drawn for Gatehouse: white on Bitbucket's blue.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath fill='%23fff' fill-rule='evenodd' d='M2 3h20l-3 18H5zM9.5 9l1 6h3l1-6z'/%3E%3C/svg%3E",
      bg: "#205081",
      text: "#fff",
    },
    options,
  }
}
export { Bitbucket }
