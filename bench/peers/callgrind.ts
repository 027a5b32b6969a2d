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
// The JIT must have settled before counting: with 150 warm-up ops Gatehouse's session check counted 27 M instructions per
// request, with 400 8 M (optimising compiles on V8's helper threads are counted too); bench/callgrind.ts settles after
// about 1,000. Run directly (npx tsx bench/peers/callgrind.ts --ops=N --warmup-ops=N --cases=G-S,B-S) to change them.
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
  // The dump made at os.hostname() is the one with the measured ops: the part file (".1"), not the end-of-run total.
  const parts = readdirSync(dir).filter((f) => /\.\d+$/.test(f) && /callgrind\.out\.\d+\.\d+$/.test(f))
  if (parts.length === 0) throw new Error(`${id}: no callgrind dump at os.hostname()`)
  const text = readFileSync(`${dir}${parts.sort()[0]}`, "utf8")
  const summary = /^(?:summary|totals):\s+(\d+)/m.exec(text)
  if (!summary) throw new Error(`${id}: no totals in the dump`)
  return Number(summary[1]) / OPS
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
    `Instructions per request (valgrind callgrind, ${OPS} requests after ${WARMUP} of warm-up, all threads), node ${process.version}; load average ${loadAtStart.toFixed(2)}.`,
    "",
    "| id | case | k instructions / request | ÷ Gatehouse's |",
    "|---|---|---:|---:|",
    ...selected.map(([id, what]) => {
      const base = k(`G-${id.split("-")[1]}`)
      return `| ${id} | ${what} | ${(k(id)! / 1000).toFixed(0)} | ${base ? (k(id)! / base).toFixed(1) : "—"} |`
    }),
  ].join("\n"),
)
