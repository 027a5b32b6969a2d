// What the example-app tests (sveltekit-app, solid-start-app, qwik-app) share: the scratch install of an example, with
// gatehouse laid out as npm installs it (package.json and a whole dist/) and the frameworks linked from the
// repository's node_modules; a child process whose output is kept; the browser helpers every page test uses; and the
// way through the local OP's login and consent pages (test/support/oidc-op.ts).
import { type ChildProcess, spawn } from "node:child_process"
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { encode } from "@auth/core/jwt"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { expect } from "vitest"
import { ensureDist } from "../support/dist.js"

export const root = fileURLToPath(new URL("../../", import.meta.url))

/** Links `path` to the folder `target`, its parent made first; a missing target asks for `npm install`. */
export function link(target: string, path: string): void {
  if (!existsSync(target)) throw new Error(`${target} is missing: run \`npm install\``)
  mkdirSync(dirname(path), { recursive: true })
  symlinkSync(target, path, "dir")
}

/** The files package.json's "exports" name (what an app may import), relative to the package. */
function exportedFiles(): string[] {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    exports: Record<string, string | Record<string, string>>
  }
  return Object.values(pkg.exports).flatMap((entry) => (typeof entry === "string" ? [entry] : Object.values(entry)))
}

/**
 * dist/ copied into the scratch install. dist/ is shared: a build another process runs by hand (`rm -rf dist && tsc`)
 * may be half done, so the copy is checked for every exported file and taken again until it is whole.
 */
function copyDist(to: string): void {
  const deadline = Date.now() + 120_000
  for (;;) {
    rmSync(join(to, "dist"), { recursive: true, force: true })
    ensureDist()
    cpSync(join(root, "dist"), join(to, "dist"), { recursive: true })
    const missing = exportedFiles().filter((file) => !existsSync(join(to, file)))
    if (missing.length === 0) return
    if (Date.now() > deadline) throw new Error(`dist/ stays incomplete (missing ${missing.slice(0, 5).join(", ")})`)
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2_000)
  }
}

/** gatehouse in `modules` (an app's node_modules) as npm installs it, its own dependencies linked beside it. */
export function installGatehouse(modules: string): void {
  mkdirSync(join(modules, "gatehouse"), { recursive: true })
  copyFileSync(join(root, "package.json"), join(modules, "gatehouse/package.json"))
  copyDist(join(modules, "gatehouse"))
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { dependencies?: object }
  for (const name of Object.keys(pkg.dependencies ?? {}))
    if (!existsSync(join(modules, name))) link(join(root, "node_modules", name), join(modules, name))
}

/**
 * examples/<example> copied to a scratch folder (without the top-level entries in `notCopied`: a previous run's
 * output), the `framework` packages linked from the repository's node_modules and gatehouse installed.
 */
export function prepareExample(example: string, notCopied: ReadonlySet<string>, framework: readonly string[]): string {
  const from = join(root, "examples", example)
  const dir = mkdtempSync(join(tmpdir(), `gatehouse-${example}-`))
  try {
    cpSync(from, dir, {
      recursive: true,
      filter: (src) => !notCopied.has(src.slice(from.length + 1).split("/")[0]!),
    })
    const modules = join(dir, "node_modules")
    for (const name of framework) link(join(root, "node_modules", name), join(modules, name))
    installGatehouse(modules)
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
  return dir
}

/** A Node.js child process whose output is kept (for a failure message), stopped by its own pid. */
export class Child {
  readonly process: ChildProcess
  output = ""
  readonly exited: Promise<number | null>

  constructor(cwd: string, args: string[], env: NodeJS.ProcessEnv) {
    this.process = spawn(process.execPath, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] })
    const keep = (chunk: Buffer): void => {
      this.output += chunk.toString()
    }
    this.process.stdout!.on("data", keep)
    this.process.stderr!.on("data", keep)
    this.exited = new Promise((resolve) => this.process.once("exit", (code) => resolve(code)))
  }

  /** Resolves once the output matches `pattern`; rejects when the process ends first or after 30 s. */
  waitFor(pattern: RegExp): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => done(new Error(`no ${pattern} after 30 s:\n${this.output}`)), 30_000)
      const check = (): void => {
        if (pattern.test(this.output)) done()
      }
      const exit = (code: number | null): void => done(new Error(`exited (${code}):\n${this.output}`))
      const done = (error?: Error): void => {
        clearTimeout(timer)
        this.process.stdout!.off("data", check)
        this.process.off("exit", exit)
        if (error) reject(error)
        else resolve()
      }
      this.process.stdout!.on("data", check)
      this.process.once("exit", exit)
      check()
    })
  }

  async stop(): Promise<void> {
    if (this.process.exitCode === null && this.process.signalCode === null) {
      this.process.kill("SIGTERM")
      await this.exited
    }
  }
}

/**
 * The page helpers of an app test, over its origin and browser (read on each call: the test sets both in beforeAll).
 * `text` reads a `data-testid` element; `home` what the home page's `session` element says.
 */
export function pageHelpers(origin: () => string, browser: () => Browser) {
  const text = (page: Page, id: string): Promise<string | null> => page.textContent(`[data-testid="${id}"]`)
  return {
    text,
    /** The names of the session cookies a browser context holds for the app. */
    async sessionCookies(context: BrowserContext): Promise<string[]> {
      return (await context.cookies(origin())).map((c) => c.name).filter((name) => name.includes("session-token"))
    },
    async home(page: Page): Promise<string | null> {
      await page.goto(`${origin()}/`)
      return text(page, "session")
    },
    async newPage(): Promise<{ context: BrowserContext; page: Page }> {
      const context = await browser().newContext()
      return { context, page: await context.newPage() }
    },
  }
}

/**
 * Through the local OP's pages (on `opUrl`) once the app has sent the browser there: its login form as op-user-1 and
 * its consent form, when it shows them (it skips both for a browser it knows), until the browser has left the OP.
 */
export async function throughOp(page: Page, opUrl: string): Promise<void> {
  for (let step = 0; page.url().startsWith(`${opUrl}/`); step++) {
    expect(step, "OP pages before the way back").toBeLessThan(3)
    const form = await page.waitForSelector('form[data-interaction="login"], form[data-interaction="consent"]')
    if ((await form.getAttribute("data-interaction")) === "login") {
      await page.fill('form[data-interaction="login"] input[name="login"]', "op-user-1")
      await page.fill('form[data-interaction="login"] input[name="password"]', "correct horse")
    }
    await Promise.all([page.waitForEvent("load"), form.$eval("button", (button) => (button as HTMLElement).click())])
  }
}

/**
 * Gives `context` a session cookie for `origin` sealed by @auth/core under `secret` with `token`: what the users of an
 * Auth.js app on that secret hold when the app moves to gatehouse.
 */
export async function addAuthCoreSession(
  context: BrowserContext,
  origin: string,
  secret: string,
  token: { sub: string; name: string; email: string },
): Promise<void> {
  const value = await encode({ token, secret, salt: "authjs.session-token" })
  await context.addCookies([{ name: "authjs.session-token", value, url: origin, httpOnly: true, sameSite: "Lax" }])
}
