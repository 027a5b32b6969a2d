// The Express servers bench/peers/http.ts loads, in a child process of their own: a trivial Express route, Gatehouse's
// ExpressAuth (gatehouse/express, from src/), @auth/express's ExpressAuth, and better-auth's toNodeHandler (better-auth/node,
// its documented Express mounting) with its default settings and with the cookie cache on. Each answers GET session with
// a signed-in cookie of its own. Prints {ports, cookies} as one JSON line.
import { createServer, type RequestListener } from "node:http"
import type { AddressInfo } from "node:net"
import { ExpressAuth as AuthJsExpress } from "@auth/express"
import AuthJsCredentials from "@auth/core/providers/credentials"
import { memoryAdapter } from "better-auth/adapters/memory"
import { toNodeHandler } from "better-auth/node"
import express from "express"
import { ExpressAuth } from "../../src/integrations/express.js"
import { createHandler } from "../../src/integrations/node.js"
import { encode } from "../../src/jwt/index.js"
import Credentials from "../../src/providers/credentials.js"
import { betterAuthInstance, betterAuthSignIn, memoryDb, SECRET, USER } from "./libs.js"

const user = { id: "user-1", ...USER }
async function listenNode(handler: RequestListener): Promise<number> {
  const server = createServer({ keepAliveTimeout: 60_000 }, handler)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return (server.address() as AddressInfo).port
}
async function listen(app: express.Express): Promise<number> {
  const server = app.listen(0, "127.0.0.1")
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.once("listening", resolve))
  return (server.address() as AddressInfo).port
}

const trivial = express()
trivial.get("/auth/session", (_req, res) => {
  res.json({ user: USER, expires: new Date(Date.now() + 30 * 86400_000).toISOString() })
})

const gatehouse = express()
gatehouse.use("/auth", ExpressAuth({ secret: SECRET, trustHost: true, rateLimit: false, providers: [Credentials({ authorize: async () => user })] }))

const authjs = express()
authjs.set("trust proxy", true)
authjs.use("/auth", AuthJsExpress({ secret: SECRET, trustHost: true, providers: [AuthJsCredentials({ authorize: async () => user })] }))

function betterAuthApp(cookieCache: boolean) {
  const auth = betterAuthInstance({ database: memoryAdapter(memoryDb()), cookieCache })
  const app = express()
  // better-auth's Express guide: its handler before any body parser, on every method under /api/auth (Express 5 syntax).
  app.all("/api/auth/{*any}", toNodeHandler(auth))
  return { app, auth }
}
const ba = betterAuthApp(false),
  baCached = betterAuthApp(true)

// node:http without a framework: a trivial handler, Gatehouse's createHandler (gatehouse/node) and better-auth's
// toNodeHandler as the request listener. @auth/core has no node:http integration (bench/http.ts measures it bridged).
const sessionJson = () => JSON.stringify({ user: USER, expires: new Date(Date.now() + 30 * 86400_000).toISOString() })
const trivialNode: RequestListener = (_req, res) => {
  res.writeHead(200, { "content-type": "application/json", "cache-control": "private, no-cache, no-store" })
  res.end(sessionJson())
}
const gatehouseNode = createHandler({ secret: SECRET, trustHost: true, basePath: "/auth", rateLimit: false, providers: [Credentials({ authorize: async () => user })] })
const baNodeAuth = betterAuthInstance({ database: memoryAdapter(memoryDb()) })

const token = await encode({ token: { name: USER.name, email: USER.email, sub: user.id }, secret: SECRET, salt: "authjs.session-token" })
const jwtCookie = `authjs.session-token=${token}`
const out = {
  ports: {
    trivial: await listen(trivial),
    gatehouse: await listen(gatehouse),
    authjs: await listen(authjs),
    betterAuth: await listen(ba.app),
    betterAuthCached: await listen(baCached.app),
    trivialNode: await listenNode(trivialNode),
    gatehouseNode: await listenNode(gatehouseNode as RequestListener),
    betterAuthNode: await listenNode(toNodeHandler(baNodeAuth) as RequestListener),
  },
  cookies: {
    trivial: jwtCookie,
    gatehouse: jwtCookie,
    authjs: jwtCookie,
    betterAuth: (await betterAuthSignIn(ba.auth)).cookie,
    betterAuthCached: (await betterAuthSignIn(baCached.auth)).cookie,
    trivialNode: jwtCookie,
    gatehouseNode: jwtCookie,
    betterAuthNode: (await betterAuthSignIn(baNodeAuth)).cookie,
  },
}
process.stdout.write(`${JSON.stringify(out)}\n`)
