// gatehouse/client in headless Chromium against a real Gatehouse server: the CSRF token, providers and session
// reads, credentials sign-in (with and without redirect), session update, sign-out and a configured basePath; and the
// attacks on where the client navigates and posts (CL-01, CL-02).
import { fileURLToPath } from "node:url"
import { build } from "esbuild"
import type { BrowserContext, Page } from "playwright-core"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { openPage, skipReason } from "./support/chromium.js"
import { requestsTo, startHarness } from "./support/harness.js"
import type { Harness } from "./support/harness.js"
import { startOtherOrigin } from "./support/other-origin.js"
import type { OtherOrigin } from "./support/other-origin.js"
import "./support/page-globals.js"

const ROOT = fileURLToPath(new URL("../../", import.meta.url))

/** The source files a browser bundle of `entry` pulls in (bundled for the browser: a node: import fails the build). */
async function bundleInputs(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [`${ROOT}${entry}`],
    bundle: true,
    write: false,
    platform: "browser",
    format: "esm",
    external: ["react", "react-dom"],
    logLevel: "silent",
    metafile: true,
    absWorkingDir: ROOT,
  })
  return Object.keys(result.metafile.inputs).sort()
}

describe.skipIf(skipReason !== undefined)(
  `gatehouse/client in Chromium${skipReason ? ` (skipped: ${skipReason})` : ""}`,
  () => {
    let h: Harness
    let context: BrowserContext
    let errors: string[]
    let origin: string

    beforeAll(async () => {
      h = await startHarness(["client-page.ts"])
      origin = h.server.origin
    })
    afterAll(async () => {
      await h?.close()
    })
    beforeEach(async () => {
      context = await h.browser.newContext()
      errors = []
    })
    afterEach(async () => {
      await context.close()
      expect(errors).toEqual([])
    })

    const open = (path = "/client/home"): Promise<Page> => openPage(context, `${origin}${path}`, errors)
    const signInQuietly = (page: Page, username: string, password: string) =>
      page.evaluate(([u, p]) => window.gatehouse.signIn("credentials", { username: u, password: p, redirect: false }), [
        username,
        password,
      ] as const)

    it("the browser bundles of gatehouse/client and gatehouse/react hold no server code", async () => {
      const client = await bundleInputs("src/client/index.ts")
      expect(client).toEqual([
        "src/client/config.ts",
        "src/client/events.ts",
        "src/client/fetch-session.ts",
        "src/client/index.ts",
        "src/client/sign-in-start.ts",
        "src/client/url-rules.ts",
        "src/errors.ts",
        "src/webauthn/base64url.ts",
        "src/webauthn/ceremony.ts",
        "src/webauthn/sign-in.ts",
      ])
      const react = await bundleInputs("src/react/index.ts")
      // required.ts: the `required` redirect both useSessions share (gatehouse/react and /v4/react).
      expect(react).toEqual([...client, "src/react/index.ts", "src/react/required.ts"].sort())
      const webauthn = await bundleInputs("src/webauthn/index.ts")
      expect(webauthn).toEqual([...client, "src/webauthn/index.ts"].sort())
    })

    it("getCsrfToken, getProviders and getSession read the auth routes under the default /api/auth", async () => {
      const page = await open()
      const csrfToken = await page.evaluate(() => window.gatehouse.getCsrfToken())
      expect(csrfToken).toMatch(/^[0-9a-f]{64}$/)
      expect(await page.evaluate(() => window.gatehouse.getProviders())).toEqual({
        credentials: {
          id: "credentials",
          name: "Credentials",
          type: "credentials",
          signinUrl: `${origin}/api/auth/signin/credentials`,
          callbackUrl: `${origin}/api/auth/callback/credentials`,
        },
      })
      expect(await page.evaluate(() => window.gatehouse.getSession())).toBeNull()
      expect(requestsTo(h.server, "/api/auth/session")).toBeGreaterThanOrEqual(1)
    })

    it("signIn(credentials, { redirect: false }) answers { ok: true, url } and sets the session", async () => {
      const page = await open()
      const result = await page.evaluate(() =>
        window.gatehouse.signIn("credentials", {
          username: "alice",
          password: "wonderland",
          redirect: false,
          redirectTo: "/client/after",
        }),
      )
      expect(result).toEqual({
        error: undefined,
        code: undefined,
        status: 200,
        ok: true,
        url: `${origin}/client/after`,
      })
      expect(page.url()).toBe(`${origin}/client/home`)
      const session = await page.evaluate(() => window.gatehouse.getSession())
      expect(session).toMatchObject({ user: { name: "Alice", email: "alice@example.com" }, version: 1 })
      expect(Date.parse(session!.expires)).toBeGreaterThan(Date.now())
      const cookie = (await context.cookies()).find((c) => c.name === "authjs.session-token")
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" })
      expect(h.server.state.requests).toContain("POST /api/auth/callback/credentials")
    })

    it("a wrong password answers { ok: false, error: CredentialsSignin, code: credentials, url: null }", async () => {
      const page = await open()
      expect(await signInQuietly(page, "alice", "guess")).toEqual({
        error: "CredentialsSignin",
        code: "credentials",
        status: 200,
        ok: false,
        url: null,
      })
      expect(await page.evaluate(() => window.gatehouse.getSession())).toBeNull()
    })

    it("the code of a CredentialsSignin subclass thrown by authorize reaches the client", async () => {
      const page = await open()
      expect(await signInQuietly(page, "locked", "x")).toEqual({
        error: "CredentialsSignin",
        code: "locked",
        status: 200,
        ok: false,
        url: null,
      })
    })

    it("signIn with redirect navigates to redirectTo, signed in", async () => {
      const page = await open()
      const landed = page.waitForURL(`${origin}/client/landing`)
      await page.evaluate(() => {
        void window.gatehouse.signIn("credentials", {
          username: "bob",
          password: "builder",
          redirectTo: "/client/landing",
        })
      })
      await landed
      await page.waitForFunction(() => document.body.dataset.ready === "1")
      expect(await page.evaluate(() => window.gatehouse.getSession())).toMatchObject({ user: { name: "Bob" } })
    })

    it("a refused signIn with redirect lands on the sign-in page with error, code and the callbackUrl; the retry there lands where the first try was going", async () => {
      const page = await open()
      const landed = page.waitForURL(
        `${origin}/api/auth/signin?error=CredentialsSignin&code=credentials&callbackUrl=${encodeURIComponent(`${origin}/client/home`)}`,
      )
      await page.evaluate(() => {
        void window.gatehouse.signIn("credentials", { username: "bob", password: "nope" })
      })
      await landed
      await page.fill("#input-username-for-credentials", "bob")
      await page.fill("#input-password-for-credentials", "builder")
      const back = page.waitForURL(`${origin}/client/home`)
      await page.click("#signin-button-credentials")
      await back
      await page.waitForFunction(() => document.body.dataset.ready === "1")
      expect(await page.evaluate(() => window.gatehouse.getSession())).toMatchObject({ user: { name: "Bob" } })
    })

    it("signIn() without a provider goes to the sign-in page with the current page as callbackUrl", async () => {
      const page = await open("/client/start?x=1")
      const landed = page.waitForURL(
        `${origin}/api/auth/signin?${new URLSearchParams({ callbackUrl: `${origin}/client/start?x=1` })}`,
      )
      await page.evaluate(() => {
        void window.gatehouse.signIn()
      })
      await landed
    })

    it("update(data) posts { csrfToken, data }: the jwt callback gets trigger update and the new session is kept", async () => {
      const page = await open()
      expect(await page.evaluate(() => window.gatehouse.update({ name: "Nobody" }))).toBeNull()
      await signInQuietly(page, "alice", "wonderland")
      h.server.state.jwtCalls.length = 0
      const updated = await page.evaluate(() => window.gatehouse.update({ name: "Alice Liddell" }))
      expect(updated).toMatchObject({ user: { name: "Alice Liddell", email: "alice@example.com" } })
      expect(h.server.state.jwtCalls[0]).toEqual({ trigger: "update", session: { name: "Alice Liddell" } })
      expect(await page.evaluate(() => window.gatehouse.getSession())).toMatchObject({
        user: { name: "Alice Liddell" },
      })
    })

    it("signOut({ redirect: false }) answers { url } and ends the session", async () => {
      const page = await open()
      await signInQuietly(page, "alice", "wonderland")
      expect(
        await page.evaluate(() => window.gatehouse.signOut({ redirect: false, redirectTo: "/client/bye" })),
      ).toEqual({ url: `${origin}/client/bye` })
      expect(await page.evaluate(() => window.gatehouse.getSession())).toBeNull()
      expect((await context.cookies()).find((c) => c.name === "authjs.session-token")).toBeUndefined()
    })

    it("signOut() navigates to the current page by default", async () => {
      const page = await open("/client/account")
      await signInQuietly(page, "alice", "wonderland")
      await page.evaluate(() => {
        window.marker = "before"
        void window.gatehouse.signOut()
      })
      await page.waitForFunction(() => window.marker === undefined && document.body.dataset.ready === "1")
      expect(page.url()).toBe(`${origin}/client/account`)
      expect(await page.evaluate(() => window.gatehouse.getSession())).toBeNull()
    })

    it("configure({ basePath }) sends every call to that path", async () => {
      const page = await open()
      const before = h.server.state.requests.length
      const result = await page.evaluate(async () => {
        window.gatehouse.configure({ basePath: "/auth/" })
        return window.gatehouse.signIn("credentials", { username: "bob", password: "builder", redirect: false })
      })
      expect(result).toMatchObject({ ok: true, url: `${origin}/client/home` })
      expect(await page.evaluate(() => window.gatehouse.getSession())).toMatchObject({ user: { name: "Bob" } })
      const paths = h.server.state.requests.slice(before).map((line) => line.split(" ")[1]?.split("?")[0])
      // No SessionProvider on this page, so nothing refetches after the sign-in: the last request is our getSession.
      expect(paths).toEqual(["/auth/providers", "/auth/csrf", "/auth/callback/credentials", "/auth/session"])
      await expect(page.evaluate(() => window.gatehouse.configure({ basePath: "api/auth" }))).rejects.toThrow(
        /must be a path on this origin starting with a single "\/".*it does not start with "\/"/,
      )
    })

    describe("attacks on where the client sends the page and its requests", () => {
      let elsewhere: OtherOrigin
      beforeAll(async () => {
        elsewhere = await startOtherOrigin()
      })
      afterAll(async () => {
        await elsewhere?.stop()
      })
      beforeEach(() => {
        elsewhere.requests.length = 0
      })
      afterEach(async () => {
        // Chromium logs every refused POST (413) as a console error; here that refusal is the point.
        await new Promise((resolve) => setTimeout(resolve, 100))
        const unexpected = errors.filter((e) => !e.includes("status of 413"))
        errors.length = 0
        errors.push(...unexpected)
      })

      /** Pushes a redirect target past the server's 64 KiB form limit: the POST is answered 413, with no `url`. */
      const PAD = "x".repeat(70_000)
      /**
       * What an attacker's `?callbackUrl=` would carry: a script that leaves a trace (a cookie) if it ever runs, padded in
       * its trailing comment. (With a `#` before the padding, the old client's reload for hash URLs happened to cancel
       * the script in Chromium; the padding without one runs it.)
       */
      const SCRIPT_TARGET = `javascript:void(document.cookie="pwned=1;path=/")//${PAD}`
      const SCRIPT_TARGET_HASH = `javascript:void(document.cookie="pwned=1;path=/")//#${PAD}`

      /**
       * Calls signIn (credentials, right password) or signOut with `redirectTo: target` without awaiting it, checks
       * that the server refused the POST with 413, and gives a navigation, if the client started one, time to happen.
       */
      async function attackWith(page: Page, call: "signIn" | "signOut", target: string): Promise<void> {
        const refused = page.waitForResponse(
          (res) =>
            res.request().method() === "POST" &&
            /\/api\/auth\/(callback\/credentials|signout)$/.test(new URL(res.url()).pathname),
        )
        await page.evaluate(
          ([which, redirectTo]) => {
            window.marker = "kept"
            if (which === "signIn")
              void window.gatehouse.signIn("credentials", { username: "alice", password: "wonderland", redirectTo })
            else void window.gatehouse.signOut({ redirectTo })
          },
          [call, target] as const,
        )
        expect((await refused).status()).toBe(413)
        await page.waitForTimeout(600)
      }

      /** The page is the one the attack started on, not reloaded, and the planted script never ran. */
      async function expectStayed(page: Page, url: string): Promise<void> {
        expect((await context.cookies()).map((c) => c.name)).not.toContain("pwned")
        expect(elsewhere.requests.map((r) => r.line.slice(0, 80))).toEqual([])
        expect(page.url().slice(0, 120)).toBe(url)
        expect(await page.evaluate(() => window.marker)).toBe("kept")
      }

      /** The client logged why it stayed (and Chromium the 413); these console errors are expected here. */
      function expectReported(): void {
        expect(errors.some((e) => e.includes("[gatehouse][client]") && e.includes("same-origin"))).toBe(true)
        errors.length = 0
      }

      it("CL-01: signIn(credentials) with a padded javascript: redirectTo, answered 413 without a url, stays on the page and runs no script", async () => {
        const page = await open("/client/login")
        for (const target of [SCRIPT_TARGET, SCRIPT_TARGET_HASH]) {
          await attackWith(page, "signIn", target)
          await expectStayed(page, `${origin}/client/login`)
          expectReported()
        }
      })

      it("CL-01: signOut with a padded javascript: redirectTo, answered 413 without a url, stays on the page and runs no script", async () => {
        const page = await open("/client/account")
        await signInQuietly(page, "alice", "wonderland")
        await attackWith(page, "signOut", SCRIPT_TARGET)
        await expectStayed(page, `${origin}/client/account`)
        expectReported()
      })

      it("CL-01: an off-site https redirectTo that the server never answered (413) is not navigated to, by signIn or signOut", async () => {
        const page = await open("/client/login")
        await attackWith(page, "signIn", `${elsewhere.origin}/phish#${PAD}`)
        await expectStayed(page, `${origin}/client/login`)
        expectReported()
        await attackWith(page, "signOut", `${elsewhere.origin}/phish#${PAD}`)
        await expectStayed(page, `${origin}/client/login`)
        expectReported()
      })

      it("CL-01: with redirect: false a refused sign-in or sign-out answers url null, never the unchecked target", async () => {
        const page = await open("/client/login")
        await page.evaluate(() => void (window.marker = "kept"))
        for (const target of [SCRIPT_TARGET, `${elsewhere.origin}/phish#${PAD}`]) {
          // The answers' urls are cut to 80 characters so a failure does not print the 70 KB padding.
          const signedIn = await page.evaluate(async (t) => {
            const answer = await window.gatehouse.signIn("credentials", {
              username: "alice",
              password: "wonderland",
              redirectTo: t,
              redirect: false,
            })
            return { ...answer, url: answer.url?.slice(0, 80) ?? null }
          }, target)
          expect(signedIn).toEqual({ error: "Configuration", code: undefined, status: 413, ok: false, url: null })
          const signedOut = await page.evaluate(async (t) => {
            const answer = await window.gatehouse.signOut({ redirectTo: t, redirect: false })
            return { url: answer.url?.slice(0, 80) ?? null }
          }, target)
          expect(signedOut).toEqual({ url: null })
        }
        await expectStayed(page, `${origin}/client/login`)
        // signOut's null answer is logged too (the caller may not look at it).
        errors.length = 0
      })

      it("a same-origin redirectTo still lands when the server answers 413 (the same-origin fallback)", async () => {
        const page = await open("/client/login")
        const landed = page.waitForURL(
          (url) => url.origin === origin && url.pathname === "/client/landing" && url.hash === `#${PAD}`,
        )
        await page.evaluate(
          (t) =>
            void window.gatehouse.signIn("credentials", { username: "alice", password: "wonderland", redirectTo: t }),
          `/client/landing#${PAD}`,
        )
        await landed
      })

      it("CL-02: configure refuses a basePath on another origin (absolute, //host, /\\host, tab or newline tricks) and no request leaves the origin", async () => {
        const page = await open("/client/home")
        const host = elsewhere.origin.slice("http://".length)
        const hostile = [
          `${elsewhere.origin}/auth`,
          `//${host}/auth`,
          `/\\${host}/auth`,
          `\\\\${host}/auth`,
          `/\t/${host}/auth`,
          `/\n/${host}/auth`,
          ` //${host}/auth`,
          `HTTP://${host}/auth`,
        ]
        const outcomes = await page.evaluate(async (bases) => {
          const thrown: string[] = []
          for (const basePath of bases) {
            try {
              window.gatehouse.configure({ basePath })
              thrown.push(`accepted ${JSON.stringify(basePath)}`)
            } catch (error) {
              thrown.push(String(error))
            }
            // What an app does next: read the session, then sign in with the user's password.
            await window.gatehouse.getSession()
            await window.gatehouse
              .signIn("credentials", { username: "alice", password: "wonderland", redirect: false })
              .catch(() => undefined)
          }
          return { thrown, basePath: window.gatehouse.clientConfig().basePath }
        }, hostile)
        for (const outcome of outcomes.thrown) expect(outcome).toMatch(/basePath must be a path on this origin/)
        expect(outcomes.basePath).toBe("/api/auth")
        expect(elsewhere.requests.filter((r) => r.body.includes("wonderland"))).toEqual([])
        expect(elsewhere.requests).toEqual([])
        errors.length = 0
      })
    })
  },
)
