// The benchmark's command-line options: one table of what each option takes, --help, and an error for anything else.

/** What an option takes: nothing (a flag), a positive number, a value, or a value that may be left off (`--dist`). */
type Kind = "flag" | "number" | "value" | "optional-value"

interface OptionSpec {
  readonly kind: Kind
  readonly help: string
  /** The only values a "value" option takes. */
  readonly choices?: readonly string[]
  /** Only the Node bench has it (refused beside --runtime=edge|workerd|bun|deno). */
  readonly nodeOnly?: true
}

/** Where `--runtime` measures: node is the full bench of bench/run.ts; the others run bench/runtimes.ts. */
export const BENCH_RUNTIMES = ["node", "edge", "workerd", "bun", "deno"] as const

/** Every option of `npm run bench` (bench/run.ts) and of its over-HTTP child (bench/http.ts). */
const BENCH_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  help: { kind: "flag", help: "print this text and exit" },
  quick: { kind: "flag", help: "smoke run: short windows, about 1.5 minutes in all" },
  rounds: { kind: "number", help: "interleaved rounds (default 3); the report gives medians over rounds" },
  duration: { kind: "number", help: "timed window per measurement, ms (default 2500; --quick 200)" },
  warmup: { kind: "number", help: "warm-up before each window, ms (default 500; --quick 80)" },
  dist: {
    kind: "optional-value",
    help: "load Gatehouse from the tsc build (default ./dist; run `npm run build` first) instead of src/",
  },
  runtime: {
    kind: "value",
    choices: BENCH_RUNTIMES,
    help:
      "node (default): this bench. edge (edge-runtime), workerd (miniflare), bun, deno: the JWT session check and " +
      "/auth/csrf of both libraries beside a trivial handler, one script run inside that runtime (Gatehouse from " +
      "--dist, default ./dist: `npm run build` first)",
  },
  profile: {
    kind: "optional-value",
    nodeOnly: true,
    help: "CPU profile of one measurement (default G1; G1u, G2 ... A1 ...) in a child process, with a self-time summary",
  },
  analyze: { kind: "value", nodeOnly: true, help: "summarise a .cpuprofile written by --profile again" },
  "http-only": {
    kind: "flag",
    nodeOnly: true,
    help: "only the over-HTTP cases (node:http, Express, getSession in a route)",
  },
  "no-http": { kind: "flag", nodeOnly: true, help: "skip the over-HTTP cases" },
  peers: {
    kind: "flag",
    nodeOnly: true,
    help:
      "Gatehouse, @auth/core and better-auth side by side (bench/peers.ts): in process, database read beside its SQL " +
      "query, cold start, Express under autocannon; installs bench/peers/node_modules on first use",
  },
  "peers-part": {
    kind: "value",
    nodeOnly: true,
    choices: ["in-process", "cold", "http", "callgrind"],
    help: "with --peers: only that part (callgrind: instruction counts per request under valgrind, not in the full run)",
  },
  "busy-neighbor": {
    kind: "flag",
    nodeOnly: true,
    help: "keep the other core busy with a spinning process while measuring",
  },
  "profile-child": { kind: "value", nodeOnly: true, help: "(internal) the profiled child process of --profile" },
}

const BENCH_USAGE = [
  "Usage: npm run bench [-- options]",
  "",
  "Gatehouse and @auth/core on the same requests in one process: interleaved rounds, medians, ratios.",
  "The full run takes about 6 minutes on 2 cores; --quick about 1.5 minutes. Method: docs/performance.md.",
  "--runtime=edge|workerd|bun|deno measures the JWT session check inside that runtime instead (about 1 minute).",
  "",
  "Options:",
  ...Object.entries(BENCH_OPTIONS)
    .filter(([name]) => name !== "profile-child")
    .map(([name, spec]) => {
      const arg =
        spec.kind === "number" ? "=N" : spec.kind === "value" ? "=X" : spec.kind === "optional-value" ? "[=X]" : ""
      return `  --${(name + arg).padEnd(18)} ${spec.help}${spec.nodeOnly ? "; --runtime=node only" : ""}`
    }),
].join("\n")

/** An option the table does not know, or a value of the wrong kind. */
export class BenchOptionError extends Error {}

/** Parses `--name` and `--name=value` against BENCH_OPTIONS; anything else is a BenchOptionError naming it. */
export function parseBenchOptions(argv: readonly string[]): Map<string, string> {
  const out = new Map<string, string>()
  for (const raw of argv) {
    const arg = raw === "-h" ? "--help" : raw
    const match = /^--([a-z][a-z-]*)(?:=(.*))?$/s.exec(arg)
    const name = match?.[1]
    const spec = name === undefined ? undefined : BENCH_OPTIONS[name]
    if (!match || name === undefined || !spec || !Object.hasOwn(BENCH_OPTIONS, name)) {
      throw new BenchOptionError(`unknown option ${JSON.stringify(arg)}; see npm run bench -- --help`)
    }
    const value = match[2]
    if (spec.kind === "flag" && value !== undefined) throw new BenchOptionError(`--${name} takes no value`)
    if ((spec.kind === "number" || spec.kind === "value") && (value === undefined || value === ""))
      throw new BenchOptionError(`--${name} needs a value: --${name}=...`)
    if (spec.kind === "number" && !(Number(value) > 0 && Number.isFinite(Number(value))))
      throw new BenchOptionError(`--${name} must be a positive number, got ${JSON.stringify(value)}`)
    if (spec.choices && !spec.choices.includes(value as string))
      throw new BenchOptionError(`--${name} is one of ${spec.choices.join(", ")}, got ${JSON.stringify(value)}`)
    out.set(name, value ?? "true")
  }
  const runtime = out.get("runtime") ?? "node"
  const nodeOnly = [...out.keys()].filter((name) => BENCH_OPTIONS[name]?.nodeOnly)
  if (runtime !== "node" && nodeOnly.length > 0)
    throw new BenchOptionError(`--${nodeOnly[0]} is for the Node bench only, not with --runtime=${runtime}`)
  return out
}

/** parseBenchOptions for a script's own argv: --help prints usage and exits 0, a bad option prints the error and exits 2. */
export function benchOptionsOrExit(argv: readonly string[]): Map<string, string> {
  try {
    const options = parseBenchOptions(argv)
    if (options.has("help")) {
      console.log(BENCH_USAGE)
      process.exit(0)
    }
    return options
  } catch (error) {
    if (!(error instanceof BenchOptionError)) throw error
    console.error(`bench: ${error.message}`)
    process.exit(2)
  }
}
