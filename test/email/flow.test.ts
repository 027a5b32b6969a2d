// E-mail sign-in behaviour beyond the security cases: address case, failed sends, secret rotation, the signIn
// callback, events, the adapter requirement per config, the provider constructors and the pages.
import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import type { Adapter, AuthConfig } from "../../src/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Email from "../../src/providers/email.js"
import Nodemailer from "../../src/providers/nodemailer.js"
import { expectNoSessionCookie, sessionTokenFrom } from "../support/cookies.js"
import { get, postForm } from "../support/flow-kit.js"
import {
  CookieJar,
  ERROR_VERIFICATION,
  NO_RATE_LIMIT,
  ORIGIN,
  SECRET,
  SIGNIN_EMAIL_ERROR,
  click,
  emailSetup,
  expectVerifyRequest,
  requestLink,
  sessionOf,
  storedTokens,
} from "./kit.js"

const OLD_SECRET = "an-older-secret-that-is-at-least-32-chars"

async function linkFor(setup: ReturnType<typeof emailSetup>, email: string, callbackUrl?: string): Promise<URL> {
  const res = await requestLink(setup.config, email, callbackUrl ? { callbackUrl } : {})
  expectVerifyRequest(res)
  return new URL(setup.sent.at(-1)!.url)
}

describe("e-mail sign-in", () => {
  it("an upper-case address reaches the existing user; with allowDangerousEmailAccountLinking an unproven address is set once (updateUser event)", async () => {
    const inner = MemoryAdapter()
    await inner.createUser!({ id: "u-alice", email: "alice@example.com", emailVerified: null, name: "Alice" })
    const events: string[] = []
    const setup = emailSetup(
      {
        session: { strategy: "database" },
        events: { updateUser: () => void events.push("updateUser"), createUser: () => void events.push("createUser") },
      },
      inner,
      { allowDangerousEmailAccountLinking: true },
    )
    const link = await linkFor(setup, "ALICE@Example.COM")
    expect(link.searchParams.get("email")).toBe("alice@example.com")
    const jar = new CookieJar()
    expect((await click(setup.config, link, jar)).headers.get("location")).toBe(ORIGIN)
    expect((await sessionOf(setup.config, jar))?.user?.email).toBe("alice@example.com")
    expect(inner.users.size).toBe(1)
    const verified = inner.users.get("u-alice")!.emailVerified
    expect(verified).toBeInstanceOf(Date)
    expect(events).toEqual(["updateUser"])
    // Signing in again leaves a proven address alone.
    await click(setup.config, await linkFor(setup, "alice@example.com"))
    expect(inner.users.get("u-alice")!.emailVerified).toEqual(verified)
    expect(events).toEqual(["updateUser"])
  })

  it("a first sign-in creates the user with emailVerified, fires createUser and signIn { isNewUser: true }, links no account", async () => {
    const inner = MemoryAdapter()
    const signIns: Record<string, unknown>[] = []
    const setup = emailSetup({ events: { signIn: (m) => void signIns.push(m as Record<string, unknown>) } }, inner)
    await click(setup.config, await linkFor(setup, "new@example.com"))
    const [user] = [...inner.users.values()]
    expect(user?.email).toBe("new@example.com")
    expect(user?.emailVerified).toBeInstanceOf(Date)
    expect(inner.accounts.size).toBe(0)
    expect(signIns[0]?.isNewUser).toBe(true)
    expect(signIns[0]?.account).toMatchObject({
      type: "email",
      provider: "email",
      providerAccountId: "new@example.com",
    })
  })

  it("a failed send is EmailSignin on the sign-in page and leaves no token row", async () => {
    const inner = MemoryAdapter()
    const setup = emailSetup({}, inner, { fail: true })
    const res = await requestLink(setup.config, "alice@example.com")
    expect(res.headers.get("location")).toBe(SIGNIN_EMAIL_ERROR)
    expect(storedTokens(setup.adapter)).toHaveLength(1)
    expect(inner.verificationTokens.size).toBe(0)
    const page = await Auth(get("/auth/signin?error=EmailSignin"), setup.config)
    expect(await page.text()).toContain("The sign-in e-mail could not be sent")
  })

  it("a link minted before a secret rotation still works after it; new links use the newest secret", async () => {
    const inner = MemoryAdapter()
    const before = emailSetup({ secret: OLD_SECRET }, inner)
    const oldLink = await linkFor(before, "alice@example.com")
    const after = emailSetup({ secret: [SECRET, OLD_SECRET] }, inner)
    const jar = new CookieJar()
    expect((await click(after.config, oldLink, jar)).headers.get("location")).toBe(ORIGIN)
    expect((await sessionOf(after.config, jar))?.user?.email).toBe("alice@example.com")
    const newLink = await linkFor(after, "bob@example.com")
    const token = newLink.searchParams.get("token")!
    expect(storedTokens(after.adapter)[0]!.token).toBe(createHash("sha256").update(`${token}${SECRET}`).digest("hex"))
    // A link whose secret was dropped from the list no longer works.
    const dropped = emailSetup({ secret: SECRET }, inner)
    const stale = await linkFor(before, "carol@example.com")
    expect((await click(dropped.config, stale)).headers.get("location")).toBe(ERROR_VERIFICATION)
  })

  it("a row an Auth.js app stored with an array secret (comma-joined) is accepted", async () => {
    const inner = MemoryAdapter()
    const setup = emailSetup({ secret: [SECRET, OLD_SECRET] }, inner)
    const token = "f".repeat(64)
    await inner.createVerificationToken!({
      identifier: "alice@example.com",
      token: createHash("sha256").update(`${token}${SECRET},${OLD_SECRET}`).digest("hex"),
      expires: new Date(Date.now() + 60_000),
    })
    const link = `/auth/callback/email?${new URLSearchParams({ callbackUrl: ORIGIN, token, email: "alice@example.com" })}`
    expect((await click(setup.config, link)).headers.get("location")).toBe(ORIGIN)
  })

  it("the signIn callback sees the request ({ verificationRequest: true }) and the click; a refusal stores and sends nothing", async () => {
    const calls: Record<string, unknown>[] = []
    let allow = false
    const setup = emailSetup({ callbacks: { signIn: (p) => (calls.push(p as Record<string, unknown>), allow) } })
    const res = await requestLink(setup.config, "alice@example.com")
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=AccessDenied`)
    expect(setup.sent).toHaveLength(0)
    expect(storedTokens(setup.adapter)).toHaveLength(0)
    expect(calls[0]).toMatchObject({
      user: { email: "alice@example.com" },
      account: { providerAccountId: "alice@example.com", type: "email", provider: "email" },
      email: { verificationRequest: true },
    })
    allow = true
    const link = await linkFor(setup, "alice@example.com")
    allow = false
    const refused = await click(setup.config, link)
    expect(refused.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=AccessDenied`)
    expectNoSessionCookie(refused)
    expect(calls.at(-1)).not.toHaveProperty("email")
  })

  it("a signIn callback returning a path redirects there without sending", async () => {
    const setup = emailSetup({ callbacks: { signIn: () => "/waitlist" } })
    const res = await requestLink(setup.config, "alice@example.com")
    expect(res.headers.get("location")).toBe(`${ORIGIN}/waitlist`)
    expect(setup.sent).toHaveLength(0)
  })

  it("sendVerificationRequest gets identifier, url, expires, token, provider, theme and the request", async () => {
    const setup = emailSetup({ theme: { brandColor: "#123456" } })
    await linkFor(setup, "alice@example.com", "/after")
    const p = setup.sent[0]!
    expect(p.identifier).toBe("alice@example.com")
    expect(p.url).toBe(
      `${ORIGIN}/auth/callback/email?${new URLSearchParams({ callbackUrl: `${ORIGIN}/after`, token: p.token, email: "alice@example.com" })}`,
    )
    expect(p.expires.valueOf() - Date.now()).toBeGreaterThan(86_390_000)
    expect(p.provider.id).toBe("email")
    expect(p.theme.brandColor).toBe("#123456")
    expect(p.request).toBeInstanceOf(Request)
    expect(p.request.url).toBe(`${ORIGIN}/auth/signin/email`)
  })

  it("a link whose callbackUrl was changed to another site lands on the app's origin", async () => {
    const setup = emailSetup()
    const link = await linkFor(setup, "alice@example.com")
    link.searchParams.set("callbackUrl", "https://evil.example/steal")
    expect((await click(setup.config, link)).headers.get("location")).toBe(ORIGIN)
  })

  it("a HEAD request (link checker) does not spend the link", async () => {
    const setup = emailSetup()
    const link = await linkFor(setup, "alice@example.com")
    const head = await Auth(new Request(link, { method: "HEAD" }), setup.config)
    expect(head.status).toBe(405)
    expect((await click(setup.config, link)).headers.get("location")).toBe(ORIGIN)
  })

  it("a link without token or e-mail is Verification", async () => {
    const setup = emailSetup()
    for (const path of [
      "/auth/callback/email",
      "/auth/callback/email?email=a%40x.test",
      `/auth/callback/email?token=${"a".repeat(64)}`,
    ]) {
      expect((await click(setup.config, path)).headers.get("location")).toBe(ERROR_VERIFICATION)
    }
  })

  it("the click replaces the browser's session with the mailbox owner's (database sessions)", async () => {
    const inner = MemoryAdapter()
    const setup = emailSetup({ session: { strategy: "database" } }, inner)
    const jar = new CookieJar()
    await click(setup.config, await linkFor(setup, "first@example.com"), jar)
    const firstToken = [...inner.sessions.keys()][0]
    const res = await click(setup.config, await linkFor(setup, "second@example.com"), jar)
    expect(sessionTokenFrom(res)).toBeTruthy()
    expect((await sessionOf(setup.config, jar))?.user?.email).toBe("second@example.com")
    expect(inner.sessions.has(firstToken!)).toBe(false)
  })
})

describe("e-mail provider configuration", () => {
  const quietLogger = (errors: unknown[]) => ({
    error: (e: Error) => void errors.push(e),
    warn: () => {},
    debug: () => {},
  })

  it("an e-mail provider without an adapter is MissingAdapter for that config only, not for later configs", async () => {
    const errors: unknown[] = []
    const broken: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      basePath: "/auth",
      providers: [Email({ sendVerificationRequest: () => {} })],
      logger: quietLogger(errors),
      ...NO_RATE_LIMIT,
    }
    const page = await Auth(get("/auth/signin"), broken)
    expect(page.status).toBe(500)
    const post = await Auth(postForm("/auth/signin/email", { email: "a@x.test" }), broken)
    expect(post.status).toBe(500)
    expect((errors[0] as { type?: string }).type).toBe("MissingAdapter")
    // Another config in the same process, without an e-mail provider and without an adapter, is fine.
    const plain: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      basePath: "/auth",
      providers: [],
      logger: quietLogger([]),
    }
    expect((await Auth(get("/auth/signin"), plain)).status).toBe(200)
    // And one with an adapter works.
    const ok = emailSetup()
    expectVerifyRequest(await requestLink(ok.config, "a@x.test"))
  })

  it("an adapter without the verification-token methods is MissingAdapterMethods, naming them", async () => {
    const errors: unknown[] = []
    const { createVerificationToken: _c, useVerificationToken: _u, ...partial } = MemoryAdapter()
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      basePath: "/auth",
      adapter: partial as Adapter,
      providers: [Email({ sendVerificationRequest: () => {} })],
      logger: quietLogger(errors),
    }
    expect((await Auth(get("/auth/signin"), config)).status).toBe(500)
    expect((errors[0] as { type?: string }).type).toBe("MissingAdapterMethods")
    expect(String((errors[0] as Error).message)).toContain("createVerificationToken, useVerificationToken")
  })

  it("Email() needs sendVerificationRequest (or server); Nodemailer() needs server", () => {
    expect(() => Email({})).toThrow(/sendVerificationRequest/)
    expect(() => Nodemailer({})).toThrow(/server/)
    expect(Nodemailer({ server: "smtp://127.0.0.1:2525" })).toMatchObject({
      id: "nodemailer",
      type: "email",
      name: "Nodemailer",
    })
    expect(Email({ server: "smtp://127.0.0.1:2525" })).toMatchObject({ id: "email", type: "email", name: "Email" })
    expect(Email({ id: "magic", sendVerificationRequest: () => {} }).options).toMatchObject({ id: "magic" })
  })

  it("a custom id from options routes /signin/<id> and /callback/<id>", async () => {
    const setup = emailSetup({}, MemoryAdapter(), { id: "magic" })
    const res = await requestLink(setup.config, "alice@example.com", { providerId: "magic" })
    expectVerifyRequest(res, "magic")
    const link = new URL(setup.sent[0]!.url)
    expect(link.pathname).toBe("/auth/callback/magic")
    expect((await click(setup.config, link)).headers.get("location")).toBe(ORIGIN)
  })
})

describe("e-mail pages", () => {
  it("the sign-in page shows the e-mail form posting to /signin/<id>", async () => {
    const setup = emailSetup()
    const html = await (await Auth(get("/auth/signin"), setup.config)).text()
    expect(html).toContain(`action="${ORIGIN}/auth/signin/email"`)
    expect(html).toContain(
      '<label for="input-email-for-email">Email</label><input id="input-email-for-email" name="email" type="email" placeholder="you@example.com" autocomplete="email" required data-identifier>',
    )
    expect(html).toContain('name="csrfToken"')
  })

  it("the verify-request page renders", async () => {
    const setup = emailSetup()
    const res = await Auth(get("/auth/verify-request?provider=email&type=email"), setup.config)
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toContain("text/html")
    expect(await res.text()).toContain("Check your email")
  })

  it("EmailSignin, Verification and RateLimited have readable banners", async () => {
    const setup = emailSetup()
    for (const [code, text] of [
      ["EmailSignin", "could not be sent"],
      ["Verification", "no longer valid"],
      ["RateLimited", "Too many sign-in attempts"],
    ]) {
      const html = await (await Auth(get(`/auth/signin?error=${code}`), setup.config)).text()
      expect(html, code).toContain(text)
    }
  })
})
