// The Edge test app: a scratch copy of examples/next whose proxy.ts is replaced by the official next-auth example's
// middleware.ts (next-edge/middleware.ts, no `runtime`, so on the Edge runtime), whose auth route handlers and home
// page (with its signIn/signOut server actions) declare `export const runtime = "edge"`, and which has one more
// Edge route handler calling auth() (next-edge/edge-session-route.ts). Also the manifest check that Next put those
// on Edge, and the browser run that signs in and out through them. next-edge-app.test.ts (Next 16) and
// next15-app.test.ts (Next 15) build it.
import { appendFileSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { expect } from "vitest"
import { launchChromium } from "../../e2e/support/chromium.js"

const here = (file: string): string => fileURLToPath(new URL(`./${file}`, import.meta.url))
const root = fileURLToPath(new URL("../../../", import.meta.url))
const exampleDir = join(root, "examples/next")
/** Example files that are a previous build's or Next 16's proxy, not the app's source. */
const NOT_COPIED = new Set([".next", "node_modules", "next-env.d.ts", "proxy.ts"])

/** The official example's middleware.ts, as copied into the app. */
export const EDGE_MIDDLEWARE = here("middleware.ts")

const EDGE_RUNTIME = '\nexport const runtime = "edge"\n'

/** Turns a scratch copy of examples/next (without proxy.ts) into the Edge test app. */
export function installEdgeApp(dir: string): void {
  rmSync(join(dir, "proxy.ts"), { force: true })
  copyFileSync(EDGE_MIDDLEWARE, join(dir, "middleware.ts"))
  mkdirSync(join(dir, "app/api/edge-session"), { recursive: true })
  copyFileSync(here("edge-session-route.ts"), join(dir, "app/api/edge-session/route.ts"))
  for (const file of ["app/api/auth/[...nextauth]/route.ts", "app/page.tsx"]) {
    if (!existsSync(join(dir, file))) throw new Error(`examples/next has no ${file}`)
    appendFileSync(join(dir, file), EDGE_RUNTIME)
  }
}

/**
 * The Edge test app for the repository's Next 16, in a scratch folder of the repository (.scratch/, ignored by git)
 * so that it resolves next, react and gatehouse (dist/, through the package's own exports) as examples/next does.
 */
export function prepareRepoEdgeApp(): string {
  mkdirSync(join(root, ".scratch"), { recursive: true })
  const dir = mkdtempSync(join(root, ".scratch", "next-edge-"))
  try {
    cpSync(exampleDir, dir, {
      recursive: true,
      filter: (src) => !NOT_COPIED.has(relative(exampleDir, src)) && !src.endsWith(".tsbuildinfo"),
    })
    installEdgeApp(dir)
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
  return dir
}

interface MiddlewareManifest {
  middleware: Record<string, { name?: string; files?: string[] }>
  functions: Record<string, { name?: string; files?: string[] }>
}

/**
 * Checks in .next/server/middleware-manifest.json (Next's list of Edge functions) that Next put the app on Edge, and
 * that `next build` found nothing in it that the Edge runtime lacks (Next warns, names the module and builds anyway).
 */
export function expectBuiltForEdge(dir: string, buildOutput: string): void {
  const unsupported = buildOutput.split("\n").filter((line) => line.includes("not supported in the Edge Runtime"))
  expect(unsupported, "next build's warnings about code the Edge runtime cannot run").toEqual([])
  const manifest = JSON.parse(
    readFileSync(join(dir, ".next/server/middleware-manifest.json"), "utf8"),
  ) as MiddlewareManifest
  expect(Object.keys(manifest.middleware), "the middleware is an Edge function").toEqual(["/"])
  expect(manifest.middleware["/"]?.files?.length).toBeGreaterThan(0)
  expect(Object.keys(manifest.functions).sort(), "the Edge route handlers and page").toEqual(
    expect.arrayContaining(["/api/auth/[...nextauth]/route", "/api/edge-session/route", "/page"]),
  )
}

/**
 * In headless Chromium, on `origin` (use localhost: Next 15 rewrites a loopback Location to it): the middleware sends
 * a signed-out visitor from /protected to the sign-in page; the credentials sign-in there (Edge route handler) leads
 * back to /protected, which the middleware now lets through; auth() in the Edge route handler and the Edge home page
 * see the session, also after the protected page (Node.js) rewrote it with unstable_update; the home page's sign-out
 * server action (Edge) signs out, and /protected is closed again; the sign-in server action (Edge) and the built-in
 * sign-out page (Edge route handler) do the same.
 */
export async function signInAndOutOnEdge(origin: string): Promise<void> {
  const browser = await launchChromium()
  try {
    const page = await browser.newPage()
    const serverSession = (): Promise<string | null> => page.textContent('[data-testid="server-session"]')
    const clientSession = (): Promise<string | null> => page.textContent('[data-testid="client-session"]')
    const edgeSession = async (): Promise<unknown> => {
      const res = await page.request.get(`${origin}/api/edge-session`)
      expect(res.status()).toBe(200)
      return res.json()
    }

    // Signed out: the home page is open, /protected goes to the sign-in page.
    await page.goto(`${origin}/`)
    expect(await serverSession()).toMatch(/auth\(\)\): signed out/)
    await page.goto(`${origin}/protected`)
    await page.waitForURL((url) => url.pathname === "/api/auth/signin")
    expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe(`${origin}/protected`)
    expect(await edgeSession()).toEqual({ name: null, runtime: "edge-runtime" })

    // A wrong password stays signed out; the right one comes back to /protected through the middleware.
    await page.fill('input[name="username"]', "demo")
    await page.fill('input[name="password"]', "nope")
    await page.click("#signin-button-credentials")
    await page.waitForURL((url) => url.searchParams.get("error") === "CredentialsSignin")
    // The error page's form has no callbackUrl (Gatehouse writes no callback-url cookie for credentials): start over.
    await page.goto(`${origin}/protected`)
    await page.waitForURL((url) => url.pathname === "/api/auth/signin")
    await page.fill('input[name="username"]', "demo")
    await page.fill('input[name="password"]', "demo")
    await page.click("#signin-button-credentials")
    await page.waitForURL(`${origin}/protected`)
    expect(await page.textContent('[data-testid="protected-user"]')).toBe("Welcome, Demo User.")
    expect(await edgeSession()).toEqual({ name: "Demo User", runtime: "edge-runtime" })
    // A cookie the Node.js side writes (unstable_update in the protected page's server action) reads on Edge.
    await page.fill('input[name="name"]', "Edge Reader")
    await page.click("text=Change display name")
    await expect.poll(() => page.textContent('[data-testid="protected-user"]')).toBe("Welcome, Edge Reader.")
    expect(await edgeSession()).toEqual({ name: "Edge Reader", runtime: "edge-runtime" })
    await page.goto(`${origin}/`)
    expect(await serverSession()).toMatch(/signed in as Edge Reader/)
    await expect.poll(clientSession).toMatch(/useSession\): authenticated as Edge Reader/)

    // Sign out with the server action of the Edge page: /protected is closed again.
    await page.click("text=Sign out (server action)")
    await expect.poll(serverSession).toMatch(/auth\(\)\): signed out/)
    await page.goto(`${origin}/protected`)
    await page.waitForURL((url) => url.pathname === "/api/auth/signin")
    expect(await edgeSession()).toEqual({ name: null, runtime: "edge-runtime" })

    // Sign in with the server action, sign out on the built-in sign-out page.
    await page.goto(`${origin}/`)
    await page.click("text=Sign in (server action)")
    await page.waitForURL(`${origin}/protected`)
    expect(await page.textContent('[data-testid="protected-user"]')).toBe("Welcome, Demo User.")
    await page.goto(`${origin}/api/auth/signout`)
    await page.click("#submitButton")
    await page.waitForURL((url) => url.pathname === "/")
    expect(await serverSession()).toMatch(/auth\(\)\): signed out/)
    await page.goto(`${origin}/protected`)
    await page.waitForURL((url) => url.pathname === "/api/auth/signin")
  } finally {
    await browser.close()
  }
}
