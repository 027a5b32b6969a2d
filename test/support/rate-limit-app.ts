// One app process of the rate-limit scale-out test (test/rate-limit/redis.test.ts): Gatehouse's createHandler on
// 127.0.0.1 with a credentials provider, counting sign-in attempts in the Redis at REDIS_URL under the key prefix
// RL_PREFIX. GET /authorize-calls answers how often this process ran `authorize`. Prints {"port":N} once it listens.
import { createClient } from "@redis/client"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import type { AuthConfig } from "../../src/index.js"
import { createHandler } from "../../src/integrations/node.js"
import Credentials from "../../src/providers/credentials.js"
import { RedisRateLimitStore } from "../../src/rate-limit/redis.js"

const env = (name: string): string => {
  const value = process.env[name]
  if (!value) throw new Error(`rate-limit app: ${name} is not set`)
  return value
}

const redis = createClient({ url: env("REDIS_URL") })
redis.on("error", () => {}) // reconnects by itself; a failed command fails open, which the test would see
await redis.connect()

let authorizeCalls = 0
const config: AuthConfig = {
  secret: env("RL_SECRET"),
  trustHost: true,
  basePath: "/auth",
  logger: {
    error: (e: Error) => void process.stderr.write(`[rate-limit app ${process.pid}] ${e.name}: ${e.message}\n`),
    warn: () => {},
    debug: () => {},
  },
  rateLimit: {
    max: Number(env("RL_MAX")),
    maxPerAddress: 1000,
    store: RedisRateLimitStore(redis, { prefix: env("RL_PREFIX") }),
  },
  providers: [
    Credentials({
      credentials: { username: {}, password: { type: "password" } },
      authorize: async (c) => {
        authorizeCalls += 1
        return c.username === "alice" && c.password === "password" ? { id: "alice", name: "Alice" } : null
      },
    }),
  ],
}

const handle = createHandler(config)
const server = createServer((req, res) => {
  if (req.url === "/authorize-calls")
    return void res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ calls: authorizeCalls }))
  return void handle(req, res)
})
server.listen(0, "127.0.0.1", () =>
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`),
)
// The test closing our stdin (or dying) ends this process.
process.stdin.on("end", () => void redis.quit().finally(() => process.exit(0)))
process.stdin.resume()
