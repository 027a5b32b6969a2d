// Wikimedia (OAuth 2 on meta.wikimedia.org): one account for all wikis, the user from the oauth2 resource/profile.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The user as Wikimedia's `GET /w/rest.php/oauth2/resource/profile` returns it (the fields Gatehouse reads). */
/** A user group (`sysop`, `bot`, …); wikis add their own, so any name is accepted. */
export type WikimediaGroup = string
/** A user right (`edit`, `block`, …); extensions add their own, so any name is accepted. */
export type WikimediaRight = string
/** A grant the consumer was given (`basic`, `editpage`, …). */
export type WikimediaGrant = string

export interface WikimediaProfile {
  /** The central (global) user id. */
  sub: string
  username: string
  editcount: number
  confirmed_email: boolean
  blocked: boolean
  registered: string
  groups: WikimediaGroup[]
  rights: WikimediaRight[]
  grants: WikimediaGrant[]
  realname: string
  /** Only with the consumer's "User identity verification + real name and e-mail" grant. */
  email: string
  [key: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * Wikimedia sign-in (register the consumer at meta.wikimedia.org/wiki/Special:OAuthConsumerRegistration, OAuth 2).
 * Callback URL: `<origin><basePath>/callback/wikimedia`. Env: AUTH_WIKIMEDIA_ID, AUTH_WIKIMEDIA_SECRET.
 * The grants are chosen on the consumer, so the scope is empty.
 */
export default function Wikimedia<P extends WikimediaProfile>(options: OAuthUserConfig<P> = {}): OAuthConfigBase<P> {
  return {
    id: "wikimedia",
    name: "Wikimedia",
    type: "oauth",
    authorization: { url: "https://meta.wikimedia.org/w/rest.php/oauth2/authorize", params: { scope: "" } },
    token: "https://meta.wikimedia.org/w/rest.php/oauth2/access_token",
    userinfo: "https://meta.wikimedia.org/w/rest.php/oauth2/resource/profile",
    profile(profile) {
      return {
        id: profile.sub == null ? undefined : String(profile.sub),
        name: profile.username ?? null,
        email: profile.email ?? null,
        image: null,
      }
    },
    style: {
      // A globe of puzzle lines, drawn for Gatehouse: white on black (21:1).
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%23fff' stroke-width='1.8'%3E%3Ccircle cx='12' cy='12' r='10'/%3E%3Cellipse cx='12' cy='12' rx='4.5' ry='10'/%3E%3Cpath d='M2 12h20M4 6.5h16M4 17.5h16'/%3E%3C/svg%3E",
      bg: "#000",
      text: "#fff",
    },
    options,
  }
}
export { Wikimedia }
