// gatehouse/stores/d1 against a real D1: miniflare runs workerd with a local D1 binding, and this (Node) process reaches
// it through mf.getD1Database(), which proxies every statement into workerd. The store conformance suite, the
// rate-limit store's window and undo rules, migrate() and the schema. The same stores inside a Worker, serving
// sign-ins: test/runtimes/workers-d1.test.ts.
import { Miniflare } from "miniflare"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { AdapterError } from "../../src/errors.js"
import { D1RateLimitStore, D1Store, RATE_LIMIT_TABLE, STORE_TABLE, migrate, storeSchema } from "../../src/stores/d1.js"
import { runStoreConformanceSuite } from "../../src/stores/testing.js"

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
const freshKey = (label: string): string => `${label}:${crypto.randomUUID()}`
const SCHEMA_OBJECTS = [
  STORE_TABLE,
  `${STORE_TABLE}_expires_at_idx`,
  RATE_LIMIT_TABLE,
  `${RATE_LIMIT_TABLE}_reset_at_idx`,
]

// One workerd for the file; each database name is a separate, empty, in-memory D1.
const mf = new Miniflare({
  modules: true,
  script: "export default { fetch: () => new Response('') }",
  compatibilityDate: "2025-01-01",
  d1Databases: ["DB", "FRESH", "SCRIPTED", "BARE"],
})
afterAll(() => mf.dispose())
// Miniflare's D1Database type (the Workers one) is what the stores take, no cast.
const database = (name: string) => mf.getD1Database(name)

let db: Awaited<ReturnType<typeof database>>
beforeAll(async () => {
  db = await database("DB")
  await migrate(db)
})

runStoreConformanceSuite({ name: "d1 (miniflare)", store: () => D1Store(db), concurrency: 30 })

describe("d1 store specifics", () => {
  it("migrate creates both tables and their indexes once, then finds them; storeSchema is the same schema", async () => {
    const fresh = await database("FRESH")
    expect(await migrate(fresh)).toEqual({ created: SCHEMA_OBJECTS, existing: [] })
    expect(await migrate(fresh)).toEqual({ created: [], existing: SCHEMA_OBJECTS })
    // The script, as a wrangler migration would apply it: statement by statement.
    const scripted = await database("SCRIPTED")
    for (const statement of storeSchema.split(";").filter((s) => s.trim() !== "")) {
      await scripted.prepare(statement).run()
    }
    expect(await migrate(scripted)).toEqual({ created: [], existing: SCHEMA_OBJECTS })
  })

  it("an expired row reads as absent and is replaced by claim; writes sweep expired rows", async () => {
    const key = freshKey("gatehouse:stale")
    await db
      .prepare(`INSERT INTO ${STORE_TABLE} (key, value, expires_at) VALUES (?1, 'dead', ?2)`)
      .bind(key, Date.now() - 60_000)
      .run()
    const store = D1Store(db)
    expect(await store.get(key)).toBeNull()
    expect(await store.claim(key, "alive", 60)).toBe(true)
    expect(await db.prepare(`SELECT value FROM ${STORE_TABLE} WHERE key = ?1`).bind(key).first()).toEqual({
      value: "alive",
    })

    const stale = Array.from({ length: 12 }, (_, i) => freshKey(`gatehouse:sweep-${i}`))
    await db.batch(
      stale.map((k) => db.prepare(`INSERT INTO ${STORE_TABLE} (key, value, expires_at) VALUES (?1, 'x', 1)`).bind(k)),
    )
    const countStale = async () =>
      Number(
        ((await db.prepare(`SELECT count(*) AS n FROM ${STORE_TABLE} WHERE expires_at <= 1`).first()) as { n: number })
          .n,
      )
    expect(await countStale()).toBe(12)
    await store.set(freshKey("gatehouse:writer"), "v", 60)
    expect(await countStale()).toBe(4) // at most 8 per write
    await store.claim(freshKey("gatehouse:writer"), "v", 60)
    expect(await countStale()).toBe(0)
  })

  it("the TTL is kept in milliseconds on the database clock", async () => {
    const key = freshKey("gatehouse:ttl")
    const before = Date.now()
    await D1Store(db).set(key, "v", 25)
    const row = (await db.prepare(`SELECT expires_at FROM ${STORE_TABLE} WHERE key = ?1`).bind(key).first()) as {
      expires_at: number
    }
    // workerd and this process read the same host clock; allow for the round trip.
    expect(row.expires_at).toBeGreaterThanOrEqual(before + 25_000 - 50)
    expect(row.expires_at).toBeLessThanOrEqual(Date.now() + 25_000 + 50)
  })

  it("refuses a TTL that is not a positive number of seconds, and an object that is not a D1 database", async () => {
    const store = D1Store(db)
    for (const ttl of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(store.set("gatehouse:k", "v", ttl)).rejects.toThrow(AdapterError)
      await expect(store.claim("gatehouse:k", "v", ttl)).rejects.toThrow(AdapterError)
    }
    expect(await store.get("gatehouse:k")).toBeNull()
    expect(() => D1Store({ prepare: () => ({}) } as never)).toThrow(/prepare\(\) and batch\(\)/)
    expect(() => D1RateLimitStore(undefined as never)).toThrow(AdapterError)
  })

  it("without the tables every call rejects (the config's store guard logs it as an AdapterError)", async () => {
    const store = D1Store(await database("BARE"))
    await expect(store.claim("gatehouse:x", "v", 5)).rejects.toThrow(/no such table/)
    await expect(store.get("gatehouse:x")).rejects.toThrow(/no such table/)
  })
})

describe("D1RateLimitStore", () => {
  const limits = () => D1RateLimitStore(db)
  const stored = async (key: string): Promise<number | null> => {
    const row = (await db.prepare(`SELECT count FROM ${RATE_LIMIT_TABLE} WHERE key = ?1`).bind(key).first()) as {
      count: number
    } | null
    return row ? row.count : null
  }

  it("counts per key in one fixed window: the first hit starts it, later hits keep its end", async () => {
    const store = limits()
    const [a, b] = [freshKey("id"), freshKey("ip")]
    const before = Date.now()
    const first = await store.hit(a, 30_000)
    expect(first.count).toBe(1)
    expect(first.resetAt).toBeGreaterThanOrEqual(before + 30_000 - 50)
    expect(first.resetAt).toBeLessThanOrEqual(Date.now() + 30_000 + 50)
    const second = await store.hit(a, 30_000)
    expect(second).toEqual({ count: 2, resetAt: first.resetAt })
    expect((await store.hit(b, 30_000)).count).toBe(1)
  })

  it("concurrent hits of one key are each counted once (a count is one atomic statement)", async () => {
    const store = limits()
    const key = freshKey("hot")
    const hits = await Promise.all(Array.from({ length: 40 }, () => store.hit(key, 30_000)))
    expect(hits.map((h) => h.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1))
    expect(new Set(hits.map((h) => h.resetAt)).size).toBe(1)
  })

  it("a window that is over starts again from one, with a later end", async () => {
    const store = limits()
    const key = freshKey("expire")
    const first = await store.hit(key, 300)
    await store.hit(key, 300)
    await sleep(450)
    const next = await store.hit(key, 300)
    expect(next.count).toBe(1)
    expect(next.resetAt).toBeGreaterThan(first.resetAt)
  })

  it("undo takes back one attempt in the hit's own window, never below zero, and never creates a key", async () => {
    const store = limits()
    const key = freshKey("undo")
    const first = await store.hit(key, 30_000)
    const second = await store.hit(key, 30_000)
    await store.undo(key, first)
    expect(await stored(key)).toBe(1)
    for (let i = 0; i < 3; i++) await store.undo(key, second)
    expect(await stored(key)).toBe(0)
    expect((await store.hit(key, 30_000)).count).toBe(1)

    const absent = freshKey("never-hit")
    await store.undo(absent, { count: 1, resetAt: Date.now() + 30_000 })
    expect(await stored(absent)).toBeNull()
    await store.undo(key, { count: 1, resetAt: Number.NaN })
    expect(await stored(key)).toBe(1)
  })

  it("the undo of a hit from a window that is over leaves the next window's count alone", async () => {
    const store = limits()
    const key = freshKey("late")
    const first = await store.hit(key, 300)
    await sleep(450)
    expect((await store.hit(key, 300)).count).toBe(1)
    await store.undo(key, first)
    expect(await stored(key)).toBe(1)
    expect((await store.hit(key, 300)).count).toBe(2)
  })

  it("refuses a window that is not a positive number of milliseconds", async () => {
    for (const windowMs of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(limits().hit(freshKey("bad"), windowMs)).rejects.toThrow(AdapterError)
    }
  })
})
