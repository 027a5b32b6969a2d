// Shared set-up of the rate-limit tests: real Redis connections at REDIS_URL (node-redis, and the ioredis call form on
// top of one) cleaned up after the file, and a credentials config whose authorize accepts alice and bob.
import { randomBytes } from "node:crypto"
import { createClient } from "@redis/client"
import { vi } from "vitest"
import type { AuthConfig } from "../../src/index.js"
import Credentials from "../../src/providers/credentials.js"
import { SECRET, alice, bob } from "./flow-kit.js"
import { spyLogger } from "./logger.js"

export const REDIS_URL = process.env.REDIS_URL

const newClient = () => createClient({ url: REDIS_URL })
export type RedisClient = ReturnType<typeof newClient>

/**
 * Connections to the real Redis for one test file, under a key prefix of that run's own (so parallel runs on one
 * Redis never share counters); `cleanUp` (for afterAll) deletes the prefix's keys and closes every connection.
 */
export function redisKit(label: string) {
  const prefix = `gatehouse-test:${label}:${randomBytes(6).toString("hex")}:`
  const clients: RedisClient[] = []
  return {
    prefix,
    async connect(): Promise<RedisClient> {
      const client = newClient()
      client.on("error", () => {})
      await client.connect()
      clients.push(client)
      return client
    },
    async cleanUp(): Promise<void> {
      const client = clients[0]
      if (client) {
        const keys = await client.keys(`${prefix}*`)
        if (keys.length) await client.del(keys)
      }
      await Promise.allSettled(clients.map((c) => c.close()))
    },
  }
}

/** The calls ioredis has (`evalsha(sha, numKeys, ...)`, `eval(script, numKeys, ...)`), made on a node-redis connection. */
export function ioredisShaped(client: RedisClient) {
  return {
    status: "ready",
    evalsha: (sha: string, numKeys: number, ...args: string[]) =>
      client.sendCommand(["EVALSHA", sha, String(numKeys), ...args]),
    eval: (script: string, numKeys: number, ...args: string[]) =>
      client.sendCommand(["EVAL", script, String(numKeys), ...args]),
  }
}

/** A credentials provider (username, password) accepting alice and bob with "password", and a spying logger. */
export function credentialsConfig(extra: Partial<AuthConfig> = {}) {
  const authorize = vi.fn(async (c: Record<string, unknown>) => {
    if (c.password !== "password") return null
    if (c.username === "alice") return { ...alice }
    if (c.username === "bob") return { ...bob }
    return null
  })
  const log = spyLogger()
  const config: AuthConfig = {
    secret: SECRET,
    basePath: "/auth",
    logger: log.logger,
    providers: [
      Credentials({ credentials: { username: {}, password: { type: "password" } }, authorize: authorize as never }),
    ],
    ...extra,
  }
  return { config, authorize, log }
}
