// LinkedIn ("Sign In with LinkedIn using OpenID Connect"): fixed issuer, client_secret_post, state check.
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The claims of a LinkedIn ID token. */
export interface LinkedInProfile {
  iss: string
  sub: string
  aud: string
  name: string
  given_name: string
  family_name: string
  picture: string
  locale?: string | { country: string; language: string }
  email: string
  email_verified: boolean
  [claim: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * LinkedIn sign-in. Callback URL to register: `<origin><basePath>/callback/linkedin`.
 * Env: AUTH_LINKEDIN_ID, AUTH_LINKEDIN_SECRET. The app needs the "Sign In with LinkedIn using OpenID Connect" product.
 */
export default function LinkedIn<P extends LinkedInProfile>(options: OIDCUserConfig<P> = {}): OAuthConfigBase<P> {
  return {
    id: "linkedin",
    name: "LinkedIn",
    type: "oidc",
    issuer: "https://www.linkedin.com/oauth",
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
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
      // The lower-case "in", drawn for Gatehouse: white on LinkedIn's blue.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath fill='%23fff' d='M4 9h3.5v11H4zM5.75 3a2 2 0 1 1 0 4a2 2 0 1 1 0-4zM10 9h3.4v1.6c.6-1 1.8-1.9 3.7-1.9c3.5 0 3.9 2.3 3.9 5.2V20h-3.5v-5.4c0-1.3 0-2.9-1.8-2.9s-2.2 1.4-2.2 2.8V20H10z'/%3E%3C/svg%3E",
      bg: "#006699",
      text: "#fff",
    },
    options,
  }
}
export { LinkedIn }
