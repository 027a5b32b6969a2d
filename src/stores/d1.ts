// `gatehouse/stores/d1`: the SharedStore and the sign-in RateLimitStore on a Cloudflare D1 binding, for apps on
// Workers, where the TCP clients of the Postgres and Redis stores cannot run. Web-standard code only, no dependency.
import { AdapterError } from "../errors.js"
import type { RateLimitHit, RateLimitStore } from "../rate-limit/index.js"
import type { SharedStore } from "./index.js"

/** A prepared D1 statement, as far as these stores use it (`D1PreparedStatement` of a Worker's binding fits). */
export interface D1StatementLike {
  bind(...values: unknown[]): D1StatementLike
  first(): Promise<unknown>
  run(): Promise<unknown>
}

/** A D1 database: the binding a Worker gets in `env` (`D1Database`), or miniflare's `getD1Database()`. */
export interface D1DatabaseLike {
  prepare(query: string): D1StatementLike
  /** Runs the statements in order in one transaction (one round trip); resolves to one result per statement. */
  batch(statements: D1StatementLike[]): Promise<unknown[]>
}

/** The table of {@link D1Store}. */
export const STORE_TABLE = "gatehouse_store"
/** The table of {@link D1RateLimitStore}. */
export const RATE_LIMIT_TABLE = "gatehouse_rate_limit"

// Expiry is kept in milliseconds since the epoch and compared with the database's clock, so every Worker isolate,
// wherever it runs, agrees on it. julianday('now') is fixed for the whole of one statement.
const NOW = "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)"

const schemaStatements: ReadonlyArray<{ name: string; sql: string }> = [
  {
    name: STORE_TABLE,
    sql: `CREATE TABLE IF NOT EXISTS ${STORE_TABLE} (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID`,
  },
  {
    name: `${STORE_TABLE}_expires_at_idx`,
    sql: `CREATE INDEX IF NOT EXISTS ${STORE_TABLE}_expires_at_idx ON ${STORE_TABLE} (expires_at)`,
  },
  {
    name: RATE_LIMIT_TABLE,
    sql: `CREATE TABLE IF NOT EXISTS ${RATE_LIMIT_TABLE} (
  key TEXT PRIMARY KEY,
  count INTEGER NOT NULL,
  reset_at INTEGER NOT NULL
) WITHOUT ROWID`,
  },
  {
    name: `${RATE_LIMIT_TABLE}_reset_at_idx`,
    sql: `CREATE INDEX IF NOT EXISTS ${RATE_LIMIT_TABLE}_reset_at_idx ON ${RATE_LIMIT_TABLE} (reset_at)`,
  },
]

/**
 * Both tables and their indexes as one SQL script (idempotent): save it as a D1 migration
 * (`wrangler d1 migrations create`), or call {@link migrate} from the Worker instead.
 */
export const storeSchema: string = `${schemaStatements.map((s) => `${s.sql};`).join("\n\n")}\n`

/** What {@link migrate} did: the tables and indexes it created, and those already there. */
export interface D1MigrationResult {
  created: string[]
  existing: string[]
}

/** Creates the tables and indexes of both stores where missing, in one transaction; safe to run on every start. */
export async function migrate(db: D1DatabaseLike): Promise<D1MigrationResult> {
  const names = schemaStatements.map((s) => s.name)
  const found = await db
    .prepare(`SELECT name FROM sqlite_master WHERE name IN (${names.map((_, i) => `?${i + 1}`).join(", ")})`)
    .bind(...names)
    .run()
  const existing = new Set(rowsOf(found).map((row) => row.name))
  const missing = schemaStatements.filter((s) => !existing.has(s.name))
  if (missing.length > 0) await db.batch(missing.map((s) => db.prepare(s.sql)))
  return { created: names.filter((n) => !existing.has(n)), existing: names.filter((n) => existing.has(n)) }
}

/** The rows of a D1 result (`{ results: [...] }`); anything else is a driver this module does not understand. */
function rowsOf(result: unknown): Record<string, unknown>[] {
  const rows = (result as { results?: unknown } | null)?.results
  if (!Array.isArray(rows)) throw new AdapterError("D1 store: the database answered without a `results` array.")
  return rows as Record<string, unknown>[]
}

/**
 * Expired rows go a few at a time, in the same transaction as each write (no timer, no per-isolate state: a store
 * made per request sweeps as well as one made once). A write adds at most one row and removes up to this many
 * expired ones, so expired rows never pile up.
 */
const SWEEP_BATCH = 8

const sweep = (table: string, column: string): string =>
  `DELETE FROM ${table} WHERE key IN (SELECT key FROM ${table} WHERE ${column} <= ${NOW} ORDER BY ${column} LIMIT ${SWEEP_BATCH})`

function ttlMs(ttlSeconds: number): number {
  if (typeof ttlSeconds !== "number" || !(ttlSeconds > 0) || !Number.isFinite(ttlSeconds)) {
    throw new AdapterError(`ttlSeconds must be a positive number of seconds, got ${String(ttlSeconds)}.`)
  }
  return Math.ceil(ttlSeconds * 1000)
}

function checkDatabase(db: unknown, name: string): asserts db is D1DatabaseLike {
  const d = db as Partial<D1DatabaseLike> | null
  if (!d || typeof d.prepare !== "function" || typeof d.batch !== "function") {
    throw new AdapterError(`${name}: pass a D1 database binding (env.DB in a Worker): it has prepare() and batch().`)
  }
}

/**
 * Creates a SharedStore on the `gatehouse_store` table of a D1 database (run {@link migrate} or apply
 * {@link storeSchema} first). Every Worker sharing the database shares the store. `claim` is one INSERT ... ON
 * CONFLICT that replaces only an expired row, and D1 runs writes one at a time, so exactly one of any number of
 * racing claims wins. Expiry follows the database clock; reads ignore expired rows and writes sweep them. It has no
 * `publish`/`subscribe` (D1 has no notifications): a revoked session is refused by every isolate once its local
 * cache time has passed.
 */
export function D1Store(db: D1DatabaseLike): SharedStore {
  checkDatabase(db, "D1Store")
  const upsert = (onlyIfExpired: boolean) =>
    `INSERT INTO ${STORE_TABLE} (key, value, expires_at) VALUES (?1, ?2, ${NOW} + ?3)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at
     ${onlyIfExpired ? `WHERE ${STORE_TABLE}.expires_at <= ${NOW}` : ""}
     RETURNING 1 AS written`
  const claimSql = upsert(true)
  const setSql = upsert(false)
  const sweepSql = sweep(STORE_TABLE, "expires_at")
  return {
    async claim(key, value, ttlSeconds) {
      const ms = ttlMs(ttlSeconds)
      const [, claimed] = await db.batch([db.prepare(sweepSql), db.prepare(claimSql).bind(key, value, ms)])
      return rowsOf(claimed).length > 0
    },
    async get(key) {
      const row = (await db
        .prepare(`SELECT value FROM ${STORE_TABLE} WHERE key = ?1 AND expires_at > ${NOW}`)
        .bind(key)
        .first()) as { value?: unknown } | null
      return typeof row?.value === "string" ? row.value : null
    },
    async set(key, value, ttlSeconds) {
      const ms = ttlMs(ttlSeconds)
      await db.batch([db.prepare(sweepSql), db.prepare(setSql).bind(key, value, ms)])
    },
    async delete(key) {
      await db.prepare(`DELETE FROM ${STORE_TABLE} WHERE key = ?1`).bind(key).run()
    },
  }
}

/**
 * Creates a sign-in RateLimitStore (the `rateLimit.store` option) on the `gatehouse_rate_limit` table of a D1
 * database, so every Worker counts against one limit (the default memory store counts per isolate). `hit` is one
 * upsert that counts and, when the key's window is over, starts a new one; `undo` takes an attempt back only in the
 * hit's own window (named by its `resetAt`, which a later window of the key always exceeds) and never below zero.
 */
export function D1RateLimitStore(db: D1DatabaseLike): RateLimitStore {
  checkDatabase(db, "D1RateLimitStore")
  // SET reads the row as it was before the update: both CASEs see the same old window.
  const hitSql = `INSERT INTO ${RATE_LIMIT_TABLE} (key, count, reset_at) VALUES (?1, 1, ${NOW} + ?2)
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN ${RATE_LIMIT_TABLE}.reset_at > ${NOW} THEN ${RATE_LIMIT_TABLE}.count + 1 ELSE 1 END,
      reset_at = CASE WHEN ${RATE_LIMIT_TABLE}.reset_at > ${NOW} THEN ${RATE_LIMIT_TABLE}.reset_at ELSE excluded.reset_at END
    RETURNING count, reset_at`
  const undoSql = `UPDATE ${RATE_LIMIT_TABLE} SET count = count - 1
    WHERE key = ?1 AND reset_at = ?2 AND reset_at > ${NOW} AND count > 0`
  const sweepSql = sweep(RATE_LIMIT_TABLE, "reset_at")
  return {
    async hit(key, windowMs): Promise<RateLimitHit> {
      if (typeof windowMs !== "number" || !(windowMs > 0) || !Number.isFinite(windowMs))
        throw new AdapterError(`windowMs must be a positive number of milliseconds, got ${String(windowMs)}.`)
      const [, counted] = await db.batch([db.prepare(sweepSql), db.prepare(hitSql).bind(key, Math.ceil(windowMs))])
      const row = rowsOf(counted)[0]
      const count = Number(row?.count)
      const resetAt = Number(row?.reset_at)
      if (!Number.isSafeInteger(count) || !Number.isSafeInteger(resetAt))
        throw new AdapterError("D1RateLimitStore: unexpected answer from the counting statement.")
      return { count, resetAt }
    },
    async undo(key, hit) {
      // A hit without an integer resetAt is not one of this store's: it names no window.
      if (!Number.isSafeInteger(hit?.resetAt)) return
      await db.prepare(undoSql).bind(key, hit.resetAt).run()
    },
  }
}

export default D1Store
