// Builds examples/next as a Next 15 app in a scratch directory (proxy.ts swapped for a Node.js middleware, or made the
// Edge test app of next-edge/app.ts; Next 15 from the `next15` dev dependency, gatehouse installed from dist/), runs
// `next build` / `next start`, and gives the test a cookie-keeping HTTP client that can also submit server-action
// forms as a browser without JavaScript does.
import { type ChildProcess, spawn } from "node:child_process"
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { expect } from "vitest"
import { CookieJar } from "../../support/cookies.js"
import { ensureDist } from "../../support/dist.js"
import { EDGE_MIDDLEWARE, installEdgeApp } from "../next-edge/app.js"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const exampleDir = join(root, "examples/next")
const next15Dir = join(root, "node_modules/next15")

/** Example files that belong to Next 16 or to a previous build, not to the app's source. */
const NOT_COPIED = new Set([".next", "node_modules", "next-env.d.ts", "proxy.ts"])

/** The version of the `next15` dev dependency (npm:next@15.x). */
export function next15Version(): string {
  if (!existsSync(join(next15Dir, "package.json")))
    throw new Error("node_modules/next15 is missing: run `npm install` (dev dependency next15 = npm:next@15)")
  return (JSON.parse(readFileSync(join(next15Dir, "package.json"), "utf8")) as { version: string }).version
}

/** Links `path` to `target` (a folder), its parent made first; a missing target asks for `npm install`. */
export function link(target: string, path: string): void {
  if (!existsSync(target)) throw new Error(`${target} is missing: run \`npm install\``)
  mkdirSync(dirname(path), { recursive: true })
  symlinkSync(target, path, "dir")
}

/** The names in a package's `dependencies`. */
export function dependencyNames(pkgDir: string): string[] {
  const pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as {
    dependencies?: Record<string, string>
  }
  return Object.keys(pkg.dependencies ?? {})
}

/** The `matcher: [...]` literal of a proxy/middleware file, so the two files cannot drift apart unnoticed. */
function matcherOf(file: string): string {
  const found = /matcher:\s*(\[[^\]]*\])/.exec(readFileSync(file, "utf8"))?.[1]
  if (!found) throw new Error(`no matcher in ${file}`)
  return found.replace(/\s+/g, "")
}

/**
 * A scratch copy of examples/next laid out as a Next 15 install would be: "node" with this folder's middleware.ts
 * (runtime nodejs), "edge" as the Edge test app (next-edge/app.ts). Next 15 and gatehouse are real directories
 * (copies): Next requires its own files as `next/...`, and gatehouse/next imports `next/server` and `next/headers`;
 * from a symlink into the repository both would resolve to the repository's Next 16. The rest are symlinks into the
 * repository's node_modules.
 */
export function prepareNext15App(variant: "node" | "edge" = "node"): string {
  const middlewareFile =
    variant === "edge" ? EDGE_MIDDLEWARE : fileURLToPath(new URL("./middleware.ts", import.meta.url))
  ensureDist()
  if (matcherOf(middlewareFile) !== matcherOf(join(exampleDir, "proxy.ts")))
    throw new Error(`${middlewareFile}: its matcher differs from examples/next/proxy.ts`)
  next15Version()
  const dir = mkdtempSync(join(tmpdir(), "gatehouse-next15-"))
  try {
    install(dir, middlewareFile)
    if (variant === "edge") installEdgeApp(dir)
  } catch (error) {
    removeApp(dir)
    throw error
  }
  return dir
}

function install(dir: string, middlewareFile: string): void {
  cpSync(exampleDir, dir, {
    recursive: true,
    filter: (src) => !NOT_COPIED.has(relative(exampleDir, src)) && !src.endsWith(".tsbuildinfo"),
  })
  copyFileSync(middlewareFile, join(dir, "middleware.ts"))
  const modules = join(dir, "node_modules")

  // next: its files copied; its own node_modules (@next/env, the SWC binary, ...) and hoisted dependencies linked.
  cpSync(next15Dir, join(modules, "next"), {
    recursive: true,
    filter: (src) => src !== join(next15Dir, "node_modules"),
  })
  for (const name of nestedPackages(join(next15Dir, "node_modules")))
    link(join(next15Dir, "node_modules", name), join(modules, "next/node_modules", name))
  for (const name of dependencyNames(next15Dir)) {
    if (!existsSync(join(next15Dir, "node_modules", name))) link(join(root, "node_modules", name), join(modules, name))
  }
  // gatehouse as npm installs it (package.json with its exports, dist/), and its dependencies.
  mkdirSync(join(modules, "gatehouse"))
  copyFileSync(join(root, "package.json"), join(modules, "gatehouse/package.json"))
  cpSync(join(root, "dist"), join(modules, "gatehouse/dist"), { recursive: true })
  for (const name of dependencyNames(root)) link(join(root, "node_modules", name), join(modules, name))
  // The app's own dependencies; typescript and the types for `next build`'s type check.
  for (const name of ["react", "react-dom", "typescript", "@types/react", "@types/react-dom", "@types/node"]) {
    if (!existsSync(join(modules, name))) link(join(root, "node_modules", name), join(modules, name))
  }
}

/** Package names in a node_modules folder, scoped ones as `@scope/name`. */
export function nestedPackages(dir: string): string[] {
  if (!existsSync(dir)) return []
  const names: string[] = []
  for (const entry of readdirSync(dir)) {
    if (entry.startsWith(".")) continue
    if (entry.startsWith("@")) for (const inner of readdirSync(join(dir, entry))) names.push(`${entry}/${inner}`)
    else names.push(entry)
  }
  return names
}

/**
 * A `next` command in its own process group (so the whole group can be ended): the scratch app's Next 15 unless
 * `bin` names another (the repository's Next 16 for a scratch app inside the repository).
 */
export class NextProcess {
  output = ""
  readonly child: ChildProcess
  readonly exited: Promise<number | null>
  constructor(dir: string, args: string[], env: NodeJS.ProcessEnv, bin = join(dir, "node_modules/next/dist/bin/next")) {
    this.child = spawn(process.execPath, [bin, ...args], {
      cwd: dir,
      env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    })
    this.child.stdout!.on("data", (chunk: Buffer) => (this.output += chunk.toString()))
    this.child.stderr!.on("data", (chunk: Buffer) => (this.output += chunk.toString()))
    this.exited = new Promise((resolve) => this.child.once("exit", (code) => resolve(code)))
  }
  /** `next start -p 0`: the origin it prints once the OS chose a port and it is ready. */
  async origin(timeoutMs: number): Promise<string> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const port = /Local:\s+http:\/\/127\.0\.0\.1:(\d+)/.exec(this.output)?.[1]
      if (port && /Ready in/.test(this.output)) return `http://127.0.0.1:${port}`
      if (this.child.exitCode !== null) throw new Error(`next start exited (${this.child.exitCode}):\n${this.output}`)
      if (Date.now() > deadline) throw new Error(`next start was not ready in ${timeoutMs} ms:\n${this.output}`)
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  /** Ends the process group (next start forks its server) and waits for the exit. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return
    try {
      process.kill(-this.child.pid!, "SIGTERM")
    } catch {
      return // the group is already gone
    }
    await this.exited
  }
}

/** Removes the scratch app. */
export function removeApp(dir: string | undefined): void {
  if (dir) rmSync(dir, { recursive: true, force: true })
}

/** A cookie-keeping client of one origin that never follows redirects. */
export class Client {
  readonly jar = new CookieJar()
  constructor(readonly origin: string) {}
  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers)
    const cookie = this.jar.header()
    if (cookie) headers.set("cookie", cookie)
    const res = await fetch(`${this.origin}${path}`, { ...init, headers, redirect: "manual" })
    this.jar.store(res)
    return res
  }
  async html(path: string): Promise<string> {
    const res = await this.request(path)
    expect(res.status, `GET ${path}`).toBe(200)
    return res.text()
  }
  async csrf(): Promise<string> {
    return ((await (await this.request("/api/auth/csrf")).json()) as { csrfToken: string }).csrfToken
  }
  postForm(path: string, form: Record<string, string>): Promise<Response> {
    return this.request(path, { method: "POST", body: new URLSearchParams(form) })
  }
  /** Posts the server-action form of `html` containing `marker` as a browser without JavaScript does (multipart, $ACTION_ID_). */
  async submitAction(page: string, html: string, marker: string, fields: Record<string, string>): Promise<Response> {
    const form = [...html.matchAll(/<form[^>]*>([\s\S]*?)<\/form>/g)].map((m) => m[1]!).find((f) => f.includes(marker))
    expect(form, `a form containing ${marker}`).toBeDefined()
    const actionId = /name="(\$ACTION_ID_[^"]+)"/.exec(form!)?.[1]
    expect(actionId, "the form's $ACTION_ID_ field").toBeDefined()
    const body = new FormData()
    body.set(actionId!, "")
    for (const [name, value] of Object.entries(fields)) body.set(name, value)
    return this.request(page, { method: "POST", body, headers: { origin: this.origin } })
  }
  /** A redirect's target, resolved against the origin. */
  location(res: Response): URL {
    const value = res.headers.get("location")
    expect(value, `a Location header (status ${res.status})`).toBeTruthy()
    return new URL(value!, this.origin)
  }
}

/** The text of server-rendered HTML (tags and React's text separators removed). */
export const text = (html: string): string => html.replace(/<!-- -->/g, "").replace(/<[^>]+>/g, "")
