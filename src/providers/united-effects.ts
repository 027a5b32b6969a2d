// United Effects (OpenID Connect, UE Auth): the auth group's issuer is required and is also sent as `resource`.
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The claims of a United Effects ID token (`openid email profile`). */
export interface UnitedEffectsProfile {
  iss: string
  sub: string
  aud: string
  exp: number
  iat: number
  email: string
  email_verified?: boolean
  name?: string
  [claim: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * United Effects sign-in. Redirect URI to register on the client: `<origin><basePath>/callback/united-effects`.
 * Env: AUTH_UNITED_EFFECTS_ID, AUTH_UNITED_EFFECTS_SECRET, AUTH_UNITED_EFFECTS_ISSUER
 * (`https://auth.unitedeffects.com/<auth group id>`). The issuer given as an option is also the `resource` parameter.
 */
export default function UnitedEffects<P extends UnitedEffectsProfile>(
  options: OIDCUserConfig<P> = {},
): OAuthConfigBase<P> {
  return {
    id: "united-effects",
    name: "United Effects",
    type: "oidc",
    authorization: {
      params: { scope: "openid email profile", ...(options.issuer ? { resource: options.issuer } : {}) },
    },
    checks: ["pkce"],
    profile(profile) {
      return { id: profile.sub, name: profile.name ?? null, email: profile.email ?? null, image: null }
    },
    style: {
      // Two linked rings, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%23fff' stroke-width='2'%3E%3Ccircle cx='9' cy='12' r='5'/%3E%3Ccircle cx='15' cy='12' r='5'/%3E%3C/svg%3E",
      bg: "#0d3b66",
      text: "#fff",
    },
    options,
  }
}
export { UnitedEffects }
