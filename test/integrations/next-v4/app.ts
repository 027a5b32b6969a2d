// The scratch app of next-v4-app.test.ts: examples/next-v4 laid out as a Next 15 install (the `next15` dev
// dependency), with gatehouse from dist/ and next-auth 4.24.15 from the repository's node_modules, and its three
// stages: the example with its imports swapped back to next-auth (what the app was before the move), the example as
// it is (gatehouse/v4), and the example moved to gatehouse/next with v4Cookies "accept" (v5/ holds those files).
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { ensureDist } from "../../support/dist.js"
import { dependencyNames, link, nestedPackages, next15Version } from "../next15/harness.js"

const root = fileURLToPath(new URL("../../../", import.meta.url))
export const EXAMPLE_DIR = join(root, "examples/next-v4")
const V5_DIR = fileURLToPath(new URL("./v5/", import.meta.url))

/** Example files that are not the app's source (a previous build, Next's generated type file). */
const NOT_COPIED = new Set([".next", "node_modules", "next-env.d.ts"])

/** The route that holds authOptions and the v4 handler; the v5 stage keeps its authOptions in auth-options.ts. */
const NEXTAUTH_ROUTE = "pages/api/auth/[...nextauth].ts"

export type Stage = "next-auth" | "gatehouse-v4" | "gatehouse-next"

/**
 * A package copied into the scratch app's node_modules (so that what it imports, `next/server` above all, resolves
 * to the scratch app's Next 15 and not to the repository's Next 16), its nested node_modules and the dependencies it
 * does not nest linked into the repository's.
 */
function copyPackage(from: string, to: string, skip: (path: string) => boolean = () => false): void {
  cpSync(from, to, { recursive: true, filter: (src) => src !== join(from, "node_modules") && !skip(src) })
  for (const name of nestedPackages(join(from, "node_modules")))
    link(join(from, "node_modules", name), join(to, "node_modules", name))
  const modules = dirname(to)
  for (const name of dependencyNames(from)) {
    if (!existsSync(join(from, "node_modules", name)) && !existsSync(join(modules, name)))
      link(join(root, "node_modules", name), join(modules, name))
  }
}

/** Creates the scratch app (examples/next-v4's source at the gatehouse/v4 stage) and its node_modules. */
export function prepareV4App(): string {
  ensureDist()
  next15Version()
  const dir = mkdtempSync(join(tmpdir(), "gatehouse-next-v4-"))
  try {
    const modules = join(dir, "node_modules")
    copyPackage(join(root, "node_modules/next15"), join(modules, "next"))
    // next-auth 4 without its TypeScript sources (src/: not part of what it runs or declares).
    const nextAuth = join(root, "node_modules/next-auth")
    copyPackage(nextAuth, join(modules, "next-auth"), (src) => src === join(nextAuth, "src"))
    // gatehouse as npm installs it: package.json (its exports) and dist/.
    mkdirSync(join(modules, "gatehouse"))
    copyFileSync(join(root, "package.json"), join(modules, "gatehouse/package.json"))
    cpSync(join(root, "dist"), join(modules, "gatehouse/dist"), { recursive: true })
    for (const name of dependencyNames(root))
      if (!existsSync(join(modules, name))) link(join(root, "node_modules", name), join(modules, name))
    for (const name of ["react", "react-dom", "typescript", "@types/react", "@types/react-dom", "@types/node"])
      if (!existsSync(join(modules, name))) link(join(root, "node_modules", name), join(modules, name))
    useStage(dir, "gatehouse-v4")
  } catch (error) {
    removeApp(dir)
    throw error
  }
  return dir
}

/** The example's source files, relative to its folder. */
function exampleFiles(): string[] {
  const files: string[] = []
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name)
      const rel = relative(EXAMPLE_DIR, path)
      if (NOT_COPIED.has(rel) || entry.name.endsWith(".tsbuildinfo")) continue
      if (entry.isDirectory()) walk(path)
      else files.push(rel)
    }
  }
  walk(EXAMPLE_DIR)
  return files
}

/**
 * The import swap of the migration, backwards: every `gatehouse/v4` module specifier (`gatehouse/v4`,
 * `gatehouse/v4/react`, `gatehouse/v4/providers/credentials`, …) becomes next-auth's of the same subpath.
 */
export function toNextAuthImports(source: string): string {
  return source.replace(
    /(["'])gatehouse\/v4(\/[^"']*)?\1/g,
    (_, quote: string, sub = "") => `${quote}next-auth${sub}${quote}`,
  )
}

/** Puts the app's source at `stage` (the build output and node_modules stay). */
export function useStage(dir: string, stage: Stage): void {
  for (const entry of readdirSync(dir)) {
    if (entry !== "node_modules" && entry !== ".next" && entry !== "next-env.d.ts")
      rmSync(join(dir, entry), { recursive: true, force: true })
  }
  for (const file of exampleFiles()) {
    const source = readFileSync(join(EXAMPLE_DIR, file), "utf8")
    mkdirSync(dirname(join(dir, file)), { recursive: true })
    if (stage === "next-auth") {
      const swapped = toNextAuthImports(source)
      if (/\.(ts|tsx)$/.test(file) && /gatehouse/.test(swapped))
        throw new Error(`${file}: gatehouse left after the swap`)
      writeFileSync(join(dir, file), swapped)
    } else writeFileSync(join(dir, file), source)
  }
  if (stage === "gatehouse-next") moveToV5(dir)
}

/**
 * The move to gatehouse/next: authOptions leave the pages-router route for auth-options.ts (the same object, typed
 * as gatehouse/next's NextAuthConfig instead of v4's AuthOptions, whose callback and jwt types are v4's; the v4
 * handler's lines go), and the files of v5/ replace or join the app's (auth.ts, the app-router route, the
 * middleware, the pages and API routes that read the session with auth(), getToken of gatehouse/jwt); the other
 * pages only change `gatehouse/v4/react` for `gatehouse/react`.
 */
function moveToV5(dir: string): void {
  const route = readFileSync(join(dir, NEXTAUTH_ROUTE), "utf8")
  const options = route
    .replace(
      /^import NextAuth, \{ type AuthOptions \} from "gatehouse\/v4"$/m,
      'import type { NextAuthConfig } from "gatehouse/next"',
    )
    .replace(/^export const authOptions: AuthOptions = /m, "export const authOptions: NextAuthConfig = ")
    .replace(/^export default NextAuth\(authOptions\)\n/m, "")
  if (/^import NextAuth\b|^export default|\bAuthOptions\b/m.test(options))
    throw new Error(`${NEXTAUTH_ROUTE}: not the shape the v5 move expects`)
  rmSync(join(dir, NEXTAUTH_ROUTE))
  writeFileSync(join(dir, "auth-options.ts"), options)
  cpSync(V5_DIR, dir, { recursive: true })
  for (const file of ["pages/_app.tsx", "pages/index.tsx", "pages/protected/index.tsx"]) {
    const source = readFileSync(join(dir, file), "utf8")
    const swapped = source.replace(/"gatehouse\/v4\/react"/g, '"gatehouse/react"')
    if (swapped === source) throw new Error(`${file}: no gatehouse/v4/react import`)
    writeFileSync(join(dir, file), swapped)
  }
}

/** Removes the scratch app. */
export function removeApp(dir: string | undefined): void {
  if (dir) rmSync(dir, { recursive: true, force: true })
}
