// What an Edge or Workers bundle of the package holds. Every entry that must run off Node.js is bundled from dist/ with
// esbuild the way Wrangler resolves it (conditions workerd, worker, browser; platform neutral) and the bundles are
// checked three ways:
// - no import of a Node.js built-in (node:* or a bare builtin name), dynamic imports included;
// - no reference to the globals workerd lacks without nodejs_compat (Buffer, process, setImmediate, global,
//   __dirname, require) outside a `typeof` guard: found in the syntax tree, so strings, comments and property names
//   (`x.process`, `{ process: … }`) do not count;
// - the core entries load in a fresh node:vm context that has web globals only (no Buffer, no process, no require).
// The framework packages the app brings (next, react) and @simplewebauthn/server (an optional peer loaded on first use)
// stay outside the bundles, as in the app's own build.
import { readFileSync } from "node:fs"
import { builtinModules } from "node:module"
import { fileURLToPath } from "node:url"
import vm from "node:vm"
import { build, type Plugin } from "esbuild"
import ts from "typescript"
import { beforeAll, describe, expect, it } from "vitest"
import { ensureDist } from "../support/dist.js"

const ROOT = fileURLToPath(new URL("../../", import.meta.url))
const CONDITIONS = ["workerd", "worker", "browser"]
const EXTERNAL = ["next", "next/*", "react", "react/*", "react-dom", "react-dom/*", "@simplewebauthn/server"]

/** The entries the brief of the Web-runtime work names as the core: these must also load in a web-only context. */
const CORE = [".", "./hono", "./next", "./jwt", "./client"]
/**
 * Entries that are not for a Worker at all: the conformance suites (they import vitest), and the Node.js entries whose
 * off-Node stand-ins throw on import by design (test/runtimes/off-node.test.ts).
 */
const NOT_FOR_WORKERS = new Set([
  "./adapters/testing",
  "./stores/testing",
  "./node",
  "./express",
  "./providers/nodemailer",
  // next-auth 4's NextAuth and getServerSession serve pages-router API routes and getServerSideProps, which run on
  // Node.js (so did next-auth 4's own: its core needs node:crypto). Their pages-router path reads the node request
  // (node-io.ts). The v4 parts that run on the Edge runtime are /v4/jwt, /v4/middleware and /v4/react, checked here.
  "./v4",
  "./v4/next",
  // Bundled only by the app's own vite, with the framework's virtual modules ($app/*, $env/dynamic/private, Qwik City's
  // @qwik-city-plan) and .svelte files that esbuild cannot resolve alone: test/runtimes/frameworks.test.ts bundles them
  // for workerd and the Edge runtime with stand-ins for those modules.
  "./sveltekit",
  "./sveltekit/client",
  "./sveltekit/webauthn",
  "./sveltekit/components",
  "./qwik",
])

const manifest = JSON.parse(readFileSync(`${ROOT}package.json`, "utf8")) as { exports: Record<string, unknown> }
const WEB_ENTRIES = Object.keys(manifest.exports).filter((subpath) => !NOT_FOR_WORKERS.has(subpath))
const specifier = (subpath: string): string => (subpath === "." ? "gatehouse" : `gatehouse/${subpath.slice(2)}`)

const NODE_BUILTIN = new RegExp(
  `^(?:node:.*|(?:${builtinModules.map((m) => m.replace(/\//g, "\\/")).join("|")})(?:/.*)?)$`,
)

interface Bundle {
  subpath: string
  code: string
  exports: string[]
}

/** Builtin imports the bundles reached: `importer → builtin`, with the build kept going so all are listed. */
const builtinImports = new Set<string>()
const recordBuiltins: Plugin = {
  name: "record-node-builtins",
  setup(build) {
    build.onResolve({ filter: NODE_BUILTIN }, (args) => {
      builtinImports.add(`${args.importer.replace(ROOT, "")} imports ${args.path}`)
      return { path: args.path, external: true }
    })
  },
}

async function bundleAll(subpaths: string[], format: "esm" | "iife"): Promise<Bundle[]> {
  const entries = subpaths.map((subpath, index) => ({ subpath, name: `entry-${index}` }))
  const result = await build({
    entryPoints: Object.fromEntries(entries.map(({ name }) => [name, `virtual:${name}`])),
    absWorkingDir: ROOT,
    outdir: "/virtual-out",
    bundle: true,
    write: false,
    format,
    globalName: format === "iife" ? "entry" : undefined,
    platform: "neutral",
    mainFields: ["module", "main"],
    conditions: CONDITIONS,
    target: "es2022",
    metafile: true,
    logLevel: "silent",
    external: EXTERNAL,
    // The package's own "exports" and "imports" decide, not the repo's tsconfig paths (see runtime-kit.ts).
    tsconfigRaw: {},
    plugins: [
      recordBuiltins,
      {
        name: "one-line-entries",
        setup(build) {
          build.onResolve({ filter: /^virtual:/ }, (args) => ({ path: args.path.slice(8), namespace: "entry" }))
          build.onLoad({ filter: /.*/, namespace: "entry" }, (args) => {
            const subpath = entries.find(({ name }) => name === args.path)?.subpath ?? "."
            return { contents: `export * from "${specifier(subpath)}"\n`, resolveDir: ROOT, loader: "js" }
          })
        },
      },
    ],
  })
  return entries.map(({ subpath, name }) => {
    const file = result.outputFiles.find((f) => f.path.endsWith(`/${name}.js`))
    const meta = Object.entries(result.metafile.outputs).find(([path]) => path.endsWith(`/${name}.js`))?.[1]
    return { subpath, code: file?.text ?? "", exports: meta?.exports ?? [] }
  })
}

const NODE_GLOBALS = new Set(["Buffer", "process", "setImmediate", "global", "__dirname", "__filename", "require"])

/** Whether `node` sits where a `typeof <name>` test guards it: the test itself, or the branch/operand it protects. */
function guarded(node: ts.Node, name: string): boolean {
  if (ts.isTypeOfExpression(node.parent)) return true
  const mentionsTypeof = (n: ts.Node): boolean => new RegExp(`typeof\\s+${name}\\b`).test(n.getText())
  for (let child: ts.Node = node, parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (ts.isConditionalExpression(parent) && child !== parent.condition && mentionsTypeof(parent.condition))
      return true
    if (
      ts.isBinaryExpression(parent) &&
      child === parent.right &&
      (parent.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken ||
        parent.operatorToken.kind === ts.SyntaxKind.BarBarToken) &&
      mentionsTypeof(parent.left)
    )
      return true
    if (ts.isIfStatement(parent) && child !== parent.expression && mentionsTypeof(parent.expression)) return true
  }
  return false
}

/** Whether an identifier is a property name or a declaration's own name, not a read of a global. */
function isNameOnly(node: ts.Identifier): boolean {
  const parent = node.parent
  return (
    (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
    (ts.isPropertyAssignment(parent) && parent.name === node) ||
    (ts.isMethodDeclaration(parent) && parent.name === node) ||
    (ts.isPropertyDeclaration(parent) && parent.name === node) ||
    (ts.isBindingElement(parent) && parent.propertyName === node) ||
    (ts.isVariableDeclaration(parent) && parent.name === node) ||
    (ts.isParameter(parent) && parent.name === node) ||
    (ts.isFunctionDeclaration(parent) && parent.name === node) ||
    ts.isLabeledStatement(parent)
  )
}

/** The names a binding pattern or identifier declares. */
function boundNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text]
  return name.elements.flatMap((element) => (ts.isOmittedExpression(element) ? [] : boundNames(element.name)))
}

/** Whether `name` is a local binding where `node` stands (a parameter, or a declaration in an enclosing block). */
function declaredLocally(node: ts.Node, name: string): boolean {
  for (let scope = node.parent; scope; scope = scope.parent) {
    if (ts.isFunctionLike(scope) && scope.parameters.some((p) => boundNames(p.name).includes(name))) return true
    if ((ts.isForStatement(scope) || ts.isForOfStatement(scope) || ts.isForInStatement(scope)) && scope.initializer) {
      const init = scope.initializer
      if (ts.isVariableDeclarationList(init) && init.declarations.some((d) => boundNames(d.name).includes(name)))
        return true
    }
    if (ts.isBlock(scope) || ts.isSourceFile(scope) || ts.isCaseClause(scope) || ts.isDefaultClause(scope)) {
      for (const statement of scope.statements) {
        if (
          ts.isVariableStatement(statement) &&
          statement.declarationList.declarations.some((d) => boundNames(d.name).includes(name))
        )
          return true
        if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name?.text === name)
          return true
      }
    }
  }
  return false
}

/** `module: identifier` for each unguarded read of a Node.js global; the module is the bundle's `// dist/…` header. */
function nodeGlobalReads(code: string): string[] {
  const source = ts.createSourceFile("bundle.js", code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS)
  const headers = [...code.matchAll(/^\/\/ (\S+)$/gm)].map((m) => ({ at: m.index ?? 0, module: m[1] ?? "?" }))
  const moduleAt = (position: number): string => headers.findLast((h) => h.at <= position)?.module ?? "?"
  const found = new Set<string>()
  const visit = (node: ts.Node): void => {
    if (
      ts.isIdentifier(node) &&
      NODE_GLOBALS.has(node.text) &&
      !isNameOnly(node) &&
      !guarded(node, node.text) &&
      !declaredLocally(node, node.text)
    )
      found.add(`${moduleAt(node.getStart())}: ${node.text}`)
    ts.forEachChild(node, visit)
  }
  visit(source)
  return [...found]
}

/** A context with the web platform's globals only, as workerd without nodejs_compat has them. */
function webOnlyContext(): vm.Context {
  const names = [
    "AbortController",
    "AbortSignal",
    "Blob",
    "BroadcastChannel",
    "CompressionStream",
    "CryptoKey",
    "DecompressionStream",
    "DOMException",
    "Event",
    "EventTarget",
    "File",
    "FormData",
    "Headers",
    "MessageChannel",
    "ReadableStream",
    "Request",
    "Response",
    "TextDecoder",
    "TextDecoderStream",
    "TextEncoder",
    "TextEncoderStream",
    "TransformStream",
    "URL",
    "URLSearchParams",
    "WritableStream",
    "atob",
    "btoa",
    "clearInterval",
    "clearTimeout",
    "console",
    "crypto",
    "fetch",
    "navigator",
    "performance",
    "queueMicrotask",
    "setInterval",
    "setTimeout",
    "structuredClone",
  ]
  const globals: Record<string, unknown> = {}
  for (const name of names) if (name in globalThis) globals[name] = (globalThis as Record<string, unknown>)[name]
  const context = vm.createContext(globals)
  vm.runInContext("globalThis.self = globalThis", context)
  return context
}

let bundles: Bundle[] = []

beforeAll(async () => {
  ensureDist()
  bundles = await bundleAll(WEB_ENTRIES, "esm")
}, 600_000)

describe("bundled for workerd (conditions workerd, worker, browser; platform neutral)", () => {
  it("covers the core entries and every other entry meant to run there", () => {
    for (const subpath of CORE) expect(WEB_ENTRIES).toContain(subpath)
    expect(bundles.map((b) => b.subpath)).toEqual(WEB_ENTRIES)
  })

  it("imports no Node.js built-in module", () => {
    expect([...builtinImports].sort()).toEqual([])
  })

  it.each(WEB_ENTRIES)("%s reads no Buffer, process or other Node.js global outside a typeof guard", (subpath) => {
    const bundle = bundles.find((b) => b.subpath === subpath)
    expect(nodeGlobalReads(bundle?.code ?? "")).toEqual([])
  })

  it("the checks can fail: an unguarded process read and a builtin import are found, a guarded read is not", () => {
    const code = [
      "// dist/a.js",
      'const x = typeof process !== "undefined" ? process.env.A : undefined',
      'const y = { process: 1, Buffer: 2 }.process; const s = "process Buffer"',
      "function f(global) { return global.x } { const require = () => 1; require() }",
      "// dist/b.js",
      "const z = Buffer.from(s)",
    ].join("\n")
    expect(nodeGlobalReads(code)).toEqual(["dist/b.js: Buffer"])
    expect(NODE_BUILTIN.test("node:crypto") && NODE_BUILTIN.test("net") && !NODE_BUILTIN.test("oauth4webapi")).toBe(
      true,
    )
  })
})

describe("the core entries in a context with web globals only", () => {
  it.each(CORE)("%s loads there and has its exports", async (subpath) => {
    const [bundle] = await bundleAll([subpath], "iife")
    const context = webOnlyContext()
    expect(vm.runInContext("typeof Buffer + typeof process + typeof require", context)).toBe(
      "undefinedundefinedundefined",
    )
    vm.runInContext(bundle?.code ?? "", context, { filename: `${specifier(subpath)} (bundle)` })
    const loaded = vm.runInContext("Object.keys(globalThis.entry).sort()", context) as string[]
    const expected = bundles.find((b) => b.subpath === subpath)?.exports ?? []
    expect(expected.length).toBeGreaterThan(0)
    expect([...loaded]).toEqual([...expected].sort())
  })
})
