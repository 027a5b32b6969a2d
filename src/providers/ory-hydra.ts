// Ory Hydra (OpenID Connect, self-hosted or Ory Network): the issuer is required; endpoints come from discovery.
import { standardClaimsUser, type StandardIdTokenClaims } from "./oidc-claims.js"
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The claims of an Ory Hydra ID token (`openid profile email`): the standard ones, Hydra's `ver`, `jti`, `amr`, any others. */
export interface OryHydraProfile extends StandardIdTokenClaims {
  ver: string
  jti: string
  /** How the user authenticated (OIDC Core §2: an array of method names). */
  amr: string[]
  [claim: string]: any // `any`, as in Auth.js: other claims read untyped
}

/**
 * Ory Hydra sign-in. Redirect URI to register on the client: `<origin><basePath>/callback/hydra`.
 * Env: AUTH_HYDRA_ID, AUTH_HYDRA_SECRET, AUTH_HYDRA_ISSUER (the public URL, e.g. `https://<project>.projects.oryapis.com`).
 */
export default function OryHydra<P extends OryHydraProfile>(options: OIDCUserConfig<P> = {}): OAuthConfigBase<P> {
  return {
    id: "hydra",
    name: "Hydra",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    checks: ["pkce"],
    profile: standardClaimsUser,
    style: {
      // Three wavy heads, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath d='M4 20V9a3 3 0 0 1 6 0v11M10 20V6a3 3 0 0 1 6 0v14M16 20V9a3 3 0 0 1 4 0v11' fill='none' stroke='%230f172a' stroke-width='2'/%3E%3C/svg%3E",
      bg: "#fff",
      text: "#0f172a",
    },
    options,
  }
}
export { OryHydra }
