// A tiny OAuth 2 identity provider for the demo (http://127.0.0.1:3001), so the OAuth sign-in runs with no internet.
// It checks the client secret, the redirect URI and PKCE (S256), and issues one-time codes. Not for production use.
import { createHash, randomBytes } from "node:crypto"
import { createServer, type Server } from "node:http"

export const DEMO_CLIENT = { id: "demo-client", secret: "demo-client-secret-demo-client-secret" }
const users = [
  { id: "101", name: "Ada Lovelace", email: "ada@demo.example", avatar: "https://avatars.example/ada.png" },
  { id: "102", name: "Alan Turing", email: "alan@demo.example", avatar: "https://avatars.example/alan.png" },
]

interface Grant { userId: string; redirectUri: string; challenge: string | null; expires: number }

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** Starts the demo identity provider; its URLs go into the demo's provider config. */
export function startDemoIdp(port: number): Server {
  const codes = new Map<string, Grant>()
  const tokens = new Map<string, string>()
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", `http://127.0.0.1:${port}`)
    if (url.pathname === "/authorize") {
      const q = url.searchParams
      if (q.get("client_id") !== DEMO_CLIENT.id || !q.get("redirect_uri")) return void res.writeHead(400).end("unknown client")
      const pick = q.get("user")
      if (pick) {
        const code = randomBytes(16).toString("hex")
        codes.set(code, { userId: pick, redirectUri: q.get("redirect_uri")!, challenge: q.get("code_challenge"), expires: Date.now() + 60_000 })
        const back = new URL(q.get("redirect_uri")!)
        back.searchParams.set("code", code)
        if (q.get("state")) back.searchParams.set("state", q.get("state")!)
        return void res.writeHead(302, { location: back.href }).end()
      }
      const links = users.map((u) => {
        const next = new URL(url)
        next.searchParams.set("user", u.id)
        return `<li><a href="${escape(next.href)}">Continue as ${escape(u.name)}</a></li>`
      })
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
      return void res.end(`<!DOCTYPE html><title>Demo ID</title><body style="font:16px system-ui;margin:3rem"><h1>Demo ID</h1><p>Sign in to the Gatehouse demo as:</p><ul>${links.join("")}</ul></body>`)
    }
    if (url.pathname === "/token" && req.method === "POST") {
      let body = ""
      for await (const chunk of req) body += chunk
      const form = new URLSearchParams(body)
      const basic = Buffer.from((req.headers.authorization ?? "").replace(/^Basic /, ""), "base64").toString()
      const grant = codes.get(form.get("code") ?? "")
      codes.delete(form.get("code") ?? "")
      const verifier = form.get("code_verifier") ?? ""
      const ok = basic === `${DEMO_CLIENT.id}:${DEMO_CLIENT.secret}` && grant && grant.expires > Date.now() &&
        grant.redirectUri === form.get("redirect_uri") &&
        (grant.challenge === null || createHash("sha256").update(verifier).digest("base64url") === grant.challenge)
      res.setHeader("content-type", "application/json")
      if (!ok) return void res.writeHead(400).end(JSON.stringify({ error: "invalid_grant" }))
      const accessToken = randomBytes(24).toString("hex")
      tokens.set(accessToken, grant.userId)
      return void res.end(JSON.stringify({ access_token: accessToken, token_type: "Bearer", expires_in: 3600, scope: "profile" }))
    }
    if (url.pathname === "/userinfo") {
      const user = users.find((u) => u.id === tokens.get((req.headers.authorization ?? "").replace(/^Bearer /, "")))
      res.setHeader("content-type", "application/json")
      if (!user) return void res.writeHead(401).end(JSON.stringify({ error: "invalid_token" }))
      return void res.end(JSON.stringify(user))
    }
    res.writeHead(404).end()
  })
  server.listen(port, "127.0.0.1")
  return server
}
