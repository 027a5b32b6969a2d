// EVE Online (EVE SSO v2, OAuth 2): the character from the verify endpoint, state only.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The body of `GET https://login.eveonline.com/oauth/verify`: the character the token was issued for. */
export interface EVEOnlineProfile {
  CharacterID: number
  CharacterName: string
  ExpiresOn?: string
  Scopes?: string
  TokenType?: string
  CharacterOwnerHash?: string
  IntellectualProperty?: string
  [key: string]: unknown
}

/**
 * EVE Online sign-in. Callback URL to register: `<origin><basePath>/callback/eveonline`.
 * Env: AUTH_EVEONLINE_ID, AUTH_EVEONLINE_SECRET. EVE shares no e-mail address; the image is the character portrait.
 */
export default function EVEOnline(options: OAuthUserConfig<EVEOnlineProfile> = {}): OAuthConfigBase<EVEOnlineProfile> {
  return {
    id: "eveonline",
    name: "EVE Online",
    type: "oauth",
    authorization: { url: "https://login.eveonline.com/v2/oauth/authorize", params: { scope: "publicData" } },
    token: "https://login.eveonline.com/v2/oauth/token",
    userinfo: "https://login.eveonline.com/oauth/verify",
    checks: ["state"],
    profile(profile) {
      const id = profile.CharacterID != null ? String(profile.CharacterID) : ""
      return { id, name: profile.CharacterName ?? null, email: null, image: id ? `https://images.evetech.net/characters/${id}/portrait?size=128` : null }
    },
    style: {
      // A ring with a horizon line, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Ccircle cx='12' cy='12' r='8.5' fill='none' stroke='%23fff' stroke-width='2.5'/%3E%3Cpath fill='%23fff' d='M2 11h20v2H2z'/%3E%3C/svg%3E",
      bg: "#000",
      text: "#fff",
    },
    options,
  }
}
export { EVEOnline }
