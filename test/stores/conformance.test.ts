// Runs the SharedStore conformance suite on every store we ship (memory; postgres on PGlite and, with DATABASE_URL, a
// server Pool and Client; redis with REDIS_URL through node-redis and the ioredis call form), plus each store's specifics.
import { PGlite } from "@electric-sql/pglite"
import { createClient } from "@redis/client"
import pg from "pg"
import { afterAll, describe, expect, it } from "vitest"
import { AdapterError } from "../../src/errors.js"
import { guardStore, StoreCallError } from "../../src/stores/guarded-store.js"
import type { SharedStore } from "../../src/stores/index.js"
import { MemoryStore } from "../../src/stores/memory.js"
import { PostgresStore, STORE_TABLE, migrate, storeSchema } from "../../src/stores/postgres.js"
import { RedisStore } from "../../src/stores/redis.js"
import { runStoreConformanceSuite } from "../../src/stores/testing.js"

const DATABASE_URL = process.env.DATABASE_URL
const REDIS_URL = process.env.REDIS_URL
const schemaName = () => `ghs_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`

// ---- memory ----

runStoreConformanceSuite({ name: "memory", store: () => MemoryStore() })

describe("memory store specifics", () => {
  it("holds at most maxEntries: expired entries go first, then the oldest", async () => {
    const store = MemoryStore({ maxEntries: 3 })
    await store.set("a", "1", 60)
    await store.set("b", "2", 60)
    await store.set("c", "3", 60)
    await store.set("d", "4", 60)
    expect(store.size).toBe(3)
    expect(await store.get("a")).toBeNull()
    expect(await Promise.all(["b", "c", "d"].map((k) => store.get(k)))).toEqual(["2", "3", "4"])
    // Rewriting a key makes it the newest, so the next eviction takes "c".
    await store.set("b", "2b", 60)
    expect(await store.claim("e", "5", 60)).toBe(true)
    expect(await store.get("c")).toBeNull()
    expect(await store.get("b")).toBe("2b")
  })

  it("refuses a TTL that is not a positive number of seconds", async () => {
    const store = MemoryStore()
    for (const ttl of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(store.set("k", "v", ttl)).rejects.toThrow(AdapterError)
      await expect(store.claim("k", "v", ttl)).rejects.toThrow(AdapterError)
    }
    expect(await store.get("k")).toBeNull()
  })
})

// ---- postgres ----

let pglite: Promise<PGlite> | undefined
afterAll(async () => {
  if (pglite) await (await pglite).close()
})
async function pgliteInFreshSchema(): Promise<PGlite> {
  const db = await (pglite ??= PGlite.create())
  const schema = schemaName()
  await db.exec(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}`)
  return db
}

runStoreConformanceSuite({
  name: "postgres (PGlite)",
  store: async () => {
    const db = await pgliteInFreshSchema()
    await migrate(db)
    return PostgresStore(db)
  },
})

describe("postgres store specifics (PGlite)", () => {
  it("migrate creates the table and its index once, then finds them; storeSchema is the same schema", async () => {
    const db = await pgliteInFreshSchema()
    expect(await migrate(db)).toEqual({ created: [STORE_TABLE, `${STORE_TABLE}_expires_at_idx`], existing: [] })
    expect(await migrate(db)).toEqual({ created: [], existing: [STORE_TABLE, `${STORE_TABLE}_expires_at_idx`] })
    const other = await pgliteInFreshSchema()
    await other.exec(storeSchema)
    expect((await migrate(other)).created).toEqual([])
  })

  it("an expired row is replaced by claim, not left to block it", async () => {
    const db = await pgliteInFreshSchema()
    await migrate(db)
    const store = PostgresStore(db)
    await db.query(
      `INSERT INTO ${STORE_TABLE} (key, value, expires_at) VALUES ('gatehouse:stale', 'dead', now() - interval '1 second')`,
    )
    expect(await store.get("gatehouse:stale")).toBeNull()
    expect(await store.claim("gatehouse:stale", "alive", 60)).toBe(true)
    expect((await db.query(`SELECT value FROM ${STORE_TABLE} WHERE key = 'gatehouse:stale'`)).rows).toEqual([
      { value: "alive" },
    ])
  })

  it("without the table every call fails (the config's store guard turns that into a logged AdapterError)", async () => {
    const db = await pgliteInFreshSchema()
    const store = guardStore(PostgresStore(db))
    await expect(store.claim("gatehouse:x", "v", 5)).rejects.toBeInstanceOf(StoreCallError)
    await expect(store.get("gatehouse:x")).rejects.toMatchObject({ type: "AdapterError", method: "get" })
  })
})

if (DATABASE_URL) {
  const serverSchema = async (): Promise<{ schema: string; drop: () => Promise<void> }> => {
    const schema = schemaName()
    const admin = new pg.Client({ connectionString: DATABASE_URL })
    await admin.connect()
    await admin.query(`CREATE SCHEMA ${schema}`)
    return {
      schema,
      drop: async () => {
        await admin.query(`DROP SCHEMA ${schema} CASCADE`)
        await admin.end()
      },
    }
  }
  for (const kind of ["Pool", "Client"] as const) {
    let close: (() => Promise<void>) | undefined
    runStoreConformanceSuite({
      name: `postgres (PostgreSQL server ${kind})`,
      store: async () => {
        const { schema, drop } = await serverSchema()
        const options = { connectionString: DATABASE_URL, options: `-c search_path=${schema}` }
        const db = kind === "Pool" ? new pg.Pool({ ...options, max: 10 }) : new pg.Client(options)
        if (db instanceof pg.Client) await db.connect()
        close = async () => {
          await db.end()
          await drop()
        }
        await migrate(db)
        return PostgresStore(db)
      },
      cleanup: () => close?.(),
      concurrency: 30,
    })
  }

  describe("postgres store specifics (PostgreSQL server)", () => {
    it("processes on separate pools race for one key: exactly one claim wins; two migrate() at once both succeed", async () => {
      const { schema, drop } = await serverSchema()
      const pools = Array.from(
        { length: 3 },
        () => new pg.Pool({ connectionString: DATABASE_URL, options: `-c search_path=${schema}`, max: 4 }),
      )
      try {
        await Promise.all(pools.map((p) => migrate(p)))
        const stores = pools.map((p) => PostgresStore(p))
        for (let round = 0; round < 5; round++) {
          const key = `gatehouse:race:${round}`
          const results = await Promise.all(
            Array.from({ length: 12 }, (_, i) => (stores[i % 3] as SharedStore).claim(key, `p${i}`, 60)),
          )
          expect(results.filter(Boolean)).toHaveLength(1)
        }
      } finally {
        await Promise.all(pools.map((p) => p.end()))
        await drop()
      }
    })
  })
}

// ---- redis ----

/** A client that speaks ioredis's call form (`set(key, value, "PX", ms, "NX")`), passed to a real Redis as written. */
function ioredisShaped(client: ReturnType<typeof createClient>) {
  return {
    status: "ready",
    get: (key: string) => client.sendCommand(["GET", key]),
    set: (...args: (string | number)[]) => client.sendCommand(["SET", ...args.map(String)]),
    del: (...keys: string[]) => client.sendCommand(["DEL", ...keys]),
  }
}

if (REDIS_URL) {
  for (const form of ["node-redis", "ioredis call form"] as const) {
    let client: ReturnType<typeof createClient> | undefined
    runStoreConformanceSuite({
      name: `redis (${form})`,
      store: async () => {
        client = createClient({ url: REDIS_URL })
        client.on("error", () => {}) // reconnect noise; a failing call still rejects
        await client.connect()
        return form === "node-redis" ? RedisStore(client) : RedisStore(ioredisShaped(client))
      },
      cleanup: async () => {
        await client?.close()
      },
      concurrency: 30,
    })
  }

  describe("redis store specifics", () => {
    it("stores keys with the TTL asked for (PX), so Redis itself expires them", async () => {
      const client = createClient({ url: REDIS_URL })
      await client.connect()
      try {
        const store = RedisStore(client)
        const key = `gatehouse:ttl:${crypto.randomUUID()}`
        expect(await store.claim(key, "v", 25)).toBe(true)
        const pttl = await client.pTTL(key)
        expect(pttl).toBeGreaterThan(24_000)
        expect(pttl).toBeLessThanOrEqual(25_000)
        await store.set(key, "w", 60)
        expect(await client.pTTL(key)).toBeGreaterThan(59_000)
        await store.delete(key)
        expect(await client.exists(key)).toBe(0)
      } finally {
        await client.close()
      }
    })
  })
} else {
  describe("store conformance: redis", () => {
    it.skip("skipped: REDIS_URL is not set (point it at a Redis server, e.g. redis://127.0.0.1:6379, to run the redis store's suite)", () => {})
  })
}

describe("redis store API detection (no server needed)", () => {
  it("refuses a client it cannot speak to, naming the way out", () => {
    const loose = { get: async () => null, set: async () => "OK", del: async () => 1 }
    expect(() => RedisStore(loose)).toThrow(/api: "node-redis"/)
    expect(() => RedisStore({ get: async () => null } as never)).toThrow(/get, set and del/)
    expect(() => RedisStore(loose, { api: "ioredis" })).not.toThrow()
  })
})
