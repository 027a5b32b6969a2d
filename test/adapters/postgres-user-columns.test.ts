// getSessionAndUser builds the user from the joined row in one literal when the users table has exactly the
// migration's columns, and copies the row otherwise: an app's own columns (here `role`) reach the user, in column
// order, and the session columns of the join never do.
import { describe, expect, it } from "vitest"
import { PostgresAdapter } from "../../src/adapters/postgres.js"
import { migratedPGlite } from "../support/pglite.js"

const db = migratedPGlite()

async function signedInUser(email: string) {
  const adapter = PostgresAdapter(db)
  const user = await adapter.createUser({ id: "", name: "Ada", email, emailVerified: null, image: null })
  const expires = new Date(Date.now() + 86_400_000)
  await adapter.createSession({ sessionToken: `token-${email}`, userId: user.id, expires })
  return { adapter, user, expires, read: await adapter.getSessionAndUser(`token-${email}`) }
}

describe("postgres adapter: the user getSessionAndUser returns", () => {
  it("has the migration's columns, in order, with a string id, when the table has only those", async () => {
    const { user, expires, read } = await signedInUser("ada@example.com")
    expect(Object.keys(read!.user)).toEqual(["id", "name", "email", "emailVerified", "image"])
    expect(read!.user).toEqual({ id: user.id, name: "Ada", email: "ada@example.com", emailVerified: null, image: null })
    expect(read!.session.expires.getTime()).toBe(expires.getTime())
  })

  it("keeps an app's own column, and no session column of the join, when the table has more", async () => {
    await db.exec(`ALTER TABLE users ADD COLUMN role TEXT DEFAULT 'member'`)
    try {
      const { user, read } = await signedInUser("grace@example.com")
      expect(Object.keys(read!.user)).toEqual(["id", "name", "email", "emailVerified", "image", "role"])
      expect(read!.user).toMatchObject({ id: user.id, email: "grace@example.com", role: "member" })
      expect(typeof read!.user.id).toBe("string")
    } finally {
      await db.exec(`ALTER TABLE users DROP COLUMN role`)
    }
  })
})
