// LINE Login (OpenID Connect): issuer access.line.me, ID tokens signed HS256 with the channel secret.
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The claims of a LINE ID token (`email` only with the email scope and the permission granted to the channel). */
export interface LineProfile {
  iss: string
  sub: string
  aud: string
  exp: number
  iat: number
  nonce?: string
  amr: string[]
  name: string
  picture: string
  email?: string
  [claim: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * LINE sign-in. Callback URL to register: `<origin><basePath>/callback/line`.
 * Env: AUTH_LINE_ID (the channel ID), AUTH_LINE_SECRET (the channel secret, which also keys the ID token's HS256).
 * The default scope is `openid profile email`; the e-mail is only in the ID token once LINE granted the channel that
 * permission.
 */
export default function LINE<P extends LineProfile>(options: OIDCUserConfig<P> = {}): OAuthConfigBase<P> {
  return {
    id: "line",
    name: "LINE",
    type: "oidc",
    issuer: "https://access.line.me",
    client: { id_token_signed_response_alg: "HS256" },
    checks: ["state"],
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }
    },
    style: {
      // A speech bubble, drawn for Gatehouse. LINE's green darkened (from #00C300) so white text meets 4.5:1.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath fill='%23fff' d='M12 3c-5.5 0-10 3.6-10 8c0 4 3.5 7.3 8.3 7.9c.8.2.5 1.2.3 2.1c0 .4.3.6.8.3c.7-.4 6.3-3.9 8.4-6.6c1.4-1.5 2.2-2.7 2.2-3.7c0-4.4-4.5-8-10-8z'/%3E%3C/svg%3E",
      bg: "#007a33",
      text: "#fff",
    },
    options,
  }
}
export { LINE }
