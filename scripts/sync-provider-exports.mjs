#!/usr/bin/env node
// Keeps package.json's `./providers/<id>` subpaths in step with src/providers/<id>.ts (one file per provider, design
// rule 11). Idempotent: run it after adding a provider file. `--check` exits 1 when the map is out of date (CI).
import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..")
/** Files in src/providers that are not providers (shared types and helpers). */
const INTERNAL = new Set(["types", "index", "vk-profile", "logos"])
const ids = readdirSync(join(ROOT, "src", "providers"))
  .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
  .map((f) => f.slice(0, -3))
  .filter((id) => !INTERNAL.has(id))
  .sort()
const path = join(ROOT, "package.json")
const text = readFileSync(path, "utf8")
const manifest = JSON.parse(text)
const exportsMap = {}
for (const [key, value] of Object.entries(manifest.exports)) if (!key.startsWith("./providers/")) exportsMap[key] = value
for (const id of ids) exportsMap[`./providers/${id}`] = { types: `./dist/providers/${id}.d.ts`, import: `./dist/providers/${id}.js` }
manifest.exports = exportsMap
const next = `${JSON.stringify(manifest, null, 2)}\n`
if (process.argv.includes("--check")) {
  if (next !== text) {
    console.error("package.json exports are out of date with src/providers: run node scripts/sync-provider-exports.mjs")
    process.exit(1)
  }
  console.log(`${ids.length} provider subpaths in package.json, as in src/providers`)
} else {
  writeFileSync(path, next)
  console.log(`${ids.length} provider subpaths written to package.json`)
}
