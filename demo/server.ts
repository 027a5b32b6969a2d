// Demo app: node:http on http://localhost:3000 with credentials, a small OAuth 2 provider and passkeys, and a page
// that shows the session and the signed-in user's passkeys (add, remove).
import { createServer } from "node:http"
import { randomBytes } from "node:crypto"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"
import { Auth, type AuthConfig } from "../src/index.js"
import { MemoryAdapter } from "../src/adapters/memory.js"
import { listAuthenticators, removeAuthenticator } from "../src/authenticators.js"
import Credentials from "../src/providers/credentials.js"
import Passkey from "../src/providers/passkey.js"
import { sendWebResponse, toWebRequest } from "../src/integrations/node.js"
import { getToken } from "../src/jwt/index.js"
import { DEMO_CLIENT, startDemoIdp } from "./idp.js"

/** gatehouse/webauthn for the browser, bundled once at start (the page's "Add a passkey" button). */
const webauthnBundle = (
  await build({
    entryPoints: [fileURLToPath(new URL("../src/webauthn/index.ts", import.meta.url))],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    logLevel: "silent",
  })
).outputFiles[0]!.text

const port = Number(process.env.PORT ?? 3000)
const idpPort = port + 1
const idp = startDemoIdp(idpPort)
const secret = process.env.AUTH_SECRET ?? randomBytes(33).toString("base64")

const users = new Map([["demo", { id: "1", name: "Demo User", email: "demo@example.com", password: "demo" }]])

const adapter = MemoryAdapter()
const config: AuthConfig = {
  secret,
  trustHost: true,
  basePath: "/auth",
  // Users, accounts and passkeys live in memory: they are gone when the demo stops.
  adapter,
  session: { strategy: "jwt" },
  experimental: { enableWebAuthn: true },
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
    // Passkeys: sign up with an e-mail on the sign-in page, then sign in with Touch ID, Windows Hello or a phone.
    Passkey(),
  ],
}

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] as string)

type DemoSession = { user?: { name?: string; email?: string }; expires: string } | null

async function readSession(cookie: string | undefined): Promise<{ session: DemoSession; userId: string | undefined }> {
  const headers: Record<string, string> = cookie ? { cookie } : {}
  const session = (await (await Auth(new Request(`http://localhost:${port}/auth/session`, { headers }), config)).json()) as DemoSession
  // The user id is the token's subject; a passkey or Demo ID user is an adapter user, the password user is not.
  const token = session ? await getToken({ req: new Request(`http://localhost:${port}/`, { headers }), secret, secureCookie: false }) : null
  return { session, userId: typeof token?.sub === "string" ? token.sub : undefined }
}

async function passkeySection(userId: string | undefined): Promise<string> {
  // The password user lives in this file, not in the adapter, so it has no passkeys.
  if (!userId || !(await adapter.getUser!(userId))) return "<p>Passkeys can be added to accounts made with Demo ID or with a passkey.</p>"
  const passkeys = await listAuthenticators(config, userId).catch(() => [])
  const rows = passkeys
    .map((p) => `<li><code>${escape(p.credentialID.slice(0, 16))}…</code> ${escape(p.credentialDeviceType)}, used ${p.counter} times
      <form method="post" action="/passkeys/remove" style="display:inline"><input type="hidden" name="id" value="${escape(p.credentialID)}"><button>Remove</button></form></li>`)
    .join("")
  return `<h2>Your passkeys</h2>${rows ? `<ul>${rows}</ul>` : "<p>None yet.</p>"}
    <p><button id="add-passkey">Add a passkey</button> <span id="passkey-status" role="status"></span></p>
    <script type="module">
      import { signIn } from "/webauthn.js"
      document.getElementById("add-passkey").addEventListener("click", async () => {
        const answer = await signIn("passkey", { action: "register", redirect: false, redirectTo: "/" })
        if (answer.ok) location.reload()
        else document.getElementById("passkey-status").textContent = "Could not add a passkey (" + (answer.code ?? answer.error) + ")."
      })
    </script>`
}

async function homePage(cookie: string | undefined): Promise<string> {
  const { session, userId } = await readSession(cookie)
  const body = session
    ? `<p>Signed in as <strong>${escape(session.user?.name ?? "")}</strong> (${escape(session.user?.email ?? "")}).</p>
       <pre>${escape(JSON.stringify(session, null, 2))}</pre>${await passkeySection(userId)}<p><a href="/auth/signout">Sign out</a></p>`
    : `<p>You are not signed in.</p><p><a href="/auth/signin?callbackUrl=/">Sign in</a>: with the password form (user <code>demo</code>, password <code>demo</code>), with <em>Demo ID</em>, a small OAuth 2 provider the demo runs on port ${idpPort}, or with a passkey (type any e-mail and press the passkey button to sign up; next time the button alone signs you in).</p>`
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
    if (req.url === "/webauthn.js") {
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8" }).end(webauthnBundle)
      return
    }
    if (req.url === "/passkeys/remove" && req.method === "POST") {
      // Same-origin form posts only (the browser sends Origin on POST): a removal is a state change.
      if (req.headers.origin !== `http://localhost:${port}`) {
        res.writeHead(403).end("Forbidden")
        return
      }
      const chunks: Buffer[] = []
      for await (const chunk of req) chunks.push(chunk as Buffer)
      const id = new URLSearchParams(Buffer.concat(chunks).toString("utf8")).get("id") ?? ""
      const { userId } = await readSession(req.headers.cookie)
      if (userId) await removeAuthenticator(config, userId, id)
      res.writeHead(303, { location: "/" }).end()
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
  console.log(`Gatehouse demo on http://localhost:${port}  (sign in with demo / demo, with Demo ID on port ${idpPort}, or with a passkey)`)
  if (!process.env.AUTH_SECRET) console.log("AUTH_SECRET is not set: using a random secret, so sessions end when the demo restarts.")
})
