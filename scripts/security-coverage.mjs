// Security case coverage: maps every case id in docs/security.md to the tests whose names carry it; fails on gaps.
//
// Usage: npm run security:coverage [-- --markdown] [-- --spec <path>] [-- --json]
//   (no flag)   print the table; exit 1 when an id has no test (outside PENDING_FEATURES) or when the
//               "Covered by" column of docs/security.md is out of date.
//   --markdown  rewrite the "Covered by" column of docs/security.md (between the coverage markers), then check.
//   --spec P    also compare the ids of docs/security.md with those of a case list P (e.g. the upstream spec).
//   --json      print the result as JSON instead of a table.
//
// A test covers an id when the id appears in its title or in the title of a describe() around it. Titles are
// read with the TypeScript parser, so ids in comments or assertion messages do not count; template titles
// count by their text and by the string literals a `${name}` interpolation can take (a const or a for-of
// over literals in scope); `.each` titles with a placeholder count the ids in their table. it.todo, .skip
// and .fails (a known bug, the attack still works) do not count; skipIf/runIf do. In bench/ files an id
// counts when it appears in a string literal (a case name), since benchmark cases are not it() calls; stress/ files
// (npm run stress, R1-R10) are read the same way: each run names its id in its result and checks.
import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join, relative, sep } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"

/**
 * Ids whose feature has not landed: reported as "pending: <feature>" instead of failing the run.
 * Remove an entry when its feature lands; the run says when a pending id already has a test.
 * Patterns: an exact id, or a prefix ending in "*" that stands for the digits (so "R*" is R1..R10, not RD-01).
 */
export const PENDING_FEATURES = []

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..")
const DOC = join(ROOT, "docs", "security.md")
const MARK_START = "<!-- coverage:start -->"
const MARK_END = "<!-- coverage:end -->"

/** Where tests live (vitest.config.ts includes), the benchmark for timing bounds, and the stress runs (R1-R10). */
const SOURCES = [
  { dir: "test", match: /\.test\.[cm]?[jt]sx?$/, kind: "test" },
  { dir: "src", match: /\.test\.[cm]?[jt]sx?$/, kind: "test" },
  { dir: "bench", match: /\.[cm]?[jt]sx?$/, kind: "bench" },
  { dir: "stress", match: /\.[cm]?[jt]sx?$/, kind: "bench" },
]

const CASE_ID = /^(?:[A-Z][A-Z0-9]-\d{2}|R\d{1,2})$/
const ID_IN_TEXT = /\b(?:[A-Z][A-Z0-9]-\d{2}|R\d{1,2})\b/g

const TEST_FNS = new Set(["it", "test", "bench"])
const SUITE_FNS = new Set(["describe", "suite"])
/** Modifiers that make a test or suite not count as coverage. */
const NOT_RUN = new Set(["skip", "todo", "fails"])

// ---------------------------------------------------------------------------------------------------------
// docs/security.md: the case list

/** Splits a markdown table row into cells (a pipe escaped as \| stays inside its cell). */
function cells(line) {
  const inner = line.trim().replace(/^\|/, "").replace(/\|$/, "")
  return inner.split(/(?<!\\)\|/).map((c) => c.trim())
}

function idOfCell(cell) {
  const bare = cell.replace(/[`*]/g, "").trim()
  return CASE_ID.test(bare) ? bare : undefined
}

/** The case ids of docs/security.md in order: table rows between the markers whose first cell is an id. */
function readCaseIds(text) {
  const start = text.indexOf(MARK_START)
  const end = text.indexOf(MARK_END)
  if (start === -1 || end === -1 || end < start)
    throw new Error(`docs/security.md: missing ${MARK_START} / ${MARK_END} markers`)
  const ids = []
  for (const line of text.slice(start, end).split("\n")) {
    if (!line.trim().startsWith("|")) continue
    const id = idOfCell(cells(line)[0] ?? "")
    if (!id) continue
    if (ids.includes(id)) throw new Error(`docs/security.md: case id ${id} is listed twice`)
    ids.push(id)
  }
  if (ids.length === 0) throw new Error("docs/security.md: no case ids found between the coverage markers")
  return ids
}

/** Ids of another case list (the upstream spec): ids in the cells of table rows, and bold R<n> headings. */
function readSpecIds(text) {
  const ids = new Set()
  for (const line of text.split("\n")) {
    if (line.trim().startsWith("|"))
      for (const c of cells(line)) {
        const id = idOfCell(c)
        if (id) ids.add(id)
      }
    for (const m of line.matchAll(/\*\*(R\d{1,2})\b/g)) ids.add(m[1])
  }
  return [...ids]
}

// ---------------------------------------------------------------------------------------------------------
// Pending features

function patternMatches(pattern, id) {
  if (!pattern.endsWith("*")) return pattern === id
  return new RegExp(`^${pattern.slice(0, -1).replace(/[-]/g, "\\-")}\\d+$`).test(id)
}

function pendingFeature(id) {
  return PENDING_FEATURES.find((p) => p.ids.some((pattern) => patternMatches(pattern, id)))?.feature
}

// ---------------------------------------------------------------------------------------------------------
// Test titles

function listFiles(dir, match) {
  let entries
  try {
    entries = readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
  } catch {
    return []
  }
  return entries
    .filter((e) => e.isFile() && match.test(e.name))
    .map((e) =>
      relative(ROOT, join(e.parentPath ?? e.path, e.name))
        .split(sep)
        .join("/"),
    )
    .filter((f) => !f.split("/").includes("node_modules"))
    .sort()
}

function idsIn(text) {
  return new Set(text.match(ID_IN_TEXT) ?? [])
}

/** `it.skip.each(t)` → { root: "it", modifiers: ["skip", "each"], eachArgs: [t] }; undefined when not a test call. */
function calleeChain(expr) {
  const modifiers = []
  const eachArgs = []
  let node = expr
  for (;;) {
    if (ts.isCallExpression(node)) {
      // it.each(table)(title, fn), it.skipIf(cond)(title, fn), it.for(table)(title, fn)
      eachArgs.push(...node.arguments)
      node = node.expression
    } else if (ts.isPropertyAccessExpression(node)) {
      modifiers.unshift(node.name.text)
      node = node.expression
    } else if (ts.isIdentifier(node)) {
      return { root: node.text, modifiers, eachArgs }
    } else {
      return undefined
    }
  }
}

/** Whether a declaration name (an identifier or a destructuring pattern) binds `name`. */
function binds(node, name) {
  if (ts.isIdentifier(node)) return node.text === name
  if (ts.isObjectBindingPattern(node) || ts.isArrayBindingPattern(node))
    return node.elements.some((e) => ts.isBindingElement(e) && binds(e.name, name))
  return false
}

/** `c.id`, `row[0]`, `c` → `c`: the variable an interpolation reads. */
function rootName(expr) {
  let node = expr
  while (
    ts.isPropertyAccessExpression(node) ||
    ts.isElementAccessExpression(node) ||
    ts.isParenthesizedExpression(node)
  )
    node = node.expression
  return ts.isIdentifier(node) ? node.text : undefined
}

/**
 * Ids a `${name}` interpolation can take: the ids written in the initializer of the const that declares it,
 * or in the array a for-of variable runs over (following one more name when that array is itself a const).
 */
function literalIdsOf(name, from, depth = 0) {
  const found = new Set()
  const add = (expr, scope) => {
    for (const id of idsIn(expr.getText())) found.add(id)
    const next = rootName(expr)
    if (next && next !== name && depth < 3) for (const id of literalIdsOf(next, scope, depth + 1)) found.add(id)
  }
  for (let scope = from.parent; scope; scope = scope.parent) {
    if (
      ts.isForOfStatement(scope) &&
      ts.isVariableDeclarationList(scope.initializer) &&
      scope.initializer.declarations.some((d) => binds(d.name, name))
    ) {
      add(scope.expression, scope)
      break
    }
    if (ts.isBlock(scope) || ts.isSourceFile(scope) || ts.isCaseClause(scope)) {
      for (const statement of scope.statements) {
        if (!ts.isVariableStatement(statement) || statement.pos > from.pos) continue
        for (const d of statement.declarationList.declarations)
          if (binds(d.name, name) && d.initializer) add(d.initializer, statement)
      }
    }
    if (found.size > 0) break
  }
  return found
}

/** The ids a test or suite title can carry. */
function titleIds(title, chain) {
  const ids = idsIn(title.getText())
  const visit = (n) => {
    const name = ts.isTemplateSpan(n) ? rootName(n.expression) : undefined
    if (name) for (const id of literalIdsOf(name, title)) ids.add(id)
    ts.forEachChild(n, visit)
  }
  visit(title)
  const placeholder = /%[sdifjoO#%]|\$[A-Za-z_]/.test(title.getText())
  if (placeholder && chain.modifiers.some((m) => m === "each" || m === "for"))
    for (const a of chain.eachArgs) for (const id of idsIn(a.getText())) ids.add(id)
  return ids
}

/** Every test in one file: its ids (own title plus enclosing suites) and whether it runs. */
function testsOf(file) {
  const text = readFileSync(join(ROOT, file), "utf8")
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  )
  const tests = []
  const walk = (node, suiteIds, suiteRuns) => {
    if (ts.isCallExpression(node)) {
      const chain = calleeChain(node.expression)
      const title = node.arguments[0]
      if (chain && title && (TEST_FNS.has(chain.root) || SUITE_FNS.has(chain.root))) {
        const ids = new Set([...suiteIds, ...titleIds(title, chain)])
        const modifier = chain.modifiers.find((m) => NOT_RUN.has(m))
        const runs = suiteRuns === true ? (modifier ?? true) : suiteRuns
        if (TEST_FNS.has(chain.root)) {
          tests.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, ids, runs })
          return
        }
        for (const arg of node.arguments.slice(1)) walk(arg, ids, runs)
        return
      }
    }
    ts.forEachChild(node, (child) => walk(child, suiteIds, suiteRuns))
  }
  walk(source, new Set(), true)
  return tests
}

/** Ids named in string literals of a benchmark file (its case names). */
function benchIdsOf(file) {
  const text = readFileSync(join(ROOT, file), "utf8")
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const ids = new Set()
  const walk = (node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node))
      for (const id of idsIn(node.getText())) ids.add(id)
    ts.forEachChild(node, walk)
  }
  walk(source)
  return ids
}

// ---------------------------------------------------------------------------------------------------------
// Coverage

function coverage(caseIds) {
  const byId = new Map(caseIds.map((id) => [id, { files: new Map(), notRun: new Map() }]))
  const unknown = new Map()
  for (const { dir, match, kind } of SOURCES) {
    for (const file of listFiles(dir, match)) {
      const found =
        kind === "bench" ? [...benchIdsOf(file)].map((id) => ({ file, ids: new Set([id]), runs: true })) : testsOf(file)
      for (const t of found) {
        for (const id of t.ids) {
          const entry = byId.get(id)
          if (!entry) {
            if (!unknown.has(id)) unknown.set(id, new Set())
            unknown.get(id).add(t.file)
            continue
          }
          const bucket = t.runs === true ? entry.files : entry.notRun
          const key = t.runs === true ? t.file : `${t.file} (${t.runs})`
          bucket.set(key, (bucket.get(key) ?? 0) + 1)
        }
      }
    }
  }
  return caseIds
    .map((id) => {
      const { files, notRun } = byId.get(id)
      const pending = pendingFeature(id)
      const status = files.size > 0 ? "covered" : pending ? "pending" : "missing"
      return {
        id,
        status,
        pending,
        files: [...files.keys()],
        tests: [...files.values()].reduce((a, b) => a + b, 0),
        notRun: [...notRun.keys()],
      }
    })
    .concat([...unknown].map(([id, files]) => ({ id, status: "unknown", files: [...files], tests: 0, notRun: [] })))
}

function coveredByCell(row) {
  if (row.status === "covered") return row.files.map((f) => `\`${f}\``).join(", ")
  if (row.status === "pending") return `pending: ${row.pending}`
  return "**no test**"
}

/** docs/security.md with the last cell of every case row between the markers set from `rows`. */
function renderDoc(text, rows) {
  const start = text.indexOf(MARK_START)
  const end = text.indexOf(MARK_END)
  const byId = new Map(rows.map((r) => [r.id, r]))
  const body = text
    .slice(start, end)
    .split("\n")
    .map((line) => {
      if (!line.trim().startsWith("|")) return line
      const parts = cells(line)
      const row = byId.get(idOfCell(parts[0] ?? "") ?? "")
      if (!row) return line
      parts[parts.length - 1] = coveredByCell(row)
      return `| ${parts.join(" | ")} |`
    })
  return text.slice(0, start) + body.join("\n") + text.slice(end)
}

function printTable(rows) {
  const width = Math.max(...rows.map((r) => r.id.length), 2)
  console.log(`${"id".padEnd(width)}  ${"status".padEnd(8)}  tests  covered by`)
  for (const r of rows) {
    const what =
      r.status === "covered"
        ? r.files.join(", ")
        : r.status === "pending"
          ? `pending: ${r.pending}`
          : r.status === "unknown"
            ? `not in docs/security.md: ${r.files.join(", ")}`
            : "NO TEST"
    const extra = r.notRun.length > 0 ? `  [not counted: ${r.notRun.join(", ")}]` : ""
    console.log(`${r.id.padEnd(width)}  ${r.status.padEnd(8)}  ${String(r.tests).padStart(5)}  ${what}${extra}`)
  }
}

// ---------------------------------------------------------------------------------------------------------

function main(argv) {
  const markdown = argv.includes("--markdown")
  const json = argv.includes("--json")
  const specAt = argv.indexOf("--spec")
  let doc = readFileSync(DOC, "utf8")
  const caseIds = readCaseIds(doc)
  const rows = coverage(caseIds)
  const problems = []

  if (markdown) {
    const next = renderDoc(doc, rows)
    if (next !== doc) writeFileSync(DOC, next)
    doc = next
  } else if (renderDoc(doc, rows) !== doc) {
    problems.push(
      'docs/security.md: the "Covered by" column is out of date; run `npm run security:coverage -- --markdown`',
    )
  }

  if (specAt !== -1) {
    const specPath = argv[specAt + 1]
    if (!specPath) throw new Error("--spec needs a path")
    const specIds = readSpecIds(readFileSync(specPath, "utf8"))
    const missing = specIds.filter((id) => !caseIds.includes(id))
    const extra = caseIds.filter((id) => !specIds.includes(id))
    if (missing.length > 0) problems.push(`ids in ${specPath} but not in docs/security.md: ${missing.join(", ")}`)
    if (extra.length > 0) console.log(`note: ids in docs/security.md but not in ${specPath}: ${extra.join(", ")}`)
  }

  const count = (s) => rows.filter((r) => r.status === s)
  const missing = count("missing")
  const unknown = count("unknown")
  const stillPending = count("covered").filter((r) => pendingFeature(r.id))
  if (missing.length > 0) problems.push(`no test names these ids: ${missing.map((r) => r.id).join(", ")}`)
  if (unknown.length > 0)
    problems.push(`test names carry ids that docs/security.md does not list: ${unknown.map((r) => r.id).join(", ")}`)

  if (json) {
    console.log(JSON.stringify({ rows, problems }, null, 2))
  } else {
    printTable(rows)
    console.log("")
    console.log(
      `${caseIds.length} ids: ${count("covered").length} covered, ${count("pending").length} pending, ${missing.length} missing`,
    )
    for (const p of PENDING_FEATURES) {
      const ids = rows.filter((r) => r.status === "pending" && r.pending === p.feature).map((r) => r.id)
      if (ids.length > 0) console.log(`pending: ${p.feature}: ${ids.join(", ")}`)
    }
    if (stillPending.length > 0)
      console.log(
        `note: these pending-feature ids now have tests; PENDING_FEATURES can shrink: ${stillPending.map((r) => r.id).join(", ")}`,
      )
    for (const p of problems) console.error(`error: ${p}`)
  }
  return problems.length === 0 ? 0 : 1
}

try {
  process.exitCode = main(process.argv.slice(2))
} catch (error) {
  console.error(`security:coverage: ${error instanceof Error ? error.message : String(error)}`)
  process.exitCode = 2
}
