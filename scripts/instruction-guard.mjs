#!/usr/bin/env node
// Performance regression guard (CI): the instructions per op of the JWT session check (G1) and the credentials
// sign-in under the default config (G5d), counted by bench/callgrind.ts under valgrind, against the committed
// bench/instructions-baseline.json. Fails when either costs more than 25 % over its baseline. Instruction counts
// repeat on a shared machine where wall-clock times do not; they depend on the Node binary, so the check is skipped
// (with a message) when the Node version differs from the baseline's, or when valgrind is missing.
//
//   node scripts/instruction-guard.mjs            # check (about 30-60 s: two valgrind processes at once)
//   node scripts/instruction-guard.mjs --update   # measure and rewrite the baseline (commit it with the change that moved it)
//   GATEHOUSE_GUARD_SELFTEST=1 node scripts/instruction-guard.mjs   # every other op runs twice: must fail
import { spawnSync } from "node:child_process"
import { readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..")
const BASELINE = join(ROOT, "bench", "instructions-baseline.json")
const CASES = ["G1", "G5d"]
const ALLOWED = 1.25
const update = process.argv.includes("--update")

const valgrind = spawnSync("valgrind", ["--version"], { encoding: "utf8" })
if (valgrind.error || valgrind.status !== 0) {
  console.log("instruction-guard: valgrind is not installed; skipped (apt-get install valgrind to run it).")
  process.exit(0)
}
const baseline = update ? undefined : JSON.parse(readFileSync(BASELINE, "utf8"))
if (baseline && baseline.node !== process.version) {
  console.log(
    `instruction-guard: the baseline was taken on Node ${baseline.node}, this is ${process.version}; instruction counts ` +
      "of another Node binary are not comparable, so skipped. Run `node scripts/instruction-guard.mjs --update` on this version.",
  )
  process.exit(0)
}

const started = Date.now()
const run = spawnSync(
  process.execPath,
  ["--import", "tsx", join(ROOT, "bench", "callgrind.ts"), `--cases=${CASES.join(",")}`, "--json"],
  { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
)
if (run.status !== 0) {
  console.error(`instruction-guard: bench/callgrind.ts exited with ${run.status}`)
  process.exit(1)
}
const measured = JSON.parse(run.stdout.trim().split("\n").at(-1))
const seconds = ((Date.now() - started) / 1000).toFixed(0)

if (update) {
  const cases = Object.fromEntries(CASES.map((id) => [id, Math.round(measured.cases[id])]))
  writeFileSync(
    BASELINE,
    `${JSON.stringify({ node: process.version, taken: new Date().toISOString().slice(0, 10), allowed: ALLOWED, cases }, null, 2)}\n`,
  )
  console.log(`instruction-guard: baseline written (${seconds} s): ${JSON.stringify(cases)}`)
  process.exit(0)
}

let failed = false
for (const id of CASES) {
  const base = baseline.cases[id]
  const now = measured.cases[id]
  const ratio = now / base
  const verdict = ratio > ALLOWED ? "FAIL" : "ok"
  if (ratio > ALLOWED) failed = true
  console.log(
    `instruction-guard: ${id} ${Math.round(now).toLocaleString("en-US")} instructions/op, baseline ` +
      `${base.toLocaleString("en-US")} (${ratio >= 1 ? "+" : ""}${((ratio - 1) * 100).toFixed(1)} %, allowed +${((ALLOWED - 1) * 100).toFixed(0)} %): ${verdict}`,
  )
}
console.log(
  `instruction-guard: ${failed ? "FAILED" : "passed"} in ${seconds} s${measured.selftest ? " (GATEHOUSE_GUARD_SELFTEST on)" : ""}`,
)
process.exit(failed ? 1 : 0)
