// `gatehouse/stores/redis`: the SharedStore on a Redis client you pass (node-redis v4+ / @redis/client, or ioredis); no dependency of its own.
import { AdapterError } from "../errors.js"
import { type ChannelBackend, createChannelHub } from "./channels.js"
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
  /** With a subscriber (`duplicate()` or {@link RedisStoreOptions.subscriber}): the store gets `publish`/`subscribe`. */
  publish?: Command
  /** A new client with the same options: node-redis returns it unconnected, ioredis connects it itself. */
  duplicate?: (...args: never[]) => unknown
}

/**
 * A connection that does nothing but listen (Redis allows no other command on a subscribed connection): a connected
 * node-redis client (`subscribe(channel, listener)`) or ioredis client (`subscribe(channel)` and `"message"` events).
 */
export interface RedisSubscriberLike {
  /** node-redis: `subscribe(channel, listener)`; ioredis: `subscribe(channel)`. */
  subscribe: Command
  /** node-redis: `unsubscribe(channel, listener)`; ioredis: `unsubscribe(channel)`. */
  unsubscribe: Command
  /** ioredis: where its `"message"` events are heard. */
  on?: (...args: never[]) => unknown
}

/** Options of {@link RedisStore}. */
export interface RedisStoreOptions {
  /**
   * Which client API to speak. By default it is told from the client: node-redis clients have `isOpen`,
   * ioredis clients a `status` string. Set it for a wrapper that has neither.
   */
  api?: "node-redis" | "ioredis"
  /**
   * The connection the store listens on for `subscribe` (revocations reach other processes through it), connected,
   * of the same client library as the main client and used for nothing else. The store never closes it. Without it,
   * the store calls `client.duplicate()` on the first subscription, connects that copy, and closes it after the last
   * subscription ends. Either way, subscribing again after a reconnect is the client library's job (node-redis and
   * ioredis both do it); a message published while the connection was down is lost, which the local cache time of a
   * revocation check bounds.
   */
  subscriber?: RedisSubscriberLike
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
 * `claim` is `SET key value PX ttl NX`, atomic on the server; Redis expires the keys itself. When the client has
 * `publish` and either `duplicate()` or `options.subscriber` is there, the store has `publish` (PUBLISH on the client)
 * and `subscribe` (SUBSCRIBE on the listening connection), which carry revocations to every process at once.
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
    ...notifications(client, api, options.subscriber),
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

type Method = (...args: unknown[]) => unknown
const method = (target: object, name: string): Method | undefined => {
  const fn = (target as Record<string, unknown>)[name]
  return typeof fn === "function" ? (fn as Method).bind(target) : undefined
}

/** Ends a connection the store opened: `close` (node-redis 5+), `quit` (node-redis 4, ioredis) or `disconnect`. */
async function closeConnection(connection: object): Promise<void> {
  const end = method(connection, "close") ?? method(connection, "quit") ?? method(connection, "disconnect")
  await end?.()
}

/** How long a duplicate() the store opened may take to connect before it is dropped and the subscription fails. */
const SUBSCRIBER_CONNECT_MS = 5_000

/**
 * Connects a node-redis duplicate. node-redis keeps retrying a connection it cannot open and `connect()` stays
 * pending meanwhile, so after SUBSCRIBER_CONNECT_MS (or a rejection) the copy is destroyed rather than left retrying
 * in the background; the next subscription opens a new one.
 */
async function connectOrDrop(copy: object): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new AdapterError(`RedisStore: the subscriber connection did not open within ${SUBSCRIBER_CONNECT_MS} ms.`),
        ),
      SUBSCRIBER_CONNECT_MS,
    )
    ;(timer as { unref?: () => void }).unref?.()
  })
  const connecting = Promise.resolve((method(copy, "connect") as Method)())
  connecting.catch(() => {}) // it may still settle after the copy was dropped
  try {
    await Promise.race([connecting, timeout])
  } catch (error) {
    try {
      const dropped = (method(copy, "destroy") ?? method(copy, "disconnect"))?.()
      if (dropped instanceof Promise) dropped.catch(() => {})
    } catch {
      // already closed
    }
    throw error
  } finally {
    clearTimeout(timer)
  }
}

/**
 * `publish` and `subscribe` when the client can publish and the store has, or can make, a connection to listen on;
 * nothing otherwise (the store then works without notifications).
 */
function notifications(
  client: RedisClientLike,
  api: Api,
  given: RedisSubscriberLike | undefined,
): Pick<SharedStore, "publish" | "subscribe"> {
  const publish = method(client, "publish")
  if (!publish) return {}
  if (given && (typeof given.subscribe !== "function" || typeof given.unsubscribe !== "function")) {
    throw new AdapterError("RedisStore: options.subscriber must be a connected client with subscribe and unsubscribe.")
  }
  const duplicate = method(client, "duplicate")
  if (!given && !duplicate) return {}

  let connection: object | undefined
  const open = async (): Promise<object> => {
    if (connection) return connection
    if (given) {
      connection = given
    } else {
      const copy = (duplicate as Method)() as object
      // Errors of a connection we own are its reconnect attempts: the client library retries, and an unhandled
      // "error" event would end the process.
      method(copy, "on")?.("error", () => {})
      if (api === "node-redis") await connectOrDrop(copy)
      connection = copy
    }
    if (api === "ioredis") method(connection, "on")?.("message", onIoredisMessage)
    return connection
  }
  const call = async (name: "subscribe" | "unsubscribe", ...args: unknown[]) =>
    (method(await open(), name) as Method)(...args)

  const hub = createChannelHub({
    listen: (channel) =>
      api === "node-redis"
        ? call("subscribe", channel, onNodeRedisMessage).then(() => {})
        : call("subscribe", channel).then(() => {}),
    unlisten: (channel) =>
      api === "node-redis"
        ? call("unsubscribe", channel, onNodeRedisMessage).then(() => {})
        : call("unsubscribe", channel).then(() => {}),
    idle: async () => {
      const current = connection
      connection = undefined
      if (!current) return
      if (api === "ioredis")
        (method(current, "off") ?? method(current, "removeListener"))?.("message", onIoredisMessage)
      if (current !== given) await closeConnection(current)
    },
  } satisfies ChannelBackend)
  // node-redis calls a channel's listeners with (message, channel); ioredis emits "message" with (channel, message).
  function onNodeRedisMessage(message: unknown, channel: unknown): void {
    hub.deliver(replyText(channel) ?? "", replyText(message) ?? "")
  }
  function onIoredisMessage(channel: unknown, message: unknown): void {
    hub.deliver(replyText(channel) ?? "", replyText(message) ?? "")
  }

  return {
    async publish(channel, message) {
      await publish(channel, message)
    },
    subscribe: hub.subscribe,
  }
}

export default RedisStore
