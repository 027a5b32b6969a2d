// Internal: the sign-in rate-limit guard the router runs after the CSRF guard on the routes a sign-in kind has counted
// (e-mail sign-in requests and credentials callbacks), the resolution of the `rateLimit` option, and the client-address
// rule it keys on.
import { digest, hmac } from "#crypto"
import { isIP } from "../lib/ip.js"
import { type AuthError, AdapterError, InvalidEndpoints, MissingStoreMethods, RateLimited } from "../errors.js"
import type {
  AuthRequest,
  ClientAddressRule,
  KindRateLimit,
  ResolvedConfig,
  ResolvedProvider,
} from "../pipeline-types.js"
import type { AuthConfig } from "../types.js"
import { isThenable, withTimeout } from "../lib/timeout.js"
import { MemoryRateLimitStore, RATE_LIMIT_DEFAULTS, type RateLimitHit, type RateLimitStore } from "./index.js"
import { isInProcessStore } from "./in-process.js"

/** The `rateLimit` option after defaults and checks. */
export interface ResolvedRateLimit {
  readonly windowMs: number
  readonly max: number
  readonly maxPerAddress: number
  readonly store: RateLimitStore
  /**
   * Keys are SHA-256(keyPrefix ‖ value): a 22-character prefix derived from the secret (an HMAC, once per config),
   * so the store holds no address or e-mail, and apps with different secrets never share a key. A promise where the
   * backend's HMAC is asynchronous (Web Crypto).
   */
  readonly keyPrefix: string | Promise<string>
  /**
   * The store is a MemoryRateLimitStore: in this process, which reads every identifier anyway, so a value of at most
   * PLAIN_KEY_MAX characters is its own key (`id:900:=bob@example.com`) and only longer ones are hashed.
   */
  readonly inProcess: boolean
  /** Where the client address comes from (`rateLimit.clientAddress`; "default" when unset). */
  readonly clientAddress: ClientAddressRule
  /** The start of each kind's keys, `id:<window s>:` and `ip:<window s>:`, made once. */
  readonly labels: { readonly id: string; readonly ip: string }
}

/** Time a store call may take; past it the attempt is let through (fail-open) and the failure logged. */
const RATE_LIMIT_STORE_TIMEOUT_MS = 1_000
/** While a store keeps failing, its failure is logged again at most this often. */
const FAILURE_LOG_INTERVAL_MS = 5 * 60_000

const resolved = new WeakMap<ResolvedConfig, { rateLimit?: ResolvedRateLimit; error?: AuthError }>()

/** The `rateLimit` option of a resolved config, resolved on first use and remembered (once per config object). */
function rateLimitOf(config: ResolvedConfig): { rateLimit?: ResolvedRateLimit; error?: AuthError } {
  let entry = resolved.get(config)
  if (!entry) {
    entry = resolveRateLimit(config.source.rateLimit, config.secrets)
    resolved.set(config, entry)
  }
  return entry
}

function positive(value: unknown, name: string, integer: boolean): AuthError | undefined {
  if (value === undefined) return undefined
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    return new InvalidEndpoints(
      `\`rateLimit.${name}\` must be a positive ${integer ? "integer" : "number of seconds"}, got ${String(value)}.`,
    )
  }
  return undefined
}

/** A header name as RFC 9110 §5.1 allows it (a token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

function shown(value: unknown): string {
  return typeof value === "string"
    ? JSON.stringify(value)
    : typeof value === "object" && value !== null
      ? "an object"
      : String(value)
}

/** `rateLimit.clientAddress` checked and normalised (header lower-cased, proxies filled in), or an error naming the field. */
function clientAddressRule(value: unknown): ClientAddressRule | InvalidEndpoints {
  if (value === undefined) return "default"
  if (value === "socket") return "socket"
  const example = '"socket" or { header: "x-forwarded-for", proxies: 1 }'
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return new InvalidEndpoints(`\`rateLimit.clientAddress\` must be ${example}, got ${shown(value)}.`)
  }
  const unknown = Object.keys(value).filter((key) => key !== "header" && key !== "proxies")
  if (unknown.length)
    return new InvalidEndpoints(
      `\`rateLimit.clientAddress\` has unknown field(s) ${unknown.join(", ")}; it takes ${example}.`,
    )
  const { header, proxies = 1 } = value as { header?: unknown; proxies?: unknown }
  if (typeof header !== "string" || !HEADER_NAME.test(header)) {
    return new InvalidEndpoints(
      `\`rateLimit.clientAddress.header\` must be the name of the header your proxy sets (e.g. "x-forwarded-for" or "x-real-ip"), got ${shown(header)}.`,
    )
  }
  if (typeof proxies !== "number" || !Number.isInteger(proxies) || proxies < 1) {
    return new InvalidEndpoints(
      `\`rateLimit.clientAddress.proxies\` must be a positive integer (how many proxies you run in front of the app), got ${shown(proxies)}.`,
    )
  }
  return Object.freeze({ header: header.toLowerCase(), proxies })
}

/** Resolves `rateLimit` once per config: undefined when it is `false`; an error that names the bad field. */
export function resolveRateLimit(
  option: AuthConfig["rateLimit"],
  secrets: readonly unknown[],
): { rateLimit?: ResolvedRateLimit; error?: AuthError } {
  if (option === false) return {}
  if (option !== undefined && (option === null || typeof option !== "object")) {
    return {
      error: new InvalidEndpoints(
        "`rateLimit` must be an object ({ window, max, maxPerAddress, store, clientAddress }) or false.",
      ),
    }
  }
  const o = option ?? {}
  const error =
    positive(o.window, "window", false) ??
    positive(o.max, "max", true) ??
    positive(o.maxPerAddress, "maxPerAddress", true)
  if (error) return { error }
  const clientAddress = clientAddressRule(o.clientAddress)
  if (clientAddress instanceof InvalidEndpoints) return { error: clientAddress }
  if (o.store !== undefined) {
    const store = o.store as Partial<RateLimitStore> | null
    const missing = (["hit", "undo"] as const).filter((m) => !store || typeof store[m] !== "function")
    if (missing.length)
      return {
        error: new MissingStoreMethods(
          `\`rateLimit.store\` lacks methods of a RateLimitStore (gatehouse/rate-limit): ${missing.join(", ")}.`,
        ),
      }
  }
  const secret = secrets.find((s): s is string => typeof s === "string") ?? ""
  const keyPrefix = keyPrefixOf(hmac("SHA-256", secret, KEY_PREFIX_LABEL, "base64url"))
  // Awaited by each keyOf; a failure (Web Crypto refuses an empty key) is that request's, never an unhandled rejection.
  if (typeof keyPrefix !== "string") keyPrefix.catch(() => {})
  const windowMs = Math.ceil((o.window ?? RATE_LIMIT_DEFAULTS.window) * 1000)
  // The default: a memory store of this config object's own (build the config once, not per request).
  const store = o.store ?? MemoryRateLimitStore()
  return {
    rateLimit: Object.freeze({
      windowMs,
      max: o.max ?? RATE_LIMIT_DEFAULTS.max,
      maxPerAddress: o.maxPerAddress ?? RATE_LIMIT_DEFAULTS.maxPerAddress,
      store,
      keyPrefix,
      inProcess: isInProcessStore(store),
      clientAddress,
      labels: Object.freeze({ id: `id:${windowMs / 1000}:`, ip: `ip:${windowMs / 1000}:` }),
    }),
  }
}

// ---- client address ----

/** IPv4 as is (IPv4-mapped IPv6 too); IPv6 by its /64, since one host usually holds a whole /64. */
export function addressBucket(address: string): string {
  const lower = address.toLowerCase()
  if (isIP(lower) === 4) return lower
  if (lower.startsWith("::ffff:") && isIP(lower.slice(7)) === 4) return lower.slice(7)
  const [head = "", tail = ""] = lower.split("%", 1)[0]!.split("::")
  const left = head === "" ? [] : head.split(":")
  const right = tail === "" ? [] : tail.split(":")
  const groups = lower.includes("::")
    ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right]
    : left
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`
}

// ---- the guard ----

const ASCII = /^[\x00-\x7f]*$/

/** The identifier a sign-in attempt names: NFKC, trimmed and lower-cased, so `Bob@X.test` and `bob@x.test` share a count. */
export function normalizeIdentifier(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined
  // ASCII is its own NFKC form: only other text goes through ICU.
  const normalized = (ASCII.test(value) ? value : value.normalize("NFKC")).trim().toLowerCase()
  return normalized === "" ? undefined : normalized
}

const failing = new WeakMap<RateLimitStore, { loggedAt: number }>()

/** A rate-limit store answer, failing after RATE_LIMIT_STORE_TIMEOUT_MS (no timer when it has already settled). */
function storeCall<T>(call: () => T | Promise<T>): Promise<T> {
  return withTimeout(
    call,
    RATE_LIMIT_STORE_TIMEOUT_MS,
    () => new Error(`timed out after ${RATE_LIMIT_STORE_TIMEOUT_MS} ms`),
  )
}

/** Logs a store failure once per burst of failures (fail-open: the attempt goes through uncounted). */
function storeFailed(limit: ResolvedRateLimit, config: ResolvedConfig, cause: unknown): undefined {
  const now = Date.now()
  const state = failing.get(limit.store)
  if (!state || now - state.loggedAt >= FAILURE_LOG_INTERVAL_MS) {
    failing.set(limit.store, { loggedAt: now })
    config.logger.error(
      new AdapterError(
        "The rate-limit store failed; sign-in attempts are let through uncounted until it answers again (fail-open).",
        { cause },
      ),
    )
  }
  return undefined
}

/** Notes that the store answered: its next failure is logged at once. */
function storeAnswered(limit: ResolvedRateLimit): void {
  if (failing.has(limit.store)) failing.delete(limit.store)
}

/**
 * Calls the store once per key (`hit` or `undo`). When every call answered synchronously (the memory store), the
 * answers come back as they are: no promise, no timer. Otherwise the promises are awaited, each with the store
 * timeout. A failure (a throw, a rejection or a timeout) gives undefined and is logged once per burst (fail-open).
 */
function callStore<T>(
  limit: ResolvedRateLimit,
  config: ResolvedConfig,
  keys: readonly string[],
  call: (key: string, i: number) => T | Promise<T>,
): T[] | undefined | Promise<T[] | undefined> {
  const answers: (T | Promise<T>)[] = []
  let pending = false
  try {
    for (let i = 0; i < keys.length; i++) {
      const answer = call(keys[i]!, i)
      pending ||= isThenable(answer)
      answers.push(answer)
    }
  } catch (cause) {
    return storeFailed(limit, config, cause)
  }
  if (!pending) {
    storeAnswered(limit)
    return answers as T[]
  }
  return Promise.all(answers.map((answer) => storeCall(() => answer))).then(
    (settled) => {
      storeAnswered(limit)
      return settled
    },
    (cause: unknown) => storeFailed(limit, config, cause),
  )
}

/** What the prefix of the hashed keys is derived from: HMAC-SHA256(secret, this label). */
const KEY_PREFIX_LABEL = "gatehouse rate-limit store key"

/**
 * The key prefix: the HMAC's first 22 base64url characters (132 bits). Short, so that prefix and an identifier of up
 * to 33 bytes hash as one SHA-256 block (a 64-character prefix made every key two: 2,000 instructions more per attempt).
 */
function keyPrefixOf(mac: string | Promise<string>): string | Promise<string> {
  return typeof mac === "string" ? mac.slice(0, 22) : mac.then((m) => m.slice(0, 22))
}

/** The longest value a memory store gets as it is (longer ones are hashed, so its keys stay short: `maxEntries` bounds memory). */
const PLAIN_KEY_MAX = 128

/**
 * A store key: the kind, the window and a keyed hash of the value, SHA-256(keyPrefix ‖ value) cut to 162 bits. The
 * prefix is secret, so the key names the value to nobody without the secret. One one-shot hash, about a third of an
 * HMAC's instructions on Node.js; synchronous where the backend is. A memory store gets a short value as it is, after
 * `=` (never in a base64url hash, so the two forms never meet): the hash is about half of the limiter's cost.
 */
function keyOf(kind: "id" | "ip", value: string, limit: ResolvedRateLimit): string | Promise<string> {
  const label = limit.labels[kind]
  if (limit.inProcess && value.length <= PLAIN_KEY_MAX) return `${label}=${value}`
  const keyPrefix = limit.keyPrefix
  return typeof keyPrefix === "string"
    ? hashedKey(label, keyPrefix, value)
    : keyPrefix.then((ready) => hashedKey(label, ready, value))
}

function hashedKey(label: string, keyPrefix: string, value: string): string | Promise<string> {
  const hash = digest("SHA-256", keyPrefix + value, "base64url")
  return typeof hash === "string" ? label + hash.slice(0, 27) : hash.then((h) => label + h.slice(0, 27))
}

const warnedUndeclaredProxy = new WeakSet<ResolvedConfig>()

/** The request's client address by `rateLimit.clientAddress`; behind a proxy nobody declared, unknown and warned about once. */
function clientAddressFor(req: AuthRequest, limit: ResolvedRateLimit, config: ResolvedConfig): string | undefined {
  const found = req.clientAddress?.(limit.clientAddress)
  if (found?.undeclaredProxy && !warnedUndeclaredProxy.has(config)) {
    warnedUndeclaredProxy.add(config)
    config.logger.warn("rate-limit-proxy-untrusted")
  }
  return found?.address
}

/** Takes back the attempt a guard counted (a credentials sign-in that succeeded); never throws. Synchronous for a store that answers synchronously. */
export type UndoAttempt = () => Promise<void> | undefined

const nothingToUndo: UndoAttempt = () => undefined

/**
 * Counts a sign-in attempt per identifier (as the provider's kind names them: `counts`, flows/kinds/) and per client
 * address before the action runs, so concurrent attempts cannot slip past the limit. Only a POST is counted (the
 * routes that are counted take nothing else). Over either limit it throws RateLimited with `retryAfter`: the action
 * never runs (no mail, no `authorize`). Returns what takes the attempt back, for a credentials sign-in that then succeeds.
 * Not an async function: with synchronous hashing (Node.js) and a store that answers synchronously (the memory store,
 * the default) the guard answers, or throws, with no promise; otherwise it answers with one.
 */
export function guardRateLimit(
  req: AuthRequest,
  config: ResolvedConfig,
  provider: ResolvedProvider,
  counts: KindRateLimit,
): UndoAttempt | Promise<UndoAttempt> {
  if (req.method !== "POST") return nothingToUndo
  const { rateLimit: limit, error: configError } = rateLimitOf(config)
  if (configError) throw configError
  if (!limit) return nothingToUndo
  const identifiers = counts.identifiers(req.body, provider)
  const address = clientAddressFor(req, limit, config)
  const keys: (string | Promise<string>)[] = []
  const maxima: number[] = []
  let pending = false
  for (const identifier of identifiers) {
    const key = keyOf("id", identifier, limit)
    pending ||= typeof key !== "string"
    keys.push(key)
    maxima.push(limit.max)
  }
  if (address !== undefined) {
    const key = keyOf("ip", addressBucket(address), limit)
    pending ||= typeof key !== "string"
    keys.push(key)
    maxima.push(limit.maxPerAddress)
  }
  if (keys.length === 0) return nothingToUndo
  if (pending) return Promise.all(keys).then((ready) => countAttempt(ready, maxima, limit, config))
  return countAttempt(keys as string[], maxima, limit, config)
}

/** Counts the attempt under each key; see {@link guardRateLimit}. */
function countAttempt(
  keys: readonly string[],
  maxima: readonly number[],
  limit: ResolvedRateLimit,
  config: ResolvedConfig,
): UndoAttempt | Promise<UndoAttempt> {
  const store = limit.store
  const counted = callStore(limit, config, keys, (key) => store.hit(key, limit.windowMs))
  return isThenable(counted)
    ? counted.then((hits) => judgeAttempt(hits, keys, maxima, limit, config))
    : judgeAttempt(counted, keys, maxima, limit, config)
}

/** Lets the counted attempt through (with its undo) or throws RateLimited; no hits (the store failed) let it through. */
function judgeAttempt(
  hits: RateLimitHit[] | undefined,
  keys: readonly string[],
  maxima: readonly number[],
  limit: ResolvedRateLimit,
  config: ResolvedConfig,
): UndoAttempt {
  if (!hits) return nothingToUndo
  const store = limit.store
  let retryAfter = 0
  const over: string[] = []
  let clock: number | undefined
  hits.forEach((hit, i) => {
    if (hit.count <= maxima[i]!) return
    const what = `${keys[i]!.startsWith("id:") ? "identifier" : "client address"} (${maxima[i]} per ${limit.windowMs / 1000} s)`
    if (!over.includes(what)) over.push(what)
    clock ??= Date.now()
    retryAfter = Math.max(retryAfter, Math.max(1, Math.ceil((hit.resetAt - clock) / 1000)))
  })
  if (retryAfter === 0) {
    // Each undo names its hit's window: one that ends before the action does must not take back the next window's attempts.
    return () => {
      const undone = callStore(limit, config, keys, (key, i) => store.undo(key, hits[i]!))
      return isThenable(undone) ? undone.then(() => undefined) : undefined
    }
  }
  const error = new RateLimited(
    `Too many sign-in attempts for this ${over.join(" and this ")}; retry in ${retryAfter} s.`,
  )
  error.retryAfter = retryAfter
  throw error
}
