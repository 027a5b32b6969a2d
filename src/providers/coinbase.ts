// Coinbase (OAuth 2, Sign in with Coinbase): login.coinbase.com for authorize and token, the user from `GET /v2/user`.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** `GET /v2/user` wraps the user in `data` (the fields Gatehouse reads; `email` needs the wallet:user:email scope). */
export interface CoinbaseProfile {
  data: {
    id: string
    name?: string | null
    username?: string | null
    email?: string | null
    avatar_url?: string | null
    [key: string]: unknown
  }
  [key: string]: unknown
}

/**
 * Coinbase sign-in. Callback URL to register: `<origin><basePath>/callback/coinbase`.
 * Env: AUTH_COINBASE_ID, AUTH_COINBASE_SECRET.
 */
export default function Coinbase(options: OAuthUserConfig<CoinbaseProfile> = {}): OAuthConfigBase<CoinbaseProfile> {
  return {
    id: "coinbase",
    name: "Coinbase",
    type: "oauth",
    authorization: {
      url: "https://login.coinbase.com/oauth2/auth",
      params: { scope: "wallet:user:email wallet:user:read" },
    },
    token: "https://login.coinbase.com/oauth2/token",
    userinfo: "https://api.coinbase.com/v2/user",
    profile(profile) {
      const user = profile.data ?? ({} as CoinbaseProfile["data"])
      return {
        id: user.id == null ? "" : String(user.id),
        name: user.name ?? user.username ?? null,
        email: user.email ?? null,
        image: user.avatar_url ?? null,
      }
    },
    style: {
      // A white ring with a square inside, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Ccircle cx='12' cy='12' r='10' fill='%23fff'/%3E%3Crect x='9' y='9' width='6' height='6' rx='1' fill='%230052ff'/%3E%3C/svg%3E",
      bg: "#0052ff",
      text: "#fff",
      brandColor: "#0052ff",
    },
    options,
  }
}
export { Coinbase }
