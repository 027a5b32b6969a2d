// `gatehouse/stores/redis`: the SharedStore on a Redis client you pass (node-redis v4+ / @redis/client, or ioredis); no dependency of its own.
import { AdapterError } from "../errors.js"
import type { SharedStore } from "./index.js"

/** A client method as this module calls it; typed loosely so any client version's overloads fit. */
type Command = (...args: never[]) => Promise<unknown>

/**
 * What the store needs of a client: `get`, `set` and `del`, as node-redis (`createClient()`, v4 and later,
 * cluster clients too) and ioredis (`new Redis()`, `new Redis.Cluster()`) both have them.
 */
export interface RedisClientLike {
  get: Command
  set: Command
  del: Command
}

/** Options of {@link RedisStore}. */
export interface RedisStoreOptions {
  /**
   * Which client API to speak. By default it is told from the client: node-redis clients have `isOpen`,
   * ioredis clients a `status` string. Set it for a wrapper that has neither.
   */
  api?: "node-redis" | "ioredis"
}

type Api = NonNullable<RedisStoreOptions["api"]>

function detectApi(client: object): Api | undefined {
  if ("isOpen" in client) return "node-redis"
  if (typeof (client as { status?: unknown }).status === "string") return "ioredis"
  return undefined
}

function toMilliseconds(ttlSeconds: number): number {
  if (typeof ttlSeconds !== "number" || !(ttlSeconds > 0) || !Number.isFinite(ttlSeconds)) {
    throw new AdapterError(`ttlSeconds must be a positive number of seconds, got ${String(ttlSeconds)}.`)
  }
  return Math.max(1, Math.ceil(ttlSeconds * 1000))
}

const utf8Decoder = new TextDecoder()

/** A reply as a string: clients set up to map replies to Buffers still work. */
function replyText(reply: unknown): string | null {
  if (reply === null || reply === undefined) return null
  if (typeof reply === "string") return reply
  if (reply instanceof Uint8Array) return utf8Decoder.decode(reply)
  return String(reply)
}

/**
 * Creates a store on a connected Redis client (connect it yourself; the store never opens or closes it).
 * `claim` is `SET key value PX ttl NX`, atomic on the server; Redis expires the keys itself.
 */
export function RedisStore(client: RedisClientLike, options: RedisStoreOptions = {}): SharedStore {
  if (
    !client ||
    typeof client !== "object" ||
    typeof client.get !== "function" ||
    typeof client.set !== "function" ||
    typeof client.del !== "function"
  ) {
    throw new AdapterError(
      "RedisStore: pass a Redis client with get, set and del (node-redis `createClient()` or ioredis `new Redis()`).",
    )
  }
  const api = options.api ?? detectApi(client)
  if (api !== "node-redis" && api !== "ioredis") {
    throw new AdapterError(
      'RedisStore: could not tell the client\'s API (node-redis clients have `isOpen`, ioredis ones `status`); pass `{ api: "node-redis" }` or `{ api: "ioredis" }`.',
    )
  }
  const call = (method: "get" | "set" | "del", ...args: unknown[]): Promise<unknown> =>
    (client[method] as (...a: unknown[]) => Promise<unknown>).apply(client, args)
  // node-redis takes SET options as an object ({ NX, PX } since v4; newer names exist but these still work);
  // ioredis takes the command's own tokens.
  const setArgs = (ttlMs: number, onlyIfAbsent: boolean): unknown[] =>
    api === "node-redis"
      ? [{ PX: ttlMs, ...(onlyIfAbsent ? { NX: true } : {}) }]
      : ["PX", ttlMs, ...(onlyIfAbsent ? ["NX"] : [])]

  return {
    async claim(key, value, ttlSeconds) {
      return replyText(await call("set", key, value, ...setArgs(toMilliseconds(ttlSeconds), true))) !== null
    },
    async get(key) {
      return replyText(await call("get", key))
    },
    async set(key, value, ttlSeconds) {
      await call("set", key, value, ...setArgs(toMilliseconds(ttlSeconds), false))
    },
    async delete(key) {
      await call("del", key)
    },
  }
}

export default RedisStore
