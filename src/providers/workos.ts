// WorkOS SSO (OAuth 2): /sso/authorize with a connection, client_secret_post at /sso/token, the profile from /sso/profile.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The profile as WorkOS's `GET /sso/profile` returns it (the fields Gatehouse reads). */
export interface WorkOSProfile {
  object: string
  id: string
  organization_id: string
  connection_id: string
  connection_type: string
  idp_id: string
  email: string
  first_name: string
  last_name: string
  raw_attributes: {
    id: string
    email: string
    lastName: string
    firstName: string
    picture: string
    [attribute: string]: unknown
  }
  [key: string]: any // `any`, as in Auth.js: other fields read untyped
}

export interface WorkOSOptions extends OAuthUserConfig<WorkOSProfile> {
  /** The API base (default `https://api.workos.com/`); not an OIDC issuer: no discovery. */
  issuer?: string
  /** The WorkOS connection to sign in with (sent as `connection`). */
  connection?: string
}

/**
 * WorkOS sign-in. Callback URL to register: `<origin><basePath>/callback/workos`.
 * Env: AUTH_WORKOS_ID, AUTH_WORKOS_SECRET (the API key). Pick the connection with `WorkOS({ connection })`, or pass
 * `organization` / `provider` in `authorization.params` instead.
 */
export default function WorkOS(options: WorkOSOptions = {}): OAuthConfigBase<WorkOSProfile> {
  const { issuer = "https://api.workos.com/", connection = "", ...userOptions } = options
  const base = issuer.replace(/\/?$/, "/")
  return {
    id: "workos",
    name: "WorkOS",
    type: "oauth",
    authorization: { url: `${base}sso/authorize`, params: { connection } },
    token: `${base}sso/token`,
    client: { token_endpoint_auth_method: "client_secret_post" },
    userinfo: `${base}sso/profile`,
    profile(profile) {
      const name = [profile.first_name, profile.last_name].filter(Boolean).join(" ")
      return {
        id: profile.id == null ? undefined : String(profile.id),
        name: name || null,
        email: profile.email ?? null,
        image: (profile.raw_attributes?.picture as string | undefined) ?? null,
      }
    },
    style: {
      // A hexagon with a notch, drawn for Gatehouse: white on WorkOS violet (4.6:1).
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%23fff' stroke-width='2.5'%3E%3Cpath d='M8 3.5L3 12l5 8.5h8L21 12l-5-8.5z'/%3E%3Cpath d='M10 8l-2.3 4l2.3 4'/%3E%3C/svg%3E",
      bg: "#6363f1",
      text: "#fff",
    },
    options: userOptions,
  }
}
export { WorkOS }
