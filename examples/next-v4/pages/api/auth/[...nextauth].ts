// The auth endpoints under /api/auth, as a next-auth v4 app has them: `authOptions` (exported, so that
// getServerSession can read the session elsewhere) and the catch-all API route NextAuth(authOptions).
import NextAuth, { type AuthOptions } from "gatehouse/v4"
import CredentialsProvider from "gatehouse/v4/providers/credentials"
import KeycloakProvider from "gatehouse/v4/providers/keycloak"

/** The one account of this example: sign in with demo / demo. */
const DEMO_USER = { id: "1", name: "Demo User", email: "demo@example.com", image: null }

export const authOptions: AuthOptions = {
  providers: [
    CredentialsProvider({
      name: "Demo account",
      credentials: {
        username: { label: "Username", type: "text" },
        password: { label: "Password", type: "password" },
      },
      async authorize(credentials) {
        return credentials?.username === "demo" && credentials.password === "demo" ? DEMO_USER : null
      },
    }),
    // An OpenID Provider too, when one is configured: Keycloak, or any OP at KEYCLOAK_ISSUER (the test runs one).
    ...(process.env.KEYCLOAK_ISSUER
      ? [
          KeycloakProvider({
            clientId: process.env.KEYCLOAK_ID ?? "",
            clientSecret: process.env.KEYCLOAK_SECRET ?? "",
            issuer: process.env.KEYCLOAK_ISSUER,
          }),
        ]
      : []),
  ],
  // The secret is NEXTAUTH_SECRET from the environment; the canonical URL NEXTAUTH_URL.
  session: { strategy: "jwt" },
  callbacks: {
    // The user's id (the token's `sub`) in the session, typed by types/next-auth.d.ts.
    async session({ session, token }) {
      if (token.sub) session.user.id = token.sub
      return session
    },
  },
}

export default NextAuth(authOptions)
