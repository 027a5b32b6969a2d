// docs/architecture.md stays true to the tree: every folder of src/ and every file directly in src/, bin/ and scripts/
// is named in it, and every file path it names exists (the sample diff of a new sign-in kind aside).
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const DOC = "docs/architecture.md"

/** Folders that hold no source: installed, built or run-time files. */
const SKIP = new Set([".git", "node_modules", "dist", ".next", ".demo-data", "coverage"])

/** The repository's files (paths relative to the root), and the folders that hold them. */
function walk(folder: string, out: string[]): string[] {
  for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
    const path = folder ? `${folder}/${entry.name}` : entry.name
    if (entry.isDirectory() && !SKIP.has(entry.name)) walk(path, out)
    else if (entry.isFile()) out.push(path)
  }
  return out
}
const files = walk("", [])
const folders = new Set(
  files.flatMap((path) =>
    path
      .split("/")
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join("/")),
  ),
)

/** The page without its ```diff blocks (the example of a new sign-in kind names files that do not exist). */
function withoutDiffs(text: string): string {
  let inDiff = false
  return text
    .split("\n")
    .filter((line) => {
      if (/^```diff\s*$/.test(line)) inDiff = true
      else if (inDiff && /^```\s*$/.test(line)) {
        inDiff = false
        return false
      }
      return !inDiff
    })
    .join("\n")
}

const doc = withoutDiffs(readFileSync(join(ROOT, DOC), "utf8"))

/** A folder is named as `<path>/` (e.g. `flows/kinds/`, with or without `src/`); a file by its path or bare name. */
function namesFolder(text: string, folder: string): boolean {
  const path = folder.replace(/^src\//, "")
  return new RegExp(`(?<![\\w.-])(?:src/)?${escapeRegExp(path)}/`).test(text)
}
function namesFile(text: string, file: string): boolean {
  const path = file.replace(/^src\//, "")
  return new RegExp(`(?<![\\w./-])(?:src/)?${escapeRegExp(path)}(?![\\w-])`).test(text)
}
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
}

/** File paths the page names: a name with an extension this repository uses, maybe after folders. */
const NAMED_FILE = /(?<![\w./@*-])((?:\.?[\w-]+\/)*\.?[\w-]+(?:\.[\w-]+)*\.(?:ts|mjs|cjs|json|jsonc|md))(?![\w-])/g

describe("docs/architecture.md is true to the tree", () => {
  it("names every folder of src/", () => {
    const missing = [...folders].filter((f) => f.startsWith("src/") && !namesFolder(doc, f))
    expect(missing, `folders ${DOC} does not name`).toEqual([])
  })

  it("names every file directly in src/, bin/ and scripts/", () => {
    const top = files.filter((p) => /^(src|bin|scripts)\/[^/]+$/.test(p) && !p.endsWith(".test.ts"))
    const missing = top.filter((p) => !namesFile(doc, p))
    expect(missing, `files ${DOC} does not name`).toEqual([])
  })

  it("every file it names exists (by its path, or its path's end under some folder)", () => {
    const gone: string[] = []
    for (const match of doc.matchAll(NAMED_FILE)) {
      const named = match[1]!
      // Links to other pages of docs/ are checked by test/repo-hygiene.test.ts.
      if (/^[\w-]+\.md$/.test(named) && files.includes(`docs/${named}`)) continue
      if (!files.some((p) => p === named || p.endsWith(`/${named}`))) gone.push(named)
    }
    expect([...new Set(gone)], `files ${DOC} names that are not in the tree`).toEqual([])
  })

  it("the checks find what they look for", () => {
    expect(namesFolder("the `flows/kinds/` folder", "src/flows/kinds")).toBe(true)
    expect(namesFolder("the `src/flows/kinds/` folder", "src/flows/kinds")).toBe(true)
    expect(namesFolder("the `subflows/kinds/` folder", "src/flows/kinds")).toBe(false)
    expect(namesFile("pipeline.ts, router.ts", "src/router.ts")).toBe(true)
    expect(namesFile("`src/types.ts`", "src/types.ts")).toBe(true)
    expect(namesFile("pipeline-types.ts", "src/types.ts")).toBe(false)
    expect(namesFile("providers/types.ts", "src/types.ts")).toBe(false)
    expect(
      [..."lib/random.ts, `.dependency-cruiser.cjs`, src/**/*.test.ts".matchAll(NAMED_FILE)].map((m) => m[1]),
    ).toEqual(["lib/random.ts", ".dependency-cruiser.cjs"])
    expect(withoutDiffs("a\n```diff\n+++ src/x.ts\n```\nb\n```\nsrc/y.ts\n```")).toBe("a\nb\n```\nsrc/y.ts\n```")
  })
})
