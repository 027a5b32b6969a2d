// Runs the adapter conformance suite on every adapter we ship or claim to work with, plus the postgres adapter's migrate, transactions and @auth/pg-adapter interop.
import { PGlite } from "@electric-sql/pglite"
import { KyselyAdapter } from "@auth/kysely-adapter"
import type { Database as KyselyDatabase } from "@auth/kysely-adapter"
import AuthPgAdapter from "@auth/pg-adapter"
import { Kysely, PostgresDialect } from "kysely"
import type { PostgresPool } from "kysely"
import pg from "pg"
import { afterAll, describe, expect, it } from "vitest"
import type { Adapter } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { PostgresAdapter, migrate, postgresSchema } from "../../src/adapters/postgres.js"
import type { PostgresQueryable } from "../../src/adapters/postgres.js"
import { runAdapterConformanceSuite } from "../../src/adapters/testing.js"

const DATABASE_URL = process.env.DATABASE_URL
const schemaName = () => `gh_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`

// ---- PGlite: one embedded instance for the whole file (starting one costs seconds). Suites run one
// after another, and each switches the instance to its own fresh schema before its first query.
let pglite: Promise<PGlite> | undefined
const sharedPGlite = () => (pglite ??= PGlite.create())
async function pgliteInFreshSchema(): Promise<PGlite> {
  const db = await sharedPGlite()
  const schema = schemaName()
  await db.exec(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}`)
  return db
}
afterAll(async () => {
  if (pglite) await (await pglite).close()
})

/** PGlite answers `affectedRows`; @auth/pg-adapter reads pg's `rowCount`. This is all the Pool it needs. */
function pgliteAsPgPool(db: PGlite): pg.Pool {
  const query = async (text: string, params?: unknown[]) => {
    const result = await db.query<Record<string, unknown>>(text, params)
    return { rows: result.rows, rowCount: Math.max(result.rows.length, result.affectedRows ?? 0) }
  }
  return { query } as unknown as pg.Pool
}

/** A Kysely PostgresPool over PGlite: every "connection" is the one embedded database. */
function pgliteAsKyselyPool(db: PGlite): PostgresPool {
  const client = {
    async query(sql: string, params: readonly unknown[]) {
      const result = await db.query<Record<string, unknown>>(sql, [...params])
      const command = sql.trimStart().split(/\s/, 1)[0]!.toUpperCase()
      return { command, rowCount: result.affectedRows ?? result.rows.length, rows: result.rows }
    },
    release() {},
  }
  return { connect: async () => client, end: async () => {} } as unknown as PostgresPool
}

// ---- real server: a pool whose connections all use a fresh schema, dropped afterwards.
async function serverPoolInFreshSchema(): Promise<{ pool: pg.Pool; schema: string; drop: () => Promise<void> }> {
  const schema = schemaName()
  const admin = new pg.Client({ connectionString: DATABASE_URL })
  await admin.connect()
  await admin.query(`CREATE SCHEMA ${schema}`)
  await admin.end()
  const pool = new pg.Pool({ connectionString: DATABASE_URL, options: `-c search_path=${schema}`, max: 10 })
  const drop = async () => {
    await pool.query(`DROP SCHEMA ${schema} CASCADE`)
    await pool.end()
  }
  return { pool, schema, drop }
}

/** The tables of the Auth.js Kysely adapter docs (test fixture only: Kysely users bring their own). */
const kyselySchema = `
  CREATE TABLE "User" (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), name text, email text UNIQUE, "emailVerified" timestamptz, image text);
  CREATE TABLE "Account" (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), "userId" uuid NOT NULL REFERENCES "User"(id) ON DELETE CASCADE,
    type text NOT NULL, provider text NOT NULL, "providerAccountId" text NOT NULL, refresh_token text, access_token text,
    expires_at bigint, token_type text, scope text, id_token text, session_state text, UNIQUE (provider, "providerAccountId"));
  CREATE TABLE "Session" (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), "userId" uuid NOT NULL REFERENCES "User"(id) ON DELETE CASCADE,
    "sessionToken" text NOT NULL UNIQUE, expires timestamptz NOT NULL);
  CREATE TABLE "VerificationToken" (identifier text NOT NULL, token text NOT NULL, expires timestamptz NOT NULL, PRIMARY KEY (identifier, token));`

/** @auth/pg-adapter has no getAccount and no authenticators, and returns the SERIAL ids as numbers. */
const authPgAdapterSkips = ["ids:string", "getAccount", "webauthn"]
/** @auth/kysely-adapter: no getAccount or authenticators; uuid ids reject other formats; updateSession of an unknown token throws. */
const kyselySkips = ["getAccount", "webauthn", "getUser:foreign-id-format", "updateSession:unknown"]

// ---- the suites ----

runAdapterConformanceSuite({ name: "memory", adapter: () => MemoryAdapter() })

// An adapter shaped like Auth.js's (authenticators, but not Gatehouse's deleteAuthenticator): the deleteAuthenticator
// check is skipped, not failed, and nothing needs listing in `skip`.
runAdapterConformanceSuite({
  name: "memory without deleteAuthenticator",
  adapter: () => {
    const { deleteAuthenticator: _omitted, ...rest } = MemoryAdapter()
    return rest
  },
})

runAdapterConformanceSuite({
  name: "postgres (PGlite)",
  adapter: async () => {
    const db = await pgliteInFreshSchema()
    await migrate(db)
    return PostgresAdapter(db)
  },
})

runAdapterConformanceSuite({
  name: "@auth/pg-adapter (PGlite, Gatehouse schema)",
  adapter: async () => {
    const db = await pgliteInFreshSchema()
    await migrate(db)
    return AuthPgAdapter(pgliteAsPgPool(db)) as Adapter
  },
  skip: authPgAdapterSkips,
})

runAdapterConformanceSuite({
  name: "@auth/kysely-adapter (PGlite)",
  adapter: async () => {
    const db = await pgliteInFreshSchema()
    await db.exec(kyselySchema)
    const kysely = new Kysely<KyselyDatabase>({ dialect: new PostgresDialect({ pool: pgliteAsKyselyPool(db) }) })
    return KyselyAdapter(kysely) as Adapter
  },
  skip: kyselySkips,
})

if (DATABASE_URL) {
  const serverSuite = (name: string, make: (pool: pg.Pool) => Promise<Adapter>, skip: string[]) => {
    let drop: (() => Promise<void>) | undefined
    runAdapterConformanceSuite({
      name: `${name} (PostgreSQL server)`,
      adapter: async () => {
        const fresh = await serverPoolInFreshSchema()
        drop = fresh.drop
        return make(fresh.pool)
      },
      cleanup: () => drop?.(),
      skip,
    })
  }
  serverSuite("postgres", async (pool) => (await migrate(pool), PostgresAdapter(pool)), [])
  serverSuite(
    "@auth/pg-adapter",
    async (pool) => (await migrate(pool), AuthPgAdapter(pool) as Adapter),
    authPgAdapterSkips,
  )
  serverSuite(
    "@auth/kysely-adapter",
    async (pool) => {
      await pool.query(kyselySchema)
      return KyselyAdapter(new Kysely<KyselyDatabase>({ dialect: new PostgresDialect({ pool }) })) as Adapter
    },
    kyselySkips,
  )
}

// ---- postgres adapter specifics, on PGlite and (with DATABASE_URL) on a server Pool and Client ----

/** The schema documented for @auth/pg-adapter: same tables, no unique indexes, no foreign keys. */
const authPgDocumentedSchema = `
  CREATE TABLE verification_token (identifier TEXT NOT NULL, expires TIMESTAMPTZ NOT NULL, token TEXT NOT NULL, PRIMARY KEY (identifier, token));
  CREATE TABLE accounts (id SERIAL, "userId" INTEGER NOT NULL, type VARCHAR(255) NOT NULL, provider VARCHAR(255) NOT NULL,
    "providerAccountId" VARCHAR(255) NOT NULL, refresh_token TEXT, access_token TEXT, expires_at BIGINT, id_token TEXT,
    scope TEXT, session_state TEXT, token_type TEXT, PRIMARY KEY (id));
  CREATE TABLE sessions (id SERIAL, "userId" INTEGER NOT NULL, expires TIMESTAMPTZ NOT NULL, "sessionToken" VARCHAR(255) NOT NULL, PRIMARY KEY (id));
  CREATE TABLE users (id SERIAL, name VARCHAR(255), email VARCHAR(255), "emailVerified" TIMESTAMPTZ, image TEXT, PRIMARY KEY (id));`

/** Where the specifics run: each call gives a connection whose statements use a new, empty schema. */
interface Target {
  fresh: () => Promise<{ db: PostgresQueryable; exec: (sql: string) => Promise<unknown> }>
  close: () => Promise<void>
}

function postgresSpecifics(label: string, target: Target) {
  describe(`postgres adapter specifics (${label})`, () => {
    afterAll(() => target.close())

    it("migrate creates every table and index once, then finds them all", async () => {
      const { db } = await target.fresh()
      const first = await migrate(db)
      expect(first.created).toEqual(
        expect.arrayContaining([
          "users",
          "accounts",
          "sessions",
          "verification_token",
          "users_email_key",
          "authenticators",
          "authenticators_user_id_idx",
        ]),
      )
      expect(first.existing).toEqual([])
      const second = await migrate(db)
      expect(second.created).toEqual([])
      expect(second.existing).toHaveLength(first.created.length)
    })

    it("a sign-in's writes in transaction() commit together, and a throw rolls all of them back", async () => {
      const { db } = await target.fresh()
      await migrate(db)
      const adapter = PostgresAdapter(db)
      expect(adapter.transaction).toBeTypeOf("function")
      const email = `tx-${crypto.randomUUID()}@example.com`
      await expect(
        adapter.transaction!(async (tx) => {
          const user = await tx.createUser({ id: "ignored", email, emailVerified: null })
          await tx.linkAccount({ userId: user.id, type: "oauth", provider: "github", providerAccountId: email })
          await tx.transaction!(async (inner) =>
            inner.createSession({ sessionToken: email, userId: user.id, expires: new Date(Date.now() + 1e6) }),
          )
          throw new Error("callback refused")
        }),
      ).rejects.toThrow("callback refused")
      expect(await adapter.getUserByEmail(email)).toBeNull()
      expect(await adapter.getAccount(email, "github")).toBeNull()
      expect(await adapter.getSessionAndUser(email)).toBeNull()

      const userId = await adapter.transaction!(async (tx) => {
        const user = await tx.createUser({ id: "ignored", email, emailVerified: null })
        await tx.createSession({ sessionToken: email, userId: user.id, expires: new Date(Date.now() + 1e6) })
        return user.id
      })
      expect((await adapter.getSessionAndUser(email))?.user.id).toBe(userId)
    })

    it("a lookup by a malformed user id inside a transaction gives null and does not abort it", async () => {
      const { db } = await target.fresh()
      await migrate(db)
      const adapter = PostgresAdapter(db)
      const email = `savepoint-${crypto.randomUUID()}@example.com`
      await adapter.transaction!(async (tx) => {
        expect(await tx.getUser(crypto.randomUUID())).toBeNull()
        expect(await tx.deleteUser("not-a-number")).toBeNull()
        await tx.createUser({ id: "", email, emailVerified: null })
      })
      expect(await adapter.getUserByEmail(email)).not.toBeNull()
    })

    it("calls made outside a transaction are not part of it", async () => {
      const { db } = await target.fresh()
      await migrate(db)
      const adapter = PostgresAdapter(db)
      const inside = `in-${crypto.randomUUID()}@example.com`
      const outside = `out-${crypto.randomUUID()}@example.com`
      let entered!: () => void
      const started = new Promise<void>((resolve) => (entered = resolve))
      const failing = adapter.transaction!(async (tx) => {
        await tx.createUser({ id: "x", email: inside, emailVerified: null })
        entered()
        await new Promise((r) => setTimeout(r, 30))
        throw new Error("rollback")
      })
      // Handled from the start: on a loaded server the outside call can take longer than the 30 ms, and the
      // rejection must not arrive with nothing listening (vitest reports that as an unhandled error).
      const outcome = failing.then(
        () => undefined,
        (error: unknown) => error,
      )
      await started
      await adapter.createUser({ id: "y", email: outside, emailVerified: null })
      expect(await outcome).toMatchObject({ message: "rollback" })
      expect(await adapter.getUserByEmail(inside)).toBeNull()
      expect(await adapter.getUserByEmail(outside)).not.toBeNull()
    })

    it("shares data both ways with @auth/pg-adapter on its documented schema; migrate then adds only indexes", async () => {
      const { db, exec } = await target.fresh()
      await exec(authPgDocumentedSchema)
      const theirs = AuthPgAdapter(db as unknown as pg.Pool)
      const ours = PostgresAdapter(db)
      const expires = new Date(Date.now() + 3_600_123)

      const user = await theirs.createUser!({ id: "", email: "old@example.com", emailVerified: expires, name: "Old" })
      await theirs.linkAccount!({
        userId: user.id,
        type: "oidc",
        provider: "google",
        providerAccountId: "g-1",
        expires_at: 1_900_000_000,
        access_token: "at",
      })
      await theirs.createSession!({ sessionToken: "s-1", userId: user.id, expires })
      await theirs.createVerificationToken!({ identifier: "old@example.com", token: "t-1", expires })

      expect((await ours.getUserByAccount({ provider: "google", providerAccountId: "g-1" }))?.id).toBe(String(user.id))
      expect(await ours.getAccount("g-1", "google")).toMatchObject({
        userId: String(user.id),
        expires_at: 1_900_000_000,
        access_token: "at",
      })
      const found = await ours.getSessionAndUser("s-1")
      expect(found?.session.expires.valueOf()).toBe(expires.valueOf())
      expect(found?.user.emailVerified?.valueOf()).toBe(expires.valueOf())
      expect(await ours.useVerificationToken({ identifier: "old@example.com", token: "t-1" })).toMatchObject({
        token: "t-1",
      })

      const mine = await ours.createUser({ id: "", email: "new@example.com", emailVerified: null })
      await ours.createSession({ sessionToken: "s-2", userId: mine.id, expires })
      expect((await theirs.getSessionAndUser!("s-2"))?.user.email).toBe("new@example.com")

      const result = await migrate(db)
      expect(result.created.sort()).toEqual([
        "accounts_provider_account_key",
        "accounts_user_id_idx",
        "authenticators",
        "authenticators_user_id_idx",
        "sessions_session_token_key",
        "sessions_user_id_idx",
        "users_email_key",
      ])
      // Without foreign keys, deleteUser still removes the user's sessions and accounts itself.
      await ours.deleteUser(String(user.id))
      expect(await ours.getAccount("g-1", "google")).toBeNull()
      expect(await ours.getSessionAndUser("s-1")).toBeNull()
    })

    it("a database migrated before the authenticators table existed gets it on the next migrate, data kept", async () => {
      const { db, exec } = await target.fresh()
      await exec(postgresSchema)
      await exec(`DROP TABLE authenticators`) // what an older gatehouse-migrate left behind
      const adapter = PostgresAdapter(db)
      const user = await adapter.createUser({
        id: "",
        email: `old-${crypto.randomUUID()}@example.com`,
        emailVerified: null,
      })
      const result = await migrate(db)
      expect(result.created.sort()).toEqual(["authenticators", "authenticators_user_id_idx"])
      expect(result.existing).not.toContain("authenticators")
      expect((await adapter.getUser(user.id))?.email).toBe(user.email)
      await adapter.createAuthenticator({
        credentialID: "Y3JlZA==",
        userId: user.id,
        providerAccountId: "Y3JlZA==",
        credentialPublicKey: "cGs=",
        counter: 1,
        credentialDeviceType: "singleDevice",
        credentialBackedUp: false,
        transports: "usb",
      })
      expect((await adapter.listAuthenticatorsByUserId(user.id)).map((x) => x.credentialID)).toEqual(["Y3JlZA=="])
    })

    it("authenticator writes in transaction() commit with the sign-in or roll back with it", async () => {
      const { db } = await target.fresh()
      await migrate(db)
      const adapter = PostgresAdapter(db)
      const user = await adapter.createUser({
        id: "",
        email: `webauthn-${crypto.randomUUID()}@example.com`,
        emailVerified: null,
      })
      const authenticator = (credentialID: string) => ({
        credentialID,
        userId: user.id,
        providerAccountId: credentialID,
        credentialPublicKey: "cGs=",
        counter: 0,
        credentialDeviceType: "multiDevice",
        credentialBackedUp: true,
        transports: null,
      })
      await adapter.createAuthenticator(authenticator("a2VwdA=="))
      await expect(
        adapter.transaction!(async (tx) => {
          await tx.createAuthenticator(authenticator("cm9sbGVk"))
          await tx.updateAuthenticatorCounter("a2VwdA==", 5)
          expect((await tx.listAuthenticatorsByUserId(user.id)).map((x) => x.credentialID).sort()).toEqual([
            "a2VwdA==",
            "cm9sbGVk",
          ])
          expect(await tx.listAuthenticatorsByUserId("not-a-number")).toEqual([]) // under a savepoint: the transaction goes on
          await tx.deleteAuthenticator("a2VwdA==")
          throw new Error("verification failed")
        }),
      ).rejects.toThrow("verification failed")
      expect(await adapter.getAuthenticator("cm9sbGVk")).toBeNull()
      expect((await adapter.getAuthenticator("a2VwdA=="))?.counter).toBe(0)

      await adapter.transaction!(async (tx) => {
        await tx.createAuthenticator(authenticator("Y29tbWl0"))
        await tx.updateAuthenticatorCounter("a2VwdA==", 9)
      })
      expect((await adapter.getAuthenticator("Y29tbWl0"))?.userId).toBe(user.id)
      expect((await adapter.getAuthenticator("a2VwdA=="))?.counter).toBe(9)
    })

    it("updateAuthenticatorCounter of an unknown credentialID fails; a malformed user id lists nothing", async () => {
      const { db } = await target.fresh()
      await migrate(db)
      const adapter = PostgresAdapter(db)
      await expect(adapter.updateAuthenticatorCounter("bm9uZQ==", 1)).rejects.toThrow(/no authenticator/)
      expect(await adapter.listAuthenticatorsByUserId(crypto.randomUUID())).toEqual([])
      expect(await adapter.deleteAuthenticator("bm9uZQ==")).toBeNull()
    })

    it("postgresSchema is the same schema as one script", async () => {
      for (const table of ["users", "accounts", "sessions", "verification_token", "authenticators"])
        expect(postgresSchema).toContain(`CREATE TABLE IF NOT EXISTS ${table} (`)
      const { db, exec } = await target.fresh()
      await exec(postgresSchema)
      expect((await migrate(db)).created).toEqual([])
    })
  })
}

postgresSpecifics("PGlite", {
  fresh: async () => {
    const db = await pgliteInFreshSchema()
    return { db, exec: (sql) => db.exec(sql) }
  },
  close: async () => {},
})

if (DATABASE_URL) {
  /** A server target whose connections are pg Pools (many connections) or single pg Clients. */
  const serverTarget = (kind: "Pool" | "Client"): Target => {
    const opened: Array<{ end: () => Promise<void>; drop: () => Promise<void> }> = []
    return {
      fresh: async () => {
        const fresh = await serverPoolInFreshSchema()
        let db: pg.Pool | pg.Client = fresh.pool
        if (kind === "Client") {
          db = new pg.Client({ connectionString: DATABASE_URL, options: `-c search_path=${fresh.schema}` })
          await db.connect()
        }
        const connection = db
        opened.push({ end: () => (connection === fresh.pool ? Promise.resolve() : connection.end()), drop: fresh.drop })
        return { db, exec: (sql) => db.query(sql) }
      },
      close: async () => {
        for (const { end, drop } of opened) {
          await end()
          await drop()
        }
      },
    }
  }
  postgresSpecifics("server Pool", serverTarget("Pool"))
  postgresSpecifics("server Client", serverTarget("Client"))
}
