// The postgres adapter's session records carry the row's `id`, as @auth/pg-adapter's do, so code written against
// that adapter reads the same records: getSessionAndUser, createSession, updateSession and deleteSession, checked side
// by side with @auth/pg-adapter on the same PGlite database. (Not in the shared conformance suite:
// @auth/kysely-adapter, which the suite also runs, returns no session id.)
import type { PGlite } from "@electric-sql/pglite"
import AuthPgAdapter from "@auth/pg-adapter"
import type pg from "pg"
import { describe, expect, it } from "vitest"
import { PostgresAdapter } from "../../src/adapters/postgres.js"
import { migratedPGlite } from "../support/pglite.js"

const db = migratedPGlite()

/** @auth/pg-adapter reads pg's `rowCount`; PGlite answers `affectedRows`. */
function asPgPool(database: PGlite): pg.Pool {
  const query = async (text: string, params?: unknown[]) => {
    const result = await database.query<Record<string, unknown>>(text, params)
    return { rows: result.rows, rowCount: Math.max(result.rows.length, result.affectedRows ?? 0) }
  }
  return { query } as unknown as pg.Pool
}

async function sessionRowId(sessionToken: string): Promise<string> {
  const { rows } = await db.query<{ id: number }>(`SELECT id FROM sessions WHERE "sessionToken" = $1`, [sessionToken])
  expect(rows).toHaveLength(1)
  return String(rows[0]!.id)
}

describe("postgres adapter: the session row's id", () => {
  it("getSessionAndUser returns the session's id, the same row @auth/pg-adapter returns", async () => {
    const adapter = PostgresAdapter(db)
    const user = await adapter.createUser({
      id: "",
      name: "Ada",
      email: `ada-${crypto.randomUUID()}@example.com`,
      emailVerified: null,
    })
    const sessionToken = crypto.randomUUID()
    const expires = new Date(Date.now() + 3_600_000)
    await adapter.createSession({ sessionToken, userId: user.id, expires })
    const rowId = await sessionRowId(sessionToken)

    const ours = await adapter.getSessionAndUser(sessionToken)
    const theirs = await AuthPgAdapter(asPgPool(db)).getSessionAndUser!(sessionToken)
    expect(ours?.session).toEqual({ id: rowId, sessionToken, userId: user.id, expires })
    // @auth/pg-adapter returns the SERIAL columns as numbers; Gatehouse returns ids as strings throughout.
    expect(String((theirs?.session as { id?: unknown } | undefined)?.id)).toBe(rowId)
    expect(ours?.user.id).toBe(user.id)
    expect(await adapter.getSessionAndUser(crypto.randomUUID())).toBeNull()
  })

  it("createSession, updateSession and deleteSession return the id too", async () => {
    const adapter = PostgresAdapter(db)
    const user = await adapter.createUser({
      id: "",
      name: "Bo",
      email: `bo-${crypto.randomUUID()}@example.com`,
      emailVerified: null,
    })
    const sessionToken = crypto.randomUUID()
    const created = (await adapter.createSession({
      sessionToken,
      userId: user.id,
      expires: new Date(Date.now() + 60_000),
    })) as { id?: string }
    const rowId = await sessionRowId(sessionToken)
    expect(created.id).toBe(rowId)
    const updated = (await adapter.updateSession({ sessionToken, expires: new Date(Date.now() + 120_000) })) as {
      id?: string
    } | null
    expect(updated?.id).toBe(rowId)
    const deleted = (await adapter.deleteSession(sessionToken)) as { id?: string } | null
    expect(deleted?.id).toBe(rowId)
  })
})
