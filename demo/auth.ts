// The demo's Gatehouse config: database sessions, and the four ways in (password, Local OIDC, e-mail link, passkey).
import type { Adapter } from "../src/adapters/index.js"
import type { AuthConfig } from "../src/index.js"
import Credentials from "../src/providers/credentials.js"
import Nodemailer from "../src/providers/nodemailer.js"
import Passkey from "../src/providers/passkey.js"
import type { OIDCConfig } from "../src/providers/types.js"

/** The password account. Its id is stable and not numeric, so it never names a row the database numbered itself. */
export const PASSWORD_ACCOUNT = {
  username: "demo",
  password: "demo",
  id: "demo-password-user",
  name: "Demo User",
  email: "demo@example.com",
} as const

/** The provider id of the local OpenID Provider; its callback is `<app>/auth/callback/local-oidc`. */
export const OIDC_PROVIDER_ID = "local-oidc"

export const BASE_PATH = "/auth"

export interface DemoAuthParts {
  adapter: Adapter
  secret: string
  oidc: { issuer: string; clientId: string; clientSecret: string }
  smtp: { host: string; port: number }
}

export function demoAuthConfig({ adapter, secret, oidc, smtp }: DemoAuthParts): AuthConfig {
  return {
    secret,
    basePath: BASE_PATH,
    adapter,
    // Sessions are rows in the adapter (PGlite or memory): the cookie holds only a random session token.
    session: { strategy: "database" },
    experimental: { enableWebAuthn: true },
    // The inbox page doubles as the "check your e-mail" page: the link the demo just sent is at the top.
    pages: { verifyRequest: "/inbox" },
    // The built-in pages name the app: "Sign in to Gatehouse demo".
    theme: { brandName: "Gatehouse demo" },
    providers: [
      Credentials({
        credentials: {
          // No placeholders: the account's own values there would look like fields already filled in (the home page
          // names the account).
          username: { label: "Username", autocomplete: "username" },
          password: { label: "Password", type: "password", autocomplete: "current-password" },
        },
        authorize: async ({ username, password }) => {
          if (username !== PASSWORD_ACCOUNT.username || password !== PASSWORD_ACCOUNT.password) return null
          // With database sessions the first sign-in creates this user in the adapter; later ones find it by this id.
          return { id: PASSWORD_ACCOUNT.id, name: PASSWORD_ACCOUNT.name, email: PASSWORD_ACCOUNT.email }
        },
      }),
      {
        id: OIDC_PROVIDER_ID,
        name: "Local OIDC",
        type: "oidc",
        issuer: oidc.issuer,
        clientId: oidc.clientId,
        clientSecret: oidc.clientSecret,
        checks: ["pkce", "state", "nonce"],
        // prompt=login: the provider's login page shows every time, so the whole flow is visible (no silent SSO).
        authorization: { params: { scope: "openid email profile", prompt: "login" } },
        // The demo's own provider verifies addresses, so its user may take over an e-mail account of the same address.
        allowDangerousEmailAccountLinking: true,
        // Its mark on the sign-in page: an ID card, inline (the page loads nothing from elsewhere).
        style: {
          logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cg fill='none' stroke='%23fff' stroke-width='2' stroke-linecap='round'%3E%3Crect x='3' y='5' width='18' height='14' rx='2'/%3E%3Ccircle cx='9' cy='11' r='2'/%3E%3Cpath d='M6 16c.6-1.3 1.7-2 3-2s2.4.7 3 2M14 10h4M14 14h3'/%3E%3C/g%3E%3C/svg%3E",
          bg: "#0f766e",
          text: "#fff",
        },
      } satisfies OIDCConfig,
      Nodemailer({
        name: "Email",
        server: { host: smtp.host, port: smtp.port, secure: false, ignoreTLS: true },
        from: "Gatehouse demo <no-reply@gatehouse.localhost>",
      }),
      // Sign up under "Create a passkey" on the sign-in page, then sign in with the button alone (Touch ID, Windows
      // Hello, a phone), or pick the passkey from the username field's autofill.
      Passkey(),
    ],
    callbacks: {
      // The user's id in the session, so pages (and the passkey list) know whose it is. Only these fields are shown:
      // the session row itself (its token) never leaves the server.
      session({ session, user }) {
        return {
          user: { id: user.id, name: user.name ?? null, email: user.email ?? null, image: user.image ?? null },
          expires: new Date(session.expires).toISOString(),
        }
      },
    },
  }
}
