// The v4/react browser tests' server and bundles: the /v4/* test page (v4-react-page.ts) bundled once on
// gatehouse/v4/react and once on next-auth 4.24.15's next-auth/react, and a node:http server whose /api/auth routes
// are a pages-router API route of next-auth 4.24.15 itself (next-auth/next's NextAuth) or of gatehouse/v4 (its NextAuth,
// which an app gets by changing the import), each called with a NextApiRequest-shaped request. Both take the same
// options (credentials provider and callbacks), so a test can hold both servers and both client libraries to the same
// expected answers.
import { createRequire } from "node:module"
import { createServer } from "node:http"
import type { IncomingMessage, ServerResponse } from "node:http"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"
import type { Plugin } from "esbuild"
import { NextAuth as GatehouseNextAuth } from "../../../src/integrations/next-v4/index.js"
import GatehouseCredentials from "../../../src/integrations/next-v4/providers/credentials.js"
import type { JWT } from "../../../src/types.js"
import { listenLocal, readBody } from "../../support/listen.js"
import { nextAuthV4Module } from "../../support/next-auth-v4.js"

/** The users the credentials provider knows: username → password. */
export const V4_USERS: Readonly<Record<string, string>> = { alice: "wonderland", bob: "builder" }

export const V4_SECRET = "e2e-secret-of-the-v4-react-tests-0123456789abcdef"

/** Which library answers the auth routes. */
export type V4ServerKind = "next-auth" | "gatehouse"

/** Which library the page runs: gatehouse/v4/react, or next-auth/react (the oracle). */
export type V4ClientLib = "gatehouse" | "next-auth"

export interface V4ServerState {
  /** Each jwt callback call's trigger and session argument, in order. */
  jwtCalls: { trigger: string | undefined; session: unknown }[]
  /** Every request: method, path with query, and the body as received. */
  requests: { method: string; url: string; body: string }[]
  /** What authorize received as credentials, per call. */
  authorizeCalls: Record<string, unknown>[]
  /** Put into every session by the session callback; bump it to see a refetch bring news. */
  version: number
}

export interface V4Server {
  kind: V4ServerKind
  origin: string
  state: V4ServerState
  stop(): Promise<void>
}

const SUPPORT_DIR = fileURLToPath(new URL(".", import.meta.url))
const require = createRequire(import.meta.url)

/** The two bundles of the page: `/v4-gatehouse.js` and `/v4-next-auth.js`. */
export async function bundleV4Pages(): Promise<Map<string, string>> {
  const nextAuthReact = require.resolve("next-auth/react")
  // Sends the page's import of gatehouse/v4/react to next-auth/react.
  const toNextAuth: Plugin = {
    name: "v4-react-to-next-auth",
    setup(b) {
      b.onResolve({ filter: /src\/react\/v4\/index\.js$/ }, () => ({ path: nextAuthReact }))
    },
  }
  const bundles = new Map<string, string>()
  for (const lib of ["gatehouse", "next-auth"] as const) {
    const result = await build({
      entryPoints: [`${SUPPORT_DIR}v4-react-page.ts`],
      bundle: true,
      write: false,
      platform: "browser",
      format: "esm",
      target: "es2022",
      // next-auth/react reads these at load (its NEXTAUTH_URL defaults); a Next app's bundle leaves them unset too.
      define: {
        "process.env.NODE_ENV": '"production"',
        "process.env.NEXTAUTH_URL": "undefined",
        "process.env.NEXTAUTH_URL_INTERNAL": "undefined",
        "process.env.VERCEL_URL": "undefined",
      },
      plugins: lib === "next-auth" ? [toNextAuth] : [],
      logLevel: "silent",
    })
    const [file] = result.outputFiles
    if (!file) throw new Error(`no bundle for ${lib}`)
    bundles.set(`/v4-${lib}.js`, file.text)
  }
  return bundles
}

function user(credentials: Record<string, unknown> | undefined) {
  const username = String(credentials?.username ?? "")
  if (V4_USERS[username] === undefined || V4_USERS[username] !== credentials?.password) return null
  return { id: username, name: username[0]!.toUpperCase() + username.slice(1), email: `${username}@example.com` }
}

/** The jwt callback both servers run: records the call and takes a new name from an update. */
function jwtCallback(state: V4ServerState) {
  return ({ token, trigger, session }: { token: JWT; trigger?: string; session?: unknown }): JWT => {
    state.jwtCalls.push({ trigger, session })
    const name = (session as { name?: unknown } | undefined)?.name
    return trigger === "update" && typeof name === "string" ? { ...token, name } : token
  }
}

/**
 * The session callback both servers run: the name from the token (next-auth 4 builds the default session of an update
 * from the token as it was before the jwt callback) and the state's version.
 */
function sessionOf<S extends { user?: object }>(state: V4ServerState, session: S, token: JWT) {
  return { ...session, user: { ...session.user, name: token.name }, version: state.version }
}

const QUIET = { error: () => {}, warn: () => {}, debug: () => {} }

interface NextApiLikeResponse extends ServerResponse {
  status(code: number): NextApiLikeResponse
  json(body: unknown): void
  send(body: unknown): void
}

type NextApiHandler = (req: IncomingMessage, res: NextApiLikeResponse, options: Record<string, unknown>) => unknown

/** Turns the node request into what Next's API routes hand a handler: query (with `nextauth`), parsed body, cookies. */
function nextApiRequest(req: IncomingMessage, text: string, basePath: string): IncomingMessage {
  const url = new URL(req.url ?? "/", "http://localhost")
  const query: Record<string, string | string[]> = Object.fromEntries(url.searchParams)
  query.nextauth = url.pathname
    .slice(basePath.length + 1)
    .split("/")
    .filter(Boolean)
    .map((segment) => decodeURIComponent(segment))
  const type = req.headers["content-type"] ?? ""
  const body = type.includes("application/json")
    ? (JSON.parse(text || "{}") as unknown)
    : type.includes("application/x-www-form-urlencoded")
      ? Object.fromEntries(new URLSearchParams(text))
      : text || undefined
  const cookies: Record<string, string> = {}
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const at = part.indexOf("=")
    if (at > 0) cookies[part.slice(0, at).trim()] = decodeURIComponent(part.slice(at + 1).trim())
  }
  return Object.assign(req, { query, body, cookies })
}

/** The helpers Next's API routes add to the node response. */
function nextApiResponse(res: ServerResponse): NextApiLikeResponse {
  const out = res as NextApiLikeResponse
  out.status = (code) => {
    out.statusCode = code
    return out
  }
  out.json = (body) => {
    out.setHeader("content-type", "application/json; charset=utf-8")
    out.end(JSON.stringify(body))
  }
  out.send = (body) => {
    if (body !== null && typeof body === "object" && !Buffer.isBuffer(body)) return out.json(body)
    out.end(body === undefined ? undefined : (body as string | Buffer))
  }
  return out
}

/** The options both servers take, with that library's `CredentialsProvider`. */
function v4Options(state: V4ServerState, CredentialsProvider: (options: never) => unknown): Record<string, unknown> {
  const credentials = {
    name: "Credentials",
    credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
    authorize: (input: Record<string, unknown>) => {
      state.authorizeCalls.push({ ...input })
      return user(input)
    },
  }
  return {
    secret: V4_SECRET,
    logger: QUIET,
    providers: [CredentialsProvider(credentials as never)],
    callbacks: {
      jwt: jwtCallback(state),
      session: ({ session, token }: { session: { user?: object }; token: JWT }) => sessionOf(state, session, token),
    },
  }
}

function page(script: string): string {
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>v4 e2e</title></head>` +
    `<body><div id="root"></div><script type="module" src="${script}"></script></body></html>`
  )
}

/**
 * Starts the server on 127.0.0.1 and sets NEXTAUTH_URL to its /api/auth (both libraries take their origin from it).
 * The auth routes answer under /api/auth and, for basePath tests, /custom/auth. Pages: /v4/app and /v4/required, on
 * gatehouse/v4/react, or on next-auth/react with `?lib=next-auth`.
 */
export async function startV4Server(kind: V4ServerKind, bundles: Map<string, string>): Promise<V4Server> {
  const state: V4ServerState = { jwtCalls: [], requests: [], authorizeCalls: [], version: 1 }
  const NextAuth =
    kind === "next-auth" ? nextAuthV4Module<NextApiHandler>("next") : (GatehouseNextAuth as unknown as NextApiHandler)
  const options = v4Options(
    state,
    kind === "next-auth"
      ? nextAuthV4Module<(options: never) => unknown>("providers/credentials")
      : (GatehouseCredentials as (options: never) => unknown),
  )
  let origin = ""
  const server = createServer((req, res) => {
    void (async () => {
      const url = req.url ?? "/"
      const text = await readBody(req)
      state.requests.push({ method: req.method ?? "GET", url, body: text })
      const path = url.split("?")[0] ?? "/"
      const basePath = ["/api/auth", "/custom/auth"].find((base) => path.startsWith(`${base}/`))
      if (basePath !== undefined)
        return void (await NextAuth(nextApiRequest(req, text, basePath), nextApiResponse(res), options))
      if (path === "/favicon.ico") return void res.writeHead(204).end()
      const bundle = bundles.get(path)
      if (bundle !== undefined) {
        res.writeHead(200, { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-store" })
        return void res.end(bundle)
      }
      if (!path.startsWith("/v4/")) return void res.writeHead(404, { "content-type": "text/plain" }).end("not found")
      const lib = new URL(url, origin).searchParams.get("lib") === "next-auth" ? "next-auth" : "gatehouse"
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
      res.end(page(`/v4-${lib}.js`))
    })().catch((error: unknown) => {
      console.error("[v4 e2e server]", error)
      if (!res.headersSent) res.writeHead(500).end()
    })
  })
  const listening = await listenLocal(server)
  origin = listening.origin
  process.env.NEXTAUTH_URL = `${origin}/api/auth`
  return {
    kind,
    origin,
    state,
    stop: async () => {
      delete process.env.NEXTAUTH_URL
      await listening.stop()
    },
  }
}

/** How many requests the server saw for a path (method and query ignored). */
export function v4RequestsTo(server: V4Server, path: string, method?: string): number {
  return server.state.requests.filter(
    (r) => r.url.split("?")[0] === path && (method === undefined || r.method === method),
  ).length
}
