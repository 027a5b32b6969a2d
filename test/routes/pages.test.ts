// The built-in pages (sign-in, sign-out, error, verify-request): markup, headers, escaping, locale, and their pages.* redirects.
import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Credentials from "../../src/providers/credentials.js"
import Email from "../../src/providers/email.js"
import GitHub from "../../src/providers/github.js"
import Google from "../../src/providers/google.js"
import Nodemailer from "../../src/providers/nodemailer.js"
import Passkey from "../../src/providers/passkey.js"
import TikTok from "../../src/providers/tiktok.js"
import Twitter from "../../src/providers/twitter.js"
import VK from "../../src/providers/vk.js"
import { CookieJar, fetchCsrf, get, setCookies, signIn } from "../support/flow-kit.js"
import { CSRF, setup } from "../support/routes-kit.js"
import { FORM_SCRIPT, FORM_SCRIPT_HASH } from "../../src/pages/scripts.generated.js"

describe("GET /signin (page)", () => {
  it("renders a credentials form with one input per field, hidden csrfToken and callbackUrl", async () => {
    const { config } = setup()
    const res = await Auth(get("/auth/signin?callbackUrl=%2Fdash"), config)
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toBe("text/html")
    const token = setCookies(res).get(CSRF)!.value.split("|")[0] as string
    const html = await res.text()
    const form =
      /<form id="signin-form-credentials" class="main" action="http:\/\/localhost:3000\/auth\/callback\/credentials" method="POST" data-provider="credentials">(.*?)<\/form>/.exec(
        html,
      )
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
    config.providers.push(
      Credentials({
        id: "otp",
        name: "Code",
        credentials: { code: { label: "Code", placeholder: "123456" } },
        authorize: () => null,
      }),
    )
    const html = await (await Auth(get("/auth/signin"), config)).text()
    expect(html).toContain('name="callbackUrl" value="http://localhost:3000"')
    expect(html.match(/<form /g)).toHaveLength(2)
    // The first form is the main one; the second waits behind its own disclosure, named after its provider.
    expect(html).toContain(
      '<details class="method"><summary id="signin-method-otp" class="button">Sign in with Code</summary><form id="signin-form-otp" action="http://localhost:3000/auth/callback/otp" method="POST" data-provider="otp">',
    )
    expect(html).toContain('name="code" type="text" placeholder="123456"')
  })

  it("field attributes: a string is escaped; a signal (as @auth/core's types allow) or another non-string becomes the default", async () => {
    const credentials = {
      quoted: { label: "<b>Name</b>", type: '"><script>alert(1)</script>', placeholder: 'a" onfocus="x' },
      signal: { label: "Signal", type: { value: "email" }, placeholder: { value: "you@example.com" } },
      number: { label: 7, type: 42, placeholder: null },
    }
    const { config } = setup({ providers: [Credentials({ credentials: credentials as never, authorize: () => null })] })
    const html = await (await Auth(get("/auth/signin"), config)).text()
    expect(html).not.toContain("<script>alert(1)")
    expect(html).not.toContain("<b>Name")
    expect(html).toContain(">&lt;b&gt;Name&lt;/b&gt;</label>")
    expect(html).toContain(
      'name="quoted" type="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;" placeholder="a&quot; onfocus=&quot;x"',
    )
    expect(html).toContain('name="signal" type="text">')
    expect(html).toContain('>number</label><input id="input-number-for-credentials" name="number" type="text">')
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
    expect(res.headers.get("location")).toBe(
      "/login?callbackUrl=http%3A%2F%2Flocalhost%3A3000%2Fdash&error=SessionRequired",
    )
    expect(res.headers.getSetCookie()).toEqual([])
  })

  it("pages.signIn: the origin as callbackUrl by default, joined with & when the page has a query", async () => {
    const a = setup({ pages: { signIn: "/login" } })
    expect((await Auth(get("/auth/signin"), a.config)).headers.get("location")).toBe(
      "/login?callbackUrl=http%3A%2F%2Flocalhost%3A3000",
    )
    const b = setup({ pages: { signIn: "/login?lang=en" } })
    expect((await Auth(get("/auth/signin"), b.config)).headers.get("location")).toBe(
      "/login?lang=en&callbackUrl=http%3A%2F%2Flocalhost%3A3000",
    )
  })

  it("errors of kind signIn go to pages.signIn", async () => {
    const { config } = setup({ pages: { signIn: "/login" } })
    const { res } = await signIn(config, { username: "alice", password: "nope" })
    expect(res.headers.get("location")).toBe("http://localhost:3000/login?error=CredentialsSignin&code=credentials")
    // A page with a query of its own keeps it; the error's parameters join it with &.
    const withQuery = setup({ pages: { signIn: "/login?lang=en" } })
    const again = await signIn(withQuery.config, { username: "alice", password: "nope" })
    expect(again.res.headers.get("location")).toBe(
      "http://localhost:3000/login?lang=en&error=CredentialsSignin&code=credentials",
    )
    // A page given as an absolute URL (a sign-in app of its own) is used as it is, not put after this origin.
    const absolute = setup({ pages: { signIn: "https://login.example.test/signin" } })
    const elsewhere = await signIn(absolute.config, { username: "alice", password: "nope" })
    expect(elsewhere.res.headers.get("location")).toBe(
      "https://login.example.test/signin?error=CredentialsSignin&code=credentials",
    )
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
    expect(html).toMatch(/<a id="signin-link" class="button primary" href="[^"]*\/auth\/signin">Sign in<\/a>/)
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
    expect((await Auth(get("/auth/error?error=Verification"), q.config)).headers.get("location")).toBe(
      "/oops?x=1&error=Verification",
    )
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

// ---------------------------------------------------------------------------------------------------------------
// The pages' security headers (docs/pages.md), hostile input, locale, links, logos, labels and autocomplete.

const PAGES = ["/auth/signin", "/auth/signout", "/auth/error?error=AccessDenied", "/auth/verify-request"]

/** The directives of a CSP header, by name. */
function cspOf(res: Response): Map<string, string> {
  const header = res.headers.get("content-security-policy") ?? ""
  return new Map(
    header
      .split(";")
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => [d.split(" ")[0] as string, d.slice(d.indexOf(" ") + 1)]),
  )
}

/** The sha256 CSP source of each inline <style> and <script> of a page. */
function inlineHashes(html: string, tag: "style" | "script"): string[] {
  return [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, "g"))].map(
    (m) =>
      `'sha256-${createHash("sha256")
        .update(m[1] as string, "utf8")
        .digest("base64")}'`,
  )
}

describe("built-in pages: security headers", () => {
  it.each(PAGES)(
    "%s sends CSP, frame, cache and referrer headers; its inline styles are allowed by hash, and scripts only the sign-in page's own, by hash",
    async (path) => {
      const { config } = setup()
      const res = await Auth(get(path), config)
      expect(res.headers.get("x-frame-options")).toBe("DENY")
      expect(res.headers.get("cache-control")).toBe("no-store")
      expect(res.headers.get("referrer-policy")).toBe("same-origin")
      expect(res.headers.get("x-content-type-options")).toBe("nosniff")
      const csp = cspOf(res)
      expect(csp.get("default-src")).toBe("'none'")
      expect(csp.get("frame-ancestors")).toBe("'none'")
      expect(csp.get("base-uri")).toBe("'none'")
      expect(csp.get("img-src")).toBe("'self' https: data:")
      const html = await res.text()
      // The sign-in page carries the form script (busy buttons, show/hide password); no other page runs any.
      const scripts = inlineHashes(html, "script")
      expect(scripts).toEqual(path.startsWith("/auth/signin") ? [FORM_SCRIPT_HASH] : [])
      expect(csp.get("script-src")).toBe(scripts.length ? scripts.join(" ") : "'none'")
      const styles = inlineHashes(html, "style")
      expect(styles.length).toBeGreaterThan(0)
      expect((csp.get("style-src") ?? "").split(" ").sort()).toEqual([...styles].sort())
      expect(html).not.toMatch(/\sstyle=/) // a style attribute would need 'unsafe-inline'
    },
  )

  it.each(PAGES)(
    "%s names its icon as an empty data: URL (the browser asks the app for no /favicon.ico), which img-src allows",
    async (path) => {
      const { config } = setup()
      const res = await Auth(get(path), config)
      const html = await res.text()
      expect(html).toMatch(/<head>[^]*<link rel="icon" href="data:,">[^]*<\/head>/)
      expect(html.match(/<link /g)).toHaveLength(1)
      expect(cspOf(res).get("img-src")?.split(" ")).toContain("data:")
    },
  )

  it("a themed page with provider colours: both style blocks hashed, the hashes stable across requests", async () => {
    const { config } = setup({
      theme: { brandColor: "#112233", buttonText: "#fefefe" },
      providers: [GitHub({ clientId: "a", clientSecret: "b" })],
    })
    const first = await Auth(get("/auth/signin"), config)
    const html = await first.text()
    expect(html).toContain(":root{--brand:#112233;--button-text:#fefefe;}.provider-0{--p-bg:#24292f}")
    const hashes = inlineHashes(html, "style")
    expect(hashes).toHaveLength(2)
    expect(cspOf(first).get("style-src")).toBe(hashes.join(" "))
    const second = await Auth(get("/auth/signin"), config)
    expect(second.headers.get("content-security-policy")).toBe(first.headers.get("content-security-policy"))
  })

  it("the configuration error page (a broken config) sends the same headers", async () => {
    const { config } = setup({ secret: "short" })
    const res = await Auth(get("/auth/signin"), config)
    expect(res.status).toBe(500)
    expect(res.headers.get("x-frame-options")).toBe("DENY")
    expect(cspOf(res).get("frame-ancestors")).toBe("'none'")
    expect(cspOf(res).get("script-src")).toBe("'none'")
    expect(res.headers.get("cache-control")).toBe("no-store")
  })

  it("pages.* redirects stay plain redirects (no page headers)", async () => {
    const { config } = setup({ pages: { signIn: "/login", signOut: "/bye", error: "/oops", verifyRequest: "/check" } })
    for (const path of PAGES) {
      const res = await Auth(get(path), config)
      expect(res.status).toBe(302)
      expect(res.headers.get("content-security-policy")).toBeNull()
    }
  })
})

describe("built-in pages: hostile input is inert", () => {
  const SCRIPT = '"><script>alert(1)</script>'

  it("?error= on the sign-in and error pages is never reflected", async () => {
    const { config } = setup()
    for (const path of ["/auth/signin", "/auth/error"]) {
      const html = await (await Auth(get(`${path}?error=${encodeURIComponent(SCRIPT)}`), config)).text()
      expect(html).not.toContain("<script>alert")
      expect(html).not.toContain("alert(1)")
    }
  })

  it("a same-origin callbackUrl with quotes and tags is escaped in the hidden field", async () => {
    const { config } = setup()
    const html = await (
      await Auth(get(`/auth/signin?callbackUrl=${encodeURIComponent(`/x?a=${SCRIPT}'`)}`), config)
    ).text()
    expect(html).not.toContain("<script>alert")
    expect(html).toMatch(/name="callbackUrl" value="http:\/\/localhost:3000\/x\?a=[^"<>]*"/)
  })

  it("provider names, ids and a javascript: logo; labels and placeholders with quotes", async () => {
    const oauth = GitHub({ clientId: "a", clientSecret: "b" })
    const hostile = {
      ...oauth,
      id: 'gh"x',
      name: SCRIPT,
      style: { logo: "javascript:alert(1)", bg: "red;}body{display:none", text: "#fff" },
    }
    const { config } = setup({
      providers: [
        hostile as never,
        Credentials({
          name: SCRIPT,
          credentials: { user: { label: 'Say "hi" <b>', placeholder: "' onfocus='x" } },
          authorize: () => null,
        }),
      ],
      theme: {
        logo: "javascript:alert(1)",
        brandColor: "red;}body{display:none",
        buttonText: "#fff;background:url(https://t.test/p)",
      },
    })
    const res = await Auth(get("/auth/signin"), config)
    const html = await res.text()
    expect(html.replace(`<script>${FORM_SCRIPT}</script>`, "")).not.toContain("<script")
    expect(html).not.toContain("javascript:")
    expect(html).not.toContain("body{display:none")
    expect(html).not.toContain("url(")
    expect(html).not.toContain("<b>")
    expect(html).toContain("Sign in with &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;")
    expect(html).toContain('id="signin-form-gh&quot;x"')
    expect(html).toContain(">Say &quot;hi&quot; &lt;b&gt;</label>")
    expect(html).toContain('placeholder="&#39; onfocus=&#39;x"')
    // The bad colours fall back to the defaults: no theme sheet at all.
    expect(inlineHashes(html, "style")).toHaveLength(1)
  })

  it.each([
    ["red;}body{display:none", false],
    ['#fff" onclick="x', false],
    ["expression(alert(1))", false],
    ["#4f46e5", true],
    ["rebeccapurple", true],
    ["rgb(10, 20, 30)", true],
  ])("theme brandColor %j used: %s", async (brandColor, used) => {
    const { config } = setup({ theme: { brandColor } })
    const html = await (await Auth(get("/auth/verify-request"), config)).text()
    expect(html.includes(`--brand:${brandColor};`)).toBe(used)
  })

  it("a safe theme logo is shown; a provider logo URL of a custom provider is an <img>", async () => {
    const custom = {
      id: "acme",
      name: "Acme",
      type: "oauth",
      clientId: "a",
      clientSecret: "b",
      issuer: "https://acme.test",
      authorization: "https://acme.test/a",
      token: "https://acme.test/t",
      userinfo: "https://acme.test/u",
      style: { logo: "https://cdn.acme.test/logo.svg", bg: "#fff", text: "#000" },
    }
    const { config } = setup({ providers: [custom as never], theme: { logo: "https://app.test/logo.png" } })
    const html = await (await Auth(get("/auth/signin"), config)).text()
    expect(html).toContain('<img class="brand-logo" src="https://app.test/logo.png" alt="">')
    expect(html).toContain('<img src="https://cdn.acme.test/logo.svg" alt="" width="20" height="20">')
  })
})

describe("built-in pages: built-in provider logos are inline", () => {
  it("GitHub, Google, Twitter, VK and TikTok buttons carry a data: SVG and load nothing over the network", async () => {
    const providers = [GitHub, Google, Twitter, VK, TikTok].map((P) => P({ clientId: "a", clientSecret: "b" }))
    const { config } = setup({ providers })
    const html = await (await Auth(get("/auth/signin"), config)).text()
    for (const id of ["github", "google", "twitter", "vk", "tiktok"]) {
      const button = new RegExp(`<button id="signin-button-${id}"[^>]*>(.*?)</button>`).exec(html)?.[1]
      expect(button, id).toBeDefined()
      expect(button).toMatch(
        /^<span class="mark"><img src="data:image\/svg\+xml,[^"]+" alt="" width="20" height="20"><\/span>/,
      )
      // The SVG's xmlns is a name, not a request; no src or href points at the network.
      expect(button).not.toMatch(/(?:src|href)="https?:/)
    }
    expect(html).not.toMatch(/(?:src|href)="https?:\/\/(?!localhost:3000)/)
  })
})

describe("built-in pages: forms", () => {
  it("every label's for= names an input's id, and ids are unique", async () => {
    const { config } = setup({
      providers: [
        Credentials({
          credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
          authorize: () => null,
        }),
        Nodemailer({ server: "smtp://127.0.0.1:1", from: "a@b.test" }),
      ],
      adapter: MemoryAdapter(),
    })
    const html = await (await Auth(get("/auth/signin"), config)).text()
    const fors = [...html.matchAll(/<label for="([^"]+)">/g)].map((m) => m[1])
    const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1])
    expect(fors.length).toBe(3)
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of fors) expect(html).toContain(`<input id="${id}"`)
    expect(html.match(/<h1>/g)).toHaveLength(1)
    expect(html).toContain("<main>")
  })

  /** Each `<label for>` of a page: the id it names and its text. */
  const labelsOf = (html: string) =>
    [...html.matchAll(/<label for="([^"]+)">([^<]*)<\/label>/g)].map((m) => ({
      for: m[1] as string,
      text: m[2] as string,
    }))

  it.each([
    ["Nodemailer", () => Nodemailer({ server: "smtp://127.0.0.1:1", from: "a@b.test" }), "nodemailer"],
    ["Email", () => Email({ sendVerificationRequest: async () => {} }), "email"],
  ])(
    "an e-mail provider (%s) next to a passkey provider: two e-mail fields, each with its own label and id",
    async (_, provider, id) => {
      for (const [locale, emailLabel, passkeyLabel] of [
        ["en", "Email", "Email for your passkey"],
        ["de", "E-Mail", "E-Mail für Ihren Passkey"],
      ] as const) {
        const { config } = setup({
          providers: [provider(), Passkey()],
          adapter: MemoryAdapter(),
          experimental: { enableWebAuthn: true },
          locale,
        })
        const html = await (await Auth(get("/auth/signin"), config)).text()
        expect(labelsOf(html)).toEqual([
          { for: `input-email-for-${id}`, text: emailLabel },
          { for: "input-email-for-passkey", text: passkeyLabel },
        ])
        const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1])
        expect(new Set(ids).size, `ids unique: ${ids.join(" ")}`).toBe(ids.length)
        // Autofill offers passkeys in the main form's e-mail field (conditional UI); the registration field asks for a new one's address.
        expect(html).toContain(
          '<input id="input-email-for-passkey" name="email" type="text" autocomplete="username" required>',
        )
        expect(html).toMatch(
          new RegExp(
            `<input id="input-email-for-${id}" name="email" type="email" [^>]*autocomplete="email webauthn" required data-identifier>`,
          ),
        )
      }
    },
  )

  it("labels an app set itself are shown as given; when two still read the same, each field is described by its form's button", async () => {
    const { config } = setup({
      providers: [
        Email({ sendVerificationRequest: async () => {} }),
        Credentials({
          credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
          authorize: () => null,
        }),
        Passkey({ formFields: { email: { label: "Work email", autocomplete: "username webauthn" } } }),
      ],
      adapter: MemoryAdapter(),
      experimental: { enableWebAuthn: true },
    })
    const html = await (await Auth(get("/auth/signin"), config)).text()
    expect(labelsOf(html).map((l) => l.text)).toEqual(["Email", "Email", "Password", "Work email"])
    expect(html).toContain(
      '<input id="input-email-for-email" name="email" type="email" placeholder="you@example.com" autocomplete="email webauthn" required data-identifier aria-describedby="signin-button-email">',
    )
    expect(html).toContain(
      '<input id="input-email-for-credentials" name="email" type="email" autocomplete="email" data-identifier aria-describedby="signin-method-credentials">',
    )
    expect(html).toContain(
      '<button id="signin-button-email" class="button primary" type="submit">Sign in with Email</button>',
    )
    // The credentials form waits behind its disclosure, which names it (its button says Continue).
    expect(html).toContain('<summary id="signin-method-credentials" class="button">Sign in with Credentials</summary>')
    expect(html).toContain('<button id="signin-button-credentials" class="button" type="submit">Continue</button>')
    // Fields with a label of their own carry no description.
    expect(html).toMatch(/<input id="input-password-for-credentials" [^>]*autocomplete="current-password">/)
    expect(html).toMatch(/<input id="input-email-for-passkey" [^>]*autocomplete="username">/)
  })

  it("autocomplete: from the field, else current-password / email / username by type and name", async () => {
    const credentials = {
      username: { label: "Username" },
      password: { label: "Password", type: "password" },
      mail: { label: "Mail", type: "email" },
      code: { label: "Code", autocomplete: "one-time-code" },
      note: { label: "Note" },
    }
    const { config } = setup({ providers: [Credentials({ credentials, authorize: () => null })] })
    const html = await (await Auth(get("/auth/signin"), config)).text()
    // The first field that names the user is marked for the form script (kept across a failed sign-in); no other.
    expect(html).toMatch(/name="username" type="text" autocomplete="username" data-identifier>/)
    expect(html).toMatch(/name="password" type="password" autocomplete="current-password">/)
    expect(html).toMatch(/name="mail" type="email" autocomplete="email">/)
    expect(html).toMatch(/name="code" type="text" autocomplete="one-time-code">/)
    expect(html).toMatch(/name="note" type="text">/)
  })

  it("OAuth buttons first (whatever the configured order), one divider, the main form with the only primary button, the other methods under it", async () => {
    const { config } = setup({
      providers: [
        Nodemailer({ server: "smtp://127.0.0.1:1", from: "a@b.test" }),
        GitHub({ clientId: "a", clientSecret: "b" }),
        Credentials({ credentials: { username: {} }, authorize: () => null }),
        Google({ clientId: "a", clientSecret: "b" }),
      ],
      adapter: MemoryAdapter(),
    })
    const html = await (await Auth(get("/auth/signin"), config)).text()
    expect(html.match(/class="divider"/g)).toHaveLength(1)
    expect(html.match(/class="button primary"/g)).toHaveLength(1)
    expect(html).toMatch(
      /<div class="providers"><form id="signin-form-github"[^]*?<\/form><form id="signin-form-google"[^]*?<\/form><\/div><div class="divider" role="separator">or<\/div><form id="signin-form-nodemailer" class="main"[^]*?<button id="signin-button-nodemailer" class="button primary" type="submit">Sign in with Nodemailer<\/button><\/form><div class="methods"><details class="method"><summary id="signin-method-credentials" class="button">Sign in with Credentials<\/summary>/,
    )
    // Provider buttons are neutral: the provider's colour is the tile under its mark only.
    expect(html).toMatch(
      /<button id="signin-button-github" class="button provider provider-1" type="submit"><span class="mark"><img [^>]+><\/span><span>Sign in with GitHub<\/span><\/button>/,
    )
  })

  it("only OAuth providers: their buttons, no divider and no primary action", async () => {
    const { config } = setup({
      providers: [GitHub({ clientId: "a", clientSecret: "b" }), Google({ clientId: "a", clientSecret: "b" })],
    })
    const html = await (await Auth(get("/auth/signin"), config)).text()
    expect(html).not.toContain('class="divider"')
    expect(html).not.toMatch(/class="[^"]*\bprimary\b/)
  })
})

describe("built-in pages: locale", () => {
  it("config locale 'de' fixes the language: German strings, <html lang=\"de\">, no Vary", async () => {
    const { config } = setup({ locale: "de" })
    const res = await Auth(get("/auth/signin", { headers: { "accept-language": "en" } }), config)
    const html = await res.text()
    expect(html).toContain('<html lang="de">')
    expect(html).toContain("<h1>Anmelden</h1>")
    expect(html).toContain("Mit Zugangsdaten anmelden")
    expect(res.headers.get("vary")).toBeNull()
  })

  it("German: the default provider names 'Email' and 'Credentials' are translated (no English 'Email' next to 'E-Mail'); names an app set are shown as given", async () => {
    const defaults = setup({
      locale: "de",
      adapter: MemoryAdapter(),
      providers: [
        Email({ sendVerificationRequest: async () => {} }),
        Credentials({ credentials: { username: { label: "Benutzername" } }, authorize: () => null }),
      ],
    })
    const html = await (await Auth(get("/auth/signin"), defaults.config)).text()
    expect(html).toContain(
      '<button id="signin-button-email" class="button primary" type="submit">Mit E-Mail anmelden</button>',
    )
    expect(html).toContain('<label for="input-email-for-email">E-Mail</label>')
    expect(html).toContain('<summary id="signin-method-credentials" class="button">Mit Zugangsdaten anmelden</summary>')
    expect(html).toContain('<button id="signin-button-credentials" class="button" type="submit">Weiter</button>')
    expect(html).not.toContain("Email") // case-sensitive: name="email" and type="email" are not text
    expect(html).not.toContain("Credentials")
    // English keeps Auth.js's names.
    const english = await (
      await Auth(
        get("/auth/signin"),
        setup({ locale: "en", adapter: MemoryAdapter(), providers: defaults.config.providers }).config,
      )
    ).text()
    expect(english).toContain(">Sign in with Email</button>")
    expect(english).toContain(">Sign in with Credentials</summary>")
    // A name the app chose is its own, in any language.
    const named = setup({
      locale: "de",
      adapter: MemoryAdapter(),
      providers: [
        Email({ name: "Magic Link", sendVerificationRequest: async () => {} }),
        Credentials({ name: "Passwort", credentials: { username: {} }, authorize: () => null }),
        Nodemailer({ server: "smtp://127.0.0.1:1", from: "a@b.test" }),
      ],
    })
    const namedHtml = await (await Auth(get("/auth/signin"), named.config)).text()
    expect(namedHtml).toContain(">Mit Magic Link anmelden</button>")
    expect(namedHtml).toContain(">Mit Passwort anmelden</summary>")
    expect(namedHtml).toContain(">Mit Nodemailer anmelden</summary>")
  })

  it("Accept-Language with q-values picks German; the response varies on Accept-Language", async () => {
    const { config } = setup()
    const res = await Auth(
      get("/auth/signout", { headers: { "accept-language": "fr;q=0.95, en;q=0.5, de-DE;q=0.9" } }),
      config,
    )
    const html = await res.text()
    expect(html).toContain('<html lang="de">')
    expect(html).toContain("Möchten Sie sich wirklich abmelden?")
    expect(res.headers.get("vary")).toBe("Accept-Language")
  })

  it("an unknown language, or none, is English", async () => {
    const { config } = setup()
    for (const headers of [{ "accept-language": "fr-CH, ja;q=0.9" }, {}] as Record<string, string>[]) {
      const res = await Auth(get("/auth/verify-request", { headers }), config)
      const html = await res.text()
      expect(html).toContain('<html lang="en">')
      expect(html).toContain("<h1>Check your email</h1>")
    }
    const fixed = setup({ locale: "xx" })
    expect(await (await Auth(get("/auth/verify-request"), fixed.config)).text()).toContain('<html lang="en">')
  })

  it("error pages and banners are translated", async () => {
    const { config } = setup({ locale: "de-AT" })
    expect(await (await Auth(get("/auth/error?error=AccessDenied"), config)).text()).toContain(
      "<h1>Zugriff verweigert</h1>",
    )
    expect(await (await Auth(get("/auth/signin?error=CredentialsSignin"), config)).text()).toContain(
      "Die Anmeldung ist fehlgeschlagen.",
    )
  })
})

describe("GET /error: links", () => {
  it("with a custom basePath, Sign in goes to <origin><basePath>/signin and Home to the origin", async () => {
    const { config } = setup({ basePath: "/api/auth" })
    const html = await (await Auth(get("/api/auth/error?error=Verification"), config)).text()
    expect(html).toContain(
      '<a id="signin-link" class="button primary" href="http://localhost:3000/api/auth/signin">Sign in</a>',
    )
    expect(html).toContain('<a id="home-link" class="secondary" href="http://localhost:3000">Home</a>')
  })

  it("with pages.signIn, Sign in goes to the app's own page", async () => {
    const { config } = setup({ pages: { signIn: "/login" } })
    const html = await (await Auth(get("/auth/error?error=AccessDenied"), config)).text()
    expect(html).toContain('<a id="signin-link" class="button primary" href="/login">Sign in</a>')
  })

  it("Configuration links home only", async () => {
    const { config } = setup()
    const html = await (await Auth(get("/auth/error?error=Configuration"), config)).text()
    expect(html).not.toContain("signin-link")
    expect(html).toContain('<a id="home-link" class="button primary" href="http://localhost:3000">Home</a>')
  })
})
