// The example's auth setup: a credentials provider with one demo user, and an OpenID Connect provider (Keycloak, or
// any OP) when AUTH_KEYCLOAK_ISSUER names one. SvelteKitAuth gives the hook that answers /auth/* and sets
// locals.auth(), and the two form actions the sign-in and sign-out pages export.
import { dev } from "$app/environment"
import { env } from "$env/dynamic/private"
import { SvelteKitAuth } from "gatehouse/sveltekit"
import Credentials from "gatehouse/providers/credentials"
import Keycloak from "gatehouse/providers/keycloak"

/** The one account of this example: sign in with demo / demo. */
const DEMO_USER = { id: "1", name: "Demo User", email: "demo@example.com" }

/** `vite dev` runs with nothing set up; a built app needs AUTH_SECRET (`openssl rand -base64 33`). */
const DEV_SECRET = "example-only-secret-do-not-use-in-production-0123456789"
if (dev && !env.AUTH_SECRET) console.warn("[example] AUTH_SECRET is not set: using a development secret.")

/** Whether an OpenID Provider is configured, for the sign-in page to offer it. */
export const oidcConfigured = Boolean(env.AUTH_KEYCLOAK_ISSUER)

export const { handle, signIn, signOut } = SvelteKitAuth({
  providers: [
    Credentials({
      credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
      authorize(credentials) {
        return credentials.username === "demo" && credentials.password === "demo" ? DEMO_USER : null
      },
    }),
    ...(oidcConfigured
      ? [
          Keycloak({
            issuer: env.AUTH_KEYCLOAK_ISSUER,
            clientId: env.AUTH_KEYCLOAK_ID,
            clientSecret: env.AUTH_KEYCLOAK_SECRET,
          }),
        ]
      : []),
  ],
  secret: env.AUTH_SECRET || (dev ? DEV_SECRET : undefined),
  // The sign-in page is the app's own (src/routes/signin), and a failed sign-in comes back to it with ?error=.
  pages: { signIn: "/signin" },
})
