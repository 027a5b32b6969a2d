// `gatehouse/rate-limit/redis`: the RateLimitStore on a Redis client the app passes (node-redis v4+ / @redis/client, or ioredis); no dependency of its own.
import { digest, randomBytes, toBase64Url } from "#crypto"
import { AdapterError } from "../errors.js"
import { storeKey } from "../stores/keys.js"
import type { RateLimitHit, RateLimitStore } from "./index.js"

/** A client method as this module calls it; typed loosely so every client version's overloads fit. */
type Command = (...args: never[]) => Promise<unknown>

/** node-redis (v4 and later, cluster clients too): `evalSha(sha, { keys, arguments })` and `eval(script, { keys, arguments })`. */
export interface NodeRedisClientLike {
  evalSha: Command
  eval: Command
}

/** ioredis (`new Redis()`, `new Redis.Cluster()`): `evalsha(sha, numKeys, ...keysAndArgs)` and `eval(script, numKeys, ...)`. */
export interface IoRedisClientLike {
  evalsha: Command
  eval: Command
}

/** Either client; its kind is told by its methods (`evalSha` is node-redis, `evalsha` ioredis). */
export type RedisRateLimitClient = NodeRedisClientLike | IoRedisClientLike

/** Options of {@link RedisRateLimitStore}. */
export interface RedisRateLimitStoreOptions {
  /** Prepended to every key (default `gatehouse:rl:`; keys are `<prefix>v2:<key>`), e.g. to share one Redis between apps. */
  prefix?: string
}

/**
 * Put between the prefix and the key: a key of this layout is a hash ({count, window}). Versions before it kept a
 * plain counter under `<prefix><key>`; the marker keeps the two apart while both run in a rolling deploy.
 */
const LAYOUT = "v2:"

/** `gatehouse:rl:`, the default `prefix` (unchanged since the first version, so counters survive an upgrade). */
const DEFAULT_PREFIX = `${storeKey("rl")}:`

/**
 * One round trip, atomic on the server. A key is a hash: `c` the count, `w` the id of its window (ARGV[2], drawn by
 * the caller when the window may start). Count the attempt; a new key starts its window: id and expiry. A key
 * that somehow has no expiry gets one. Answers [count, milliseconds left, window id].
 */
const SCRIPT = `local count = redis.call('HINCRBY', KEYS[1], 'c', 1)
local window = redis.call('HGET', KEYS[1], 'w')
local ttl = redis.call('PTTL', KEYS[1])
if not window then
  window = ARGV[2]
  redis.call('HSET', KEYS[1], 'w', window)
  ttl = -1
end
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl, window}`

/**
 * Takes back one attempt only while the key's window is still the hit's own (ARGV[1]) and its count is above
 * zero. A missing key is left missing, and HINCRBY keeps the key's expiry.
 */
const UNDO_SCRIPT = `if redis.call('HGET', KEYS[1], 'w') == ARGV[1] and tonumber(redis.call('HGET', KEYS[1], 'c') or '0') > 0 then
  redis.call('HINCRBY', KEYS[1], 'c', -1)
end
return 0`

/** A script and its SHA-1 (EVALSHA's name for it), hashed on first use. */
interface Script {
  readonly source: string
  sha?: Promise<string>
}
const SCRIPTS = { hit: { source: SCRIPT }, undo: { source: UNDO_SCRIPT } } satisfies Record<string, Script>

function shaOf(script: Script): Promise<string> {
  script.sha ??= Promise.resolve(digest("SHA-1", script.source, "hex"))
  return script.sha
}

function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith("NOSCRIPT")
}

function toNumber(value: unknown): number {
  const n = typeof value === "number" ? value : Number(typeof value === "bigint" ? Number(value) : String(value))
  if (!Number.isFinite(n))
    throw new AdapterError(`RedisRateLimitStore: unexpected reply ${String(value)} from the counting script.`)
  return n
}

/**
 * Creates a store on a connected Redis client (connect it yourself; the store never opens or closes it). Each
 * call is one EVALSHA of a small Lua script: `hit` counts in a hash under `<prefix>v2:<key>` and starts a window
 * (its id and PEXPIRE) on a new key; `undo` takes one back only in the hit's own window and never below zero. So
 * counting and expiry are atomic and Redis expires the keys itself; the script is sent with EVAL only when Redis lacks it.
 */
export function RedisRateLimitStore(
  client: RedisRateLimitClient,
  options: RedisRateLimitStoreOptions = {},
): RateLimitStore {
  const prefix = (options.prefix ?? DEFAULT_PREFIX) + LAYOUT
  // Window ids: this store's random tag and a counter, so no two windows of a key, from any process, share one.
  const tag = toBase64Url(randomBytes(9))
  let windows = 0
  let send: (sha: string | undefined, script: Script, key: string, args: string[]) => Promise<unknown>
  if (
    client &&
    typeof client === "object" &&
    "evalSha" in client &&
    typeof client.evalSha === "function" &&
    typeof client.eval === "function"
  ) {
    const node = client as unknown as Record<
      "evalSha" | "eval",
      (s: string, o: { keys: string[]; arguments: string[] }) => Promise<unknown>
    >
    send = (sha, script, key, args) =>
      sha !== undefined
        ? node.evalSha(sha, { keys: [key], arguments: args })
        : node.eval(script.source, { keys: [key], arguments: args })
  } else if (
    client &&
    typeof client === "object" &&
    "evalsha" in client &&
    typeof client.evalsha === "function" &&
    typeof client.eval === "function"
  ) {
    const io = client as unknown as Record<
      "evalsha" | "eval",
      (s: string, n: number, ...a: string[]) => Promise<unknown>
    >
    send = (sha, script, key, args) =>
      sha !== undefined ? io.evalsha(sha, 1, key, ...args) : io.eval(script.source, 1, key, ...args)
  } else {
    throw new AdapterError(
      "RedisRateLimitStore: pass a connected Redis client: node-redis `createClient()` (it has `evalSha`) or ioredis `new Redis()` (it has `evalsha`).",
    )
  }
  // EVALSHA first; the script's source goes over the wire only when Redis lacks it (after a restart or SCRIPT FLUSH).
  const run = async (script: Script, key: string, args: string[]): Promise<unknown> => {
    try {
      return await send(await shaOf(script), script, key, args)
    } catch (error) {
      if (!isNoScript(error)) throw error
      return send(undefined, script, key, args)
    }
  }

  return {
    async hit(key, windowMs): Promise<RateLimitHit> {
      if (!(windowMs > 0) || !Number.isFinite(windowMs))
        throw new AdapterError(`windowMs must be a positive number of milliseconds, got ${String(windowMs)}.`)
      const fullKey = prefix + key
      const ms = String(Math.ceil(windowMs))
      const reply = await run(SCRIPTS.hit, fullKey, [ms, `${tag}.${(windows++).toString(36)}`])
      if (!Array.isArray(reply) || reply.length !== 3 || typeof reply[2] !== "string") {
        throw new AdapterError("RedisRateLimitStore: unexpected reply from the counting script.")
      }
      const count = toNumber(reply[0])
      const ttl = toNumber(reply[1])
      return { count, resetAt: Date.now() + Math.max(0, ttl), window: reply[2] }
    },
    async undo(key, hit) {
      // A hit without a window id (not one of this store's) names no window: nothing to take back.
      if (typeof hit?.window !== "string") return
      await run(SCRIPTS.undo, prefix + key, [hit.window])
    },
  }
}

export default RedisRateLimitStore
