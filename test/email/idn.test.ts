// EM-12: one IDN mailbox is one mailbox. Its Unicode and punycode spellings share one rate-limit count, one token
// identifier and one user; a user Auth.js stored under the Unicode spelling keeps its account.
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { CookieJar, ORIGIN, click, emailSetup, requestLink, sessionOf, storedTokens } from "./kit.js"

const UNICODE = "victim@bücher.example"
const PUNYCODE = "victim@xn--bcher-kva.example"
const VERIFY_REQUEST = `${ORIGIN}/auth/verify-request?provider=email&type=email`

describe("EM-12: an IDN mailbox in its Unicode and punycode spellings", () => {
  it("EM-12: alternating victim@bücher.example and victim@xn--bcher-kva.example stops at max (5) mails", async () => {
    const setup = emailSetup({ rateLimit: { max: 5, maxPerAddress: 100 } })
    const answers: (string | null)[] = []
    for (let i = 0; i < 10; i++)
      answers.push((await requestLink(setup.config, i % 2 ? PUNYCODE : UNICODE)).headers.get("location"))
    expect(answers.filter((a) => a === VERIFY_REQUEST)).toHaveLength(5)
    expect(answers.slice(5).every((a) => a === `${ORIGIN}/auth/signin?error=RateLimited`)).toBe(true)
    expect(setup.sent).toHaveLength(5)
    expect(new Set(setup.sent.map((s) => s.identifier))).toEqual(new Set([PUNYCODE]))
  })

  it("EM-12: both spellings sign into one user; every token row has the one punycode identifier", async () => {
    const adapter = MemoryAdapter()
    const setup = emailSetup({ session: { strategy: "database" } }, adapter)
    for (const spelling of [UNICODE, PUNYCODE, "Victim@BÜCHER.example", "VICTIM@XN--BCHER-KVA.EXAMPLE"]) {
      expect((await requestLink(setup.config, spelling)).headers.get("location")).toBe(VERIFY_REQUEST)
      const link = new URL(setup.sent.at(-1)!.url)
      expect(link.searchParams.get("email")).toBe(PUNYCODE)
      const jar = new CookieJar()
      expect((await click(setup.config, link, jar)).status).toBe(302)
      expect((await sessionOf(setup.config, jar))?.user?.email).toBe(PUNYCODE)
    }
    expect(adapter.users.size).toBe(1)
    expect([...adapter.users.values()][0]?.email).toBe(PUNYCODE)
    expect(new Set(storedTokens(setup.adapter).map((t) => t.identifier))).toEqual(new Set([PUNYCODE]))
  })

  it("EM-12: a user stored under the Unicode spelling (as Auth.js stores it) is found from either spelling; no second user", async () => {
    const adapter = MemoryAdapter()
    const legacy = await adapter.createUser!({
      id: "legacy-1",
      email: UNICODE,
      emailVerified: new Date("2024-01-01T00:00:00Z"),
    })
    const setup = emailSetup({ session: { strategy: "database" } }, adapter)
    for (const spelling of [PUNYCODE, UNICODE]) {
      await requestLink(setup.config, spelling)
      const jar = new CookieJar()
      expect((await click(setup.config, setup.sent.at(-1)!.url, jar)).status).toBe(302)
      const session = (await sessionOf(setup.config, jar)) as { user?: { email?: string | null; id?: string } } | null
      expect(session?.user?.email).toBe(UNICODE)
    }
    expect([...adapter.users.keys()]).toEqual([legacy.id])
    expect([...adapter.sessions.values()].every((s) => s.userId === legacy.id)).toBe(true)
    expect(adapter.sessions.size).toBe(2)
  })
})
