// Instructions per op of Gatehouse's hot paths, counted by valgrind's callgrind: unlike wall-clock time, the count
// repeats to within a fraction of a percent on a shared, noisy machine, so a before/after is one command.
//
//   npx tsx bench/callgrind.ts                    # every case below, one valgrind process each, as a table
//   npx tsx bench/callgrind.ts --cases=G5d,G5     # some of them
//   npx tsx bench/callgrind.ts --json             # { node, cases: { id: instructions per op } } on stdout
// With DATABASE_URL (real PostgreSQL) the database session check GD, the same read in an app route GDr, and their
// references CQ and Q are counted too.
// Options: --ops=N (measured ops per case; default per case), --warmup=N (ops before counting), --jobs=N (valgrind
// processes at once, default 2). GATEHOUSE_GUARD_SELFTEST=1 makes every other Gatehouse op run twice (a deliberate
// 50 % slowdown, to show scripts/instruction-guard.mjs failing).
//
// Method. This file is bundled with esbuild (Gatehouse from src/, #crypto the node backend, packages left to
// node_modules) and each case runs in its own `valgrind --tool=callgrind node <bundle> --child=<id>`. The child does
// the real flow (GET /csrf, then sign in), `warmup` ops (the JIT settles), then calls os.getPriority(), the ops,
// and os.hostname(). Callgrind zeroes its counters on entering uv_os_getpriority and dumps them on entering
// uv_os_gethostname, so the dump holds the measured ops alone: every instruction of every thread (the JIT's and GC's
// helper threads included) between the two calls, less what compiling cost (optimizingCompilerCost: V8 still
// recompiles some of pg's and Node's functions after any warm-up, by an amount that changes from run to run). Each op is what bench/run.ts times: a new Request, the handler,
// res.text() and the status check. Counts are x86-64 instructions of this Node binary; compare runs of one Node version.
import { spawn } from "node:child_process"
import type { IncomingMessage } from "node:http"
import { mkdirSync, readFileSync, rmSync } from "node:fs"
import os from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Auth } from "../src/index.js"
import { migrate, PostgresAdapter } from "../src/adapters/postgres.js"
import { getSession as nodeGetSession } from "../src/integrations/node.js"
import Credentials from "../src/providers/credentials.js"
import type { AuthConfig } from "../src/types.js"
import {
  type Handler,
  SECRET,
  SESSION_COOKIE,
  USER,
  ceilingHandler,
  check,
  queryCeilingHandler,
  SESSION_SQL,
  type SessionRow,
  csrfHash,
  get,
  nodeCryptoJwe,
  op,
  signInCeilingHandler,
  signInFlow,
} from "./reference.js"

/** One measured case: its id (bench/run.ts's where it has one), what it is, and its op. */
interface Case {
  readonly what: string
  /** Measured ops (the cheap cases get more, so the count per op is not dominated by a stray GC). */
  readonly ops: number
  readonly setup: () => Promise<() => Promise<unknown>>
}

// ---------------------------------------------------------------- the configs and ops (bench/run.ts's)
const BASE = { secret: SECRET, trustHost: true, basePath: "/auth" } as const
const provider = () => Credentials({ authorize: async () => ({ ...USER }) })
/** What users get: rate limits on (the default memory store). */
const defaultConfig = (extra: Partial<AuthConfig> = {}): AuthConfig => ({ ...BASE, providers: [provider()], ...extra })
/** bench/run.ts's like-for-like config: @auth/core has no limiter. */
const noLimitConfig = (): AuthConfig => defaultConfig({ rateLimit: false })

/** GATEHOUSE_GUARD_SELFTEST: every other op runs the handler twice, a deliberate slowdown the guard must catch. */
const SELFTEST = (process.env.GATEHOUSE_GUARD_SELFTEST ?? "") !== ""
const gatehouse = (config: AuthConfig): Handler => {
  const handle: Handler = (r) => Auth(r, config)
  if (!SELFTEST) return handle
  let n = 0
  return async (r) => {
    if (n++ % 2 === 0) await (await handle(r.clone())).text()
    return handle(r)
  }
}

const signedIn = (r: Response) =>
  check(
    r.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=ey`)),
    "sign-in cookie",
  )

async function signInCase(config: AuthConfig, headers?: Record<string, string>): Promise<() => Promise<unknown>> {
  const handle = gatehouse(config)
  // Extra headers go into the one Request each op builds, so the op costs the harness no more than G5's.
  const flow = await signInFlow(handle, headers)
  return async () => signedIn(await op(handle, flow.signInRequest(), 302))
}

/** What the child runs once its ops are counted (closing a pool, dropping its schema). */
const afterCase: (() => Promise<void>)[] = []

/**
 * The database cases' pool (DATABASE_URL, real PostgreSQL): a schema of this process's own with one user and one
 * session row, dropped when the child exits. Returns the pool, the session cookie, and a lookup running SESSION_SQL.
 */
async function databaseSetup() {
  const url = process.env.DATABASE_URL
  check(url, "the database cases (GD, CQ, Q) need DATABASE_URL (real PostgreSQL)")
  const pg = (await import("pg")).default
  const schema = `gatehouse_callgrind_${process.pid}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`CREATE SCHEMA ${schema}`)
  const pool = new pg.Pool({ connectionString: url, options: `-c search_path=${schema}` })
  await migrate(pool)
  const token = crypto.randomUUID()
  const userId = (
    await pool.query(`INSERT INTO users (name, email) VALUES ($1, $2) RETURNING id`, [USER.name, USER.email])
  ).rows[0]?.id
  await pool.query(`INSERT INTO sessions ("sessionToken", "userId", expires) VALUES ($1, $2, $3)`, [
    token,
    userId,
    new Date(Date.now() + 30 * 86400_000),
  ])
  afterCase.push(async () => {
    await pool.end()
    await admin.query(`DROP SCHEMA ${schema} CASCADE`)
    await admin.end()
  })
  const lookup = async (t: string) => (await pool.query(SESSION_SQL, [t])).rows[0] as SessionRow | undefined
  return { pool, cookie: `${SESSION_COOKIE}=${token}`, token, lookup }
}

/** Cases that need DATABASE_URL: left out of the default list when it is unset. */
const DATABASE_CASES = new Set(["GD", "GDr", "CQ", "Q"])

const CASES: Record<string, Case> = {
  G5d: {
    what: "sign-in POST /auth/callback/credentials, default config (rate limits on, memory store)",
    ops: 500,
    setup: () => signInCase(defaultConfig()),
  },
  G5: {
    what: "sign-in, rateLimit: false (bench/run.ts's like-for-like G5)",
    ops: 500,
    setup: () => signInCase(noLimitConfig()),
  },
  G5a: {
    what: "sign-in, default config, client address from X-Forwarded-For (two keys counted)",
    ops: 500,
    setup: () =>
      signInCase(defaultConfig({ rateLimit: { clientAddress: { header: "x-forwarded-for" } } }), {
        "x-forwarded-for": "203.0.113.7",
      }),
  },
  G1: {
    what: "session check GET /auth/session, valid JWT cookie, default config",
    ops: 500,
    setup: async () => {
      const handle = gatehouse(defaultConfig())
      const { sessionCookie } = await signInFlow(handle)
      return () => op(handle, get("/auth/session", sessionCookie), 200, USER.email)
    },
  },
  G1r: {
    what: "session check GET /auth/session, valid JWT cookie, session.revocation on (memory store, 1 s cache)",
    ops: 500,
    setup: async () => {
      const handle = gatehouse(defaultConfig({ session: { revocation: true } }))
      const { sessionCookie } = await signInFlow(handle)
      return () => op(handle, get("/auth/session", sessionCookie), 200, USER.email)
    },
  },
  G3: {
    what: "GET /auth/csrf, no cookie, default config",
    ops: 500,
    setup: async () => {
      const handle = gatehouse(defaultConfig())
      return () => op(handle, get("/auth/csrf"), 200, "csrfToken")
    },
  },
  C: {
    what: "reference: trivial handler, same Request as G1, JSON + Set-Cookie",
    ops: 500,
    setup: async () => {
      const { sessionCookie } = await signInFlow(gatehouse(noLimitConfig()))
      return () => op(ceilingHandler, get("/auth/session", sessionCookie), 200, USER.email)
    },
  },
  F: {
    what: "reference: node:crypto JWE decrypt + re-encrypt",
    ops: 500,
    setup: async () => {
      const { token } = await signInFlow(gatehouse(noLimitConfig()))
      const jwe = nodeCryptoJwe(SECRET)
      return async () => jwe.encrypt(jwe.decrypt(token as string))
    },
  },
  C5: {
    what: "reference: trivial sign-in handler, same POST as G5, body read, 302 + Set-Cookie",
    ops: 500,
    setup: async () => {
      const flow = await signInFlow(gatehouse(noLimitConfig()))
      return () => op(signInCeilingHandler, flow.signInRequest(), 302)
    },
  },
  F5: {
    what: "reference: node:crypto JWE encrypt + CSRF SHA-256",
    ops: 500,
    setup: async () => {
      const { csrfToken } = await signInFlow(gatehouse(noLimitConfig()))
      const jwe = nodeCryptoJwe(SECRET)
      return async () => [jwe.encrypt({ name: USER.name, email: USER.email, sub: USER.id }), csrfHash(csrfToken)]
    },
  },
  GD: {
    what: "database session check GET /auth/session, gatehouse/adapters/postgres on a pg Pool (DATABASE_URL)",
    ops: 3000,
    setup: async () => {
      const { pool, cookie } = await databaseSetup()
      const handle = gatehouse(defaultConfig({ adapter: PostgresAdapter(pool), session: { strategy: "database" } }))
      return () => op(handle, get("/auth/session", cookie), 200, USER.email)
    },
  },
  GDr: {
    what: "database session read in an app route: gatehouse/node getSession(req), no web Request or Response (DATABASE_URL)",
    ops: 3000,
    setup: async () => {
      const { pool, cookie } = await databaseSetup()
      const config = defaultConfig({ adapter: PostgresAdapter(pool), session: { strategy: "database" } })
      const req = { headers: { host: "localhost:3000", cookie }, socket: null } as unknown as IncomingMessage
      return async () => check((await nodeGetSession(req, config))?.user?.email === USER.email, "route session")
    },
  },
  CQ: {
    what: "reference: the same query in a trivial handler (cookie in, SESSION_SQL, no-store JSON out)",
    ops: 3000,
    setup: async () => {
      const { cookie, lookup } = await databaseSetup()
      const handle = queryCeilingHandler(lookup)
      return () => op(handle, get("/auth/session", cookie), 200, USER.email)
    },
  },
  Q: {
    what: "reference: the one SQL query alone, same pool",
    ops: 3000,
    setup: async () => {
      const { token, lookup } = await databaseSetup()
      return async () => check((await lookup(token))?.email === USER.email, "query row")
    },
  },
}

// ---------------------------------------------------------------- child: one case under valgrind
/**
 * Runs `fn` n times. The warm-up and the counted ops share this loop: with a loop of their own, the counted ops began
 * by deoptimising and recompiling child() (about 5 ms of TurboFan inside the count, 5,000-25,000 instructions per op
 * of the 3,000-op database cases, more or less from run to run).
 */
async function repeat(fn: () => Promise<unknown>, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await fn()
}

async function child(id: string, ops: number, warmup: number): Promise<void> {
  const c = CASES[id]
  check(c, `unknown case ${id}`)
  const fn = await c.setup()
  await repeat(fn, warmup)
  os.getPriority() // callgrind --zero-before=uv_os_getpriority
  await repeat(fn, ops)
  os.hostname() // callgrind --dump-before=uv_os_gethostname
  for (const done of afterCase) await done()
}

// ---------------------------------------------------------------- parent
const HERE = dirname(fileURLToPath(import.meta.url))
const OUT_DIR = join(HERE, "prof", "callgrind")

/** This file as one ESM bundle beside bench/ (so its packages resolve from node_modules). */
async function bundle(): Promise<string> {
  const esbuild = await import("esbuild")
  mkdirSync(OUT_DIR, { recursive: true })
  const out = join(OUT_DIR, `driver-${process.pid}.mjs`)
  await esbuild.build({
    entryPoints: [fileURLToPath(import.meta.url)],
    outfile: out,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    logLevel: "silent",
    tsconfigRaw: {},
    plugins: [
      {
        name: "crypto-node-backend",
        setup(build) {
          build.onResolve({ filter: /^#crypto$/ }, () => ({ path: join(HERE, "../src/crypto/node.ts") }))
        },
      },
    ],
  })
  return out
}

function valgrindMissing(): Promise<string | undefined> {
  return new Promise((resolve) => {
    const p = spawn("valgrind", ["--version"], { stdio: ["ignore", "pipe", "ignore"] })
    p.on("error", () => resolve("valgrind is not installed"))
    p.on("exit", (code) => resolve(code === 0 ? undefined : `valgrind --version exited with ${code}`))
  })
}

/** Runs one case under callgrind; the measured instructions per op net of compiling, and compiling's. */
async function measureCase(
  driver: string,
  id: string,
  ops: number,
  warmup: number,
): Promise<{ perOp: number; compilerPerOp: number }> {
  const base = join(OUT_DIR, `cg.${id}.${process.pid}`)
  const argv = [
    "--tool=callgrind",
    `--callgrind-out-file=${base}`,
    "--zero-before=uv_os_getpriority",
    "--dump-before=uv_os_gethostname",
    "--dump-instr=no",
    "--compress-strings=yes",
    process.execPath,
    // Every V8 thread's work on the main thread, so the JIT and GC run at the same op in every run, and functions
    // tier up after a tenth of the usual work, so a short warm-up leaves no compilation in the measured ops.
    "--single-threaded",
    "--interrupt-budget=10000",
    driver,
    `--child=${id}`,
    `--ops=${ops}`,
    `--warmup=${warmup}`,
  ]
  const stderr: Buffer[] = []
  const code = await new Promise<number | null>((resolve, reject) => {
    const p = spawn("valgrind", argv, { stdio: ["ignore", "inherit", "pipe"] })
    p.stderr.on("data", (d: Buffer) => stderr.push(d))
    p.on("error", reject)
    p.on("exit", resolve)
  })
  if (code !== 0) throw new Error(`case ${id}: valgrind exited with ${code}\n${Buffer.concat(stderr).toString()}`)
  const dump = readFileSync(`${base}.1`, "utf8")
  rmSync(`${base}.1`, { force: true })
  rmSync(base, { force: true })
  const total = /^(?:summary|totals): (\d+)/m.exec(dump)?.[1]
  check(total, `case ${id}: no totals in the callgrind dump`)
  const compiler = optimizingCompilerCost(dump)
  return { perOp: (Number(total) - compiler) / ops, compilerPerOp: compiler / ops }
}

/**
 * The instructions a callgrind dump spent compiling: the inclusive cost of V8's runtime calls that compile a function
 * (Runtime_CompileOptimized, where --single-threaded runs TurboFan's whole job, and Runtime_CompileLazy). V8 optimises
 * and deoptimises some of pg's and Node's stream functions again well after any warm-up (the bare query Q: 5,000 to
 * 28,000 instructions per op of compilation, run to run, around ~110,000 of work that repeats), so the counts are
 * taken without it: what a request costs once its code is compiled. With --compress-strings=yes a function is named
 * once as `fn=(id) name` (or `cfn=`), then `(id)` alone; the cost line after a `calls=` line is the callee's
 * inclusive cost.
 */
function optimizingCompilerCost(dump: string): number {
  const names = new Map<string, string>()
  const nameOf = (ref: string): string => {
    const m = /^\((\d+)\)(?: (.*))?$/.exec(ref)
    if (!m?.[1]) return ref
    if (m[2] !== undefined) names.set(m[1], m[2])
    return names.get(m[1]) ?? ""
  }
  const COMPILE = /^v8::internal::Runtime_Compile(?:Optimized|Lazy)\b/
  let caller = ""
  let callee = ""
  let afterCall = false
  let cost = 0
  for (const line of dump.split("\n")) {
    if (line.startsWith("fn=")) caller = nameOf(line.slice(3))
    else if (line.startsWith("cfn=")) callee = nameOf(line.slice(4))
    else if (line.startsWith("calls=")) afterCall = true
    else if (afterCall && /^[0-9+*-]/.test(line)) {
      afterCall = false
      if (COMPILE.test(callee) && !COMPILE.test(caller)) cost += Number(line.split(" ")[1] ?? 0)
    }
  }
  return cost
}

/** Instructions per op of each case, measured `jobs` at a time. */
async function countInstructions(
  ids: readonly string[],
  options: { ops?: number; warmup?: number; jobs?: number } = {},
): Promise<Map<string, { perOp: number; compilerPerOp: number }>> {
  for (const id of ids) check(CASES[id], `unknown case ${id}; cases: ${Object.keys(CASES).join(", ")}`)
  const driver = await bundle()
  const results = new Map<string, { perOp: number; compilerPerOp: number }>()
  const queue = [...ids]
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      const ops = options.ops ?? (CASES[id] as Case).ops
      results.set(id, await measureCase(driver, id, ops, options.warmup ?? 1500))
    }
  }
  try {
    await Promise.all(Array.from({ length: Math.max(1, options.jobs ?? 2) }, worker))
  } finally {
    rmSync(driver, { force: true })
  }
  return new Map(ids.map((id) => [id, results.get(id) as { perOp: number; compilerPerOp: number }]))
}

function flags(argv: readonly string[]): Map<string, string> {
  const out = new Map<string, string>()
  for (const arg of argv) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(arg)
    if (!m?.[1]) throw new Error(`unknown argument ${arg}`)
    out.set(m[1], m[2] ?? "true")
  }
  return out
}

const fmt = (x: number) => Math.round(x).toLocaleString("en-US")

async function main(): Promise<void> {
  const args = flags(process.argv.slice(2))
  const childId = args.get("child")
  if (childId) return child(childId, Number(args.get("ops")), Number(args.get("warmup")))
  const missing = await valgrindMissing()
  if (missing) {
    console.error(`bench/callgrind.ts: ${missing}; nothing measured.`)
    process.exit(3)
  }
  const defaults = Object.keys(CASES).filter((id) => process.env.DATABASE_URL || !DATABASE_CASES.has(id))
  const ids = (args.get("cases") ?? defaults.join(",")).split(",").filter(Boolean)
  const ops = args.has("ops") ? Number(args.get("ops")) : undefined
  const warmup = args.has("warmup") ? Number(args.get("warmup")) : undefined
  const started = Date.now()
  const measured = await countInstructions(ids, { ops, warmup, jobs: Number(args.get("jobs") ?? 2) })
  const counts = new Map([...measured].map(([id, m]) => [id, m.perOp]))
  if (args.has("json")) {
    console.log(JSON.stringify({ node: process.version, selftest: SELFTEST, cases: Object.fromEntries(counts) }))
    return
  }
  const lines = [
    `Node ${process.version}, instructions per op (callgrind Ir, all threads), net of JIT compilation${SELFTEST ? ", GATEHOUSE_GUARD_SELFTEST on" : ""}`,
    "",
    "| id | case | instructions/op | compiling/op (left out) |",
    "|---|---|---:|---:|",
    ...ids.map(
      (id) =>
        `| ${id} | ${(CASES[id] as Case).what} | ${fmt(counts.get(id) as number)} | ${fmt(measured.get(id)?.compilerPerOp ?? 0)} |`,
    ),
  ]
  const ratio = (a: string, ...b: string[]) =>
    counts.has(a) && b.every((x) => counts.has(x))
      ? (counts.get(a) as number) / b.reduce((s, x) => s + (counts.get(x) as number), 0)
      : undefined
  const rows: [string, number | undefined, string][] = [
    ["sign-in, default config ÷ (C5 + F5)", ratio("G5d", "C5", "F5"), "<= 1.5"],
    ["sign-in, rateLimit false ÷ (C5 + F5)", ratio("G5", "C5", "F5"), "—"],
    ["rate limiter's share of a sign-in (G5d ÷ G5 − 1)", ratio("G5d", "G5"), "<= 5 %"],
    ["same with a client address (G5a ÷ G5 − 1)", ratio("G5a", "G5"), "—"],
    ["session check ÷ (C + F)", ratio("G1", "C", "F"), "<= 1.5"],
    ["/csrf ÷ trivial handler C", ratio("G3", "C"), "<= 1.2"],
    ["database session check ÷ its ceiling CQ", ratio("GD", "CQ"), "<= 1.11 (>= 90 % of CQ's rate)"],
    ["database session read in a route (GDr) ÷ the query alone Q", ratio("GDr", "Q"), "<= 1.11 (>= 90 % of Q's rate)"],
    ["ceiling CQ ÷ the query alone Q", ratio("CQ", "Q"), "—"],
  ]
  const shown = rows.filter(([, r]) => r !== undefined)
  if (shown.length) {
    lines.push("", "| ratio | by instructions | target |", "|---|---:|---|")
    for (const [what, r, target] of shown) {
      const v = what.includes("− 1")
        ? `${((r as number) - 1) * 100 >= 0 ? "+" : ""}${(((r as number) - 1) * 100).toFixed(1)} %`
        : (r as number).toFixed(2)
      lines.push(`| ${what} | ${v} | ${target} |`)
    }
  }
  lines.push("", `(${((Date.now() - started) / 1000).toFixed(0)} s)`)
  console.log(lines.join("\n"))
}

await main()
