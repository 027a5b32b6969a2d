// A migrated in-memory PGlite for one test file: created when the file is collected, migrated before its tests,
// closed after them.
import { PGlite } from "@electric-sql/pglite"
import { afterAll, beforeAll } from "vitest"
import { migrate } from "../../src/adapters/postgres.js"

export function migratedPGlite(): PGlite {
  const db = new PGlite()
  beforeAll(async () => {
    await db.waitReady
    await migrate(db)
  })
  afterAll(async () => {
    await db.close()
  })
  return db
}
