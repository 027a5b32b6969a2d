// Every import an Auth.js app can have has a Gatehouse counterpart: each subpath of @auth/core, @auth/express,
// @hono/auth-js, @auth/sveltekit, @auth/solid-start, @auth/qwik and next-auth v5 maps to a gatehouse subpath (and is a
// row of docs/migration.md), and each name those entries export (values and types) is exported by the gatehouse
// entry too, or is a gap listed here with its reason.
// Installed packages are read from node_modules; next-auth (not installed) from a list recorded from its source.
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../../", import.meta.url))

/**
 * next-auth 5.0.0-beta.32 (nextauthjs/next-auth packages/next-auth/src at d008b9b, with its package.json "exports"):
 * the names of the entries that are its own. Its jwt, adapters and providers entries re-export @auth/core's, so they
 * are read from the installed @auth/core. Refresh this when a newer next-auth v5 changes its entries.
 */
const NEXT_AUTH = {
  version: "5.0.0-beta.32",
  exports: [
    ".",
    "./jwt",
    "./middleware",
    "./next",
    "./providers",
    "./adapters",
    "./providers/*",
    "./react",
    "./webauthn",
    "./package.json",
  ],
  names: {
    ".": [
      "default",
      "AuthError",
      "CredentialsSignin",
      "customFetch",
      "Session",
      "Account",
      "Profile",
      "DefaultSession",
      "User",
      "NextAuthConfig",
      "NextAuthRequest",
      "NextAuthResult",
    ],
    "./react": [
      "SignInOptions",
      "SignInAuthorizationParams",
      "SignOutParams",
      "SignInResponse",
      "SessionProviderProps",
      "__NEXTAUTH",
      "UpdateSession",
      "SessionContextValue",
      "SessionContext",
      "useSession",
      "GetSessionParams",
      "getSession",
      "getCsrfToken",
      "getProviders",
      "signIn",
      "signOut",
      "SessionProvider",
    ],
    "./webauthn": ["signIn"],
  } as Record<string, string[]>,
}

/** Where a counterpart subpath goes: a gatehouse subpath (`*` stands for the same provider id), or no entry and why. */
type Target = { gatehouse: string; names?: "own" | { from: string } } | { none: string }

/** Each subpath of each counterpart's "exports" map. `names: { from }` reads the names of another (re-exported) entry. */
const SUBPATHS: Record<string, Record<string, Target>> = {
  "@auth/core": {
    ".": { gatehouse: "gatehouse" },
    "./adapters": { gatehouse: "gatehouse/adapters" },
    "./errors": { gatehouse: "gatehouse/errors" },
    "./jwt": { gatehouse: "gatehouse/jwt" },
    "./providers": { gatehouse: "gatehouse/providers" },
    "./providers/*": { gatehouse: "gatehouse/providers/*" },
    "./types": { gatehouse: "gatehouse/types" },
  },
  "@auth/express": {
    ".": { gatehouse: "gatehouse/express" },
    "./providers": { gatehouse: "gatehouse/providers" },
    "./adapters": { gatehouse: "gatehouse/adapters" },
    "./providers/*": { gatehouse: "gatehouse/providers/*" },
    "./package.json": { none: "the package's own manifest; gatehouse/package.json is Gatehouse's" },
  },
  "@auth/solid-start": {
    ".": { gatehouse: "gatehouse/solid-start" },
    "./client": { gatehouse: "gatehouse/solid-start/client" },
    "./adapters": { gatehouse: "gatehouse/solid-start/adapters" },
    "./providers": { gatehouse: "gatehouse/providers" },
    // @auth/solid-start's provider modules re-export @auth/core's.
    "./providers/*": { gatehouse: "gatehouse/solid-start/providers/*" },
  },
  "@hono/auth-js": {
    ".": { gatehouse: "gatehouse/hono" },
    "./react": { gatehouse: "gatehouse/react" },
  },
  "@auth/sveltekit": {
    ".": { gatehouse: "gatehouse/sveltekit" },
    "./client": { gatehouse: "gatehouse/sveltekit/client" },
    "./webauthn": { gatehouse: "gatehouse/sveltekit/webauthn" },
    "./components": { gatehouse: "gatehouse/sveltekit/components" },
    "./adapters": { gatehouse: "gatehouse/sveltekit/adapters" },
    "./providers": { gatehouse: "gatehouse/providers" },
    // @auth/sveltekit's provider modules re-export @auth/core's.
    "./providers/*": { gatehouse: "gatehouse/sveltekit/providers/*", names: { from: "@auth/core/providers/*" } },
    "./package.json": { none: "the package's own manifest; gatehouse/package.json is Gatehouse's" },
  },
  "@auth/qwik": {
    ".": { gatehouse: "gatehouse/qwik" },
    "./adapters": { gatehouse: "gatehouse/qwik/adapters" },
    "./providers": { gatehouse: "gatehouse/providers" },
    // @auth/qwik's provider modules re-export @auth/core's.
    "./providers/*": { gatehouse: "gatehouse/qwik/providers/*", names: { from: "@auth/core/providers/*" } },
  },
  "next-auth": {
    ".": { gatehouse: "gatehouse/next", names: "own" },
    "./jwt": { gatehouse: "gatehouse/jwt", names: { from: "@auth/core/jwt" } },
    "./middleware": { none: "a next-auth v4 entry; in v5 importing it throws, telling the app to migrate" },
    "./next": { none: "a next-auth v4 entry; in v5 importing it throws, telling the app to migrate" },
    "./providers": { gatehouse: "gatehouse/providers", names: { from: "@auth/core/providers" } },
    "./adapters": { gatehouse: "gatehouse/adapters", names: { from: "@auth/core/adapters" } },
    "./providers/*": { gatehouse: "gatehouse/providers/*", names: { from: "@auth/core/providers/*" } },
    "./react": { gatehouse: "gatehouse/react", names: "own" },
    "./webauthn": { gatehouse: "gatehouse/webauthn", names: "own" },
    "./package.json": {
      none: "the package's own manifest (the official example reads its version); gatehouse/package.json is Gatehouse's",
    },
  },
}

/**
 * Names a counterpart exports that its gatehouse entry does not, each with the reason (also in the entry's docs).
 * Keyed by the counterpart's import path.
 */
const GAPS: Record<string, Record<string, string>> = {
  "@hono/auth-js/react": {
    authConfigManager:
      "@hono/auth-js's client config singleton; gatehouse/react takes basePath on SessionProvider or configure()",
    useOauthPopupLogin:
      "a popup sign-in hook of @hono/auth-js only; not provided (sign in with a redirect, or signIn(…, { redirect: false }))",
  },
  "next-auth/react": {
    __NEXTAUTH:
      "next-auth's internal client config object; gatehouse/react is configured with SessionProvider's basePath or configure()",
  },
}

/** Names a provider entry of @auth/core (and so of @auth/express and next-auth) exports that gatehouse's does not. */
const NESTED_PROFILE_TYPE =
  "a nested part of the profile type, which Auth.js names on its own; gatehouse exports the whole profile type"
const PROVIDER_GAPS: Record<string, string[]> = {
  "42-school": [
    "UserData",
    "CursusUser",
    "ProjectUser",
    "Achievement",
    "LanguagesUser",
    "TitlesUser",
    "ExpertisesUser",
    "Campus",
    "CampusUser",
    "Image",
  ],
  notion: ["Person", "User", "Owner"],
  osu: ["OsuUserCompact"],
}

function gapsOf(pair: Pair): Record<string, string> {
  const id = /^gatehouse\/(?:sveltekit\/|solid-start\/|qwik\/)?providers\/(.+)$/.exec(pair.gatehouse)?.[1]
  const providerGaps = id
    ? Object.fromEntries((PROVIDER_GAPS[id] ?? []).map((name) => [name, NESTED_PROFILE_TYPE]))
    : {}
  return { ...providerGaps, ...GAPS[pair.counterpart] }
}

const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  exports: Record<string, string | { types?: string }>
}

/** The source file of a gatehouse subpath: its exported declaration file, under src/ instead of dist/. */
function gatehouseSource(specifier: string): string {
  const key = specifier === "gatehouse" ? "." : `./${specifier.slice("gatehouse/".length)}`
  const entry = pkg.exports[key]
  if (entry === undefined || typeof entry === "string" || !entry.types)
    throw new Error(`package.json has no export ${key}`)
  return join(root, entry.types.replace(/^\.\/dist\//, "src/").replace(/\.d\.ts$/, ".ts"))
}

function exportsMapOf(name: string): string[] {
  if (name === "next-auth") return NEXT_AUTH.exports
  const manifest = JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")) as {
    exports: Record<string, unknown>
  }
  return Object.keys(manifest.exports)
}

/** The provider ids behind a `./providers/*` subpath: @auth/core's provider files, less the two that are not providers. */
function coreProviderIds(): string[] {
  return readdirSync(join(root, "node_modules/@auth/core/providers"))
    .filter((file) => file.endsWith(".d.ts"))
    .map((file) => file.slice(0, -".d.ts".length))
    .filter((id) => id !== "index")
}

/** One pair to compare: the counterpart's import path, where its names come from, and the gatehouse import path. */
interface Pair {
  counterpart: string
  namesFrom: string | "recorded"
  gatehouse: string
}

function pairs(): Pair[] {
  const out: Pair[] = []
  for (const [name, subpaths] of Object.entries(SUBPATHS)) {
    for (const [subpath, target] of Object.entries(subpaths)) {
      if ("none" in target) continue
      const counterpart = subpath === "." ? name : `${name}${subpath.slice(1)}`
      const namesFrom = target.names === "own" ? "recorded" : (target.names?.from ?? counterpart)
      if (!subpath.includes("*")) {
        out.push({ counterpart, namesFrom, gatehouse: target.gatehouse })
        continue
      }
      // next-auth and @auth/express leave oauth and provider-types out of their provider copies.
      const ids = coreProviderIds().filter((id) => name === "@auth/core" || (id !== "oauth" && id !== "provider-types"))
      for (const id of ids) {
        out.push({
          counterpart: counterpart.replace("*", id),
          namesFrom: namesFrom.replace("*", id),
          gatehouse: target.gatehouse.replace("*", id),
        })
      }
    }
  }
  return out
}

let checker: ts.TypeChecker | undefined
let program: ts.Program | undefined

/** One TypeScript program over every gatehouse entry and every installed counterpart declaration file. */
function typeProgram(all: Pair[]): { program: ts.Program; checker: ts.TypeChecker } {
  if (program && checker) return { program, checker }
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, "tsconfig.json"),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  )
  if (!config) throw new Error("tsconfig.json does not parse")
  const rootNames = new Set<string>()
  for (const pair of all) {
    rootNames.add(gatehouseSource(pair.gatehouse))
    if (pair.namesFrom !== "recorded") rootNames.add(resolveDeclaration(pair.namesFrom, config.options))
  }
  program = ts.createProgram({ rootNames: [...rootNames], options: { ...config.options, noEmit: true } })
  checker = program.getTypeChecker()
  return { program, checker }
}

function resolveDeclaration(specifier: string, options: ts.CompilerOptions): string {
  const resolved = ts.resolveModuleName(specifier, join(root, "index.ts"), options, ts.sys).resolvedModule
  if (!resolved) throw new Error(`${specifier} does not resolve: is it installed?`)
  return resolved.resolvedFileName
}

function exportNames(file: string, all: Pair[]): Set<string> {
  const { program, checker } = typeProgram(all)
  const source = program.getSourceFile(file)
  const symbol = source && checker.getSymbolAtLocation(source)
  if (!symbol) throw new Error(`${file} is not a module`)
  return new Set(checker.getExportsOfModule(symbol).map((s) => s.getName()))
}

function counterpartNames(pair: Pair, all: Pair[]): string[] {
  if (pair.namesFrom === "recorded") {
    const subpath = pair.counterpart === "next-auth" ? "." : `./${pair.counterpart.slice("next-auth/".length)}`
    const names = NEXT_AUTH.names[subpath]
    if (!names) throw new Error(`no recorded names for ${pair.counterpart}`)
    return names
  }
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, "tsconfig.json"),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  )
  return [...exportNames(resolveDeclaration(pair.namesFrom, config!.options), all)]
}

describe("gatehouse's entries cover every Auth.js import", () => {
  it.each(Object.keys(SUBPATHS))("every subpath of %s's exports map has a gatehouse entry or a reason", (name) => {
    const unmapped = exportsMapOf(name).filter((subpath) => !(subpath in SUBPATHS[name]!))
    expect(unmapped, `subpaths of ${name} with no row in SUBPATHS`).toEqual([])
    for (const target of Object.values(SUBPATHS[name]!)) {
      if ("gatehouse" in target) gatehouseSource(target.gatehouse.replace("*", "github"))
    }
  })

  it.each(Object.keys(SUBPATHS))("docs/migration.md has a row for each import of %s", (name) => {
    const guide = readFileSync(join(root, "docs/migration.md"), "utf8")
    const missing = Object.keys(SUBPATHS[name]!)
      .map((subpath) => (subpath === "." ? name : `${name}${subpath.slice(1).replace("*", "<id>")}`))
      .filter((path) => !guide.includes(`\`${path}\``))
    expect(missing, "imports docs/migration.md does not name (as `path`)").toEqual([])
  })

  it("each name a counterpart entry exports is exported by its gatehouse entry, or is a listed gap", () => {
    const all = pairs()
    const missing: string[] = []
    const staleGaps: string[] = []
    for (const pair of all) {
      const ours = exportNames(gatehouseSource(pair.gatehouse), all)
      const gaps = gapsOf(pair)
      for (const name of counterpartNames(pair, all)) {
        if (ours.has(name)) {
          if (name in gaps) staleGaps.push(`${pair.counterpart}: ${name} is exported now; drop it from GAPS`)
        } else if (!(name in gaps)) {
          missing.push(`${pair.counterpart} exports ${name}; ${pair.gatehouse} does not`)
        }
      }
    }
    expect(missing).toEqual([])
    expect(staleGaps).toEqual([])
  }, 120_000)

  it(`records next-auth ${NEXT_AUTH.version}'s names for the entries it does not take from @auth/core`, () => {
    for (const [subpath, target] of Object.entries(SUBPATHS["next-auth"]!)) {
      if ("gatehouse" in target && target.names === "own") expect(NEXT_AUTH.names[subpath], subpath).toBeDefined()
    }
  })
})
