#!/usr/bin/env node
// gatehouse-migrate: creates the Gatehouse / @auth/pg-adapter tables and indexes, and the shared store's table, in DATABASE_URL where missing.
import { migrate, postgresSchema } from "../dist/adapters/postgres.js"
import { migrate as migrateStore, storeSchema } from "../dist/stores/postgres.js"

const usage = `Usage: gatehouse-migrate [--print] [connection-url]

Creates the tables and indexes of gatehouse/adapters/postgres (users, accounts, sessions,
verification_token, authenticators) and of gatehouse/stores/postgres (gatehouse_store) where
missing, in the first schema on the search_path. Safe to run again; a database migrated by an
older version gets the tables added since.
The connection URL is the argument or DATABASE_URL. --print writes the SQL instead of running it.`

const args = process.argv.slice(2)
if (args.includes("--help") || args.includes("-h")) {
  console.log(usage)
  process.exit(0)
}
if (args.includes("--print")) {
  process.stdout.write(`${postgresSchema}\n${storeSchema}`)
  process.exit(0)
}

const url = args.find((a) => !a.startsWith("-")) ?? process.env.DATABASE_URL
if (!url) {
  console.error(`gatehouse-migrate: no database given: set DATABASE_URL or pass a URL.\n\n${usage}`)
  process.exit(2)
}

let pg
try {
  pg = (await import("pg")).default
} catch {
  console.error("gatehouse-migrate: the `pg` package is needed: npm install pg")
  process.exit(2)
}

/** host/database of the URL, never its password. */
function describe(connection) {
  try {
    const parsed = new URL(connection)
    return `${parsed.host}${parsed.pathname}`
  } catch {
    return "the database"
  }
}

const pool = new pg.Pool({ connectionString: url, max: 1 })
try {
  const adapter = await migrate(pool)
  const store = await migrateStore(pool)
  const created = [...adapter.created, ...store.created]
  const existing = [...adapter.existing, ...store.existing]
  const where = describe(url)
  if (created.length === 0)
    console.log(`gatehouse-migrate: ${where} is up to date (${existing.length} tables and indexes present).`)
  for (const name of created) console.log(`gatehouse-migrate: created ${name}`)
} catch (error) {
  console.error(`gatehouse-migrate: ${error instanceof Error ? error.message : String(error)}`)
  process.exitCode = 1
} finally {
  await pool.end()
}
