// PostgreSQL adapter on a `pg` Pool/Client or PGlite, on the tables of @auth/pg-adapter so data moves neither way on a switch.
import { AdapterError } from "../errors.js"
import type {
  Adapter,
  AdapterAccount,
  AdapterAuthenticator,
  AdapterSession,
  AdapterUser,
  VerificationToken,
} from "./index.js"
import { merged } from "../lib/merged.js"
import { isThenable } from "../lib/timeout.js"

/** One result row as the driver returns it. */
type Row = Record<string, unknown>

/**
 * Anything with pg's `query(text, params) => Promise<{ rows }>`: a pg `Pool` or `Client`, a PGlite
 * instance, a Neon pool. Typed structurally so neither `pg` nor PGlite is a dependency of this module.
 */
export interface PostgresQueryable {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>
}

/**
 * The Adapter methods this adapter implements: all of them. WebAuthn's use the `authenticators` table, which
 * Gatehouse adds to the @auth/pg-adapter schema (that schema has none); `deleteAuthenticator` is a Gatehouse extension.
 */
export type PostgresAdapterMethod =
  | "createUser"
  | "getUser"
  | "getUserByEmail"
  | "getUserByAccount"
  | "updateUser"
  | "deleteUser"
  | "linkAccount"
  | "unlinkAccount"
  | "getAccount"
  | "createSession"
  | "getSessionAndUser"
  | "updateSession"
  | "deleteSession"
  | "createVerificationToken"
  | "useVerificationToken"
  | "getAuthenticator"
  | "createAuthenticator"
  | "listAuthenticatorsByUserId"
  | "updateAuthenticatorCounter"
  | "deleteAuthenticator"

/** The adapter returned by {@link PostgresAdapter}. */
export interface PostgresAdapter extends Required<Pick<Adapter, PostgresAdapterMethod>> {
  /**
   * Runs `fn` in one database transaction: every call on `tx` commits together or not at all, so a
   * sign-in's createUser + linkAccount + createSession never leaves half a user behind. Present when
   * the driver can hold a transaction (pg Pool or Client, PGlite); absent on a bare `{ query }` object.
   * Calling `tx.transaction` joins the outer transaction. Inside `fn` use `tx` only: on a single
   * Client or PGlite, calls on the outer adapter wait until the transaction ends.
   */
  transaction?: <T>(fn: (tx: PostgresAdapter) => Promise<T>) => Promise<T>
}

/** Runs one statement and returns its rows, or what `map` makes of them (one promise either way). */
interface Run {
  (text: string, params?: unknown[]): Promise<Row[]>
  <T>(text: string, params: unknown[], map: (rows: Row[]) => T): Promise<T>
}
/** Run's implementations, typed once for both of its forms. */
type LooseRun = (text: string, params?: unknown[], map?: (rows: Row[]) => unknown) => Promise<unknown>
/** A way to run statements, plus a way to run a group of them in one transaction when the driver allows it. */
interface Connection {
  run: Run
  transaction?: <T>(fn: (run: Run) => Promise<T>) => Promise<T>
}

interface PGliteLike extends PostgresQueryable {
  transaction<T>(fn: (tx: PostgresQueryable) => Promise<T>): Promise<T>
}
interface PoolLike extends PostgresQueryable {
  /** pg's callback form: no promise of the driver's own (pg-pool returns undefined; a look-alike may return one). */
  query(
    text: string,
    params: unknown[] | undefined,
    callback: (error: Error | undefined, result: { rows: unknown[] }) => void,
  ): unknown
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>
  connect(): Promise<PostgresQueryable & { release(error?: Error | boolean): void }>
  readonly idleCount: number
}
interface ClientLike extends PostgresQueryable {
  connect(): Promise<unknown>
}

const isPGlite = (db: PostgresQueryable): db is PGliteLike =>
  typeof (db as Partial<PGliteLike>).transaction === "function"
const isPool = (db: PostgresQueryable): db is PoolLike =>
  typeof (db as Partial<PoolLike>).connect === "function" && "idleCount" in db
const isClient = (db: PostgresQueryable): db is ClientLike => typeof (db as Partial<ClientLike>).connect === "function"

const rowsOf = (result: { rows: unknown[] }): Row[] => result.rows as Row[]
const firstRow = (rows: Row[]): Row | undefined => rows[0]

/** Runs statements on a queryable: its promise's rows (a `then`, not an async wrapper: one promise fewer per query). */
const runOn = (queryable: PostgresQueryable): Run =>
  ((text: string, params?: unknown[], map?: (rows: Row[]) => unknown) =>
    map === undefined
      ? queryable.query(text, params).then(rowsOf)
      : queryable.query(text, params).then((result) => map(result.rows as Row[]))) as Run

/**
 * Runs statements on a pg Pool through its callback form: the one promise per statement is this adapter's, with the
 * mapped rows, where the promise form adds the driver's own and a `then` on it (about a tenth of a session read's
 * instructions, bench/callgrind.ts GDr). A pool that answers with a promise instead (a look-alike without the
 * callback form) is followed through that promise.
 */
const runOnPool = (pool: PoolLike): Run =>
  ((text: string, params?: unknown[], map?: (rows: Row[]) => unknown) =>
    new Promise((resolve, reject) => {
      let called = false
      const settle = (error: unknown, result: { rows: unknown[] } | undefined): void => {
        if (called) return
        called = true
        if (error) {
          reject(error)
          return
        }
        // The callback runs inside the driver's socket handler: a throw from `map` must not escape into it.
        try {
          const rows = (result as { rows: Row[] }).rows
          resolve(map === undefined ? rows : map(rows))
        } catch (failure) {
          reject(failure)
        }
      }
      const returned = pool.query(
        text,
        params,
        settle as (error: Error | undefined, result: { rows: unknown[] }) => void,
      )
      if (isThenable(returned))
        returned.then(
          (result) => settle(undefined, result as { rows: unknown[] }),
          (error) => settle(error ?? new Error("the query failed"), undefined),
        )
    })) as Run

/** BEGIN, fn, COMMIT on one connection; ROLLBACK on any error. */
async function inTransaction<T>(run: Run, fn: (run: Run) => Promise<T>): Promise<T> {
  await run("BEGIN")
  try {
    const result = await fn(run)
    await run("COMMIT")
    return result
  } catch (error) {
    await run("ROLLBACK").catch(() => undefined) // the original error is the one worth reporting
    throw error
  }
}

/** Picks how to run statements and transactions on the given driver object. */
function openConnection(db: PostgresQueryable): Connection {
  if (isPGlite(db)) {
    // PGlite queues its own queries behind a running transaction, so the transaction is isolated.
    return { run: runOn(db), transaction: (fn) => db.transaction((tx) => fn(runOn(tx))) }
  }
  if (isPool(db)) {
    return {
      run: runOnPool(db),
      transaction: async (fn) => {
        const client = await db.connect()
        let broken: Error | undefined
        try {
          return await inTransaction(runOn(client), fn)
        } catch (error) {
          broken = error instanceof Error ? error : new Error(String(error))
          throw error
        } finally {
          client.release(broken) // a client whose transaction failed is discarded, not reused
        }
      },
    }
  }
  if (isClient(db)) {
    // One connection: statements of other callers must not slip into an open transaction, so all
    // work through this adapter is queued (a pg Client runs one query at a time anyway).
    let tail: Promise<unknown> = Promise.resolve()
    const serial = <T>(job: () => Promise<T>): Promise<T> => {
      const next = tail.then(job, job)
      tail = next.catch(() => undefined)
      return next
    }
    const direct = runOn(db)
    return {
      run: ((text: string, params?: unknown[], map?: (rows: Row[]) => unknown) =>
        serial(() => (direct as LooseRun)(text, params, map))) as Run,
      transaction: (fn) => serial(() => inTransaction(direct, fn)),
    }
  }
  return { run: runOn(db) }
}

// ---- row mapping: drivers differ (pg: int8 as string, ids as numbers); the Adapter records do not ----

const toDate = (value: unknown): Date => (value instanceof Date ? value : new Date(value as string))
const toDateOrNull = (value: unknown): Date | null => (value == null ? null : toDate(value))

function toUser(row: Row): AdapterUser {
  return merged(row, { id: String(row.id), email: row.email as string, emailVerified: toDateOrNull(row.emailVerified) })
}

/** The joined row of getSessionAndUser on the migration's users table, column by column. */
const SESSION_AND_USER_COLUMNS = [
  "id",
  "name",
  "email",
  "emailVerified",
  "image",
  "gatehouse_session_id",
  "gatehouse_session_expires",
] as const

/**
 * Whether a row has exactly these columns, in this order. pg names a row's keys with strings it has just decoded, so
 * copying the row key by key makes V8 look each key up in its string table (about 1,400 instructions a session read);
 * comparing them is cheaper, and a row that matches is built as one literal.
 */
function hasColumns(row: Row, columns: readonly string[]): boolean {
  let i = 0
  for (const key in row) if (key !== columns[i++]) return false
  return i === columns.length
}

/** getSessionAndUser's answer from its joined row: the user's columns copied once, the session record beside them. */
function sessionAndUserOf(
  row: Row | undefined,
  sessionToken: string,
): { session: AdapterSession; user: AdapterUser } | null {
  if (!row) return null
  let user: AdapterUser
  if (hasColumns(row, SESSION_AND_USER_COLUMNS)) {
    // The users table of the migration: the same keys in the same order as the copy below makes, as one literal.
    user = {
      id: String(row.id),
      name: row.name as string | null,
      email: row.email as string,
      emailVerified: toDateOrNull(row.emailVerified),
      image: row.image as string | null,
    }
  } else {
    // Other columns (an app's own): one copy of the row's user columns.
    const userRow: Row = {}
    for (const key in row)
      if (key !== "gatehouse_session_id" && key !== "gatehouse_session_expires") userRow[key] = row[key]
    userRow.id = String(row.id)
    userRow.emailVerified = toDateOrNull(row.emailVerified)
    user = userRow as unknown as AdapterUser
  }
  const expires = toDate(row.gatehouse_session_expires)
  return { session: sessionRecord(row.gatehouse_session_id, sessionToken, user.id, expires), user }
}

function toAccount(row: Row): AdapterAccount {
  const { id: _rowId, ...rest } = row
  const account = merged(rest, { userId: String(row.userId) }) as unknown as AdapterAccount
  if (row.expires_at != null) account.expires_at = Number(row.expires_at)
  return account
}

/**
 * A session as the Adapter record, with the row's `id` as @auth/pg-adapter returns it (a string here, like user ids).
 * Two plain literals, not a conditional spread: after a spread V8 defines each named property on its slow path
 * (callgrind: about 13,000 instructions on every database session read).
 */
const sessionRecord = (
  id: unknown,
  sessionToken: string,
  userId: string,
  expires: Date,
): AdapterSession & { id?: string } =>
  id == null ? { sessionToken, userId, expires } : { id: String(id), sessionToken, userId, expires }

const toSession = (row: Row) =>
  sessionRecord(row.id, row.sessionToken as string, String(row.userId), toDate(row.expires))

/** counter is a BIGINT (a WebAuthn signature counter is 32 bits unsigned, beyond INTEGER): pg returns it as a string. */
const toAuthenticator = (row: Row): AdapterAuthenticator => ({
  credentialID: row.credentialID as string,
  userId: String(row.userId),
  providerAccountId: row.providerAccountId as string,
  counter: Number(row.counter),
  credentialBackedUp: row.credentialBackedUp === true,
  credentialPublicKey: row.credentialPublicKey as string,
  credentialDeviceType: row.credentialDeviceType as string,
  transports: (row.transports as string | null | undefined) ?? null,
})

const toVerificationToken = (row: Row): VerificationToken => ({
  identifier: row.identifier as string,
  token: row.token as string,
  expires: toDate(row.expires),
})

/** Malformed ids (a UUID against a SERIAL column, out of range) mean "no such row", not a failure. */
function isMalformedId(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === "22P02" || code === "22003"
}

/** Builds `SET a = $n, ...` from the given patch, for the whitelisted columns only (names are never user input). */
function setClause(
  patch: Row,
  columns: Record<string, string>,
  firstParam: number,
): { sql: string; params: unknown[] } {
  const parts: string[] = []
  const params: unknown[] = []
  for (const [key, column] of Object.entries(columns)) {
    if (patch[key] === undefined) continue
    params.push(patch[key])
    parts.push(`${column} = $${firstParam + params.length - 1}`)
  }
  return { sql: parts.join(", "), params }
}

const USER_COLUMNS = { name: "name", email: "email", emailVerified: `"emailVerified"`, image: "image" }
const SESSION_COLUMNS = { userId: `"userId"`, expires: "expires" }
const ACCOUNT_FIELDS = [
  "userId",
  "type",
  "provider",
  "providerAccountId",
  "refresh_token",
  "access_token",
  "expires_at",
  "token_type",
  "scope",
  "id_token",
  "session_state",
] as const

function buildAdapter(conn: Connection, inTransaction = false): PostgresAdapter {
  const { run } = conn
  const first = (text: string, params: unknown[]): Promise<Row | undefined> => run(text, params, firstRow)
  /**
   * Runs a lookup by user id where a malformed id means "no such user" (the result is then `none`). Inside a transaction the
   * lookup runs under a savepoint, because any error would otherwise abort the whole transaction.
   */
  const byId = async <T = Row | undefined>(lookup: () => Promise<T>, none?: T): Promise<T> => {
    if (inTransaction) await run("SAVEPOINT gatehouse_id_lookup")
    try {
      const row = await lookup()
      if (inTransaction) await run("RELEASE SAVEPOINT gatehouse_id_lookup")
      return row
    } catch (error) {
      if (inTransaction) await run("ROLLBACK TO SAVEPOINT gatehouse_id_lookup")
      if (isMalformedId(error)) return none as T
      throw error
    }
  }

  const adapter: PostgresAdapter = {
    async createUser(user) {
      // The database assigns the id (SERIAL, as in @auth/pg-adapter); the id proposed by the core is not stored.
      const row = await first(
        `INSERT INTO users (name, email, "emailVerified", image) VALUES ($1, $2, $3, $4) RETURNING *`,
        [user.name ?? null, user.email ?? null, user.emailVerified ?? null, user.image ?? null],
      )
      return toUser(row!)
    },
    async getUser(id) {
      const row = await byId(() => first(`SELECT * FROM users WHERE id = $1`, [id]))
      return row ? toUser(row) : null
    },
    async getUserByEmail(email) {
      const row = await first(`SELECT * FROM users WHERE email = $1`, [email])
      return row ? toUser(row) : null
    },
    async getUserByAccount({ provider, providerAccountId }) {
      const row = await first(
        `SELECT u.* FROM users u JOIN accounts a ON a."userId" = u.id WHERE a.provider = $1 AND a."providerAccountId" = $2`,
        [provider, providerAccountId],
      )
      return row ? toUser(row) : null
    },
    async updateUser(patch) {
      const set = setClause(patch, USER_COLUMNS, 2)
      const row = set.sql
        ? await first(`UPDATE users SET ${set.sql} WHERE id = $1 RETURNING *`, [patch.id, ...set.params])
        : await first(`SELECT * FROM users WHERE id = $1`, [patch.id])
      if (!row) throw new AdapterError(`updateUser: there is no user with id "${patch.id}".`)
      return toUser(row)
    },
    async deleteUser(userId) {
      // Explicit deletes in one statement, so schemas created without ON DELETE CASCADE are cleaned up too. The
      // authenticators table is Gatehouse's own and always has its cascading foreign key (and may not exist on a
      // database that never ran migrate), so the cascade removes the user's authenticators.
      const row = await byId(() =>
        first(
          `WITH s AS (DELETE FROM sessions WHERE "userId" = $1), a AS (DELETE FROM accounts WHERE "userId" = $1)
         DELETE FROM users WHERE id = $1 RETURNING *`,
          [userId],
        ),
      )
      return row ? toUser(row) : null
    },
    async linkAccount(account) {
      const values = ACCOUNT_FIELDS.map((field) => {
        const value = account[field]
        // expires_at is whole seconds in a BIGINT column; a fractional value from a provider is truncated.
        if (field === "expires_at" && typeof value === "number") return Math.trunc(value)
        return value ?? null
      })
      const columns = ACCOUNT_FIELDS.map((field) => (/[A-Z]/.test(field) ? `"${field}"` : field)).join(", ")
      const placeholders = ACCOUNT_FIELDS.map((_, i) => `$${i + 1}`).join(", ")
      const row = await first(`INSERT INTO accounts (${columns}) VALUES (${placeholders}) RETURNING *`, values)
      return toAccount(row!)
    },
    async unlinkAccount({ provider, providerAccountId }) {
      const row = await first(`DELETE FROM accounts WHERE provider = $1 AND "providerAccountId" = $2 RETURNING *`, [
        provider,
        providerAccountId,
      ])
      return row ? toAccount(row) : undefined
    },
    async getAccount(providerAccountId, provider) {
      const row = await first(`SELECT * FROM accounts WHERE provider = $1 AND "providerAccountId" = $2`, [
        provider,
        providerAccountId,
      ])
      return row ? toAccount(row) : null
    },
    async createSession({ sessionToken, userId, expires }) {
      const row = await first(
        `INSERT INTO sessions ("sessionToken", "userId", expires) VALUES ($1, $2, $3) RETURNING *`,
        [sessionToken, userId, expires],
      )
      return toSession(row!)
    },
    getSessionAndUser(sessionToken) {
      // One round trip on the hot path: the user's columns plus the session columns not already known (its row id
      // too, as @auth/pg-adapter returns the whole session row). Not an async function: one `then` on the query's
      // rows is the answer (an async frame and `first`'s extra `then` cost two promise hops on every session read).
      try {
        return run(
          `SELECT u.*, s.id AS "gatehouse_session_id", s.expires AS "gatehouse_session_expires"
             FROM sessions s JOIN users u ON u.id = s."userId" WHERE s."sessionToken" = $1`,
          [sessionToken],
          (rows) => sessionAndUserOf(rows[0], sessionToken),
        )
      } catch (error) {
        // A queryable that throws instead of rejecting: callers still get a rejection, as from an async method.
        return Promise.reject(error)
      }
    },
    async updateSession(patch) {
      const set = setClause(patch, SESSION_COLUMNS, 2)
      const row = set.sql
        ? await first(`UPDATE sessions SET ${set.sql} WHERE "sessionToken" = $1 RETURNING *`, [
            patch.sessionToken,
            ...set.params,
          ])
        : await first(`SELECT * FROM sessions WHERE "sessionToken" = $1`, [patch.sessionToken])
      return row ? toSession(row) : null
    },
    async deleteSession(sessionToken) {
      const row = await first(`DELETE FROM sessions WHERE "sessionToken" = $1 RETURNING *`, [sessionToken])
      return row ? toSession(row) : null
    },
    async createVerificationToken({ identifier, token, expires }) {
      const row = await first(
        `INSERT INTO verification_token (identifier, token, expires) VALUES ($1, $2, $3) RETURNING *`,
        [identifier, token, expires],
      )
      return toVerificationToken(row!)
    },
    async useVerificationToken({ identifier, token }) {
      // DELETE ... RETURNING is the read: of concurrent callers exactly one gets the row (single use).
      const row = await first(`DELETE FROM verification_token WHERE identifier = $1 AND token = $2 RETURNING *`, [
        identifier,
        token,
      ])
      return row ? toVerificationToken(row) : null
    },
    async getAuthenticator(credentialID) {
      const row = await first(`SELECT * FROM authenticators WHERE "credentialID" = $1`, [credentialID])
      return row ? toAuthenticator(row) : null
    },
    async createAuthenticator(authenticator) {
      const row = await first(
        `INSERT INTO authenticators ("credentialID", "userId", "providerAccountId", "credentialPublicKey", counter,
           "credentialDeviceType", "credentialBackedUp", transports) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
        [
          authenticator.credentialID,
          authenticator.userId,
          authenticator.providerAccountId,
          authenticator.credentialPublicKey,
          authenticator.counter,
          authenticator.credentialDeviceType,
          authenticator.credentialBackedUp,
          authenticator.transports ?? null,
        ],
      )
      return toAuthenticator(row!)
    },
    async listAuthenticatorsByUserId(userId) {
      const rows = await byId(
        () => run(`SELECT * FROM authenticators WHERE "userId" = $1 ORDER BY "credentialID"`, [userId]),
        [],
      )
      return rows.map(toAuthenticator)
    },
    async updateAuthenticatorCounter(credentialID, newCounter) {
      const row = await first(`UPDATE authenticators SET counter = $2 WHERE "credentialID" = $1 RETURNING *`, [
        credentialID,
        newCounter,
      ])
      if (!row)
        throw new AdapterError(
          `updateAuthenticatorCounter: there is no authenticator with credentialID "${credentialID}".`,
        )
      return toAuthenticator(row)
    },
    async deleteAuthenticator(credentialID) {
      const row = await first(`DELETE FROM authenticators WHERE "credentialID" = $1 RETURNING *`, [credentialID])
      return row ? toAuthenticator(row) : null
    },
  }
  const { transaction } = conn
  if (transaction) {
    adapter.transaction = (fn) =>
      transaction((txRun) => {
        const tx = buildAdapter({ run: txRun, transaction: (inner) => inner(txRun) }, true)
        return fn(tx)
      })
  }
  return adapter
}

/**
 * A Gatehouse adapter for PostgreSQL. `db` is a `pg` Pool (recommended), a `pg` Client, or a PGlite
 * instance. Uses the tables of @auth/pg-adapter (`users`, `accounts`, `sessions`, `verification_token`) plus
 * Gatehouse's `authenticators` for WebAuthn; create them with {@link migrate} or the `gatehouse-migrate` command.
 */
export function PostgresAdapter(db: PostgresQueryable): PostgresAdapter {
  return buildAdapter(openConnection(db))
}
export default PostgresAdapter

/**
 * The schema statements, in order. Names and types are those of @auth/pg-adapter; on top of it come
 * unique indexes (one user per e-mail, one account per provider id, one session per token),
 * on new tables, foreign keys that cascade a user's deletion, and the WebAuthn `authenticators` table
 * (the @auth/pg-adapter schema has none; its columns are the AdapterAuthenticator fields, as in
 * Auth.js's Prisma and Drizzle schemas). Statements are only ever appended, so a database migrated by
 * an older version gets the new ones on the next run.
 */
const schemaStatements: ReadonlyArray<{ name: string; sql: string }> = [
  {
    name: "users",
    sql: `CREATE TABLE IF NOT EXISTS users (
  id SERIAL PRIMARY KEY,
  name VARCHAR(255),
  email VARCHAR(255),
  "emailVerified" TIMESTAMPTZ,
  image TEXT
)`,
  },
  { name: "users_email_key", sql: `CREATE UNIQUE INDEX IF NOT EXISTS users_email_key ON users (email)` },
  {
    name: "accounts",
    sql: `CREATE TABLE IF NOT EXISTS accounts (
  id SERIAL PRIMARY KEY,
  "userId" INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  type VARCHAR(255) NOT NULL,
  provider VARCHAR(255) NOT NULL,
  "providerAccountId" VARCHAR(255) NOT NULL,
  refresh_token TEXT,
  access_token TEXT,
  expires_at BIGINT,
  id_token TEXT,
  scope TEXT,
  session_state TEXT,
  token_type TEXT
)`,
  },
  {
    name: "accounts_provider_account_key",
    sql: `CREATE UNIQUE INDEX IF NOT EXISTS accounts_provider_account_key ON accounts (provider, "providerAccountId")`,
  },
  { name: "accounts_user_id_idx", sql: `CREATE INDEX IF NOT EXISTS accounts_user_id_idx ON accounts ("userId")` },
  {
    name: "sessions",
    sql: `CREATE TABLE IF NOT EXISTS sessions (
  id SERIAL PRIMARY KEY,
  "userId" INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires TIMESTAMPTZ NOT NULL,
  "sessionToken" VARCHAR(255) NOT NULL
)`,
  },
  {
    name: "sessions_session_token_key",
    sql: `CREATE UNIQUE INDEX IF NOT EXISTS sessions_session_token_key ON sessions ("sessionToken")`,
  },
  { name: "sessions_user_id_idx", sql: `CREATE INDEX IF NOT EXISTS sessions_user_id_idx ON sessions ("userId")` },
  {
    name: "verification_token",
    sql: `CREATE TABLE IF NOT EXISTS verification_token (
  identifier TEXT NOT NULL,
  expires TIMESTAMPTZ NOT NULL,
  token TEXT NOT NULL,
  PRIMARY KEY (identifier, token)
)`,
  },
  {
    name: "authenticators",
    sql: `CREATE TABLE IF NOT EXISTS authenticators (
  "credentialID" TEXT NOT NULL PRIMARY KEY,
  "userId" INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  "providerAccountId" TEXT NOT NULL,
  "credentialPublicKey" TEXT NOT NULL,
  counter BIGINT NOT NULL,
  "credentialDeviceType" TEXT NOT NULL,
  "credentialBackedUp" BOOLEAN NOT NULL,
  transports TEXT
)`,
  },
  {
    name: "authenticators_user_id_idx",
    sql: `CREATE INDEX IF NOT EXISTS authenticators_user_id_idx ON authenticators ("userId")`,
  },
]

/** The whole schema as one SQL script (idempotent: every statement is IF NOT EXISTS), for your own migration tool. */
export const postgresSchema: string = schemaStatements.map((s) => `${s.sql};`).join("\n\n") + "\n"

/** What {@link migrate} did: the tables and indexes it created, and those that were already there. */
export interface MigrationResult {
  created: string[]
  existing: string[]
}

/** An arbitrary but fixed advisory-lock key, so two processes migrating at once take turns. */
const MIGRATION_LOCK_KEY = 7_461_902_318

/**
 * Creates the tables and indexes that are missing, in the schema first on the search_path; safe to
 * run on every start and on a database made for @auth/pg-adapter (it only adds the unique indexes,
 * which fails with a unique violation if duplicates already exist).
 */
export async function migrate(db: PostgresQueryable): Promise<MigrationResult> {
  const conn = openConnection(db)
  const apply = async (run: Run): Promise<MigrationResult> => {
    if (conn.transaction) await run(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`)
    const names = schemaStatements.map((s) => s.name)
    const present = await run(`SELECT name, to_regclass(name) IS NOT NULL AS present FROM unnest($1::text[]) AS name`, [
      names,
    ])
    const existing = new Set(present.filter((r) => r.present === true).map((r) => r.name as string))
    for (const statement of schemaStatements) if (!existing.has(statement.name)) await run(statement.sql)
    return { created: names.filter((n) => !existing.has(n)), existing: names.filter((n) => existing.has(n)) }
  }
  return conn.transaction ? conn.transaction(apply) : apply(conn.run)
}
