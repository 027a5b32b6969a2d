// The e-mail magic-link cases of docs/security.md (EM-01 … EM-10, DB-04), each test named by its id.
import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { pgliteBackend } from "../support/db-harness.js"
import { expectNoSessionCookie, sessionTokenFrom } from "../support/cookies.js"
import { get } from "../support/flow-kit.js"
import {
  CookieJar,
  ERROR_VERIFICATION,
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

/** Requests a link for `email` and returns the URL the provider was asked to send. */
async function linkFor(setup: ReturnType<typeof emailSetup>, email: string): Promise<URL> {
  const res = await requestLink(setup.config, email)
  expectVerifyRequest(res)
  const sent = setup.sent.at(-1)
  if (!sent) throw new Error("nothing sent")
  return new URL(sent.url)
}

describe("e-mail magic links: security cases", () => {
  it("EM-01 a second click on a used link is Verification; one session in total", async () => {
    const setup = emailSetup({ session: { strategy: "database" } })
    const link = await linkFor(setup, "alice@example.com")
    const first = await click(setup.config, link)
    expect(first.status).toBe(302)
    expect(first.headers.get("location")).toBe(ORIGIN)
    expect(sessionTokenFrom(first)).toBeTruthy()
    const second = await click(setup.config, link)
    expect(second.headers.get("location")).toBe(ERROR_VERIFICATION)
    expectNoSessionCookie(second)
    expect(setup.adapter.methods().filter((m) => m === "createSession")).toHaveLength(1)
    const page = await Auth(get("/auth/error?error=Verification"), setup.config)
    expect(page.status).toBe(403)
    expect(await page.text()).toContain("no longer valid")
  })

  for (const engine of ["memory", "PGlite"] as const) {
    it(`EM-02 100 concurrent clicks on one link give exactly one session (${engine})`, async () => {
      const backend = engine === "PGlite" ? await pgliteBackend() : undefined
      const inner = backend ? await backend.fresh() : MemoryAdapter()
      try {
        const setup = emailSetup({ session: { strategy: "database" } }, inner)
        const link = await linkFor(setup, "race@example.com")
        const answers = await Promise.all(Array.from({ length: 100 }, () => click(setup.config, link)))
        const signedIn = answers.filter((r) => sessionTokenFrom(r))
        expect(signedIn).toHaveLength(1)
        expect(answers.filter((r) => r.headers.get("location") === ERROR_VERIFICATION)).toHaveLength(99)
        expect(setup.adapter.methods().filter((m) => m === "createSession")).toHaveLength(1)
        expect(setup.adapter.methods().filter((m) => m === "createUser")).toHaveLength(1)
      } finally {
        await backend?.close()
      }
    }, 60_000)
  }

  it("EM-03 a valid token with another address is Verification, and the token stays usable by its owner", async () => {
    const setup = emailSetup()
    const link = await linkFor(setup, "alice@example.com")
    const forged = new URL(link)
    forged.searchParams.set("email", "mallory@example.com")
    const res = await click(setup.config, forged)
    expect(res.headers.get("location")).toBe(ERROR_VERIFICATION)
    expectNoSessionCookie(res)
    const jar = new CookieJar()
    expect((await click(setup.config, link, jar)).headers.get("location")).toBe(ORIGIN)
    expect((await sessionOf(setup.config, jar))?.user?.email).toBe("alice@example.com")
  })

  it("EM-04 a link one second past its lifetime is Verification, and its row is deleted", async () => {
    const inner = MemoryAdapter()
    const setup = emailSetup({}, inner, { maxAge: 60 })
    const link = await linkFor(setup, "late@example.com")
    const [row] = storedTokens(setup.adapter)
    expect(row!.expires.valueOf() - Date.now()).toBeGreaterThan(55_000)
    // Age the stored row to one second past its expiry.
    const stored = [...inner.verificationTokens.values()][0]!
    stored.expires = new Date(Date.now() - 1000)
    const res = await click(setup.config, link)
    expect(res.headers.get("location")).toBe(ERROR_VERIFICATION)
    expectNoSessionCookie(res)
    expect(inner.verificationTokens.size).toBe(0)
    expect(inner.users.size).toBe(0)
  })

  it("EM-05 the row holds SHA-256(token + secret), not the token; a link rebuilt from the row fails; tokens have 256 random bits", async () => {
    const setup = emailSetup()
    const link = await linkFor(setup, "alice@example.com")
    const token = link.searchParams.get("token")!
    const [row] = storedTokens(setup.adapter)
    expect(row!.token).toBe(createHash("sha256").update(`${token}${SECRET}`).digest("hex"))
    expect(row!.token).not.toContain(token)
    expect(token).toMatch(/^[0-9a-f]{64}$/)
    const rebuilt = new URL(link)
    rebuilt.searchParams.set("token", row!.token)
    expect((await click(setup.config, rebuilt)).headers.get("location")).toBe(ERROR_VERIFICATION)
    // Distinct tokens each time: no counter or time-based value.
    const tokens = new Set<string>()
    for (let i = 0; i < 20; i++) tokens.add((await linkFor(setup, `u${i}@example.com`)).searchParams.get("token")!)
    expect(tokens.size).toBe(20)
  })

  const tricks = [
    "a@x.test,b@y.test",
    "a@x.test b@y.test",
    "a@x.test;b@y.test",
    '"a@evil.test"@victim.test',
    "a@evil.test(c)",
    "N <a@evil.test>",
    "g: a@evil.test;",
    "a@evil.test\r\nBcc: b@evil.test",
    "a@b@c.test",
    "@x.test",
    "a@",
    "a@x..test",
    "a@[127.0.0.1]",
    "a\\@x.test",
    "a%b@x.test",
  ]
  for (const address of tricks) {
    it(`EM-06 ${JSON.stringify(address)} is refused: EmailSignin, no mail, no row`, async () => {
      const setup = emailSetup()
      const res = await requestLink(setup.config, address)
      expect(res.status).toBe(302)
      expect(res.headers.get("location")).toBe(SIGNIN_EMAIL_ERROR)
      expect(setup.sent).toHaveLength(0)
      expect(storedTokens(setup.adapter)).toHaveLength(0)
    })
  }

  it("EM-06 the accepted form is the one address the mailer gets, and the one the row and link carry", async () => {
    const setup = emailSetup()
    await linkFor(setup, "  Alice.Smith+Tag@Example.COM ")
    expect(setup.sent[0]!.identifier).toBe("alice.smith+tag@example.com")
    expect(new URL(setup.sent[0]!.url).searchParams.get("email")).toBe("alice.smith+tag@example.com")
    expect(storedTokens(setup.adapter)[0]!.identifier).toBe("alice.smith+tag@example.com")
  })

  it("EM-07 a full-width or small @ becomes ASCII by NFKC, and the mail goes to that one address", async () => {
    for (const [input, expected] of [
      ["victim\uFF20x.test", "victim@x.test"],
      ["victim\uFE6Bx.test", "victim@x.test"],
      ["ＡＢＣ@x.test", "abc@x.test"],
    ] as const) {
      const setup = emailSetup()
      await linkFor(setup, input)
      expect(setup.sent[0]!.identifier).toBe(expected)
    }
  })

  for (const [name, address] of [
    ["zero-width space", "vic\u200Btim@x.test"],
    ["zero-width joiner", "victim@x\u200D.test"],
    ["right-to-left override", "victim@\u202Etset.x"],
    ["left-to-right mark", "\u200Evictim@x.test"],
    ["word joiner", "victim\u2060@x.test"],
    ["byte-order mark", "\uFEFFvictim@x.test"],
    ["NUL", "victim\u0000@x.test"],
    ["two @ after NFKC", "a\uFF20b@x.test"],
  ] as const) {
    it(`EM-07 ${name} in the address is refused: no mail, no row`, async () => {
      const setup = emailSetup()
      const res = await requestLink(setup.config, address)
      expect(res.headers.get("location")).toBe(SIGNIN_EMAIL_ERROR)
      expect(setup.sent).toHaveLength(0)
      expect(storedTokens(setup.adapter)).toHaveLength(0)
    })
  }

  it("EM-08 HTML in the identifier is refused before any mail is built", async () => {
    for (const address of [
      "a@x.test, <a href=//evil>click</a>",
      "<script>@x.test",
      "a@x.test<img src=x>",
      'a"onmouseover="x@x.test',
    ]) {
      const setup = emailSetup()
      const res = await requestLink(setup.config, address)
      expect(res.headers.get("location")).toBe(SIGNIN_EMAIL_ERROR)
      expect(setup.sent).toHaveLength(0)
    }
  })

  it("EM-09 an OAuth state, a CSRF token or another address's token used as the link token is Verification", async () => {
    const setup = emailSetup()
    const jar = new CookieJar()
    const csrf = (await (await Auth(get("/auth/csrf", { cookie: jar.header() }), setup.config)).json()) as {
      csrfToken: string
    }
    const link = await linkFor(setup, "alice@example.com")
    const other = await linkFor(setup, "bob@example.com")
    for (const token of [
      csrf.csrfToken,
      csrf.csrfToken.split("|")[0]!,
      "state-from-an-oauth-flow",
      other.searchParams.get("token")!,
      "",
    ]) {
      const forged = new URL(link)
      forged.searchParams.set("token", token)
      const res = await click(setup.config, forged)
      expect(res.headers.get("location")).toBe(ERROR_VERIFICATION)
      expectNoSessionCookie(res)
    }
    // Neither real link was spent by the forgeries.
    expect((await click(setup.config, link)).headers.get("location")).toBe(ORIGIN)
    expect((await click(setup.config, other)).headers.get("location")).toBe(ORIGIN)
  })

  it("DB-04 useVerificationToken throws after deleting the row: Verification, no session; a new link works", async () => {
    const setup = emailSetup({ session: { strategy: "database" } })
    const link = await linkFor(setup, "alice@example.com")
    setup.adapter.faults.set("useVerificationToken", {
      kind: "result",
      value: () => {
        throw new Error("connection reset after DELETE")
      },
    })
    const res = await click(setup.config, link)
    expect(res.headers.get("location")).toBe(ERROR_VERIFICATION)
    expectNoSessionCookie(res)
    expect(setup.adapter.methods()).not.toContain("createSession")
    setup.adapter.heal()
    expect((await click(setup.config, link)).headers.get("location")).toBe(ERROR_VERIFICATION)
    const fresh = await linkFor(setup, "alice@example.com")
    const ok = await click(setup.config, fresh)
    expect(ok.headers.get("location")).toBe(ORIGIN)
    expect(sessionTokenFrom(ok)).toBeTruthy()
  })

  it("EM-10 a link sign-in into an account someone pre-registered with a password (address never proven) is refused: AccountNotLinked, no session, nothing changed", async () => {
    const inner = MemoryAdapter()
    // What a credentials sign-in leaves behind (the credentials rule of src/account/link.ts): a user whose address was
    // typed, never proven, and a credentials account row.
    await inner.createUser!({ id: "u-pre", email: "victim@example.com", emailVerified: null, name: "Pre-registered" })
    await inner.linkAccount!({
      userId: "u-pre",
      type: "credentials" as never,
      provider: "credentials",
      providerAccountId: "u-pre",
    })
    const setup = emailSetup({ session: { strategy: "database" } }, inner)
    const res = await click(setup.config, await linkFor(setup, "victim@example.com"))
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=AccountNotLinked`)
    expectNoSessionCookie(res)
    expect(inner.sessions.size).toBe(0)
    expect(inner.users.get("u-pre")?.emailVerified).toBeNull()
    expect(inner.users.size).toBe(1)

    // An address proven before (an earlier link, or a verifying IdP) signs in as usual.
    await inner.updateUser!({ id: "u-pre", emailVerified: new Date() })
    const proven = await click(setup.config, await linkFor(setup, "victim@example.com"))
    expect(sessionTokenFrom(proven)).toBeTruthy()

    // The Auth.js behaviour, opted into per provider: the link proves the address and signs in.
    const optIn = MemoryAdapter()
    await optIn.createUser!({ id: "u-pre", email: "victim@example.com", emailVerified: null, name: "Pre-registered" })
    const trusting = emailSetup({ session: { strategy: "database" } }, optIn, {
      allowDangerousEmailAccountLinking: true,
    })
    const trusted = await click(trusting.config, await linkFor(trusting, "victim@example.com"))
    expect(sessionTokenFrom(trusted)).toBeTruthy()
    expect(optIn.users.get("u-pre")?.emailVerified).toBeInstanceOf(Date)
  })
})
