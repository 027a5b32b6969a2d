// The servers bench/http.ts loads, in a child process of their own: trivial node:http and Express handlers, Gatehouse's
// node and Express front doors, @auth/core behind a web Request bridge and @auth/express, and Express routes that read
// the session server-side with each library's getSession (timed inside the route). Prints {name: port} as JSON.
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Auth as AuthJs } from "@auth/core"
import AuthJsCredentials from "@auth/core/providers/credentials"
import { ExpressAuth as AuthJsExpress, getSession as authJsGetSession } from "@auth/express"
import express from "express"
import Credentials from "../src/providers/credentials.js"
import { createHandler, sendWebResponse, toWebRequest } from "../src/integrations/node.js"
import type { AuthConfig } from "../src/index.js"

export const SECRET = "x".repeat(32)
const USER = { id: "user-1", name: "Bench User", email: "bench@example.com" }

// rateLimit off: @auth/core has no limiter, so both sides do the same work.
const ghConfig: AuthConfig = {
  secret: SECRET,
  trustHost: true,
  basePath: "/auth",
  rateLimit: false,
  providers: [Credentials({ authorize: async () => ({ ...USER }) })],
}
const ajConfig = {
  secret: SECRET,
  trustHost: true,
  basePath: "/auth",
  providers: [AuthJsCredentials({ authorize: async () => ({ ...USER }) })],
}

const JSON_BODY = JSON.stringify({ user: { name: USER.name, email: USER.email }, expires: "2030-01-01T00:00:00.000Z" })

/** Time spent inside getSession per route, in ns, reset by GET /__stats. */
const timing = { gatehouse: { ns: 0n, n: 0 }, authjs: { ns: 0n, n: 0 } }

async function listen(handler: RequestListener): Promise<number> {
  const server = createServer({ keepAliveTimeout: 60_000 }, handler)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return (server.address() as AddressInfo).port
}

const trivialNode: RequestListener = (_req, res) => {
  res.writeHead(200, { "content-type": "application/json", "cache-control": "private, no-cache, no-store" })
  res.end(JSON_BODY)
}

// A trivial handler behind the same web Request/Response bridge an @auth/core app needs, fixed JSON (N0b).
const trivialBridged: RequestListener = (req, res) => {
  toWebRequest(req)
  void sendWebResponse(
    new Response(JSON_BODY, {
      headers: { "content-type": "application/json", "cache-control": "private, no-cache, no-store" },
    }),
    res,
  )
}

// @auth/core has no node:http front door; an app bridges it through web Request/Response (the README pattern).
const authJsNode: RequestListener = (req, res) => {
  void AuthJs(toWebRequest(req), ajConfig).then((response) => sendWebResponse(response, res))
}

const trivialExpress = express()
trivialExpress.get("/auth/session", (_req, res) => {
  res.json({ user: { name: USER.name, email: USER.email }, expires: "2030-01-01T00:00:00.000Z" })
})

// Loaded when present, so the bench also runs in a tree without gatehouse/express.
let ghExpressModule: typeof import("../src/integrations/express.js") | undefined
try {
  ghExpressModule = await import("../src/integrations/express.js")
} catch {
  ghExpressModule = undefined
}

const ghExpress = express()
if (ghExpressModule) ghExpress.use("/auth", ghExpressModule.ExpressAuth({ ...ghConfig, basePath: undefined }))
const ajExpress = express()
ajExpress.set("trust proxy", true)
ajExpress.use("/auth", AuthJsExpress({ ...ajConfig, basePath: undefined } as never))

function timed(which: keyof typeof timing, read: (req: express.Request) => Promise<unknown>) {
  return async (req: express.Request, res: express.Response) => {
    const start = process.hrtime.bigint()
    const session = (await read(req)) as { user?: { email?: string } } | null
    timing[which].ns += process.hrtime.bigint() - start
    timing[which].n++
    if (session?.user?.email !== USER.email) res.status(500).json({ error: "no session" })
    else res.json({ user: session.user })
  }
}

const routes = express()
routes.set("trust proxy", true)
if (ghExpressModule) {
  const { getSession } = ghExpressModule
  routes.get(
    "/me-gatehouse",
    timed("gatehouse", (req) => getSession(req, ghConfig)),
  )
}
routes.get(
  "/me-authjs",
  timed("authjs", (req) => authJsGetSession(req, ajConfig as never)),
)
routes.get("/__stats", (_req, res) => {
  const out = Object.fromEntries(
    Object.entries(timing).map(([k, v]) => [k, { us: v.n ? Number(v.ns / BigInt(v.n)) / 1000 : null, n: v.n }]),
  )
  timing.gatehouse = { ns: 0n, n: 0 }
  timing.authjs = { ns: 0n, n: 0 }
  res.json(out)
})

const ports = {
  trivialNode: await listen(trivialNode),
  trivialBridged: await listen(trivialBridged),
  gatehouseNode: await listen(createHandler(ghConfig) as (req: IncomingMessage, res: ServerResponse) => void),
  authjsNode: await listen(authJsNode),
  trivialExpress: await listen(trivialExpress),
  gatehouseExpress: ghExpressModule ? await listen(ghExpress) : null,
  authjsExpress: await listen(ajExpress),
  routes: await listen(routes),
}
process.stdout.write(`${JSON.stringify(ports)}\n`)
