// Security group L (docs/security.md §1.L), the cases that apply to the library today: DS-01, DS-05, DS-06.
// (DS-02 and DS-03 are in dos-oauth.test.ts; DS-04 needs the e-mail provider.)
// No time bounds (timing belongs to the benchmark): the work is counted instead, with node:crypto calls counted
// by test/support/crypto-calls.ts, so a refusal before any key is used is visible.
import { runInNewContext } from "node:vm"
import { setFlagsFromString } from "node:v8"
import { randomBytes } from "node:crypto"
import { describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import type { AuthConfig } from "../../src/index.js"
import { encode } from "../../src/jwt/index.js"
import { CookieJar, ORIGIN, SECRET, alice, fetchCsrf, get, makeConfig, postJson } from "../support/flow-kit.js"
import { expectNoSessionCookie, sessionCookiesSet } from "../support/cookies.js"
import { countCrypto } from "../support/crypto-calls.js"

vi.mock("node:crypto", async (importOriginal) =>
  (await import("../support/crypto-calls.js")).counting(await importOriginal()),
)

const SALT = "authjs.session-token"
const b64u = (b: Uint8Array | string) => Buffer.from(b).toString("base64url")

/** Forces a full GC when possible (expose-gc at runtime), so RSS/heap figures reflect retained memory. */
function tryGc(): void {
  try {
    setFlagsFromString("--expose-gc")
    const gc = runInNewContext("gc") as (() => void) | undefined
    gc?.()
    gc?.()
  } catch {
    /* not available: measure anyway */
  }
}

/** GET /session with `cookie`: 200 null or 431, no session cookie set, and no key used (no HMAC, no decipher). */
async function expectRefusedWithoutCrypto(config: AuthConfig, cookie: string): Promise<void> {
  const { result: res, hmac, decipher } = await countCrypto(() => Auth(get("/auth/session", { cookie }), config))
  if (res.status !== 431) {
    expect(res.status).toBe(200)
    expect(await res.json()).toBeNull()
  }
  expectNoSessionCookie(res)
  expect({ hmac, decipher }, "refused before any key is used").toEqual({ hmac: 0, decipher: 0 })
}

describe("L. DoS bounds", () => {
  it("DS-01 a 32 KiB Cookie header with 2,000 cookies: null session or 431, no key used", async () => {
    const config = makeConfig()
    const parts: string[] = []
    for (let i = 0; i < 2000; i++) parts.push(`c${String(i).padStart(4, "0")}=vvvvvvvv`)
    let header = parts.join("; ")
    header += "v".repeat(32 * 1024 - header.length) // exactly 32 KiB
    expect(header.length).toBe(32 * 1024)
    await expectRefusedWithoutCrypto(config, header)
  })

  it("DS-01 a valid session after 170 other cookies (about a browser's per-domain maximum) is still read; among 2,000 no crash", async () => {
    const config = makeConfig()
    const token = await encode({
      token: { name: alice.name, email: alice.email, sub: alice.id },
      secret: SECRET,
      salt: SALT,
    })
    const junk = (n: number) => Array.from({ length: n }, (_, i) => `c${String(i).padStart(4, "0")}=vvvvvvvv`)
    // Realistic: the session cookie last, after 170 others.
    const ok = await Auth(get("/auth/session", { cookie: [...junk(170), `${SALT}=${token}`].join("; ") }), config)
    expect(ok.status).toBe(200)
    expect(await ok.json()).toMatchObject({ user: { email: alice.email } })
    // Hostile: 2,000 cookies with the session in the middle. A capped parser may ignore it (DS-01 allows
    // "parsing capped"), or refuse the header with 431; it must never crash or set a session cookie.
    const parts = junk(2000)
    parts.splice(1000, 0, `${SALT}=${token}`)
    const res = await Auth(get("/auth/session", { cookie: parts.join("; ") }), config)
    expect([200, 431]).toContain(res.status)
    if (res.status === 200) {
      const body = (await res.json()) as { user?: { email?: string } } | null
      if (body !== null) expect(body.user?.email).toBe(alice.email)
    }
  })

  it("DS-01 1,000 session chunks (a real token split 1,000 ways) are refused before any decryption: null session", async () => {
    const config = makeConfig()
    // A real token, long enough to split into 1,000 non-empty chunks; Auth.js would reassemble it.
    const token = await encode({
      token: { name: "n".repeat(1500), email: alice.email, sub: alice.id },
      secret: SECRET,
      salt: SALT,
    })
    expect(token.length).toBeGreaterThan(1000)
    const chunks: string[] = []
    for (let i = 0; i < 1000; i++) {
      const piece = token.slice(Math.floor((i * token.length) / 1000), Math.floor(((i + 1) * token.length) / 1000))
      expect(piece.length).toBeGreaterThan(0)
      chunks.push(`${SALT}.${i}=${piece}`)
    }
    expect(chunks.map((c) => c.slice(c.indexOf("=") + 1)).join("")).toBe(token)
    const header = chunks.join("; ")
    expect(header.length).toBeLessThanOrEqual(34 * 1024)

    await expectRefusedWithoutCrypto(config, header)

    // Sanity: the same token in 2 chunks is a valid session, decrypted once (so the 1,000-chunk answer is the
    // cap, not a broken token).
    const half = Math.ceil(token.length / 2)
    const ok = await countCrypto(() =>
      Auth(
        get("/auth/session", { cookie: `${SALT}.0=${token.slice(0, half)}; ${SALT}.1=${token.slice(half)}` }),
        config,
      ),
    )
    expect(ok.result.status).toBe(200)
    expect(await ok.result.json()).toMatchObject({ user: { email: alice.email } })
    expect(ok.decipher).toBe(1)
  })

  it("DS-05 100 KB pathological callbackUrls: each handled, never leaving the origin", async () => {
    const config = makeConfig()
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const cookie = jar.header()
    const N = 100_000
    const patterns: Record<string, string> = {
      slashes: "/" + "/\\".repeat(N / 2),
      dots: "https://" + "a.".repeat(N / 2),
      ats: "http://" + "@".repeat(N),
      encodedSlashes: "/%2F".repeat(N / 4),
      percents: "%".repeat(N),
      ipv6: "http://[" + ":".repeat(N),
      javascript: "javascript:" + "a".repeat(N),
      path: "/" + "a".repeat(N),
      dotdot: `${ORIGIN}` + "/..".repeat(N / 3),
      tabs: "/\t".repeat(N / 2),
      userinfo: "https://app.example" + ":@".repeat(N / 2) + "evil.example",
      backslashes: "\\".repeat(N),
    }
    for (const [name, cb] of Object.entries(patterns)) {
      // Sign-in POST (JSON body: 100 KB is under the JSON limit).
      const res = await Auth(
        postJson(
          "/auth/callback/credentials",
          { csrfToken, username: "alice", password: "password", callbackUrl: cb },
          { cookie },
        ),
        config,
      )
      expect(res.status, name).toBe(302)
      expect(new URL(res.headers.get("location") ?? "").origin, name).toBe(ORIGIN)
      for (const c of res.headers.getSetCookie())
        expect(Buffer.byteLength(c.split(";")[0]!), `${name}: Set-Cookie ${c.slice(0, 40)}`).toBeLessThanOrEqual(4096)

      // The same value in the query of the sign-in page.
      const p = await Auth(get(`/auth/signin?callbackUrl=${encodeURIComponent(cb)}`, { cookie }), config)
      expect(p.status, name).toBeLessThan(500)
    }
  }, 120_000)

  it("DS-06 10,000 requests with different garbage session cookies: no throw, null sessions, bounded memory", async () => {
    let errors = 0
    const config: AuthConfig = makeConfig({ logger: { error: () => void errors++, warn: () => {}, debug: () => {} } })
    const garbage = (i: number): string => {
      switch (i % 6) {
        case 0: // JWE-shaped, valid header, random kid and random parts
          return [
            b64u(JSON.stringify({ alg: "dir", enc: "A256CBC-HS512", kid: randomBytes(32).toString("base64url") })),
            "",
            b64u(randomBytes(16)),
            b64u(randomBytes(64)),
            b64u(randomBytes(32)),
          ].join(".")
        case 1: // other enc, random kid
          return [
            b64u(JSON.stringify({ alg: "dir", enc: "A256GCM", kid: randomBytes(16).toString("hex") })),
            "",
            b64u(randomBytes(12)),
            b64u(randomBytes(40)),
            b64u(randomBytes(16)),
          ].join(".")
        case 2: // JWS-shaped
          return [
            b64u(JSON.stringify({ alg: "HS256", kid: String(i) })),
            b64u(JSON.stringify({ sub: String(i) })),
            b64u(randomBytes(32)),
          ].join(".")
        case 3: // random base64url
          return randomBytes(300).toString("base64url")
        case 4: // JWE-shaped, no kid
          return [
            b64u(JSON.stringify({ alg: "dir", enc: "A256CBC-HS512" })),
            "",
            b64u(randomBytes(16)),
            b64u(randomBytes(48)),
            b64u(randomBytes(32)),
          ].join(".")
        default: // broken header JSON
          return [b64u(`{"alg":"dir","enc":"A256CBC-HS512","kid":"${i}"`), "", "AA", "AA", "AA"].join(".")
      }
    }
    const once = async (i: number) => {
      const res = await Auth(get("/auth/session", { cookie: `${SALT}=${garbage(i)}` }), config)
      expect(res.status).toBe(200)
      expect(await res.text()).toBe("null")
      expect(sessionCookiesSet(res)).toHaveLength(0)
    }
    for (let i = 0; i < 500; i++) await once(i) // warm-up: JIT, key caches
    tryGc()
    const rss0 = process.memoryUsage().rss
    const heap0 = process.memoryUsage().heapUsed
    for (let i = 500; i < 10_500; i++) await once(i)
    tryGc()
    const rssGrowth = process.memoryUsage().rss - rss0
    const heapGrowth = process.memoryUsage().heapUsed - heap0
    expect(rssGrowth / 2 ** 20).toBeLessThan(50)
    expect(heapGrowth / 2 ** 20).toBeLessThan(30)
    expect(errors).toBeGreaterThan(0) // failures are logged (JWTSessionError), not thrown
  }, 180_000)
})
