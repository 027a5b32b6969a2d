// `gatehouse/stores/postgres`: the SharedStore on one PostgreSQL table, through a `pg` Pool/Client or PGlite.
import type { PostgresQueryable } from "../adapters/postgres.js"
import { AdapterError } from "../errors.js"
import { type ChannelBackend, createChannelHub } from "./channels.js"
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

/**
 * duplicate_table, duplicate_object ("type … already exists": the table's row type), unique_violation (on pg_type):
 * what PostgreSQL answers when another process created the same table or index at the same moment.
 */
const CONCURRENT_CREATE = new Set(["42P07", "42710", "23505"])

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
      // IF NOT EXISTS is not atomic in PostgreSQL: two processes migrating at once can both try to create. Such an
      // error is taken only when the relation is there now (another object of that name is still an error).
      if (!CONCURRENT_CREATE.has(String((error as { code?: unknown }).code))) throw error
      const now = await db.query("SELECT to_regclass($1) IS NOT NULL AS present", [statement.name])
      if ((now.rows[0] as { present?: unknown } | undefined)?.present !== true) throw error
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
 * The PostgreSQL channel of a store channel: lower case, every character other than a letter, digit or `_` made `_`
 * (`gatehouse:revocations` is `gatehouse_revocations`, so `LISTEN gatehouse_revocations` in psql shows them).
 * Channels belong to the database, not a schema: stores in two schemas of one database hear each other.
 */
function pgChannel(channel: string): string {
  const name = String(channel)
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, "_")
  if (name.length === 0 || name.length > 63) {
    throw new AdapterError(`PostgresStore: a channel name must have 1 to 63 characters, got ${name.length}.`)
  }
  return name
}
const listenSql = (name: string) => `LISTEN "${name}"`
const unlistenSql = (name: string) => `UNLISTEN "${name}"`

type Notification = { channel: string; payload?: string }
interface EventSource {
  on(event: string, listener: (...args: never[]) => void): unknown
  removeListener(event: string, listener: (...args: never[]) => void): unknown
}
type HeldClient = PostgresQueryable & EventSource & { release(error?: Error | boolean): void }
interface PoolLike extends PostgresQueryable {
  connect(): Promise<HeldClient>
}
interface PGliteListen {
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>
}

/** A lost listening connection is replaced after this long, doubling up to the maximum while the database is down. */
const RELISTEN_FIRST_MS = 500
const RELISTEN_MAX_MS = 30_000

/**
 * Where this driver can listen: PGlite through its own `listen`; a pg Pool on one client taken from it for as long as
 * anything listens (replaced, and its channels listened to again, when its connection is lost); a single pg Client on
 * itself (reconnecting a Client is the app's job). Any other driver gets no `subscribe`.
 */
function listeningBackend(
  driver: PostgresQueryable,
  db: PostgresQueryable,
  deliver: (channel: string, message: string) => void,
  channels: () => string[],
): ChannelBackend | undefined {
  const d = driver as PostgresQueryable &
    Partial<PGliteListen & EventSource> & { connect?: unknown; transaction?: unknown }
  if (typeof d.transaction === "function") {
    if (typeof d.listen !== "function") return undefined
    const listen = d.listen.bind(d)
    const ends = new Map<string, () => Promise<void>>()
    return {
      async listen(name) {
        // PGlite takes a quoted name as written and lower-cases a bare one, as LISTEN does.
        ends.set(name, await listen(`"${name}"`, (payload) => deliver(name, payload)))
      },
      async unlisten(name) {
        const end = ends.get(name)
        ends.delete(name)
        await end?.()
      },
    }
  }
  const onNotification = (n: Notification) => deliver(n.channel, n.payload ?? "")
  if ("idleCount" in d && typeof d.connect === "function") {
    const pool = d as unknown as PoolLike
    let held: Promise<HeldClient> | undefined
    let retry: ReturnType<typeof setTimeout> | undefined
    let delay = RELISTEN_FIRST_MS
    const detach = new WeakMap<HeldClient, () => void>()
    const take = (): Promise<HeldClient> => {
      if (held) return held
      const taking: Promise<HeldClient> = (async () => {
        const client = await pool.connect()
        client.on("notification", onNotification)
        const lost = (error: Error) => {
          client.removeListener("error", lost)
          client.removeListener("notification", onNotification)
          client.on("error", () => {}) // the socket may still report more before it is destroyed
          if (held === taking) held = undefined
          client.release(error)
          scheduleRelisten()
        }
        client.on("error", lost)
        detach.set(client, () => {
          client.removeListener("error", lost)
          client.removeListener("notification", onNotification)
        })
        return client
      })()
      held = taking
      taking.catch(() => {
        if (held === taking) held = undefined
      })
      return taking
    }
    const scheduleRelisten = () => {
      if (retry || channels().length === 0) return
      retry = setTimeout(async () => {
        retry = undefined
        if (channels().length === 0) return
        try {
          const client = await take()
          for (const name of channels()) await client.query(listenSql(name))
          delay = RELISTEN_FIRST_MS
        } catch {
          delay = Math.min(delay * 2, RELISTEN_MAX_MS)
          scheduleRelisten()
        }
      }, delay)
      ;(retry as { unref?: () => void }).unref?.()
    }
    return {
      async listen(name) {
        await (await take()).query(listenSql(name))
      },
      async unlisten(name) {
        if (held) await (await held).query(unlistenSql(name))
      },
      async idle() {
        clearTimeout(retry)
        retry = undefined
        const current = held
        held = undefined
        if (!current) return
        const client = await current.catch(() => undefined)
        if (!client) return
        detach.get(client)?.()
        const ignore = () => {}
        client.on("error", ignore) // a connection lost during UNLISTEN fails the query instead
        try {
          await client.query("UNLISTEN *")
          client.release()
        } catch (error) {
          client.release(error instanceof Error ? error : true)
        } finally {
          client.removeListener("error", ignore)
        }
      },
    }
  }
  if (typeof d.connect === "function" && typeof d.on === "function" && typeof d.removeListener === "function") {
    const client = d as PostgresQueryable & EventSource
    let attached = false
    return {
      async listen(name) {
        if (!attached) client.on("notification", onNotification)
        attached = true
        await db.query(listenSql(name))
      },
      async unlisten(name) {
        await db.query(unlistenSql(name))
      },
      async idle() {
        client.removeListener("notification", onNotification)
        attached = false
      },
    }
  }
  return undefined
}

/**
 * Creates a store on the `gatehouse_store` table (run {@link migrate} or `gatehouse-migrate` first). Expiry
 * follows the database clock, so every app process agrees on it; `claim` is one INSERT ... ON CONFLICT that
 * replaces only an expired row, so exactly one of any number of racing processes wins.
 *
 * Notifications: `publish` is `SELECT pg_notify(channel, message)` (delivered when it commits; at most 7999 bytes),
 * `subscribe` is LISTEN. On a pg Pool, LISTEN holds one of the pool's clients from the first subscription to the end
 * of the last, and a lost connection is replaced (every channel listened to again) after 0.5 s, then backing off to
 * 30 s; notifications sent in the gap are lost. A single pg Client listens on itself, PGlite through its `listen`.
 * Channel names are mapped to PostgreSQL ones: lower case, characters other than `[a-z0-9_]` as `_`.
 */
export function PostgresStore(driver: PostgresQueryable): SharedStore {
  const db = serialIfSingleClient(driver)
  let hub: ReturnType<typeof createChannelHub> | undefined
  const backend = listeningBackend(
    driver,
    db,
    (channel, message) => hub?.deliver(channel, message),
    () => hub?.channels() ?? [],
  )
  if (backend) hub = createChannelHub(backend)
  const notifications: Pick<SharedStore, "publish" | "subscribe"> = hub
    ? {
        async publish(channel, message) {
          await db.query("SELECT pg_notify($1, $2)", [pgChannel(channel), message])
        },
        async subscribe(channel, listener) {
          return (hub as ReturnType<typeof createChannelHub>).subscribe(pgChannel(channel), listener)
        },
      }
    : {}
  let lastSweep = Date.now()
  const sweepIfDue = async (): Promise<void> => {
    if (Date.now() - lastSweep < SWEEP_INTERVAL_MS) return
    lastSweep = Date.now()
    await db.query(
      `DELETE FROM ${STORE_TABLE} WHERE key IN (SELECT key FROM ${STORE_TABLE} WHERE expires_at <= now() LIMIT ${SWEEP_BATCH})`,
    )
  }
  return {
    ...notifications,
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
