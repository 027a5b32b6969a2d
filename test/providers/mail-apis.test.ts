// The HTTP mail-API providers (Resend, SendGrid, Postmark, Forward Email) against local fakes that check each documented request shape, and the default message.
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { withOptions } from "../../src/config/oauth.js"
import { EmailSignInError } from "../../src/errors.js"
import { defaultMessage } from "../../src/providers/email-message.js"
import ForwardEmail from "../../src/providers/forwardemail.js"
import Postmark from "../../src/providers/postmark.js"
import Resend from "../../src/providers/resend.js"
import SendGrid from "../../src/providers/sendgrid.js"
import type {
  EmailConfig,
  EmailProviderSendVerificationRequestParams,
  EmailUserConfig,
} from "../../src/providers/types.js"
import { Auth, type AuthConfig } from "../../src/index.js"
import { customFetch } from "../../src/symbols.js"
import { CookieJar, ORIGIN, SECRET, fetchCsrf, get, postForm } from "../support/flow-kit.js"
import { spyLogger } from "../support/logger.js"
import { FakeApi, type Seen } from "../support/mail-api-fake.js"

const KEY = "re_test_0123456789abcdefSECRET"
const TO = "alice@example.test"
const LINK = `http://127.0.0.1:3000/auth/callback/x?${new URLSearchParams({ callbackUrl: "http://127.0.0.1:3000/dashboard", token: "f".repeat(64), email: TO })}`

const json = (s: Seen): Record<string, unknown> => JSON.parse(s.body) as Record<string, unknown>
const isJson = (s: Seen): boolean => /^application\/json\b/.test(s.headers["content-type"] ?? "")
const hasAll = (o: Record<string, unknown>, keys: string[]): boolean =>
  keys.every((k) => typeof o[k] === "string" && o[k] !== "")

// Each fake enforces its API's documented request and answers like it (success and error bodies).
const resend = new FakeApi((s) => {
  if (s.method !== "POST" || s.path !== "/emails")
    return {
      status: 404,
      body: { statusCode: 404, name: "not_found", message: "The requested endpoint does not exist." },
    }
  if (s.headers.authorization !== `Bearer ${KEY}`)
    return { status: 401, body: { statusCode: 401, name: "validation_error", message: "API key is invalid" } }
  if (!isJson(s) || !hasAll(json(s), ["from", "to", "subject", "html", "text"]))
    return { status: 422, body: { statusCode: 422, name: "validation_error", message: "Missing required field" } }
  return { status: 200, body: { id: "49a3999c-0ce1-4ea6-ab68-afcd6dc2e794" } }
})
const sendgrid = new FakeApi((s) => {
  if (s.method !== "POST" || s.path !== "/v3/mail/send")
    return { status: 404, body: { errors: [{ field: null, message: "resource not found" }] } }
  if (s.headers.authorization !== `Bearer ${KEY}`)
    return {
      status: 401,
      body: {
        errors: [
          { field: null, message: "The provided authorization grant is invalid, expired, or revoked", help: null },
        ],
      },
    }
  const b = isJson(s) ? json(s) : {}
  const p = b.personalizations as Array<{ to?: Array<{ email?: string }> }> | undefined
  const content = b.content as Array<{ type: string; value: string }> | undefined
  const from = b.from as { email?: string } | undefined
  if (
    !p?.[0]?.to?.[0]?.email ||
    !from?.email ||
    typeof b.subject !== "string" ||
    content?.[0]?.type !== "text/plain" ||
    content?.[1]?.type !== "text/html"
  ) {
    return {
      status: 400,
      body: {
        errors: [
          {
            field: "personalizations",
            message: "The personalizations field is required and must have at least one personalization.",
          },
        ],
      },
    }
  }
  return { status: 202 }
})
const postmark = new FakeApi((s) => {
  if (s.method !== "POST" || s.path !== "/email") return { status: 404, body: { ErrorCode: 404, Message: "Not found" } }
  if (s.headers["x-postmark-server-token"] !== KEY)
    return {
      status: 401,
      body: {
        ErrorCode: 10,
        Message: "The Server Token you provided in the X-Postmark-Server-Token request header was invalid.",
      },
    }
  if (
    s.headers.accept !== "application/json" ||
    !isJson(s) ||
    !hasAll(json(s), ["From", "To", "Subject", "HtmlBody", "TextBody", "MessageStream"])
  ) {
    return { status: 422, body: { ErrorCode: 300, Message: "Invalid email request" } }
  }
  return {
    status: 200,
    body: {
      To: TO,
      SubmittedAt: "2026-01-01T00:00:00Z",
      MessageID: "b7bc2f4a-e38e-4336-af7d-e6c392c2f817",
      ErrorCode: 0,
      Message: "OK",
    },
  }
})
const forwardemail = new FakeApi((s) => {
  if (s.method !== "POST" || s.path !== "/v1/emails")
    return { status: 404, body: { statusCode: 404, error: "Not Found", message: "Not Found" } }
  if (s.headers.authorization !== `Basic ${Buffer.from(`${KEY}:`).toString("base64")}`)
    return { status: 401, body: { statusCode: 401, error: "Unauthorized", message: "Invalid API token." } }
  if (!isJson(s) || !hasAll(json(s), ["from", "to", "subject", "html", "text"]))
    return { status: 400, body: { statusCode: 400, error: "Bad Request", message: "Missing fields" } }
  return { status: 200, body: { id: "6502ae5b9c4e0e4b1c6b1f2a", status: "queued" } }
})

beforeAll(async () => {
  await Promise.all([resend, sendgrid, postmark, forwardemail].map((f) => f.start()))
})
afterAll(async () => {
  await Promise.all([resend, sendgrid, postmark, forwardemail].map((f) => f.stop()))
})

type Factory = (config?: EmailUserConfig & { [customFetch]?: typeof fetch }) => EmailConfig
const BASIC = `Basic ${Buffer.from(`${KEY}:`).toString("base64")}`
const cases: Array<{
  name: string
  id: string
  make: Factory
  fake: FakeApi
  origin: string
  path: string
  auth: [string, string]
}> = [
  {
    name: "Resend",
    id: "resend",
    make: Resend,
    fake: resend,
    origin: "https://api.resend.com",
    path: "/emails",
    auth: ["authorization", `Bearer ${KEY}`],
  },
  {
    name: "SendGrid",
    id: "sendgrid",
    make: SendGrid,
    fake: sendgrid,
    origin: "https://api.sendgrid.com",
    path: "/v3/mail/send",
    auth: ["authorization", `Bearer ${KEY}`],
  },
  {
    name: "Postmark",
    id: "postmark",
    make: Postmark,
    fake: postmark,
    origin: "https://api.postmarkapp.com",
    path: "/email",
    auth: ["x-postmark-server-token", KEY],
  },
  {
    name: "Forward Email",
    id: "forwardemail",
    make: ForwardEmail,
    fake: forwardemail,
    origin: "https://api.forwardemail.net",
    path: "/v1/emails",
    auth: ["authorization", BASIC],
  },
]

/** The provider as the config resolver hands it to the flow: user options merged over the defaults. */
function resolved(make: Factory, options: EmailUserConfig & { [customFetch]?: typeof fetch }): EmailConfig {
  return withOptions(make(options))
}

function params(
  provider: EmailConfig,
  overrides: Partial<EmailProviderSendVerificationRequestParams> = {},
): EmailProviderSendVerificationRequestParams {
  return {
    identifier: TO,
    url: LINK,
    expires: new Date(Date.now() + 24 * 3600 * 1000),
    provider,
    token: "f".repeat(64),
    theme: { brandColor: "#123456", buttonText: "#fedcba" },
    request: new Request("http://127.0.0.1:3000/auth/signin/x", { method: "POST" }),
    ...overrides,
  }
}

/** The error a send rejects with (undefined when it succeeds). */
async function sendError(
  provider: EmailConfig,
  overrides: Partial<EmailProviderSendVerificationRequestParams> = {},
): Promise<unknown> {
  try {
    await provider.sendVerificationRequest(params(provider, overrides))
    return undefined
  } catch (error) {
    return error
  }
}

/** The message fields a fake received, whatever the API's field names. */
function received(id: string, s: Seen): { from: unknown; to: unknown; subject: unknown; html: unknown; text: unknown } {
  const b = json(s)
  if (id === "sendgrid") {
    const content = b.content as Array<{ type: string; value: string }>
    const to = (b.personalizations as Array<{ to: Array<{ email: string }> }>)[0]?.to[0]?.email
    return { from: b.from, to, subject: b.subject, text: content[0]?.value, html: content[1]?.value }
  }
  if (id === "postmark") return { from: b.From, to: b.To, subject: b.Subject, html: b.HtmlBody, text: b.TextBody }
  return { from: b.from, to: b.to, subject: b.subject, html: b.html, text: b.text }
}

describe.each(cases)("$name provider", ({ id, name, make, fake, origin, path, auth }) => {
  const options = () => ({ apiKey: KEY, from: "Example <login@example.test>", [customFetch]: fake.fetchFor(origin) })

  it("has the Auth.js identity: id, name, type email, 24 h maxAge, the user's options kept for the resolver", () => {
    const p = make({ apiKey: KEY })
    expect({ id: p.id, name: p.name, type: p.type, maxAge: p.maxAge }).toEqual({
      id,
      name,
      type: "email",
      maxAge: 86400,
    })
    expect(p.options?.apiKey).toBe(KEY)
    expect(resolved(make, { id: `${id}-2` }).id).toBe(`${id}-2`)
  })

  it("sends the documented request: POST to the API path, its auth header, JSON with from, to, subject, html, text", async () => {
    const before = fake.seen.length
    await resolved(make, options()).sendVerificationRequest(params(resolved(make, options())))
    expect(fake.seen.length).toBe(before + 1)
    const s = fake.last()
    expect(s.method).toBe("POST")
    expect(s.path).toBe(path)
    expect(s.headers[auth[0]]).toBe(auth[1])
    expect(s.headers["content-type"]).toMatch(/^application\/json/)
    const m = received(id, s)
    expect(m.to).toBe(TO)
    expect(m.subject).toBe("Sign in to 127.0.0.1:3000")
    expect(m.text).toContain(LINK)
    expect(m.html).toContain(LINK.replace(/&/g, "&amp;"))
    expect(m.html).toContain("#123456")
    if (id === "sendgrid") expect(m.from).toEqual({ email: "login@example.test", name: "Example" })
    else expect(m.from).toBe("Example <login@example.test>")
  })

  it("works with an unresolved provider object too (options not yet merged)", async () => {
    const p = make(options())
    const before = fake.seen.length
    await p.sendVerificationRequest(params(p))
    expect(fake.seen.length).toBe(before + 1)
    expect(received(id, fake.last()).to).toBe(TO)
  })

  it.each([
    [401, { wrongKey: true }],
    [422, { forced: true }],
    [500, { forced: true }],
  ] as const)(
    "a %i answer throws EmailSignInError naming the provider, the status and the API's error text, never the key",
    async (status, how) => {
      const opts = "wrongKey" in how ? { ...options(), apiKey: "not-the-key-XYZ" } : options()
      if ("forced" in how)
        fake.forced = {
          status,
          body: {
            statusCode: status,
            name: "test_error",
            message: `fake says ${status}`,
            ErrorCode: status,
            Message: `fake says ${status}`,
            errors: [{ message: `fake says ${status}` }],
          },
        }
      const error = await sendError(resolved(make, opts))
      expect(error).toBeInstanceOf(EmailSignInError)
      const message = (error as Error).message
      expect(message).toContain(name)
      expect(message).toContain(`HTTP ${status}`)
      if (status === 401) expect(message).toMatch(/invalid|revoked/i)
      else expect(message).toContain(`fake says ${status}`)
      expect(message).not.toContain(KEY)
      expect(message).not.toContain("not-the-key-XYZ")
      expect(message).not.toContain("f".repeat(64))
    },
  )

  it("an API that echoes the credentials in its error text has them redacted", async () => {
    fake.forced = {
      status: 403,
      body: { message: `key ${KEY} / Basic ${Buffer.from(`${KEY}:`).toString("base64")} is not allowed` },
    }
    const error = await sendError(resolved(make, options()))
    expect((error as Error).message).toContain("HTTP 403")
    expect((error as Error).message).toContain("[redacted]")
    expect((error as Error).message).not.toContain(KEY)
    expect((error as Error).message).not.toContain(Buffer.from(`${KEY}:`).toString("base64"))
  })

  it("without an API key it throws before any request, naming the option and the env variable", async () => {
    const before = fake.seen.length
    const p = resolved(make, { [customFetch]: fake.fetchFor(origin) })
    const error = await sendError(p)
    expect(error).toBeInstanceOf(EmailSignInError)
    expect((error as Error).message).toMatch(new RegExp(`apiKey.*AUTH_${id.toUpperCase()}_KEY`))
    expect(fake.seen.length).toBe(before)
  })

  it("an unreachable API throws EmailSignInError, not a raw network error", async () => {
    const closed = createServer()
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((r) => closed.close(() => r()))
    const p = resolved(make, {
      ...options(),
      [customFetch]: (input: RequestInfo | URL, init?: RequestInit) =>
        fetch(`http://127.0.0.1:${port}${new URL(String(input)).pathname}`, init),
    })
    const error = await sendError(p)
    expect(error).toBeInstanceOf(EmailSignInError)
    expect((error as Error).message).toMatch(new RegExp(`^${name} could not be reached`))
  })

  it("a user's sendVerificationRequest replaces the default one", async () => {
    const calls: string[] = []
    const p = resolved(make, { ...options(), sendVerificationRequest: ({ identifier }) => void calls.push(identifier) })
    const before = fake.seen.length
    await p.sendVerificationRequest(params(p))
    expect(calls).toEqual([TO])
    expect(fake.seen.length).toBe(before)
  })

  it("EM-08 a hostile identifier is never rendered into the mail: the body has no markup from it", async () => {
    const hostile = `a@x.test, <a href=//evil.test>click</a>`
    await resolved(make, options()).sendVerificationRequest(params(resolved(make, options()), { identifier: hostile }))
    const m = received(id, fake.last())
    expect(m.html).not.toContain("evil.test")
    expect(m.text).not.toContain("evil.test")
  })
})

describe("defaultMessage", () => {
  const url = "https://app.example.test/auth/callback/email?token=abc&email=a%40b.test"

  it("has the subject, the link in both parts, and the theme colours on the button", () => {
    const m = defaultMessage({
      url,
      host: "app.example.test",
      theme: { brandColor: "#ff5500", buttonText: "rgb(1, 2, 3)" },
    })
    expect(m.subject).toBe("Sign in to app.example.test")
    expect(m.text).toContain(url)
    expect(m.html).toContain(`href="${url.replace(/&/g, "&amp;")}"`)
    expect(m.html).toMatch(/bgcolor="#ff5500"/)
    expect(m.html).toMatch(/color:rgb\(1, 2, 3\)[^"]*">Sign in<\/a>/)
    // the host's dots are broken so clients do not auto-link it
    expect(m.html).toContain("app&#8203;.example&#8203;.test")
  })

  it("uses default colours without a theme, and says when the link expires", () => {
    const m = defaultMessage({ url, host: "h.test", expires: new Date(Date.now() + 86400_000) })
    expect(m.html).toContain('bgcolor="#346df1"')
    expect(m.text).toContain("expires in 24 hours")
    expect(defaultMessage({ url, host: "h.test", expires: new Date(Date.now() + 15 * 60_000) }).html).toContain(
      "expires in 15 minutes",
    )
  })

  it("escapes a hostile host and URL in the HTML part", () => {
    const m = defaultMessage({
      url: `https://x.test/cb?a="><script>alert(1)</script>`,
      host: `evil.test"><img src=x onerror=alert(1)>`,
    })
    expect(m.html).not.toMatch(/<script|<img|onerror=alert\(1\)>/)
    expect(m.html).toContain("&lt;script&gt;")
    expect(m.html).toContain("&quot;&gt;&lt;img")
  })

  it("refuses a theme colour that is not a colour (no url() or extra CSS gets into the mail)", () => {
    const m = defaultMessage({
      url,
      host: "h.test",
      theme: { brandColor: "red;background:url(https://tracker.test/p.gif)", buttonText: '#fff" onclick="x' },
    })
    expect(m.html).not.toContain("tracker.test")
    expect(m.html).not.toContain("onclick")
    expect(m.html).toContain('bgcolor="#346df1"')
  })

  it("has no remote resources: every link in the HTML is the sign-in URL, no images, no CSS url()", () => {
    const m = defaultMessage({ url, host: "app.example.test", theme: { brandColor: "#000" } })
    expect(m.html).not.toMatch(/<img|<script|<link|<iframe|url\(|@import|src=/i)
    const hrefs = [...m.html.matchAll(/href="([^"]*)"/g)].map((x) => x[1])
    expect(hrefs.length).toBeGreaterThan(0)
    for (const h of hrefs) expect(h).toBe(url.replace(/&/g, "&amp;"))
  })

  it("keeps line breaks out of the subject", () => {
    expect(defaultMessage({ url, host: "a.test\r\nBcc: x@evil.test" }).subject).toBe(
      "Sign in to a.testBcc: x@evil.test",
    )
  })
})

// The e-mail flow (docs/wire-format.md §8.1) end to end with each mail API.
describe("end to end through Auth() with the memory adapter", () => {
  const config = (fake: FakeApi, origin: string, make: Factory, logger = spyLogger().logger): AuthConfig => ({
    secret: SECRET,
    logger,
    trustHost: true,
    trustedOrigins: [ORIGIN], // the configured origin mailed links are built from
    basePath: "/auth",
    adapter: MemoryAdapter(),
    providers: [make({ apiKey: KEY, from: "login@example.test", [customFetch]: fake.fetchFor(origin) })],
  })

  it.each(cases)(
    "$name: the link in the mail the API received signs the user in",
    async ({ id, make, fake, origin }) => {
      const cfg = config(fake, origin, make)
      const jar = new CookieJar()
      const csrfToken = await fetchCsrf(cfg, jar)
      const before = fake.seen.length
      const res = await Auth(
        postForm(
          `/auth/signin/${id}`,
          { csrfToken, email: `Bob.${id}@Example.test`, callbackUrl: `${ORIGIN}/dashboard` },
          { cookie: jar.header() },
        ),
        cfg,
      )
      jar.store(res)
      expect(res.status).toBe(302)
      expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/verify-request?provider=${id}&type=email`)
      expect(fake.seen.length).toBe(before + 1)
      const mail = received(id, fake.last())
      expect(mail.to).toBe(`bob.${id}@example.test`)
      const link = /https?:\/\/\S+/.exec(String(mail.text))?.[0]
      expect(link).toMatch(new RegExp(`^${ORIGIN}/auth/callback/${id}\\?`))
      const click = await Auth(
        get(new URL(link as string).pathname + new URL(link as string).search, { cookie: jar.header() }),
        cfg,
      )
      jar.store(click)
      expect(click.status).toBe(302)
      expect(click.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
      const session = (await (await Auth(get("/auth/session", { cookie: jar.header() }), cfg)).json()) as {
        user?: { email?: string }
      }
      expect(session.user?.email).toBe(`bob.${id}@example.test`)
    },
  )

  it.each(cases)(
    "$name: an API error sends the user back to the sign-in page with error=EmailSignin, logged without the key",
    async ({ id, name, make, fake, origin }) => {
      const log = spyLogger()
      const cfg = config(fake, origin, make, log.logger)
      const jar = new CookieJar()
      const csrfToken = await fetchCsrf(cfg, jar)
      fake.forced = { status: 500, body: { message: "upstream down" } }
      const res = await Auth(
        postForm(`/auth/signin/${id}`, { csrfToken, email: `carol.${id}@example.test` }, { cookie: jar.header() }),
        cfg,
      )
      expect(res.status).toBe(302)
      expect(new URL(res.headers.get("location") ?? "").searchParams.get("error")).toBe("EmailSignin")
      expect(new URL(res.headers.get("location") ?? "").pathname).toBe("/auth/signin")
      expect(log.text()).toContain(`${name} refused the sign-in e-mail with HTTP 500`)
      expect(log.text()).toContain("upstream down")
      expect(log.text()).not.toContain(KEY)
    },
  )
})
