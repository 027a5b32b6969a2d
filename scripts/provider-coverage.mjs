#!/usr/bin/env node
// Provider catalogue coverage: lists the provider ids of the installed @auth/core (its providers/ folder)
// and says which Gatehouse lacks as gatehouse/providers/<id>. `--strict` exits 1 while any is missing (for CI once the
// catalogue is complete); without it the script reports and exits 0.
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..")
// The installed devDependency (its exports map hides package.json, so the folder is found by path).
const authjsProviders = join(ROOT, "node_modules", "@auth", "core", "providers")
/** Modules of that folder that are not providers (the index and the shared type modules). */
const NOT_PROVIDERS = new Set(["index", "provider-types"])
const authjsIds = readdirSync(authjsProviders)
  .filter((f) => f.endsWith(".js"))
  .map((f) => f.slice(0, -3))
  .filter((id) => !NOT_PROVIDERS.has(id))
  .sort()
const exportsMap = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).exports
const missing = authjsIds.filter((id) => !Object.hasOwn(exportsMap, `./providers/${id}`))
const present = authjsIds.length - missing.length
console.log(
  `@auth/core provider ids: ${authjsIds.length}; in gatehouse/providers: ${present}; missing: ${missing.length}`,
)
if (missing.length) console.log(`missing: ${missing.join(" ")}`)
if (missing.length && process.argv.includes("--strict")) process.exit(1)
