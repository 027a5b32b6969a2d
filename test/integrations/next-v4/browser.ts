// What a user of examples/next-v4 does and sees in the browser, for next-v4-app.test.ts: sign in through the
// middleware's redirect and the built-in sign-in page, sign in with the home page's form (signIn of the react module,
// redirect: false), sign out with its button, and a look at every place the app shows the session.
import type { Page } from "playwright-core"
import { expect } from "vitest"
import { throughOp } from "../app-kit.js"

/** The demo account of examples/next-v4. */
export const DEMO = { username: "demo", password: "demo" } as const

/** An API route's answer. */
export interface ApiAnswer {
  status: number
  body: unknown
}

/** Everything the app shows about the session, read the way a user (or a script in the page) reads it. */
export interface Seen {
  /** The home page's useSession line, once it is no longer loading. */
  home: string
  /** The getServerSideProps page's line. */
  server: string
  /** GET /api/session (getServerSession / auth() in an API route). */
  apiSession: ApiAnswer
  /** GET /api/token (getToken in an API route). */
  apiToken: ApiAnswer
  /** Where a visit to /protected ends: the page's own path, or the sign-in page with its query. */
  protectedAt: string
  /** The protected page's welcome line (when the middleware let the visit through). */
  protectedUser: string | null
}

const testId = (page: Page, id: string): Promise<string | null> => page.textContent(`[data-testid="${id}"]`)

async function api(page: Page, url: string): Promise<ApiAnswer> {
  const res = await page.request.get(url)
  return { status: res.status(), body: await res.json() }
}

/** The home page's useSession line once the session is known (not "loading"). */
export async function homeSession(page: Page, origin: string): Promise<string> {
  if (page.url() !== `${origin}/`) await page.goto(`${origin}/`)
  await expect.poll(() => testId(page, "client-session"), { timeout: 10_000 }).not.toMatch(/loading/)
  return (await testId(page, "client-session")) ?? ""
}

/** Looks at every place the app shows the session (the same browser context, so the same cookies). */
export async function look(page: Page, origin: string): Promise<Seen> {
  await page.goto(`${origin}/server`)
  const server = (await testId(page, "server-session")) ?? ""
  const apiSession = await api(page, `${origin}/api/session`)
  const apiToken = await api(page, `${origin}/api/token`)
  const response = await page.goto(`${origin}/protected`)
  expect(response?.ok(), `GET /protected ends in ${page.url()}`).toBe(true)
  const at = new URL(page.url())
  const protectedAt = `${at.pathname}${at.search}`
  let protectedUser: string | null = null
  if (at.pathname === "/protected") {
    await expect.poll(() => testId(page, "protected-user"), { timeout: 10_000 }).toMatch(/^Welcome/)
    protectedUser = await testId(page, "protected-user")
  }
  await page.goto(`${origin}/`)
  return { home: await homeSession(page, origin), server, apiSession, apiToken, protectedAt, protectedUser }
}

/** The signed-in view of the demo user (its id from the session callback). */
export const SIGNED_IN: Seen = {
  home: "useSession: authenticated as Demo User (id 1)",
  server: "getServerSideProps: signed in as Demo User (demo@example.com)",
  apiSession: { status: 200, body: { name: "Demo User", email: "demo@example.com", id: "1" } },
  apiToken: { status: 200, body: { sub: "1", name: "Demo User", email: "demo@example.com" } },
  protectedAt: "/protected",
  protectedUser: "Welcome, Demo User.",
}

/** The signed-out view: the middleware sends /protected to the sign-in page with a relative callbackUrl. */
export const SIGNED_OUT: Seen = {
  home: "useSession: unauthenticated",
  server: "getServerSideProps: signed out",
  apiSession: { status: 401, body: { error: "Not signed in" } },
  apiToken: { status: 401, body: { error: "No valid session token" } },
  protectedAt: "/api/auth/signin?callbackUrl=%2Fprotected",
  protectedUser: null,
}

/** From /protected through the middleware to the built-in sign-in page, its credentials form, and back. */
export async function signInThroughMiddleware(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/protected`)
  await page.waitForURL((url) => url.pathname === "/api/auth/signin")
  expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe("/protected")
  await page.fill('input[name="username"]', DEMO.username)
  await page.fill('input[name="password"]', DEMO.password)
  await page.click('form[action$="/callback/credentials"] button[type="submit"]')
  await page.waitForURL(`${origin}/protected`)
  await expect.poll(() => testId(page, "protected-user"), { timeout: 10_000 }).toBe("Welcome, Demo User.")
}

/**
 * The home page's own form: signIn("credentials", { username, password, redirect: false }). Resolves the error line
 * the page shows (null when there is none) once the session line has settled.
 */
export async function signInWithForm(page: Page, origin: string, password: string): Promise<string | null> {
  await homeSession(page, origin)
  await page.fill('main form input[name="username"]', DEMO.username)
  await page.fill('main form input[name="password"]', password)
  await page.click("text=Sign in here")
  if (password === DEMO.password) {
    await expect.poll(() => testId(page, "client-session"), { timeout: 10_000 }).toMatch(/authenticated as/)
    return null
  }
  await page.waitForSelector('[data-testid="signin-error"]', { timeout: 10_000 })
  return testId(page, "signin-error")
}

/** The home page's Sign out button: signOut({ callbackUrl: "/" }) and the reload it leads to. */
export async function signOutFromHome(page: Page, origin: string): Promise<void> {
  await homeSession(page, origin)
  await Promise.all([page.waitForEvent("load"), page.click("text=Sign out")])
  await expect.poll(() => homeSession(page, origin), { timeout: 10_000 }).toBe("useSession: unauthenticated")
}

/** What /api/session shows for the OP's first user after a Keycloak sign-in (the session callback's id is the sub). */
export const OP_USER_SESSION: ApiAnswer = {
  status: 200,
  body: { name: "Olivia Provider", email: "olivia@op.example", id: "op-user-1" },
}

/**
 * From the built-in sign-in page's Keycloak button to the OP (test/support/oidc-op.ts on `opUrl`): its login and
 * consent pages when it shows them (it skips both for a browser it knows), and back to the app's home page.
 */
export async function signInWithOp(page: Page, origin: string, opUrl: string): Promise<void> {
  await page.goto(`${origin}/api/auth/signin?callbackUrl=${encodeURIComponent(`${origin}/`)}`)
  await Promise.all([page.waitForEvent("load"), page.click('form[action$="/signin/keycloak"] button[type="submit"]')])
  await throughOp(page, opUrl)
  await page.waitForURL(`${origin}/`)
  expect(await homeSession(page, origin)).toBe("useSession: authenticated as Olivia Provider (id op-user-1)")
}
