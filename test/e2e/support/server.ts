// The e2e server: Gatehouse's node:http handler for the auth routes (under /api/auth, and a second mount under /auth)
// plus the test pages, whose scripts esbuild bundles for the browser from test/e2e/support/*-page.ts.
import { createServer } from "node:http"
import type { IncomingMessage, ServerResponse } from "node:http"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"
import { CredentialsSignin } from "../../../src/errors.js"
import { createHandler } from "../../../src/integrations/node.js"
import Credentials from "../../../src/providers/credentials.js"
import type { AuthConfig, JWT } from "../../../src/types.js"
import { listenLocal } from "../../support/listen.js"

/** The users the credentials provider knows: username → password. */
export const USERS: Readonly<Record<string, string>> = { alice: "wonderland", bob: "builder" }

/** Refused with its own code (a CredentialsSignin subclass), to see `code` reach the client. */
class AccountLocked extends CredentialsSignin {
  override code = "locked"
}

/** What the test reads and changes on the server side. */
export interface ServerState {
  /** Each jwt callback call's trigger and session argument, in order. */
  jwtCalls: { trigger: string | undefined; session: unknown }[]
  /** Every request: `METHOD /path?query`. */
  requests: string[]
  /** Put into every session by the session callback; bump it to see a refetch bring news. */
  version: number
}

export interface E2EServer {
  origin: string
  state: ServerState
  stop(): Promise<void>
}

const SUPPORT_DIR = fileURLToPath(new URL(".", import.meta.url))

/** Bundles page entries (file names in this folder) for the browser; throws if one pulls in node-only code. */
export async function bundlePages(entries: string[]): Promise<Map<string, string>> {
  const result = await build({
    entryPoints: Object.fromEntries(entries.map((entry) => [entry.replace(/\.ts$/, ""), `${SUPPORT_DIR}${entry}`])),
    bundle: true,
    write: false,
    platform: "browser",
    format: "esm",
    target: "es2022",
    outdir: "/bundles",
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "silent",
    metafile: true,
  })
  const bundles = new Map<string, string>()
  for (const file of result.outputFiles) bundles.set(`/${file.path.split("/").pop()}`, file.text)
  return bundles
}

function authConfig(state: ServerState, basePath: string): AuthConfig {
  return {
    secret: "e2e-secret-of-the-client-tests-0123456789abcdef",
    trustHost: true,
    basePath,
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    providers: [
      Credentials({
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        authorize: (credentials) => {
          const username = String(credentials.username ?? "")
          if (username === "locked") throw new AccountLocked()
          if (USERS[username] === undefined || USERS[username] !== credentials.password) return null
          return {
            id: username,
            name: username[0]!.toUpperCase() + username.slice(1),
            email: `${username}@example.com`,
          }
        },
      }),
    ],
    callbacks: {
      jwt({ token, trigger, session }): JWT {
        state.jwtCalls.push({ trigger, session })
        if (
          trigger === "update" &&
          typeof session === "object" &&
          session !== null &&
          typeof (session as { name?: unknown }).name === "string"
        ) {
          return { ...token, name: (session as { name: string }).name }
        }
        return token
      },
      session({ session }) {
        return { ...session, version: state.version }
      },
    },
  }
}

function page(script: string): string {
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>e2e</title></head>` +
    `<body><div id="root"></div><script type="module" src="${script}"></script></body></html>`
  )
}

/** Starts the server on 127.0.0.1 (OS-chosen port) with the given page bundles. */
export async function startServer(bundles: Map<string, string>): Promise<E2EServer> {
  const state: ServerState = { jwtCalls: [], requests: [], version: 1 }
  const apiAuth = createHandler(authConfig(state, "/api/auth"))
  const auth = createHandler(authConfig(state, "/auth"))
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? "/"
    state.requests.push(`${req.method ?? "GET"} ${url}`)
    const path = url.split("?")[0] ?? "/"
    if (path.startsWith("/api/auth/")) return void apiAuth(req, res)
    if (path.startsWith("/auth/")) return void auth(req, res)
    if (path === "/favicon.ico") return void res.writeHead(204).end()
    const bundle = bundles.get(path)
    if (bundle !== undefined) {
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-store" })
      return void res.end(bundle)
    }
    // /client/... pages load the plain client, /react/... pages the React app; anything else is a 404.
    const script = path.startsWith("/client/")
      ? "/client-page.js"
      : path.startsWith("/react/")
        ? "/react-page.js"
        : undefined
    if (script === undefined || !bundles.has(script)) {
      res.writeHead(404, { "content-type": "text/plain" })
      return void res.end("not found")
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
    res.end(page(script))
  })
  const listening = await listenLocal(server)
  return { origin: listening.origin, state, stop: listening.stop }
}
