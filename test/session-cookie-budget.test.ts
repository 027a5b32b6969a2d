// session.cookieBudget (docs/guide.md "Cookie budget"): a JWT session cookie that passes the budget (4096 bytes per
// cookie, 8192 for the Cookie header by default) logs one "session-cookie-size" warning per config, naming the largest
// claims and never their values; nothing is dropped. Also the config checks of session.tokens and session.cookieBudget.
import { randomBytes } from "node:crypto"
import { describe, expect, it } from "vitest"
import { Auth, type AuthConfig } from "../src/index.js"
import { UnsupportedStrategy } from "../src/errors.js"
import { resolveConfig } from "../src/config/resolve.js"
import { CookieJar, get, makeConfig, signIn } from "./support/flow-kit.js"

const SESSION = "authjs.session-token"

interface Warned {
  code: string
  metadata: Record<string, unknown> | undefined
}

/** A credentials config whose jwt callback adds `claims` to the token, with a logger that keeps every call. */
function setup(claims: Record<string, unknown>, session: AuthConfig["session"] = {}) {
  const warnings: Warned[] = []
  const errors: Error[] = []
  const config = makeConfig({
    session,
    logger: {
      warn: (code: string, metadata?: Record<string, unknown>) => void warnings.push({ code, metadata }),
      error: (e: Error) => void errors.push(e),
      debug: () => {},
    },
    callbacks: {
      jwt: ({ token }) => ({ ...token, ...claims }),
      session: ({ session, token }) => ({ ...session, got: Object.keys(claims).map((k) => token[k]) }) as never,
    },
  })
  return { config, warnings, errors }
}

/** Random, incompressible text of `n` characters (JWE does not compress, but make sure nothing could). */
function blob(n: number): string {
  return randomBytes(Math.ceil(n / 2))
    .toString("hex")
    .slice(0, n)
}

function sessionCookieNames(res: Response): string[] {
  return res.headers
    .getSetCookie()
    .filter((c) => c.startsWith(SESSION) && !/Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(c))
    .map((c) => c.slice(0, c.indexOf("=")))
}

describe("session cookie budget", () => {
  it("a jwt callback that makes the cookie pass 4096 bytes: one warning with the sizes and the claim names, never the values; the session is whole", async () => {
    const big = blob(4000)
    const medium = blob(600)
    const { config, warnings, errors } = setup({ profileDump: big, groups: medium, role: "admin" })
    const { jar, res } = await signIn(config)
    expect(res.status).toBe(302)
    // Chunked, not cut: two cookies carry it.
    expect(sessionCookieNames(res)).toEqual([`${SESSION}.0`, `${SESSION}.1`])

    expect(warnings).toHaveLength(1)
    const [warning] = warnings
    expect(warning!.code).toBe("session-cookie-size")
    const meta = warning!.metadata as {
      cookieBytes: number
      headerBytes: number
      budget: { cookie: number; header: number }
      claims: { name: string; bytes: number }[]
    }
    expect(meta.budget).toEqual({ cookie: 4096, header: 8192 })
    expect(meta.cookieBytes).toBeGreaterThan(4096)
    // The bytes are what the browser sends back: both chunks' name=value, joined as in a Cookie header.
    const chunks = res.headers.getSetCookie().filter((c) => c.startsWith(`${SESSION}.`))
    const sent = chunks.map((c) => c.slice(0, c.indexOf(";"))).join("; ")
    expect(meta.cookieBytes).toBe(sent.length)
    expect(meta.headerBytes).toBeGreaterThanOrEqual(meta.cookieBytes)
    expect(meta.claims.map((c) => c.name).slice(0, 2)).toEqual(["profileDump", "groups"])
    expect(meta.claims[0]!.bytes).toBe(JSON.stringify("profileDump").length + 1 + JSON.stringify(big).length)
    // Names and sizes only.
    const logged = JSON.stringify(warnings)
    expect(logged).not.toContain(big.slice(0, 32))
    expect(logged).not.toContain(medium.slice(0, 32))
    expect(logged).not.toContain("admin")

    // Nothing dropped: the session callback sees every claim as the jwt callback set it.
    const session = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    expect(((await session.json()) as { got: unknown[] }).got).toEqual([big, medium, "admin"])

    // Once per config: another sign-in and a re-issuing read do not warn again.
    await signIn(config)
    await Auth(get("/auth/session", { cookie: jar.header() }), config)
    expect(warnings).toHaveLength(1)
    expect(errors).toEqual([])
  })

  it("a small session cookie does not warn", async () => {
    const { config, warnings } = setup({ role: "admin", groups: blob(200) })
    const { jar } = await signIn(config)
    await Auth(get("/auth/session", { cookie: jar.header() }), config)
    expect(warnings).toEqual([])
  })

  it("cookieBudget.cookie lowers the threshold: 1,500 bytes warns where the default does not", async () => {
    const claims = { groups: blob(1400) }
    const lower = setup(claims, { cookieBudget: { cookie: 1500 } })
    const plain = setup(claims)
    await signIn(lower.config)
    await signIn(plain.config)
    expect(plain.warnings).toEqual([])
    expect(lower.warnings.map((w) => w.code)).toEqual(["session-cookie-size"])
    const meta = lower.warnings[0]!.metadata as { cookieBytes: number; budget: unknown; claims: { name: string }[] }
    expect(meta.budget).toEqual({ cookie: 1500, header: 8192 })
    expect(meta.cookieBytes).toBeGreaterThan(1500)
    expect(meta.cookieBytes).toBeLessThan(4096)
    expect(meta.claims[0]!.name).toBe("groups")
  })

  it("cookieBudget.header counts the request's other cookies: a small session cookie beside large app cookies warns", async () => {
    const { config, warnings } = setup({ role: "admin" }, { cookieBudget: { header: 3000 } })
    const jar = new CookieJar()
    jar.cookies.set("app_prefs", blob(2000))
    jar.cookies.set("analytics", blob(900))
    await signIn(config, undefined, undefined, jar)
    expect(warnings.map((w) => w.code)).toEqual(["session-cookie-size"])
    const meta = warnings[0]!.metadata as { cookieBytes: number; headerBytes: number }
    expect(meta.cookieBytes).toBeLessThan(4096)
    expect(meta.headerBytes).toBeGreaterThan(3000)
    expect(meta.headerBytes).toBeGreaterThan(meta.cookieBytes + 2900)
  })

  it("cookieBudget: false turns the warning off", async () => {
    const { config, warnings } = setup({ profileDump: blob(6000) }, { cookieBudget: false })
    const { res } = await signIn(config)
    expect(sessionCookieNames(res).length).toBeGreaterThan(1)
    expect(warnings).toEqual([])
  })

  it("the default console logger prints the code, the hint and the sizes", async () => {
    const printed: unknown[][] = []
    const original = console.warn
    console.warn = (...args: unknown[]) => void printed.push(args)
    try {
      const config = makeConfig({ callbacks: { jwt: ({ token }) => ({ ...token, bulky: blob(5000) }) } })
      await signIn(config)
    } finally {
      console.warn = original
    }
    expect(printed).toHaveLength(1)
    const line = printed[0]!.map(String).join(" ")
    expect(line).toContain("session-cookie-size")
    expect(line).toContain("session.cookieBudget")
    expect(line).toContain('"name":"bulky"')
    expect(line).toMatch(/"cookieBytes":\d{4}/)
  })
})

describe("session.tokens and session.cookieBudget are checked with the config", () => {
  const bad: [string, AuthConfig["session"], RegExp][] = [
    [
      "an unknown tokens value",
      { tokens: "servers" as never },
      /`session\.tokens` must be "cookie" or "server"; got "servers"/,
    ],
    ["a string budget", { cookieBudget: "4k" as never }, /`session\.cookieBudget` must be false or/],
    ["true", { cookieBudget: true as never }, /`session\.cookieBudget` must be false or/],
    ["an unknown budget key", { cookieBudget: { cookies: 4096 } as never }, /unknown key "cookies"/],
    [
      "a fractional limit",
      { cookieBudget: { cookie: 4096.5 } },
      /`session\.cookieBudget\.cookie` must be a whole number/,
    ],
    [
      "a tiny limit",
      { cookieBudget: { header: 10 } },
      /`session\.cookieBudget\.header` must be .* at least 256; got 10/,
    ],
    ["a string limit", { cookieBudget: { header: "8192" as never } }, /`session\.cookieBudget\.header` must be/],
  ]
  for (const [what, session, message] of bad) {
    it(`refuses ${what}`, async () => {
      const config = makeConfig({ session, logger: { error: () => {}, warn: () => {}, debug: () => {} } })
      const resolved = resolveConfig(config)
      expect(resolved.error).toBeInstanceOf(UnsupportedStrategy)
      expect(resolved.error!.message).toMatch(message)
      // The request is refused, not served with a default.
      const res = await Auth(get("/auth/session"), config)
      expect(res.status).toBe(500)
    })
  }

  it("resolves the defaults and a partial budget", () => {
    expect(resolveConfig(makeConfig()).session).toMatchObject({
      tokens: "cookie",
      cookieBudget: { cookie: 4096, header: 8192 },
    })
    expect(
      resolveConfig(makeConfig({ session: { tokens: "server", cookieBudget: { header: 16384 } } })).session,
    ).toMatchObject({
      tokens: "server",
      cookieBudget: { cookie: 4096, header: 16384 },
    })
    expect(resolveConfig(makeConfig({ session: { cookieBudget: false } })).session.cookieBudget).toBe(false)
  })
})
