// The code every request runs builds no object literal that opens with a spread and has more after it
// (`{ ...base, key }`, `{ ...a, ...b }`): on Node 20 V8 defines the rest of such a literal through its slow path and
// gives every result a map of its own, about 4 µs a literal on a 2-core VM. src/lib/merged.ts builds the same object
// with Object.assign; docs/contributing.md ("Performance by design") gives the rule.
import { readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { describe, expect, it } from "vitest"

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..")

/** Modules on a request's path (folders taken whole), and the files in them that run only when a config is resolved. */
const PER_REQUEST = [
  "src/auth.ts",
  "src/pipeline.ts",
  "src/router.ts",
  "src/request",
  "src/response",
  "src/actions",
  "src/jwt",
  "src/security",
  "src/rate-limit",
  "src/account",
  "src/session",
  "src/cookies/chunks.ts",
  "src/cookies/parse.ts",
  "src/flows/credentials.ts",
  "src/flows/email.ts",
  "src/flows/oauth.ts",
  "src/adapters/postgres.ts",
  "src/adapters/guarded-adapter.ts",
  "src/protocols/http.ts",
  "src/protocols/oauth1.ts",
]
const CONFIG_TIME = new Set(["src/session/cookie-budget.ts"])

function sources(path: string): string[] {
  const full = join(ROOT, path)
  if (!statSync(full).isDirectory()) return [path]
  return readdirSync(full).flatMap((entry) => sources(join(path, entry)))
}

/** `file:line: text` of every object literal in `text` that opens with a spread and has another member after it. */
function spreadFirstLiterals(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const found: string[] = []
  const visit = (node: ts.Node): void => {
    if (
      ts.isObjectLiteralExpression(node) &&
      node.properties.length > 1 &&
      ts.isSpreadAssignment(node.properties[0]!)
    ) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart())
      found.push(`${file}:${line + 1}: ${node.getText().replace(/\s+/g, " ").slice(0, 100)}`)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

describe("per-request code builds no object literal that opens with a spread", () => {
  const files = PER_REQUEST.flatMap(sources).filter(
    (f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !CONFIG_TIME.has(f),
  )

  it("the modules on a request's path hold none (use merged from src/lib/merged.ts)", () => {
    expect(files.length).toBeGreaterThan(40)
    const found = files.flatMap((f) => spreadFirstLiterals(f, readFileSync(join(ROOT, f), "utf8")))
    expect(found).toEqual([])
  })

  it("the check finds the forms it is for, and leaves a spread that comes last or stands alone", () => {
    const text = [
      "const a = { ...base, key: 1 }",
      "const b = { ...x, ...y }",
      "const c = { ...(cond ? { id } : {}), token }",
      "const d = { key: 1, ...rest }",
      "const e = { ...only }",
    ].join("\n")
    expect(spreadFirstLiterals("x.ts", text).map((s) => s.split(":")[1])).toEqual(["1", "2", "3"])
  })
})
