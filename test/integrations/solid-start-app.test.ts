// examples/solid-start as a user builds and runs it: SolidStart's real `vinxi build` (Nitro's node-server preset),
// ONCE, then the built server (`node .output/server/index.mjs`) driven in headless Chromium. The scratch app installs
// gatehouse as npm would (package.json and dist/, built on first need by test/support/dist.ts) and links the
// frameworks from the repository's node_modules. The production build trusts its host through AUTH_TRUST_HOST; the
// OpenID Provider of the example's Keycloak sign-in is the local OP (test/support/oidc-op.ts).
import { rmSync } from "node:fs"
import { join } from "node:path"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchChromium, skipReason } from "../e2e/support/chromium.js"
import { freePort } from "../support/listen.js"
import { type OidcOp, startOidcProvider } from "../support/oidc-op.js"
import { addAuthCoreSession, Child, pageHelpers, prepareExample, throughOp } from "./app-kit.js"

/** Example files that are a previous run's output or install, not the app's source. */
const NOT_COPIED = new Set([".output", ".vinxi", "node_modules"])
/** The packages the example builds with, linked from the repository's node_modules. */
const FRAMEWORK = ["@solidjs/start", "@solidjs/router", "solid-js", "vinxi"]

const SECRET = "solid-start-example-test-secret-0123456789abcdef"
const DEMO = { username: "demo", password: "demo" } as const

/** The example copied to a scratch folder, with gatehouse as npm installs it (package.json and dist/). */
const prepareApp = (): string => prepareExample("solid-start", NOT_COPIED, FRAMEWORK)

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

const { text, sessionCookies, home, newPage } = pageHelpers(
  () => origin,
  () => browser!,
)

/** The built-in sign-in page's credentials form, submitted with `password`; resolves once the next page loaded. */
async function signInWithPassword(page: Page, password: string): Promise<void> {
  await page.fill('form[data-provider="credentials"] input[name="username"]', DEMO.username)
  await page.fill('form[data-provider="credentials"] input[name="password"]', password)
  await Promise.all([page.waitForEvent("load"), page.click('form[data-provider="credentials"] button[type="submit"]')])
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
    await throughOp(page, op!.url)
    await page.waitForURL(`${origin}/protected`)
    expect(await text(page, "protected-user")).toBe("Welcome, Olivia Provider.")
    expect(await sessionCookies(context)).toEqual(["authjs.session-token"])
    expect(await home(page)).toBe("Signed in as Olivia Provider (olivia@op.example)")
    await context.close()
  })

  it("a session cookie sealed as @auth/core seals it (same secret) is a signed-in user", async () => {
    const { context, page } = await newPage()
    const token = { sub: "carried-1", name: "Carried Over", email: "carried@example.com" }
    await addAuthCoreSession(context, origin, SECRET, token)
    expect(await home(page)).toBe("Signed in as Carried Over (carried@example.com)")
    await page.goto(`${origin}/protected`)
    expect(await text(page, "protected-user")).toBe("Welcome, Carried Over.")
    await context.close()
  })
})
