// BankID Norway (OpenID Connect): issuer https://auth.bankid.no/auth/realms/prod, client_secret_post, profile from userinfo.
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The userinfo BankID (via the OIDC service) returns for the openid and profile scopes. */
export interface BankIDNorwayProfile {
  sub: string
  iss: string
  name: string
  given_name: string
  family_name: string
  birthdate: string
  email?: string
  email_verified?: boolean
  /** Norwegian national identity number (with the nnin scope). */
  nnin?: string
  exp: number
  iat: number
  auth_time: number
  jti: string
  aud: string
  typ: "ID"
  azp: string
  session_state: string
  at_hash: string
  updated_at: number
  acr: string
  sid: string
  amr: "BID" | "BIM" | "BIS"
  bankid_altsub: string
  originator: string
  tid: string
  nnin_altsub?: string
  additionalCertInfo: {
    certValidFrom: number
    serialNumber: string
    keyAlgorithm: string
    keySize: string
    policyOid: string
    certQualified: boolean
    certValidTo: number
    versionNumber: string
    subjectName: string
  }
  [claim: string]: unknown
}

/**
 * BankID Norway sign-in. Redirect URI to register with the BankID OIDC service: `<origin><basePath>/callback/bankid-no`.
 * Env: AUTH_BANKID_NO_ID, AUTH_BANKID_NO_SECRET (for the pre-production realm pass
 * `issuer: "https://auth.current.bankid.no/auth/realms/current"` or set AUTH_BANKID_NO_ISSUER).
 */
export default function BankIDNorway(
  options: OIDCUserConfig<BankIDNorwayProfile> = {},
): OAuthConfigBase<BankIDNorwayProfile> {
  return {
    id: "bankid-no",
    name: "BankID Norge",
    type: "oidc",
    issuer: "https://auth.bankid.no/auth/realms/prod",
    authorization: { params: { scope: "openid profile email", ui_locales: "no", login_hint: "BIS" } },
    // BankID's OIDC service signs its UserInfo answers (RS256); the signature is checked against its JWKS.
    client: { token_endpoint_auth_method: "client_secret_post", userinfo_signed_response_alg: "RS256" },
    idToken: false,
    checks: ["pkce", "state", "nonce"],
    profile(profile) {
      return { id: profile.sub, name: profile.name ?? null, email: profile.email ?? null, image: null }
    },
    style: {
      // A shield with a check mark, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%23fff' stroke-width='2' stroke-linejoin='round'%3E%3Cpath d='M12 3l8 3v6c0 5-4 8-8 9-4-1-8-4-8-9V6z'/%3E%3Cpath d='M8.5 12l2.5 2.5 4.5-5'/%3E%3C/svg%3E",
      bg: "#39134c",
      text: "#fff",
    },
    options,
  }
}
export { BankIDNorway }
