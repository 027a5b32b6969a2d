// `gatehouse/stores/postgres`: the SharedStore on one PostgreSQL table, through a `pg` Pool/Client or PGlite.
import type { PostgresQueryable } from "../adapters/postgres.js"
import { AdapterError } from "../errors.js"
import type { SharedStore } from "./index.js"

export type { PostgresQueryable } from "../adapters/postgres.js"

/** The table the store uses, in the first schema on the search_path. */
export const STORE_TABLE = "gatehouse_store"

const schemaStatements: ReadonlyArray<{ name: string; sql: string }> = [
  {
    name: STORE_TABLE,
    sql: `CREATE TABLE IF NOT EXISTS ${STORE_TABLE} (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL
)`,
  },
  {
    name: `${STORE_TABLE}_expires_at_idx`,
    sql: `CREATE INDEX IF NOT EXISTS ${STORE_TABLE}_expires_at_idx ON ${STORE_TABLE} (expires_at)`,
  },
]

/** The store's schema as one SQL script (idempotent), for your own migration tool. */
export const storeSchema: string = schemaStatements.map((s) => `${s.sql};`).join("\n\n") + "\n"

/** What {@link migrate} did: the table and index it created, and those already there. */
export interface StoreMigrationResult {
  created: string[]
  existing: string[]
}

/** duplicate_table, unique_violation (on pg_type): another process created the same object at the same moment. */
const CONCURRENT_CREATE = new Set(["42P07", "23505"])

/** Creates the store's table and index where missing, in the first schema on the search_path; safe to run on every start. */
export async function migrate(db: PostgresQueryable): Promise<StoreMigrationResult> {
  const names = schemaStatements.map((s) => s.name)
  const present = (
    await db.query(`SELECT name, to_regclass(name) IS NOT NULL AS present FROM unnest($1::text[]) AS name`, [names])
  ).rows as { name: string; present: boolean }[]
  const existing = new Set(present.filter((r) => r.present === true).map((r) => r.name))
  for (const statement of schemaStatements) {
    if (existing.has(statement.name)) continue
    try {
      await db.query(statement.sql)
    } catch (error) {
      // IF NOT EXISTS is not atomic in PostgreSQL: two processes migrating at once can both try to create.
      if (!CONCURRENT_CREATE.has(String((error as { code?: unknown }).code))) throw error
    }
  }
  return { created: names.filter((n) => !existing.has(n)), existing: names.filter((n) => existing.has(n)) }
}

/** Expired rows are deleted by a write at most this often per store object (reads already ignore them). */
const SWEEP_INTERVAL_MS = 60_000
const SWEEP_BATCH = 1_000

const expiry = `now() + $3::float8 * interval '1 second'`

function checkTtl(ttlSeconds: number): number {
  if (typeof ttlSeconds !== "number" || !(ttlSeconds > 0) || !Number.isFinite(ttlSeconds)) {
    throw new AdapterError(`ttlSeconds must be a positive number of seconds, got ${String(ttlSeconds)}.`)
  }
  return ttlSeconds
}

/**
 * A single pg Client runs one query at a time, and pg deprecates queueing concurrent ones itself: queue them here.
 * A Pool (it has `idleCount`) and PGlite (it has `transaction`, and queues its own) are used as they are.
 */
function serialIfSingleClient(db: PostgresQueryable): PostgresQueryable {
  const d = db as PostgresQueryable & { connect?: unknown; transaction?: unknown }
  if (typeof d.connect !== "function" || "idleCount" in d || typeof d.transaction === "function") return db
  let tail: Promise<unknown> = Promise.resolve()
  return {
    query(text, params) {
      const next = tail.then(
        () => db.query(text, params),
        () => db.query(text, params),
      )
      tail = next.catch(() => undefined)
      return next
    },
  }
}

/**
 * Creates a store on the `gatehouse_store` table (run {@link migrate} or `gatehouse-migrate` first). Expiry
 * follows the database clock, so every app process agrees on it; `claim` is one INSERT ... ON CONFLICT that
 * replaces only an expired row, so exactly one of any number of racing processes wins.
 */
export function PostgresStore(driver: PostgresQueryable): SharedStore {
  const db = serialIfSingleClient(driver)
  let lastSweep = Date.now()
  const sweepIfDue = async (): Promise<void> => {
    if (Date.now() - lastSweep < SWEEP_INTERVAL_MS) return
    lastSweep = Date.now()
    await db.query(
      `DELETE FROM ${STORE_TABLE} WHERE key IN (SELECT key FROM ${STORE_TABLE} WHERE expires_at <= now() LIMIT ${SWEEP_BATCH})`,
    )
  }
  return {
    async claim(key, value, ttlSeconds) {
      const ttl = checkTtl(ttlSeconds)
      await sweepIfDue()
      const { rows } = await db.query(
        `INSERT INTO ${STORE_TABLE} (key, value, expires_at) VALUES ($1, $2, ${expiry})
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at
         WHERE ${STORE_TABLE}.expires_at <= now()
         RETURNING 1 AS claimed`,
        [key, value, ttl],
      )
      return rows.length > 0
    },
    async get(key) {
      const { rows } = await db.query(`SELECT value FROM ${STORE_TABLE} WHERE key = $1 AND expires_at > now()`, [key])
      const row = rows[0] as { value?: unknown } | undefined
      return typeof row?.value === "string" ? row.value : null
    },
    async set(key, value, ttlSeconds) {
      const ttl = checkTtl(ttlSeconds)
      await sweepIfDue()
      await db.query(
        `INSERT INTO ${STORE_TABLE} (key, value, expires_at) VALUES ($1, $2, ${expiry})
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at`,
        [key, value, ttl],
      )
    },
    async delete(key) {
      await db.query(`DELETE FROM ${STORE_TABLE} WHERE key = $1`, [key])
    },
  }
}

export default PostgresStore
