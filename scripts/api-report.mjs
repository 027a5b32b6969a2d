#!/usr/bin/env node
// The public surface on record: one API report per package.json "exports" subpath, made by Microsoft's API Extractor
// from the built dist/*.d.ts and committed under api/ ("." → api/index.api.md, "./providers/github" →
// api/providers/github.api.md). Run after `npm run build`:
//   npm run api:report     writes the reports (and removes those of subpaths that are gone)
//   npm run api:check      (--check, CI) exits 1 when a report differs from the committed one, printing the change
// One TypeScript program serves every entry point (API Extractor's CompilerState), so the whole run is one analysis
// plus a short pass per entry.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { CompilerState, Extractor, ExtractorConfig } from "@microsoft/api-extractor"

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..")
const API_DIR = join(ROOT, "api")
const TEMP_DIR = join(tmpdir(), `gatehouse-api-report-${process.pid}`)
const CHECK = process.argv.includes("--check")
const VERBOSE = process.argv.includes("--verbose")
const UPDATE_COMMAND = "npm run build && npm run api:report"
const started = performance.now()

const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"))

/** Each subpath with a types file: its report's folder and base name, and the .d.ts API Extractor reads. */
const entries = []
const reported = new Set()
for (const [subpath, target] of Object.entries(manifest.exports)) {
  if (typeof target !== "object" || typeof target.types !== "string") continue
  // A subpath for the same module as an earlier one (gatehouse/sveltekit/providers/<id> is gatehouse/providers/<id>)
  // is on record in that one's report.
  if (reported.has(target.types)) continue
  reported.add(target.types)
  const name = subpath === "." ? "index" : subpath.slice(2)
  entries.push({
    subpath,
    dts: join(ROOT, target.types),
    reportFolder: join(API_DIR, dirname(name)),
    reportFileName: name.split("/").pop(),
  })
}
const missing = entries.filter((entry) => !existsSync(entry.dts))
if (missing.length) {
  console.error(`api-report: ${missing.map((e) => relative(ROOT, e.dts)).join(", ")} missing: run npm run build first`)
  process.exit(1)
}

/** The compiler options of tsconfig.json (JSON with comments), for the program over dist/. */
const tsconfigText = readFileSync(join(ROOT, "tsconfig.json"), "utf8")
const { compilerOptions } = JSON.parse(tsconfigText.replace(/^\s*\/\/.*$/gm, ""))

// The report is about names and signatures. Release tags (@public, @beta) are not used here and TSDoc syntax is not
// checked; every other finding, such as a type an entry uses but does not export (ae-forgotten-export), is written
// into the report as a comment, so it shows in the diff too.
const messages = {
  compilerMessageReporting: { default: { logLevel: "warning" } },
  extractorMessageReporting: {
    default: { logLevel: "none", addToApiReportFile: true },
    "ae-missing-release-tag": { logLevel: "none", addToApiReportFile: false },
    "ae-undocumented": { logLevel: "none", addToApiReportFile: false },
  },
  tsdocMessageReporting: { default: { logLevel: "none", addToApiReportFile: false } },
}

function prepare(entry) {
  return ExtractorConfig.prepare({
    configObject: {
      projectFolder: ROOT,
      mainEntryPointFilePath: entry.dts,
      compiler: {
        overrideTsconfig: { compilerOptions: { ...compilerOptions, noEmit: true }, files: [entry.dts] },
      },
      apiReport: {
        enabled: true,
        reportFolder: entry.reportFolder,
        reportTempFolder: join(TEMP_DIR, relative(API_DIR, entry.reportFolder)),
        reportFileName: entry.reportFileName,
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      newlineKind: "lf",
      messages,
    },
    configObjectFullPath: undefined,
    packageJsonFullPath: join(ROOT, "package.json"),
  })
}

const configs = entries.map(prepare)
const compilerState = CompilerState.create(configs[0], { additionalEntryPoints: entries.map((e) => e.dts) })

const changed = []
const problems = []
/** Symbols an entry's declarations use without the entry exporting them: symbol → entries. */
const forgotten = new Map()
for (const [i, entry] of entries.entries()) {
  const config = configs[i]
  if (!CHECK) mkdirSync(entry.reportFolder, { recursive: true })
  let diff = ""
  const result = Extractor.invoke(config, {
    localBuild: !CHECK,
    compilerState,
    printApiReportDiff: CHECK,
    showVerboseMessages: false,
    messageCallback(message) {
      if (message.messageId === "console-api-report-diff") diff = message.text
      // API Extractor's own progress and report-file lines: this script prints one summary instead.
      if (message.category === "console" || message.logLevel === "none") {
        if (!VERBOSE || message.logLevel === "none") message.handled = true
        return
      }
      problems.push(`${entry.subpath}: ${message.formatMessageWithLocation(ROOT)}`)
      message.handled = true
    },
  })
  if (result.apiReportChanged) changed.push({ entry, diff })
  // The report as generated (API Extractor writes it to the temp folder first, in both modes).
  const report = readFileSync(join(config.reportTempFolder, `${entry.reportFileName}.api.md`), "utf8")
  for (const [, symbol] of report.matchAll(/\(ae-forgotten-export\) The symbol "([^"]+)"/g))
    forgotten.set(symbol, [...(forgotten.get(symbol) ?? []), entry.subpath])
}

// Reports of subpaths that no longer exist.
const reportPath = (entry) => join(entry.reportFolder, `${entry.reportFileName}.api.md`)
const expected = new Set(entries.map(reportPath))
const stale = []
function walk(dir) {
  if (!existsSync(dir)) return
  for (const item of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, item.name)
    if (item.isDirectory()) walk(path)
    else if (item.name.endsWith(".api.md") && !expected.has(path)) stale.push(path)
  }
}
walk(API_DIR)
if (!CHECK) for (const path of stale) rmSync(path)
rmSync(TEMP_DIR, { recursive: true, force: true })

/** Types the public declarations use that no entry point exports: an app can use them but not name them. */
const exportedAnywhere = new Set()
const checker = compilerState.program.getTypeChecker()
for (const entry of entries) {
  const source = compilerState.program.getSourceFile(entry.dts)
  const symbol = source && checker.getSymbolAtLocation(source)
  if (symbol) for (const s of checker.getExportsOfModule(symbol)) exportedAnywhere.add(s.getName())
}
const unnamed = [...forgotten.entries()].filter(([symbol]) => !exportedAnywhere.has(symbol.replace(/_\d+$/, "")))

const seconds = ((performance.now() - started) / 1000).toFixed(1)
for (const problem of problems) console.error(problem)
if (unnamed.length) {
  console.log(`Types used by the public declarations that no entry point exports (${unnamed.length}):`)
  for (const [symbol, where] of unnamed.sort(([a], [b]) => a.localeCompare(b)))
    console.log(`  ${symbol}  (in ${where.length > 3 ? `${where.slice(0, 3).join(", ")}, …` : where.join(", ")})`)
}
if (CHECK) {
  for (const { entry, diff } of changed) {
    console.error(`\n${entry.subpath}: the public surface differs from ${relative(ROOT, reportPath(entry))}`)
    console.error(diff.replace(/^Changes to the API report:\n\n/, "") || "(no committed report: a new subpath)")
  }
  for (const path of stale) console.error(`\n${relative(ROOT, path)}: no package.json subpath has this report any more`)
  if (changed.length || stale.length || problems.length) {
    console.error(
      `\napi-report: ${changed.length} report(s) out of date, ${stale.length} stale, ${problems.length} problem(s) (${seconds} s).` +
        `\nIf the change to the public surface is meant, run \`${UPDATE_COMMAND}\` and commit api/ with it.`,
    )
    process.exit(1)
  }
  console.log(`api-report: ${entries.length} entry points match api/ (${seconds} s)`)
} else {
  console.log(
    `api-report: ${entries.length} reports in api/, ${changed.length} changed, ${stale.length} removed (${seconds} s)` +
      (problems.length ? `; ${problems.length} problem(s) above` : ""),
  )
  if (problems.length) process.exit(1)
}
