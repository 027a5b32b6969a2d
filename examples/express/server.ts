// Example app: Express 5 with gatehouse/express, a credentials provider with one demo user, and a protected page.
import { randomBytes } from "node:crypto"
import express, { type NextFunction, type Request, type Response } from "express"
// In your app: from "gatehouse/express" and "gatehouse/providers/credentials" (here the sources, so no build is needed).
import { ExpressAuth, type ExpressAuthConfig, getSession } from "../../src/integrations/express.js"
import Credentials from "../../src/providers/credentials.js"

const port = Number(process.env.PORT ?? 3000)

if (!process.env.AUTH_SECRET) {
  // Development only: a fresh secret per start, so sessions end when the server restarts.
  process.env.AUTH_SECRET = randomBytes(33).toString("base64")
  console.log("AUTH_SECRET is not set: using a random secret for this run.")
}

const demoUser = { id: "1", name: "Demo User", email: "demo@example.com", password: "demo" }

// No `secret` here: it comes from AUTH_SECRET. No `basePath`: it is the path ExpressAuth is mounted on.
// No `trustHost`: in development (NODE_ENV not "production") the Host header is trusted, as in @auth/express. In
// production set AUTH_URL=https://your.app/auth; `trustHost: true` belongs only behind a proxy you control that sets
// Host / X-Forwarded-Host, since without one any client writes them.
const authConfig: ExpressAuthConfig = {
  providers: [
    Credentials({
      credentials: {
        username: { label: "Username", placeholder: "demo" },
        password: { label: "Password", type: "password", placeholder: "demo" },
      },
      authorize: async ({ username, password }) => {
        if (username !== "demo" || password !== demoUser.password) return null
        return { id: demoUser.id, name: demoUser.name, email: demoUser.email }
      },
    }),
  ],
}

const app = express()
// Behind a TLS-terminating proxy, let Express trust its X-Forwarded-Proto: cookies then get the __Secure- prefix.
app.set("trust proxy", "loopback")
// Body parsers may come before ExpressAuth: it reads the fields they parsed.
app.use(express.urlencoded({ extended: false }))
app.use("/auth", ExpressAuth(authConfig))

const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string,
  )

function page(title: string, body: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}pre{background:#f6f8fa;padding:1rem;border-radius:.5rem}</style>
</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`
}

/** Lets signed-in users through (with the session in res.locals); sends the others to the sign-in page. */
async function requireSession(req: Request, res: Response, next: NextFunction): Promise<void> {
  const session = await getSession(req, authConfig)
  if (!session) return res.redirect(`/auth/signin?callbackUrl=${encodeURIComponent(req.originalUrl)}`)
  res.locals.session = session
  next()
}

app.get("/", async (req, res) => {
  const session = await getSession(req, authConfig)
  const body = session
    ? `<p>Signed in as <strong>${escapeHtml(session.user?.name ?? "")}</strong>.</p>
       <p><a href="/protected">Protected page</a> · <a href="/auth/signout">Sign out</a></p>`
    : `<p>You are not signed in.</p>
       <p><a href="/auth/signin?callbackUrl=/protected">Sign in</a> (user <code>demo</code>, password <code>demo</code>)
       · <a href="/protected">Protected page</a></p>`
  res.type("html").send(page("Gatehouse + Express", body))
})

app.get("/protected", requireSession, (_req, res) => {
  const session = res.locals.session as Awaited<ReturnType<typeof getSession>>
  res.type("html").send(
    page(
      "Protected page",
      `<p>Only signed-in users see this. Your session:</p><pre>${escapeHtml(JSON.stringify(session, null, 2))}</pre>
       <p><a href="/">Home</a> · <a href="/auth/signout">Sign out</a></p>`,
    ),
  )
})

const server = app.listen(port, "127.0.0.1", () => {
  const address = server.address()
  const actual = typeof address === "object" && address ? address.port : port
  console.log(`Gatehouse Express example on http://localhost:${actual}  (sign in with demo / demo)`)
})

process.on("SIGINT", () => server.close(() => process.exit(0)))
process.on("SIGTERM", () => server.close(() => process.exit(0)))
