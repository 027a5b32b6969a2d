// Battle.net (OpenID Connect): a regional issuer (required), the battletag as the name; Blizzard shares no e-mail.
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The claims of a Battle.net ID token. */
export interface BattleNetProfile {
  sub: string
  battle_tag: string
  iss?: string
  aud?: string
  [claim: string]: any // `any`, as in Auth.js: other fields read untyped
}

/** The Battle.net issuers: the global one, the China one (two spellings) and the regional ones. */
export type BattleNetIssuer =
  | "https://oauth.battle.net"
  | "https://oauth.battlenet.com.cn"
  | "https://www.battlenet.com.cn/oauth"
  | `https://${"us" | "eu" | "kr" | "tw"}.battle.net/oauth`

export type BattleNetOptions = Omit<OIDCUserConfig<BattleNetProfile>, "issuer"> & {
  /** Required (here or as AUTH_BATTLENET_ISSUER): usually `https://oauth.battle.net`, or `https://oauth.battlenet.com.cn` in China. */
  issuer?: BattleNetIssuer | (string & {})
}

/**
 * Battle.net sign-in. Redirect URL to register: `<origin><basePath>/callback/battlenet`.
 * Env: AUTH_BATTLENET_ID, AUTH_BATTLENET_SECRET, AUTH_BATTLENET_ISSUER.
 */
export default function BattleNet(options: BattleNetOptions = {}): OAuthConfigBase<BattleNetProfile> {
  return {
    id: "battlenet",
    name: "Battle.net",
    type: "oidc",
    // Battle.net's only identity scope is openid (the others are per game: wow.profile, sc2.profile, d3.profile).
    authorization: { params: { scope: "openid" } },
    profile(profile) {
      return { id: profile.sub, name: profile.battle_tag ?? null, email: null, image: null }
    },
    style: {
      // Two crossed arcs, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%23000' stroke-width='2'%3E%3Cellipse cx='12' cy='12' rx='10' ry='4.5' transform='rotate(30 12 12)'/%3E%3Cellipse cx='12' cy='12' rx='10' ry='4.5' transform='rotate(-30 12 12)'/%3E%3C/svg%3E",
      // Battle.net's blue with black text: white on #148eff is 3.3:1, below the 4.5:1 the page needs.
      bg: "#148eff",
      text: "#000",
    },
    options,
  }
}
export { BattleNet }
