// BoxyHQ SAML Jackson (OAuth 2.0 in front of SAML IdPs): the issuer is your Jackson deployment's URL.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The profile Jackson's /api/oauth/userinfo returns (from the SAML assertion). */
export interface BoxyHQSAMLProfile {
  id: string
  email: string
  firstName?: string
  lastName?: string
  requested?: Record<string, unknown>
  raw?: Record<string, unknown>
  [field: string]: any // `any`, as in Auth.js: other fields read untyped
}

/**
 * BoxyHQ SAML sign-in. Callback URL to allow in Jackson's SAML connection (redirectUrl):
 * `<origin><basePath>/callback/boxyhq-saml`. Env: AUTH_BOXYHQ_SAML_ID (`dummy` when tenant and product are sent
 * as authorization params), AUTH_BOXYHQ_SAML_SECRET, AUTH_BOXYHQ_SAML_ISSUER (the Jackson URL, e.g.
 * `https://jackson.example.com`). Endpoints: <issuer>/api/oauth/authorize, /api/oauth/token, /api/oauth/userinfo.
 */
export default function SAMLJackson<P extends BoxyHQSAMLProfile>(options: OAuthUserConfig<P> = {}): OAuthConfigBase<P> {
  const base = options.issuer?.replace(/\/+$/, "")
  return {
    id: "boxyhq-saml",
    name: "BoxyHQ SAML",
    type: "oauth",
    ...(base && {
      issuer: base,
      authorization: { url: `${base}/api/oauth/authorize`, params: { provider: "saml" } },
      token: `${base}/api/oauth/token`,
      userinfo: `${base}/api/oauth/userinfo`,
    }),
    checks: ["pkce", "state"],
    profile(profile) {
      const name = [profile.firstName, profile.lastName].filter(Boolean).join(" ")
      return { id: profile.id, name: name || null, email: profile.email ?? null, image: null }
    },
    style: {
      // A box outline with a key slot, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%23000' stroke-width='2' stroke-linejoin='round'%3E%3Cpath d='M12 3l8 4.5v9L12 21l-8-4.5v-9z'/%3E%3Ccircle cx='12' cy='11' r='2'/%3E%3Cpath d='M12 13v3'/%3E%3C/svg%3E",
      bg: "#25c2a0",
      text: "#000",
    },
    options: base ? { ...options, issuer: base } : options,
  }
}
export { SAMLJackson }
