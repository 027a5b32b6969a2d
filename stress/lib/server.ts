// Stress harness: the app server the runner forks. Gatehouse behind node:http (createAuthHandler) on 127.0.0.1, with
// the adapter on PGlite or PostgreSQL, a fault-injecting adapter wrapper, and its own CPU, memory and event-loop
// figures; the runner drives it over IPC (stress/lib/protocol.ts) so the load generator never shares its core.
import { randomBytes } from "node:crypto"
import { readdirSync } from "node:fs"
import { createServer } from "node:http"
import { type Socket, connect, createServer as createTcpServer } from "node:net"
import { monitorEventLoopDelay } from "node:perf_hooks"
import type { AddressInfo } from "node:net"
import type { Adapter, AuthConfig } from "../../src/index.js"
import { createAuthHandler } from "../../src/integrations/node.js"
import { mockOpProvider } from "../../test/support/mock-op-provider.js"
import Credentials from "../../src/providers/credentials.js"
import Email from "../../src/providers/email.js"
import Passkey from "../../src/providers/passkey.js"
import { PostgresAdapter, migrate, type PostgresQueryable } from "../../src/adapters/postgres.js"
import type { AppOptions, Command, FaultPlan, Invariants, Ready, Reply, Request, ServerStats } from "./protocol.js"
import { Histogram } from "./histogram.js"

const options = JSON.parse(process.env.STRESS_APP_OPTIONS ?? "{}") as AppOptions
const send = (message: Ready | Reply): void => void process.send?.(message)

// ---------------------------------------------------------------------------------------------------------
// Process-wide figures

let unhandledRejections = 0
let uncaughtExceptions = 0
const sampleErrors: string[] = []
const noteError = (what: string): void => {
  if (sampleErrors.length < 8) sampleErrors.push(what.slice(0, 300))
}
process.on("unhandledRejection", (reason) => {
  unhandledRejections++
  noteError(`unhandledRejection: ${String((reason as Error)?.stack ?? reason)}`)
})
process.on("uncaughtException", (error) => {
  uncaughtExceptions++
  noteError(`uncaughtException: ${String(error?.stack ?? error)}`)
})

// A shifted clock for R8: every Date.now() reader (JWE exp, check cookies, oauth4webapi's ID token checks, e-mail token
// expiry, WebAuthn challenge cookies) sees it.
const realNow = Date.now.bind(Date)
let clockOffsetMs = 0
Date.now = () => realNow() + clockOffsetMs

const ELD_RESOLUTION_MS = 10
const eld = monitorEventLoopDelay({ resolution: ELD_RESOLUTION_MS })
eld.enable()
let cpuMark = process.cpuUsage()
let requests = 0
let statuses: Record<string, number> = {}
let loggedErrors: Record<string, number> = {}
const poolWait = new Histogram()
let poolMaxWaiting = 0
const faultCounts = { calls: 0, thrown: 0, slowed: 0, hung: 0 }

// ---------------------------------------------------------------------------------------------------------
// Database

type Db = PostgresQueryable & { end?: () => Promise<void>; close?: () => Promise<void> }

/** A TCP proxy in front of PostgreSQL whose connections can be cut and refused (the "database went away" of R6). */
async function startProxy(
  targetHost: string,
  targetPort: number,
): Promise<{ port: number; cut(): void; restore(): void; close(): Promise<void> }> {
  const pairs = new Set<[Socket, Socket]>()
  let down = false
  const server = createTcpServer((client) => {
    if (down) return void client.destroy()
    const upstream = connect(targetPort, targetHost)
    const pair: [Socket, Socket] = [client, upstream]
    pairs.add(pair)
    const end = () => {
      pairs.delete(pair)
      client.destroy()
      upstream.destroy()
    }
    client.on("error", end).on("close", end)
    upstream.on("error", end).on("close", end)
    client.pipe(upstream)
    upstream.pipe(client)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    port: (server.address() as AddressInfo).port,
    cut() {
      down = true
      for (const [a, b] of pairs) {
        a.destroy()
        b.destroy()
      }
      pairs.clear()
    },
    restore() {
      down = false
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const [a, b] of pairs) {
          a.destroy()
          b.destroy()
        }
        server.close(() => resolve())
      }),
  }
}

interface Backend {
  name: string
  db: Db | undefined
  down(): void
  up(): void
  close(): Promise<void>
}

async function openBackend(): Promise<Backend> {
  if (options.db === "none")
    return { name: "none (JWT sessions, no adapter)", db: undefined, down() {}, up() {}, close: async () => {} }
  if (options.db === "pglite") {
    const { PGlite } = await import("@electric-sql/pglite")
    const lite = new PGlite()
    await migrate(lite as unknown as PostgresQueryable)
    return {
      name: "PGlite (in the server process)",
      db: lite as unknown as Db,
      down: () => (dbDown = true),
      up: () => (dbDown = false),
      close: () => lite.close(),
    }
  }
  const url = process.env.DATABASE_URL
  if (!url) throw new Error("db: postgres needs DATABASE_URL")
  const pg = (await import("pg")).default
  const schema = `gatehouse_stress_${randomBytes(5).toString("hex")}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`create schema ${schema}`)
  const target = new URL(url)
  let proxy: Awaited<ReturnType<typeof startProxy>> | undefined
  const poolUrl = new URL(url)
  if (options.proxyDb) {
    proxy = await startProxy(target.hostname, Number(target.port || 5432))
    poolUrl.hostname = "127.0.0.1"
    poolUrl.port = String(proxy.port)
  }
  const pool = new pg.Pool({
    connectionString: poolUrl.href,
    max: options.poolMax ?? 10,
    options: `-c search_path=${schema}`,
    connectionTimeoutMillis: 5_000,
  })
  // pg emits errors of idle clients (the server went away) on the pool; without a listener they crash the process.
  pool.on(
    "error",
    (error) =>
      void ((loggedErrors["pg pool idle client"] = (loggedErrors["pg pool idle client"] ?? 0) + 1),
      noteError(`pool: ${error.message}`)),
  )
  instrumentPool(pool)
  await migrate(pool)
  return {
    name: `PostgreSQL at DATABASE_URL (pg Pool of ${options.poolMax ?? 10}${proxy ? ", through a cuttable TCP proxy" : ""})`,
    db: pool as unknown as Db,
    down: () => (proxy ? proxy.cut() : (dbDown = true)),
    up: () => (proxy ? proxy.restore() : (dbDown = false)),
    async close() {
      await pool.end().catch(() => undefined)
      await proxy?.close()
      await admin.query(`drop schema ${schema} cascade`).catch(() => undefined)
      await admin.end()
    },
  }
}

/** Measures how long each checkout waited for a pooled connection (R3's queue wait), and the longest queue. */
function instrumentPool(pool: { connect: (...a: unknown[]) => unknown; waitingCount: number }): void {
  const original = pool.connect.bind(pool)
  pool.connect = (...args: unknown[]) => {
    const started = performance.now()
    poolMaxWaiting = Math.max(poolMaxWaiting, pool.waitingCount + 1)
    const cb = args[0]
    if (typeof cb === "function") {
      return original((err: unknown, client: unknown, release: unknown) => {
        poolWait.record(performance.now() - started)
        ;(cb as (...a: unknown[]) => void)(err, client, release)
      })
    }
    return (original() as Promise<unknown>).then((client) => {
      poolWait.record(performance.now() - started)
      return client
    })
  }
}

// ---------------------------------------------------------------------------------------------------------
// Fault-injecting adapter

let dbDown = false
let plan: FaultPlan | null = null
const hung = new Set<(error: Error) => void>()

function releaseHung(): void {
  for (const reject of hung) reject(new Error("hung adapter call released at the end of the run"))
  hung.clear()
}

function withFaults(inner: Adapter): Adapter {
  const out: Record<string, unknown> = {}
  for (const [method, fn] of Object.entries(inner)) {
    if (typeof fn !== "function" || method === "transaction") continue
    out[method] = async (...args: unknown[]) => {
      faultCounts.calls++
      if (dbDown) throw new Error(`connection refused: the database is down (simulated) in ${method}`)
      if (plan) {
        const roll = Math.random()
        if (roll < plan.failRate) {
          faultCounts.thrown++
          throw new Error(`injected fault in ${method}`)
        }
        if (roll < plan.failRate + plan.hangRate) {
          faultCounts.hung++
          return new Promise((_, reject) => void hung.add(reject))
        }
        if (roll < plan.failRate + plan.hangRate + plan.slowRate) {
          faultCounts.slowed++
          const result = await (fn as (...a: unknown[]) => unknown).apply(inner, args)
          await new Promise((r) => setTimeout(r, plan?.slowMs ?? 0))
          return result
        }
      }
      return (fn as (...a: unknown[]) => unknown).apply(inner, args)
    }
  }
  const tx = (inner as { transaction?: <T>(fn: (tx: Adapter) => Promise<T>) => Promise<T> }).transaction
  if (typeof tx === "function")
    out.transaction = <T>(fn: (t: Adapter) => Promise<T>) =>
      tx.call(inner, (innerTx: Adapter) => fn(withFaults(innerTx)))
  return out as unknown as Adapter
}

// ---------------------------------------------------------------------------------------------------------
// Gatehouse config

function providers(): AuthConfig["providers"] {
  const list: AuthConfig["providers"] = [
    Credentials({
      credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
      // user-<n> / pw: a fixed user per name, so repeated sign-ins find the same user.
      authorize: async (c) => {
        const name = typeof c.username === "string" ? c.username : ""
        return /^user-\d+$/.test(name) && c.password === "pw" ? { id: name, name, email: `${name}@stress.test` } : null
      },
    }),
  ]
  if (options.op) {
    const op = options.op
    list.push(
      mockOpProvider(op, {
        timeout: 5_000,
        // One e-mail per subject, so distinct IdP accounts never collide on the unique e-mail index.
        profile: (p: Record<string, unknown>) => ({
          id: String(p.sub),
          name: String(p.name ?? p.sub),
          email: `${String(p.sub)}@op.stress.test`,
          image: null,
        }),
      }),
    )
  }
  if (options.email) {
    list.push(
      Email({
        // The runner clicks the link itself: the last one per address waits here until "takeMail".
        async sendVerificationRequest({ identifier, url }) {
          mails.set(identifier, url)
        },
      }),
    )
  }
  if (options.webauthn) list.push(Passkey())
  return list
}

/** Sign-in links the e-mail provider "sent", by address. */
const mails = new Map<string, string>()

const configs = new Map<string, AuthConfig>()
/** This server's origin, the configured origin its mailed links are built from (docs/security.md EM-11). */
let appOrigin: string | undefined
let adapter: Adapter | undefined
let rawAdapter: Adapter | undefined

/** One config object per secret list: Gatehouse resolves a config once per object, as an app that redeploys would. */
function configFor(secrets: string[]): AuthConfig {
  const key = secrets.join("\u0000")
  let config = configs.get(key)
  if (!config) {
    config = {
      secret: secrets.length === 1 ? secrets[0] : secrets,
      trustHost: true,
      ...(appOrigin ? { trustedOrigins: [appOrigin] } : {}),
      basePath: "/auth",
      providers: providers(),
      // Hundreds of simultaneous sign-ins from 127.0.0.1 measure the library, not the limiter (docs/rate-limit.md).
      rateLimit: false,
      session: {
        strategy: options.strategy,
        ...(options.updateAge !== undefined ? { updateAge: options.updateAge } : {}),
      },
      ...(options.webauthn ? { experimental: { enableWebAuthn: true } } : {}),
      ...(adapter ? { adapter } : {}),
      ...(options.adapterTimeout !== undefined ? { adapterTimeout: options.adapterTimeout } : {}),
      logger: {
        error: (e: Error) => {
          const type = (e as { type?: string }).type ?? e.name
          loggedErrors[type] = (loggedErrors[type] ?? 0) + 1
          const cause = (e as { cause?: unknown }).cause
          noteError(`${type}: ${e.message}${cause instanceof Error ? ` (cause: ${cause.message})` : ""}`)
        },
        warn: () => {},
        debug: () => {},
      },
    }
    configs.set(key, config)
  }
  return config
}

// ---------------------------------------------------------------------------------------------------------
// Commands

async function countOf(db: Db, sql: string): Promise<number> {
  const { rows } = await db.query(sql)
  return Number((rows[0] as { n: unknown } | undefined)?.n ?? 0)
}

async function invariants(db: Db | undefined): Promise<Invariants> {
  if (!db)
    return {
      users: 0,
      accounts: 0,
      sessions: 0,
      sessionsWithoutUser: 0,
      accountsWithoutUser: 0,
      duplicateUsers: 0,
      duplicateAccounts: 0,
      opUsersWithoutAccount: 0,
      opUsersWithoutAccountEmails: [],
    }
  const usersOf: Record<string, number> = {}
  const { rows } = await db.query(
    `select a."providerAccountId" as pid, count(distinct a."userId") as n from accounts a group by 1`,
  )
  for (const r of rows as { pid: string; n: unknown }[]) usersOf[r.pid] = Number(r.n)
  return {
    users: await countOf(db, "select count(*) as n from users"),
    accounts: await countOf(db, "select count(*) as n from accounts"),
    sessions: await countOf(db, "select count(*) as n from sessions"),
    sessionsWithoutUser: await countOf(
      db,
      `select count(*) as n from sessions s left join users u on u.id = s."userId" where u.id is null`,
    ),
    accountsWithoutUser: await countOf(
      db,
      `select count(*) as n from accounts a left join users u on u.id = a."userId" where u.id is null`,
    ),
    duplicateUsers: await countOf(
      db,
      "select count(*) as n from (select lower(email) from users where email is not null group by 1 having count(*) > 1) d",
    ),
    duplicateAccounts: await countOf(
      db,
      `select count(*) as n from (select provider, "providerAccountId" from accounts group by 1, 2 having count(*) > 1) d`,
    ),
    opUsersWithoutAccount: await countOf(
      db,
      `select count(*) as n from users u where u.email like '%@op.stress.test' and not exists (select 1 from accounts a where a."userId" = u.id)`,
    ),
    opUsersWithoutAccountEmails: (
      (
        await db.query(
          `select email from users u where u.email like '%@op.stress.test' and not exists (select 1 from accounts a where a."userId" = u.id) limit 20`,
        )
      ).rows as { email: string }[]
    ).map((r) => r.email),
    usersOf,
  }
}

/** The monitor records the time between its ticks, so the resolution itself is taken off to leave the delay. */
function percentileMs(h: ReturnType<typeof monitorEventLoopDelay>, p: number): number {
  return h.count === 0 ? 0 : Math.max(0, h.percentile(p) / 1e6 - ELD_RESOLUTION_MS)
}

function stats(): ServerStats & { sampleErrors: string[] } {
  const cpu = process.cpuUsage(cpuMark)
  const mem = process.memoryUsage()
  let fds = -1
  try {
    fds = readdirSync("/proc/self/fd").length
  } catch {
    /* not Linux */
  }
  return {
    cpuUserUs: cpu.user,
    cpuSystemUs: cpu.system,
    requests,
    statuses,
    eldP50Ms: percentileMs(eld, 50),
    eldP99Ms: percentileMs(eld, 99),
    eldMaxMs: eld.count === 0 ? 0 : Math.max(0, eld.max / 1e6 - ELD_RESOLUTION_MS),
    rss: mem.rss,
    heapUsed: mem.heapUsed,
    handles: process.getActiveResourcesInfo().filter((r) => r !== "Timeout" && r !== "Immediate").length,
    fds,
    unhandledRejections,
    uncaughtExceptions,
    loggedErrors,
    ...(poolWait.count > 0
      ? { poolWaitP50Ms: poolWait.percentile(50), poolWaitP99Ms: poolWait.percentile(99), poolWaitMaxMs: poolWait.max }
      : {}),
    ...(options.db === "postgres" ? { poolMaxWaiting } : {}),
    faults: { ...faultCounts },
    sampleErrors,
  }
}

async function main(): Promise<void> {
  const backend = await openBackend()
  if (backend.db) {
    rawAdapter = PostgresAdapter(backend.db)
    adapter = withFaults(rawAdapter)
  }
  // Made once the port is known (below): the config names this server's origin.
  let handler: ReturnType<typeof createAuthHandler> | undefined
  const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    requests++
    res.on("finish", () => {
      const s = String(res.statusCode)
      statuses[s] = (statuses[s] ?? 0) + 1
    })
    void handler?.(req, res)
  })
  server.maxHeadersCount = 100
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  appOrigin = `http://127.0.0.1:${port}`
  handler = createAuthHandler(configFor(options.secrets))

  const run = async (c: Command): Promise<unknown> => {
    switch (c.cmd) {
      case "stats":
        return stats()
      case "resetStats":
        cpuMark = process.cpuUsage()
        eld.reset()
        requests = 0
        statuses = {}
        loggedErrors = {}
        poolWait.reset()
        poolMaxWaiting = 0
        sampleErrors.length = 0
        Object.assign(faultCounts, { calls: 0, thrown: 0, slowed: 0, hung: 0 })
        return null
      case "gc":
        ;(globalThis as { gc?: () => void }).gc?.()
        return process.memoryUsage().heapUsed
      case "setSecrets":
        handler = createAuthHandler(configFor(c.secrets))
        return null
      case "setClock":
        clockOffsetMs = c.atMs === null ? 0 : c.atMs - realNow()
        return null
      case "setFaults":
        plan = c.plan
        if (!plan) releaseHung()
        return null
      case "dbDown":
        backend.down()
        return null
      case "dbUp":
        backend.up()
        return null
      case "invariants":
        return invariants(backend.db)
      case "seedSessions": {
        if (!rawAdapter) throw new Error("seedSessions needs a database")
        const tokens: string[] = []
        const expires = new Date(realNow() + 30 * 24 * 3600 * 1000)
        for (let i = 0; i < c.n; i++) {
          const user = await rawAdapter.createUser!({
            id: "",
            name: `Seed ${i}`,
            email: `seed-${i}-${randomBytes(3).toString("hex")}@stress.test`,
            emailVerified: null,
          })
          const sessionToken = randomBytes(32).toString("base64url")
          await rawAdapter.createSession!({ sessionToken, userId: user.id, expires })
          tokens.push(sessionToken)
        }
        return tokens
      }
      case "takeMail": {
        const url = mails.get(c.email) ?? null
        mails.delete(c.email)
        return url
      }
      case "rowCounts": {
        const db = backend.db
        if (!db) throw new Error("rowCounts needs a database")
        return {
          users: await countOf(db, "select count(*) as n from users"),
          accounts: await countOf(db, "select count(*) as n from accounts"),
          sessions: await countOf(db, "select count(*) as n from sessions"),
          verificationTokens: await countOf(db, "select count(*) as n from verification_token"),
          authenticators: await countOf(db, "select count(*) as n from authenticators"),
        }
      }
      case "stop":
        releaseHung()
        server.closeAllConnections()
        await new Promise<void>((resolve) => server.close(() => resolve()))
        await backend.close()
        setImmediate(() => process.exit(0))
        return null
    }
  }

  process.on("message", (message: Request) => {
    run(message).then(
      (result) => send({ id: message.id, ok: true, result }),
      (error: unknown) => send({ id: message.id, ok: false, error: String((error as Error)?.stack ?? error) }),
    )
  })
  // The runner going away ends the server too: no orphaned load targets.
  process.on("disconnect", () => {
    releaseHung()
    void backend.close().finally(() => process.exit(0))
  })
  send({ ready: true, port, backend: backend.name })
}

main().catch((error: unknown) => {
  send({ ready: false, error: String((error as Error)?.stack ?? error) })
  setImmediate(() => process.exit(1))
})
