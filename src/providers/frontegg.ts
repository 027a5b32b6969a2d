// Frontegg (OpenID Connect): the issuer is your Frontegg workspace domain (https://<subdomain>.frontegg.com).
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The claims of a Frontegg ID token / user profile. */
export interface FronteggProfile {
  sub: string
  email: string
  email_verified: boolean
  name: string
  picture?: string
  profilePictureUrl: string
  tenantId?: string
  tenantIds?: string[]
  roles: string[]
  [claim: string]: unknown
}

/**
 * Frontegg sign-in. Callback URL to register (Authentication > Login method > Hosted login):
 * `<origin><basePath>/callback/frontegg`. Env: AUTH_FRONTEGG_ID, AUTH_FRONTEGG_SECRET, AUTH_FRONTEGG_ISSUER
 * (the workspace domain, e.g. `https://app-abc.frontegg.com`, no trailing slash). The endpoints hang off the issuer:
 * /oauth/authorize, /oauth/token, /identity/resources/users/v2/me, and its discovery at /oauth/.well-known/openid-configuration.
 */
export default function Frontegg(options: OIDCUserConfig<FronteggProfile> = {}): OAuthConfigBase<FronteggProfile> {
  const base = options.issuer?.replace(/\/+$/, "")
  return {
    id: "frontegg",
    name: "Frontegg",
    type: "oidc",
    ...(base && {
      issuer: base,
      wellKnown: `${base}/oauth/.well-known/openid-configuration`,
      authorization: { url: `${base}/oauth/authorize`, params: { scope: "openid profile email" } },
      token: `${base}/oauth/token`,
      userinfo: `${base}/identity/resources/users/v2/me`,
    }),
    checks: ["pkce"],
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? profile.profilePictureUrl ?? null,
      }
    },
    style: {
      // Three stacked bars, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='%23fff'%3E%3Crect x='4' y='5' width='16' height='3' rx='1.5'/%3E%3Crect x='4' y='10.5' width='11' height='3' rx='1.5'/%3E%3Crect x='4' y='16' width='6' height='3' rx='1.5'/%3E%3C/svg%3E",
      bg: "#1b2a4a",
      text: "#fff",
    },
    options: base ? { ...options, issuer: base } : options,
  }
}
export { Frontegg }
