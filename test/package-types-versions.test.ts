// The package's types resolve under every TypeScript moduleResolution an app may have: "bundler" / "node16" read the
// "exports" map, while "node" (node10, e.g. the official next-auth example's tsconfig, which Next 15 keeps) reads
// "typesVersions". Each subpath must reach the same declaration file both ways, and typesVersions names no other.
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../", import.meta.url))
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  types: string
  exports: Record<string, string | { types?: string }>
  typesVersions?: Record<string, Record<string, string[]>>
}

/** The declaration files each subpath exports, e.g. "gatehouse/next" → "dist/integrations/next.d.ts". */
const declared = Object.entries(pkg.exports).flatMap(([key, entry]) =>
  typeof entry === "string" || !entry.types
    ? []
    : [[key === "." ? "gatehouse" : `gatehouse/${key.slice(2)}`, entry.types.slice(2)] as const],
)

/** An app at /app whose node_modules/gatehouse is this package; a dist/ file "exists" when its src/ file does. */
const app = "/app"
const installed = `${app}/node_modules/gatehouse/`
function real(path: string): string | undefined {
  if (!path.startsWith(installed)) return undefined
  const rel = path.slice(installed.length)
  if (rel === "package.json") return join(root, rel)
  const source = rel.replace(/^dist\//, "src/").replace(/\.d\.ts$/, ".ts")
  return rel.startsWith("dist/") && rel.endsWith(".d.ts") && existsSync(join(root, source))
    ? join(root, source)
    : undefined
}
const host: ts.ModuleResolutionHost = {
  fileExists: (path) => real(path) !== undefined,
  readFile: (path) => {
    const file = real(path)
    return file && path.endsWith("package.json") ? readFileSync(file, "utf8") : file ? "" : undefined
  },
  directoryExists: (path) => path === app || `${path}/`.startsWith(installed) || installed.startsWith(`${path}/`),
}

function resolve(specifier: string, moduleResolution: ts.ModuleResolutionKind): string | undefined {
  const options: ts.CompilerOptions = { moduleResolution, module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 }
  const resolved = ts.resolveModuleName(specifier, `${app}/index.ts`, options, host).resolvedModule?.resolvedFileName
  return resolved?.startsWith(installed) ? resolved.slice(installed.length) : resolved
}

describe("package.json typesVersions", () => {
  it("maps exactly the subpaths of the exports map", () => {
    const mapped = Object.keys(pkg.typesVersions?.["*"] ?? {}).sort()
    const subpaths = declared
      .filter(([specifier]) => specifier !== "gatehouse")
      .map(([specifier]) => specifier.slice("gatehouse/".length))
      .sort()
    expect(mapped).toEqual(subpaths)
  })

  it.each(declared)("%s resolves to %s under moduleResolution node, bundler and node16", (specifier, file) => {
    expect(resolve(specifier, ts.ModuleResolutionKind.Node10), "node (typesVersions)").toBe(file)
    expect(resolve(specifier, ts.ModuleResolutionKind.Bundler), "bundler (exports)").toBe(file)
    expect(resolve(specifier, ts.ModuleResolutionKind.Node16), "node16 (exports)").toBe(file)
  })

  it("leaves a file the exports map does not list unresolved under node, as under bundler", () => {
    expect(resolve("gatehouse/providers/builtin", ts.ModuleResolutionKind.Node10)).toBeUndefined()
    expect(resolve("gatehouse/providers/builtin", ts.ModuleResolutionKind.Bundler)).toBeUndefined()
  })
})
