// Google (OpenID Connect): the issuer is enough, endpoints come from discovery; the profile is the ID token's claims.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The claims of a Google ID token. */
export interface GoogleProfile {
  iss: string
  sub: string
  aud: string
  azp: string
  email: string
  email_verified: boolean
  name: string
  given_name: string
  family_name?: string
  picture: string
  locale?: string
  hd?: string
  iat: number
  exp: number
  [claim: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * Google sign-in. Callback URL to register: `<origin><basePath>/callback/google`.
 * Env: AUTH_GOOGLE_ID, AUTH_GOOGLE_SECRET. Add `authorization: { params: { prompt: "consent", access_type: "offline" } }`
 * to receive a refresh token.
 */
export default function Google<P extends GoogleProfile>(options: OAuthUserConfig<P> = {}): OAuthConfigBase<P> {
  return {
    id: "google",
    name: "Google",
    type: "oidc",
    issuer: "https://accounts.google.com",
    authorization: { params: { scope: "openid email profile" } },
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }
    },
    style: {
      // Google's four-colour "G", drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cg fill='none' stroke-width='3.6'%3E%3Cpath stroke='%234285F4' d='M20 12a8 8 0 0 1-2.34 5.66M12 12h9.8'/%3E%3Cpath stroke='%2334A853' d='M17.66 17.66A8 8 0 0 1 5.07 16'/%3E%3Cpath stroke='%23FBBC05' d='M5.07 16a8 8 0 0 1 0-8'/%3E%3Cpath stroke='%23EA4335' d='M5.07 8a8 8 0 0 1 12.59-1.66'/%3E%3C/g%3E%3C/svg%3E",
      bg: "#fff",
      text: "#1f1f1f",
    },
    options,
  }
}
export { Google }
