// `npm run bench -- --runtime=edge|workerd|bun|deno`: the JWT session check (and GET /auth/csrf) of Gatehouse and
// @auth/core measured INSIDE another runtime, beside a trivial handler, in one isolate: interleaved rounds, medians,
// the ratio taken inside each round. This file is the Node parent: it bundles bench/runtime-inside.ts with esbuild for
// that runtime (Gatehouse from dist/ under the runtime's export conditions, so edge and workerd get the Web Crypto
// backend; @auth/core 0.41.3 from node_modules), starts the runtime, drives setup and the rounds, and prints the report.
//
//   edge     edge-runtime's EdgeRuntime (the Vercel / Next.js Edge runtime simulator; a V8 context in this process),
//            conditions edge-light, worker, browser
//   workerd  Cloudflare's workerd through miniflare, without nodejs_compat (no process, no Buffer); a worker whose
//            fetch handler runs the loop in the isolate and answers JSON; conditions workerd, worker, browser
//   bun      the bun binary runs the bundle (conditions bun → the node:crypto backend)
//   deno     the deno binary runs the bundle (conditions deno → the node:crypto backend)
//
// The clock is read only at the edges of each timed window (workerd freezes time between I/O events; there the clock
// is this process's performance.now() behind a service binding, one loopback call at each edge of a window of
// seconds). Windows are op counts sized once at setup from the rate a case reached there. No forced GC between
// windows (no runtime here offers one to a script). Gatehouse needs `npm run build` first; a build that does not
// bundle for the runtime (edge and workerd: a core that still imports node:*) is reported, and the run goes on with
// @auth/core and the trivial handler only.
import { spawn, spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import { join, resolve } from "node:path"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import type { Plugin } from "esbuild"
import type { BENCH_RUNTIMES } from "./options.js"
import type { describe, Measurement, Plan, Window } from "./runtime-inside.js"

type Runtime = Exclude<(typeof BENCH_RUNTIMES)[number], "node">

const ROOT = fileURLToPath(new URL("../", import.meta.url))
const INSIDE = fileURLToPath(new URL("./runtime-inside.ts", import.meta.url))
const CONDITIONS: Record<Runtime, string[]> = {
  edge: ["edge-light", "worker", "browser"],
  workerd: ["workerd", "worker", "browser"],
  bun: ["bun"],
  deno: ["deno"],
}
const SESSION_TARGET = 5 // the issue's goal: Gatehouse's JWT session check at >= 5x @auth/core in the same runtime

type Described = ReturnType<typeof describe>
interface SetupResult {
  measurements: Measurement[]
  opsPerSec: Record<string, number>
}
/** One runtime, started: runtime-inside.ts's calls (describe and setup answered together), and a way to stop it. */
interface Driver {
  /** The crypto backend of Gatehouse the bundle holds ("web" or "node"); undefined: no Gatehouse in it. */
  readonly gatehouse: string | undefined
  readonly setup: (plan: Plan) => Promise<SetupResult & { inside: Described }>
  readonly round: (index: number) => Promise<Window[]>
  readonly close: () => Promise<void>
}

const version = (pkg: string): string => {
  try {
    return (JSON.parse(readFileSync(join(ROOT, "node_modules", pkg, "package.json"), "utf8")) as { version: string })
      .version
  } catch {
    return "not installed"
  }
}
const localBin = (name: string) => join(ROOT, "node_modules", ".bin", name)

// ---------------------------------------------------------------- bundle
/** The entry runtime-inside.ts names Gatehouse by ../src/*.js (for tsc); the bundle takes the same modules from dist. */
function gatehouseFromDist(distDir: string): Plugin {
  return {
    name: "gatehouse-from-dist",
    setup(build) {
      build.onResolve({ filter: /^\.\.\/src\// }, (args) =>
        args.importer === INSIDE ? { path: join(distDir, args.path.slice("../src/".length)) } : undefined,
      )
    },
  }
}

/** A stand-in for Gatehouse when dist/ has no Web Crypto backend yet: the bundle then holds @auth/core only. */
const gatehouseAbsent: Plugin = {
  name: "gatehouse-absent",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/src\// }, (args) =>
      args.importer === INSIDE ? { path: args.path, namespace: "gatehouse-absent" } : undefined,
    )
    build.onLoad({ filter: /.*/, namespace: "gatehouse-absent" }, () => ({
      contents:
        "const absent = () => { throw new Error('Gatehouse is not in this bundle') }\n" +
        "export const Auth = absent, encode = absent\n" +
        // the credentials provider is called at module scope, where the configs are made
        "export default (options) => ({ id: 'credentials', type: 'credentials', options })\n",
      loader: "js",
    }))
  },
}

/**
 * One script for the runtime. When dist/ cannot be bundled for it (edge and workerd: a build whose core still imports
 * node:*), the reason is printed and the script holds @auth/core and the reference only; `gatehouse` says which.
 */
async function bundle(
  runtime: Runtime,
  wrapper: string,
  distDir: string | undefined,
): Promise<{ code: string; gatehouse: string | undefined }> {
  if (distDir) {
    try {
      return await bundleOnce(runtime, wrapper, distDir)
    } catch (error) {
      const errors = (error as { errors?: { text: string; location?: { file: string } | null }[] }).errors
      if (!errors) throw error
      console.error(
        `note: Gatehouse's build in ${distDir} does not bundle for ${runtime} (${errors.length} errors, e.g. ` +
          `${errors
            .slice(0, 3)
            .map((e) => `${e.location?.file ?? "?"}: ${e.text}`)
            .join("; ")}); measuring @auth/core and the trivial handler only.`,
      )
    }
  }
  return await bundleOnce(runtime, wrapper, undefined)
}

/** The bundle, and which of dist/crypto/{web,node}.js the export conditions put in it (read off esbuild's metafile). */
async function bundleOnce(
  runtime: Runtime,
  wrapper: string,
  distDir: string | undefined,
): Promise<{ code: string; gatehouse: string | undefined }> {
  const esbuild = await import("esbuild")
  const result = await esbuild.build({
    stdin: { contents: wrapper, resolveDir: fileURLToPath(new URL(".", import.meta.url)), loader: "ts" },
    bundle: true,
    write: false,
    format: runtime === "edge" ? "iife" : "esm",
    ...(runtime === "edge" ? { globalName: "__gatehouseBench" } : {}),
    platform: runtime === "bun" || runtime === "deno" ? "node" : "browser",
    conditions: CONDITIONS[runtime],
    target: "es2022",
    logLevel: "silent",
    metafile: true,
    // No tsconfig.json from disk: the repo's maps #crypto to src/crypto/node.ts (for tsc), and the bundle must
    // take package.json "imports" instead, as an application's bundler would.
    tsconfigRaw: {},
    plugins: [distDir ? gatehouseFromDist(distDir) : gatehouseAbsent],
  })
  const backend = Object.keys(result.metafile.inputs)
    .map((input) => /(?:^|\/)dist\/crypto\/(web|node)\.js$/.exec(input)?.[1])
    .find((b) => b !== undefined)
  return { code: result.outputFiles[0]?.text ?? "", gatehouse: distDir ? (backend ?? "none") : undefined }
}

// ---------------------------------------------------------------- drivers
async function edgeDriver(distDir: string | undefined): Promise<Driver> {
  const { code, gatehouse } = await bundle("edge", `export * from "./runtime-inside.ts"`, distDir)
  const { EdgeRuntime } = await import("edge-runtime")
  const edge = new EdgeRuntime({ initialCode: code })
  const inside = edge.evaluate("__gatehouseBench") as typeof import("./runtime-inside.js")
  const clock = () => performance.now() // the same process: the parent's clock is the isolate's
  return {
    gatehouse,
    setup: async (plan) => ({ inside: inside.describe(), ...(await inside.setup(plan, clock)) }),
    round: (index) => inside.round(index, clock),
    close: async () => {},
  }
}

/** The worker's CLOCK binding: this process's performance.now(), ms. */
const parentClock = async () => new Response(String(performance.now()))

async function workerdDriver(distDir: string | undefined): Promise<Driver> {
  const worker = `
    import * as inside from "./runtime-inside.ts"
    // The parent's clock: a loopback call, and also the I/O after which workerd lets its own clock move. A window can
    // outlast the loopback server's keep-alive, and the first call after it may then find its connection gone: the
    // call is made again (a reconnect, about a millisecond, against windows of seconds).
    const clockOf = (env) => async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return Number(await (await env.CLOCK.fetch("http://clock/")).text())
        } catch (error) {
          if (attempt === 3) throw error
        }
      }
    }
    export default {
      async fetch(request, env) {
        try {
          const { call, arg } = await request.json()
          const result =
            call === "describe" ? inside.describe()
            : call === "setup" ? await inside.setup(arg, clockOf(env))
            : await inside.round(arg, clockOf(env))
          return Response.json(result)
        } catch (error) {
          return new Response(String((error && error.stack) || error), { status: 500 })
        }
      },
    }`
  const { code, gatehouse } = await bundle("workerd", worker, distDir)
  const { Miniflare } = await import("miniflare")
  const mf = new Miniflare({
    modules: true,
    script: code,
    compatibilityDate: "2025-01-01",
    serviceBindings: { CLOCK: parentClock },
  })
  const call = async <T>(name: string, arg?: unknown): Promise<T> => {
    const res = await mf.dispatchFetch("http://bench.local/", {
      method: "POST",
      body: JSON.stringify({ call: name, arg }),
    })
    if (res.status !== 200) throw new Error(`worker ${name}: ${await res.text()}`)
    return (await res.json()) as T
  }
  return {
    gatehouse,
    setup: async (plan) => ({ inside: await call<Described>("describe"), ...(await call<SetupResult>("setup", plan)) }),
    round: (index) => call("round", index),
    close: () => mf.dispose(),
  }
}

/**
 * bun and deno: the binary runs the bundle, which takes the plan and the round count from its last argument, runs
 * setup and every round itself, and writes one JSON line per answer.
 */
async function processDriver(rt: "bun" | "deno", distDir: string | undefined, rounds: number): Promise<Driver> {
  const script = `
    import * as inside from "./runtime-inside.ts"
    const { plan, rounds } = JSON.parse(process.argv[process.argv.length - 1])
    const send = (m) => console.log("@@bench " + JSON.stringify(m))
    const clock = () => performance.now()
    send(inside.describe())
    send(await inside.setup(plan, clock))
    for (let i = 0; i < rounds; i++) send(await inside.round(i, clock))`
  const { code, gatehouse } = await bundle(rt, script, distDir)
  const dir = mkdtempSync(join(os.tmpdir(), `gatehouse-bench-${rt}-`))
  const file = join(dir, "bench.mjs")
  writeFileSync(file, code)
  let child: ReturnType<typeof spawn> | undefined
  let messages: AsyncIterator<string> | undefined
  const next = async <T>(): Promise<T> => {
    for (;;) {
      const line = await messages?.next()
      if (!line || line.done) throw new Error(`${rt} exited before answering`)
      if (line.value.startsWith("@@bench ")) return JSON.parse(line.value.slice("@@bench ".length)) as T
      console.error(`[${rt}] ${line.value}`) // anything else the script printed
    }
  }
  return {
    gatehouse,
    setup: async (plan) => {
      const argv = [...(rt === "deno" ? ["run", "--allow-env"] : []), file, JSON.stringify({ plan, rounds })]
      child = spawn(localBin(rt), argv, { stdio: ["ignore", "pipe", "inherit"] })
      child.on("exit", (status) => {
        if (status) console.error(`${rt} exited with ${status}`)
      })
      messages = createInterface({ input: child.stdout as NodeJS.ReadableStream })[Symbol.asyncIterator]()
      const inside = await next<Described>()
      return { inside, ...(await next<SetupResult>()) }
    },
    round: () => next<Window[]>(),
    close: async () => {
      child?.kill()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

// ---------------------------------------------------------------- report
const median = (xs: number[]): number => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length === 0 ? Number.NaN : s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2
}
const fmt = (x: number, d = 0) =>
  Number.isFinite(x) ? x.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d }) : "—"

function runtimeLabel(rt: Runtime, inside: Described): string {
  switch (rt) {
    case "edge":
      return `edge-runtime ${version("edge-runtime")} (EdgeRuntime ${inside.runtime.version}) on Node ${process.version}, V8 ${process.versions.v8}`
    case "workerd":
      return `workerd ${version("workerd")} via miniflare ${version("miniflare")}, no nodejs_compat`
    default:
      return `${rt} ${inside.runtime.version}`
  }
}

/** Options this part of the bench reads; the table of all of them is bench/options.ts. */
export interface RuntimeBenchOptions {
  readonly rounds: number
  readonly durationMs: number
  readonly warmupMs: number
  /** Gatehouse's build: ./dist unless --dist=DIR. */
  readonly distDir: string
}

export async function runInRuntime(rt: Runtime, options: RuntimeBenchOptions): Promise<void> {
  const loadStart = os.loadavg()[0] ?? Number.NaN
  if (loadStart > 0.5)
    console.error(`warning: load average ${loadStart.toFixed(2)} > 0.5 at start: another process shares the cores.`)
  const distDir = resolve(options.distDir)
  const hasBuild = existsSync(join(distDir, "index.js"))
  if (!hasBuild)
    console.error(`note: no ${join(distDir, "index.js")}: run \`npm run build\`; measuring @auth/core only.`)
  if (rt === "bun" || rt === "deno") {
    const probe = spawnSync(localBin(rt), ["--version"], { encoding: "utf8" })
    if (probe.status !== 0) throw new Error(`${localBin(rt)} does not run: ${probe.stderr || probe.error}`)
  }
  const driver =
    rt === "edge"
      ? await edgeDriver(hasBuild ? distDir : undefined)
      : rt === "workerd"
        ? await workerdDriver(hasBuild ? distDir : undefined)
        : await processDriver(rt, hasBuild ? distDir : undefined, options.rounds)
  const withGatehouse = driver.gatehouse !== undefined
  const plan: Plan = {
    durationMs: options.durationMs,
    warmupMs: options.warmupMs,
    csrf: true,
    withoutGatehouse: !withGatehouse,
  }
  const started = Date.now()
  try {
    const setupResult = await driver.setup(plan)
    const inside = setupResult.inside
    const byId = new Map(setupResult.measurements.map((m) => [m.id, m]))
    const perRound: Window[][] = []
    for (let i = 0; i < options.rounds; i++) {
      const windows = await driver.round(i)
      perRound.push(windows)
      for (const w of windows)
        console.error(
          `[round ${i + 1}/${options.rounds}] ${w.id.padEnd(3)} ${fmt((w.ops / w.ms) * 1000).padStart(9)} ops/s  (${w.ops} ops in ${fmt(w.ms)} ms)`,
        )
    }
    const loadEnd = os.loadavg()[0] ?? Number.NaN
    const rate = (round: Window[], id: string) => {
      const w = round.find((x) => x.id === id)
      return w ? (w.ops / w.ms) * 1000 : Number.NaN
    }
    const rates = (id: string) => perRound.map((r) => rate(r, id))
    const ratios = (g: string, a: string) => perRound.map((r) => rate(r, g) / rate(r, a))
    const lines = [
      `Runtime: ${runtimeLabel(rt, inside)}; inside it: process ${inside.hasProcess ? "defined" : "undefined"}, ` +
        `Buffer ${inside.hasBuffer ? "defined" : "undefined"}. Gatehouse ${withGatehouse ? `from ${distDir} (conditions ${CONDITIONS[rt].join(", ")}: #crypto is dist/crypto/${driver.gatehouse}.js)` : "NOT measured (see the note above the rounds)"}, ` +
        `@auth/core ${version("@auth/core")}; one bundle, one isolate.`,
      `${options.rounds} rounds; each window ~${options.durationMs} ms after ~${options.warmupMs} ms warm-up (op counts sized at setup); ` +
        `order alternates by round; medians over rounds, ratios inside a round. ` +
        `Load average at start ${loadStart.toFixed(2)}, at end ${loadEnd.toFixed(2)} (the end includes this run's own core, about 1).`,
      "",
      "| id | library | case | ops/s | µs/op | ops/s per round |",
      "|---|---|---|---:|---:|---|",
      ...[...byId.values()].map((m) => {
        const med = median(rates(m.id))
        return `| ${m.id} | ${m.lib} | ${m.what} | ${fmt(med)} | ${fmt(1e6 / med, 1)} | ${rates(m.id)
          .map((x) => fmt(x))
          .join(" / ")} |`
      }),
    ]
    if (withGatehouse) {
      const session = median(ratios("G1", "A1"))
      const csrf = median(ratios("G3", "A3"))
      const overTrivial = median(perRound.map((r) => rate(r, "T") / rate(r, "G1")))
      lines.push(
        "",
        "| case | Gatehouse ÷ @auth/core (ops/s) | per round | target |",
        "|---|---:|---|---|",
        `| JWT session check (G1 ÷ A1) | ${fmt(session, 1)}x | ${ratios("G1", "A1")
          .map((x) => fmt(x, 1))
          .join(" / ")} | >= ${SESSION_TARGET}x: ${session >= SESSION_TARGET ? "**met**" : "**NOT met**"} |`,
        `| same, Gatehouse with session.updateAge 0 (G1u ÷ A1: both re-encrypt and set the cookie) | ${fmt(median(ratios("G1u", "A1")), 1)}x | ${ratios(
          "G1u",
          "A1",
        )
          .map((x) => fmt(x, 1))
          .join(" / ")} | — |`,
        `| GET /auth/csrf (G3 ÷ A3) | ${fmt(csrf, 1)}x | ${ratios("G3", "A3")
          .map((x) => fmt(x, 1))
          .join(" / ")} | — |`,
        "",
        `Gatehouse's session check costs ${fmt(overTrivial, 1)}x the trivial handler (T) in the same round (median).`,
      )
    }
    console.log(`\n${lines.join("\n")}\n\n(total ${fmt((Date.now() - started) / 1000)} s)`)
  } finally {
    await driver.close()
  }
}
