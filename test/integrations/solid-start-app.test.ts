// examples/solid-start as a user builds and runs it: SolidStart's real `vinxi build` (Nitro's node-server preset),
// ONCE, then the built server (`node .output/server/index.mjs`) driven in headless Chromium. The scratch app installs
// gatehouse as npm would (package.json and dist/, built on first need by test/support/dist.ts) and links the
// frameworks from the repository's node_modules. The production build trusts its host through AUTH_TRUST_HOST; the
// OpenID Provider of the example's Keycloak sign-in is the local OP (test/support/oidc-op.ts).
import { type ChildProcess, spawn } from "node:child_process"
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { encode } from "@auth/core/jwt"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchChromium, skipReason } from "../e2e/support/chromium.js"
import { ensureDist } from "../support/dist.js"
import { freePort } from "../support/listen.js"
import { type OidcOp, startOidcProvider } from "../support/oidc-op.js"

const root = fileURLToPath(new URL("../../", import.meta.url))
const EXAMPLE_DIR = join(root, "examples/solid-start")
/** Example files that are a previous run's output or install, not the app's source. */
const NOT_COPIED = new Set([".output", ".vinxi", "node_modules"])
/** The packages the example builds with, linked from the repository's node_modules. */
const FRAMEWORK = ["@solidjs/start", "@solidjs/router", "solid-js", "vinxi"]

const SECRET = "solid-start-example-test-secret-0123456789abcdef"
const DEMO = { username: "demo", password: "demo" } as const

function link(target: string, path: string): void {
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

/** The example copied to a scratch folder, with gatehouse as npm installs it (package.json and dist/). */
function prepareApp(): string {
  const dir = mkdtempSync(join(tmpdir(), "gatehouse-solid-start-"))
  try {
    cpSync(EXAMPLE_DIR, dir, {
      recursive: true,
      filter: (src) => !NOT_COPIED.has(src.slice(EXAMPLE_DIR.length + 1).split("/")[0]!),
    })
    const modules = join(dir, "node_modules")
    for (const name of FRAMEWORK) link(join(root, "node_modules", name), join(modules, name))
    mkdirSync(join(modules, "gatehouse"))
    copyFileSync(join(root, "package.json"), join(modules, "gatehouse/package.json"))
    copyDist(join(modules, "gatehouse"))
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { dependencies?: object }
    for (const name of Object.keys(pkg.dependencies ?? {}))
      if (!existsSync(join(modules, name))) link(join(root, "node_modules", name), join(modules, name))
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
  return dir
}

/** A child process whose output is kept for a failure message; stopped by its own pid. */
class Child {
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
      const onData = (): void => {
        if (pattern.test(this.output)) finish()
      }
      const onExit = (code: number | null): void => finish(new Error(`exited (${code}):\n${this.output}`))
      const timer = setTimeout(() => finish(new Error(`no ${pattern} after 30 s:\n${this.output}`)), 30_000)
      const finish = (error?: Error): void => {
        clearTimeout(timer)
        this.process.stdout!.off("data", onData)
        this.process.off("exit", onExit)
        if (error) reject(error)
        else resolve()
      }
      this.process.stdout!.on("data", onData)
      this.process.once("exit", onExit)
      onData()
    })
  }

  async stop(): Promise<void> {
    if (this.process.exitCode === null && this.process.signalCode === null) {
      this.process.kill("SIGTERM")
      await this.exited
    }
  }
}

let dir: string | undefined
let server: Child | undefined
let browser: Browser | undefined
let op: OidcOp | undefined
let origin = ""

/** The built server's environment: nothing from the test run's shell that names a URL or a secret. */
function serverEnv(port: number, extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production" }
  for (const name of Object.keys(env)) if (/^(AUTH_|NEXTAUTH_|VERCEL|CF_PAGES)/.test(name)) delete env[name]
  return { ...env, HOST: "127.0.0.1", PORT: String(port), ...extra }
}

const text = (page: Page, id: string): Promise<string | null> => page.textContent(`[data-testid="${id}"]`)

/** The names of the session cookies a browser context holds for the app. */
async function sessionCookies(context: BrowserContext): Promise<string[]> {
  return (await context.cookies(origin)).map((c) => c.name).filter((name) => name.includes("session-token"))
}

/** What the home page says about the session. */
async function home(page: Page): Promise<string | null> {
  await page.goto(`${origin}/`)
  return text(page, "session")
}

/** The built-in sign-in page's credentials form, submitted with `password`; resolves once the next page loaded. */
async function signInWithPassword(page: Page, password: string): Promise<void> {
  await page.fill('form[data-provider="credentials"] input[name="username"]', DEMO.username)
  await page.fill('form[data-provider="credentials"] input[name="password"]', password)
  await Promise.all([page.waitForEvent("load"), page.click('form[data-provider="credentials"] button[type="submit"]')])
}

async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser!.newContext()
  return { context, page: await context.newPage() }
}

const SIGN_IN_FROM_PROTECTED = () => `${origin}/api/auth/signin?callbackUrl=%2Fprotected`

describe.skipIf(skipReason)("examples/solid-start: the vinxi production build in headless Chromium", () => {
  beforeAll(async () => {
    const started = Date.now()
    dir = prepareApp()
    const port = await freePort()
    origin = `http://localhost:${port}`
    const build = new Child(dir, [join(dir, "node_modules/vinxi/bin/cli.mjs"), "build"], {
      ...process.env,
      NODE_ENV: "production",
    })
    const code = await build.exited
    console.log(`vinxi build of examples/solid-start took ${((Date.now() - started) / 1000).toFixed(1)} s`)
    if (code !== 0) throw new Error(`vinxi build failed (${code}):\n${build.output}`)
    op = await startOidcProvider({ rpOrigin: origin, basePath: "/api/auth", providerIds: ["keycloak"] })
    server = new Child(
      dir,
      [".output/server/index.mjs"],
      serverEnv(port, {
        AUTH_SECRET: SECRET,
        AUTH_TRUST_HOST: "true",
        AUTH_KEYCLOAK_ISSUER: op.issuer,
        AUTH_KEYCLOAK_ID: op.clients.basic.client_id,
        AUTH_KEYCLOAK_SECRET: op.clients.basic.client_secret,
      }),
    )
    await server.waitFor(/Listening on/)
    browser = await launchChromium()
  }, 180_000)

  afterAll(async () => {
    await server?.stop()
    await browser?.close()
    await op?.stop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it("signed out: home says so, and the protected page sends the visitor to the sign-in page", async () => {
    const { context, page } = await newPage()
    expect(await home(page)).toBe("Signed out")
    const res = await page.goto(`${origin}/protected`)
    expect(res?.status()).toBe(200)
    expect(page.url()).toBe(SIGN_IN_FROM_PROTECTED())
    expect(await page.isVisible('form[data-provider="credentials"]')).toBe(true)
    expect(await page.isVisible('form[data-provider="keycloak"] button')).toBe(true)
    expect(await sessionCookies(context)).toEqual([])
    await context.close()
  })

  it("credentials: a wrong password shows the error and sets nothing; the right one signs in; sign-out ends it", async () => {
    const { context, page } = await newPage()
    await page.goto(`${origin}/protected`)

    await signInWithPassword(page, "wrong")
    const refused = new URL(page.url())
    expect(refused.pathname).toBe("/api/auth/signin")
    expect(refused.searchParams.get("error")).toBe("CredentialsSignin")
    expect(await page.textContent("#signin-error")).toContain("Sign in failed")
    expect(await sessionCookies(context)).toEqual([])
    expect(await home(page)).toBe("Signed out")

    // Back through the protected page: the refused attempt's page no longer names /protected as where to go (Gatehouse
    // writes no callback-url cookie for a credentials sign-in, docs/differences.md).
    await page.goto(`${origin}/protected`)
    await signInWithPassword(page, DEMO.password)
    expect(page.url()).toBe(`${origin}/protected`)
    expect(await text(page, "protected-user")).toBe("Welcome, Demo User.")
    expect(await sessionCookies(context)).toEqual(["authjs.session-token"])
    expect(await home(page)).toBe("Signed in as Demo User (demo@example.com)")

    // gatehouse/solid-start/client's signOut (the CSRF token fetched, POST /api/auth/signout), then back home.
    await Promise.all([page.waitForEvent("load"), page.click('[data-testid="sign-out"]')])
    expect(page.url()).toBe(`${origin}/`)
    expect(await text(page, "session")).toBe("Signed out")
    expect(await sessionCookies(context)).toEqual([])
    await page.goto(`${origin}/protected`)
    expect(page.url()).toBe(SIGN_IN_FROM_PROTECTED())
    await context.close()
  })

  it("the home page's Sign in button (gatehouse/solid-start/client's signIn) opens the sign-in page and comes back", async () => {
    const { context, page } = await newPage()
    await page.goto(`${origin}/`)
    await Promise.all([page.waitForURL(/\/api\/auth\/signin\?/), page.click('[data-testid="sign-in"]')])
    expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe(`${origin}/`)
    await signInWithPassword(page, DEMO.password)
    expect(page.url()).toBe(`${origin}/`)
    expect(await text(page, "session")).toBe("Signed in as Demo User (demo@example.com)")
    await context.close()
  })

  it("OpenID Connect: signs in at the local OP and comes back to the protected page signed in", async () => {
    const { context, page } = await newPage()
    await page.goto(`${origin}/protected`)
    await Promise.all([page.waitForEvent("load"), page.click('form[data-provider="keycloak"] button')])
    for (let step = 0; page.url().startsWith(`${op!.url}/`); step++) {
      expect(step, "OP pages before the way back").toBeLessThan(3)
      const form = await page.waitForSelector('form[data-interaction="login"], form[data-interaction="consent"]')
      if ((await form.getAttribute("data-interaction")) === "login") {
        await page.fill('form[data-interaction="login"] input[name="login"]', "op-user-1")
        await page.fill('form[data-interaction="login"] input[name="password"]', "correct horse")
      }
      await Promise.all([page.waitForEvent("load"), form.$eval("button", (button) => (button as HTMLElement).click())])
    }
    await page.waitForURL(`${origin}/protected`)
    expect(await text(page, "protected-user")).toBe("Welcome, Olivia Provider.")
    expect(await sessionCookies(context)).toEqual(["authjs.session-token"])
    expect(await home(page)).toBe("Signed in as Olivia Provider (olivia@op.example)")
    await context.close()
  })

  it("a session cookie sealed as @auth/core seals it (same secret) is a signed-in user", async () => {
    const { context, page } = await newPage()
    const value = await encode({
      token: { sub: "carried-1", name: "Carried Over", email: "carried@example.com" },
      secret: SECRET,
      salt: "authjs.session-token",
    })
    await context.addCookies([{ name: "authjs.session-token", value, url: origin, httpOnly: true, sameSite: "Lax" }])
    expect(await home(page)).toBe("Signed in as Carried Over (carried@example.com)")
    await page.goto(`${origin}/protected`)
    expect(await text(page, "protected-user")).toBe("Welcome, Carried Over.")
    await context.close()
  })
})
