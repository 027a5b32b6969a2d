// Slack ("Sign in with Slack", OpenID Connect): fixed issuer https://slack.com, nonce check, profile from the ID token.
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The claims of a Slack ID token (the fields Gatehouse reads; Slack adds more under https://slack.com/...). */
export interface SlackProfile {
  iss: string
  sub: string
  aud: string
  email: string
  email_verified: boolean
  name: string
  given_name: string
  family_name: string
  picture: string
  locale: string
  "https://slack.com/user_id": string
  "https://slack.com/team_id": string
  "https://slack.com/team_name": string
  [claim: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * Slack sign-in. Callback URL to register: `<origin><basePath>/callback/slack` (Slack wants https, also locally).
 * Env: AUTH_SLACK_ID, AUTH_SLACK_SECRET.
 */
export default function Slack<P extends SlackProfile>(options: OIDCUserConfig<P> = {}): OAuthConfigBase<P> {
  return {
    id: "slack",
    name: "Slack",
    type: "oidc",
    issuer: "https://slack.com",
    checks: ["nonce"],
    authorization: { params: { scope: "openid profile email" } },
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }
    },
    style: {
      // A hash (#) of four rounded bars, drawn for Gatehouse: white on Slack's aubergine.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath fill='none' stroke='%23fff' stroke-width='3' stroke-linecap='round' d='M9 3v18M15 3v18M3 9h18M3 15h18'/%3E%3C/svg%3E",
      bg: "#611F69",
      text: "#fff",
      brandColor: "#611F69",
    },
    options,
  }
}
export { Slack }
