// Nightly-style fuzzing: the fast-check properties of test/fuzz/ with 100,000 cases each (FUZZ_RUNS overrides it),
// then the wall time and the result. A failing property prints FUZZ_SEED and FUZZ_PATH to replay its counterexample.
//
// Usage: npm run fuzz [-- <vitest file filters, e.g. test/fuzz/jwt.test.ts>]
import { spawnSync } from "node:child_process"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..")
const runs = process.env.FUZZ_RUNS ?? "100000"
const files = process.argv.slice(2)
const started = Date.now()
const result = spawnSync(
  process.execPath,
  [
    join(ROOT, "node_modules", "vitest", "vitest.mjs"),
    "run",
    ...(files.length ? files : ["test/fuzz/"]),
    "--reporter=verbose",
  ],
  {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, FUZZ_RUNS: runs },
  },
)
const seconds = ((Date.now() - started) / 1000).toFixed(1)
const ok = result.status === 0
console.log(
  `\nfuzz: ${runs} cases per property, ${seconds} s, ${ok ? "all properties held" : "FAILED (see the replay line above)"}`,
)
process.exit(ok ? 0 : (result.status ?? 1))
