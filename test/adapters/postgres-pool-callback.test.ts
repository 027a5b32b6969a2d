// On a pg Pool the adapter runs statements through the pool's callback form (one promise per statement, its own).
// A pool look-alike that answers with a promise instead is followed through it; a driver error or a row the adapter
// cannot read rejects the call and never throws back into the driver's callback. Real pg Pools run the whole
// conformance suite under DATABASE_URL (test/adapters/conformance.test.ts); these pools stand in for the
// look-alikes (a Neon pool, a wrapper) whose callback support varies.
import { beforeAll, describe, expect, it } from "vitest"
import { PostgresAdapter, type PostgresQueryable } from "../../src/adapters/postgres.js"
import { migratedPGlite } from "../support/pglite.js"

type Callback = (error: Error | undefined, result: { rows: unknown[] }) => void

const db = migratedPGlite()
const token = "pool-callback-token"
beforeAll(async () => {
  const adapter = PostgresAdapter(db)
  const user = await adapter.createUser({
    id: "",
    name: "Ada",
    email: "ada@example.com",
    emailVerified: null,
    image: null,
  })
  await adapter.createSession({ sessionToken: token, userId: user.id, expires: new Date(Date.now() + 86_400_000) })
})

/** A pool look-alike over PGlite: `connect` and `idleCount` make the adapter treat it as a pg Pool. */
function poolOver(answer: (text: string, params: unknown[] | undefined, callback?: Callback) => unknown) {
  const calls: { withCallback: boolean }[] = []
  const pool = {
    idleCount: 0,
    connect: async () => {
      throw new Error("no transaction in this test")
    },
    query(text: string, params?: unknown[], callback?: Callback) {
      calls.push({ withCallback: typeof callback === "function" })
      return answer(text, params, callback)
    },
  }
  return { pool: pool as unknown as PostgresQueryable, calls }
}

describe("postgres adapter on a pg Pool: the callback form", () => {
  it("reads the session through the callback, with no promise from the pool", async () => {
    const { pool, calls } = poolOver((text, params, callback) => {
      db.query(text, params).then(
        (result) => callback?.(undefined, result as { rows: unknown[] }),
        (error) => callback?.(error as Error, { rows: [] }),
      )
      return undefined
    })
    const read = await PostgresAdapter(pool).getSessionAndUser(token)
    expect(read?.user.email).toBe("ada@example.com")
    expect(read?.session.sessionToken).toBe(token)
    expect(calls).toEqual([{ withCallback: true }])
  })

  it("follows a look-alike that ignores the callback and answers with a promise", async () => {
    const { pool, calls } = poolOver((text, params) => db.query(text, params))
    const adapter = PostgresAdapter(pool)
    expect((await adapter.getSessionAndUser(token))?.user.email).toBe("ada@example.com")
    expect(await adapter.getSessionAndUser("no-such-token")).toBeNull()
    expect(await adapter.getUserByEmail("nobody@example.com")).toBeNull()
    expect(calls).toHaveLength(3)
  })

  it("rejects with the driver's error", async () => {
    const failure = new Error("connection terminated")
    const { pool } = poolOver((_text, _params, callback) => {
      setImmediate(() => callback?.(failure, { rows: [] }))
      return undefined
    })
    await expect(PostgresAdapter(pool).getSessionAndUser(token)).rejects.toBe(failure)
  })

  it("rejects, without throwing into the driver's callback, when the result cannot be read", async () => {
    let thrownIntoDriver: unknown
    const { pool } = poolOver((_text, _params, callback) => {
      setImmediate(() => {
        try {
          callback?.(undefined, { rows: null as unknown as unknown[] })
        } catch (error) {
          thrownIntoDriver = error
        }
      })
      return undefined
    })
    await expect(PostgresAdapter(pool).getSessionAndUser(token)).rejects.toBeInstanceOf(TypeError)
    expect(thrownIntoDriver).toBeUndefined()
  })

  it("settles once when a look-alike both calls back and answers with a promise", async () => {
    const { pool } = poolOver((text, params, callback) => {
      const answer = db.query(text, params)
      answer.then((result) => callback?.(undefined, result as { rows: unknown[] }))
      return answer.then(() => ({ rows: [] }))
    })
    // The callback's rows arrive first and are the answer; the promise's empty rows are ignored.
    expect((await PostgresAdapter(pool).getSessionAndUser(token))?.user.email).toBe("ada@example.com")
  })
})
