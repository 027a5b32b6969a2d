// Osso (OAuth 2 in front of SAML, self-hosted): endpoints under the deployment's base URL, given as `issuer`.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** What Osso's `/oauth/me` returns for the signed-in user. */
export interface OssoProfile {
  id: string
  email: string
  /** The identity provider (SAML) the user came through. */
  idp?: string
  /** What the sign-in asked for (domain or email). */
  requested?: { domain?: string; email?: string }
  [key: string]: unknown
}

/**
 * Osso sign-in. Redirect URI to allow in Osso: `<origin><basePath>/callback/osso`.
 * Env: AUTH_OSSO_ID, AUTH_OSSO_SECRET, AUTH_OSSO_ISSUER (the deployment URL, e.g. `https://osso.example.com/`),
 * read through setEnvDefaults. Osso is not an OpenID Provider: no discovery, the three endpoints are built from it.
 */
export default function Osso(options: OAuthUserConfig<OssoProfile> = {}): OAuthConfigBase<OssoProfile> {
  const { issuer, ...userOptions } = options
  const base = issuer ? (issuer.endsWith("/") ? issuer : `${issuer}/`) : undefined
  return {
    id: "osso",
    name: "Osso",
    type: "oauth",
    ...(base
      ? { authorization: `${base}oauth/authorize`, token: `${base}oauth/token`, userinfo: `${base}oauth/me` }
      : {}),
    checks: ["pkce"],
    profile(profile) {
      return { id: profile.id != null ? String(profile.id) : "", name: null, email: profile.email ?? null, image: null }
    },
    style: {
      // A padlock, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%23fff' stroke-width='2'%3E%3Crect x='5' y='11' width='14' height='10' rx='2'/%3E%3Cpath d='M8 11V7a4 4 0 0 1 8 0v4'/%3E%3C/svg%3E",
      bg: "#253858",
      text: "#fff",
    },
    options: userOptions,
  }
}
export { Osso }
