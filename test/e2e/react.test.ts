// gatehouse/react in headless Chromium against a real Gatehouse server: useSession's status through sign-in,
// update(), sign-in/out/update seen by another tab (BroadcastChannel), required + onUnauthenticated, basePath (and one on another origin, CL-02),
// refetchInterval and the refetch on focus.
import type { BrowserContext, Page } from "playwright-core"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { openPage, skipReason } from "./support/chromium.js"
import { requestsTo, startHarness, waitForText } from "./support/harness.js"
import type { Harness } from "./support/harness.js"
import { startOtherOrigin } from "./support/other-origin.js"
import "./support/page-globals.js"

describe.skipIf(skipReason !== undefined)(
  `gatehouse/react in Chromium${skipReason ? ` (skipped: ${skipReason})` : ""}`,
  () => {
    let h: Harness
    let context: BrowserContext
    let errors: string[]
    let origin: string

    beforeAll(async () => {
      h = await startHarness(["react-page.ts"])
      origin = h.server.origin
    })
    afterAll(async () => {
      await h?.close()
    })
    beforeEach(async () => {
      context = await h.browser.newContext()
      errors = []
      h.server.state.version = 1
    })
    afterEach(async () => {
      await context.close()
      expect(errors).toEqual([])
    })

    const open = (path = "/react/app"): Promise<Page> => openPage(context, `${origin}${path}`, errors)
    const signInQuietly = (page: Page, username = "alice", password = "wonderland") =>
      page.evaluate(([u, p]) => window.gatehouse.signIn("credentials", { username: u, password: p, redirect: false }), [
        username,
        password,
      ] as const)

    it("useSession goes loading → unauthenticated → authenticated after signIn, without a reload", async () => {
      const page = await open()
      await waitForText(page, "status", "unauthenticated")
      await page.evaluate(() => void (window.marker = "kept"))
      expect(await signInQuietly(page)).toMatchObject({ ok: true })
      // signIn waits for the page's SessionProvider to refetch: the new state is there when it resolves.
      expect(await page.textContent("#status")).toBe("authenticated")
      expect(await page.textContent("#name")).toBe("Alice")
      expect(await page.evaluate(() => window.statusHistory)).toEqual(["loading", "unauthenticated", "authenticated"])
      expect(await page.evaluate(() => window.marker)).toBe("kept")
    })

    it("a refused signIn leaves useSession unauthenticated", async () => {
      const page = await open()
      await waitForText(page, "status", "unauthenticated")
      expect(await signInQuietly(page, "alice", "wrong")).toMatchObject({ ok: false, error: "CredentialsSignin" })
      expect(await page.textContent("#status")).toBe("unauthenticated")
    })

    it("useSession().update(data) reaches the jwt callback (trigger update) and changes data", async () => {
      const page = await open()
      await signInQuietly(page)
      await waitForText(page, "name", "Alice")
      h.server.state.jwtCalls.length = 0
      await page.evaluate(() => void (window.statusHistory = []))
      const answered = await page.evaluate(() => window.sessionUpdate!({ name: "Queen Alice" }))
      expect(answered).toMatchObject({ user: { name: "Queen Alice" } })
      await waitForText(page, "name", "Queen Alice")
      expect(h.server.state.jwtCalls).toEqual([{ trigger: "update", session: { name: "Queen Alice" } }])
      // As next-auth/react: "loading" while the update is in flight.
      expect(await page.evaluate(() => window.statusHistory)).toEqual(["loading", "authenticated"])
      // update() without data refetches: a server-side change shows up.
      h.server.state.version = 7
      expect(await page.evaluate(() => window.sessionUpdate!())).toMatchObject({ version: 7 })
      await waitForText(page, "version", "7")
    })

    it("sign-in, update and sign-out in one tab reach the other tab's useSession without a reload", async () => {
      const first = await open()
      const second = await open()
      await waitForText(second, "status", "unauthenticated")
      await second.evaluate(() => void (window.marker = "kept"))
      await signInQuietly(first)
      await waitForText(second, "status", "authenticated")
      await waitForText(second, "name", "Alice")
      await first.evaluate(() => window.sessionUpdate!({ name: "Alice L." }))
      await waitForText(second, "name", "Alice L.")
      await first.evaluate(() => window.gatehouse.signOut({ redirect: false }))
      expect(await first.textContent("#status")).toBe("unauthenticated")
      await waitForText(second, "status", "unauthenticated")
      expect(await second.evaluate(() => window.marker)).toBe("kept")
    })

    it("required with onUnauthenticated: signed out reads as loading and the callback runs once", async () => {
      const page = await open("/react/required?callback=1")
      await page.waitForFunction(() => window.unauthenticatedCalls === 1)
      expect(page.url()).toBe(`${origin}/react/required?callback=1`)
      expect(await page.textContent("#status")).toBe("loading")
      await signInQuietly(page)
      await waitForText(page, "status", "authenticated")
      expect(await page.evaluate(() => window.unauthenticatedCalls)).toBe(1)
    })

    it("required without onUnauthenticated goes to the sign-in page with error=SessionRequired and callbackUrl", async () => {
      const signInPage = `${origin}/api/auth/signin?${new URLSearchParams({ error: "SessionRequired", callbackUrl: `${origin}/react/required` })}`
      const page = await context.newPage()
      const landed = page.waitForURL(signInPage)
      await page.goto(`${origin}/react/required`)
      await landed
    })

    it("SessionProvider basePath sends the session requests and the helpers to that path", async () => {
      const page = await open("/react/app?basePath=/auth")
      await waitForText(page, "status", "unauthenticated")
      expect(requestsTo(h.server, "/auth/session")).toBeGreaterThanOrEqual(1)
      const callbacks = requestsTo(h.server, "/auth/callback/credentials")
      await signInQuietly(page)
      await waitForText(page, "status", "authenticated")
      expect(requestsTo(h.server, "/auth/callback/credentials")).toBe(callbacks + 1)
    })

    it("CL-02: SessionProvider refuses a basePath on another origin (//host, /\\host) and sends nothing there", async () => {
      const elsewhere = await startOtherOrigin()
      try {
        const host = elsewhere.origin.slice("http://".length)
        for (const basePath of [`//${host}/auth`, `/\\${host}/auth`, `${elsewhere.origin}/auth`]) {
          const page = await open(`/react/app?${new URLSearchParams({ basePath })}`)
          await page.waitForTimeout(400)
          await page.evaluate(() =>
            window.gatehouse
              .signIn("credentials", { username: "alice", password: "wonderland", redirect: false })
              .catch(() => undefined),
          )
          expect(elsewhere.requests).toEqual([])
          expect(errors.some((e) => e.includes("basePath must be a path on this origin"))).toBe(true)
          errors.length = 0
          await page.close()
        }
      } finally {
        await elsewhere.stop()
      }
    })

    it("refetchInterval polls the session while signed in", async () => {
      const page = await open("/react/app?refetchInterval=1")
      await signInQuietly(page)
      await waitForText(page, "version", "1")
      h.server.state.version = 2
      await waitForText(page, "version", "2", 4_000)
    })

    it("a tab becoming visible refetches, unless refetchOnWindowFocus is false", async () => {
      const page = await open()
      await signInQuietly(page)
      await waitForText(page, "version", "1")
      h.server.state.version = 3
      await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")))
      await waitForText(page, "version", "3")

      const still = await open("/react/app?focus=0")
      await waitForText(still, "version", "3")
      h.server.state.version = 4
      const before = requestsTo(h.server, "/api/auth/session")
      await still.evaluate(() => document.dispatchEvent(new Event("visibilitychange")))
      await still.waitForTimeout(300)
      expect(requestsTo(h.server, "/api/auth/session")).toBe(before)
      expect(await still.textContent("#version")).toBe("3")
    })
  },
)
