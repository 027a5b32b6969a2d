// The pages guide the user through what just happened: the app's name in title and heading (theme.brandName), a
// failed sign-in that sets nothing (the page's own script keeps the identifier; test/e2e/pages.test.ts), a Cancel at
// the provider told apart from a signIn callback's refusal, and a used sign-in link opened while signed in.
import { describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import type { AuthConfig } from "../../src/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Credentials from "../../src/providers/credentials.js"
import GitHub from "../../src/providers/github.js"
import { CookieJar, ORIGIN, fetchCsrf, get, postForm, signIn } from "../support/flow-kit.js"
import { setup } from "../support/routes-kit.js"
import { click, emailSetup, requestLink } from "../email/kit.js"

/** The value of the input `id` in `html` (HTML-decoded), or undefined when it has none. */
function inputValue(html: string, id: string): string | undefined {
  const tag = new RegExp(`<input id="${id}"[^>]*>`).exec(html)?.[0]
  expect(tag, `input #${id}`).toBeDefined()
  const raw = /\svalue="([^"]*)"/.exec(tag as string)?.[1]
  return raw
    ?.replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
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
    expect(await (await Auth(get("/auth/verify-request"), en.config)).text()).toContain(
      "<title>Check your email · Acme</title>",
    )
    expect(await (await Auth(get("/auth/error?error=Verification"), en.config)).text()).toContain(
      "<title>Error: Unable to sign in · Acme</title>",
    )
  })

  it("is escaped, trimmed, and ignored when empty, not a string, or longer than 100 characters", async () => {
    const hostile = await (
      await Auth(get("/auth/signin"), setup({ theme: { brandName: ' <img src=x onerror=alert(1)> "Co" ' } }).config)
    ).text()
    expect(hostile).toContain("<h1>Sign in to &lt;img src=x onerror=alert(1)&gt; &quot;Co&quot;</h1>")
    expect(hostile).not.toContain("<img src=x")
    for (const brandName of ["", "   ", 42, "x".repeat(101)]) {
      const html = await (
        await Auth(get("/auth/signin"), setup({ theme: { brandName: brandName as string } }).config)
      ).text()
      expect(html).toContain("<h1>Sign in</h1>")
      expect(html).toContain("<title>Sign in</title>")
    }
  })
})

describe("a failed sign-in sets nothing: the identifier is kept by the page's own script, never by the server", () => {
  /** Every cookie name the responses set, with whether each only expires a cookie (Max-Age=0). */
  const cookiesOf = (res: Response) =>
    res.headers.getSetCookie().map((c) => ({ name: c.split("=")[0], expiresOnly: /; Max-Age=0(;|$)/.test(c) }))

  it("a failed credentials sign-in sets no cookie and puts nothing in the URL; the page that follows never contains the typed name", async () => {
    const { config } = setup()
    const typed = "ada-lovelace-1815"
    const { failed, location, page, html } = await failThenOpen(config, {
      username: typed,
      password: "correct horse battery staple",
    })
    expect(location).toBe(`${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials`)
    expect(failed.headers.getSetCookie()).toEqual([])
    expect(page.headers.getSetCookie()).toEqual([])
    expect(html).not.toContain(typed)
    expect(html).not.toContain("horse")
    expect(inputValue(html, "input-username-for-credentials")).toBeUndefined()
    expect(html).not.toContain("autofocus")
  })

  it("a rate-limited credentials sign-in sets no cookie either", async () => {
    const { config } = setup({ rateLimit: { max: 1 } })
    const jar = new CookieJar()
    // A name that can't turn up by chance in the page's random CSRF token or script hashes
    const typed = "grace-hopper-1906"
    await signIn(config, { username: typed, password: "wrong" }, ORIGIN, jar)
    const { res } = await signIn(config, { username: typed, password: "wrong" }, ORIGIN, jar)
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=RateLimited`)
    expect(res.headers.getSetCookie()).toEqual([])
    const html = await (await Auth(get("/auth/signin?error=RateLimited", { cookie: jar.header() }), config)).text()
    expect(html).not.toContain(typed)
  })

  it("an e-mail that could not be sent sets no cookie but the callback URL's, and the address never comes back from the server", async () => {
    const email = emailSetup({}, MemoryAdapter(), { fail: true })
    const jar = new CookieJar()
    const res = await requestLink(email.config, "ada@example.com", { jar })
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=EmailSignin`)
    expect(
      cookiesOf(res)
        .map((c) => c.name)
        .filter((name) => name !== "authjs.callback-url"),
    ).toEqual([])
    const html = await (await click(email.config, `${ORIGIN}/auth/signin?error=EmailSignin`, jar)).text()
    expect(html).not.toContain("ada@example.com")
    expect(inputValue(html, "input-email-for-email")).toBeUndefined()
  })

  it("a failed callback still only expires the check cookies it carried", async () => {
    const { config } = setup()
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const res = await Auth(
      postForm(
        "/auth/callback/credentials",
        { csrfToken, username: "ada", password: "x" },
        { cookie: `${jar.header()}; authjs.pkce.code_verifier=stale; authjs.state=stale` },
      ),
      config,
    )
    expect(res.headers.get("location")).toContain("error=CredentialsSignin")
    expect(cookiesOf(res).every((c) => c.expiresOnly)).toBe(true)
    expect(
      cookiesOf(res)
        .map((c) => c.name)
        .sort(),
    ).toEqual(["authjs.pkce.code_verifier", "authjs.state"])
  })

  it("the script's hook is the identifier field alone (data-identifier): never a password, hidden or other field", async () => {
    const html = await (await Auth(get("/auth/signin"), setup().config)).text()
    expect(html.match(/<input [^>]*data-identifier[^>]*>/g)).toEqual([
      expect.stringContaining('id="input-username-for-credentials"'),
    ])
    const both = setup({
      providers: [
        { id: "email", type: "email", name: "Email", sendVerificationRequest: async () => {} } as never,
        Credentials({
          credentials: {
            email: { label: "Work email", type: "email" },
            password: { label: "Password", type: "password" },
          },
          authorize: () => null,
        }),
      ],
      adapter: MemoryAdapter(),
    })
    const marked =
      (await (await Auth(get("/auth/signin"), both.config)).text()).match(/<input [^>]*data-identifier[^>]*>/g) ?? []
    expect(marked.map((tag) => /id="([^"]+)"/.exec(tag)?.[1])).toEqual([
      "input-email-for-email",
      "input-email-for-credentials",
    ])
    expect(marked.join("")).not.toMatch(/type="(password|hidden)"/)
    // A provider whose only text field is a one-time code: no field names the user, none is marked.
    const otp = setup({
      providers: [
        Credentials({ credentials: { code: { label: "Code", autocomplete: "one-time-code" } }, authorize: () => null }),
      ],
    })
    expect(await (await Auth(get("/auth/signin"), otp.config)).text()).not.toMatch(/<input [^>]*data-identifier/)
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
    expect(html).toContain(
      '<a id="signin-link" class="button primary" href="http://localhost:3000/auth/signin">Try again</a>',
    )
    expect(html).not.toContain("permission")
    expect(html).not.toContain("The user said no")
  })

  it("a signIn callback that returns false stays 'Access denied' (403): no code, even when the request carries error=access_denied in its body", async () => {
    const { config } = setup({ callbacks: { signIn: () => false } })
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const refused = await Auth(
      postForm(
        "/auth/callback/credentials",
        { csrfToken, username: "alice", password: "password", error: "access_denied" },
        { cookie: jar.header() },
      ),
      config,
    )
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
    expect(html).toMatch(
      /<a id="continue-link" class="button primary" href="http:\/\/localhost:3000[^"]*">Continue<\/a>/,
    )
    expect(html).not.toContain("Unable to sign in")
    const elsewhere = await click(email.config, location, new CookieJar())
    expect(elsewhere.status).toBe(403)
    expect(await elsewhere.text()).toContain("<h1>Unable to sign in</h1>")
  })
})
