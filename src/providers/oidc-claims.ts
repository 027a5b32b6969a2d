// The standard ID token claims of OIDC Core §5.1 and the user most OIDC providers map them to; shared by the provider
// files whose servers send nothing beyond them (not a provider: no ./providers/oidc-claims subpath).
import type { User } from "../records.js"

/** The standard claims of an ID token for `openid profile email`. */
export interface StandardIdTokenClaims {
  iss: string
  sub: string
  aud: string | string[]
  exp: number
  iat: number
  auth_time?: number
  name?: string
  preferred_username?: string
  given_name?: string
  family_name?: string
  email?: string
  email_verified?: boolean
  picture?: string
  [claim: string]: unknown
}

/** id = sub, name (else preferred_username), email and picture, each null when absent. */
export function standardClaimsUser(profile: {
  sub: string
  name?: string
  preferred_username?: string
  email?: string
  picture?: string
}): User {
  return {
    id: profile.sub,
    name: profile.name ?? profile.preferred_username ?? null,
    email: profile.email ?? null,
    image: profile.picture ?? null,
  }
}
