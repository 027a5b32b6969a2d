// Passkeys end to end in headless Chromium with a CDP virtual authenticator (ctap2, internal, resident keys, UV):
// sign-up and sign-in through the built-in sign-in page (button and autofill) and through gatehouse/client, sign-out,
// and the refusals: a replayed assertion, a counter that goes back, a response signed for another origin, a
// credential the server never registered. JWT sessions on the memory adapter, database sessions on the postgres
// adapter (PGlite). The app is reached as http://localhost:<port> (a secure context; rpId "localhost").
import { generateKeyPairSync, randomBytes, randomUUID } from "node:crypto"
import { request as httpRequest } from "node:http"
import type { Browser, BrowserContext, CDPSession, Page, Request } from "playwright-core"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
import Passkey from "../../src/providers/passkey.js"
import { launchChromium, skipReason } from "./support/chromium.js"
import { memoryPasskeyBackend, passkeyAppConfig, pglitePasskeyBackend, startPasskeyApp } from "./support/passkey-app.js"
import type { LoggedError, PasskeyApp, PasskeyBackend } from "./support/passkey-app.js"
import { bundlePages } from "./support/server.js"
import "./support/page-globals.js"

const SESSION_COOKIE = "authjs.session-token"
const REFUSED = "error=WebAuthnVerificationError"

/** A virtual credential as WebAuthn.getCredentials answers it (binary fields in standard base64). */
interface VirtualCredential {
  credentialId: string
  isResidentCredential: boolean
  rpId?: string
  privateKey: string
  userHandle?: string
  signCount: number
  userName?: string
  backupEligibility?: boolean
  backupState?: boolean
}

/** One POST /auth/callback/passkey as the browser sent it, with the browser's cookies for the app at that moment. */
interface Captured {
  body: string
  headers: Record<string, string>
  cookie: string
}

/** A page with its own virtual authenticator. */
interface Device {
  page: Page
  cdp: CDPSession
  authenticatorId: string
  credentials(): Promise<VirtualCredential[]>
}

interface RawAnswer {
  status: number
  location: string | undefined
  setCookies: string[]
  body: string
}

/** POSTs to the app over node:http (127.0.0.1, Host localhost:<port>), exactly the given headers: no cookie jar. */
function rawPost(app: PasskeyApp, path: string, headers: Record<string, string>, body: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port: app.port,
        method: "POST",
        path,
        headers: { ...headers, host: `localhost:${app.port}`, "content-length": String(Buffer.byteLength(body)) },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on("data", (c: Buffer) => chunks.push(c))
        res.on("end", () => {
          const setCookie = res.headers["set-cookie"] ?? []
          resolve({
            status: res.statusCode ?? 0,
            location: res.headers.location,
            setCookies: setCookie,
            body: Buffer.concat(chunks).toString("utf8"),
          })
        })
      },
    )
    req.on("error", reject)
    req.end(body)
  })
}

/** Where a callback answer sends the browser: the Location, or the `{ url }` of an X-Auth-Return-Redirect answer. */
function answerUrl(answer: RawAnswer): string {
  if (answer.location) return answer.location
  try {
    return String((JSON.parse(answer.body) as { url?: unknown }).url ?? "")
  } catch {
    return ""
  }
}

const setsSession = (answer: RawAnswer) =>
  answer.setCookies.some((c) => c.startsWith(`${SESSION_COOKIE}=`) && !/^[^=]+=;/.test(c))

/** A fresh ES256 resident key for rpId localhost that no server ever saw. */
function strangerCredential(userHandle: string): VirtualCredential {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" })
  return {
    credentialId: randomBytes(32).toString("base64"),
    isResidentCredential: true,
    rpId: "localhost",
    privateKey: privateKey.export({ format: "der", type: "pkcs8" }).toString("base64"),
    userHandle: Buffer.from(userHandle, "utf8").toString("base64"),
    signCount: 0,
  }
}

const BACKENDS = [
  { strategy: "jwt" as const, make: async (): Promise<PasskeyBackend> => memoryPasskeyBackend() },
  { strategy: "database" as const, make: pglitePasskeyBackend },
]

describe.skipIf(skipReason !== undefined)(
  `passkeys in Chromium with a virtual authenticator${skipReason ? ` (skipped: ${skipReason})` : ""}`,
  () => {
    let browser: Browser
    let bundles: Map<string, string>

    beforeAll(async () => {
      bundles = await bundlePages(["client-page.ts"])
      browser = await launchChromium()
    })
    afterAll(async () => {
      await browser?.close()
    })

    describe.each(BACKENDS)("$strategy sessions", ({ strategy, make }) => {
      let backend: PasskeyBackend
      let app: PasskeyApp
      /** The same adapter and secret on another localhost port, its RP origin pinned to `app`'s origin. */
      let pinned: PasskeyApp
      let serverErrors: LoggedError[]
      let pinnedErrors: LoggedError[]
      let context: BrowserContext
      /** Console errors, page errors and CSP violations of every page in the test. */
      let pageErrors: string[]
      /** Requests the guard stopped: anything not for the two apps. */
      let offsite: string[]
      let captured: Captured[]
      /** Each navigator.credentials call of the pages: `create` or `get:<mediation>`. */
      let ceremonies: string[]
      let counter = 0
      const email = () => `user-${strategy}-${++counter}@example.com`
      const callbackUrl = () => `${app.origin}/client/account`
      const signInPage = () => `${app.origin}/auth/signin?${new URLSearchParams({ callbackUrl: callbackUrl() })}`

      // A fresh PGlite (WASM) and two app servers: seconds alone, more than the default 30 s hook timeout when the
      // suite's parallel files load both cores (seen once in CI).
      beforeAll(async () => {
        backend = await make()
        serverErrors = []
        pinnedErrors = []
        app = await startPasskeyApp(passkeyAppConfig(backend.adapter, strategy, serverErrors), bundles, serverErrors)
        pinned = await startPasskeyApp(
          passkeyAppConfig(backend.adapter, strategy, pinnedErrors, {
            providers: [Passkey({ relayingParty: { origin: app.origin } })],
          }),
          bundles,
          pinnedErrors,
        )
      }, 120_000)
      afterAll(async () => {
        await app?.stop()
        await pinned?.stop()
        await backend?.close()
      })

      beforeEach(async () => {
        await backend.reset()
        serverErrors.length = 0
        pinnedErrors.length = 0
        pageErrors = []
        offsite = []
        captured = []
        ceremonies = []
        context = await browser.newContext()
        const allowed = new Set([new URL(app.origin).host, new URL(pinned.origin).host])
        await context.route("**/*", async (route, request: Request) => {
          const url = new URL(request.url())
          if (url.hostname !== "localhost" || !allowed.has(url.host)) {
            offsite.push(request.url())
            return route.abort()
          }
          if (request.method() === "POST" && url.pathname === "/auth/callback/passkey") {
            const cookies = await context.cookies(url.origin)
            captured.push({
              body: request.postData() ?? "",
              headers: await request.allHeaders(),
              cookie: cookies.map((c) => `${c.name}=${c.value}`).join("; "),
            })
          }
          return route.continue()
        })
        await context.exposeBinding("__ceremony", (_source, what: string) => void ceremonies.push(what))
        await context.addInitScript(() => {
          document.addEventListener("securitypolicyviolation", (event) =>
            console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`),
          )
          const credentials = navigator.credentials as CredentialsContainer | undefined
          if (!credentials) return
          const record = (window as unknown as { __ceremony(what: string): Promise<void> }).__ceremony
          const get = credentials.get.bind(credentials)
          const create = credentials.create.bind(credentials)
          credentials.get = (options?: CredentialRequestOptions) => (
            void record(`get:${options?.mediation ?? "optional"}`), get(options)
          )
          credentials.create = (options?: CredentialCreationOptions) => (void record("create"), create(options))
        })
      })

      afterEach(async () => {
        await context.close()
        expect(pageErrors).toEqual([])
        expect(offsite).toEqual([])
      })

      /** A new page in the test's context with its own virtual authenticator (UV on, presence automatic). */
      async function device(): Promise<Device> {
        const page = await context.newPage()
        page.on("pageerror", (error) => pageErrors.push(`pageerror: ${error.message}`))
        page.on("console", (message) => {
          if (message.type() === "error") pageErrors.push(`console: ${message.text()}`)
        })
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
        return {
          page,
          cdp,
          authenticatorId,
          credentials: async () =>
            ((await cdp.send("WebAuthn.getCredentials", { authenticatorId })) as { credentials: VirtualCredential[] })
              .credentials,
        }
      }

      const session = async (origin = app.origin): Promise<{ user?: { email?: string } } | null> =>
        (await (await context.request.get(`${origin}/auth/session`)).json()) as { user?: { email?: string } } | null
      const sessionCookie = async () => (await context.cookies(app.origin)).find((c) => c.name === SESSION_COOKIE)

      async function openClient(d: Device, origin = app.origin): Promise<void> {
        await d.page.goto(`${origin}/client/home`)
        await d.page.waitForFunction(() => document.body.dataset.ready === "1")
        await d.page.evaluate(() => window.gatehouse.configure({ basePath: "/auth" }))
      }

      /** The passkey form's data-state reaches `state` (the page script ran). */
      const formState = (d: Device, state: string) =>
        d.page.waitForFunction((s) => document.getElementById("passkey-form")?.dataset.state === s, state, {
          timeout: 5_000,
        })

      /** Signs up `address` on the built-in sign-in page: open "Create a passkey", type the e-mail, click its button → the callbackUrl. */
      async function registerOnPage(d: Device, address: string): Promise<void> {
        await d.page.goto(signInPage())
        // No credential yet: the page's autofill request ends at once in the virtual environment, the form goes idle.
        await formState(d, "idle")
        await d.page.click("details.create > summary")
        await d.page.fill("#input-email-for-passkey", address)
        await d.page.click("#passkey-register-button")
        await d.page.waitForURL(callbackUrl())
      }

      /** Signs in through gatehouse/client without navigating; answers its SignInResponse. */
      const clientSignIn = (d: Device) => d.page.evaluate(() => window.gatehouse.signIn("passkey", { redirect: false }))

      async function expectSignedIn(address: string): Promise<void> {
        expect((await session())?.user?.email).toBe(address)
        expect(await sessionCookie()).toBeDefined()
        if (strategy === "database") expect((await backend.rows()).sessions).toBeGreaterThanOrEqual(1)
      }

      async function expectOneUser(address: string): Promise<void> {
        expect(await backend.rows()).toMatchObject({ users: 1, accounts: 1, webauthnAccounts: 1, authenticators: 1 })
        expect(await backend.emails()).toEqual([address])
      }

      const refusedOnServer = (errors: LoggedError[]) => errors.filter((e) => e.name === "WebAuthnVerificationError")

      it("1. signs up on the built-in page ('Create a passkey': e-mail + its button): callbackUrl, session, 1 user, 1 webauthn account, 1 authenticator", async () => {
        const d = await device()
        const address = email()
        await registerOnPage(d, address)
        await expectSignedIn(address)
        await expectOneUser(address)
        const [credential] = await d.credentials()
        expect(credential).toMatchObject({ isResidentCredential: true, rpId: "localhost", userName: address })
        expect([...(await backend.counters()).entries()]).toEqual([[credential!.credentialId, credential!.signCount]])
        expect(ceremonies).toEqual(["get:conditional", "create"])
        expect(serverErrors).toEqual([])
      })

      it("1. signs up through gatehouse/client signIn('passkey', { action: 'register', email }): callbackUrl, session, 1 user", async () => {
        const d = await device()
        const address = email()
        await openClient(d)
        const landed = d.page.waitForURL(callbackUrl())
        await d.page.evaluate(
          ([e, to]) => void window.gatehouse.signIn("passkey", { action: "register", email: e, redirectTo: to }),
          [address, callbackUrl()] as const,
        )
        await landed
        await expectSignedIn(address)
        await expectOneUser(address)
        expect(ceremonies).toEqual(["create"])
      })

      it("2. signs out on the sign-out page, then signs in with the passkey button (no e-mail): same user", async () => {
        const d = await device()
        const address = email()
        await registerOnPage(d, address)
        await d.page.goto(
          `${app.origin}/auth/signout?${new URLSearchParams({ callbackUrl: `${app.origin}/client/bye` })}`,
        )
        await Promise.all([d.page.waitForURL(`${app.origin}/client/bye`), d.page.click("#submitButton")])
        expect(await session()).toBeNull()
        expect(await sessionCookie()).toBeUndefined()
        if (strategy === "database") expect((await backend.rows()).sessions).toBe(0)
        // The page arms an autofill request on load, which the virtual authenticator would answer at once; without the
        // credential it ends, the form goes idle, and the credential comes back for the button.
        const [credential] = await d.credentials()
        await d.cdp.send("WebAuthn.removeCredential", {
          authenticatorId: d.authenticatorId,
          credentialId: credential!.credentialId,
        })
        ceremonies.length = 0
        await d.page.goto(signInPage())
        await formState(d, "idle")
        await d.cdp.send("WebAuthn.addCredential", { authenticatorId: d.authenticatorId, credential: credential! })
        await d.page.click("#passkey-signin")
        await d.page.waitForURL(callbackUrl())
        expect(ceremonies).toEqual(["get:conditional", "get:optional"])
        await expectSignedIn(address)
        await expectOneUser(address)
        expect([...(await backend.counters()).values()]).toEqual([credential!.signCount + 1])
      })

      it("2. signs out with gatehouse/client signOut, then signIn('passkey') answers the resident key: same user", async () => {
        const d = await device()
        const address = email()
        await registerOnPage(d, address)
        await openClient(d)
        expect(await d.page.evaluate(() => window.gatehouse.signOut({ redirect: false }))).toMatchObject({
          url: expect.any(String),
        })
        expect(await session()).toBeNull()
        const result = await clientSignIn(d)
        expect(result).toMatchObject({ ok: true, error: undefined, url: callbackUrl().replace("/account", "/home") })
        expect(await d.page.evaluate(() => window.gatehouse.getSession())).toMatchObject({ user: { email: address } })
        await expectSignedIn(address)
        await expectOneUser(address)
      })

      it("3. a captured assertion replayed with its cookies is refused, before and after the passkey is used again", async () => {
        const d = await device()
        const address = email()
        await registerOnPage(d, address)
        await context.clearCookies()
        captured.length = 0
        // The sign-in page's autofill: the virtual authenticator answers the conditional request at once.
        await d.page.goto(signInPage())
        await d.page.waitForURL(callbackUrl())
        await expectSignedIn(address)
        expect(captured).toHaveLength(1)
        const first = captured[0]!
        expect(new URLSearchParams(first.body).get("action")).toBe("authenticate")
        expect(first.cookie).toContain("authjs.challenge=")
        expect(first.cookie).toContain("authjs.csrf-token=")
        const counterAfterFirst = [...(await backend.counters()).values()][0]!
        const sessionsBefore = (await backend.rows()).sessions

        const replay = (c: Captured, cookie = c.cookie) => {
          const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", cookie }
          for (const name of ["origin", "x-auth-return-redirect", "user-agent"])
            if (c.headers[name]) headers[name] = c.headers[name]!
          return rawPost(app, "/auth/callback/passkey", headers, c.body)
        }
        const expectRefused = (answer: RawAnswer) => {
          expect(answerUrl(answer)).toContain(REFUSED)
          expect(setsSession(answer)).toBe(false)
        }

        serverErrors.length = 0
        expectRefused(await replay(first))
        expect(refusedOnServer(serverErrors).map((e) => e.message)).toEqual([expect.stringMatching(/already used/)])
        // With a fresh challenge cookie (options fetched by the attacker) the signed challenge no longer matches.
        const options = await context.request.get(`${app.origin}/auth/webauthn-options/passkey?action=authenticate`)
        const freshChallenge = (await context.cookies(app.origin)).find((c) => c.name === "authjs.challenge")!
        expect(options.ok()).toBe(true)
        expectRefused(
          await replay(
            first,
            first.cookie.replace(/authjs\.challenge=[^;]*/, `authjs.challenge=${freshChallenge.value}`),
          ),
        )

        // The passkey is used again (counter moves on), then both captured assertions are replayed.
        await context.clearCookies()
        await d.page.goto(signInPage())
        await d.page.waitForURL(callbackUrl())
        await expectSignedIn(address)
        expect(captured).toHaveLength(2)
        const counterAfterSecond = [...(await backend.counters()).values()][0]!
        expect(counterAfterSecond).toBe(counterAfterFirst + 1)
        expect(counterAfterSecond).toBe((await d.credentials())[0]!.signCount)
        serverErrors.length = 0
        expectRefused(await replay(first))
        expectRefused(await replay(captured[1]!))
        expect(refusedOnServer(serverErrors)).toHaveLength(2)
        expect([...(await backend.counters()).values()]).toEqual([counterAfterSecond])
        if (strategy === "database") expect((await backend.rows()).sessions).toBe(sessionsBefore + 1)
      })

      it("3. an assertion held back from the server and posted three times at once signs in exactly once", async () => {
        const d = await device()
        const address = email()
        await registerOnPage(d, address)
        await openClient(d)
        await d.page.evaluate(() => window.gatehouse.signOut({ redirect: false }))
        const counterBefore = [...(await backend.counters()).values()][0]!
        const sessionsBefore = (await backend.rows()).sessions
        // The callback never reaches the server: the page gets a made-up answer, the test keeps the request.
        let held: Captured | undefined
        await context.route(`${app.origin}/auth/callback/passkey`, async (route) => {
          const cookies = await context.cookies(app.origin)
          held = {
            body: route.request().postData() ?? "",
            headers: await route.request().allHeaders(),
            cookie: cookies.map((c) => `${c.name}=${c.value}`).join("; "),
          }
          await route.fulfill({
            status: 200,
            contentType: "application/json",
            body: JSON.stringify({ url: `${app.origin}/client/held` }),
          })
        })
        expect(await clientSignIn(d)).toMatchObject({ ok: true, url: `${app.origin}/client/held` })
        expect(held).toBeDefined()
        const headers = {
          "content-type": "application/x-www-form-urlencoded",
          cookie: held!.cookie,
          origin: app.origin,
        }
        const answers = await Promise.all(
          [0, 1, 2].map(() => rawPost(app, "/auth/callback/passkey", headers, held!.body)),
        )
        const won = answers.filter(setsSession)
        expect(won).toHaveLength(1)
        expect(answerUrl(won[0]!)).toBe(`${app.origin}/client/home`)
        for (const lost of answers.filter((a) => !setsSession(a))) expect(answerUrl(lost)).toContain(REFUSED)
        expect([...(await backend.counters()).values()]).toEqual([counterBefore + 1])
        if (strategy === "database") expect((await backend.rows()).sessions).toBe(sessionsBefore + 1)
      })

      it("4. a counter that goes back (credential re-added with a lower or equal signCount) is refused, the stored counter kept", async () => {
        const d = await device()
        const address = email()
        await registerOnPage(d, address)
        await openClient(d)
        await d.page.evaluate(() => window.gatehouse.signOut({ redirect: false }))
        expect(await clientSignIn(d)).toMatchObject({ ok: true })
        const [credential] = await d.credentials()
        const stored = [...(await backend.counters()).values()][0]!
        expect(stored).toBe(credential!.signCount)
        expect(stored).toBeGreaterThan(1)
        await d.page.evaluate(() => window.gatehouse.signOut({ redirect: false }))
        // The authenticator signs signCount + 1: an equal counter (stored - 1), then a lower one (0).
        for (const signCount of [stored - 1, 0]) {
          await d.cdp.send("WebAuthn.removeCredential", {
            authenticatorId: d.authenticatorId,
            credentialId: credential!.credentialId,
          })
          await d.cdp.send("WebAuthn.addCredential", {
            authenticatorId: d.authenticatorId,
            credential: { ...credential!, signCount },
          })
          serverErrors.length = 0
          expect(await clientSignIn(d)).toMatchObject({ ok: false, error: "WebAuthnVerificationError", url: null })
          expect((await d.credentials())[0]!.signCount).toBe(signCount + 1)
          // @simplewebauthn/server refuses it first ("Response counter value 2 was lower than expected 2"); Gatehouse's own
          // check ("counter 2 is not above 2") stands behind it.
          expect(refusedOnServer(serverErrors).map((e) => e.cause)).toEqual([
            expect.stringMatching(new RegExp(`counter.*${signCount + 1}.*${stored}`)),
          ])
          expect(await session()).toBeNull()
          expect(await sessionCookie()).toBeUndefined()
          expect([...(await backend.counters()).values()]).toEqual([stored])
        }
        // Put back past the stored counter, the same key signs in again: the refusals were the counter's.
        await d.cdp.send("WebAuthn.removeCredential", {
          authenticatorId: d.authenticatorId,
          credentialId: credential!.credentialId,
        })
        await d.cdp.send("WebAuthn.addCredential", {
          authenticatorId: d.authenticatorId,
          credential: { ...credential!, signCount: stored },
        })
        expect(await clientSignIn(d)).toMatchObject({ ok: true })
        await expectSignedIn(address)
        expect([...(await backend.counters()).values()]).toEqual([stored + 1])
      })

      it("5. a response signed for another origin (same rpId, another localhost port) is refused for its origin", async () => {
        const d = await device()
        const address = email()
        await registerOnPage(d, address)
        await context.clearCookies()
        const counterBefore = [...(await backend.counters()).values()][0]!
        // The pinned server: same adapter and secret, relayingParty.origin = the first app's origin. The browser is on
        // http://localhost:<port2>, rpId "localhost" matches, so it signs; clientDataJSON names port2.
        await openClient(d, pinned.origin)
        expect(await clientSignIn(d)).toMatchObject({ ok: false, error: "WebAuthnVerificationError", url: null })
        expect(ceremonies.at(-1)).toBe("get:optional")
        const refusals = refusedOnServer(pinnedErrors)
        expect(refusals).toHaveLength(1)
        expect(refusals[0]!.cause).toMatch(/origin/i)
        expect(refusals[0]!.cause).toContain(pinned.origin)
        expect(await session(pinned.origin)).toBeNull()
        expect((await context.cookies(pinned.origin)).find((c) => c.name === SESSION_COOKIE)).toBeUndefined()
        expect([...(await backend.counters()).values()]).toEqual([counterBefore])
        // The same passkey on its own origin still signs in.
        await openClient(d)
        expect(await clientSignIn(d)).toMatchObject({ ok: true })
        await expectSignedIn(address)
      })

      it("6. a resident key the server never registered is refused (gatehouse/client and the built-in page), no session", async () => {
        const owner = await device()
        const address = email()
        await registerOnPage(owner, address)
        await context.clearCookies()
        const ownerHandle = Buffer.from((await owner.credentials())[0]!.userHandle!, "base64").toString("utf8")
        expect(ownerHandle).toMatch(/^gh1\./)
        const d = await device()
        // One with a random handle, one claiming the registered user's handle: the same refusal.
        for (const handle of [`gh1.${randomUUID()}`, ownerHandle]) {
          const stranger = strangerCredential(handle)
          await d.cdp.send("WebAuthn.addCredential", { authenticatorId: d.authenticatorId, credential: stranger })
          await openClient(d)
          serverErrors.length = 0
          expect(await clientSignIn(d)).toMatchObject({ ok: false, error: "WebAuthnVerificationError", url: null })
          expect(refusedOnServer(serverErrors).map((e) => e.cause)).toEqual(["unknown credential id"])
          expect(await session()).toBeNull()
          expect(await sessionCookie()).toBeUndefined()
          await d.cdp.send("WebAuthn.removeCredential", {
            authenticatorId: d.authenticatorId,
            credentialId: stranger.credentialId,
          })
        }
        // Through the built-in page's button: like Auth.js, a refused passkey ends on the error page (no script there).
        const stranger = strangerCredential(`gh1.${randomUUID()}`)
        await d.page.goto(signInPage())
        await formState(d, "idle")
        await d.cdp.send("WebAuthn.addCredential", { authenticatorId: d.authenticatorId, credential: stranger })
        serverErrors.length = 0
        await d.page.click("#passkey-signin")
        await d.page.waitForURL(`${app.origin}/auth/error?${REFUSED}`)
        // The error page names what failed (the passkey) and offers the sign-in page again.
        expect(await d.page.locator("main, body").first().textContent()).toMatch(/passkey/i)
        expect(await d.page.locator(`a[href="${app.origin}/auth/signin"]`).count()).toBe(1)
        expect(refusedOnServer(serverErrors)).toHaveLength(1)
        expect(await session()).toBeNull()
        expect(await sessionCookie()).toBeUndefined()
        expect(await backend.rows()).toMatchObject({ users: 1, authenticators: 1 })
      })

      it("7. the sign-in page: one passkey button (no e-mail asked), the e-mail only under 'Create a passkey' with autocomplete 'username webauthn', CSP by hash with no violation, a conditional request that signs in", async () => {
        const d = await device()
        const response = await d.page.goto(signInPage())
        const csp = response!.headers()["content-security-policy"]
        // The form script and the passkey script, each by its hash.
        expect(csp).toMatch(/; script-src 'sha256-[A-Za-z0-9+/]+=*' 'sha256-[A-Za-z0-9+/]+=*'; /)
        expect(await d.page.locator("#passkey-form input:not([type=hidden])").count()).toBe(0)
        expect(await d.page.locator("#input-email-for-passkey").isVisible()).toBe(false)
        expect(csp).toContain("connect-src 'self'")
        expect(csp).toContain("frame-ancestors 'none'")
        expect(await d.page.getAttribute("#input-email-for-passkey", "autocomplete")).toBe("username webauthn")
        // Without a credential the autofill request is made and ends (virtual environment): the script ran under the CSP.
        await formState(d, "idle")
        expect(ceremonies).toEqual(["get:conditional"])
        expect(app.requests.filter((r) => r.startsWith("GET /auth/webauthn-options/passkey")).at(-1)).toBe(
          "GET /auth/webauthn-options/passkey?action=authenticate",
        )
        const address = email()
        await d.page.click("details.create > summary")
        await d.page.fill("#input-email-for-passkey", address)
        await d.page.click("#passkey-register-button")
        await d.page.waitForURL(callbackUrl())
        await context.clearCookies()
        ceremonies.length = 0
        // With the passkey saved, the autofill request alone signs in: no click, no typing.
        await d.page.goto(signInPage())
        await d.page.waitForURL(callbackUrl())
        expect(ceremonies).toEqual(["get:conditional"])
        await expectSignedIn(address)
        await expectOneUser(address)
      })
    })
  },
)
