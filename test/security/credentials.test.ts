// Security group F (docs/security.md §1.F): the credentials provider, CR-01..CR-06.
// Conventions: REJECT(CredentialsSignin) = 302 to /auth/signin?error=CredentialsSignin&code=credentials;
// I1 no session cookie on a failure; identity only from `authorize` (differences.md "Credentials").
import { describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import type { AuthConfig } from "../../src/index.js"
import Credentials from "../../src/providers/credentials.js"
import { decode } from "../../src/jwt/index.js"
import { CookieJar, ORIGIN, SECRET, alice, fetchCsrf, get, makeConfig, postForm } from "../support/flow-kit.js"
import { expectNoSessionCookie, sessionCookiesSet } from "../support/cookies.js"
import { spyLogger } from "../support/logger.js"
import { expectJsonError } from "../support/responses.js"
import { countCrypto } from "../support/crypto-calls.js"

// Counts the hashes, HMACs and deciphers of each attempt (CR-01: the same work for an unknown user and a wrong password).
vi.mock("node:crypto", async (importOriginal) =>
  (await import("../support/crypto-calls.js")).counting(await importOriginal()),
)

const CALLBACK = "/auth/callback/credentials"
const SIGNIN_ERROR = `${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials`

type Creds = Record<string, unknown>
type Authorize = (credentials: Creds, request: Request) => unknown

function configWith(authorize: Authorize, extra: Partial<AuthConfig> = {}): AuthConfig {
  return makeConfig({
    providers: [
      Credentials({
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        authorize: authorize as never,
      }),
    ],
    // These cases make many wrong attempts per user on purpose; rate limits have their own tests (test/rate-limit/).
    rateLimit: false,
    ...extra,
  })
}

/** A jar holding a valid CSRF cookie, and its token. */
async function csrf(config: AuthConfig): Promise<{ jar: CookieJar; csrfToken: string }> {
  const jar = new CookieJar()
  const csrfToken = await fetchCsrf(config, jar)
  return { jar, csrfToken }
}

function rawPost(
  path: string,
  body: string,
  contentType: string,
  cookie: string,
  headers: Record<string, string> = {},
): Request {
  return new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { "content-type": contentType, cookie, ...headers },
    body,
  })
}

/** A successful sign-in without callbackUrl lands on the origin (with or without the trailing slash). */
function expectHome(res: Response): void {
  expect(new URL(res.headers.get("location") ?? "", "http://invalid.invalid").href).toBe(`${ORIGIN}/`)
}

/** The decoded session JWT the response sets (unchunked here: small tokens). */
async function sessionPayload(res: Response): Promise<Record<string, unknown> | null> {
  const c = sessionCookiesSet(res).find((x) => x.name === "authjs.session-token")
  if (!c) return null
  return (await decode({ token: c.value, secret: SECRET, salt: "authjs.session-token" })) as Record<
    string,
    unknown
  > | null
}

describe("F. credentials", () => {
  it("CR-01 unknown user and wrong password get the same status, body, Location and cookies, and do the same work", async () => {
    const users = new Map([["alice", "correct horse battery staple"]])
    const authorize = vi.fn(async (c: Creds) => {
      const stored = users.get(String(c.username))
      // Same work on both paths: compare against the stored or a dummy value.
      const ok = (stored ?? "dummy-password-for-unknown-user") === c.password && stored !== undefined
      return ok ? { ...alice } : null
    })
    const log = spyLogger()
    const config = configWith(authorize, { logger: log.logger })
    const { jar, csrfToken } = await csrf(config)
    const cookie = jar.header()
    const unknown = () =>
      Auth(postForm(CALLBACK, { csrfToken, username: "mallory", password: "wrong" }, { cookie }), config)
    const wrong = () =>
      Auth(postForm(CALLBACK, { csrfToken, username: "alice", password: "wrong" }, { cookie }), config)

    const shape = async (res: Response) => ({
      status: res.status,
      location: res.headers.get("location"),
      body: await res.text(),
      cookies: res.headers
        .getSetCookie()
        .map((c) => c.split("=")[0])
        .sort(),
      contentType: res.headers.get("content-type"),
    })
    const a = await unknown()
    const b = await wrong()
    expectNoSessionCookie(a)
    expectNoSessionCookie(b)
    const sa = await shape(a)
    const sb = await shape(b)
    expect(sa.status).toBe(302)
    expect(sa.location).toBe(SIGNIN_ERROR)
    expect(sb).toEqual(sa)
    expect(log.types()).toEqual(["CredentialsSignin", "CredentialsSignin"])

    // The same with the client's X-Auth-Return-Redirect convention (200 JSON {url}).
    const ja = await Auth(
      postForm(
        CALLBACK,
        { csrfToken, username: "mallory", password: "x" },
        { cookie, headers: { "X-Auth-Return-Redirect": "1" } },
      ),
      config,
    )
    const jb = await Auth(
      postForm(
        CALLBACK,
        { csrfToken, username: "alice", password: "x" },
        { cookie, headers: { "X-Auth-Return-Redirect": "1" } },
      ),
      config,
    )
    expect(ja.status).toBe(jb.status)
    expect(await ja.json()).toEqual(await jb.json())

    // The same work on both paths, counted rather than timed (timing belongs to the benchmark): interleaved
    // tries each call authorize once, answer the same, log the same and do the same node:crypto work.
    authorize.mockClear()
    log.errors.length = 0
    const work: Record<"u" | "w", string[]> = { u: [], w: [] }
    for (let i = 0; i < 20; i++) {
      for (const which of i % 2 === 0 ? (["u", "w"] as const) : (["w", "u"] as const)) {
        const { result: res, hash, hmac, decipher } = await countCrypto(which === "u" ? unknown : wrong)
        expect(await shape(res)).toEqual(sa)
        work[which].push(JSON.stringify({ hash, hmac, decipher }))
      }
    }
    expect(authorize).toHaveBeenCalledTimes(40)
    expect(new Set(work.u)).toEqual(new Set(work.w))
    expect(new Set(work.u).size).toBe(1)
    expect(JSON.parse(work.u[0] as string).hash, "the CSRF check is counted: the count is not vacuous").toBeGreaterThan(
      0,
    )
    expect(log.types()).toEqual(Array(40).fill("CredentialsSignin"))
    expect(new Set(log.messages()).size).toBe(1)
  })

  it("CR-02 authorize throwing a DB error gives a generic CallbackRouteError, no message, stack or session", async () => {
    const secretish = "ECONNREFUSED db.internal:5432 password=hunter2"
    const authorize = vi.fn(async () => {
      throw new Error(secretish)
    })
    const log = spyLogger()
    const config = configWith(authorize, { logger: log.logger })
    const { jar, csrfToken } = await csrf(config)

    const res = await Auth(
      postForm(CALLBACK, { csrfToken, username: "alice", password: "pw" }, { cookie: jar.header() }),
      config,
    )
    expect(authorize).toHaveBeenCalledTimes(1)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`)
    const body = await res.text()
    expect(body).not.toContain("hunter2")
    expect(body).not.toContain("ECONNREFUSED")
    expect(body).not.toMatch(/\bat \S+ \(/) // no stack frames
    expectNoSessionCookie(res)
    expect(log.types()).toEqual(["CallbackRouteError"])

    const json = await Auth(
      postForm(
        CALLBACK,
        { csrfToken, username: "alice", password: "pw" },
        { cookie: jar.header(), headers: { "X-Auth-Return-Redirect": "1" } },
      ),
      config,
    )
    const text = await json.text()
    expect(JSON.parse(text)).toEqual({ url: `${ORIGIN}/auth/error?error=Configuration` })
    expect(text).not.toContain("hunter2")
    expectNoSessionCookie(json)
  })

  it("CR-03 credentials sent as a GET query get 405 with Allow: POST and authorize is never called", async () => {
    const authorize = vi.fn(async () => ({ ...alice }))
    const config = configWith(authorize)
    const { jar, csrfToken } = await csrf(config)
    const qs = new URLSearchParams({ csrfToken, username: "alice", password: "password" }).toString()
    for (const path of [`${CALLBACK}?${qs}`, `/auth/signin/credentials?${qs}`]) {
      const res = await Auth(get(path, { cookie: jar.header() }), config)
      await expectJsonError(res, 405, "UnknownAction")
      expect((res.headers.get("allow") ?? "").toUpperCase()).toContain("POST")
      expect((res.headers.get("allow") ?? "").toUpperCase()).not.toContain("GET")
      expectNoSessionCookie(res)
    }
    expect(authorize).not.toHaveBeenCalled()
  })

  it("CR-04 __proto__/constructor keys are dropped, arrays and non-strings never reach authorize, Object.prototype unchanged", async () => {
    const seen: Creds[] = []
    const authorize = vi.fn(async (c: Creds) => {
      seen.push(c)
      return c.username === "alice" && c.password === "password" ? { ...alice } : null
    })
    const config = configWith(authorize)
    const { jar, csrfToken } = await csrf(config)
    const cookie = jar.header()
    const protoBefore = Object.getOwnPropertyNames(Object.prototype).sort()

    // JSON with prototype-polluting keys (raw text: JSON.stringify would not emit a __proto__ key).
    const json = `{"csrfToken":"${csrfToken}","username":"alice","password":"password","__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted2":"yes"}},"prototype":{"polluted3":"yes"}}`
    const r1 = await Auth(rawPost(CALLBACK, json, "application/json", cookie), config)
    expect(r1.status).toBe(302)
    expectHome(r1)
    // Form with the same keys, bracket syntax and a repeated key authorize never sees.
    const form =
      `csrfToken=${csrfToken}&username=alice&password=password&remember=a&remember=b` +
      `&__proto__=x&__proto__%5Bpolluted%5D=yes&constructor%5Bprototype%5D%5Bpolluted%5D=yes&constructor=y&prototype=z` +
      `&email%5B%5D=a%40x.test&email%5B%5D=b%40y.test`
    const r2 = await Auth(rawPost(CALLBACK, form, "application/x-www-form-urlencoded", cookie), config)
    expect(r2.status).toBe(302)
    expectHome(r2)
    // A repeated field authorize reads is refused before it runs (docs/security.md HN-01).
    const repeated = `csrfToken=${csrfToken}&username=alice&username=mallory&password=password`
    await expectJsonError(
      await Auth(rawPost(CALLBACK, repeated, "application/x-www-form-urlencoded", cookie), config),
      400,
      "InvalidRequest",
    )

    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(({} as Record<string, unknown>).polluted2).toBeUndefined()
    expect(({} as Record<string, unknown>).polluted3).toBeUndefined()
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(protoBefore)

    expect(seen).toHaveLength(2)
    for (const c of seen) {
      expect(Object.hasOwn(c, "__proto__")).toBe(false)
      expect(Object.hasOwn(c, "constructor")).toBe(false)
      expect(Object.hasOwn(c, "prototype")).toBe(false)
      expect((c as Record<string, unknown>).polluted).toBeUndefined()
      expect([Object.prototype, null]).toContain(Object.getPrototypeOf(c))
      for (const v of Object.values(c)) expect(typeof v).toBe("string")
      // Only the declared fields reach authorize (docs/security.md RL-01): no email[], remember or csrfToken.
      expect(c).toEqual({ username: "alice", password: "password" })
    }

    // Non-string JSON values are dropped, so an operator-injection object never reaches authorize.
    seen.length = 0
    const r3 = await Auth(
      rawPost(
        CALLBACK,
        JSON.stringify({ csrfToken, username: ["alice"], password: { $ne: null }, remember: true, n: 42, z: null }),
        "application/json",
        cookie,
      ),
      config,
    )
    expect(r3.status).toBe(302)
    expect(r3.headers.get("location")).toBe(SIGNIN_ERROR)
    expectNoSessionCookie(r3)
    expect(seen).toHaveLength(1)
    for (const [k, v] of Object.entries(seen[0]!)) expect(typeof v, `credentials.${k}`).toBe("string")
    expect(seen[0]!.username).toBeUndefined()
    expect(seen[0]!.password).toBeUndefined()
  })

  it("CR-05 a 1 MiB password gets 413 before authorize; 64- and 128-char passwords arrive unmodified", async () => {
    const received: string[] = []
    const authorize = vi.fn(async (c: Creds) => {
      received.push(String(c.password))
      return c.username === "alice" && typeof c.password === "string" && c.password.length >= 64 ? { ...alice } : null
    })
    const config = configWith(authorize)
    const { jar, csrfToken } = await csrf(config)
    const cookie = jar.header()

    const huge = "p".repeat(1024 * 1024)
    const f = await Auth(postForm(CALLBACK, { csrfToken, username: "alice", password: huge }, { cookie }), config)
    await expectJsonError(f, 413, "InvalidRequest")
    expectNoSessionCookie(f)
    const j = await Auth(
      rawPost(
        CALLBACK,
        JSON.stringify({ csrfToken, username: "alice", password: huge + huge }),
        "application/json",
        cookie,
      ),
      config,
    )
    await expectJsonError(j, 413, "InvalidRequest")
    expectNoSessionCookie(j)
    expect(authorize).not.toHaveBeenCalled()

    // Exactly as typed: leading/trailing spaces, +, %, &, =, non-ASCII; no trim, no truncation.
    const pad = (n: number) => {
      const core = "  pä$$ wörd+%26&=;💥 "
      return core + "x".repeat(n - core.length - 2) + "  "
    }
    for (const pw of [pad(64), pad(128)]) {
      expect(pw.length).toBeGreaterThanOrEqual(64)
      received.length = 0
      const rf = await Auth(postForm(CALLBACK, { csrfToken, username: "alice", password: pw }, { cookie }), config)
      expect(received).toEqual([pw])
      expect(rf.status).toBe(302)
      expectHome(rf)
      expect(sessionCookiesSet(rf).length).toBeGreaterThan(0)
      received.length = 0
      const rj = await Auth(
        rawPost(CALLBACK, JSON.stringify({ csrfToken, username: "alice", password: pw }), "application/json", cookie),
        config,
      )
      expect(received).toEqual([pw])
      expect(rj.status).toBe(302)
      expect(sessionCookiesSet(rj).length).toBeGreaterThan(0)
    }
  })

  it("CR-06 id/userId/sub in the body never choose the identity; authorize without id is CredentialsSignin", async () => {
    const authorize = vi.fn(async (c: Creds) =>
      c.username === "alice" && c.password === "password" ? { ...alice } : null,
    )
    const config = configWith(authorize)
    const { jar, csrfToken } = await csrf(config)
    const res = await Auth(
      postForm(
        CALLBACK,
        { csrfToken, username: "alice", password: "password", id: "admin", userId: "admin", sub: "admin" },
        { cookie: jar.header() },
      ),
      config,
    )
    expect(res.status).toBe(302)
    const payload = await sessionPayload(res)
    expect(payload).not.toBeNull()
    expect(payload!.sub).toBe(alice.id)
    expect(payload!.email).toBe(alice.email)
    const jar2 = new CookieJar()
    jar2.store(res)
    const session = await (await Auth(get("/auth/session", { cookie: jar2.header() }), config)).json()
    expect(session).toMatchObject({ user: { email: alice.email, name: alice.name } })

    // authorize returns a user without `id`: no random id is invented (differences.md).
    const log = spyLogger()
    const noId = vi.fn(async () => ({ name: "No Id", email: "noid@example.com" }))
    const config2 = configWith(noId, { logger: log.logger })
    const c2 = await csrf(config2)
    const r2 = await Auth(
      postForm(
        CALLBACK,
        { csrfToken: c2.csrfToken, username: "x", password: "y", id: "admin" },
        { cookie: c2.jar.header() },
      ),
      config2,
    )
    expect(noId).toHaveBeenCalledTimes(1)
    expect(r2.status).toBe(302)
    expect(r2.headers.get("location")).toBe(SIGNIN_ERROR)
    expectNoSessionCookie(r2)
    expect(log.types()).toContain("CredentialsSignin")
  })
})
