// Hugging Face (OpenID Connect, "Sign in with Hugging Face"): issuer huggingface.co, state and PKCE.
import { standardClaimsUser } from "./oidc-claims.js"
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The claims Hugging Face's ID token and userinfo carry for the openid, profile and email scopes. */
export interface HuggingfaceProfile {
  sub: string
  name?: string
  preferred_username?: string
  profile?: string
  picture?: string
  website?: string
  email?: string
  email_verified?: boolean
  isPro: boolean
  canPay?: boolean
  /** The organizations the app was granted; the optional fields need that grant too. */
  orgs: Array<{
    sub: string
    name: string
    picture: string
    preferred_username: string
    isEnterprise: boolean
    canPay?: boolean
    roleInOrg?: "admin" | "write" | "read" | "contributor"
    pendingSSO?: boolean
    missingMFA?: boolean
    resourceGroups?: Array<{ sub: string; name: string; role: "read" | "write" | "admin" | "contributor" }>
  }>
  [claim: string]: unknown
}

/**
 * Hugging Face sign-in. Redirect URL to register for the OAuth app: `<origin><basePath>/callback/huggingface`.
 * Env: AUTH_HUGGINGFACE_ID, AUTH_HUGGINGFACE_SECRET. The `email` scope must be enabled on the app.
 */
export default function Huggingface(
  options: OIDCUserConfig<HuggingfaceProfile> = {},
): OAuthConfigBase<HuggingfaceProfile> {
  return {
    id: "huggingface",
    name: "Hugging Face",
    type: "oidc",
    issuer: "https://huggingface.co",
    authorization: { params: { scope: "openid profile email" } },
    checks: ["state", "pkce"],
    profile: standardClaimsUser,
    style: {
      // A round yellow face (eyes and smile) on the brand yellow, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Ccircle cx='12' cy='12' r='10' fill='%23ffd21e' stroke='%23000' stroke-width='1.5'/%3E%3Ccircle cx='8.5' cy='10' r='1.3'/%3E%3Ccircle cx='15.5' cy='10' r='1.3'/%3E%3Cpath d='M8 14.5c2 2.5 6 2.5 8 0' fill='none' stroke='%23000' stroke-width='1.5'/%3E%3C/svg%3E",
      bg: "#FFD21E",
      text: "#000",
    },
    options,
  }
}
export { Huggingface }
