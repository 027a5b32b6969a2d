// The built-in pages (sign-in, error, verify-request) and their pages.* redirects.
import { describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import Credentials from "../../src/providers/credentials.js"
import { CookieJar, fetchCsrf, get, setCookies, signIn } from "../helpers.js"
import { CSRF, setup } from "../support/routes-kit.js"

describe("GET /signin (page)", () => {
  it("renders a credentials form with one input per field, hidden csrfToken and callbackUrl", async () => {
    const { config } = setup()
    const res = await Auth(get("/auth/signin?callbackUrl=%2Fdash"), config)
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toBe("text/html")
    const token = setCookies(res).get(CSRF)!.value.split("|")[0] as string
    const html = await res.text()
    const form = /<form id="signin-form-credentials" action="http:\/\/localhost:3000\/auth\/callback\/credentials" method="POST" data-provider="credentials">(.*?)<\/form>/.exec(html)
    expect(form).not.toBeNull()
    const inner = form![1] as string
    expect(inner).toContain(`<input type="hidden" name="csrfToken" value="${token}">`)
    expect(inner).toContain('<input type="hidden" name="callbackUrl" value="http://localhost:3000/dash">')
    expect(inner).toContain('name="username" type="text"')
    expect(inner).toContain('name="password" type="password"')
    expect(inner).toContain(">Username</label>")
    expect(inner).toContain(">Password</label>")
    expect(inner.match(/<input /g)).toHaveLength(4)
    expect(html).toContain("Sign in with Credentials")
    expect(html).not.toContain('role="alert"')
  })

  it("the callbackUrl defaults to the origin; one form per credentials provider", async () => {
    const { config } = setup()
    config.providers.push(Credentials({ id: "otp", name: "Code", credentials: { code: { label: "Code", placeholder: "123456" } }, authorize: () => null }))
    const html = await (await Auth(get("/auth/signin"), config)).text()
    expect(html).toContain('name="callbackUrl" value="http://localhost:3000"')
    expect(html.match(/<form /g)).toHaveLength(2)
    expect(html).toContain('<form id="signin-form-otp" action="http://localhost:3000/auth/callback/otp" method="POST" data-provider="otp">')
    expect(html).toContain('name="code" type="text" placeholder="123456"')
  })

  it("field attributes: a string is escaped; a signal (as @auth/core's types allow) or another non-string becomes the default", async () => {
    const credentials = {
      quoted: { label: "<b>Name</b>", type: '"><script>alert(1)</script>', placeholder: "a\" onfocus=\"x" },
      signal: { label: "Signal", type: { value: "email" }, placeholder: { value: "you@example.com" } },
      number: { label: 7, type: 42, placeholder: null },
    }
    const { config } = setup({ providers: [Credentials({ credentials: credentials as never, authorize: () => null })] })
    const html = await (await Auth(get("/auth/signin"), config)).text()
    expect(html).not.toContain("<script>alert(1)")
    expect(html).not.toContain("<b>Name")
    expect(html).toContain('>&lt;b&gt;Name&lt;/b&gt;</label>')
    expect(html).toContain('name="quoted" type="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;" placeholder="a&quot; onfocus=&quot;x"')
    expect(html).toContain('name="signal" type="text" placeholder=""')
    expect(html).toContain('>number</label><input id="input-number-for-credentials" name="number" type="text" placeholder=""')
    expect(html).not.toContain("[object Object]")
  })

  it("a credentials provider without fields renders no form", async () => {
    const { config } = setup({ providers: [Credentials({ credentials: {}, authorize: () => null })] })
    const html = await (await Auth(get("/auth/signin"), config)).text()
    expect(html).not.toContain("<form")
  })

  it("reuses a valid csrf cookie", async () => {
    const { config } = setup()
    const jar = new CookieJar()
    const token = await fetchCsrf(config, jar)
    const res = await Auth(get("/auth/signin", { cookie: jar.header() }), config)
    expect(res.headers.getSetCookie()).toEqual([])
    expect(await res.text()).toContain(`name="csrfToken" value="${token}"`)
  })

  it.each([
    ["CredentialsSignin", "Sign in failed. Check the details you provided are correct."],
    ["OAuthAccountNotLinked", "To confirm your identity, sign in with the same account you used originally."],
    ["SessionRequired", "Please sign in to access this page."],
    ["OAuthSignin", "Try signing in with a different account."],
    ["SomethingElse", "Unable to sign in."],
  ])("?error=%s shows its banner", async (error, text) => {
    const { config } = setup()
    const html = await (await Auth(get(`/auth/signin?error=${error}`), config)).text()
    expect(html).toContain(`<div id="signin-error" class="error" role="alert">${text}</div>`)
    if (error === "SomethingElse") expect(html).not.toContain("SomethingElse")
  })

  it("pages.signIn: 302 with callbackUrl and error params", async () => {
    const { config } = setup({ pages: { signIn: "/login" } })
    const res = await Auth(get("/auth/signin?callbackUrl=%2Fdash&error=SessionRequired"), config)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe("/login?callbackUrl=http%3A%2F%2Flocalhost%3A3000%2Fdash&error=SessionRequired")
    expect(res.headers.getSetCookie()).toEqual([])
  })

  it("pages.signIn: the origin as callbackUrl by default, joined with & when the page has a query", async () => {
    const a = setup({ pages: { signIn: "/login" } })
    expect((await Auth(get("/auth/signin"), a.config)).headers.get("location")).toBe("/login?callbackUrl=http%3A%2F%2Flocalhost%3A3000")
    const b = setup({ pages: { signIn: "/login?lang=en" } })
    expect((await Auth(get("/auth/signin"), b.config)).headers.get("location")).toBe("/login?lang=en&callbackUrl=http%3A%2F%2Flocalhost%3A3000")
  })

  it("errors of kind signIn go to pages.signIn", async () => {
    const { config } = setup({ pages: { signIn: "/login" } })
    const { res } = await signIn(config, { username: "alice", password: "nope" })
    expect(res.headers.get("location")).toBe("http://localhost:3000/login?error=CredentialsSignin&code=credentials")
  })
})

describe("GET /error", () => {
  it.each([
    ["AccessDenied", 403, "Access denied"],
    ["Configuration", 500, "Server error"],
    ["Verification", 403, "Unable to sign in"],
  ])("?error=%s: %i", async (error, status, heading) => {
    const { config } = setup()
    const res = await Auth(get(`/auth/error?error=${error}`), config)
    expect(res.status).toBe(status)
    expect(res.headers.get("content-type")).toBe("text/html")
    const html = await res.text()
    expect(html).toContain(`<h1>${heading}</h1>`)
    expect(res.headers.getSetCookie()).toEqual([])
  })

  it("?error=WebAuthnVerificationError (where a refused passkey lands): says the passkey failed and links to the sign-in page", async () => {
    const { config } = setup()
    const res = await Auth(get("/auth/error?error=WebAuthnVerificationError"), config)
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain("The passkey could not be verified.")
    expect(html).toMatch(/<a id="signin-link" class="button" href="[^"]*\/auth\/signin">Sign in<\/a>/)
  })

  it("an unknown code: 200, the generic page, the code not reflected", async () => {
    const { config } = setup()
    const res = await Auth(get("/auth/error?error=%3Cscript%3EWeird%3C/script%3E"), config)
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain("<h1>Error</h1>")
    expect(html).not.toContain("Weird")
    expect(html).toContain('href="http://localhost:3000/auth/signin"')
  })

  it("no code: 200 generic page", async () => {
    const { config } = setup()
    const res = await Auth(get("/auth/error"), config)
    expect(res.status).toBe(200)
    expect(await res.text()).toContain("<h1>Error</h1>")
  })

  it("pages.error: 302 there with the error param", async () => {
    const { config } = setup({ pages: { error: "/oops" } })
    const res = await Auth(get("/auth/error?error=AccessDenied"), config)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe("/oops?error=AccessDenied")
    const q = setup({ pages: { error: "/oops?x=1" } })
    expect((await Auth(get("/auth/error?error=Verification"), q.config)).headers.get("location")).toBe("/oops?x=1&error=Verification")
  })
})

describe("GET /verify-request", () => {
  it("200 HTML page", async () => {
    const { config } = setup()
    const res = await Auth(get("/auth/verify-request"), config)
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toBe("text/html")
    expect(await res.text()).toContain("<h1>Check your email</h1>")
  })

  it("pages.verifyRequest: 302 there with the original query string", async () => {
    const { config } = setup({ pages: { verifyRequest: "/check" } })
    const res = await Auth(get("/auth/verify-request?provider=email&type=email"), config)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe("/check?provider=email&type=email")
    const bare = setup({ pages: { verifyRequest: "/check" } })
    expect((await Auth(get("/auth/verify-request"), bare.config)).headers.get("location")).toBe("/check")
  })
})
