// Demo app: node:http on http://localhost:3000 with a credentials provider and a page that shows the session.
import { createServer } from "node:http"
import { randomBytes } from "node:crypto"
import { Auth, type AuthConfig } from "../src/index.js"
import Credentials from "../src/providers/credentials.js"
import { sendWebResponse, toWebRequest } from "../src/integrations/node.js"
import { DEMO_CLIENT, startDemoIdp } from "./idp.js"

const port = Number(process.env.PORT ?? 3000)
const idpPort = port + 1
const idp = startDemoIdp(idpPort)
const secret = process.env.AUTH_SECRET ?? randomBytes(33).toString("base64")

const users = new Map([["demo", { id: "1", name: "Demo User", email: "demo@example.com", password: "demo" }]])

const config: AuthConfig = {
  secret,
  trustHost: true,
  basePath: "/auth",
  providers: [
    Credentials({
      credentials: { username: { label: "Username", placeholder: "demo" }, password: { label: "Password", type: "password", placeholder: "demo" } },
      authorize: async ({ username, password }) => {
        const user = typeof username === "string" ? users.get(username) : undefined
        if (!user || user.password !== password) return null
        return { id: user.id, name: user.name, email: user.email }
      },
    }),
    // An OAuth 2 provider (authorization code + PKCE + state) served by demo/idp.ts on the next port.
    {
      id: "demo-id",
      name: "Demo ID",
      type: "oauth",
      clientId: DEMO_CLIENT.id,
      clientSecret: DEMO_CLIENT.secret,
      checks: ["pkce", "state"],
      authorization: { url: `http://127.0.0.1:${idpPort}/authorize`, params: { scope: "profile" } },
      token: `http://127.0.0.1:${idpPort}/token`,
      userinfo: `http://127.0.0.1:${idpPort}/userinfo`,
      profile: (p: Record<string, unknown>) => ({ id: String(p.id), name: String(p.name), email: String(p.email), image: String(p.avatar) }),
    },
  ],
}

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] as string)

async function homePage(cookie: string | undefined): Promise<string> {
  const sessionResponse = await Auth(new Request(`http://localhost:${port}/auth/session`, { headers: cookie ? { cookie } : {} }), config)
  const session = (await sessionResponse.json()) as { user?: { name?: string; email?: string }; expires: string } | null
  const body = session
    ? `<p>Signed in as <strong>${escape(session.user?.name ?? "")}</strong> (${escape(session.user?.email ?? "")}).</p>
       <pre>${escape(JSON.stringify(session, null, 2))}</pre><p><a href="/auth/signout">Sign out</a></p>`
    : `<p>You are not signed in.</p><p><a href="/auth/signin?callbackUrl=/">Sign in</a>: with the password form (user <code>demo</code>, password <code>demo</code>) or with <em>Demo ID</em>, a small OAuth 2 provider the demo runs on port ${idpPort}.</p>`
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><title>Gatehouse demo</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}pre{background:#f6f8fa;padding:1rem;border-radius:.5rem}</style>
</head><body><h1>Gatehouse demo</h1>${body}</body></html>`
}

process.on("SIGINT", () => {
  idp.close()
  process.exit(0)
})

const server = createServer(async (req, res) => {
  try {
    if (req.url?.startsWith("/auth/") || req.url === "/auth") {
      await sendWebResponse(await Auth(toWebRequest(req), config), res)
      return
    }
    if (req.url === "/" || req.url?.startsWith("/?")) {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
      res.end(await homePage(req.headers.cookie))
      return
    }
    res.writeHead(404, { "content-type": "text/plain" }).end("Not found")
  } catch (error) {
    console.error(error)
    res.writeHead(500).end("Internal error")
  }
})

server.listen(port, "127.0.0.1", () => {
  console.log(`Gatehouse demo on http://localhost:${port}  (sign in with demo / demo, or with Demo ID on port ${idpPort})`)
  if (!process.env.AUTH_SECRET) console.log("AUTH_SECRET is not set: using a random secret, so sessions end when the demo restarts.")
})
