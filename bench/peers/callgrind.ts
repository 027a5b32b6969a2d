// Instructions per request of each library (`npm run bench -- --peers --peers-part=callgrind`): each case runs alone in
// `valgrind --tool=callgrind node <bundle>` (bench/peers/callgrind-child.ts bundled by esbuild, Gatehouse from src/
// with the node:crypto backend, packages from node_modules), which counts only between os.getPriority() and
// os.hostname(): `ops` requests after a warm-up. Instruction counts repeat to a fraction of a percent on a loaded
// machine, where wall-clock numbers do not; they count work, not waiting (the libuv pool's threads are included).
import { spawn } from "node:child_process"
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs"
import os from "node:os"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"

const args = process.argv.slice(2)
const QUICK = args.includes("--quick")
// The JIT should have settled before counting (bench/callgrind.ts finds that after about 1,000 ops): optimising
// compiles run on V8's helper threads, which the all-threads count includes. Run directly
// (npx tsx bench/peers/callgrind.ts --ops=N --warmup-ops=N --cases=G-S,B-S) to change them.
const opt = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3)
const OPS = Number(opt("ops") ?? (QUICK ? 300 : 2000))
const WARMUP = Number(opt("warmup-ops") ?? (QUICK ? 1000 : 2000))
const HERE = fileURLToPath(new URL("./", import.meta.url))
// Inside bench/peers/node_modules: bare imports resolve to better-auth here and to the root's packages further up.
const OUT = `${HERE}node_modules/.cache/gatehouse-callgrind/`
rmSync(OUT, { recursive: true, force: true })
mkdirSync(OUT, { recursive: true })
await build({
  entryPoints: [`${HERE}callgrind-child.ts`],
  outfile: `${OUT}child.mjs`,
  bundle: true,
  platform: "node",
  format: "esm",
  packages: "external",
  logLevel: "error",
  plugins: [
    {
      name: "crypto-seam",
      setup(b) {
        b.onResolve({ filter: /^#crypto$/ }, () => ({ path: fileURLToPath(new URL("../../src/crypto/node.ts", import.meta.url)) }))
      },
    },
  ],
})

const CASES: [string, string][] = [
  ["G-S", "Gatehouse, GET /auth/session, JWT cookie (default)"],
  ["A-S", "@auth/core, GET /auth/session, JWT cookie (default)"],
  ["B-S", "better-auth, get-session, database read (default, memory adapter)"],
  ["Bc-S", "better-auth, get-session, cookieCache on"],
  ["G-N", "Gatehouse, GET /auth/session, no cookie"],
  ["A-N", "@auth/core, GET /auth/session, no cookie"],
  ["B-N", "better-auth, get-session, no cookie"],
  ["G-Ip", "Gatehouse, credentials sign-in, password compared"],
  ["A-Ip", "@auth/core, credentials sign-in, password compared"],
  ["B-Ip", "better-auth, email sign-in, password compared, session row (memory)"],
  ["G-O", "Gatehouse, sign-out"],
  ["A-O", "@auth/core, sign-out"],
]
const only = args.find((a) => a.startsWith("--cases="))?.slice(8).split(",")
const selected = CASES.filter(([id]) => !only || only.includes(id))

async function count(id: string): Promise<number> {
  const dir = `${OUT}${id}/`
  mkdirSync(dir, { recursive: true })
  const code = await new Promise<number | null>((resolve) =>
    spawn(
      "valgrind",
      [
        "--tool=callgrind",
        `--callgrind-out-file=${dir}callgrind.out.%p`,
        "--zero-before=uv_os_getpriority",
        "--dump-before=uv_os_gethostname",
        "--dump-instr=no",
        "--compress-strings=no",
        process.execPath,
        `${OUT}child.mjs`,
        id,
        String(OPS),
        String(WARMUP),
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    ).on("exit", resolve),
  )
  if (code !== 0) throw new Error(`${id}: valgrind exited with ${code}`)
  // The dump made at os.hostname() holds the measured ops, every thread summed: the part file ".1". Its "totals:" line
  // is the part's cost; "summary:" counts from the program's start (the zeroing does not reach it). (With
  // --separate-threads=yes only the main thread's file is dumped there, so the threads are not split.)
  const part = readdirSync(dir).find((f) => /callgrind\.out\.\d+\.1$/.test(f))
  if (!part) throw new Error(`${id}: no callgrind dump at os.hostname()`)
  const totals = /^totals:\s+(\d+)/m.exec(readFileSync(`${dir}${part}`, "utf8"))
  if (!totals) throw new Error(`${id}: no totals in ${part}`)
  return Number(totals[1]) / OPS
}

const loadAtStart = os.loadavg()[0]!
const results = new Map<string, number>()
const queue = [...selected]
await Promise.all(
  [0, 1].map(async () => {
    for (let c = queue.shift(); c; c = queue.shift()) {
      const n = await count(c[0])
      results.set(c[0], n)
      console.error(`${c[0].padEnd(5)} ${(n / 1000).toFixed(0).padStart(7)} k instructions/request  ${c[1]}`)
    }
  }),
)
const k = (id: string) => results.get(id)
console.log(
  [
    `Instructions per request (valgrind callgrind, ${OPS} requests after ${WARMUP} of warm-up), node ${process.version}; load average ${loadAtStart.toFixed(2)}.`,
    "Every thread is counted: the library's JavaScript on the main thread, V8's helpers (GC, optimising compiles) and the libuv pool (WebCrypto, scrypt).",
    "",
    "| id | case | k instructions / request | ÷ Gatehouse's |",
    "|---|---|---:|---:|",
    ...selected.map(([id, what]) => {
      const base = k(`G-${id.split("-")[1]}`)
      return `| ${id} | ${what} | ${(k(id)! / 1000).toFixed(0)} | ${base ? (k(id)! / base).toFixed(1) : "—"} |`
    }),
  ].join("\n"),
)
