// Google (OpenID Connect): the issuer is enough, endpoints come from discovery; the profile is the ID token's claims.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The claims of a Google ID token. */
export interface GoogleProfile {
  iss: string
  sub: string
  aud: string
  azp?: string
  email: string
  email_verified: boolean
  name?: string
  given_name?: string
  family_name?: string
  picture?: string
  locale?: string
  hd?: string
  iat: number
  exp: number
  [claim: string]: unknown
}

/**
 * Google sign-in. Callback URL to register: `<origin><basePath>/callback/google`.
 * Env: AUTH_GOOGLE_ID, AUTH_GOOGLE_SECRET. Add `authorization: { params: { prompt: "consent", access_type: "offline" } }`
 * to receive a refresh token.
 */
export default function Google(options: OAuthUserConfig<GoogleProfile> = {}): OAuthConfigBase<GoogleProfile> {
  return {
    id: "google",
    name: "Google",
    type: "oidc",
    issuer: "https://accounts.google.com",
    authorization: { params: { scope: "openid email profile" } },
    profile(profile) {
      return { id: profile.sub, name: profile.name ?? null, email: profile.email ?? null, image: profile.picture ?? null }
    },
    style: { bg: "#fff", text: "#000" },
    options,
  }
}
export { Google }
