// Gatehouse vs @auth/core in one process: interleaved rounds, ops/s, p50/p99 latency, CPU µs/op, ratios
// and the target checks. Method and latest results: docs/performance.md.
//
//   npm run bench                    # full run, ~6 min on 2 cores (then the over-HTTP cases); --help lists the options
//   npm run bench -- --quick         # smoke run, ~1.5 min
//   npm run bench -- --profile       # --cpu-prof of Gatehouse case 1 in a child process + self-time summary
//   npm run bench -- --profile=G1u   # same for another measurement id (G1u, G2 ... G5, A1 ...)
//   npm run bench -- --analyze=FILE.cpuprofile   # summarise a profile written by --profile again
//   npm run bench -- --http-only     # only the over-HTTP cases (bench/http.ts); --no-http skips them
//   npm run bench -- --runtime=edge  # the session check inside edge-runtime, workerd, bun or deno (bench/runtimes.ts)
// Options: --rounds=3 --duration=2500 --warmup=500 (ms per measurement); --dist[=DIR] loads Gatehouse from
// the tsc build (default ../dist; run `npm run build` first) instead of ../src. tsx transpiles with esbuild
// (types stripped, plus a ~0.4 µs/op __name() helper for closures made per request), and src under tsx,
// dist under tsx and dist under plain node measured the same within noise (docs/performance.md), so
// `npm run bench` runs src directly. --busy-neighbor keeps the other vCPU busy with a spinning child
// process while measuring (see "VM wake-up latency" in docs/performance.md).
//
// Method. Every op builds a new Request, awaits the library's Auth(), reads the body with res.text() and
// checks the status (and the e-mail in the body for the session cases), so nothing is optimised away.
// One op is in flight at a time. Before round 1 every measurement is pre-warmed once (JIT); each then gets
// its own warm-up, a forced GC, and a timed window. In each round the two libraries' measurements of a case
// run back to back, Gatehouse first in even rounds and @auth/core first in odd rounds. Ratios are taken
// inside a round (adjacent in time, same process) and the median over rounds is reported; the table shows
// medians too. CPU µs/op is process.cpuUsage() (user+sys, all threads incl. the libuv pool) ÷ ops.
import { spawn } from "node:child_process"
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import os from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import v8 from "node:v8"
import vm from "node:vm"
import { Auth as AuthJs } from "@auth/core"
import AuthJsCredentials from "@auth/core/providers/credentials"
import type { AuthConfig } from "../src/index.js"
import { benchOptionsOrExit } from "./options.js"
import { kitSessionRead } from "./sveltekit.js"
import {
  type Handler,
  MAX_AGE,
  SECRET,
  SESSION_COOKIE,
  USER,
  ceilingHandler,
  check,
  csrfHash,
  get,
  nodeCryptoJwe,
  op,
  signInCeilingHandler,
  signInFlow,
} from "./reference.js"

// ---------------------------------------------------------------- options and libraries
const args = benchOptionsOrExit(process.argv.slice(2))
if (args.has("peers")) {
  // --peers: Gatehouse, @auth/core and better-auth side by side (bench/peers.ts), nothing below.
  const { runPeers } = await import("./peers.js")
  process.exit(await runPeers(args))
}
if ((args.get("runtime") ?? "node") !== "node") {
  // --runtime=edge|workerd|bun|deno: the session check inside that runtime (bench/runtimes.ts), nothing below.
  const { runInRuntime } = await import("./runtimes.js")
  const dist = args.get("dist")
  await runInRuntime(args.get("runtime") as Parameters<typeof runInRuntime>[0], {
    rounds: Number(args.get("rounds") ?? 3),
    durationMs: Number(args.get("duration") ?? (args.has("quick") ? 200 : 2500)),
    warmupMs: Number(args.get("warmup") ?? (args.has("quick") ? 80 : 500)),
    distDir: dist === undefined || dist === "true" ? fileURLToPath(new URL("../dist/", import.meta.url)) : dist,
  })
  process.exit(0)
}
const QUICK = args.has("quick")
const ROUNDS = Number(args.get("rounds") ?? 3)
const DURATION_MS = Number(args.get("duration") ?? (QUICK ? 200 : 2500))
const WARMUP_MS = Number(args.get("warmup") ?? (QUICK ? 80 : 500))
const PREWARM_MS = QUICK ? 100 : 300
const SELF = fileURLToPath(import.meta.url)
const LOAD_AT_START = os.loadavg()[0]?.toFixed(2)
if (Number(LOAD_AT_START) > 0.5)
  console.error(
    `warning: load average ${LOAD_AT_START} > 0.5 at start: another process shares the cores; ratios will be low.`,
  )
const WINDOW_FILE = join(os.tmpdir(), "gatehouse-bench-window.json")

const USE_DIST = args.has("dist")
const DIST_DIR =
  args.get("dist") === "true" || !USE_DIST
    ? new URL("../dist/", import.meta.url)
    : pathToFileURL(`${resolve(args.get("dist") as string)}/`)
const gatehouseUrl = (p: string) =>
  (USE_DIST ? new URL(`${p}.js`, DIST_DIR) : new URL(`../src/${p}.js`, import.meta.url)).href
const { Auth: GatehouseAuth } = (await import(gatehouseUrl("index"))) as typeof import("../src/index.js")
const { default: Credentials } = (await import(
  gatehouseUrl("providers/credentials")
)) as typeof import("../src/providers/credentials.js")
const { MemoryAdapter } = (await import(gatehouseUrl("adapters/memory"))) as typeof import("../src/adapters/memory.js")
const { PostgresAdapter, migrate } = (await import(
  gatehouseUrl("adapters/postgres")
)) as typeof import("../src/adapters/postgres.js")
const { PGlite } = await import("@electric-sql/pglite")

// A forced GC before each timed window (allowed without --expose-gc via the V8 flag + a fresh context).
let gc: () => void = () => {}
try {
  v8.setFlagsFromString("--expose_gc")
  gc = vm.runInNewContext("gc") as () => void
} catch {
  /* no forced GC */
}

// ---------------------------------------------------------------- configs (same requests for both libraries)

// rateLimit off: @auth/core has no limiter, so both sides do the same work (and CR-01 makes many failed attempts).
const gatehouseConfig = (extra: Partial<AuthConfig> = {}): AuthConfig => ({
  secret: SECRET,
  trustHost: true,
  basePath: "/auth",
  rateLimit: false,
  providers: [Credentials({ authorize: async () => ({ ...USER }) })],
  ...extra,
})
const ghConfig = gatehouseConfig()
// What users get: the default config, rate limits on (the memory store). The "d" rows; the targets are read on them.
const { rateLimit: _off, ...ghDefaultConfig } = gatehouseConfig()
const ghConfigEveryRead = gatehouseConfig({ session: { updateAge: 0 } }) // case 1u: re-encrypt + Set-Cookie on every read
const ajConfig = {
  secret: SECRET,
  trustHost: true,
  basePath: "/auth",
  providers: [AuthJsCredentials({ authorize: async () => ({ ...USER }) })],
}

// Database strategy (cases 6 and 7): each library gets its own adapter instance of the same class, a user and a
// session row 30 days ahead (so neither library writes on a read). @auth/core selects "database" because an adapter
// is set (an explicit strategy with only credentials providers is refused by its assertConfig).
type AnyAdapter = NonNullable<AuthConfig["adapter"]>
async function seedSession(adapter: AnyAdapter): Promise<string> {
  const user = await adapter.createUser!({
    id: crypto.randomUUID(),
    email: USER.email,
    emailVerified: null,
    name: USER.name,
  })
  const sessionToken = crypto.randomUUID()
  await adapter.createSession!({ sessionToken, userId: user.id, expires: new Date(Date.now() + MAX_AGE * 1000) })
  return `${SESSION_COOKIE}=${sessionToken}`
}
const memoryGh = MemoryAdapter(),
  memoryAj = MemoryAdapter()
const pgGh = new PGlite(),
  pgAj = new PGlite()
await migrate(pgGh)
await migrate(pgAj)
const pgliteGh = PostgresAdapter(pgGh),
  pgliteAj = PostgresAdapter(pgAj)
const dbConfig = (adapter: AnyAdapter) => gatehouseConfig({ adapter })
const ajDbConfig = (adapter: AnyAdapter) => ({ ...ajConfig, adapter: adapter as never })
const ghMemoryConfig = dbConfig(memoryGh),
  ghPgliteConfig = dbConfig(pgliteGh)
const ajMemoryConfig = ajDbConfig(memoryAj),
  ajPgliteConfig = ajDbConfig(pgliteAj)

const gatehouse: Handler = (r) => GatehouseAuth(r, ghConfig)
const gatehouseDefault: Handler = (r) => GatehouseAuth(r, ghDefaultConfig)
// The limiter's control: a second config identical to G5's, measured against G5 as G5d is, so the report shows how
// far two equal sign-ins scatter in the paired measurement.
const ghTwinConfig = gatehouseConfig()
const gatehouseTwin: Handler = (r) => GatehouseAuth(r, ghTwinConfig)
// The default config with session.revocation on (memory store, its 1 s cache of "not revoked" answers).
const ghRevocationConfig = { ...ghDefaultConfig, session: { ...ghDefaultConfig.session, revocation: true } }
const gatehouseRevocation: Handler = (r) => GatehouseAuth(r, ghRevocationConfig)
// CR-01: one user exists; an unknown e-mail and a wrong password both end in authorize returning null.
const ghCr01Config = gatehouseConfig({
  providers: [
    Credentials({
      authorize: async (c: Record<string, unknown>) =>
        c.email === USER.email && c.password === "pw" ? { ...USER } : null,
    }),
  ],
})
const gatehouseCr01: Handler = (r) => GatehouseAuth(r, ghCr01Config)
const gatehouseEveryRead: Handler = (r) => GatehouseAuth(r, ghConfigEveryRead)
const authjs: Handler = (r) => AuthJs(r, ajConfig)

// ---------------------------------------------------------------- measurements
interface Measurement {
  id: string
  lib: string
  what: string
  fn: () => Promise<unknown>
}
interface Sample {
  ops: number
  opsPerSec: number
  meanUs: number
  p50us: number
  p99us: number
  cpuUsPerOp: number
  t0us: number
  t1us: number
}

async function buildMeasurements(): Promise<{
  groups: Measurement[][]
  byId: Map<string, Measurement>
  twinSignIn: () => Promise<unknown>
}> {
  const gh = await signInFlow(gatehouse)
  const ghd = await signInFlow(gatehouseDefault)
  const twin = await signInFlow(gatehouseTwin)
  const twinSignIn = async () => signedIn(await op(gatehouseTwin, twin.signInRequest(), 302))
  const ghr = await signInFlow(gatehouseRevocation)
  const aj = await signInFlow(authjs)
  const jwe = nodeCryptoJwe(SECRET)
  // Sanity checks outside timing: the floor opens both libraries' tokens, and both libraries accept its output.
  for (const t of [gh.token, aj.token]) check(jwe.decrypt(t).email === USER.email, "floor decrypts the library tokens")
  const floorCookie = `${SESSION_COOKIE}=${jwe.encrypt(jwe.decrypt(aj.token))}`
  for (const h of [gatehouse, authjs]) await op(h, get("/auth/session", floorCookie), 200, USER.email)
  const u = await op(gatehouseEveryRead, get("/auth/session", gh.sessionCookie), 200, USER.email)
  check(u.headers.getSetCookie().length === 1, "case 1u re-issues the cookie")
  const d = await op(gatehouse, get("/auth/session", gh.sessionCookie), 200, USER.email)
  check(d.headers.getSetCookie().length === 0, "case 1 (default updateAge) does not re-issue the cookie")

  const cookies = {
    ghMemory: await seedSession(memoryGh),
    ajMemory: await seedSession(memoryAj),
    ghPglite: await seedSession(pgliteGh),
    ajPglite: await seedSession(pgliteAj),
  }
  const ghMemory: Handler = (r) => GatehouseAuth(r, ghMemoryConfig),
    ajMemory: Handler = (r) => AuthJs(r, ajMemoryConfig)
  const ghPglite: Handler = (r) => GatehouseAuth(r, ghPgliteConfig),
    ajPglite: Handler = (r) => AuthJs(r, ajPgliteConfig)
  for (const [h, c] of [
    [ghMemory, cookies.ghMemory],
    [ajMemory, cookies.ajMemory],
    [ghPglite, cookies.ghPglite],
    [ajPglite, cookies.ajPglite],
  ] as const) {
    await op(h, get("/auth/session", c), 200, USER.email)
  }

  const signedIn = (r: Response) =>
    check(
      r.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=ey`)),
      "sign-in cookie",
    )
  const G = "Gatehouse",
    A = "@auth/core",
    R = "reference"
  // Case S: SvelteKit's locals.auth() on a cookie @auth/sveltekit minted (bench/sveltekit.ts).
  const kit = await kitSessionRead({ origin: "http://localhost:3000", secret: SECRET, user: USER })
  for (const read of [kit.gatehouse, kit.authjs]) check((await read()) === USER.email, "SvelteKit locals.auth()")
  const groups: Measurement[][] = [
    [
      { id: "GS", lib: G, what: "SvelteKit locals.auth(), valid JWT cookie", fn: kit.gatehouse },
      { id: "AS", lib: "@auth/sveltekit", what: "SvelteKit locals.auth(), valid JWT cookie", fn: kit.authjs },
    ],
    [
      {
        id: "G1",
        lib: G,
        what: "GET /auth/session, valid JWT cookie",
        fn: () => op(gatehouse, get("/auth/session", gh.sessionCookie), 200, USER.email),
      },
      {
        id: "G1d",
        lib: G,
        what: "same, default config (rate limits on)",
        fn: () => op(gatehouseDefault, get("/auth/session", ghd.sessionCookie), 200, USER.email),
      },
      {
        id: "G1r",
        lib: G,
        what: "same, default config + session.revocation (memory store)",
        fn: () => op(gatehouseRevocation, get("/auth/session", ghr.sessionCookie), 200, USER.email),
      },
      {
        id: "G1u",
        lib: G,
        what: "same, session.updateAge: 0 (re-encrypt + Set-Cookie)",
        fn: () => op(gatehouseEveryRead, get("/auth/session", gh.sessionCookie), 200, USER.email),
      },
      {
        id: "A1",
        lib: A,
        what: "GET /auth/session, valid JWT cookie",
        fn: () => op(authjs, get("/auth/session", aj.sessionCookie), 200, USER.email),
      },
    ],
    [
      {
        id: "C",
        lib: R,
        what: "ceiling: trivial handler, same Request, JSON + Set-Cookie",
        fn: () => op(ceilingHandler, get("/auth/session", gh.sessionCookie), 200, USER.email),
      },
      {
        id: "F",
        lib: R,
        what: "floor: node:crypto decrypt + re-encrypt",
        fn: async () => jwe.encrypt(jwe.decrypt(gh.token)),
      },
      { id: "F0", lib: R, what: "floor: node:crypto decrypt only", fn: async () => jwe.decrypt(gh.token) },
    ],
    [
      {
        id: "G2",
        lib: G,
        what: "GET /auth/session, no cookie",
        fn: () => op(gatehouse, get("/auth/session"), 200, "null"),
      },
      {
        id: "A2",
        lib: A,
        what: "GET /auth/session, no cookie",
        fn: () => op(authjs, get("/auth/session"), 200, "null"),
      },
    ],
    [
      {
        id: "G3",
        lib: G,
        what: "GET /auth/csrf, no cookie",
        fn: () => op(gatehouse, get("/auth/csrf"), 200, "csrfToken"),
      },
      {
        id: "G3d",
        lib: G,
        what: "same, default config (rate limits on)",
        fn: () => op(gatehouseDefault, get("/auth/csrf"), 200, "csrfToken"),
      },
      {
        id: "A3",
        lib: A,
        what: "GET /auth/csrf, no cookie",
        fn: () => op(authjs, get("/auth/csrf"), 200, "csrfToken"),
      },
    ],
    [
      {
        id: "G4",
        lib: G,
        what: "GET /auth/providers",
        fn: () => op(gatehouse, get("/auth/providers"), 200, "credentials"),
      },
      {
        id: "A4",
        lib: A,
        what: "GET /auth/providers",
        fn: () => op(authjs, get("/auth/providers"), 200, "credentials"),
      },
    ],
    [
      {
        id: "G5",
        lib: G,
        what: "POST /auth/callback/credentials (sign-in)",
        fn: async () => signedIn(await op(gatehouse, gh.signInRequest(), 302)),
      },
      {
        id: "G5d",
        lib: G,
        what: "same, default config (rate limits on, memory store)",
        fn: async () => signedIn(await op(gatehouseDefault, ghd.signInRequest(), 302)),
      },
      {
        id: "A5",
        lib: A,
        what: "POST /auth/callback/credentials (sign-in)",
        fn: async () => signedIn(await op(authjs, aj.signInRequest(), 302)),
      },
    ],
    [
      {
        id: "C5",
        lib: R,
        what: "sign-in ceiling: trivial handler, same POST, body read, 302 + Set-Cookie",
        fn: () => op(signInCeilingHandler, gh.signInRequest(), 302),
      },
      {
        id: "F5",
        lib: R,
        what: "sign-in floor: node:crypto JWE encrypt + CSRF SHA-256",
        fn: async () => [jwe.encrypt({ name: USER.name, email: USER.email, sub: USER.id }), csrfHash(gh.csrfToken)],
      },
    ],
    [
      // CR-01: an unknown user and a wrong password must cost the library the same (the app's authorize decides both
      // with null here, so any gap is Gatehouse's own). Timing belongs here, not in the test suite.
      {
        id: "CRu",
        lib: G,
        what: "CR-01 failed sign-in, unknown user",
        fn: () => op(gatehouseCr01, gh.failedSignIn("nobody@example.com"), 302),
      },
      {
        id: "CRp",
        lib: G,
        what: "CR-01 failed sign-in, wrong password",
        fn: () => op(gatehouseCr01, gh.failedSignIn(USER.email), 302),
      },
    ],
    [
      {
        id: "G6",
        lib: G,
        what: "GET /auth/session, database strategy, memory adapter",
        fn: () => op(ghMemory, get("/auth/session", cookies.ghMemory), 200, USER.email),
      },
      {
        id: "A6",
        lib: A,
        what: "GET /auth/session, database strategy, memory adapter",
        fn: () => op(ajMemory, get("/auth/session", cookies.ajMemory), 200, USER.email),
      },
    ],
    [
      {
        id: "G7",
        lib: G,
        what: "GET /auth/session, database strategy, postgres adapter on PGlite",
        fn: () => op(ghPglite, get("/auth/session", cookies.ghPglite), 200, USER.email),
      },
      {
        id: "A7",
        lib: A,
        what: "GET /auth/session, database strategy, postgres adapter on PGlite",
        fn: () => op(ajPglite, get("/auth/session", cookies.ajPglite), 200, USER.email),
      },
    ],
  ]
  return { groups, byId: new Map(groups.flat().map((m) => [m.id, m])), twinSignIn }
}

const pct = (sorted: Float64Array, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN
function median(xs: number[]): number {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length === 0 ? NaN : s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2
}

/** Warm-up, forced GC, then a timed window of sequential ops with per-op latency (hrtime, ns). */
async function measure(fn: () => Promise<unknown>, durationMs: number, warmupMs: number): Promise<Sample> {
  const warmEnd = process.hrtime.bigint() + BigInt(warmupMs * 1e6)
  while (process.hrtime.bigint() < warmEnd) await fn()
  gc()
  let lat = new Float64Array(1 << 16)
  let n = 0
  const cpu0 = process.cpuUsage()
  const t0 = process.hrtime.bigint()
  const deadline = t0 + BigInt(Math.round(durationMs * 1e6))
  let now = t0
  while (now < deadline) {
    const start = now
    await fn()
    now = process.hrtime.bigint()
    if (n === lat.length) {
      const grown = new Float64Array(n * 2)
      grown.set(lat)
      lat = grown
    }
    lat[n++] = Number(now - start)
  }
  const cpu = process.cpuUsage(cpu0)
  const elapsedNs = Number(now - t0)
  const sorted = lat.subarray(0, n).sort()
  return {
    ops: n,
    opsPerSec: n / (elapsedNs / 1e9),
    meanUs: elapsedNs / n / 1e3,
    p50us: pct(sorted, 50) / 1e3,
    p99us: pct(sorted, 99) / 1e3,
    cpuUsPerOp: (cpu.user + cpu.system) / n,
    t0us: Number(t0 / 1000n),
    t1us: Number(now / 1000n),
  }
}

/** Ops per block of {@link measurePair}: about 15 ms of sign-ins, several scavenges of the block's own garbage each. */
const PAIR_BLOCK_OPS = 500

/**
 * Two close cases measured together: after both warm up, blocks of PAIR_BLOCK_OPS ops of each alternate (which one
 * leads swaps every pair) for twice the window; each one's mean µs per op over its blocks. Two separate windows
 * seconds apart see different neighbours on this VM (per-round G5d ÷ G5 from 0.98 to 1.15 in one run); blocks
 * milliseconds apart see the same, so a difference of a few per cent can be read.
 */
async function measurePair(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  durationMs: number,
  warmupMs: number,
): Promise<{ aUs: number; bUs: number }> {
  const warmEnd = process.hrtime.bigint() + BigInt(warmupMs * 1e6)
  while (process.hrtime.bigint() < warmEnd) {
    await a()
    await b()
  }
  gc()
  const spent = [0n, 0n]
  const ops = [0, 0]
  const deadline = process.hrtime.bigint() + BigInt(Math.round(2 * durationMs * 1e6))
  for (let turn = 0; process.hrtime.bigint() < deadline; turn++) {
    for (const which of turn % 2 === 0 ? [0, 1] : [1, 0]) {
      const fn = which === 0 ? a : b
      const t0 = process.hrtime.bigint()
      for (let i = 0; i < PAIR_BLOCK_OPS; i++) await fn()
      spent[which]! += process.hrtime.bigint() - t0
      ops[which]! += PAIR_BLOCK_OPS
    }
  }
  return { aUs: Number(spent[0]) / ops[0]! / 1e3, bUs: Number(spent[1]) / ops[1]! / 1e3 }
}

// ---------------------------------------------------------------- report
const fmt = (x: number, d = 0) =>
  Number.isFinite(x) ? x.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d }) : "—"
const verdict = (ok: boolean) => (ok ? "**met**" : "**NOT met**")

function report(
  results: Map<string, Sample[]>,
  byId: Map<string, Measurement>,
  limiterPairs: { aUs: number; bUs: number }[],
  twinPairs: { aUs: number; bUs: number }[] = [],
): string {
  const rounds = (id: string) => results.get(id) ?? []
  const med = (id: string, k: keyof Sample) => median(rounds(id).map((s) => s[k]))
  /** Median over rounds of a per-round ratio f(round's samples). */
  const perRound = (f: (get: (id: string) => Sample) => number) =>
    Array.from({ length: ROUNDS }, (_, r) => f((id) => rounds(id)[r] as Sample))
  const lines = [
    `Node ${process.version}, ${os.cpus().length} x ${os.cpus()[0]?.model ?? "?"}, Gatehouse from ${USE_DIST ? `${fileURLToPath(DIST_DIR)} (tsc build)` : "src/ (tsx)"}; ` +
      `${args.has("busy-neighbor") ? "busy neighbor ON; " : ""}` +
      `${ROUNDS} rounds, ${DURATION_MS} ms per measurement after ${WARMUP_MS} ms warm-up; medians over rounds. ` +
      `Load average at start ${LOAD_AT_START}, at end ${os.loadavg()[0]?.toFixed(2)} (the end value includes this run's own core, about 1; other processes on the machine skew wall times, CPU µs/op less so).` +
      (Number(LOAD_AT_START) > 0.5
        ? "\n\n**WARNING: load average above 0.5: another process shares the 2 cores; ratios can fall by half. Re-run on an idle machine.**"
        : ""),
    "",
    "| id | library | case | ops/s | p50 µs | p99 µs | CPU µs/op | ops/s per round |",
    "|---|---|---|---:|---:|---:|---:|---|",
  ]
  for (const [id, m] of byId) {
    lines.push(
      `| ${id} | ${m.lib} | ${m.what} | ${fmt(med(id, "opsPerSec"))} | ${fmt(med(id, "p50us"), 1)} | ${fmt(med(id, "p99us"), 1)} | ` +
        `${fmt(med(id, "cpuUsPerOp"), 1)} | ${rounds(id)
          .map((s) => fmt(s.opsPerSec))
          .join(" / ")} |`,
    )
  }
  // Gatehouse ops/s ÷ @auth/core ops/s inside each round; and the CPU-time version (@auth/core CPU/op ÷ Gatehouse CPU/op).
  const speedup = (g: string, a: string) => ({
    wall: perRound((s) => s(g).opsPerSec / s(a).opsPerSec),
    cpu: perRound((s) => s(a).cpuUsPerOp / s(g).cpuUsPerOp),
  })
  const ratioRows: [string, string, string][] = [
    ["1", "G1", "A1"],
    ["1d", "G1d", "A1"],
    ["1r", "G1r", "A1"],
    ["1u", "G1u", "A1"],
    ["2", "G2", "A2"],
    ["3", "G3", "A3"],
    ["3d", "G3d", "A3"],
    ["4", "G4", "A4"],
    ["5", "G5", "A5"],
    ["5d", "G5d", "A5"],
    ["6", "G6", "A6"],
    ["7", "G7", "A7"],
    ["S", "GS", "AS"],
  ]
  lines.push(
    "",
    "| case | Gatehouse ÷ @auth/core (ops/s) | same by CPU µs/op | per round (ops/s) |",
    "|---|---:|---:|---|",
  )
  const ratio: Record<string, number> = {}
  for (const [label, g, a] of ratioRows) {
    const r = speedup(g, a)
    ratio[label] = median(r.wall)
    lines.push(
      `| ${label} ${byId.get(g)?.what ?? ""} | ${fmt(ratio[label] as number, 1)}x | ${fmt(median(r.cpu), 1)}x | ${r.wall.map((x) => fmt(x, 1)).join(" / ")} |`,
    )
  }
  // Ceiling cost per op = trivial handler (C) + node:crypto decrypt + re-encrypt (F), per round; wall mean µs/op.
  const ceiling = perRound((s) => s("C").meanUs + s("F").meanUs)
  const overCeiling = (id: string, floor = "F") =>
    median(perRound((s) => s(id).meanUs / (s("C").meanUs + s(floor).meanUs)))
  const overCeilingCpu = (id: string) =>
    median(perRound((s) => s(id).cpuUsPerOp / (s("C").cpuUsPerOp + s("F").cpuUsPerOp)))
  const c1 = overCeiling("G1")
  // Sign-in ceiling: trivial sign-in handler (C5) + one JWE encrypt and one CSRF hash (F5).
  // Read on the default-config row (rate limits on); G5 (rateLimit false) is the like-for-like info row.
  const signInOverCeilingOf = (id: string) => median(perRound((s) => s(id).meanUs / (s("C5").meanUs + s("F5").meanUs)))
  const signInOverCeiling = signInOverCeilingOf("G5d")
  const limiterShares = limiterPairs.map((p) => p.bUs / p.aUs - 1)
  const limiterShare = median(limiterShares)
  const signInOverCeilingCpu = median(perRound((s) => s("G5d").cpuUsPerOp / (s("C5").cpuUsPerOp + s("F5").cpuUsPerOp)))
  const overTrivial = (id: string) => median(perRound((s) => s(id).meanUs / s("C").meanUs))
  const cr01Gap = median(
    perRound((s) => Math.abs(s("CRu").p50us - s("CRp").p50us) / Math.min(s("CRu").p50us, s("CRp").p50us)),
  )
  lines.push(
    "",
    `Ceiling: trivial handler ${fmt(med("C", "meanUs"), 1)} µs/op + node:crypto floor ${fmt(med("F", "meanUs"), 1)} µs/op = ${fmt(median(ceiling), 1)} µs/op ` +
      `(floor decrypt-only F0: ${fmt(med("F0", "meanUs"), 1)} µs/op). Gatehouse case 1: ${fmt(med("G1", "meanUs"), 1)} µs/op, case 1u: ${fmt(med("G1u", "meanUs"), 1)} µs/op (wall mean).`,
    "",
    "| target check | measured | target | result |",
    "|---|---:|---|---|",
    `| JWT session check (case 1) Gatehouse ÷ @auth/core | ${fmt(ratio["1"] as number, 1)}x | >= 15x (aim 20x) | ${verdict((ratio["1"] as number) >= 15)}${(ratio["1"] as number) >= 20 ? ", aim reached" : ""} |`,
    `| same with updateAge 0 (case 1u, re-encrypt every read, like-for-like) | ${fmt(ratio["1u"] as number, 1)}x | (>= 15x) | ${verdict((ratio["1u"] as number) >= 15)} |`,
    `| Gatehouse case 1 cost/op ÷ ceiling (C + F) cost/op | ${fmt(c1, 2)} (CPU: ${fmt(overCeilingCpu("G1"), 2)}) | <= 1.5 | ${verdict(c1 <= 1.5)} |`,
    `| Gatehouse case 1u cost/op ÷ ceiling (C + F) | ${fmt(overCeiling("G1u"), 2)} (CPU: ${fmt(overCeilingCpu("G1u"), 2)}) | (<= 1.5) | ${verdict(overCeiling("G1u") <= 1.5)} |`,
    `| Gatehouse case 1 ÷ decrypt-only ceiling (C + F0), info | ${fmt(overCeiling("G1", "F0"), 2)} | — | — |`,
    `| credentials sign-in, default config (case 5d) Gatehouse ÷ @auth/core | ${fmt(ratio["5d"] as number, 1)}x | >= 15x | ${verdict((ratio["5d"] as number) >= 15)} |`,
    `| same, rateLimit false (case 5, like-for-like), info | ${fmt(ratio["5"] as number, 1)}x | — | — |`,
    `| sign-in (5d) cost/op ÷ its ceiling (C5 ${fmt(med("C5", "meanUs"), 1)} µs + F5 ${fmt(med("F5", "meanUs"), 1)} µs) | ${fmt(signInOverCeiling, 2)} (CPU: ${fmt(signInOverCeilingCpu, 2)}) | <= 1.5 | ${verdict(signInOverCeiling <= 1.5)} |`,
    `| rate limiter's share of a sign-in (G5d ÷ G5 − 1, paired: blocks of ${PAIR_BLOCK_OPS} ops alternated; per round ${limiterShares.map((x) => fmt(x * 100, 1)).join(" / ")} %) | ${fmt(limiterShare * 100, 1)}% | <= 5% | ${verdict(limiterShare <= 0.05)} |`,
    `| control: G5 against an identical config, paired the same way (per round ${twinPairs.map((p) => fmt((p.bUs / p.aUs - 1) * 100, 1)).join(" / ")} %), info | ${fmt((median(twinPairs.map((p) => p.bUs / p.aUs)) - 1) * 100, 1)}% | — | — |`,
    `| same from the separate windows above (G5d ÷ G5 − 1), info | ${fmt((median(perRound((s) => s("G5d").meanUs / s("G5").meanUs)) - 1) * 100, 1)}% | — | — |`,
    `| sign-in, rateLimit false (5) ÷ its ceiling, info | ${fmt(signInOverCeilingOf("G5"), 2)} | — | — |`,
    `| no-cookie session (case 2) cost ÷ trivial handler C | ${fmt(overTrivial("G2"), 2)} | <= 1.2 | ${verdict(overTrivial("G2") <= 1.2)} |`,
    `| /csrf, default config (case 3d) cost ÷ trivial handler C | ${fmt(overTrivial("G3d"), 2)} | <= 1.2 | ${verdict(overTrivial("G3d") <= 1.2)} |`,
    `| /providers (case 4) cost ÷ trivial handler C | ${fmt(overTrivial("G4"), 2)} | <= 1.2 | ${verdict(overTrivial("G4") <= 1.2)} |`,
    `| CR-01 p50 gap, unknown user vs wrong password (CRu ${fmt(med("CRu", "p50us"), 1)} µs, CRp ${fmt(med("CRp", "p50us"), 1)} µs) | ${fmt(cr01Gap * 100, 1)}% | < 5% | ${verdict(cr01Gap < 0.05)} |`,
    `| no-cookie session (case 2) Gatehouse ÷ @auth/core | ${fmt(ratio["2"] as number, 1)}x | >= 3x | ${verdict((ratio["2"] as number) >= 3)} |`,
    `| database session, memory adapter (case 6) Gatehouse ÷ @auth/core | ${fmt(ratio["6"] as number, 1)}x | >= 5x | ${verdict((ratio["6"] as number) >= 5)} |`,
    `| database session, PGlite (case 7) Gatehouse ÷ @auth/core, info | ${fmt(ratio["7"] as number, 1)}x | — | — |`,
    `| SvelteKit locals.auth() (case S) gatehouse/sveltekit ÷ @auth/sveltekit | ${fmt(ratio["S"] as number, 1)}x | >= 50x | ${verdict((ratio["S"] as number) >= 50)} |`,
  )
  return lines.join("\n")
}

// ---------------------------------------------------------------- CPU profile (--profile / --analyze)
interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}

/** Self time by function, and "owner" time: each sample charged to the innermost Gatehouse frame on its stack. */
function analyze(file: string): string {
  const prof = JSON.parse(readFileSync(file, "utf8")) as {
    nodes: ProfileNode[]
    startTime: number
    samples: number[]
    timeDeltas: number[]
  }
  const win = JSON.parse(readFileSync(WINDOW_FILE, "utf8")) as Sample & { id: string }
  const nodes = new Map(prof.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const label = ({ functionName, url, lineNumber }: ProfileNode["callFrame"]) =>
    `${functionName || "(anonymous)"}${url ? ` ${url.replace(/^.*\/(node_modules|src|dist|bench)\//, "$1/")}` : ""}` +
    (url.startsWith("node:") ? `:${lineNumber + 1}` : "") // tsx-transformed files report line 1 for everything
  const mine = (url: string) => url.startsWith(USE_DIST ? DIST_DIR.href : new URL("../src/", import.meta.url).href)
  const self = new Map<string, number>(),
    owner = new Map<string, number>()
  const add = (m: Map<string, number>, k: string, dt: number) => m.set(k, (m.get(k) ?? 0) + dt)
  let t = prof.startTime,
    busy = 0,
    idle = 0
  for (let i = 0; i < prof.samples.length; i++) {
    t += prof.timeDeltas[i] ?? 0
    const dt = prof.timeDeltas[i + 1] ?? 0
    const leaf = nodes.get(prof.samples[i] as number) as ProfileNode
    if (t < win.t0us || t > win.t1us) continue // only the timed window, not setup or warm-up
    if (leaf.callFrame.functionName === "(idle)") {
      idle += dt
      continue
    }
    busy += dt
    add(self, label(leaf.callFrame), dt)
    let who = leaf.callFrame.url.endsWith("bench/run.ts")
      ? "bench harness (run.ts)"
      : "outside Gatehouse frames (harness-owned undici/VM/GC)"
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const cf = (nodes.get(id) as ProfileNode).callFrame
      if (mine(cf.url)) {
        who = label(cf)
        break
      }
      if (cf.url.endsWith("bench/run.ts")) {
        who = "bench harness (run.ts)"
        break
      }
    }
    add(owner, who, dt)
  }
  const table = (title: string, m: Map<string, number>, n: number) => [
    `| ${title} | µs/op | % of busy |`,
    "|---|---:|---:|",
    ...[...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, dt]) => `| \`${k}\` | ${fmt(dt / win.ops, 2)} | ${fmt((100 * dt) / busy, 1)} |`),
  ]
  return [
    `Profile of ${win.id}: ${win.ops} ops at ${fmt(win.opsPerSec)} ops/s (profiler on); main thread busy ${fmt(busy / win.ops, 1)} µs/op, ` +
      `idle ${fmt((100 * idle) / (idle + busy), 1)}%; CPU all threads ${fmt(win.cpuUsPerOp, 1)} µs/op. ${file}`,
    "",
    ...table("top self-time functions", self, 25),
    "",
    ...table("inclusive, by innermost Gatehouse frame", owner, 20),
  ].join("\n")
}

async function runProfile(id: string): Promise<void> {
  const dir = join(dirname(SELF), "prof")
  mkdirSync(dir, { recursive: true })
  const before = new Set(readdirSync(dir))
  const childArgs = [
    ...process.execArgv,
    "--cpu-prof",
    `--cpu-prof-dir=${dir}`,
    "--cpu-prof-interval=200",
    SELF,
    `--profile-child=${id}`,
    `--duration=${args.get("duration") ?? (QUICK ? 2000 : 10000)}`,
    ...(USE_DIST ? [`--dist=${fileURLToPath(DIST_DIR)}`] : []),
  ]
  const code = await new Promise<number | null>((res) =>
    spawn(process.execPath, childArgs, { stdio: "inherit" }).on("exit", res),
  )
  check(code === 0, `profile child exited with ${code}`)
  // The main thread's profile is the largest new one (tsx's loader thread writes a small second profile).
  const file = readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile") && !before.has(f))
    .map((f) => join(dir, f))
    .sort((a, b) => statSync(b).size - statSync(a).size)[0]
  check(file, "no .cpuprofile written")
  console.log(analyze(file))
}

// ---------------------------------------------------------------- main
if (args.has("http-only")) {
  await runHttpCases()
} else if (args.has("analyze")) {
  console.log(analyze(args.get("analyze") as string))
} else if (args.has("profile")) {
  await runProfile(args.get("profile") === "true" ? "G1" : (args.get("profile") as string))
} else {
  const { groups, byId, twinSignIn } = await buildMeasurements()
  const child = args.get("profile-child")
  if (child) {
    // the profiled child: one measurement, window written for analyze()
    const m = byId.get(child)
    check(m, `unknown measurement id ${child}`)
    const s = await measure(m.fn, Number(args.get("duration")), 1000)
    writeFileSync(WINDOW_FILE, JSON.stringify({ id: child, ...s }))
  } else {
    const started = Date.now()
    // --busy-neighbor: a spinning child process keeps the other vCPU busy; unref'd, and killed by its handle at exit.
    const neighbor = args.has("busy-neighbor")
      ? spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" })
      : undefined
    neighbor?.unref()
    process.on("exit", () => neighbor?.kill())
    for (const m of byId.values()) await measure(m.fn, 0, PREWARM_MS) // one-time JIT pre-warm
    const results = new Map<string, Sample[]>()
    const limiterPairs: { aUs: number; bUs: number }[] = []
    const twinPairs: { aUs: number; bUs: number }[] = []
    const [g5, g5d] = [byId.get("G5"), byId.get("G5d")]
    check(g5 && g5d, "the sign-in cases G5 and G5d")
    for (let round = 0; round < ROUNDS; round++) {
      for (const group of groups) {
        for (const m of round % 2 === 0 ? group : [...group].reverse()) {
          // alternate which library goes first
          const s = await measure(m.fn, DURATION_MS, WARMUP_MS)
          results.set(m.id, [...(results.get(m.id) ?? []), s])
          console.error(
            `[round ${round + 1}/${ROUNDS}] ${m.id.padEnd(4)} ${fmt(s.opsPerSec).padStart(8)} ops/s  p50 ${fmt(s.p50us, 1).padStart(7)} µs  ` +
              `p99 ${fmt(s.p99us, 1).padStart(8)} µs  cpu ${fmt(s.cpuUsPerOp, 1)} µs/op`,
          )
        }
      }
      const pair = await measurePair(g5.fn, g5d.fn, DURATION_MS, WARMUP_MS)
      limiterPairs.push(pair)
      console.error(
        `[round ${round + 1}/${ROUNDS}] G5|G5d paired: ${fmt(pair.aUs, 1)} | ${fmt(pair.bUs, 1)} µs/op, share ${fmt((pair.bUs / pair.aUs - 1) * 100, 1)} %`,
      )
      const twinPair = await measurePair(g5.fn, twinSignIn, DURATION_MS, WARMUP_MS)
      twinPairs.push(twinPair)
      console.error(
        `[round ${round + 1}/${ROUNDS}] G5|twin paired: ${fmt(twinPair.aUs, 1)} | ${fmt(twinPair.bUs, 1)} µs/op, ${fmt((twinPair.bUs / twinPair.aUs - 1) * 100, 1)} %`,
      )
    }
    console.log(
      `\n${report(results, byId, limiterPairs, twinPairs)}\n\n(total ${fmt((Date.now() - started) / 1000, 0)} s)`,
    )
    neighbor?.kill()
    if (!args.has("no-http")) await runHttpCases()
  }
}

/** The over-HTTP cases of bench/http.ts (node:http, Express, getSession in a route), in a process of their own. */
async function runHttpCases(): Promise<void> {
  const forwarded = [`--rounds=${ROUNDS}`, ...(QUICK ? ["--quick"] : [])]
  const code = await new Promise<number | null>((res) =>
    spawn(process.execPath, [...process.execArgv, join(dirname(SELF), "http.ts"), ...forwarded], {
      stdio: "inherit",
    }).on("exit", res),
  )
  check(code === 0, `bench/http.ts exited with ${code}`)
}
