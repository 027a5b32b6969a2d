// The demo (`npm run demo -- --memory`) in headless Chromium: one full sign-in per provider kind against the demo's
// real parts, each from the home page's "Sign in" link to a session the home page shows, then a sign-out through the
// sign-out page: password (demo / demo), Local OIDC (its login page, in-process oidc-provider), e-mail (the address
// sent, the link followed from the demo's /inbox page), passkey (CDP virtual authenticator: sign up with an e-mail,
// sign out, sign in again). Also: a password user adds a passkey on the home page and signs back in with it. One table
// (KINDS) holds each kind's own steps; the shared run (sign-in link, session check, sign-out, the passkey sign-in
// again, no page errors) is written once. The demo runs as a child process, found by its start-up output; SIGTERM ends
// it with 0.
import { spawn, type ChildProcess } from "node:child_process"
import { freePort } from "../support/listen.js"
import { fileURLToPath } from "node:url"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchChromium, skipReason } from "./support/chromium.js"

const ROOT = fileURLToPath(new URL("../..", import.meta.url))

interface Demo {
  /** http://localhost:<port>, from the "App" line. */
  app: string
  /** The Local OIDC issuer, from its line. */
  issuer: string
  /** The inbox page, from its line. */
  inbox: string
  child: ChildProcess
  output(): string
}

/** The URL on the start-up line that begins with `label`. */
function urlOn(output: string, label: string): string {
  const line = output.split("\n").find((l) => l.trimStart().startsWith(label))
  const url = line?.match(/https?:\/\/[^\s)]+/)?.[0]
  if (!url) throw new Error(`the demo printed no "${label}" URL:\n${output}`)
  return url
}

/**
 * Starts the demo as `npm run demo -- --memory` does (node --import tsx: one process, so SIGTERM reaches the demo
 * itself) on a free port, and waits for its "Ready:" line (45 s at most; a demo that never gets ready is killed).
 */
async function startDemo(): Promise<Demo> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(await freePort()) }
  delete env.AUTH_SECRET
  delete env.AUTH_URL
  const child = spawn(process.execPath, ["--import", "tsx", "demo/server.ts", "--memory"], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  })
  let output = ""
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`the demo did not print "Ready:" within 45 s:\n${output}`))
    }, 45_000)
    const check = () => {
      if (/^Ready: /m.test(output)) {
        clearTimeout(timer)
        resolve()
      }
    }
    child.stdout!.on("data", check)
    child.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`the demo exited (${code}) before it was ready:\n${output}`))
    })
  })
  return {
    app: urlOn(output, "App"),
    issuer: urlOn(output, "Local OIDC"),
    inbox: urlOn(output, "Inbox"),
    child,
    output: () => output,
  }
}

/** Sends SIGTERM to the demo (the process this file started) and answers its exit code. */
function stopDemo(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode)
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      resolve(null)
    }, 10_000)
    child.once("exit", (code) => {
      clearTimeout(timer)
      resolve(code)
    })
    child.kill("SIGTERM")
  })
}

describe.skipIf(skipReason !== undefined)(
  `the demo in Chromium: a full sign-in per provider kind${skipReason ? ` (skipped: ${skipReason})` : ""}`,
  () => {
    let demo: Demo
    let browser: Browser

    beforeAll(async () => {
      ;[demo, browser] = await Promise.all([startDemo(), launchChromium()])
    }, 60_000)

    afterAll(async () => {
      await browser?.close()
      if (demo) expect(await stopDemo(demo.child), `the demo's exit code on SIGTERM; output:\n${demo.output()}`).toBe(0)
    })

    /** A fresh context whose requests may go to the demo and its Local OIDC only; console errors are collected. */
    async function session(): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
      const problems: string[] = []
      const allowed = new Set([new URL(demo.app).origin, new URL(demo.issuer).origin])
      // English pages whatever the machine says (the demo has no `locale`, so Accept-Language picks the language).
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-US" })
      await context.route("**/*", (route) => {
        const url = route.request().url()
        if (allowed.has(new URL(url).origin)) return route.continue()
        problems.push(`off-site request: ${url}`)
        return route.abort()
      })
      await context.addInitScript(() => {
        document.addEventListener("securitypolicyviolation", (event) =>
          console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`),
        )
      })
      const page = await context.newPage()
      page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`))
      page.on("console", (message) => {
        if (message.type() !== "error") return
        // The demo has no favicon; Chromium asks for /favicon.ico after each load and logs its 404.
        if (new URL(message.location().url || "about:blank").pathname === "/favicon.ico") return
        problems.push(`console: ${message.text()} (${message.location().url})`)
      })
      return { context, page, problems }
    }

    const home = () => `${demo.app}/`

    /** From the home page's "Sign in" link to the built-in sign-in page. */
    async function openSignIn(page: Page): Promise<void> {
      await page.goto(home())
      await Promise.all([
        page.waitForURL(/\/auth\/signin/),
        page.getByRole("link", { name: "Sign in", exact: true }).first().click(),
      ])
    }

    /** The session answer and the home page both show the user. */
    async function expectSignedIn(context: BrowserContext, page: Page, email: string): Promise<void> {
      const answer = (await (await context.request.get(`${demo.app}/auth/session`)).json()) as {
        user?: { email?: string }
      } | null
      expect(answer?.user?.email, "GET /auth/session").toBe(email)
      if (page.url() !== home()) await page.goto(home())
      expect(await page.locator("main").innerText(), "the home page shows the user").toContain(email)
    }

    /** The navigation's "Sign out", then the sign-out page's button: no session afterwards. */
    async function signOut(context: BrowserContext, page: Page): Promise<void> {
      await page.goto(home())
      await Promise.all([page.waitForURL(/\/auth\/signout/), page.getByRole("link", { name: "Sign out" }).click()])
      await Promise.all([
        page.waitForURL((url) => !url.pathname.startsWith("/auth/signout")),
        page.getByRole("button", { name: "Sign out" }).click(),
      ])
      expect(
        await (await context.request.get(`${demo.app}/auth/session`)).json(),
        "GET /auth/session after signing out",
      ).toBeNull()
      await page.goto(home())
      expect(
        await page.getByRole("link", { name: "Sign in", exact: true }).count(),
        "the home page offers Sign in again",
      ).toBeGreaterThan(0)
    }

    /** A CDP virtual authenticator (CTAP2, resident keys, user verified) on the page; answers its credentials. */
    async function virtualAuthenticator(context: BrowserContext, page: Page): Promise<() => Promise<unknown[]>> {
      const cdp = await context.newCDPSession(page)
      await cdp.send("WebAuthn.enable")
      const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
        options: {
          protocol: "ctap2",
          transport: "internal",
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
          automaticPresenceSimulation: true,
        },
      })
      return async () =>
        ((await cdp.send("WebAuthn.getCredentials", { authenticatorId })) as { credentials: unknown[] }).credentials
    }

    /** demo / demo in the password form (the page's main form, its fields empty: no placeholders), to the home page. */
    async function passwordSignIn(page: Page): Promise<void> {
      const username = page.getByLabel("Username", { exact: true })
      const password = page.getByLabel("Password", { exact: true })
      expect(await username.getAttribute("placeholder"), "no placeholder that looks filled in").toBeNull()
      expect(await password.getAttribute("placeholder"), "no placeholder that looks filled in").toBeNull()
      await username.fill("demo")
      await password.fill("demo")
      await Promise.all([page.waitForURL(home()), password.press("Enter")])
    }

    /** A provider kind: the steps from the sign-in page to the home page with a session for `email`. */
    interface Kind {
      title: string
      /** The e-mail the session shows (made per run for the kinds that sign up). */
      email: () => string
      steps(page: Page, email: string): Promise<void>
      /** A virtual authenticator on the page; after the steps it holds one passkey, and after the first sign-out the
       *  user signs in again with it (the page's passkey autofill may answer at once; otherwise the button, no e-mail typed). */
      passkey?: boolean
    }

    const KINDS: Kind[] = [
      {
        title: "password: demo / demo on the sign-in page → session on the home page → sign-out",
        email: () => "demo@example.com",
        steps: passwordSignIn,
      },
      {
        title: "Local OIDC: the button → the provider's login page (alice / alice) → back with a session → sign-out",
        email: () => "alice@example.com",
        async steps(page) {
          await Promise.all([
            page.waitForURL((url) => url.origin === new URL(demo.issuer).origin),
            page.getByRole("button", { name: /Local OIDC/ }).click(),
          ])
          // The provider's own login page, filled in with the demo account.
          expect(await page.getByLabel("Username").inputValue()).toBe("alice")
          expect(await page.getByLabel("Password").inputValue()).toBe("alice")
          await Promise.all([
            page.waitForURL(home(), { timeout: 10_000 }),
            page.getByRole("button", { name: "Sign in", exact: true }).click(),
          ])
        },
      },
      {
        title: "e-mail: the address sent → the demo's inbox → the link clicked → session → sign-out",
        email: () => `reader-${Date.now()}@example.com`,
        async steps(page, address) {
          // E-mail is a further method: its form opens under its own "Sign in with Email".
          const method = page.locator("details", { has: page.locator("summary", { hasText: "Sign in with Email" }) })
          await method.locator("summary").click()
          await method.getByRole("textbox").fill(address)
          // The demo's verify-request page is its inbox.
          await Promise.all([
            page.waitForURL((url) => url.pathname === new URL(demo.inbox).pathname),
            method.getByRole("button", { name: "Continue" }).click(),
          ])
          const mail = page.locator("article", { hasText: address }).first()
          const link = mail.locator('a[href*="/auth/callback/"]').first()
          expect(
            await link.count(),
            `no sign-in link for ${address} in the inbox:\n${await page.locator("main").innerText()}`,
          ).toBe(1)
          await Promise.all([page.waitForURL(home()), link.click()])
        },
      },
      {
        title:
          "passkey: sign up with an e-mail on the sign-in page → session → sign-out → sign in again with the passkey → sign-out",
        email: () => `passkey-${Date.now()}@example.com`,
        passkey: true,
        async steps(page, address) {
          // The e-mail is asked for only to create a passkey.
          await page.locator("summary", { hasText: "Create a passkey" }).click()
          await page.getByLabel("Email for your passkey").fill(address)
          await Promise.all([page.waitForURL(home()), page.getByRole("button", { name: "Create a passkey" }).click()])
        },
      },
      {
        title:
          "a signed-in password user adds a passkey on the home page, signs out, and signs back in with it as the same user",
        email: () => "demo@example.com",
        passkey: true,
        async steps(page) {
          await passwordSignIn(page)
          // "Add a passkey" registers through gatehouse/webauthn and reloads the page.
          await Promise.all([
            page.waitForEvent("load", { timeout: 10_000 }),
            page.getByRole("button", { name: "Add a passkey" }).click(),
          ])
        },
      },
    ]

    // Per kind: from the home page's "Sign in" link through the kind's steps to a session the home page shows, then the
    // sign-out page; the passkey kinds sign in once more with the passkey and out again. No page or console error, no
    // off-site request.
    for (const kind of KINDS) {
      it(kind.title, async () => {
        const { context, page, problems } = await session()
        const email = kind.email()
        try {
          const credentials = kind.passkey ? await virtualAuthenticator(context, page) : undefined
          await openSignIn(page)
          await kind.steps(page, email)
          if (credentials) expect(await credentials(), "one passkey on the authenticator").toHaveLength(1)
          await expectSignedIn(context, page, email)
          await signOut(context, page)
          if (kind.passkey) {
            await openSignIn(page)
            const landed = await page.waitForURL(home(), { timeout: 2_000 }).then(
              () => true,
              () => false,
            )
            if (!landed)
              await Promise.all([
                page.waitForURL(home()),
                page.getByRole("button", { name: "Sign in with a passkey" }).click(),
              ])
            await expectSignedIn(context, page, email)
            await signOut(context, page)
          }
          expect(problems).toEqual([])
        } finally {
          await context.close()
        }
      })
    }
  },
)
