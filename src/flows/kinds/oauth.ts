// The OAuth 2 / OpenID Connect kind (`type: "oauth"` and `"oidc"`), with OAuth 1.0a as its variant (`provider.oauth1`,
// set by `version: "1.0A"`): POST /signin/<id> redirects to the provider, /callback/<id> is its redirect back.
import type { ResolvedOAuthProvider, SignInKind } from "../../pipeline-types.js"
import { resolveOAuthProvider } from "../../config/oauth.js"
import type { OAuthConfigBase } from "../../providers/types.js"

// The flows load on a provider's first sign-in, not with the library: they bring the OAuth client (oauth4webapi), which
// an app signing in with credentials, e-mail or passkeys never runs, and which was about a tenth of a cold start.
const oauth2Flow = () => import("../oauth.js")
const oauth1Flow = () => import("../oauth1.js")

export const oauthKind: SignInKind = {
  label: "OAuth",
  // Endpoints, checks and client credentials normalised once (config/oauth.ts), AUTH_<ID>_* env defaults included.
  resolve: (provider, { redirectProxyUrl }) => resolveOAuthProvider(provider as OAuthConfigBase, redirectProxyUrl),
  env: { clientId: "ID", clientSecret: "SECRET", issuer: "ISSUER" },
  routes: {
    signin: {
      csrf: true,
      async start(req, config, provider) {
        const p = provider as ResolvedOAuthProvider
        if (p.oauth1) return (await oauth1Flow()).startOAuth1(req, config, { ...p, oauth1: p.oauth1 })
        return (await oauth2Flow()).startOAuth(req, config, p)
      },
    },
    // The provider's redirect (or form_post) back: no CSRF token can ride on it; state, PKCE and nonce protect it.
    callback: {
      csrf: false,
      async finish(req, config, provider) {
        const p = provider as ResolvedOAuthProvider
        const result = p.oauth1
          ? await (await oauth1Flow()).finishOAuth1(req, config, { ...p, oauth1: p.oauth1 })
          : await (await oauth2Flow()).finishOAuth(req, config, p)
        return result.kind === "forward"
          ? { redirect: result.redirect }
          : { identity: result.identity, cookies: result.cookies }
      },
    },
  },
  formAction: "signin",
  linking: { user: "account", withJwtSessions: true, toSignedInUser: true, keepsFlowUserId: false },
  reportsNewUser: true,
  refreshesAccessTokens: true,
  holdsAuthenticators: false,
  page: { place: "button", fields: () => [] },
}
