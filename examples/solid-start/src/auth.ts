// The example's Gatehouse config, shared by the auth route and the server functions that read the session: a
// credentials provider with one demo user, and an OpenID Provider (Keycloak's provider) when AUTH_KEYCLOAK_ISSUER is
// set. No basePath: the route file's folder, /api/auth, is SolidAuth's prefix and so the basePath.
import type { SolidAuthConfig } from "gatehouse/solid-start"
import Credentials from "gatehouse/providers/credentials"
import Keycloak from "gatehouse/providers/keycloak"

/** The one account of this example: sign in with demo / demo. */
const DEMO_USER = { id: "1", name: "Demo User", email: "demo@example.com" }

/** `vinxi dev` runs without AUTH_SECRET on this fixed secret; a built app needs AUTH_SECRET (`openssl rand -base64 33`). */
const DEV_SECRET = "example-only-secret-do-not-use-in-production-0123456789"
const devSecret = import.meta.env.DEV && !process.env.AUTH_SECRET ? DEV_SECRET : undefined
if (devSecret) console.warn("[example] AUTH_SECRET is not set: using a development secret.")

export const authConfig: SolidAuthConfig = {
  ...(devSecret ? { secret: devSecret } : {}),
  providers: [
    Credentials({
      credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
      authorize: (credentials) =>
        credentials.username === "demo" && credentials.password === "demo" ? { ...DEMO_USER } : null,
    }),
    // Client id, secret and issuer come from AUTH_KEYCLOAK_ID, AUTH_KEYCLOAK_SECRET and AUTH_KEYCLOAK_ISSUER.
    ...(process.env.AUTH_KEYCLOAK_ISSUER ? [Keycloak] : []),
  ],
}
