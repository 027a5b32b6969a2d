// E-mail sign-in end to end over real SMTP: Nodemailer sends to a local smtp-server, the test reads the link out of
// the text part and follows it, with JWT sessions and with database sessions on every adapter backend.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import type { AuthConfig } from "../../src/index.js"
import Nodemailer from "../../src/providers/nodemailer.js"
import { allBackends, type Backend, faulty } from "../support/db-harness.js"
import { mailHeaders, mailPart, signInLink, startSmtpSink, type SmtpSink } from "../support/smtp.js"
import {
  CookieJar,
  NO_RATE_LIMIT,
  ORIGIN,
  SECRET,
  click,
  expectVerifyRequest,
  requestLink,
  sessionOf,
  storedTokens,
} from "./kit.js"
import { get } from "../support/flow-kit.js"

let sink: SmtpSink
let backends: Backend[]

beforeAll(async () => {
  sink = await startSmtpSink()
  backends = await allBackends()
  // PGlite always runs; a real PostgreSQL joins when DATABASE_URL is set.
  expect(backends.map((b) => b.name)).toEqual(expect.arrayContaining(["memory", "postgres (PGlite)"]))
  if (process.env.DATABASE_URL) expect(backends.map((b) => b.name)).toContain("postgres (DATABASE_URL)")
})
afterAll(async () => {
  await sink.stop()
  for (const b of backends) await b.close()
})

function smtpConfig(adapter: AuthConfig["adapter"], strategy: "jwt" | "database"): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    trustedOrigins: [ORIGIN], // the configured origin the mailed links are built from
    basePath: "/auth",
    session: { strategy },
    adapter,
    providers: [Nodemailer({ server: sink.url, from: "App <login@app.test>" })],
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    ...NO_RATE_LIMIT,
  }
}

describe("e-mail sign-in over real SMTP", () => {
  for (const strategy of ["jwt", "database"] as const) {
    it(`the mailed link signs in (${strategy} sessions, every backend)`, async () => {
      for (const backend of backends) {
        const adapter = faulty(await backend.fresh())
        const config = smtpConfig(adapter, strategy)
        const before = sink.messages.length
        const res = await requestLink(config, "  Alice@Example.COM ", {
          providerId: "nodemailer",
          callbackUrl: "/dashboard",
        })
        expectVerifyRequest(res, "nodemailer")
        const mail = await sink.waitFor(before + 1)
        expect(mail.to, backend.name).toEqual(["alice@example.com"])
        expect(mail.from).toBe("login@app.test")
        expect(mailHeaders(mail).get("subject")).toBe("Sign in to localhost:3000")
        expect(mailPart(mail, "text/html")).toContain("Sign in")
        const link = signInLink(mail)
        expect(link.origin + link.pathname).toBe(`${ORIGIN}/auth/callback/nodemailer`)
        expect(link.searchParams.get("email")).toBe("alice@example.com")
        expect(link.searchParams.get("token")).toMatch(/^[0-9a-f]{64}$/)
        // Only the hash is stored (docs/security.md EM-05).
        const [row] = storedTokens(adapter)
        expect(row?.token).not.toBe(link.searchParams.get("token"))

        const jar = new CookieJar()
        const back = await click(config, link, jar)
        expect(back.status, backend.name).toBe(302)
        expect(back.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
        expect((await sessionOf(config, jar))?.user?.email).toBe("alice@example.com")
        const users = await backend.users()
        expect(users).toHaveLength(1)
        expect(users[0]?.emailVerified).toBeInstanceOf(Date)
        expect((await backend.counts()).sessions).toBe(strategy === "database" ? 1 : 0)
        expect((await backend.counts()).accounts).toBe(0)

        // A second sign-in of the same mailbox is the same user.
        const again = await requestLink(config, "alice@example.com", { providerId: "nodemailer" })
        expectVerifyRequest(again, "nodemailer")
        const second = await sink.waitFor(before + 2)
        const jar2 = new CookieJar()
        expect((await click(config, signInLink(second), jar2)).status).toBe(302)
        expect((await sessionOf(config, jar2))?.user?.email).toBe("alice@example.com")
        expect(await backend.users()).toHaveLength(1)
      }
    }, 60_000)
  }

  it("a refused recipient is EmailSignin on the sign-in page, and the token row is deleted", async () => {
    const backend = backends[0] as Backend
    const adapter = faulty(await backend.fresh())
    const config = smtpConfig(adapter, "database")
    sink.rejectRecipients = true
    try {
      const res = await requestLink(config, "bob@example.com", { providerId: "nodemailer" })
      expect(res.status).toBe(302)
      expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=EmailSignin`)
    } finally {
      sink.rejectRecipients = false
    }
    const [row] = storedTokens(adapter)
    expect(row).toBeDefined()
    expect(await adapter.inner.useVerificationToken?.({ identifier: row!.identifier, token: row!.token })).toBeNull()
    const page = await Auth(get("/auth/signin?error=EmailSignin"), config)
    expect(await page.text()).toContain("The sign-in e-mail could not be sent")
  })
})
