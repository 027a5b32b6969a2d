// One app process of the scale-out test (test/scale-out.test.ts): Gatehouse behind node:http on 127.0.0.1, sharing
// one PostgreSQL schema with its siblings. /auth/* has database sessions and the mock OP as an OIDC provider;
// /jwt/* has JWT sessions and a refresh-token provider (refreshAccessToken), with the postgres store so a refresh
// happens once across the processes; with REDIS_URL, /rjwt/* is the same app on the redis store; /pk/* has passkeys
// (WebAuthn on the postgres adapter, challenges and the counter lock in the postgres store). Prints {"port":N} once it
// listens.
import { createClient } from "@redis/client"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import pg from "pg"
import type { AuthConfig } from "../../src/index.js"
import { PostgresAdapter } from "../../src/adapters/postgres.js"
import { createAuthHandler } from "../../src/integrations/node.js"
import { PostgresStore } from "../../src/stores/postgres.js"
import Passkey from "../../src/providers/passkey.js"
import { RedisStore } from "../../src/stores/redis.js"
import type { OAuthConfigBase } from "../../src/providers/types.js"
import { mockOpProvider } from "./mock-op-provider.js"

const env = (name: string): string => {
  const value = process.env[name]
  if (!value) throw new Error(`scale-out app: ${name} is not set`)
  return value
}
const secret = env("SCALE_SECRET")
const op = JSON.parse(env("SCALE_OP")) as { issuer: string; clientId: string; clientSecret: string }
const refresher = JSON.parse(env("SCALE_REFRESH")) as { url: string; clientId: string; clientSecret: string }

const pool = new pg.Pool({
  connectionString: env("DATABASE_URL"),
  max: 5,
  options: `-c search_path=${env("SCALE_SCHEMA")}`,
})
pool.on("error", () => {}) // idle-client errors (the test dropping the schema's connections at the end)

const logger = {
  error: (e: Error) =>
    void process.stderr.write(`[app ${process.pid}] ${(e as { type?: string }).type ?? e.name}: ${e.message}\n`),
  warn: () => {},
  debug: () => {},
}

const databaseApp: AuthConfig = {
  secret,
  trustHost: true,
  basePath: "/auth",
  adapter: PostgresAdapter(pool),
  session: { strategy: "database" },
  logger,
  providers: [
    mockOpProvider(op, {
      timeout: 10_000,
      profile: (p: Record<string, unknown>) => ({
        id: String(p.sub),
        name: String(p.name),
        email: `${String(p.sub)}@scale.test`,
        image: null,
      }),
    }),
  ],
}

const redisUrl = process.env.REDIS_URL
const redis = redisUrl ? createClient({ url: redisUrl }) : undefined
redis?.on("error", () => {}) // reconnects by itself; a lost command fails the read, which the test sees
await redis?.connect()

const jwtApp = (basePath: string, store: AuthConfig["store"]): AuthConfig => ({
  secret,
  trustHost: true,
  basePath,
  logger,
  store,
  providers: [
    {
      id: "refresher",
      name: "Refresher",
      type: "oauth",
      clientId: refresher.clientId,
      clientSecret: refresher.clientSecret,
      authorization: { url: `${refresher.url}/authorize`, params: { scope: "read" } },
      token: `${refresher.url}/token`,
      userinfo: `${refresher.url}/me`,
      checks: ["pkce", "state"],
      refreshAccessToken: true,
    } as OAuthConfigBase,
  ],
})

const passkeyApp: AuthConfig = {
  secret,
  trustHost: true,
  basePath: "/pk",
  adapter: PostgresAdapter(pool),
  session: { strategy: "jwt" },
  store: PostgresStore(pool),
  experimental: { enableWebAuthn: true },
  logger,
  providers: [Passkey()],
}

const handleDatabase = createAuthHandler(databaseApp)
const handlePasskey = createAuthHandler(passkeyApp)
const handleJwt = createAuthHandler(jwtApp("/jwt", PostgresStore(pool)))
const handleRedisJwt = redis ? createAuthHandler(jwtApp("/rjwt", RedisStore(redis))) : undefined
const server = createServer((req, res) => {
  if (req.url?.startsWith("/jwt/")) return void handleJwt(req, res)
  if (handleRedisJwt && req.url?.startsWith("/rjwt/")) return void handleRedisJwt(req, res)
  if (req.url?.startsWith("/auth/")) return void handleDatabase(req, res)
  if (req.url?.startsWith("/pk/")) return void handlePasskey(req, res)
  res.writeHead(200, { "content-type": "text/plain" }).end("app")
})
server.listen(0, "127.0.0.1", () =>
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`),
)
// The test closing our stdin (or dying) ends this process.
process.stdin.on("end", () => void Promise.allSettled([pool.end(), redis?.quit()]).finally(() => process.exit(0)))
process.stdin.resume()
