// examples/sveltekit as a user builds and runs it: SvelteKit's own `vite build` with adapter-node, ONCE, then the built
// server (`node build`) driven in headless Chromium. The scratch app installs gatehouse from dist/ (built on first need
// by test/support/dist.ts) and links the frameworks from the repository's node_modules. One origin,
// http://localhost:<port>, given to adapter-node as ORIGIN; the host is trusted through AUTH_TRUST_HOST alone (no
// AUTH_URL), in the production build, where @auth/sveltekit 1.11.3 ignores the variable (Auth.js #12284), and a
// second server from the same build, without it, refuses the host. The OpenID Provider of the example's Keycloak
// sign-in is the local OP (test/support/oidc-op.ts). A session cookie sealed by @auth/core under the same secret (what
// an @auth/sveltekit app's users hold) is a signed-in user of the gatehouse build.
import { rmSync } from "node:fs"
import { createServer, request } from "node:http"
import { join } from "node:path"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchChromium, skipReason } from "../e2e/support/chromium.js"
import { freePort, listenLocal } from "../support/listen.js"
import { type OidcOp, startOidcProvider } from "../support/oidc-op.js"
import { addAuthCoreSession, Child, pageHelpers, prepareExample, throughOp } from "./app-kit.js"

/** Example files that are a previous run's output, not the app's source. */
const NOT_COPIED = new Set([".svelte-kit", "build", "node_modules"])
/** The packages the example builds with, linked from the repository's node_modules. */
const FRAMEWORK = ["@sveltejs/kit", "@sveltejs/adapter-node", "@sveltejs/vite-plugin-svelte", "svelte", "vite"]

const SECRET = "sveltekit-example-test-secret-0123456789abcdef"
const DEMO = { username: "demo", password: "demo" } as const

/** The example copied to a scratch folder, with gatehouse as npm installs it (package.json and dist/). */
const prepareApp = (): string => prepareExample("sveltekit", NOT_COPIED, FRAMEWORK)

let dir: string | undefined
let build: Child | undefined
let server: Child | undefined
let browser: Browser | undefined
let op: OidcOp | undefined
let port = 0
let origin = ""

/** adapter-node's and the example's environment: nothing from the test run's shell that names a URL or a secret. */
function serverEnv(listenOn: number, extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production" }
  for (const name of Object.keys(env)) if (/^(AUTH_|NEXTAUTH_|ORIGIN$|VERCEL|CF_PAGES)/.test(name)) delete env[name]
  return { ...env, HOST: "127.0.0.1", PORT: String(listenOn), ORIGIN: `http://localhost:${listenOn}`, ...extra }
}

/** Starts the built app (`node build`) on `listenOn`. */
async function start(listenOn: number, extra: NodeJS.ProcessEnv): Promise<Child> {
  const child = new Child(dir!, ["build"], serverEnv(listenOn, extra))
  await child.waitFor(/Listening on/)
  return child
}

const { text, sessionCookies, home, newPage } = pageHelpers(
  () => origin,
  () => browser!,
)

/** The sign-in page's credentials form, submitted with `password`; resolves once the next page has loaded. */
async function signInWithPassword(page: Page, password: string): Promise<void> {
  await page.fill('[data-testid="credentials-form"] input[name="username"]', DEMO.username)
  await page.fill('[data-testid="credentials-form"] input[name="password"]', password)
  await Promise.all([page.waitForEvent("load"), page.click('[data-testid="credentials-form"] button[type="submit"]')])
}

/** A form POST over raw HTTP (no browser rules), with the `Origin` header given: the status and the cookies set. */
function postForm(
  path: string,
  fields: Record<string, string>,
  from: string,
): Promise<{ status: number; cookies: string[] }> {
  const body = new URLSearchParams(fields).toString()
  return new Promise((resolve, reject) => {
    const req = request(
      `http://127.0.0.1:${port}${path}`,
      {
        method: "POST",
        headers: {
          origin: from,
          "content-type": "application/x-www-form-urlencoded",
          accept: "text/html", // a browser's form submission, not SvelteKit's enhance() fetch
          "content-length": Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume()
        res.on("end", () => resolve({ status: res.statusCode ?? 0, cookies: res.headers["set-cookie"] ?? [] }))
      },
    )
    req.on("error", reject)
    req.end(body)
  })
}

describe.skipIf(skipReason)("examples/sveltekit: the production build (adapter-node) in headless Chromium", () => {
  beforeAll(async () => {
    dir = prepareApp()
    port = await freePort()
    origin = `http://localhost:${port}`
    const started = Date.now()
    build = new Child(dir, [join(dir, "node_modules/vite/bin/vite.js"), "build"], {
      ...process.env,
      NODE_ENV: "production",
    })
    const code = await build.exited
    console.log(`vite build of examples/sveltekit took ${((Date.now() - started) / 1000).toFixed(1)} s`)
    if (code !== 0) throw new Error(`vite build failed (${code}):\n${build.output}`)
    op = await startOidcProvider({ rpOrigin: origin, basePath: "/auth", providerIds: ["keycloak"] })
    server = await start(port, {
      AUTH_SECRET: SECRET,
      AUTH_TRUST_HOST: "true",
      AUTH_KEYCLOAK_ISSUER: op.issuer,
      AUTH_KEYCLOAK_ID: op.clients.basic.client_id,
      AUTH_KEYCLOAK_SECRET: op.clients.basic.client_secret,
    })
    browser = await launchChromium()
  }, 300_000) // the build may share the two cores with another vitest worker

  afterAll(async () => {
    await build?.stop() // still running only when the build timed out
    await browser?.close()
    await server?.stop()
    await op?.stop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it("signed out: home says so, and the protected page sends the visitor to the sign-in page", async () => {
    const { context, page } = await newPage()
    expect(await home(page)).toBe("Signed out")
    await page.goto(`${origin}/protected`)
    expect(page.url()).toBe(`${origin}/signin?redirectTo=/protected`)
    expect(await page.isVisible('[data-testid="credentials-form"]')).toBe(true)
    expect(await page.isVisible('[data-testid="oidc-form"]')).toBe(true)
    expect(await sessionCookies(context)).toEqual([])
    await context.close()
  })

  it("credentials: a wrong password shows the error and sets nothing; the right one signs in, and sign-out ends it", async () => {
    const { context, page } = await newPage()
    await page.goto(`${origin}/protected`)

    await signInWithPassword(page, "wrong")
    expect(new URL(page.url()).pathname).toBe("/signin")
    expect(await text(page, "signin-error")).toBe("Wrong username or password.")
    expect(await sessionCookies(context)).toEqual([])
    expect(await home(page)).toBe("Signed out")

    // Back to the protected page, as the redirectTo of the sign-in page it sent the visitor to.
    await page.goto(`${origin}/protected`)
    await signInWithPassword(page, DEMO.password)
    expect(page.url()).toBe(`${origin}/protected`)
    expect(await text(page, "protected-user")).toBe("Welcome, Demo User.")
    expect(await sessionCookies(context)).toEqual(["authjs.session-token"])
    expect(await home(page)).toBe("Signed in as Demo User (demo@example.com)")

    await Promise.all([page.waitForEvent("load"), page.click('nav form[action="/signout"] button')])
    expect(page.url()).toBe(`${origin}/`)
    expect(await text(page, "session")).toBe("Signed out")
    expect(await sessionCookies(context)).toEqual([])
    await page.goto(`${origin}/protected`)
    expect(new URL(page.url()).pathname).toBe("/signin")
    await context.close()
  })

  it("OpenID Connect: signs in at the local OP and comes back signed in", async () => {
    const { context, page } = await newPage()
    await page.goto(`${origin}/signin`)
    await Promise.all([page.waitForEvent("load"), page.click('[data-testid="oidc-form"] button')])
    await throughOp(page, op!.url)
    await page.waitForURL(`${origin}/`)
    expect(await text(page, "session")).toBe("Signed in as Olivia Provider (olivia@op.example)")
    expect(await sessionCookies(context)).toEqual(["authjs.session-token"])
    await page.goto(`${origin}/protected`)
    expect(await text(page, "protected-user")).toBe("Welcome, Olivia Provider.")
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

  // CS-06 under SvelteKit: the auth routes take no CSRF token (as @auth/sveltekit's), so SvelteKit's origin check
  // (csrf.checkOrigin) is what stops a login CSRF, on the auth routes and on the sign-in page's form action alike.
  it("CS-06: a cross-site form POST (foreign Origin) to the credentials callback or the sign-in page's action is refused with 403 and sets no cookie", async () => {
    const fields = { ...DEMO, providerId: "credentials", redirectTo: "/", callbackUrl: `${origin}/` }
    // The sign-in page's form has no action attribute: the browser posts it to the page, SvelteKit's default action.
    for (const path of ["/auth/callback/credentials", "/signin"]) {
      const foreign = await postForm(path, fields, "http://evil.example")
      expect({ path, status: foreign.status, cookies: foreign.cookies }).toEqual({ path, status: 403, cookies: [] })
      // The same POST from the app's own origin signs the demo user in: only the Origin made the difference.
      const own = await postForm(path, fields, origin)
      expect([302, 303], path).toContain(own.status)
      expect(
        own.cookies.some((c) => c.startsWith("authjs.session-token=")),
        path,
      ).toBe(true)
    }
  })

  it("CS-06: a page on another origin that auto-submits the demo user's credentials to the callback leaves the visitor signed out", async () => {
    const callbackUrl = `${origin}/auth/callback/credentials`
    const attacker = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
      res.end(
        `<!doctype html><title>prize</title><form method="POST" action="${callbackUrl}">` +
          `<input name="username" value="${DEMO.username}"><input name="password" value="${DEMO.password}">` +
          `<input name="callbackUrl" value="${origin}/"></form><script>document.forms[0].submit()</script>`,
      )
    })
    const other = await listenLocal(attacker)
    const { context, page } = await newPage()
    try {
      const answer = page.waitForResponse((res) => res.url() === callbackUrl)
      await page.goto(`${other.origin}/`)
      // The form was really sent (the browser names the attacker's origin) and SvelteKit refused it.
      const res = await answer
      expect(res.request().headers().origin).toBe(other.origin)
      expect(res.status()).toBe(403)
      expect(await sessionCookies(context)).toEqual([])
      expect(await home(page)).toBe("Signed out")
    } finally {
      await context.close()
      await other.stop()
    }
  })

  it("AUTH_TRUST_HOST is what trusts the host: the same build without it answers UntrustedHost", async () => {
    // The main server trusts the host through AUTH_TRUST_HOST alone; its session route answers.
    const trusted = await fetch(`http://127.0.0.1:${port}/auth/session`)
    expect(trusted.status).toBe(200)
    const otherPort = await freePort()
    const untrusted = await start(otherPort, { AUTH_SECRET: SECRET })
    try {
      const res = await fetch(`http://127.0.0.1:${otherPort}/auth/session`)
      expect(res.status).toBe(500)
      expect(untrusted.output).toMatch(/UntrustedHost/)
    } finally {
      await untrusted.stop()
    }
  })
})
