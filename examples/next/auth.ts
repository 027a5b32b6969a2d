// The example's Gatehouse setup: one credentials provider with a demo user, the rule the proxy runs (authorized),
// and a jwt callback that takes a new display name from unstable_update.
import NextAuth from "gatehouse/next"
import Credentials from "gatehouse/providers/credentials"

/** The one account of this example: sign in with demo / demo. */
const DEMO_USER = { id: "1", name: "Demo User", email: "demo@example.com" }

/** A fixed secret so the example runs with nothing set up; a real app sets AUTH_SECRET (`openssl rand -base64 33`). */
const DEV_SECRET = "example-only-secret-do-not-use-in-production-0123456789"
if (!process.env.AUTH_SECRET) console.warn("[example] AUTH_SECRET is not set: using a development secret.")

/** The name sent by unstable_update({ user: { name } }), when there is one. */
function updatedName(data: unknown): string | undefined {
  if (typeof data !== "object" || data === null || !("user" in data)) return undefined
  const user = (data as { user: unknown }).user
  const name =
    typeof user === "object" && user !== null && "name" in user ? (user as { name: unknown }).name : undefined
  return typeof name === "string" && name.trim() !== "" ? name.trim().slice(0, 80) : undefined
}

export const { handlers, auth, signIn, signOut, unstable_update } = NextAuth({
  providers: [
    Credentials({
      credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
      authorize(credentials) {
        return credentials.username === "demo" && credentials.password === "demo" ? DEMO_USER : null
      },
    }),
  ],
  secret: process.env.AUTH_SECRET ?? DEV_SECRET,
  // `next start` runs with NODE_ENV=production, where the Host header is not trusted by default. This example listens
  // on your machine only; behind a proxy, set AUTH_URL, or keep this only if the proxy sets Host itself.
  trustHost: true,
  callbacks: {
    // Runs in proxy.ts on every page its matcher lets in: /protected needs a session (signed-out visitors go to the
    // sign-in page); every other page is open.
    authorized({ request, auth }) {
      return request.nextUrl.pathname.startsWith("/protected") ? auth !== null : true
    },
    jwt({ token, trigger, session }) {
      const name = trigger === "update" ? updatedName(session) : undefined
      return name ? { ...token, name } : token
    },
  },
})
