// The auth plugin: every request passes its onRequest, which answers the routes under /auth and puts the session of
// every other request in sharedMap ("session"). Pages read it with useSession and sign in and out with the actions.
import { QwikAuth$, type QwikAuthConfig } from "gatehouse/qwik"
import Credentials from "gatehouse/providers/credentials"

const DEV_SECRET = "qwik-example-development-secret-do-not-deploy"

/** The Local OIDC provider, when the OP's settings are in the environment (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET). */
function oidcProviders(): QwikAuthConfig["providers"] {
  const issuer = process.env.OIDC_ISSUER
  const clientId = process.env.OIDC_CLIENT_ID
  if (!issuer || !clientId) return []
  return [
    { id: "oidc", name: "Local OIDC", type: "oidc", issuer, clientId, clientSecret: process.env.OIDC_CLIENT_SECRET },
  ]
}

/** The config, built on the first request. Built lazily because this module is in the client bundle too (pages import
 * useSignIn from it), where only the server may read the environment. */
function authConfig(): QwikAuthConfig {
  if (!process.env.AUTH_SECRET) console.warn("AUTH_SECRET is not set: using a fixed development secret")
  return {
    secret: process.env.AUTH_SECRET ?? DEV_SECRET,
    trustHost: true,
    providers: [
      Credentials({
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        // One fixed demo user: demo / demo.
        authorize: ({ username, password }) =>
          username === "demo" && password === "demo" ? { id: "1", name: "Demo User", email: "demo@example.com" } : null,
      }),
      ...oidcProviders(),
    ],
  }
}

// One config object for every request, so Gatehouse derives and checks it once.
const built: { config?: QwikAuthConfig } = {}

export const { onRequest, useSession, useSignIn, useSignOut } = QwikAuth$(() => (built.config ??= authConfig()))
