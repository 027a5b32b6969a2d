// Demo entry (`npm run demo [-- --memory]`): starts the database, Local OIDC, the SMTP catcher and the app, and stops them on Ctrl-C.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AuthConfig } from "../src/index.js"
import { listAuthenticators, removeAuthenticator } from "../src/authenticators.js"
import { createHandler, getSession } from "../src/integrations/node.js"
import { BASE_PATH, demoAuthConfig, OIDC_PROVIDER_ID, PASSWORD_ACCOUNT } from "./auth.js"
import { buildBundles, type DemoBundles } from "./bundles.js"
import { OIDC_ACCOUNT, startLocalOidc } from "./oidc.js"
import { readForm } from "./html.js"
import { homePage, inboxPage, notFoundPage, protectedPage, reactPage, type PageContext } from "./pages.js"
import { startMailCatcher, type MailCatcher } from "./smtp.js"
import { openStorage } from "./storage.js"

const args = process.argv.slice(2)
if (args.includes("--help") || args.includes("-h")) {
  console.log(`Usage: npm run demo [-- --memory]

  --memory   users and sessions in memory only (nothing written to disk)

Environment: PORT (default 3000), DEMO_DATA_DIR (default .demo-data), AUTH_SECRET (default: made once, kept in the data folder).`)
  process.exit(0)
}
const unknown = args.filter((a) => a !== "--memory")
if (unknown.length) {
  console.error(`Unknown option ${unknown.join(" ")}. Try --help.`)
  process.exit(2)
}
const memory = args.includes("--memory")
const port = Number(process.env.PORT ?? 3000)
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`PORT must be a port number, not "${process.env.PORT}".`)
  process.exit(2)
}

// Passkeys are bound to the host name the browser sees (rpId "localhost"), so every URL the app makes uses it. It is
// also the configured origin the mailed sign-in links need: a Host header never chooses where they point.
const appUrl = `http://localhost:${port}`
process.env.AUTH_URL = `${appUrl}${BASE_PATH}`

/** What shutdown closes, in reverse start order. */
const stops: Array<{ name: string; stop: () => Promise<void> }> = []
let stopping = false

async function shutdown(signal: string): Promise<void> {
  if (stopping) return
  stopping = true
  console.log(`\n${signal}: stopping…`)
  // A part that hangs must not keep the terminal: give up after a few seconds.
  setTimeout(() => {
    console.error("Some parts did not stop within 5 s; exiting anyway.")
    process.exit(1)
  }, 5000).unref()
  let failed = false
  for (const { name, stop } of stops.reverse()) {
    try {
      await stop()
    } catch (error) {
      failed = true
      console.error(`Stopping ${name} failed:`, error)
    }
  }
  console.log("Stopped.")
  process.exit(failed ? 1 : 0)
}
process.on("SIGINT", () => void shutdown("SIGINT"))
process.on("SIGTERM", () => void shutdown("SIGTERM"))

function listen(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, "127.0.0.1", () => resolve())
  })
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve())
    server.closeAllConnections()
  })
}

function send(res: ServerResponse, status: number, body: string, type = "text/html; charset=utf-8"): void {
  res.writeHead(status, { "content-type": type, "cache-control": "no-store" }).end(body)
}

/** The app: Gatehouse under /auth, the demo's pages around it. */
function demoApp(config: AuthConfig, mail: MailCatcher, bundles: DemoBundles, persistent: boolean) {
  const auth = createHandler(config)
  const host = `localhost:${port}`

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? "GET"
    // One origin only (cookies and passkeys belong to a host name): 127.0.0.1 and friends are sent to localhost.
    if (req.headers.host !== host) {
      if (method === "GET" || method === "HEAD")
        return void res.writeHead(307, { location: `${appUrl}${req.url ?? "/"}` }).end()
      return send(res, 421, `Use ${appUrl}`, "text/plain; charset=utf-8")
    }
    const url = new URL(req.url ?? "/", appUrl)
    if (url.pathname === BASE_PATH || url.pathname.startsWith(`${BASE_PATH}/`)) return auth(req, res)

    const session = await getSession(req, config, res)
    const ctx: PageContext = { session, mailCount: mail.mails().length, persistent }
    const userId = (session?.user as { id?: string } | undefined)?.id

    if (url.pathname === "/passkeys/remove" && method === "POST") {
      // Same-origin form posts only (browsers send Origin on POST): removing a passkey is a state change.
      if (req.headers.origin !== appUrl) return send(res, 403, "Forbidden", "text/plain; charset=utf-8")
      const id = (await readForm(req)).get("id") ?? ""
      if (userId) await removeAuthenticator(config, userId, id)
      return void res.writeHead(303, { location: "/" }).end()
    }
    if (method !== "GET" && method !== "HEAD") return send(res, 405, "Method not allowed", "text/plain; charset=utf-8")

    switch (url.pathname) {
      case "/":
        return send(res, 200, homePage(ctx, userId ? await listAuthenticators(config, userId) : []))
      case "/protected":
        if (!session)
          return void res
            .writeHead(303, { location: `${BASE_PATH}/signin?callbackUrl=${encodeURIComponent("/protected")}` })
            .end()
        return send(res, 200, protectedPage(ctx))
      case "/inbox":
        return send(res, 200, inboxPage(ctx, mail.mails(), url.searchParams.get("type") === "email"))
      case "/inbox.json":
        return send(res, 200, JSON.stringify({ mails: mail.mails() }, null, 2), "application/json; charset=utf-8")
      case "/react":
        return send(res, 200, reactPage(ctx))
      case "/react.js":
        return send(res, 200, bundles.react, "text/javascript; charset=utf-8")
      case "/favicon.ico":
        return void res.writeHead(204, { "cache-control": "max-age=86400" }).end()
      case "/webauthn.js":
        return send(res, 200, bundles.webauthn, "text/javascript; charset=utf-8")
      default:
        return send(res, 404, notFoundPage(ctx))
    }
  }
}

function printBanner(parts: { issuer: string; smtp: MailCatcher; storage: string }): void {
  const row = (label: string, value: string) => `  ${label.padEnd(14)}${value}`
  console.log(
    [
      "",
      "Gatehouse demo: everything runs in this process, nothing needs the internet.",
      "",
      row("App", appUrl),
      row("Inbox", `${appUrl}/inbox   (every e-mail the demo sends lands here)`),
      row("Local OIDC", `${parts.issuer}   (OpenID Provider, issuer; discovery at /.well-known/openid-configuration)`),
      row("SMTP catcher", `smtp://${parts.smtp.host}:${parts.smtp.port}`),
      row("Database", parts.storage),
      "",
      "Sign in with:",
      row("Password", `${PASSWORD_ACCOUNT.username} / ${PASSWORD_ACCOUNT.password}`),
      row(
        "Local OIDC",
        `"Sign in with Local OIDC", then ${OIDC_ACCOUNT.login} / ${OIDC_ACCOUNT.password} (filled in on its login page)`,
      ),
      row("E-mail", `any address; open the link in ${appUrl}/inbox`),
      row("Passkey", `"Create a passkey" with any e-mail; afterwards "Sign in with a passkey" alone signs you in`),
      "",
      `Ready: ${appUrl}   (Ctrl-C stops everything)`,
    ].join("\n"),
  )
}

async function main(): Promise<void> {
  const started = Date.now()
  const [storage, oidc, smtp, bundles] = await Promise.allSettled([
    openStorage({
      memory,
      onSlowStart: (dir) => console.log(`Creating the demo database in ${dir} (first start only, a few seconds)…`),
    }),
    startLocalOidc(`${appUrl}${BASE_PATH}/callback/${OIDC_PROVIDER_ID}`),
    startMailCatcher(),
    buildBundles(),
  ])
  if (storage.status === "fulfilled") stops.push({ name: "database", stop: storage.value.close })
  if (oidc.status === "fulfilled") stops.push({ name: "Local OIDC", stop: oidc.value.stop })
  if (smtp.status === "fulfilled") stops.push({ name: "SMTP catcher", stop: smtp.value.stop })
  for (const part of [storage, oidc, smtp, bundles]) if (part.status === "rejected") throw part.reason
  if (
    storage.status !== "fulfilled" ||
    oidc.status !== "fulfilled" ||
    smtp.status !== "fulfilled" ||
    bundles.status !== "fulfilled"
  )
    return

  const config = demoAuthConfig({
    adapter: storage.value.adapter,
    secret: storage.value.secret,
    oidc: oidc.value,
    smtp: smtp.value,
  })
  const handle = demoApp(config, smtp.value, bundles.value, !memory)
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error(error)
      if (!res.headersSent) send(res, 500, "Internal error", "text/plain; charset=utf-8")
      else res.destroy()
    })
  })
  try {
    await listen(server)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE")
      throw new Error(`Port ${port} is in use. Stop what runs there, or start the demo with PORT=3100 npm run demo.`)
    throw error
  }
  stops.push({ name: "app server", stop: () => closeServer(server) })
  if (stopping) return
  printBanner({ issuer: oidc.value.issuer, smtp: smtp.value, storage: storage.value.description })
  console.log(`  (started in ${((Date.now() - started) / 1000).toFixed(1)} s)`)
}

main().catch(async (error: unknown) => {
  console.error(`The demo could not start: ${error instanceof Error ? error.message : String(error)}`)
  for (const { stop } of stops.reverse()) await stop().catch(() => {})
  process.exit(1)
})
