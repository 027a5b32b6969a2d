// Every reference in the code and docs points into this repository or to a public standard: no citation of notes kept
// outside it ("design rule N", "issue N", wire.md, seed.md, a spec folder), and every `docs/<page>.md §N` or
// `docs/<page>.md#anchor` (and every Markdown link with a #fragment between the docs) names a page and heading that
// exist. docs/contributing.md ("What comments may cite") gives the rule.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const SELF = relative(ROOT, fileURLToPath(import.meta.url))

/** Where references are checked; README.md is a file, the rest folders. */
const ROOTS = ["src", "test", "test-d", "scripts", "bench", "stress", "demo", "examples", "bin", "docs", "README.md"]
const TEXT = /\.(?:[cm]?[jt]sx?|md|sh)$/
const SKIP_DIRS = new Set(["node_modules", "dist", ".next", ".demo-data"])

function walk(path: string, out: string[]): void {
  const full = join(ROOT, path)
  if (!existsSync(full)) return
  if (statSync(full).isDirectory()) {
    for (const entry of readdirSync(full)) if (!SKIP_DIRS.has(entry)) walk(join(path, entry), out)
  } else if (TEXT.test(path) && path !== SELF) out.push(path)
}

const files = ROOTS.flatMap((root) => {
  const out: string[] = []
  walk(root, out)
  return out
})
const read = (path: string): string => readFileSync(join(ROOT, path), "utf8")

/** A line number and the text around a match, for a failure message a reader can act on. */
function where(path: string, text: string, index: number): string {
  const line = text.slice(0, index).split("\n").length
  const start = text.lastIndexOf("\n", index) + 1
  const end = text.indexOf("\n", index)
  const lineText = text.slice(start, end === -1 ? undefined : end).trim()
  return `${path}:${line}: ${lineText.slice(0, 160)}`
}

/** References to documents that are not in the repository. Each is built so this file's own text does not match it. */
const FORBIDDEN: readonly [string, RegExp][] = [
  ["the wire spec kept outside the repo (cite docs/wire-format.md §N)", new RegExp(["\\bwire", "\\.md\\b"].join(""))],
  ["the seed spec kept outside the repo", new RegExp(["\\bseed", "(?:\\.md\\b|\\s*§)"].join(""), "i")],
  ["a numbered design rule (cite docs/contributing.md#rule-N)", new RegExp(["\\bdesign", " rules? \\d"].join(""), "i")],
  ["an internal issue number (say what it was about)", new RegExp(["\\bissues?", "[ -]\\d"].join(""), "i")],
  ["a shared spec folder outside the repo", new RegExp(["shared/", "spec|spec/", "security"].join(""))],
  ["a benchmark baseline kept outside the repo", new RegExp(["BASE", "LINE\\.md|shared/", "bench"].join(""))],
]

/** In code (not in docs, where a relative link is normal), security.md must be named with its folder. */
const BARE_SECURITY = new RegExp(["(?<![\\w/\"'])security", "\\.md"].join(""))

describe("no reference to documents outside the repository", () => {
  it("no file cites wire/seed specs, numbered design rules, issue numbers or the shared spec folder", () => {
    const found: string[] = []
    for (const path of files) {
      const text = read(path)
      for (const [what, pattern] of FORBIDDEN) {
        const global = new RegExp(pattern.source, `${pattern.flags}g`)
        for (const match of text.matchAll(global)) found.push(`${where(path, text, match.index)}  [${what}]`)
      }
    }
    expect(found, found.join("\n")).toEqual([])
  })

  it("code names docs/security.md with its folder, so the case list it cites is the repository's", () => {
    const found: string[] = []
    for (const path of files.filter((p) => !p.endsWith(".md"))) {
      const text = read(path)
      for (const match of text.matchAll(new RegExp(BARE_SECURITY.source, "g")))
        found.push(where(path, text, match.index))
    }
    expect(found, found.join("\n")).toEqual([])
  })

  it("the checks above catch what they are for", () => {
    const samples = [
      ["see wire", ".md §3.2"],
      ["as seed", ".md says"],
      ["design", " rule 9"],
      ["the work of issue", " 15"],
      ["../shared", "/spec/security.md"],
      ["as in BASE", "LINE.md"],
    ].map((parts) => parts.join(""))
    for (const [i, sample] of samples.entries()) expect(FORBIDDEN[i]![1].test(sample), sample).toBe(true)
    expect(BARE_SECURITY.test(["(", "security.md §1.A)"].join(""))).toBe(true)
    expect(BARE_SECURITY.test("docs/security.md §1.A")).toBe(false)
    expect(FORBIDDEN.some(([, p]) => p.test("docs/wire-format.md §2.7 and docs/contributing.md#rule-9"))).toBe(false)
  })
})

/** The heading of a Markdown line: its level and text, or undefined. Fenced code is skipped by the caller. */
function headingOf(line: string): { level: number; text: string } | undefined {
  const match = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line)
  return match ? { level: match[1]!.length, text: match[2]! } : undefined
}

/** GitHub's anchor for a heading: lower-cased, punctuation dropped, spaces to hyphens; repeats get -1, -2, … */
function slug(text: string): string {
  return text
    .replace(/<\/?[a-z][^>]*>/gi, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, "")
    .replace(/ /g, "-")
}

interface Page {
  /** Every anchor: heading slugs and explicit `id="…"` attributes. */
  anchors: Set<string>
  /** Every section number: `2`, `2.7`, and `1.A` for a lettered heading under `## 1.` */
  sections: Set<string>
}

const pages = new Map<string, Page>()
function pageOf(path: string): Page | undefined {
  const known = pages.get(path)
  if (known) return known
  if (!existsSync(join(ROOT, path))) return undefined
  const page: Page = { anchors: new Set(), sections: new Set() }
  const counts = new Map<string, number>()
  const numbers: (string | undefined)[] = []
  let fenced = false
  for (const line of read(path).split("\n")) {
    if (/^(```|~~~)/.test(line)) fenced = !fenced
    if (fenced) continue
    for (const match of line.matchAll(/\bid="([^"]+)"/g)) page.anchors.add(match[1]!)
    const heading = headingOf(line)
    if (!heading) continue
    const base = slug(heading.text)
    const seen = counts.get(base) ?? 0
    counts.set(base, seen + 1)
    page.anchors.add(seen === 0 ? base : `${base}-${seen}`)
    numbers.length = heading.level
    const numbered = /^(\d+(?:\.\d+)*)\.?\s/.exec(heading.text)
    const lettered = /^([A-Z])\.\s/.exec(heading.text)
    let number: string | undefined
    if (numbered) number = numbered[1]
    else if (lettered) {
      const parent = numbers.slice(0, heading.level - 1).findLast((n) => n !== undefined)
      if (parent) number = `${parent}.${lettered[1]}`
    }
    numbers[heading.level - 1] = number
    if (number) page.sections.add(number)
  }
  pages.set(path, page)
  return page
}

const SECTION = "[0-9A-Z]+(?:\\.[0-9A-Z]+)*"
/** `docs/<page>.md`, then `#anchor`, or one or more `§N` (`§2.2, §2.9`, `§2.6-2.8`, `§2.2 and §2.9`). */
const CITATION = new RegExp(
  `docs/([\\w./-]+?\\.md)(?:#([\\w-]*\\w)(?![\\w<-])|((?:(?:,\\s*|\\s+and\\s+|\\s+)§\\s?${SECTION}(?:[-–]${SECTION})?)+))?`,
  "g",
)

function checkTarget(page: string, anchor: string | undefined, sections: string[]): string | undefined {
  const target = pageOf(page)
  if (!target) return `${page} does not exist`
  if (anchor !== undefined && !target.anchors.has(anchor)) return `${page} has no heading or id "${anchor}"`
  const missing = sections.filter((s) => !target.sections.has(s))
  if (missing.length) return `${page} has no section ${missing.map((s) => `§${s}`).join(", ")}`
  return undefined
}

describe("every docs citation resolves", () => {
  it("each `docs/<page>.md §N` and `docs/<page>.md#anchor` names an existing page, section and heading", () => {
    const broken: string[] = []
    let count = 0
    for (const path of files) {
      const text = read(path)
      for (const match of text.matchAll(CITATION)) {
        const [, page, anchor, list] = match
        const sections = [...(list ?? "").matchAll(new RegExp(`§\\s?(${SECTION})(?:[-–](${SECTION}))?`, "g"))].flatMap(
          (m) => (m[2] ? [m[1]!, m[2]] : [m[1]!]),
        )
        count++
        const problem = checkTarget(`docs/${page}`, anchor, sections)
        if (problem) broken.push(`${where(path, text, match.index)}  [${problem}]`)
      }
    }
    expect(count).toBeGreaterThan(100)
    expect(broken, broken.join("\n")).toEqual([])
  })

  it("each Markdown link with a #fragment in the docs and README points to an existing heading", () => {
    const broken: string[] = []
    for (const path of files.filter((p) => p.endsWith(".md"))) {
      const text = read(path).replace(/^(```|~~~)[\s\S]*?^\1/gm, "")
      for (const match of text.matchAll(/\]\(([^)\s]*?)#([^)\s]+)\)/g)) {
        const [, target = "", anchor = ""] = match
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue
        const page = target === "" ? path : relative(ROOT, resolve(ROOT, dirname(path), target))
        if (!page.endsWith(".md")) continue
        const problem = checkTarget(page, decodeURIComponent(anchor), [])
        if (problem) broken.push(`${where(path, text, match.index)}  [${problem}]`)
      }
    }
    expect(broken, broken.join("\n")).toEqual([])
  })

  it("the section and anchor reader knows the pages' numbering", () => {
    expect(checkTarget("docs/wire-format.md", undefined, ["2.7", "3.2", "8.1", "9"])).toBeUndefined()
    expect(checkTarget("docs/wire-format.md", undefined, ["2.99"])).toMatch(/no section §2\.99/)
    expect(checkTarget("docs/security.md", undefined, ["1.A", "2"])).toBeUndefined()
    expect(checkTarget("docs/contributing.md", "rule-9", [])).toBeUndefined()
    expect(checkTarget("docs/contributing.md", "rule-99", [])).toMatch(/no heading or id/)
    expect(checkTarget("docs/wire-format.md", "22-get-session", [])).toBeUndefined()
    expect(checkTarget("docs/wire-format.md", "27-getpost-callbackid", [])).toBeUndefined()
    expect(checkTarget("docs/no-such-page.md", undefined, [])).toMatch(/does not exist/)
  })
})
