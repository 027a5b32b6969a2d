// `npm run bench -- --peers`: Gatehouse, @auth/core 0.41.3 and better-auth 1.x in one process on the same requests
// (session check, no-session request, sign-in with and without scrypt, sign-out, the database session read beside the
// one SQL query it needs and that query in a trivial handler), then cold start (bench/peers/cold.ts) and the Express servers under autocannon
// (bench/peers/http.ts). Method and results: docs/performance.md, "Against @auth/core and better-auth".
//
//   npm run bench -- --peers                 # full run (bench/run.ts installs bench/peers/node_modules on first use)
//   npm run bench -- --peers --quick         # smoke run, about 3 minutes
//   DATABASE_URL=postgres://… npm run bench -- --peers   # the database cases on real PostgreSQL (PGlite otherwise)
//
// Method as in bench/run.ts: each op builds a new Request, awaits the handler, reads the body and checks the status
// and the user's e-mail; one op in flight; pre-warm, then per measurement a warm-up, a forced GC and a timed window;
// rounds interleaved (a group's order reversed in odd rounds); medians over rounds; ratios taken inside a round.
import { existsSync, readFileSync } from "node:fs"
import type { IncomingMessage } from "node:http"
import os from "node:os"
import v8 from "node:v8"
import vm from "node:vm"
import { PGlite } from "@electric-sql/pglite"
import { memoryAdapter } from "better-auth/adapters/memory"
import pg from "pg"
import { migrate } from "../../src/adapters/postgres.js"
import { getSession as nodeGetSession } from "../../src/integrations/node.js"
import { benchOptionsOrExit } from "../options.js"
import { queryCeilingHandler, SESSION_SQL, type SessionRow } from "../reference.js"
import {
  authJsStyleFlow,
  authjs,
  authjsDb,
  betterAuthInstance,
  betterAuthSignIn,
  gatehouse,
  gatehouseDb,
  gatehouseDbConfig,
  type Handler,
  memoryDb,
  migrateBetterAuth,
  ORIGIN,
  type PoolLike,
  pglitePool,
  PASSWORD,
  USER,
} from "./libs.js"

const args = benchOptionsOrExit(process.argv.slice(2).filter((a) => a !== "--peers"))
const QUICK = args.has("quick")
const ROUNDS = Number(args.get("rounds") ?? 3)
const DURATION_MS = Number(args.get("duration") ?? (QUICK ? 300 : 2500))
const WARMUP_MS = Number(args.get("warmup") ?? (QUICK ? 100 : 500))
const PREWARM_MS = QUICK ? 100 : 300

let gc: () => void = () => {}
try {
  v8.setFlagsFromString("--expose_gc")
  gc = vm.runInNewContext("gc") as () => void
} catch {
  /* no forced GC */
}

/** The installed version of a package: bench/peers/node_modules first, then the root's (Node's own lookup order). */
function versionOf(name: string): string {
  for (const dir of ["./node_modules/", "../../node_modules/"]) {
    const file = new URL(`${dir}${name}/package.json`, import.meta.url)
    if (existsSync(file)) return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version
  }
  return "?"
}
function check(ok: unknown, what: string): asserts ok {
  if (!ok) throw new Error(`peers bench check failed: ${what}`)
}
const get = (path: string, cookie?: string) =>
  new Request(`${ORIGIN}${path}`, cookie ? { headers: { cookie } } : undefined)

/** One op: the handler's answer, its body read, status and (when given) a body fragment checked. */
async function op(handle: Handler, request: Request, status: number, mustContain?: string): Promise<Response> {
  const res = await handle(request)
  const text = await res.text()
  if (res.status !== status || (mustContain !== undefined && !text.includes(mustContain)))
    throw new Error(`bad response ${res.status}: ${text.slice(0, 120)}`)
  return res
}

interface Sample {
  opsPerSec: number
  p50us: number
  p99us: number
  cpuUsPerOp: number
}
async function measure(fn: () => Promise<unknown>, durationMs: number, warmupMs: number): Promise<Sample> {
  const warmEnd = performance.now() + warmupMs
  while (performance.now() < warmEnd) await fn()
  gc()
  const lat: number[] = []
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  let now = t0
  while (now < t0 + durationMs) {
    const start = now
    await fn()
    now = performance.now()
    lat.push(now - start)
  }
  const cpu = process.cpuUsage(cpu0)
  lat.sort((a, b) => a - b)
  const pct = (p: number) => (lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))] ?? NaN) * 1000
  return {
    opsPerSec: lat.length / ((now - t0) / 1000),
    p50us: pct(50),
    p99us: pct(99),
    cpuUsPerOp: (cpu.user + cpu.system) / lat.length,
  }
}

interface Measurement {
  id: string
  lib: string
  setting: string
  fn: () => Promise<unknown>
}
interface Group {
  name: string
  /** The id each ratio is taken against (Gatehouse's, or the SQL query for the database read). */
  base: string
  cases: Measurement[]
}

// ---------------------------------------------------------------- setup
const loadAtStart = os.loadavg()
console.error(`peers bench: load average ${loadAtStart.map((l) => l.toFixed(2)).join(" ")} at start`)
const G = "Gatehouse",
  A = "@auth/core 0.41.3",
  B = `better-auth ${versionOf("better-auth")}`

const gh = gatehouse("plain"),
  ghScrypt = gatehouse("scrypt")
const aj = authjs("plain"),
  ajScrypt = authjs("scrypt")
const ghFlow = await authJsStyleFlow(gh),
  ghScryptFlow = await authJsStyleFlow(ghScrypt)
const ajFlow = await authJsStyleFlow(aj),
  ajScryptFlow = await authJsStyleFlow(ajScrypt)

// better-auth: one memory database per use, so sign-ins (a session row each) never slow the session reads.
const baRead = betterAuthInstance({ database: memoryAdapter(memoryDb()) })
const cachedDb = memoryDb()
const baReadCached = betterAuthInstance({ database: memoryAdapter(cachedDb), cookieCache: true })
const signInDbPlain = memoryDb(),
  signInDbScrypt = memoryDb(),
  signOutDb = memoryDb()
const baSignInPlain = betterAuthInstance({ database: memoryAdapter(signInDbPlain), password: "plain" })
const baSignInScrypt = betterAuthInstance({ database: memoryAdapter(signInDbScrypt) })
const baSignOut = betterAuthInstance({ database: memoryAdapter(signOutDb) })

const baReadS = await betterAuthSignIn(baRead)
const baCachedS = await betterAuthSignIn(baReadCached)
check(baCachedS.cookie.includes("better-auth.session_data="), "cookie cache on: sign-in sets session_data")
check(!baReadS.cookie.includes("better-auth.session_data="), "default: no session_data cookie")
{
  // The cached read does not need the database: with the session table emptied it still answers the user.
  const rows = cachedDb.session!.splice(0)
  await op(baReadCached.handler, get("/api/auth/get-session", baCachedS.cookie), 200, USER.email)
  cachedDb.session!.push(...rows)
}
const baPlainS = await betterAuthSignIn(baSignInPlain)
const baScryptS = await betterAuthSignIn(baSignInScrypt)
const baOutS = await betterAuthSignIn(baSignOut)
const signOutRow = { ...(signOutDb.session?.[0] as object) }
const ba = (auth: { handler: Handler }): Handler => auth.handler

// Database: real PostgreSQL when DATABASE_URL is set, PGlite in this process otherwise; one pool for everyone.
const DATABASE_URL = process.env.DATABASE_URL
let pool: PoolLike & { end(): Promise<void> }
let gatehouseQueryable: unknown
let dbLabel: string
if (DATABASE_URL) {
  // A schema of its own, dropped at the end: nothing else in that database is touched.
  const setup = new pg.Client({ connectionString: DATABASE_URL })
  await setup.connect()
  const version = (await setup.query("SHOW server_version")).rows[0]?.server_version
  await setup.query("DROP SCHEMA IF EXISTS gatehouse_peers_bench CASCADE; CREATE SCHEMA gatehouse_peers_bench")
  await setup.end()
  const pgVersion = versionOf("pg")
  dbLabel = `PostgreSQL ${version} over TCP (pg ${pgVersion} Pool, default size 10)`
  const scoped = new pg.Pool({ connectionString: DATABASE_URL, options: "-c search_path=gatehouse_peers_bench" })
  pool = scoped as unknown as PoolLike
  gatehouseQueryable = scoped
} else {
  const db = new PGlite()
  pool = pglitePool(db as never)
  gatehouseQueryable = db
  dbLabel = `PGlite ${versionOf("@electric-sql/pglite")} (in this process)`
}
await migrate(gatehouseQueryable as never)
await migrateBetterAuth(pool)
const sessionToken = crypto.randomUUID()
const userId = (await pool.query(`INSERT INTO users (name, email) VALUES ($1, $2) RETURNING id`, [USER.name, USER.email]))
  .rows[0]?.id
await pool.query(`INSERT INTO sessions ("sessionToken", "userId", expires) VALUES ($1, $2, $3)`, [
  sessionToken,
  userId,
  new Date(Date.now() + 30 * 86400_000),
])
const dbCookie = `authjs.session-token=${sessionToken}`
const routeRequest = { headers: { host: "localhost:3000", cookie: dbCookie }, socket: null } as unknown as IncomingMessage
const ghDbConfig = gatehouseDbConfig(gatehouseQueryable)
const ghDb = gatehouseDb(gatehouseQueryable),
  ajDb = authjsDb(pool)
const baDb = betterAuthInstance({ database: pool }),
  baDbCached = betterAuthInstance({ database: pool, cookieCache: true })
const baDbS = await betterAuthSignIn(baDb)
const baDbCachedS = await betterAuthSignIn(baDbCached)
// CQ: the one statement Gatehouse's getSessionAndUser runs (bench/reference.ts's SESSION_SQL) inside a trivial handler.
const queryCeiling = queryCeilingHandler(
  async (token) => (await pool.query(SESSION_SQL, [token])).rows[0] as SessionRow | undefined,
)

const trivial: Handler = async (request) => {
  request.headers.get("cookie")
  return new Response(JSON.stringify({ user: USER, expires: new Date(Date.now() + 30 * 86400_000).toISOString() }), {
    headers: { "content-type": "application/json", "cache-control": "private, no-cache, no-store" },
  })
}

const baGet = (cookie?: string) => get("/api/auth/get-session", cookie)
const baPost = (path: string, cookie: string) =>
  new Request(`${ORIGIN}/api/auth${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: ORIGIN, cookie },
    body: "{}",
  })
const email = USER.email
const groups: Group[] = [
  {
    name: "session check, signed in",
    base: "G-S",
    cases: [
      { id: "T", lib: "reference", setting: "trivial handler: same Request, fixed session JSON", fn: () => op(trivial, get("/auth/session", ghFlow.sessionCookie), 200, email) },
      { id: "G-S", lib: G, setting: "default: JWT cookie (encrypted), no database", fn: () => op(gh, get("/auth/session", ghFlow.sessionCookie), 200, email) },
      { id: "A-S", lib: A, setting: "default: JWT cookie (encrypted), no database", fn: () => op(aj, get("/auth/session", ajFlow.sessionCookie), 200, email) },
      { id: "B-S", lib: B, setting: "default: database session (memory adapter), no cookie cache", fn: () => op(ba(baRead), baGet(baReadS.cookie), 200, email) },
      { id: "Bc-S", lib: B, setting: "production: cookieCache on (signed session_data cookie, memory adapter)", fn: () => op(ba(baReadCached), baGet(baCachedS.cookie), 200, email) },
    ],
  },
  {
    name: "no session (no cookie)",
    base: "G-N",
    cases: [
      { id: "G-N", lib: G, setting: "default", fn: () => op(gh, get("/auth/session"), 200, "null") },
      { id: "A-N", lib: A, setting: "default", fn: () => op(aj, get("/auth/session"), 200, "null") },
      { id: "B-N", lib: B, setting: "default", fn: () => op(ba(baRead), baGet(), 200, "null") },
    ],
  },
  {
    name: "sign-in, password compared as given",
    base: "G-Ip",
    cases: [
      { id: "G-Ip", lib: G, setting: "credentials, JWT cookie issued, nothing written", fn: () => op(gh, ghFlow.signInRequest(), 302) },
      { id: "A-Ip", lib: A, setting: "credentials, JWT cookie issued, nothing written", fn: () => op(aj, ajFlow.signInRequest(), 302) },
      {
        id: "B-Ip",
        lib: B,
        setting: "email-password, password.verify overridden to compare; session row inserted (memory)",
        fn: async () => {
          await op(ba(baSignInPlain), baPlainS.signInRequest(), 200, email)
          signInDbPlain.session!.length = 0 // keep the memory adapter's scans at one row
        },
      },
    ],
  },
  {
    name: "sign-in, scrypt (better-auth's default hash, N=16384 r=16 p=1, on the libuv pool)",
    base: "G-Is",
    cases: [
      { id: "G-Is", lib: G, setting: "credentials; authorize runs better-auth's verifyPassword", fn: () => op(ghScrypt, ghScryptFlow.signInRequest(), 302) },
      { id: "A-Is", lib: A, setting: "credentials; authorize runs better-auth's verifyPassword", fn: () => op(ajScrypt, ajScryptFlow.signInRequest(), 302) },
      {
        id: "B-Is",
        lib: B,
        setting: "default email-password (scrypt verify); session row inserted (memory)",
        fn: async () => {
          await op(ba(baSignInScrypt), baScryptS.signInRequest(), 200, email)
          signInDbScrypt.session!.length = 0
        },
      },
    ],
  },
  {
    name: "sign-out",
    base: "G-O",
    cases: [
      { id: "G-O", lib: G, setting: "POST /auth/signout with CSRF token; JWT: cookies cleared", fn: () => op(gh, ghFlow.signOutRequest(), 302) },
      { id: "A-O", lib: A, setting: "POST /auth/signout with CSRF token; JWT: cookies cleared", fn: () => op(aj, ajFlow.signOutRequest(), 302) },
      {
        id: "B-O",
        lib: B,
        setting: "POST /sign-out; its session row deleted (put back outside the library before each op)",
        fn: async () => {
          signOutDb.session!.length = 0
          signOutDb.session!.push({ ...signOutRow })
          await op(ba(baSignOut), baPost("/sign-out", baOutS.cookie), 200, "success")
        },
      },
    ],
  },
  {
    name: `database session read, ${DATABASE_URL ? "PostgreSQL" : "PGlite"}`,
    base: "Q",
    cases: [
      {
        id: "Q",
        lib: "reference",
        setting: "the one SQL query Gatehouse's read needs, same pool",
        fn: async () => check((await pool.query(SESSION_SQL, [sessionToken])).rows.length === 1, "query row"),
      },
      {
        id: "CQ",
        lib: "reference",
        setting: "ceiling: the same query in a trivial handler (cookie in, query, no-store JSON out; no auth work)",
        fn: () => op(queryCeiling, get("/auth/session", dbCookie), 200, email),
      },
      { id: "G-D", lib: G, setting: "database strategy, gatehouse/adapters/postgres", fn: () => op(ghDb, get("/auth/session", dbCookie), 200, email) },
      {
        id: "G-Dr",
        lib: G,
        setting: "the same read in an app route: gatehouse/node getSession(req) (no web Request or Response)",
        fn: async () => {
          // What an Express or node:http route reads: the request's headers (Node's IncomingMessage keeps them lower-cased).
          const session = await nodeGetSession(routeRequest, ghDbConfig)
          check(session?.user?.email === email, "route session")
        },
      },
      { id: "A-D", lib: A, setting: "database strategy, @auth/pg-adapter 1.11.3", fn: () => op(ajDb, get("/auth/session", dbCookie), 200, email) },
      { id: "B-D", lib: B, setting: "default: Kysely PostgresDialect on the pool, no cookie cache", fn: () => op(ba(baDb), baGet(baDbS.cookie), 200, email) },
      { id: "Bc-D", lib: B, setting: "cookieCache on (the database is read when the 5-minute cache expires)", fn: () => op(ba(baDbCached), baGet(baDbCachedS.cookie), 200, email) },
    ],
  },
]

// Every case answers correctly once before anything is timed (the checks in op() hold in every op too).
for (const g of groups) for (const m of g.cases) await m.fn()

// ---------------------------------------------------------------- rounds
const started = Date.now()
for (const g of groups) for (const m of g.cases) await measure(m.fn, 0, PREWARM_MS)
const results = new Map<string, Sample[]>()
const ratios = new Map<string, number[]>()
const fmt = (x: number, d = 0) =>
  Number.isFinite(x) ? x.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d }) : "—"
for (let round = 0; round < ROUNDS; round++) {
  for (const g of groups) {
    const got = new Map<string, Sample>()
    for (const m of round % 2 === 0 ? g.cases : [...g.cases].reverse()) {
      const s = await measure(m.fn, DURATION_MS, WARMUP_MS)
      got.set(m.id, s)
      results.set(m.id, [...(results.get(m.id) ?? []), s])
      console.error(
        `[round ${round + 1}/${ROUNDS}] ${m.id.padEnd(5)} ${fmt(s.opsPerSec).padStart(8)} ops/s  p50 ${fmt(s.p50us, 1).padStart(8)} µs  cpu ${fmt(s.cpuUsPerOp, 1)} µs/op  ${m.lib}`,
      )
    }
    const base = got.get(g.base)!.opsPerSec
    for (const m of g.cases) ratios.set(m.id, [...(ratios.get(m.id) ?? []), got.get(m.id)!.opsPerSec / base])
  }
}
await pool.query("SELECT 1")
if (DATABASE_URL) await pool.query("DROP SCHEMA gatehouse_peers_bench CASCADE")
await pool.end()

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}
const lines = [
  `In-process: ${ROUNDS} rounds x ${DURATION_MS} ms (+ ${WARMUP_MS} ms warm-up) per measurement, ${fmt((Date.now() - started) / 1000)} s. ` +
    `Load average ${loadAtStart[0]!.toFixed(2)} at start, ${os.loadavg()[0]!.toFixed(2)} at end. Node ${process.version}; ${G} from src/ under tsx; ${A}; ${B}. Database: ${dbLabel}.`,
]
for (const g of groups) {
  lines.push(
    "",
    `**${g.name}** (ratios: ops/s ÷ ${g.base}'s in the same round, median)`,
    "",
    "| id | library | setting | ops/s | p50 µs | p99 µs | CPU µs/op | ÷ " + g.base + " | ops/s per round |",
    "|---|---|---|---:|---:|---:|---:|---:|---|",
  )
  for (const m of g.cases) {
    const ss = results.get(m.id)!
    lines.push(
      `| ${m.id} | ${m.lib} | ${m.setting} | ${fmt(median(ss.map((s) => s.opsPerSec)))} | ${fmt(median(ss.map((s) => s.p50us)), 1)} | ${fmt(median(ss.map((s) => s.p99us)), 1)} | ${fmt(median(ss.map((s) => s.cpuUsPerOp)), 1)} | ${fmt(median(ratios.get(m.id)!), 2)} | ${ss.map((s) => fmt(s.opsPerSec)).join(" / ")} |`,
    )
  }
}
const gd = median(ratios.get("G-D")!)
const gdr = median(ratios.get("G-Dr")!)
const cq = median(ratios.get("CQ")!)
// Ratios to CQ taken inside each round, like the others.
const gdOverCq = median(ratios.get("G-D")!.map((r, i) => r / ratios.get("CQ")![i]!))
const where = DATABASE_URL ? "PostgreSQL" : "PGlite; the target names real PostgreSQL"
lines.push(
  "",
  `Target: Gatehouse's database session check >= 90 % of the rate of its one SQL query on the same pool: in an app route (G-Dr, getSession) ${fmt(100 * gdr, 0)} % — ${gdr >= 0.9 ? "**met**" : "**NOT met**"}; through GET /auth/session (G-D) ${fmt(100 * gd, 0)} % (${where}).`,
  `The ceiling CQ (that query in a handler doing no auth work) reaches ${fmt(100 * cq, 0)} % of it; Gatehouse reaches ${fmt(100 * gdOverCq, 0)} % of CQ's rate (${gdOverCq >= 0.9 ? ">= 90 %" : "< 90 %"}).`,
)
console.log(lines.join("\n"))
