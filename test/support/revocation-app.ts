// One app process of the cross-process revocation test (test/session-revocation-scale-out.test.ts): Gatehouse behind
// node:http on 127.0.0.1 with `session.revocation` on, sharing its store (and database) with a sibling process.
//   /rj/*  JWT sessions, credentials sign-in, the redis store            (with REDIS_URL)
//   /pj/*  JWT sessions, credentials sign-in, the postgres store         (with DATABASE_URL)
//   /pd/*  database sessions on the postgres adapter, the mock OP, the postgres store (with DATABASE_URL and REV_OP)
// Each also answers POST <base>/admin/revoke-user {userId, except?}, POST <base>/admin/revoke-session {sessionId} and
// GET <base>/admin/list?userId= (the request's session marked current), which call gatehouse/sessions as an app's account page or admin route would.
// The local "not revoked" cache is REV_CACHE_SECONDS long (the test sets it far above the 1 s bound, so only the
// store's notification can bring a revocation in time). Prints {"port":N} once it listens.
import { createClient } from "@redis/client"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import pg from "pg"
import { PostgresAdapter } from "../../src/adapters/postgres.js"
import type { AuthConfig } from "../../src/index.js"
import { createAuthHandler } from "../../src/integrations/node.js"
import Credentials from "../../src/providers/credentials.js"
import { listSessions, revokeSession, revokeUserSessions } from "../../src/sessions.js"
import type { SharedStore } from "../../src/stores/index.js"
import { PostgresStore } from "../../src/stores/postgres.js"
import { RedisStore } from "../../src/stores/redis.js"
import { mockOpProvider } from "./mock-op-provider.js"

const secret = process.env.REV_SECRET
if (!secret) throw new Error("revocation app: REV_SECRET is not set")
const cacheSeconds = Number(process.env.REV_CACHE_SECONDS ?? "1")

const logger = {
  error: (e: Error) =>
    void process.stderr.write(
      `[revocation app ${process.pid}] ${(e as { type?: string }).type ?? e.name}: ${e.message}\n`,
    ),
  warn: () => {},
  debug: () => {},
}

/** Users of the credentials apps: the id is the name, any password "pw". */
const credentials = Credentials({
  credentials: { username: {}, password: {} },
  authorize: (input) =>
    typeof input.username === "string" && /^[a-z]+$/.test(input.username) && input.password === "pw"
      ? { id: input.username, name: input.username, email: `${input.username}@rev.test` }
      : null,
})

/** The session as the tests read it: the user's id next to the default fields. */
const callbacks: AuthConfig["callbacks"] = {
  session: ({ session, token, user }) => ({
    ...session,
    user: { ...session.user, id: String(user?.id ?? token?.sub ?? "") },
  }),
}

/**
 * REV_WITHOUT_NOTIFICATIONS=1 hands Gatehouse the stores without publish/subscribe: a revocation then reaches the
 * other process only when its cached answer runs out (how to see the test fail without the notifications).
 */
const withoutNotifications = process.env.REV_WITHOUT_NOTIFICATIONS === "1"
const storeOf = (store: SharedStore): SharedStore =>
  withoutNotifications
    ? {
        claim: (...args) => store.claim(...args),
        get: (key) => store.get(key),
        set: (...args) => store.set(...args),
        delete: (key) => store.delete(key),
      }
    : store

const jwtApp = (basePath: string, store: SharedStore): AuthConfig => ({
  secret,
  trustHost: true,
  basePath,
  logger,
  store: storeOf(store),
  session: { strategy: "jwt", revocation: { cacheSeconds } },
  providers: [credentials],
  callbacks,
})

const apps = new Map<string, AuthConfig>()
const closers: (() => Promise<unknown>)[] = []

if (process.env.REDIS_URL) {
  // Named, so the test can find (and kill) this process's connections; the subscriber duplicate() keeps the name.
  const redis = createClient({ url: process.env.REDIS_URL, name: process.env.REV_CONNECTION_NAME })
  redis.on("error", () => {}) // reconnects by itself; a failed command fails the check, which the test sees
  await redis.connect()
  closers.push(() => redis.close())
  apps.set("/rj", jwtApp("/rj", RedisStore(redis)))
}

if (process.env.DATABASE_URL) {
  const schema = process.env.REV_SCHEMA
  if (!schema) throw new Error("revocation app: REV_SCHEMA is not set")
  const pool = new pg.Pool({
    connectionString: process.env.DATABASE_URL,
    max: 5,
    options: `-c search_path=${schema}`,
    application_name: process.env.REV_CONNECTION_NAME,
  })
  pool.on("error", () => {}) // idle-client errors (the test dropping the schema at the end)
  closers.push(() => pool.end())
  const store = PostgresStore(pool)
  apps.set("/pj", jwtApp("/pj", store))
  const op = process.env.REV_OP
    ? (JSON.parse(process.env.REV_OP) as { issuer: string; clientId: string; clientSecret: string })
    : undefined
  if (op) {
    apps.set("/pd", {
      secret,
      trustHost: true,
      basePath: "/pd",
      logger,
      adapter: PostgresAdapter(pool),
      store: storeOf(store),
      session: { strategy: "database", revocation: { cacheSeconds } },
      providers: [
        mockOpProvider(op, {
          timeout: 10_000,
          profile: (p: Record<string, unknown>) => ({
            id: String(p.sub),
            name: String(p.name),
            email: `${String(p.sub)}@rev.test`,
            image: null,
          }),
        }),
      ],
      callbacks,
    })
  }
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  void res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body))

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = ""
  for await (const chunk of req) text += chunk
  return JSON.parse(text || "{}") as Record<string, unknown>
}

/** The admin routes: gatehouse/sessions called with the app's own config, answering what it returned or threw. */
async function admin(config: AuthConfig, action: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    if (req.method === "POST" && action === "revoke-user") {
      const body = await readJson(req)
      const except = typeof body.except === "string" ? body.except : undefined
      return json(res, 200, { ended: await revokeUserSessions(config, String(body.userId), { except }) })
    }
    if (req.method === "POST" && action === "revoke-session") {
      const body = await readJson(req)
      return json(res, 200, { revoked: await revokeSession(config, String(body.sessionId)) })
    }
    if (req.method === "GET" && action === "list") {
      const userId = new URL(req.url ?? "/", "http://x").searchParams.get("userId") ?? ""
      // The request's own cookie marks its session `current`, as on an account page.
      const request = { get: (name: string) => (req.headers[name.toLowerCase()] as string | undefined) ?? null }
      return json(res, 200, { sessions: await listSessions(config, userId, { request }) })
    }
    json(res, 404, { error: "not found" })
  } catch (error) {
    json(res, 500, { error: (error as { type?: string }).type ?? String(error) })
  }
}

const handlers = new Map([...apps].map(([base, config]) => [base, createAuthHandler(config)]))
const server = createServer((req, res) => {
  const base = `/${(req.url ?? "/").split("/")[1]}`
  const config = apps.get(base)
  const handle = handlers.get(base)
  if (!config || !handle) return json(res, 404, { error: "no such app", apps: [...apps.keys()] })
  const rest = (req.url ?? "").slice(base.length)
  if (rest.startsWith("/admin/")) return void admin(config, rest.slice("/admin/".length).split("?")[0] ?? "", req, res)
  return void handle(req, res)
})
server.listen(0, "127.0.0.1", () =>
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port, apps: [...apps.keys()] })}\n`),
)
// The test closing our stdin (or dying) ends this process.
process.stdin.on("end", () => void Promise.allSettled(closers.map((c) => c())).finally(() => process.exit(0)))
process.stdin.resume()
