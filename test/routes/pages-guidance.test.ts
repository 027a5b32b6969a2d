// The pages guide the user through what just happened: the app's name in title and heading (theme.brandName), the
// identifier kept after a failed sign-in (a sealed cookie, never the URL, never a password), a Cancel at the provider
// told apart from a signIn callback's refusal, and a used sign-in link opened while signed in.
import { describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import type { AuthConfig } from "../../src/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Credentials from "../../src/providers/credentials.js"
import GitHub from "../../src/providers/github.js"
import { CookieJar, ORIGIN, fetchCsrf, get, postForm, signIn } from "../helpers.js"
import { setup } from "../support/routes-kit.js"
import { click, emailSetup, requestLink } from "../email/kit.js"

const KEPT = "authjs.signin-identifier"

const setCookie = (res: Response, name: string) => res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`))

/** The value of the input `id` in `html` (HTML-decoded), or undefined when it has none. */
function inputValue(html: string, id: string): string | undefined {
  const tag = new RegExp(`<input id="${id}"[^>]*>`).exec(html)?.[0]
  expect(tag, `input #${id}`).toBeDefined()
  const raw = /\svalue="([^"]*)"/.exec(tag as string)?.[1]
  return raw?.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")
}

/** Follows a failed credentials sign-in to the sign-in page it redirects to, in the same browser. */
async function failThenOpen(config: AuthConfig, creds: Record<string, string>, jar = new CookieJar()) {
  const failed = await signIn(config, creds as { username: string; password: string }, ORIGIN, jar)
  const location = failed.res.headers.get("location") as string
  const page = await Auth(get(new URL(location).pathname + new URL(location).search, { cookie: jar.header() }), config)
  jar.store(page)
  return { failed: failed.res, location, page, html: await page.text(), jar }
}

describe("theme.brandName", () => {
  it("names the app in the sign-in title and heading, in every language; other pages carry it in their title", async () => {
    const en = setup({ theme: { brandName: "Acme" } })
    const html = await (await Auth(get("/auth/signin"), en.config)).text()
    expect(html).toContain("<title>Sign in to Acme</title>")
    expect(html).toContain("<h1>Sign in to Acme</h1>")
    const de = setup({ theme: { brandName: "Acme" }, locale: "de" })
    expect(await (await Auth(get("/auth/signin"), de.config)).text()).toContain("<h1>Bei Acme anmelden</h1>")
    expect(await (await Auth(get("/auth/signout"), en.config)).text()).toContain("<title>Sign out · Acme</title>")
    expect(await (await Auth(get("/auth/verify-request"), en.config)).text()).toContain("<title>Check your email · Acme</title>")
    expect(await (await Auth(get("/auth/error?error=Verification"), en.config)).text()).toContain("<title>Error: Unable to sign in · Acme</title>")
  })

  it("is escaped, trimmed, and ignored when empty, not a string, or longer than 100 characters", async () => {
    const hostile = await (await Auth(get("/auth/signin"), setup({ theme: { brandName: ' <img src=x onerror=alert(1)> "Co" ' } }).config)).text()
    expect(hostile).toContain("<h1>Sign in to &lt;img src=x onerror=alert(1)&gt; &quot;Co&quot;</h1>")
    expect(hostile).not.toContain("<img src=x")
    for (const brandName of ["", "   ", 42, "x".repeat(101)]) {
      const html = await (await Auth(get("/auth/signin"), setup({ theme: { brandName: brandName as string } }).config)).text()
      expect(html).toContain("<h1>Sign in</h1>")
      expect(html).toContain("<title>Sign in</title>")
    }
  })
})

describe("a failed sign-in keeps the identifier", () => {
  it("the username comes back in its field (escaped), the password never; the cookie is sealed, HttpOnly, five minutes, and spent by the page", async () => {
    const { config } = setup()
    const typed = `ada"><script>alert(1)</script>`
    const password = "correct horse battery staple"
    const { failed, location, page, html, jar } = await failThenOpen(config, { username: typed, password })
    expect(location).toBe(`${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials`)
    // Not in the URL; sealed, so neither the name nor the password can be read from the cookie.
    expect(location).not.toContain("ada")
    const cookie = setCookie(failed, KEPT) as string
    expect(cookie).toMatch(new RegExp(`^${KEPT}=[^;]+; Max-Age=300; Path=/; Expires=[^;]+; HttpOnly; SameSite=Lax$`))
    expect(cookie).not.toContain("ada")
    expect(cookie).not.toContain("horse")
    expect(inputValue(html, "input-username-for-credentials")).toBe(typed)
    expect(html).toContain('value="ada&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"')
    expect(html).not.toContain("<script>alert(1)")
    expect(inputValue(html, "input-password-for-credentials")).toBeUndefined()
    expect(html).not.toContain("horse")
    // Focus goes where the user goes on: the password.
    expect(html).toMatch(/<input id="input-password-for-credentials" [^>]*autofocus/)
    // Read once: the page clears the cookie, and a reload shows an empty field.
    expect(setCookie(page, KEPT)).toBe(`${KEPT}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax`)
    const again = await (await Auth(get("/auth/signin?error=CredentialsSignin", { cookie: jar.header() }), config)).text()
    expect(inputValue(again, "input-username-for-credentials")).toBeUndefined()
  })

  it("only with the failure's banner: the sign-in page without ?error= spends the cookie and shows an empty field", async () => {
    const { config } = setup()
    const jar = new CookieJar()
    await signIn(config, { username: "ada", password: "wrong" }, ORIGIN, jar)
    const res = await Auth(get("/auth/signin", { cookie: jar.header() }), config)
    expect(inputValue(await res.text(), "input-username-for-credentials")).toBeUndefined()
    expect(setCookie(res, KEPT)).toMatch(/Max-Age=0/)
  })

  it("a cookie the server did not seal (set by a sibling subdomain, or edited) is ignored, never shown", async () => {
    const { config } = setup()
    const res = await Auth(get("/auth/signin?error=CredentialsSignin", { cookie: `${KEPT}=attacker` }), config)
    expect(inputValue(await res.text(), "input-username-for-credentials")).toBeUndefined()
    expect(setCookie(res, KEPT)).toMatch(/Max-Age=0/)
    // A sealed value from another app (another secret) does not open either.
    const other = setup({ secret: "another-secret-that-is-at-least-32-chars-long" })
    const jar = new CookieJar()
    await signIn(other.config, { username: "mallory", password: "x" }, ORIGIN, jar)
    const html = await (await Auth(get("/auth/signin?error=CredentialsSignin", { cookie: jar.header() }), config)).text()
    expect(html).not.toContain("mallory")
  })

  it("nothing is kept for a POST that fails the CSRF check (a cross-site form cannot fill in a name), nor for a field that is not an identifier", async () => {
    const { config } = setup()
    const jar = new CookieJar()
    await fetchCsrf(config, jar)
    const forged = await Auth(postForm("/auth/callback/credentials", { csrfToken: "forged", username: "mallory", password: "x" }, { cookie: jar.header() }), config)
    expect(forged.headers.get("location")).toContain("error=MissingCSRF")
    expect(setCookie(forged, KEPT)).toBeUndefined()
    // A provider whose only text field is a one-time code: nothing names the user, nothing is kept.
    const otp = setup({ providers: [Credentials({ credentials: { code: { label: "Code", autocomplete: "one-time-code" } }, authorize: () => null })] })
    const failed = await signIn(otp.config, { code: "123456" } as never)
    expect(failed.res.headers.get("location")).toContain("error=CredentialsSignin")
    expect(setCookie(failed.res, KEPT)).toBeUndefined()
  })

  it("an e-mail that could not be sent: the address comes back in the e-mail field", async () => {
    const email = emailSetup({}, MemoryAdapter(), { fail: true })
    const jar = new CookieJar()
    const res = await requestLink(email.config, "ada@example.com", { jar })
    const location = res.headers.get("location") as string
    expect(location).toBe(`${ORIGIN}/auth/signin?error=EmailSignin`)
    const html = await (await click(email.config, location, jar)).text()
    expect(inputValue(html, "input-email-for-email")).toBe("ada@example.com")
    expect(html).toMatch(/<input id="input-email-for-email" [^>]*autofocus/)
  })

  it("in a further method's form: its disclosure opens with the kept e-mail and the password focused", async () => {
    const { config } = setup({
      adapter: MemoryAdapter(),
      trustedOrigins: [ORIGIN],
      providers: [
        { id: "email", type: "email", name: "Email", sendVerificationRequest: async () => {} } as never,
        Credentials({ credentials: { email: { label: "Work email", type: "email" }, password: { label: "Password", type: "password" } }, authorize: () => null }),
      ],
    })
    const { html } = await failThenOpen(config, { email: "ada@example.com", password: "nope" })
    expect(html).toContain('<details class="method" open><summary id="signin-method-credentials"')
    expect(inputValue(html, "input-email-for-credentials")).toBe("ada@example.com")
    expect(inputValue(html, "input-email-for-email")).toBeUndefined()
    expect(html).toMatch(/<input id="input-password-for-credentials" [^>]*autofocus/)
  })
})

describe("a Cancel at the provider is not a refusal", () => {
  const github = () => GitHub({ clientId: "client", clientSecret: "secret" })

  it("the provider's access_denied: AccessDenied with code=access_denied; the page says the sign-in was cancelled and offers to try again (200)", async () => {
    const { config } = setup({ providers: [github()] })
    const back = await Auth(get("/auth/callback/github?error=access_denied&error_description=The+user+said+no"), config)
    const location = back.headers.get("location") as string
    expect(location).toBe(`${ORIGIN}/auth/error?error=AccessDenied&code=access_denied`)
    const res = await Auth(get(new URL(location).pathname + new URL(location).search), config)
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain("<h1>Sign-in was cancelled</h1>")
    expect(html).toContain('<a id="signin-link" class="button primary" href="http://localhost:3000/auth/signin">Try again</a>')
    expect(html).not.toContain("permission")
    expect(html).not.toContain("The user said no")
  })

  it("a signIn callback that returns false stays 'Access denied' (403): no code, even when the request carries error=access_denied in its body", async () => {
    const { config } = setup({ callbacks: { signIn: () => false } })
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const refused = await Auth(postForm("/auth/callback/credentials", { csrfToken, username: "alice", password: "password", error: "access_denied" }, { cookie: jar.header() }), config)
    const location = refused.headers.get("location") as string
    expect(location).toBe(`${ORIGIN}/auth/error?error=AccessDenied`)
    const res = await Auth(get("/auth/error?error=AccessDenied"), config)
    expect(res.status).toBe(403)
    expect(await res.text()).toContain("<h1>Access denied</h1>")
  })

  it("the German page", async () => {
    const { config } = setup({ locale: "de" })
    const html = await (await Auth(get("/auth/error?error=AccessDenied&code=access_denied"), config)).text()
    expect(html).toContain("<h1>Anmeldung abgebrochen</h1>")
    expect(html).toContain(">Erneut versuchen</a>")
  })
})

describe("a used sign-in link opened again", () => {
  it("while signed in: 'You're already signed in' with Continue (200); in another browser: still 'Unable to sign in' (403)", async () => {
    const email = emailSetup({ session: { strategy: "database" } })
    const jar = new CookieJar()
    await requestLink(email.config, "ada@example.com", { jar, callbackUrl: `${ORIGIN}/dashboard` })
    const link = new URL(email.sent.at(-1)!.url)
    expect((await click(email.config, link, jar)).headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    const again = await click(email.config, link, jar)
    const location = again.headers.get("location") as string
    expect(location).toBe(`${ORIGIN}/auth/error?error=Verification`)
    const page = await click(email.config, location, jar)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain("<h1>You&#39;re already signed in</h1>")
    expect(html).toMatch(/<a id="continue-link" class="button primary" href="http:\/\/localhost:3000[^"]*">Continue<\/a>/)
    expect(html).not.toContain("Unable to sign in")
    const elsewhere = await click(email.config, location, new CookieJar())
    expect(elsewhere.status).toBe(403)
    expect(await elsewhere.text()).toContain("<h1>Unable to sign in</h1>")
  })
})
