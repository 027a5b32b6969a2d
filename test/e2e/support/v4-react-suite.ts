// The browser scenarios of gatehouse/v4/react, run by test/e2e/v4-react.test.ts against next-auth 4.24.15's own
// routes and against Gatehouse's v4 wire format, in one browser and with the pages bundled once. Each scenario runs
// twice per server, with the page on gatehouse/v4/react and on next-auth/react, and both must give the answers written
// here (next-auth 4's).
import type { BrowserContext, Page } from "playwright-core"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { launchChromium, openPage, skipReason } from "./chromium.js"
import { waitForText } from "./harness.js"
import { startOtherOrigin } from "./other-origin.js"
import { bundleV4Pages, startV4Server, v4RequestsTo } from "./v4-react-kit.js"
import type { V4ClientLib, V4Server, V4ServerKind } from "./v4-react-kit.js"
import type { Browser } from "playwright-core"

const LIBS: readonly V4ClientLib[] = ["gatehouse", "next-auth"]

/** The browser and the page bundles, made once per file for every server's suite. */
let shared: Promise<{ browser: Browser; bundles: Map<string, string> }> | undefined

function sharedSetUp(): Promise<{ browser: Browser; bundles: Map<string, string> }> {
  shared ??= Promise.all([launchChromium(), bundleV4Pages()]).then(([browser, bundles]) => ({ browser, bundles }))
  return shared
}

/** Defines the suite for each server, one after the other in one browser; `label` names a server in the test titles. */
export function v4ReactSuites(servers: readonly { kind: V4ServerKind; label: string }[]): void {
  for (const { kind, label } of servers) v4ReactSuite(kind, label)
  afterAll(async () => {
    const setUp = shared
    shared = undefined
    await (await setUp)?.browser.close()
  })
}

function v4ReactSuite(kind: V4ServerKind, label: string): void {
  describe.skipIf(skipReason !== undefined)(
    `v4/react pages against ${label}${skipReason ? ` (skipped: ${skipReason})` : ""}`,
    () => {
      let server: V4Server
      let browser: Browser
      let origin: string

      beforeAll(async () => {
        const setUp = await sharedSetUp()
        browser = setUp.browser
        server = await startV4Server(kind, setUp.bundles)
        origin = server.origin
      })
      afterAll(async () => {
        await server?.stop()
      })

      describe.each(LIBS)("page on %s", (lib) => {
        let context: BrowserContext
        let errors: string[]

        beforeEach(async () => {
          context = await browser.newContext()
          errors = []
          server.state.version = 1
          server.state.jwtCalls.length = 0
          server.state.authorizeCalls.length = 0
        })
        afterEach(async () => {
          await context.close()
          expect(errors).toEqual([])
        })

        const pageUrl = (path = "/v4/app", query: Record<string, string> = {}): string =>
          `${origin}${path}?${new URLSearchParams({ ...query, lib })}`
        const open = (path?: string, query?: Record<string, string>): Promise<Page> =>
          openPage(context, pageUrl(path, query), errors)
        const signInQuietly = (page: Page, username = "alice", password = "wonderland") =>
          page.evaluate(([u, p]) => window.v4.signIn("credentials", { username: u, password: p, redirect: false }), [
            username,
            password,
          ] as const)
        const csrfCookieToken = async (): Promise<string | undefined> => {
          const cookie = (await context.cookies(origin)).find((c) => c.name === "next-auth.csrf-token")
          return cookie && decodeURIComponent(cookie.value).split("|")[0]
        }
        const sessionCookie = async (): Promise<string | undefined> =>
          (await context.cookies(origin)).find((c) => c.name === "next-auth.session-token")?.value

        it("getProviders, getCsrfToken and getSession signed out", async () => {
          const page = await open()
          await waitForText(page, "status", "unauthenticated")
          const answers = await page.evaluate(async () => ({
            providers: await window.v4.getProviders(),
            csrf: await window.v4.getCsrfToken(),
            session: await window.v4.getSession(),
          }))
          expect(answers.providers).toEqual({
            credentials: {
              id: "credentials",
              name: "Credentials",
              type: "credentials",
              signinUrl: `${origin}/api/auth/signin/credentials`,
              callbackUrl: `${origin}/api/auth/callback/credentials`,
            },
          })
          expect(answers.csrf).toMatch(/^[0-9a-f]{64}$/)
          expect(answers.session).toBeNull()
          expect(await csrfCookieToken()).toBe(answers.csrf)
        })

        it("credentials sign-in with redirect: false resolves { error: null, status: 200, ok: true, url } and useSession goes loading → unauthenticated → authenticated", async () => {
          const page = await open()
          await waitForText(page, "status", "unauthenticated")
          await page.evaluate(() => void (window.marker = "kept"))
          const answer = await signInQuietly(page)
          expect(answer).toEqual({ error: null, status: 200, ok: true, url: pageUrl() })
          // signIn waits for the page's SessionProvider to refetch: the new state is there when it resolves.
          expect(await page.textContent("#status")).toBe("authenticated")
          expect(await page.textContent("#name")).toBe("Alice")
          expect(await page.evaluate(() => window.v4History)).toEqual([
            "loading:",
            "unauthenticated:",
            "authenticated:Alice",
          ])
          expect(await page.evaluate(() => window.marker)).toBe("kept")
          expect(await sessionCookie()).toMatch(/^eyJ/)
          expect(await page.evaluate(() => window.v4.getSession())).toMatchObject({
            user: { name: "Alice", email: "alice@example.com" },
            version: 1,
          })
        })

        it("the sign-in posts next-auth 4's form (the options, csrfToken, callbackUrl, json=true) and authorize gets it whole", async () => {
          const page = await open()
          await waitForText(page, "status", "unauthenticated")
          const before = server.state.requests.length
          await signInQuietly(page)
          const post = server.state.requests
            .slice(before)
            .find((r) => r.method === "POST" && r.url === "/api/auth/callback/credentials")
          expect(post).toBeDefined()
          const form = Object.fromEntries(new URLSearchParams(post!.body))
          expect(form).toEqual({
            username: "alice",
            password: "wonderland",
            redirect: "false",
            csrfToken: await csrfCookieToken(),
            callbackUrl: pageUrl(),
            json: "true",
          })
          expect(server.state.authorizeCalls).toEqual([form])
        })

        it('a wrong password resolves { error: "CredentialsSignin", status: 401, ok: false, url: null } and stays signed out', async () => {
          const page = await open()
          await waitForText(page, "status", "unauthenticated")
          expect(await signInQuietly(page, "alice", "wrong")).toEqual({
            error: "CredentialsSignin",
            status: 401,
            ok: false,
            url: null,
          })
          expect(await page.textContent("#status")).toBe("unauthenticated")
          expect(await sessionCookie()).toBeUndefined()
          // The browser reports the 401 of the sign-in request itself; nothing else may have failed.
          expect(errors).toEqual([expect.stringContaining("status of 401")])
          errors.length = 0
        })

        it("update(data) posts /session with the CSRF token, reaches the jwt callback and keeps data while loading", async () => {
          const page = await open()
          await signInQuietly(page)
          await waitForText(page, "name", "Alice")
          server.state.jwtCalls.length = 0
          await page.evaluate(() => void (window.v4History = []))
          const answered = await page.evaluate(() => window.v4Update!({ name: "Queen Alice" }))
          expect(answered).toMatchObject({ user: { name: "Queen Alice" }, version: 1 })
          await waitForText(page, "name", "Queen Alice")
          expect(server.state.jwtCalls).toEqual([{ trigger: "update", session: { name: "Queen Alice" } }])
          // next-auth 4 shows the held session with status "loading" while the update is in flight.
          expect(await page.evaluate(() => window.v4History)).toEqual(["loading:Alice", "authenticated:Queen Alice"])
          // The cookie now carries the new name: a fresh read shows it.
          expect(await page.evaluate(() => window.v4.getSession())).toMatchObject({ user: { name: "Queen Alice" } })
        })

        it("signOut({ redirect: false }) resolves { url } and useSession turns unauthenticated", async () => {
          const page = await open()
          await signInQuietly(page)
          await waitForText(page, "status", "authenticated")
          const answer = await page.evaluate(() => window.v4.signOut({ redirect: false }))
          expect(answer).toEqual({ url: pageUrl() })
          expect(await page.textContent("#status")).toBe("unauthenticated")
          expect(await sessionCookie()).toBeUndefined()
          expect(await page.evaluate(() => window.v4.getSession())).toBeNull()
        })

        it("signIn() without a provider, or with one the server does not list, goes to the sign-in page with callbackUrl", async () => {
          for (const provider of [undefined, "github"]) {
            const page = await open()
            const target = `${origin}/api/auth/signin?${new URLSearchParams({ callbackUrl: `${origin}/v4/done` })}`
            const landed = page.waitForURL(target)
            await page.evaluate(
              (p) => void window.v4.signIn(p, { callbackUrl: `${window.location.origin}/v4/done` }),
              provider,
            )
            await landed
            await page.close()
          }
        })

        it("signIn with the default redirect lands on callbackUrl signed in; signOut with redirect lands on its callbackUrl", async () => {
          const page = await open()
          await waitForText(page, "status", "unauthenticated")
          const after = pageUrl("/v4/app", { after: "signin" })
          const landed = page.waitForURL(after)
          await page.evaluate(
            (url) =>
              void window.v4.signIn("credentials", { username: "alice", password: "wonderland", callbackUrl: url }),
            after,
          )
          await landed
          await waitForText(page, "status", "authenticated")
          const out = pageUrl("/v4/app", { after: "signout" })
          const left = page.waitForURL(out)
          await page.evaluate((url) => void window.v4.signOut({ callbackUrl: url }), out)
          await left
          await waitForText(page, "status", "unauthenticated")
        })

        it("another tab follows signOut and update through the nextauth.message storage key", async () => {
          const first = await open()
          const second = await open()
          await waitForText(second, "status", "unauthenticated")
          await signInQuietly(first)
          // As next-auth 4: a redirect: false sign-in refetches this page only; the other tab hears of it when the
          // session next changes (an update here), not on focus while signed out. next-auth/react's messages carry
          // the time in seconds and nothing else that varies, so one equal to the second tab's mount message in the
          // same second changes no stored value and fires no event: wait for the next second.
          await first.waitForTimeout(1_100)
          await first.evaluate(() => window.v4Update!({ name: "Alice L." }))
          await waitForText(second, "status", "authenticated")
          await waitForText(second, "name", "Alice L.")
          const message = await first.evaluate(() => JSON.parse(localStorage.getItem("nextauth.message") ?? "null"))
          expect(message).toMatchObject({ event: "session", data: { trigger: "getSession" } })
          expect(typeof message.timestamp).toBe("number")
          await second.evaluate(() => void (window.marker = "kept"))
          await first.evaluate(() => window.v4.signOut({ redirect: false }))
          await waitForText(second, "status", "unauthenticated")
          expect(await second.evaluate(() => window.marker)).toBe("kept")
        })

        it("required without onUnauthenticated sends a signed-out user to the sign-in page (error=SessionRequired)", async () => {
          const required = pageUrl("/v4/required")
          const signInPage = `${origin}/api/auth/signin?${new URLSearchParams({ error: "SessionRequired", callbackUrl: required })}`
          const page = await context.newPage()
          const landed = page.waitForURL(signInPage)
          await page.goto(required)
          await landed
        })

        it("required with onUnauthenticated: signed out reads as loading and the callback runs", async () => {
          const page = await open("/v4/required", { callback: "1" })
          await page.waitForFunction(() => (window.unauthenticatedCalls ?? 0) >= 1)
          expect(page.url()).toBe(pageUrl("/v4/required", { callback: "1" }))
          expect(await page.textContent("#status")).toBe("loading")
          await signInQuietly(page)
          await waitForText(page, "status", "authenticated")
        })

        it("SessionProvider basePath sends the session requests and the helpers to that path", async () => {
          const page = await open("/v4/app", { basePath: "/custom/auth" })
          await waitForText(page, "status", "unauthenticated")
          expect(v4RequestsTo(server, "/custom/auth/session")).toBeGreaterThanOrEqual(1)
          const callbacks = v4RequestsTo(server, "/custom/auth/callback/credentials")
          expect(await signInQuietly(page)).toMatchObject({ ok: true, error: null })
          await waitForText(page, "status", "authenticated")
          expect(v4RequestsTo(server, "/custom/auth/callback/credentials")).toBe(callbacks + 1)
        })

        it("refetchInterval polls the session while signed in", async () => {
          const page = await open("/v4/app", { refetchInterval: "1" })
          await signInQuietly(page)
          await waitForText(page, "version", "1")
          server.state.version = 5
          await waitForText(page, "version", "5", 4_000)
        })
      })

      describe("gatehouse/v4/react beside next-auth/react", () => {
        let context: BrowserContext
        let errors: string[]
        beforeEach(async () => {
          context = await browser.newContext()
          errors = []
        })
        afterEach(async () => {
          await context.close()
          expect(errors).toEqual([])
        })

        it("a tab on next-auth/react and a tab on gatehouse/v4/react follow each other's sign-out and update", async () => {
          const gatehouseTab = await openPage(context, `${origin}/v4/app?lib=gatehouse`, errors)
          const nextAuthTab = await openPage(context, `${origin}/v4/app?lib=next-auth`, errors)
          await nextAuthTab.evaluate(() =>
            window.v4.signIn("credentials", { username: "bob", password: "builder", redirect: false }),
          )
          // next-auth/react's message would equal its mount message of the same second (see above).
          await nextAuthTab.waitForTimeout(1_100)
          await nextAuthTab.evaluate(() => window.v4Update!({ name: "Bob B." }))
          await waitForText(gatehouseTab, "name", "Bob B.")
          await gatehouseTab.evaluate(() => window.v4Update!({ name: "Bob C." }))
          await waitForText(nextAuthTab, "name", "Bob C.")
          await gatehouseTab.evaluate(() => window.v4.signOut({ redirect: false }))
          await waitForText(nextAuthTab, "status", "unauthenticated")
        })

        it("gatehouse/v4/react's messages differ each time: two updates within one second both reach the other tab", async () => {
          const first = await openPage(context, `${origin}/v4/app?lib=gatehouse`, errors)
          const second = await openPage(context, `${origin}/v4/app?lib=gatehouse`, errors)
          await first.evaluate(() =>
            window.v4.signIn("credentials", { username: "alice", password: "wonderland", redirect: false }),
          )
          const seen: string[] = []
          await second.exposeFunction("sawMessage", (value: string) => void seen.push(value))
          await second.evaluate(() =>
            window.addEventListener("storage", (e) => {
              if (e.key === "nextauth.message")
                void (window as unknown as { sawMessage(v: string): void }).sawMessage(e.newValue ?? "")
            }),
          )
          await first.evaluate(async () => {
            await window.v4Update!({ name: "One" })
            await window.v4Update!({ name: "Two" })
          })
          await waitForText(second, "name", "Two")
          expect(seen.length).toBeGreaterThanOrEqual(2)
          expect(seen.map((m) => JSON.parse(m).data)).toContainEqual({ trigger: "getSession" })
        })

        it("CL-02: SessionProvider refuses a basePath on another origin and sends nothing there", async () => {
          const elsewhere = await startOtherOrigin()
          try {
            const host = elsewhere.origin.slice("http://".length)
            for (const basePath of [`//${host}/auth`, `/\\${host}/auth`, `${elsewhere.origin}/auth`]) {
              const page = await openPage(
                context,
                `${origin}/v4/app?${new URLSearchParams({ basePath, lib: "gatehouse" })}`,
                errors,
              )
              await page.waitForTimeout(300)
              expect(elsewhere.requests).toEqual([])
              expect(errors.some((e) => e.includes("must be a path on this origin"))).toBe(true)
              errors.length = 0
              await page.close()
            }
          } finally {
            await elsewhere.stop()
          }
        })
      })
    },
  )
}
