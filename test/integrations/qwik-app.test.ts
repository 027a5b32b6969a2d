// examples/qwik as a real Qwik City app: copied to a scratch folder with gatehouse installed from dist/ (its package.json
// "qwik" field included) and Qwik, Qwik City and Vite from the repository's node_modules, built once with Qwik City's
// Node.js adapter (`vite build`, then the server build), started on a free port and driven in headless Chromium:
// credentials sign-in (wrong, then right), the protected page, sign-out, sign-in at the local OpenID Provider, and the
// login-CSRF attack. The same app on @auth/qwik 0.9.1 (its two imports swapped) is built beside it, in parallel, for
// the attack only: @auth/qwik turns Auth.js's CSRF check off, so a page on another site signs its visitor in there.
import { type ChildProcess, spawn } from "node:child_process"
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchChromium, skipReason } from "../e2e/support/chromium.js"
import { ensureDist } from "../support/dist.js"
import { freePort } from "../support/listen.js"
import { type OidcOp, startOidcProvider } from "../support/oidc-op.js"
import { installGatehouse, link, root } from "./app-kit.js"

const EXAMPLE = join(root, "examples/qwik")
const VITE = join(root, "node_modules/vite/bin/vite.js")
const SECRET = "qwik-app-test-secret-0123456789abcdefghijkl"
/** A site of the attacker's: Chromium gets its page from the test (page routing), never from the network. */
const ATTACKER = "http://attacker.test"

type Variant = "gatehouse" | "authjs"

/** The scratch app: the example's source, a package.json naming its dependencies, and node_modules as npm lays it out. */
function prepare(variant: Variant): string {
  const dir = mkdtempSync(join(tmpdir(), `gatehouse-qwik-${variant}-`))
  cpSync(EXAMPLE, dir, { recursive: true, filter: (src) => !/[/\\](node_modules|dist|server|README\.md)$/.test(src) })
  const modules = join(dir, "node_modules")
  // Qwik's Vite plugin finds packages with a "qwik" field through the app's dependencies, and bundles them into the
  // server build with the app's one Qwik City (without the field, Qwik City would be loaded twice).
  const auth = variant === "gatehouse" ? "gatehouse" : "@auth/qwik"
  const dependencies = Object.fromEntries(
    [auth, "@builder.io/qwik", "@builder.io/qwik-city", "vite"].map((n) => [n, "*"]),
  )
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: `qwik-${variant}`, private: true, type: "module", dependencies }),
  )
  for (const name of ["@builder.io/qwik", "@builder.io/qwik-city", "vite", "undici"])
    link(join(root, "node_modules", name), join(modules, name))
  if (variant === "gatehouse") {
    installGatehouse(modules)
  } else {
    link(join(root, "node_modules/@auth/qwik"), join(modules, "@auth/qwik"))
    for (const file of ["src/routes/plugin@auth.ts", "src/routes/protected/index.tsx"]) {
      const path = join(dir, file)
      const source = readFileSync(path, "utf8")
        .replaceAll('"gatehouse/qwik"', '"@auth/qwik"')
        .replaceAll('"gatehouse/providers/credentials"', '"@auth/qwik/providers/credentials"')
      writeFileSync(path, source)
    }
  }
  return dir
}

function run(command: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk))
    child.stderr.on("data", (chunk: Buffer) => (output += chunk))
    child.on("error", reject)
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${args.join(" ")} failed (${code}) in ${cwd}:\n${output}`)),
    )
  })
}

/** The two builds of Qwik City's Node.js adapter: the client, then the server. */
async function build(dir: string): Promise<void> {
  await run(process.execPath, [VITE, "build"], dir)
  await run(process.execPath, [VITE, "build", "-c", "adapters/node-server/vite.config.ts"], dir)
}

interface App {
  origin: string
  child: ChildProcess
  log: () => string
}

function start(dir: string, port: number, env: Record<string, string>): Promise<App> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["server/entry.node-server.js"], {
      cwd: dir,
      env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1", AUTH_SECRET: SECRET },
      stdio: ["ignore", "pipe", "pipe"],
    })
    let output = ""
    const app: App = { origin: `http://127.0.0.1:${port}`, child, log: () => output }
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk
      if (output.includes("listening on")) resolve(app)
    })
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk))
    child.on("exit", (code) => reject(new Error(`the ${dir} server exited (${code}):\n${output}`)))
  })
}

async function status(page: Page): Promise<string> {
  return ((await page.textContent('[data-testid="status"]')) ?? "").trim()
}

/** Signs in with the example's credentials form (a <Form> with reloadDocument: the browser posts it and follows the redirect). */
async function credentialsSignIn(page: Page, origin: string, username: string, password: string): Promise<void> {
  await page.goto(`${origin}/`)
  await page.fill('form[data-form="credentials"] input[name="options.username"]', username)
  await page.fill('form[data-form="credentials"] input[name="options.password"]', password)
  const moved = page.waitForURL((url) => url.pathname !== "/")
  await page.click('form[data-form="credentials"] button')
  await moved
}

/** A page of the attacker's site that posts a credentials form to the app's callback as soon as it loads. */
async function attack(context: BrowserContext, origin: string): Promise<Page> {
  await context.route(`${ATTACKER}/**`, (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><form method="post" action="${origin}/auth/callback/credentials">
<input name="username" value="demo"><input name="password" value="demo"><input name="callbackUrl" value="${origin}/">
</form><script>document.forms[0].submit()</script>`,
    }),
  )
  const page = await context.newPage()
  const landed = page.waitForURL((url) => url.origin === origin)
  await page.goto(`${ATTACKER}/`)
  await landed
  await page.waitForLoadState()
  return page
}

describe.skipIf(skipReason)(
  "examples/qwik on gatehouse/qwik, built with Qwik City's Node.js adapter, in Chromium",
  () => {
    const dirs: string[] = []
    const apps: App[] = []
    let gatehouse: App
    let authjs: App
    let op: OidcOp
    let browser: Browser

    beforeAll(async () => {
      ensureDist()
      const [port, authjsPort] = [await freePort(), await freePort()]
      op = await startOidcProvider({ providerIds: ["oidc"], rpOrigin: `http://127.0.0.1:${port}`, basePath: "/auth" })
      const gatehouseDir = prepare("gatehouse")
      const authjsDir = prepare("authjs")
      dirs.push(gatehouseDir, authjsDir)
      await Promise.all([build(gatehouseDir), build(authjsDir)])
      gatehouse = await start(gatehouseDir, port, {
        OIDC_ISSUER: op.issuer,
        OIDC_CLIENT_ID: op.clients.basic.client_id,
        OIDC_CLIENT_SECRET: op.clients.basic.client_secret!,
      })
      apps.push(gatehouse)
      authjs = await start(authjsDir, authjsPort, {})
      apps.push(authjs)
      browser = await launchChromium()
    }, 180_000)

    afterAll(async () => {
      await browser?.close()
      for (const app of apps) app.child.kill()
      await op?.stop()
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
    })

    it("signs in with credentials (a wrong password first), shows the user on the protected page, and signs out", async () => {
      const context = await browser.newContext()
      const page = await context.newPage()
      await credentialsSignIn(page, gatehouse.origin, "demo", "wrong")
      expect(new URL(page.url()).searchParams.get("error")).toBe("CredentialsSignin")
      await page.goto(`${gatehouse.origin}/`)
      expect(await status(page)).toBe("Not signed in")

      await credentialsSignIn(page, gatehouse.origin, "demo", "demo")
      expect(new URL(page.url()).pathname).toBe("/protected/")
      expect(await page.textContent('[data-testid="user"]')).toContain("Demo User (demo@example.com)")
      await page.goto(`${gatehouse.origin}/`)
      expect(await status(page)).toBe("Signed in as Demo User")

      const reloaded = page.waitForNavigation()
      await page.click("form button:has-text('Sign out')")
      await reloaded
      expect(await status(page)).toBe("Not signed in")
      const cookies = await context.cookies(gatehouse.origin)
      expect(cookies.map((c) => c.name)).not.toContain("authjs.session-token")
      await page.goto(`${gatehouse.origin}/protected/`)
      expect(new URL(page.url()).pathname).toBe("/auth/signin")
      await context.close()
    })

    it("signs in at the local OpenID Provider and lands on the protected page as the OP's user", async () => {
      const context = await browser.newContext()
      const page = await context.newPage()
      await page.goto(`${gatehouse.origin}/`)
      const moved = page.waitForNavigation()
      await page.click('form[data-form="oidc"] button')
      await moved
      expect(new URL(page.url()).origin, `at ${page.url()}; server log:\n${gatehouse.log()}`).toBe(op.url)
      const user = op.users[0]!
      await page.fill('form[data-interaction="login"] input[name="login"]', user.sub)
      await page.fill('form[data-interaction="login"] input[name="password"]', user.password)
      await page.click('form[data-interaction="login"] button')
      await page.click('form[data-interaction="consent"] button')
      await page.waitForURL(`${gatehouse.origin}/protected/`)
      expect(await page.textContent('[data-testid="user"]')).toContain(`${user.name} (${user.email})`)
      await context.close()
    })

    it("CS-07 login CSRF: a page on another site posting to /auth/callback/credentials leaves the visitor signed out (@auth/qwik signs them in)", async () => {
      const context = await browser.newContext()
      const landed = await attack(context, gatehouse.origin)
      expect(await landed.textContent("body")).toContain("MissingCSRF")
      const page = await context.newPage()
      await page.goto(`${gatehouse.origin}/`)
      expect(await status(page)).toBe("Not signed in")
      expect((await context.cookies(gatehouse.origin)).map((c) => c.name)).not.toContain("authjs.session-token")
      await context.close()

      // The same app on @auth/qwik: the attacker's form signs the visitor in to the account the attacker chose.
      const victim = await browser.newContext()
      await attack(victim, authjs.origin)
      const home = await victim.newPage()
      await home.goto(`${authjs.origin}/`)
      expect(await status(home)).toBe("Signed in as Demo User")
      await victim.close()
    })
  },
)
