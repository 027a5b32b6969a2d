// examples/next-v4, a next-auth v4 app (pages router), moved to Gatehouse in two steps while a user stays signed in,
// in headless Chromium, on Next 15 (the `next15` dev dependency). One scratch app, one browser context, one origin
// (http://localhost:<port>, NEXTAUTH_URL), three builds:
// 1. the example with its imports swapped back to next-auth 4.24.15 (what the app was): signed out, the home page's
//    signIn (redirect: false) with a wrong and the right password, signOut, and a sign-in through the middleware's
//    redirect and the built-in page; what each page and API route shows is recorded. A second user, in a context of
//    their own, signs in with Keycloak (the app's second provider) at a local OP (test/support/oidc-op.ts);
// 2. the example as it is (gatehouse/v4 …): the same contexts are still signed in and every page, API route and the
//    middleware show what next-auth 4 showed; then the same sign-out and sign-ins, with the same results, and the
//    second user signs out and in again at the OP;
// 3. the move to gatehouse/next (test/integrations/next-v4/v5/, v4Cookies "accept"): both still signed in, their
//    browsers now hold authjs.session-token and no next-auth.session-token.
// The builds of steps 2 and 3 must not warn about the Edge middleware (a node:* module in its graph).
// Uses dist/ (built on first need by test/support/dist.ts): the scratch app installs gatehouse from it.
import { readFileSync } from "node:fs"
import { join } from "node:path"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchChromium, skipReason } from "../e2e/support/chromium.js"
import { freePort } from "../support/listen.js"
import { type OidcOp, startOidcProvider } from "../support/oidc-op.js"
import {
  look,
  OP_USER_SESSION,
  SIGNED_IN,
  SIGNED_OUT,
  type Seen,
  signInThroughMiddleware,
  signInWithForm,
  signInWithOp,
  signOutFromHome,
} from "./next-v4/browser.js"
import { prepareV4App, removeApp, type Stage, useStage } from "./next-v4/app.js"
import { NextProcess, next15Version } from "./next15/harness.js"

const SECRET = "next-v4-example-test-secret-0123456789abcdef"

let dir: string | undefined
let server: NextProcess | undefined
let build: NextProcess | undefined
let browser: Browser | undefined
let context: BrowserContext | undefined
let page: Page
/** The second user's browser context: signs in with Keycloak at the local OP. */
let oidcContext: BrowserContext | undefined
let oidcPage: Page
let op: OidcOp | undefined
let port = 0
let origin = ""
/** What next-auth 4 showed, signed in and signed out (step 1), for steps 2 and 3 to compare with. */
const seenWithNextAuth: { signedIn?: Seen; signedOut?: Seen; formError?: string | null } = {}

/**
 * The environment of `next build` / `next start`: production; NEXTAUTH_URL and NEXTAUTH_SECRET as a v4 app sets them
 * (the v5 step renames NEXTAUTH_URL to AUTH_URL, and keeps NEXTAUTH_SECRET, which gatehouse/next falls back to); the
 * OP as the Keycloak provider's issuer and client; nothing from the test run's shell.
 */
function nextEnv(stage: Stage): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    NODE_ENV: "production",
    NEXTAUTH_SECRET: SECRET,
    KEYCLOAK_ISSUER: op!.issuer,
    KEYCLOAK_ID: op!.clients.basic.client_id,
    KEYCLOAK_SECRET: op!.clients.basic.client_secret,
  }
  for (const name of ["AUTH_SECRET", "AUTH_URL", "AUTH_TRUST_HOST", "NEXTAUTH_URL", "VERCEL"]) delete env[name]
  if (stage === "gatehouse-next") env.AUTH_URL = origin
  else env.NEXTAUTH_URL = origin
  return env
}

/** Stops the running app, puts the source at `stage`, builds it (time logged) and starts it on the same port. */
async function buildAndStart(stage: Stage): Promise<string> {
  await server?.stop()
  useStage(dir!, stage)
  const started = Date.now()
  build = new NextProcess(dir!, ["build"], nextEnv(stage))
  const code = await build.exited
  console.log(`next build (Next ${next15Version()}, ${stage}) took ${((Date.now() - started) / 1000).toFixed(1)} s`)
  if (code !== 0) throw new Error(`next build (${stage}) failed (${code}):\n${build.output}`)
  server = new NextProcess(dir!, ["start", "-p", String(port), "-H", "127.0.0.1"], nextEnv(stage))
  expect(await server.origin(30_000)).toBe(`http://127.0.0.1:${port}`)
  return build.output
}

/**
 * The middleware is an Edge function (Next 15's default runtime for middleware.ts), and `next build` found nothing in
 * its graph that the Edge runtime lacks (it warns, naming the module, and builds anyway).
 */
function expectEdgeMiddleware(buildOutput: string): void {
  const unsupported = buildOutput
    .split("\n")
    .filter((line) => /not supported in the Edge Runtime|node:|Module not found/.test(line))
  expect(unsupported, "next build's complaints about the Edge middleware").toEqual([])
  const manifest = JSON.parse(readFileSync(join(dir!, ".next/server/middleware-manifest.json"), "utf8")) as {
    middleware: Record<string, { files?: string[]; matchers?: { originalSource?: string }[] }>
  }
  expect(Object.keys(manifest.middleware)).toEqual(["/"])
  expect(manifest.middleware["/"]?.matchers?.map((m) => m.originalSource)).toEqual(["/protected/:path*"])
}

/** The names of the session cookies a browser context holds for the app's origin. */
async function sessionCookies(of: BrowserContext = context!): Promise<string[]> {
  return (await of.cookies(origin))
    .map((c) => c.name)
    .filter((name) => name.includes("session-token"))
    .sort()
}

/** GET /api/session as the second user. */
async function oidcUserSession(): Promise<{ status: number; body: unknown }> {
  const res = await oidcPage.request.get(`${origin}/api/session`)
  return { status: res.status(), body: await res.json() }
}

describe.skipIf(skipReason)(
  "examples/next-v4: a next-auth v4 app moved to gatehouse/v4, then to gatehouse/next",
  () => {
    beforeAll(async () => {
      dir = prepareV4App()
      port = await freePort()
      // localhost: NEXTAUTH_URL's host, and the one Next 15 writes in a loopback redirect's Location.
      origin = `http://localhost:${port}`
      op = await startOidcProvider({ rpOrigin: origin, basePath: "/api/auth", providerIds: ["keycloak"] })
      browser = await launchChromium()
      context = await browser.newContext()
      page = await context.newPage()
      oidcContext = await browser.newContext()
      oidcPage = await oidcContext.newPage()
    }, 120_000)

    afterAll(async () => {
      await build?.stop() // still running only when a step timed out
      await server?.stop()
      await browser?.close()
      await op?.stop()
      removeApp(dir)
    })

    it("1. on next-auth 4.24.15: signs in with the home page's form, out, in through the middleware, and at the OP", async () => {
      await buildAndStart("next-auth")

      const signedOut = await look(page, origin)
      expect(signedOut).toEqual(SIGNED_OUT)
      seenWithNextAuth.signedOut = signedOut
      seenWithNextAuth.formError = await signInWithForm(page, origin, "wrong")
      expect(seenWithNextAuth.formError).toBe("Sign-in failed: CredentialsSignin")
      expect(await signInWithForm(page, origin, "demo")).toBeNull()
      await signOutFromHome(page, origin)
      expect(await sessionCookies()).toEqual([])

      await signInThroughMiddleware(page, origin)
      expect(await sessionCookies()).toEqual(["next-auth.session-token"])
      const signedIn = await look(page, origin)
      expect(signedIn).toEqual(SIGNED_IN)
      seenWithNextAuth.signedIn = signedIn

      await signInWithOp(oidcPage, origin, op!.url)
      expect(await oidcUserSession()).toEqual(OP_USER_SESSION)
      expect(await sessionCookies(oidcContext)).toEqual(["next-auth.session-token"])
    }, 480_000)

    it("2. on gatehouse/v4: still signed in everywhere, then signs out and in as with next-auth", async () => {
      expect(seenWithNextAuth.signedIn, "step 1 ran").toBeDefined()
      expectEdgeMiddleware(await buildAndStart("gatehouse-v4"))

      // The session cookies next-auth 4 set are read by every part of the app.
      expect(await look(page, origin)).toEqual(seenWithNextAuth.signedIn)
      expect(await sessionCookies()).toEqual(["next-auth.session-token"])
      expect(await oidcUserSession()).toEqual(OP_USER_SESSION)

      await signOutFromHome(page, origin)
      expect(await sessionCookies()).toEqual([])
      expect(await look(page, origin)).toEqual(seenWithNextAuth.signedOut)
      expect(await signInWithForm(page, origin, "wrong")).toBe(seenWithNextAuth.formError)
      expect(await signInWithForm(page, origin, "demo")).toBeNull()
      expect(await look(page, origin)).toEqual(seenWithNextAuth.signedIn)
      await signOutFromHome(page, origin)

      await signInThroughMiddleware(page, origin)
      expect(await sessionCookies()).toEqual(["next-auth.session-token"])
      expect(await look(page, origin)).toEqual(seenWithNextAuth.signedIn)

      // The second user signs out and in again at the OP, through Gatehouse this time.
      await signOutFromHome(oidcPage, origin)
      expect((await oidcUserSession()).status).toBe(401)
      await signInWithOp(oidcPage, origin, op!.url)
      expect(await oidcUserSession()).toEqual(OP_USER_SESSION)
      expect(await sessionCookies(oidcContext)).toEqual(["next-auth.session-token"])
    }, 480_000)

    it("3. on gatehouse/next with v4Cookies 'accept': still signed in, under authjs.session-token", async () => {
      expect(seenWithNextAuth.signedIn, "step 1 ran").toBeDefined()
      expect(await sessionCookies()).toEqual(["next-auth.session-token"])
      expectEdgeMiddleware(await buildAndStart("gatehouse-next"))

      // The first page read (getServerSideProps, auth(context)) trades the v4 cookie for a v5 one.
      const first = await page.goto(`${origin}/server`)
      const setCookie = (await first!.headerValue("set-cookie")) ?? ""
      expect(setCookie).toMatch(/(^|\n)authjs\.session-token=[^;]+/)
      expect(setCookie).toMatch(/(^|\n)next-auth\.session-token=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/i)
      expect(await sessionCookies()).toEqual(["authjs.session-token"])

      expect(await look(page, origin)).toEqual(seenWithNextAuth.signedIn)
      expect(await sessionCookies()).toEqual(["authjs.session-token"])

      // The second user's first request is an API route's (auth(req, res)).
      expect(await oidcUserSession()).toEqual(OP_USER_SESSION)
      expect(await sessionCookies(oidcContext)).toEqual(["authjs.session-token"])
    }, 480_000)
  },
)
