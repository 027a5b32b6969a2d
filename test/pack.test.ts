// The published package: `npm pack` on a copy of the working tree (prepack builds dist/), the tarball installed in a
// fresh consumer project, every subpath of the exports map imported by node, and consumer code type-checked with
// moduleResolution bundler and nodenext (the browser entries also in a second project without Node's types), Auth.js-shaped
// app code checked against the tarball and, imports swapped, against @auth/core; the shipped Markdown's links and the
// absence of source maps. Subpaths come from package.json, so new ones are covered without edits here.
import { execFile } from "node:child_process"
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, posix } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const run = promisify(execFile)
const REPO = fileURLToPath(new URL("..", import.meta.url))
const FIXTURE = join(REPO, "test/support/pack-consumer")
const manifest = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as {
  exports: Record<string, string | { types?: string; import?: string; svelte?: string }>
  bin: Record<string, string>
}
const subpaths = Object.keys(manifest.exports)
/**
 * Entries that import SvelteKit's virtual modules ($env/dynamic/private, $app/paths), or Qwik City, which imports its
 * own (@qwik-city-plan): the app's vite bundles them (the "svelte" condition; package.json's "qwik" field), and node
 * alone cannot resolve those imports.
 */
const BUNDLER_ONLY = ["./sveltekit", "./sveltekit/client", "./sveltekit/webauthn", "./sveltekit/components", "./qwik"]
/** Library internals that no public entry may export (tests reach them by relative import). */
const INTERNALS = ["encodeToken", "decodeToken", "DEFAULT_MAX_AGE", "clearDiscoveryCache", "clearJwksCache"]
/**
 * Optional peers some subpaths need (adapters/testing imports vitest; the postgres types mention pg; the framework
 * integrations and gatehouse/react import or mention their framework), linked from the repo.
 */
const LINKED_PEERS = [
  "@builder.io/qwik",
  "@builder.io/qwik-city",
  "vitest",
  "pg",
  "@types/node",
  "@types/pg",
  "express",
  "@types/express",
  "hono",
  "next",
  "react",
  "@types/react",
  // gatehouse/sveltekit's types import @sveltejs/kit's, which import svelte's (the `*.svelte` modules of /components).
  "@sveltejs/kit",
  "svelte",
]
/** The oracle for Auth.js-shaped app code: the same code must compile against it (linked from the repo's dev dependencies). */
const AUTHJS = "@auth/core"
/** The entries a browser bundle imports: they must type-check with the DOM library and no Node types at all. */
const BROWSER_ENTRIES = ["./client", "./react", "./v4/react", "./webauthn", "./solid-start/client"]
/** What a React app without @types/node has: React's types (and csstype, which they import). */
const BROWSER_PEERS = ["react", "@types/react", "csstype"]

/**
 * Child processes get the environment without the outer npm's per-run settings (`npm test` exports its whole config,
 * the project's prefix included, as npm_* variables); only where packages come from is kept.
 */
const KEPT_NPM_SETTINGS = new Set(["npm_config_cache", "npm_config_registry", "npm_config_userconfig"])
const env = Object.fromEntries(
  Object.entries(process.env).filter(
    ([k]) => !k.toLowerCase().startsWith("npm_") || KEPT_NPM_SETTINGS.has(k.toLowerCase()),
  ),
)
const sh = (file: string, args: string[], cwd: string) => run(file, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 })

let work = ""
let consumer = ""
let browserConsumer = ""
let packed: string[] = []

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "gatehouse-pack-"))
  // A fresh clone's files (tracked and new, none ignored, so no dist/), with the repo's node_modules for the build.
  const stage = join(work, "stage")
  const { stdout: listed } = await sh("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], REPO)
  for (const file of new Set(listed.split("\0"))) {
    if (!file || !existsSync(join(REPO, file))) continue
    mkdirSync(dirname(join(stage, file)), { recursive: true })
    cpSync(join(REPO, file), join(stage, file))
  }
  symlinkSync(join(REPO, "node_modules"), join(stage, "node_modules"), "dir")
  const { stdout: packOut } = await sh("npm", ["pack", "--json", "--pack-destination", work], stage)
  // Lifecycle output (the prepack build) may precede npm's JSON report.
  const report = JSON.parse(packOut.slice(packOut.indexOf("\n[") + 1 || packOut.indexOf("["))) as {
    filename: string
    files: { path: string }[]
  }[]
  packed = report[0]!.files.map((f) => f.path)
  const tarball = join(work, report[0]!.filename)

  consumer = join(work, "consumer")
  mkdirSync(consumer)
  writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }))
  await sh(
    "npm",
    [
      "install",
      tarball,
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      "--no-package-lock",
      "--loglevel=error",
    ],
    consumer,
  )
  for (const peer of [...LINKED_PEERS, AUTHJS]) {
    mkdirSync(dirname(join(consumer, "node_modules", peer)), { recursive: true })
    if (!existsSync(join(consumer, "node_modules", peer)))
      symlinkSync(join(REPO, "node_modules", peer), join(consumer, "node_modules", peer), "dir")
  }
  for (const file of ["usage.ts", "authjs-app.ts", "import-all.mjs"]) cpSync(join(FIXTURE, file), join(consumer, file))

  // A second install with nothing of Node's in reach: its own node_modules holds no @types/node, so a Node type
  // named anywhere in the browser entries' declarations is an error rather than silently found.
  browserConsumer = join(work, "browser-consumer")
  mkdirSync(browserConsumer)
  writeFileSync(
    join(browserConsumer, "package.json"),
    JSON.stringify({ name: "browser-consumer", private: true, type: "module" }),
  )
  await sh(
    "npm",
    [
      "install",
      tarball,
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      "--no-package-lock",
      "--loglevel=error",
    ],
    browserConsumer,
  )
  for (const peer of BROWSER_PEERS) {
    mkdirSync(dirname(join(browserConsumer, "node_modules", peer)), { recursive: true })
    symlinkSync(join(REPO, "node_modules", peer), join(browserConsumer, "node_modules", peer), "dir")
  }
  cpSync(join(FIXTURE, "browser.tsx"), join(browserConsumer, "browser.tsx"))
}, 180_000)

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true })
})

// 120 s: a test that runs tsc over the consumer code several times may share the two cores with another file.
describe("npm pack", { timeout: 120_000 }, () => {
  it("ships dist/ with every file the exports map and bin name, and no sources or tests", () => {
    const targets = Object.values(manifest.exports).flatMap((t) =>
      typeof t === "string" ? [t] : [t.types, t.import, t.svelte].filter((x) => x !== undefined),
    )
    for (const target of [...targets, ...Object.values(manifest.bin)]) {
      expect(packed, `${target} is in the tarball`).toContain(String(target).replace(/^\.\//, ""))
    }
    expect(packed.filter((p) => /^(src|test|test-d|bench|demo)\//.test(p) || /\.test\.(js|d\.ts)$/.test(p))).toEqual([])
  })

  it("imports every subpath of the exports map with node, and refuses deep imports", async () => {
    const { stdout } = await sh(process.execPath, ["import-all.mjs", ...subpaths], consumer)
    const { results, deepImport } = JSON.parse(stdout) as {
      results: Record<string, { exports?: string[]; error?: string }>
      deepImport: string
    }
    for (const subpath of subpaths) {
      if (BUNDLER_ONLY.includes(subpath))
        expect(results[subpath]?.error, `import ${subpath}`).toMatch(
          /\$env|\$app|@sveltejs\/kit|\.svelte|@qwik-city-plan|ERR_PACKAGE_PATH_NOT_EXPORTED/,
        )
      else expect(results[subpath], `import ${subpath}`).toEqual({ exports: expect.any(Array) })
    }
    expect(results["."]?.exports).toEqual(
      expect.arrayContaining([
        "Auth",
        "createActionURL",
        "customFetch",
        "isAuthAction",
        "raw",
        "setEnvDefaults",
        "skipCSRFCheck",
      ]),
    )
    expect(results["./jwt"]?.exports).toEqual(["decode", "encode", "getToken"])
    expect(deepImport).toBe("ERR_PACKAGE_PATH_NOT_EXPORTED")

    const leaked = subpaths.flatMap((s) =>
      (results[s]?.exports ?? []).filter((name) => INTERNALS.includes(name)).map((name) => `${s}: ${name}`),
    )
    expect(leaked).toEqual([])
  })

  it("installs the bin, which runs from dist/", async () => {
    const { stdout } = await sh(join(consumer, "node_modules/.bin/gatehouse-migrate"), ["--print"], consumer)
    expect(stdout).toMatch(/CREATE TABLE IF NOT EXISTS "?users"?/)
  })

  it.each(["bundler", "nodenext"])(
    "type-checks consumer code importing every subpath with moduleResolution %s",
    async (resolution) => {
      const typed = subpaths.filter((s) => !s.endsWith(".json"))
      const imports = typed.map(
        (s, i) => `import * as subpath${i} from "${s === "." ? "gatehouse" : `gatehouse/${s.slice(2)}`}"`,
      )
      writeFileSync(
        join(consumer, "subpaths.ts"),
        `${imports.join("\n")}\nexport const all = [${typed.map((_, i) => `subpath${i}`).join(", ")}]\n`,
      )
      const compilerOptions = {
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        target: "ES2022",
        lib: ["ES2023", "DOM", "DOM.Iterable"],
        types: ["node"],
        module: resolution === "bundler" ? "ESNext" : "NodeNext",
        moduleResolution: resolution === "bundler" ? "Bundler" : "NodeNext",
      }
      writeFileSync(
        join(consumer, `tsconfig.${resolution}.json`),
        JSON.stringify({ compilerOptions, files: ["usage.ts", "subpaths.ts"] }),
      )
      const tsc = join(REPO, "node_modules/typescript/bin/tsc")
      const result = await sh(process.execPath, [tsc, "-p", `tsconfig.${resolution}.json`], consumer).then(
        () => "",
        (error: { stdout?: string }) => error.stdout || String(error),
      )
      // skipLibCheck is off to check Gatehouse's own declarations; errors inside a peer's declarations (next's .d.ts
      // files need its whole build set-up) are that package's, not ours.
      const ours = result
        .split("\n")
        .filter((line) => /error TS/.test(line) && !/node_modules\/(?!gatehouse\/)/.test(line))
      expect(ours).toEqual([])
      if (ours.length === 0 && result !== "") expect(result).toMatch(/node_modules\/next\//)
    },
  )

  it.each(["bundler", "nodenext"])(
    "type-checks Auth.js-shaped app code against the tarball, and the same code with @auth/core imports against @auth/core (moduleResolution %s)",
    async (resolution) => {
      // authjs-app.ts imports only "gatehouse…"; its oracle copy spells each of those "@auth/core…" (module augmentation too).
      const source = readFileSync(join(consumer, "authjs-app.ts"), "utf8")
      const oracle = source.replace(/(["'])gatehouse(?=["'/])/g, "$1@auth/core")
      expect(oracle).not.toMatch(/from ["']gatehouse/)
      writeFileSync(join(consumer, "authjs-app.oracle.ts"), oracle)
      const compilerOptions = {
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        target: "ES2022",
        lib: ["ES2023", "DOM", "DOM.Iterable"],
        types: ["node"],
        module: resolution === "bundler" ? "ESNext" : "NodeNext",
        moduleResolution: resolution === "bundler" ? "Bundler" : "NodeNext",
      }
      const tsc = join(REPO, "node_modules/typescript/bin/tsc")
      for (const file of ["authjs-app.oracle.ts", "authjs-app.ts"]) {
        // One file per program: each augments its own library's Session, User and JWT.
        const project = `tsconfig.${file}.${resolution}.json`
        writeFileSync(join(consumer, project), JSON.stringify({ compilerOptions, files: [file] }))
        const result = await sh(process.execPath, [tsc, "-p", project], consumer).then(
          () => "",
          (error: { stdout?: string }) => error.stdout || String(error),
        )
        // As above: errors inside another package's declarations are that package's (with skipLibCheck off).
        expect(
          result.split("\n").filter((line) => /error TS/.test(line) && !/node_modules\/(?!gatehouse\/)/.test(line)),
          file,
        ).toEqual([])
      }
    },
  )

  it("type-checks the browser entries in a React project without Node's types (lib dom + es2022, skipLibCheck off)", async () => {
    expect(
      existsSync(join(browserConsumer, "node_modules/@types/node")),
      "the browser project has no @types/node",
    ).toBe(false)
    const used = readFileSync(join(browserConsumer, "browser.tsx"), "utf8")
    for (const entry of BROWSER_ENTRIES)
      expect(used, `browser.tsx imports gatehouse/${entry.slice(2)}`).toContain(`from "gatehouse/${entry.slice(2)}"`)
    const compilerOptions = {
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      target: "ES2022",
      lib: ["dom", "es2022"],
      types: [],
      module: "ESNext",
      moduleResolution: "Bundler",
      jsx: "react-jsx",
    }
    writeFileSync(join(browserConsumer, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["browser.tsx"] }))
    const tsc = join(REPO, "node_modules/typescript/bin/tsc")
    const result = await sh(process.execPath, [tsc, "-p", "tsconfig.json"], browserConsumer).then(
      () => "",
      (error: { stdout?: string }) => error.stdout || String(error),
    )
    expect(result.split("\n").filter((line) => /error TS/.test(line))).toEqual([])
  })

  it("ships no source maps: dist/ is tsc's unbundled output, readable as it stands", () => {
    expect(packed.filter((p) => p.endsWith(".map"))).toEqual([])
    const pointing = packed.filter(
      (p) =>
        p.endsWith(".js") &&
        readFileSync(join(consumer, "node_modules/gatehouse", p), "utf8").includes("sourceMappingURL"),
    )
    expect(pointing).toEqual([])
  })

  it("ships every file a link in its Markdown points to (README, docs, examples), as read in node_modules", () => {
    const shipped = new Set(packed)
    const markdown = packed.filter((p) => p.endsWith(".md"))
    expect(markdown).toEqual(expect.arrayContaining(["README.md", "docs/migration.md", "examples/express/README.md"]))
    const broken: string[] = []
    for (const file of markdown) {
      for (const target of relativeLinks(readFileSync(join(consumer, "node_modules/gatehouse", file), "utf8"))) {
        const resolved = posix.normalize(posix.join(posix.dirname(file), decodeURI(target)))
        if (!shipped.has(resolved)) broken.push(`${file}: ${target}`)
      }
    }
    expect(broken).toEqual([])
  })
})

/**
 * The relative link targets in Markdown (inline links, images, reference definitions, HTML src/href), without their
 * #fragment; code blocks and code spans are not links. Absolute URLs and in-page anchors are left out.
 */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^(```|~~~)[\s\S]*?^\1/gm, "").replace(/(`+)[\s\S]*?\1/g, "")
  const targets = [
    ...[...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+["'(][^)]*)?\)/g)].map((m) => m[1]!),
    ...[...prose.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]!),
    ...[...prose.matchAll(/\s(?:src|href)=["']([^"']+)["']/g)].map((m) => m[1]!),
  ]
  return targets.filter((t) => !/^[a-z][a-z0-9+.-]*:|^\/\/|^#/i.test(t)).map((t) => t.split("#")[0]!)
}
