// The passkey e2e app: a Gatehouse config with Passkey() served by node:http on 127.0.0.1, reached by the browser
// as http://localhost:<port> (a secure context, so WebAuthn runs; rpId "localhost"). Auth routes under /auth, the
// /client/* pages load the bundled gatehouse/client (client-page.ts). Backends: the memory adapter, or the postgres
// adapter on an in-memory PGlite (migrated), each with row counts for the assertions.
import { createServer } from "node:http"
import type { IncomingMessage, ServerResponse } from "node:http"
import { PGlite } from "@electric-sql/pglite"
import type { Adapter } from "../../../src/adapters/index.js"
import { MemoryAdapter } from "../../../src/adapters/memory.js"
import { PostgresAdapter, migrate } from "../../../src/adapters/postgres.js"
import type { PostgresQueryable } from "../../../src/adapters/postgres.js"
import { createHandler } from "../../../src/integrations/node.js"
import Passkey from "../../../src/providers/passkey.js"
import type { AuthConfig } from "../../../src/types.js"
import { listenLocal } from "../../support/listen.js"

export const PASSKEY_SECRET = "e2e-secret-of-the-passkey-tests-0123456789abcdef"

/** What the test reads of the adapter's tables. */
export interface Rows {
  users: number
  accounts: number
  webauthnAccounts: number
  authenticators: number
  sessions: number
}

export interface PasskeyBackend {
  name: string
  adapter: Adapter
  rows(): Promise<Rows>
  /** Every stored authenticator's counter, by credential id (standard base64, as stored). */
  counters(): Promise<Map<string, number>>
  emails(): Promise<string[]>
  /** Empties every table (the adapter object stays the same, so running apps keep it). */
  reset(): Promise<void>
  close(): Promise<void>
}

export function memoryPasskeyBackend(): PasskeyBackend {
  const adapter = MemoryAdapter()
  return {
    name: "memory adapter",
    adapter,
    async rows() {
      const accounts = [...adapter.accounts.values()]
      return {
        users: adapter.users.size,
        accounts: accounts.length,
        webauthnAccounts: accounts.filter((a) => a.type === "webauthn").length,
        authenticators: adapter.authenticators.size,
        sessions: adapter.sessions.size,
      }
    },
    async counters() {
      return new Map([...adapter.authenticators.values()].map((a) => [a.credentialID, Number(a.counter)]))
    },
    async emails() {
      return [...adapter.users.values()].map((u) => u.email)
    },
    async reset() {
      for (const map of [
        adapter.users,
        adapter.accounts,
        adapter.sessions,
        adapter.verificationTokens,
        adapter.authenticators,
      ])
        map.clear()
    },
    async close() {},
  }
}

export async function pglitePasskeyBackend(): Promise<PasskeyBackend> {
  const db = new PGlite()
  await migrate(db as unknown as PostgresQueryable)
  const count = async (sql: string) => Number((await db.query<{ n: number | string }>(sql)).rows[0]?.n ?? 0)
  return {
    name: "postgres adapter on PGlite",
    adapter: PostgresAdapter(db as unknown as PostgresQueryable),
    async rows() {
      return {
        users: await count("select count(*) as n from users"),
        accounts: await count("select count(*) as n from accounts"),
        webauthnAccounts: await count("select count(*) as n from accounts where type = 'webauthn'"),
        authenticators: await count("select count(*) as n from authenticators"),
        sessions: await count("select count(*) as n from sessions"),
      }
    },
    async counters() {
      const rows = (
        await db.query<{ credentialID: string; counter: number | string }>(
          `select "credentialID", counter from authenticators`,
        )
      ).rows
      return new Map(rows.map((r) => [r.credentialID, Number(r.counter)]))
    },
    async emails() {
      return (await db.query<{ email: string }>("select email from users")).rows.map((r) => r.email)
    },
    async reset() {
      await db.query("truncate authenticators, sessions, accounts, verification_token, users cascade")
    },
    close: () => db.close(),
  }
}

/** One logged server error: the error's name/type, message and its cause's message. */
export interface LoggedError {
  name: string
  message: string
  cause: string | undefined
}

export interface PasskeyApp {
  /** http://localhost:<port> */
  origin: string
  port: number
  config: AuthConfig
  /** Every request: `METHOD /path?query`. */
  requests: string[]
  errors: LoggedError[]
  stop(): Promise<void>
}

/** The app's config: Passkey() with WebAuthn enabled on `adapter`, `strategy` sessions, errors collected. */
export function passkeyAppConfig(
  adapter: Adapter,
  strategy: "jwt" | "database",
  errors: LoggedError[],
  overrides: Partial<AuthConfig> = {},
): AuthConfig {
  return {
    secret: PASSKEY_SECRET,
    trustHost: true,
    basePath: "/auth",
    adapter,
    session: { strategy },
    experimental: { enableWebAuthn: true },
    providers: [Passkey()],
    logger: {
      error: (error: Error) => {
        const type = (error as { type?: unknown }).type
        const cause = error.cause
        errors.push({
          name: typeof type === "string" ? type : error.name,
          message: error.message,
          cause: cause instanceof Error ? cause.message : cause === undefined ? undefined : String(cause),
        })
      },
      warn: () => {},
      debug: () => {},
    },
    ...overrides,
  }
}

function page(script: string): string {
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>passkey e2e</title></head>` +
    `<body><div id="root"></div><script type="module" src="${script}"></script></body></html>`
  )
}

/** Serves `config` (auth routes under /auth) and the client pages on 127.0.0.1; the origin names localhost. */
export async function startPasskeyApp(
  config: AuthConfig,
  bundles: Map<string, string>,
  errors: LoggedError[],
): Promise<PasskeyApp> {
  const requests: string[] = []
  const auth = createHandler(config)
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? "/"
    requests.push(`${req.method ?? "GET"} ${url}`)
    const path = url.split("?")[0] ?? "/"
    if (path.startsWith("/auth/")) return void auth(req, res)
    if (path === "/favicon.ico") return void res.writeHead(204).end()
    const bundle = bundles.get(path)
    if (bundle !== undefined) {
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-store" })
      return void res.end(bundle)
    }
    if (!path.startsWith("/client/") || !bundles.has("/client-page.js")) {
      res.writeHead(404, { "content-type": "text/plain" })
      return void res.end("not found")
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
    res.end(page("/client-page.js"))
  })
  const listening = await listenLocal(server)
  const port = Number(new URL(listening.origin).port)
  return { origin: `http://localhost:${port}`, port, config, requests, errors, stop: listening.stop }
}
