// Example: a Hono app on @hono/node-server with gatehouse/hono — credentials sign-in, a page behind verifyAuth, sign-out.
import { randomBytes } from "node:crypto"
import { serve } from "@hono/node-server"
import { Hono } from "hono"
import { HTTPException } from "hono/http-exception"
// In your app: import { ... } from "gatehouse/hono" and Credentials from "gatehouse/providers/credentials".
import { type AuthConfig, authHandler, getAuthUser, initAuthConfig, verifyAuth } from "../../src/integrations/hono.js"
import Credentials from "../../src/providers/credentials.js"

const port = Number(process.env.PORT ?? 3000)

// A dev secret when AUTH_SECRET is unset: sessions then end when the server restarts. Set AUTH_SECRET in production.
if (!process.env.AUTH_SECRET) {
  process.env.AUTH_SECRET = randomBytes(33).toString("base64")
  console.log("AUTH_SECRET is not set: using a generated development secret (sessions end on restart).")
}

const demoUser = { id: "1", name: "Demo User", email: "demo@example.com", password: "demo" }

// Built once: the same object for every request, so it is resolved and checked once.
const config: AuthConfig = {
  // No `trustHost`: in development (NODE_ENV not "production") the Host header is trusted, as in @hono/auth-js. In
  // production set AUTH_URL=https://your.app/api/auth; `trustHost: true` belongs only behind a proxy you control that
  // sets Host / X-Forwarded-Host, since without one any client writes them.
  providers: [
    Credentials({
      credentials: {
        username: { label: "Username", placeholder: "demo" },
        password: { label: "Password", type: "password", placeholder: "demo" },
      },
      authorize: async ({ username, password }) =>
        username === "demo" && password === demoUser.password
          ? { id: demoUser.id, name: demoUser.name, email: demoUser.email }
          : null,
    }),
  ],
}

const app = new Hono()
app.use(
  "*",
  initAuthConfig(() => config),
)
app.use("/api/auth/*", authHandler())

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)
}

function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}pre{background:#f4f4f4;padding:1rem;overflow:auto}</style>
</head><body><h1>${title}</h1>${body}</body></html>`
}

const links = {
  signIn:
    '<a href="/api/auth/signin?callbackUrl=/protected">Sign in</a> (user <code>demo</code>, password <code>demo</code>)',
  signOut: '<a href="/api/auth/signout">Sign out</a>',
  protectedPage: '<a href="/protected">Protected page</a>',
}

app.get("/", async (c) => {
  const authUser = await getAuthUser(c)
  const status = authUser
    ? `<p>Signed in as <strong>${escapeHtml(authUser.session.user?.name ?? authUser.session.user?.email ?? "unknown")}</strong>.</p><p>${links.protectedPage} · ${links.signOut}</p>`
    : `<p>Not signed in.</p><p>${links.signIn} · ${links.protectedPage}</p>`
  return c.html(page("Gatehouse + Hono", status))
})

// verifyAuth answers 401 without a session; with one, c.get("authUser") holds { session, token }.
app.get("/protected", verifyAuth(), (c) => {
  const { session } = c.get("authUser")
  return c.html(
    page(
      "Protected page",
      `<p>Your session (GET /api/auth/session answers the same):</p>
<pre>${escapeHtml(JSON.stringify(session, null, 2))}</pre><p><a href="/">Home</a> · ${links.signOut}</p>`,
    ),
  )
})

// A friendlier 401 page than verifyAuth's plain "Unauthorized"; other errors keep Hono's default answer.
app.onError((error, c) => {
  if (error instanceof HTTPException && error.status === 401) {
    return c.html(page("Sign-in required", `<p>This page needs a session.</p><p>${links.signIn}</p>`), 401)
  }
  if (error instanceof HTTPException) return error.getResponse()
  console.error(error)
  return c.text("Internal Server Error", 500)
})

// Loopback only: this example's demo user must not be reachable from the network.
serve({ fetch: app.fetch, port, hostname: "127.0.0.1" }, (info) => {
  console.log(`Gatehouse + Hono example on http://localhost:${info.port}`)
})
