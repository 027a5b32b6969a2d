// Run by test/pack.test.ts inside the consumer project: imports each subpath given as argument by the package name
// and prints, as JSON, its export names (or the error code), plus the result of a deep import past the exports map.
const results = {}
for (const subpath of process.argv.slice(2)) {
  const specifier = subpath === "." ? "gatehouse" : `gatehouse/${subpath.slice(2)}`
  try {
    const module = specifier.endsWith(".json")
      ? await import(specifier, { with: { type: "json" } })
      : await import(specifier)
    results[subpath] = { exports: Object.keys(module).sort() }
  } catch (error) {
    results[subpath] = { error: `${error?.code ?? ""} ${error?.message ?? error}` }
  }
}
let deepImport
try {
  await import("gatehouse/dist/jwt/jwe.js")
  deepImport = "imported"
} catch (error) {
  deepImport = error?.code ?? String(error)
}
process.stdout.write(JSON.stringify({ results, deepImport }))
