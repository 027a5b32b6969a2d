// Amazon Cognito (OpenID Connect): the user pool URL is the issuer (required); endpoints come from discovery.
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The claims of a Cognito ID token (scopes openid, profile, email). */
export interface CognitoProfile {
  iss: string
  sub: string
  aud: string
  exp: number
  iat: number
  token_use?: "id"
  auth_time?: number
  "cognito:username"?: string
  "cognito:groups"?: string[]
  email: string
  email_verified?: boolean
  name: string
  given_name?: string
  family_name?: string
  preferred_username?: string
  picture: string
  [claim: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * Amazon Cognito sign-in. Callback URL to register on the app client: `<origin><basePath>/callback/cognito`.
 * Env: AUTH_COGNITO_ID, AUTH_COGNITO_SECRET, AUTH_COGNITO_ISSUER
 * (`https://cognito-idp.<region>.amazonaws.com/<user pool id>`).
 */
export default function Cognito<P extends CognitoProfile>(options: OIDCUserConfig<P> = {}): OAuthConfigBase<P> {
  return {
    id: "cognito",
    name: "Cognito",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    checks: ["pkce"],
    profile(profile) {
      const name = profile.name ?? profile.preferred_username ?? profile["cognito:username"] ?? null
      return { id: profile.sub, name, email: profile.email ?? null, image: profile.picture ?? null }
    },
    style: {
      // A hexagon with a keyhole, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath d='M12 2l9 5v10l-9 5-9-5V7z' fill='none' stroke='%23000' stroke-width='2'/%3E%3Ccircle cx='12' cy='10' r='2.5' fill='%23000'/%3E%3Cpath d='M11 12h2v5h-2z' fill='%23000'/%3E%3C/svg%3E",
      bg: "#c17b9e",
      text: "#000",
      brandColor: "#C17B9E",
    },
    options,
  }
}
export { Cognito }
