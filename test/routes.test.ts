// Flow tests of every route through Auth(): status, headers, cookies and body (wire.md 1-6, 12 with the
// deliberate differences of docs/differences.md), plus callbacks, events, raw mode, the
// X-Auth-Return-Redirect convention, session lifetime, jwt overrides and secret rotation.
import { createHash } from "node:crypto"
import { afterEach, describe, expect, it, vi, type Mock } from "vitest"
import { Auth, raw, skipCSRFCheck } from "../src/index.js"
import type { AuthConfig, JWT } from "../src/index.js"
import { CredentialsSignin } from "../src/errors.js"
import { decode, encode } from "../src/jwt/index.js"
import { deriveKey } from "../src/jwt/jwe.js"
import Credentials from "../src/providers/credentials.js"
import { CookieJar, ORIGIN, SECRET, alice, fetchCsrf, get, makeConfig, postForm, postJson, setCookies, signIn } from "./helpers.js"

const SESSION = "authjs.session-token"
const CSRF = "authjs.csrf-token"
const MAX_AGE = 30 * 24 * 60 * 60
const S1 = "rotation-secret-one-at-least-32-characters"
const S2 = "rotation-secret-two-at-least-32-characters"

type Logger = { error: Mock<(error: Error) => void>; warn: Mock<(code: string) => void>; debug: Mock<(message: string, metadata?: unknown) => void> }

function spyLogger(): Logger {
  return { error: vi.fn<(error: Error) => void>(), warn: vi.fn<(code: string) => void>(), debug: vi.fn<(message: string, metadata?: unknown) => void>() }
}

/** A fresh config (so the per-object memo is fresh) with a spy logger that keeps the console quiet. */
function setup(overrides: Partial<AuthConfig> = {}): { config: AuthConfig; logger: Logger } {
  const logger = spyLogger()
  return { config: makeConfig({ logger, ...overrides }), logger }
}

function loggedTypes(logger: Logger): string[] {
  return logger.error.mock.calls.map(([e]) => (e as { type?: string }).type ?? (e as Error).name)
}

function loggedOf(logger: Logger, type: string): Error & { type: string; cause?: unknown } {
  const hit = logger.error.mock.calls.map(([e]) => e).find((e) => (e as { type?: string }).type === type)
  expect(hit, `an error of type ${type} was logged`).toBeDefined()
  return hit as Error & { type: string; cause?: unknown }
}

function expectNoCacheJson(res: Response): void {
  expect(res.headers.get("content-type")).toBe("application/json")
  expect(res.headers.get("cache-control")).toBe("private, no-cache, no-store")
  expect(res.headers.get("expires")).toBe("0")
  expect(res.headers.get("pragma")).toBe("no-cache")
}

function sessionToken(jar: CookieJar, name = SESSION): string {
  const v = jar.cookies.get(name)
  expect(v, `jar holds ${name}`).toBeDefined()
  return decodeURIComponent(v as string)
}

async function claims(token: string, secret: string | string[] = SECRET, salt = SESSION): Promise<JWT> {
  const out = await decode({ token, secret, salt })
  expect(out).not.toBeNull()
  return out as JWT
}

/** The one Set-Cookie that clears `name`: empty value, Max-Age=0, the default attributes. */
function expectCleared(res: Response, name: string): void {
  const raw = res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`))
  expect(raw, `Set-Cookie clears ${name}`).toBe(`${name}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax`)
}

const SESSION_COOKIE = new RegExp(`^${SESSION.replace(/\./g, "\\.")}=([^;]+); Max-Age=(\\d+); Path=/; Expires=([^;]+); HttpOnly; SameSite=Lax$`)

/** Checks the session Set-Cookie: attribute order, Max-Age and an Expires about now + maxAge. */
function expectSessionCookie(res: Response, maxAge = MAX_AGE): string {
  const raw = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION}=`))
  expect(raw, "a session Set-Cookie").toBeDefined()
  const m = SESSION_COOKIE.exec(raw as string)
  expect(m, raw).not.toBeNull()
  expect(Number(m![2])).toBe(maxAge)
  expect(Math.abs(Date.parse(m![3] as string) - (Date.now() + maxAge * 1000))).toBeLessThan(3000)
  return decodeURIComponent((raw as string).slice(SESSION.length + 1).split(";")[0] as string)
}

/** Runs `fn` with Date.now shifted `secondsAgo` into the past. */
async function inThePast<T>(secondsAgo: number, fn: () => Promise<T>): Promise<T> {
  const real = Date.now()
  const spy = vi.spyOn(Date, "now").mockReturnValue(real - secondsAgo * 1000)
  try {
    return await fn()
  } finally {
    spy.mockRestore()
  }
}

/** Flips one ciphertext byte of a compact JWE (a real change, not a base64 padding bit). */
function tamper(token: string): string {
  const parts = token.split(".")
  const ct = Buffer.from(parts[3] as string, "base64url")
  ct[0] = (ct[0] as number) ^ 0xff
  parts[3] = ct.toString("base64url")
  return parts.join(".")
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe("GET /csrf", () => {
  it("mints a token and sets the csrf cookie token|sha256(token+secret)", async () => {
    const { config } = setup()
    const res = await Auth(get("/auth/csrf"), config)
    expect(res.status).toBe(200)
    expectNoCacheJson(res)
    const body = (await res.json()) as { csrfToken: string }
    expect(Object.keys(body)).toEqual(["csrfToken"])
    expect(body.csrfToken).toMatch(/^[0-9a-f]{64}$/)
    const hash = createHash("sha256").update(`${body.csrfToken}${SECRET}`).digest("hex")
    expect(res.headers.getSetCookie()).toEqual([`${CSRF}=${body.csrfToken}%7C${hash}; Path=/; HttpOnly; SameSite=Lax`])
  })

  it("reuses the token of a valid cookie and sets no cookie", async () => {
    const { config } = setup()
    const jar = new CookieJar()
    const first = await fetchCsrf(config, jar)
    const res = await Auth(get("/auth/csrf", { cookie: jar.header() }), config)
    expect(res.status).toBe(200)
    expect(res.headers.getSetCookie()).toEqual([])
    expect(await res.json()).toEqual({ csrfToken: first })
  })

  it("replaces a cookie whose hash does not verify", async () => {
    const { config } = setup()
    const forged = `${"a".repeat(64)}%7C${"b".repeat(64)}`
    const res = await Auth(get("/auth/csrf", { cookie: `${CSRF}=${forged}` }), config)
    const { csrfToken } = (await res.json()) as { csrfToken: string }
    expect(csrfToken).not.toBe("a".repeat(64))
    expect(setCookies(res).get(CSRF)?.value).toBe(`${csrfToken}|${createHash("sha256").update(csrfToken + SECRET).digest("hex")}`)
  })

  it("on https the cookie is __Host-authjs.csrf-token with Secure", async () => {
    const { config } = setup()
    const res = await Auth(get("/auth/csrf", { origin: "https://app.example" }), config)
    const [cookie] = res.headers.getSetCookie()
    expect(cookie).toMatch(/^__Host-authjs\.csrf-token=[0-9a-f]{64}%7C[0-9a-f]{64}; Path=\/; HttpOnly; Secure; SameSite=Lax$/)
  })

  it("with skipCSRFCheck: 404, empty body, the csrf cookie cleared", async () => {
    const { config } = setup({ skipCSRFCheck })
    const res = await Auth(get("/auth/csrf"), config)
    expect(res.status).toBe(404)
    expect(await res.text()).toBe("")
    expect(res.headers.getSetCookie()).toEqual([`${CSRF}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax`])
  })

  it("with skipCSRFCheck a credentials POST needs no token", async () => {
    const { config } = setup({ skipCSRFCheck })
    const res = await Auth(postForm("/auth/callback/credentials", { username: "alice", password: "password" }), config)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(ORIGIN)
    expectSessionCookie(res)
  })
})

describe("GET /providers", () => {
  it("lists every provider with its sign-in and callback URLs", async () => {
    const { config } = setup()
    config.providers.push(
      Credentials({ id: "otp", name: "One-time code", credentials: { code: { label: "Code" } }, authorize: () => null }),
      { id: "github", name: "GitHub", type: "oauth", issuer: "https://github.com" },
    )
    const res = await Auth(get("/auth/providers"), config)
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toBe("application/json")
    expect(res.headers.get("cache-control")).toBeNull()
    expect(res.headers.getSetCookie()).toEqual([])
    expect(await res.json()).toEqual({
      credentials: {
        id: "credentials", name: "Credentials", type: "credentials",
        signinUrl: "http://localhost:3000/auth/signin/credentials", callbackUrl: "http://localhost:3000/auth/callback/credentials",
      },
      otp: { id: "otp", name: "One-time code", type: "credentials", signinUrl: "http://localhost:3000/auth/signin/otp", callbackUrl: "http://localhost:3000/auth/callback/otp" },
      github: { id: "github", name: "GitHub", type: "oauth", signinUrl: "http://localhost:3000/auth/signin/github", callbackUrl: "http://localhost:3000/auth/callback/github" },
    })
  })

  it("uses the basePath", async () => {
    const { config } = setup({ basePath: "/api/auth" })
    const res = await Auth(get("/api/auth/providers"), config)
    const body = (await res.json()) as Record<string, { signinUrl: string }>
    expect(body.credentials?.signinUrl).toBe("http://localhost:3000/api/auth/signin/credentials")
  })
})

describe("GET /session", () => {
  it("no cookie: 200 null with the no-cache headers and no Set-Cookie", async () => {
    const { config } = setup()
    const res = await Auth(get("/auth/session"), config)
    expect(res.status).toBe(200)
    expectNoCacheJson(res)
    expect(await res.text()).toBe("null")
    expect(res.headers.getSetCookie()).toEqual([])
  })

  it("valid cookie: the user JSON; a fresh token is not re-issued (default updateAge)", async () => {
    const { config } = setup()
    const { jar } = await signIn(config)
    const token = await claims(sessionToken(jar))
    const res = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    expect(res.status).toBe(200)
    expectNoCacheJson(res)
    expect(res.headers.getSetCookie()).toEqual([])
    expect(await res.json()).toEqual({
      user: { name: "Alice", email: "alice@example.com", image: "https://img.example/a.png" },
      expires: new Date((token.exp as number) * 1000).toISOString(),
    })
  })

  it("keys with undefined values vanish from the JSON", async () => {
    const { config } = setup({
      providers: [Credentials({ credentials: {}, authorize: () => ({ id: "u2", email: "bob@example.com" }) })],
    })
    const { jar } = await signIn(config)
    const res = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    const body = (await res.json()) as Record<string, unknown>
    expect(body.user).toEqual({ email: "bob@example.com" })
  })

  it("updateAge 0: the cookie is re-issued on every read with Max-Age and Expires", async () => {
    const { config } = setup({ session: { updateAge: 0 } })
    const { jar } = await signIn(config)
    const before = sessionToken(jar)
    const res = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    const after = expectSessionCookie(res)
    expect(after).not.toBe(before)
    const body = (await res.json()) as { expires: string; user: { name: string } }
    expect(body.user.name).toBe("Alice")
    expect(Math.abs(Date.parse(body.expires) - (Date.now() + MAX_AGE * 1000))).toBeLessThan(3000)
    const fresh = await claims(after)
    expect(fresh.sub).toBe("user-1")
    expect((fresh.exp as number) - (fresh.iat as number)).toBe(MAX_AGE)
  })

  it("a token older than updateAge is re-issued with fresh iat/exp/jti", async () => {
    const { config } = setup({ session: { updateAge: 3600 } })
    const { jar } = await inThePast(3601, () => signIn(config))
    const old = await claims(sessionToken(jar))
    const res = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    expect(res.status).toBe(200)
    const fresh = await claims(expectSessionCookie(res))
    expect(fresh.iat as number).toBeGreaterThanOrEqual((old.iat as number) + 3600)
    expect(fresh.exp as number).toBeGreaterThan(old.exp as number)
    expect(fresh.jti).not.toBe(old.jti)
    expect(fresh).toMatchObject({ name: "Alice", email: "alice@example.com", picture: alice.image, sub: "user-1" })
    const body = (await res.json()) as { expires: string }
    expect(body.expires).toBe(new Date(Date.parse(body.expires)).toISOString())
    expect(Math.abs(Date.parse(body.expires) - (Date.now() + MAX_AGE * 1000))).toBeLessThan(3000)
  })

  it("a token younger than updateAge is not re-issued; expires is the token's exp", async () => {
    const { config } = setup({ session: { updateAge: 3600 } })
    const { jar } = await inThePast(1800, () => signIn(config))
    const old = await claims(sessionToken(jar))
    const res = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    expect(res.headers.getSetCookie()).toEqual([])
    expect(((await res.json()) as { expires: string }).expires).toBe(new Date((old.exp as number) * 1000).toISOString())
  })

  // differences.md: the updateAge rule keeps "the idle timeout still slides at most updateAge late", and
  // Auth.js slides JWT sessions on every read. With session.maxAge (1 h) below the default updateAge
  // (24 h) no read can ever be "due", so an active user is signed out after maxAge. A read shortly
  // before expiry must re-issue the cookie.
  it("maxAge below updateAge: a session read near its expiry is re-issued (the session slides)", async () => {
    const { config } = setup({ session: { maxAge: 3600 } })
    const { jar } = await inThePast(3590, () => signIn(config))
    const res = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    expect(((await res.json()) as { user: { name: string } }).user.name).toBe("Alice")
    const fresh = await claims(expectSessionCookie(res, 3600))
    expect((fresh.exp as number) - Math.floor(Date.now() / 1000)).toBeGreaterThan(3500)
  })

  it("a chunked session is read, and re-issued chunk by chunk", async () => {
    const blob = "b".repeat(6000)
    const { config } = setup({ session: { updateAge: 0 }, callbacks: { jwt: ({ token }) => ({ ...token, blob }) } })
    const { jar } = await signIn(config)
    const chunkNames = [...jar.cookies.keys()].filter((n) => n.startsWith(`${SESSION}.`)).sort()
    expect(chunkNames.length).toBeGreaterThanOrEqual(2)
    expect(jar.cookies.has(SESSION)).toBe(false)
    const res = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    expect(((await res.json()) as { user: { name: string } }).user.name).toBe("Alice")
    const set = setCookies(res)
    expect([...set.keys()].filter((n) => n.startsWith(`${SESSION}.`)).sort()).toEqual(chunkNames)
    const joined = chunkNames.map((n) => set.get(n)!.value).join("")
    expect((await claims(joined)).blob).toBe(blob)
  })

  it("a tampered cookie: null, the cookie cleared (Max-Age=0) and JWTSessionError logged", async () => {
    const { config, logger } = setup()
    const { jar } = await signIn(config)
    const res = await Auth(get("/auth/session", { cookie: `${SESSION}=${tamper(sessionToken(jar))}` }), config)
    expect(res.status).toBe(200)
    expectNoCacheJson(res)
    expect(await res.json()).toBeNull()
    expect(res.headers.getSetCookie()).toEqual([`${SESSION}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax`])
    expect(loggedTypes(logger)).toEqual(["JWTSessionError"])
  })

  it("an expired cookie: null and cleared", async () => {
    const { config, logger } = setup({ session: { maxAge: 60 } })
    const { jar } = await inThePast(120, () => signIn(config))
    const res = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    expect(await res.json()).toBeNull()
    expectCleared(res, SESSION)
    expect(loggedTypes(logger)).toContain("JWTSessionError")
  })

  it("a token expired less than 15 s ago is still accepted", async () => {
    const { config } = setup({ session: { maxAge: 60 } })
    const { jar } = await inThePast(70, () => signIn(config))
    const res = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    expect(((await res.json()) as { user: { email: string } }).user.email).toBe("alice@example.com")
  })

  it("a cookie made with another secret: null and cleared", async () => {
    const other = setup({ secret: "another-secret-that-is-at-least-32-characters" })
    const { jar } = await signIn(other.config)
    const { config } = setup()
    const res = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    expect(await res.json()).toBeNull()
    expectCleared(res, SESSION)
  })

  it("a malformed chunk set (bare + chunk): null and every form cleared", async () => {
    const { config } = setup()
    const { jar } = await signIn(config)
    const token = sessionToken(jar)
    const res = await Auth(get("/auth/session", { cookie: `${SESSION}=${token}; ${SESSION}.0=${token}` }), config)
    expect(await res.json()).toBeNull()
    expectCleared(res, SESSION)
    expectCleared(res, `${SESSION}.0`)
  })

  it("on https the __Secure- cookie is written and read", async () => {
    const { config } = setup()
    const { jar, res } = await signIn(config, undefined, "https://app.example")
    expect(res.headers.getSetCookie().find((c) => c.startsWith("__Secure-authjs.session-token="))).toMatch(/; HttpOnly; Secure; SameSite=Lax$/)
    const read = await Auth(get("/auth/session", { cookie: jar.header(), origin: "https://app.example" }), config)
    expect(((await read.json()) as { user: { name: string } }).user.name).toBe("Alice")
    // The plain name is not read on https.
    const plain = await Auth(get("/auth/session", { cookie: `${SESSION}=${sessionToken(jar, "__Secure-authjs.session-token")}`, origin: "https://app.example" }), config)
    expect(await plain.json()).toBeNull()
  })
})

describe("POST /session (update)", () => {
  async function signedIn(overrides: Partial<AuthConfig> = {}) {
    const s = setup(overrides)
    const { jar } = await signIn(s.config)
    const csrfToken = await fetchCsrf(s.config, jar)
    return { ...s, jar, csrfToken }
  }

  it("without a CSRF token: 400 null, nothing changes", async () => {
    const jwt = vi.fn(({ token }: { token: JWT }) => token)
    const { config, jar } = await signedIn({ callbacks: { jwt } })
    jwt.mockClear()
    const res = await Auth(postJson("/auth/session", { data: { name: "Bob" } }, { cookie: jar.header() }), config)
    expect(res.status).toBe(400)
    expect(res.headers.get("content-type")).toBe("application/json")
    expect(await res.text()).toBe("null")
    expect(res.headers.getSetCookie()).toEqual([])
    expect(jwt).not.toHaveBeenCalled()
  })

  it("with a wrong CSRF token: 400 null", async () => {
    const { config, jar } = await signedIn()
    const res = await Auth(postJson("/auth/session", { csrfToken: "f".repeat(64), data: {} }, { cookie: jar.header() }), config)
    expect(res.status).toBe(400)
    expect(await res.json()).toBeNull()
  })

  it("the jwt callback gets trigger update and session = data; the cookie is re-issued", async () => {
    const jwt = vi.fn(({ token, trigger, session }: { token: JWT; trigger?: string; session?: unknown }) =>
      trigger === "update" ? { ...token, name: (session as { name: string }).name } : token)
    const session = vi.fn(({ session: s }: { session: unknown }) => s)
    const { config, jar, csrfToken } = await signedIn({ callbacks: { jwt: jwt as never, session: session as never } })
    const before = await claims(sessionToken(jar))
    jwt.mockClear()
    const res = await Auth(postJson("/auth/session", { csrfToken, data: { name: "Bob" } }, { cookie: jar.header() }), config)
    expect(res.status).toBe(200)
    expect(jwt).toHaveBeenCalledTimes(1)
    expect(jwt.mock.calls[0]![0]).toEqual({
      token: { name: "Alice", email: "alice@example.com", picture: alice.image, sub: "user-1", iat: before.iat, exp: before.exp, jti: before.jti },
      trigger: "update",
      session: { name: "Bob" },
    })
    expect(session).toHaveBeenLastCalledWith(expect.objectContaining({ token: expect.objectContaining({ name: "Bob" }) }))
    expect(((await res.json()) as { user: { name: string } }).user.name).toBe("Bob")
    const reissued = await claims(expectSessionCookie(res))
    expect(reissued.name).toBe("Bob")
    expect(reissued.jti).not.toBe(before.jti)
    jar.store(res)
    const read = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    expect(((await read.json()) as { user: { name: string } }).user.name).toBe("Bob")
  })

  it("an update re-issues the cookie even when nothing changed", async () => {
    const { config, jar, csrfToken } = await signedIn()
    const res = await Auth(postJson("/auth/session", { csrfToken }, { cookie: jar.header() }), config)
    expect(res.status).toBe(200)
    expectSessionCookie(res)
  })

  it("with a valid CSRF token but no session cookie: 200 null", async () => {
    const { config } = setup()
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const res = await Auth(postJson("/auth/session", { csrfToken, data: { a: 1 } }, { cookie: jar.header() }), config)
    expect(res.status).toBe(200)
    expect(await res.json()).toBeNull()
    expect(res.headers.getSetCookie()).toEqual([])
  })

  it("a form-encoded update works too", async () => {
    const { config, jar, csrfToken } = await signedIn()
    const res = await Auth(postForm("/auth/session", { csrfToken }, { cookie: jar.header() }), config)
    expect(res.status).toBe(200)
    expect(((await res.json()) as { user: { name: string } }).user.name).toBe("Alice")
  })
})

describe("POST /signin", () => {
  it("POST /signin with a CSRF token: 302 to the sign-in page", async () => {
    const { config } = setup()
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const res = await Auth(postForm("/auth/signin", { csrfToken }, { cookie: jar.header() }), config)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe("http://localhost:3000/auth/signin")
    expect(res.headers.getSetCookie()).toEqual([])
  })

  it("POST /signin/credentials: 302 to the sign-in page, authorize not called", async () => {
    const authorize = vi.fn(() => ({ ...alice }))
    const { config } = setup({ providers: [Credentials({ credentials: {}, authorize })] })
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const res = await Auth(postForm("/auth/signin/credentials", { csrfToken, username: "alice" }, { cookie: jar.header() }), config)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe("http://localhost:3000/auth/signin")
    expect(authorize).not.toHaveBeenCalled()
  })

  it("without a CSRF token: 302 to /signin?error=MissingCSRF", async () => {
    const { config } = setup()
    const res = await Auth(postForm("/auth/signin", {}), config)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe("http://localhost:3000/auth/signin?error=MissingCSRF")
    expect(res.headers.getSetCookie()).toEqual([])
  })

  it("an unknown provider is refused (400 InvalidProvider)", async () => {
    const { config } = setup()
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const res = await Auth(postForm("/auth/signin/nope", { csrfToken }, { cookie: jar.header() }), config)
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: string }).error).toBe("InvalidProvider")
  })
})

describe("POST /callback/credentials", () => {
  it("success: 302 to the origin and a session cookie with the default token", async () => {
    const { config } = setup()
    const { res } = await signIn(config)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(ORIGIN)
    expect(await res.text()).toBe("")
    expect(res.headers.getSetCookie()).toHaveLength(1)
    const token = await claims(expectSessionCookie(res))
    expect(token).toEqual({
      name: "Alice", email: "alice@example.com", picture: "https://img.example/a.png", sub: "user-1",
      iat: expect.any(Number), exp: (token.iat as number) + MAX_AGE, jti: expect.any(String),
    })
  })

  it("success with callbackUrl: 302 there", async () => {
    const { config } = setup()
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const res = await Auth(postForm("/auth/callback/credentials", { csrfToken, username: "alice", password: "password", callbackUrl: "/dashboard?tab=1" }, { cookie: jar.header() }), config)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe("http://localhost:3000/dashboard?tab=1")
    expectSessionCookie(res)
  })

  it("a foreign callbackUrl falls back to the origin", async () => {
    const { config } = setup()
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const res = await Auth(postForm("/auth/callback/credentials", { csrfToken, username: "alice", password: "password", callbackUrl: "https://evil.example/x" }, { cookie: jar.header() }), config)
    expect(res.headers.get("location")).toBe(ORIGIN)
  })

  it("wrong credentials: 302 to /signin?error=CredentialsSignin&code=credentials, no session cookie", async () => {
    const { config, logger } = setup()
    const { res } = await signIn(config, { username: "alice", password: "wrong" })
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe("http://localhost:3000/auth/signin?error=CredentialsSignin&code=credentials")
    expect(res.headers.getSetCookie()).toEqual([])
    expect(loggedTypes(logger)).toEqual(["CredentialsSignin"])
  })

  it("a CredentialsSignin subclass with a custom code: &code=<code>", async () => {
    class InvalidOtp extends CredentialsSignin {
      override code = "bad_otp"
    }
    const { config } = setup({
      providers: [Credentials({ credentials: {}, authorize: () => { throw new InvalidOtp("otp mismatch") } })],
    })
    const { res } = await signIn(config, { username: "alice", password: "x" })
    expect(res.headers.get("location")).toBe("http://localhost:3000/auth/signin?error=CredentialsSignin&code=bad_otp")
    expect(res.headers.getSetCookie()).toEqual([])
  })

  it("authorize throws a plain Error: /error?error=Configuration, logged as CallbackRouteError", async () => {
    const boom = new Error("database down")
    const { config, logger } = setup({
      providers: [Credentials({ credentials: {}, authorize: () => { throw boom } })],
    })
    const { res } = await signIn(config, { username: "alice", password: "x" })
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe("http://localhost:3000/auth/error?error=Configuration")
    expect(res.headers.getSetCookie()).toEqual([])
    expect(loggedOf(logger, "CallbackRouteError").cause).toBe(boom)
  })

  it("without a CSRF token: MissingCSRF and authorize is never called", async () => {
    const authorize = vi.fn(() => ({ ...alice }))
    const { config } = setup({ providers: [Credentials({ credentials: {}, authorize })] })
    const res = await Auth(postForm("/auth/callback/credentials", { username: "alice", password: "password" }), config)
    expect(res.headers.get("location")).toBe("http://localhost:3000/auth/signin?error=MissingCSRF")
    expect(authorize).not.toHaveBeenCalled()
  })

  it("authorize receives the submitted string fields and a Request", async () => {
    const authorize = vi.fn((_c: unknown, _r: Request) => ({ ...alice }))
    const { config } = setup({ providers: [Credentials({ credentials: {}, authorize })] })
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    await Auth(postForm("/auth/callback/credentials", { csrfToken, username: "alice", password: "pw" }, { cookie: jar.header() }), config)
    expect(authorize).toHaveBeenCalledTimes(1)
    expect(authorize.mock.calls[0]![0]).toEqual({ csrfToken, username: "alice", password: "pw" })
    expect(authorize.mock.calls[0]![1]).toBeInstanceOf(Request)
  })
})

describe("GET /signout (page)", () => {
  it("200 HTML with a POST form carrying the csrfToken; mints the csrf cookie", async () => {
    const { config } = setup()
    const res = await Auth(get("/auth/signout"), config)
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toBe("text/html")
    const html = await res.text()
    const token = setCookies(res).get(CSRF)!.value.split("|")[0] as string
    expect(token).toMatch(/^[0-9a-f]{64}$/)
    expect(html).toMatch(/^<!DOCTYPE html>/)
    expect(html).toContain('<body class="__next-auth-theme-auto">')
    expect(html).toContain(`<form action="http://localhost:3000/auth/signout" method="POST"><input type="hidden" name="csrfToken" value="${token}">`)
  })

  it("reuses a valid csrf cookie (no Set-Cookie)", async () => {
    const { config } = setup()
    const jar = new CookieJar()
    const token = await fetchCsrf(config, jar)
    const res = await Auth(get("/auth/signout", { cookie: jar.header() }), config)
    expect(res.headers.getSetCookie()).toEqual([])
    expect(await res.text()).toContain(`name="csrfToken" value="${token}"`)
  })

  it("pages.signOut: 302 there, relative, no params", async () => {
    const { config } = setup({ pages: { signOut: "/bye" } })
    const res = await Auth(get("/auth/signout?callbackUrl=/x"), config)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe("/bye")
  })
})

describe("POST /signout", () => {
  it("clears every session chunk, fires signOut with the token and redirects to callbackUrl", async () => {
    const blob = "c".repeat(6000)
    const signOut = vi.fn()
    const { config } = setup({ callbacks: { jwt: ({ token }) => ({ ...token, blob }) }, events: { signOut } })
    const { jar } = await signIn(config)
    const chunks = [...jar.cookies.keys()].filter((n) => n.startsWith(`${SESSION}.`))
    expect(chunks.length).toBeGreaterThanOrEqual(2)
    const csrfToken = await fetchCsrf(config, jar)
    const res = await Auth(postForm("/auth/signout", { csrfToken, callbackUrl: "/bye" }, { cookie: jar.header() }), config)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe("http://localhost:3000/bye")
    for (const name of chunks) expectCleared(res, name)
    expect(res.headers.getSetCookie()).toHaveLength(chunks.length)
    expect(signOut).toHaveBeenCalledTimes(1)
    expect(signOut).toHaveBeenCalledWith({ token: expect.objectContaining({ name: "Alice", email: "alice@example.com", sub: "user-1", blob }) })
    jar.store(res)
    const after = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    expect(await after.json()).toBeNull()
  })

  it("an unchunked session: the bare cookie cleared, redirect to the origin by default", async () => {
    const signOut = vi.fn<(message: { token: JWT | null } | { session: unknown }) => void>()
    const { config } = setup({ events: { signOut } })
    const { jar } = await signIn(config)
    const csrfToken = await fetchCsrf(config, jar)
    const res = await Auth(postForm("/auth/signout", { csrfToken }, { cookie: jar.header() }), config)
    expect(res.headers.get("location")).toBe(ORIGIN)
    expect(res.headers.getSetCookie()).toEqual([`${SESSION}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax`])
    expect((signOut.mock.calls[0]![0] as { token: JWT | null }).token?.sub).toBe("user-1")
  })

  it("no session: 302 to callbackUrl, nothing cleared, no event", async () => {
    const signOut = vi.fn()
    const { config } = setup({ events: { signOut } })
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const res = await Auth(postForm("/auth/signout", { csrfToken, callbackUrl: "/bye" }, { cookie: jar.header() }), config)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe("http://localhost:3000/bye")
    expect(res.headers.getSetCookie()).toEqual([])
    expect(signOut).not.toHaveBeenCalled()
  })

  it("an unreadable session is still cleared; SignOutError logged; no event", async () => {
    const signOut = vi.fn()
    const { config, logger } = setup({ events: { signOut } })
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const res = await Auth(postForm("/auth/signout", { csrfToken }, { cookie: `${jar.header()}; ${SESSION}=garbage` }), config)
    expect(res.headers.get("location")).toBe(ORIGIN)
    expectCleared(res, SESSION)
    expect(signOut).not.toHaveBeenCalled()
    expect(loggedTypes(logger)).toContain("SignOutError")
  })

  it("without a CSRF token: MissingCSRF, the session survives", async () => {
    const signOut = vi.fn()
    const { config } = setup({ events: { signOut } })
    const { jar } = await signIn(config)
    const res = await Auth(postForm("/auth/signout", {}, { cookie: jar.header() }), config)
    expect(res.headers.get("location")).toBe("http://localhost:3000/auth/signin?error=MissingCSRF")
    expect(res.headers.getSetCookie()).toEqual([])
    expect(signOut).not.toHaveBeenCalled()
  })
})

describe("GET /signin (page)", () => {
  it("renders a credentials form with one input per field, hidden csrfToken and callbackUrl", async () => {
    const { config } = setup()
    const res = await Auth(get("/auth/signin?callbackUrl=%2Fdash"), config)
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toBe("text/html")
    const token = setCookies(res).get(CSRF)!.value.split("|")[0] as string
    const html = await res.text()
    const form = /<form action="http:\/\/localhost:3000\/auth\/callback\/credentials" method="POST">(.*?)<\/form>/.exec(html)
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
    expect(html).toContain('<form action="http://localhost:3000/auth/callback/otp" method="POST">')
    expect(html).toContain('name="code" type="text" placeholder="123456"')
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
    expect(html).toContain(`<div class="error" role="alert">${text}</div>`)
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

describe("X-Auth-Return-Redirect", () => {
  const header = { "X-Auth-Return-Redirect": "1" }

  it("a successful redirect becomes 200 JSON {url}, keeping Set-Cookie and Location", async () => {
    const { config } = setup()
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const res = await Auth(postForm("/auth/callback/credentials", { csrfToken, username: "alice", password: "password", callbackUrl: "/dash" }, { cookie: jar.header(), headers: header }), config)
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toBe("application/json")
    expect(await res.json()).toEqual({ url: "http://localhost:3000/dash" })
    expect(res.headers.get("location")).toBe("http://localhost:3000/dash")
    expectSessionCookie(res)
  })

  it("an error becomes 200 JSON {url: error page} without cookies", async () => {
    const { config } = setup()
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const res = await Auth(postForm("/auth/callback/credentials", { csrfToken, username: "alice", password: "bad" }, { cookie: jar.header(), headers: header }), config)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ url: "http://localhost:3000/auth/signin?error=CredentialsSignin&code=credentials" })
    expect(res.headers.getSetCookie()).toEqual([])
  })

  it("sign-out with the header: {url} plus the clearing cookie", async () => {
    const { config } = setup()
    const { jar } = await signIn(config)
    const csrfToken = await fetchCsrf(config, jar)
    const res = await Auth(postForm("/auth/signout", { csrfToken, callbackUrl: "/bye" }, { cookie: jar.header(), headers: header }), config)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ url: "http://localhost:3000/bye" })
    expectCleared(res, SESSION)
  })

  it("non-redirect responses are unchanged", async () => {
    const { config } = setup()
    const res = await Auth(get("/auth/session", { headers: header }), config)
    expect(res.status).toBe(200)
    expect(await res.json()).toBeNull()
  })
})

describe("raw mode", () => {
  it("returns the internal object for a JSON route", async () => {
    const { config } = setup()
    const out = await Auth(get("/auth/session"), { ...config, raw })
    expect(out).not.toBeInstanceOf(Response)
    expect(out).toEqual({
      status: 200,
      headers: { "Content-Type": "application/json", "Cache-Control": "private, no-cache, no-store", Expires: "0", Pragma: "no-cache" },
      body: null,
    })
  })

  it("returns cookies as objects", async () => {
    const { config } = setup()
    const out = await Auth(get("/auth/csrf"), { ...config, raw })
    const token = (out.body as { csrfToken: string }).csrfToken
    expect(out.status).toBe(200)
    expect(out.cookies).toEqual([
      { name: CSRF, value: `${token}|${createHash("sha256").update(token + SECRET).digest("hex")}`, options: { httpOnly: true, sameSite: "lax", path: "/", secure: false } },
    ])
  })

  it("a sign-in returns {redirect, cookies}", async () => {
    const { config } = setup()
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const out = await Auth(postForm("/auth/callback/credentials", { csrfToken, username: "alice", password: "password" }, { cookie: jar.header() }), { ...config, raw })
    expect(out.redirect).toBe(ORIGIN)
    expect(out.status).toBeUndefined()
    expect(out.cookies).toHaveLength(1)
    const [cookie] = out.cookies!
    expect(cookie!.name).toBe(SESSION)
    expect(cookie!.options).toMatchObject({ httpOnly: true, sameSite: "lax", path: "/", secure: false, maxAge: MAX_AGE })
    expect(cookie!.options.expires).toBeInstanceOf(Date)
    expect((await claims(cookie!.value)).sub).toBe("user-1")
  })

  it("an AuthError is thrown in raw mode", async () => {
    const { config } = setup()
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const rawConfig = { ...config, raw }
    const request = () => postForm("/auth/callback/credentials", { csrfToken, username: "alice", password: "bad" }, { cookie: jar.header() })
    const error = await Auth(request(), rawConfig).then(() => undefined, (e: unknown) => e)
    expect(error).toBeInstanceOf(CredentialsSignin)
    expect((error as CredentialsSignin).type).toBe("CredentialsSignin")
    expect((error as CredentialsSignin).code).toBe("credentials")
    await expect(Auth(postForm("/auth/signin", {}), rawConfig)).rejects.toMatchObject({ type: "MissingCSRF" })
  })

  it("raw mode with the X-Auth-Return-Redirect header returns the error redirect instead of throwing", async () => {
    const { config } = setup()
    const out = await Auth(postForm("/auth/signin", {}, { headers: { "X-Auth-Return-Redirect": "1" } }), { ...config, raw })
    expect(out).toEqual({ redirect: "http://localhost:3000/auth/signin?error=MissingCSRF" })
  })
})

describe("callbacks.signIn", () => {
  async function attempt(signInCb: NonNullable<NonNullable<AuthConfig["callbacks"]>["signIn"]>, overrides: Partial<AuthConfig> = {}) {
    const signInEvent = vi.fn()
    const s = setup({ callbacks: { signIn: signInCb }, events: { signIn: signInEvent }, ...overrides })
    const { res } = await signIn(s.config)
    return { ...s, res, signInEvent }
  }

  it("true: the sign-in continues; the callback gets user, account and credentials", async () => {
    const cb = vi.fn((_params: unknown) => true)
    const { res } = await attempt(cb)
    expect(res.headers.get("location")).toBe(ORIGIN)
    expectSessionCookie(res)
    expect(cb).toHaveBeenCalledTimes(1)
    expect(cb.mock.calls[0]![0]).toEqual({
      user: { ...alice },
      account: { provider: "credentials", type: "credentials", providerAccountId: "user-1" },
      credentials: expect.objectContaining({ username: "alice", password: "password" }),
    })
  })

  it("false: /error?error=AccessDenied, no session, no signIn event", async () => {
    const { res, signInEvent, logger } = await attempt(() => false)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe("http://localhost:3000/auth/error?error=AccessDenied")
    expect(res.headers.getSetCookie()).toEqual([])
    expect(signInEvent).not.toHaveBeenCalled()
    expect(loggedTypes(logger)).toEqual(["AccessDenied"])
  })

  it("false with pages.error: redirect to <origin><pages.error>?error=AccessDenied", async () => {
    const { res } = await attempt(() => false, { pages: { error: "/oops" } })
    expect(res.headers.get("location")).toBe("http://localhost:3000/oops?error=AccessDenied")
  })

  it("a string: 302 there (through the redirect rule), no session", async () => {
    const { res, signInEvent } = await attempt(() => "/welcome")
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe("http://localhost:3000/welcome")
    expect(res.headers.getSetCookie()).toEqual([])
    expect(signInEvent).not.toHaveBeenCalled()
    const foreign = await attempt(() => "https://evil.example/")
    expect(foreign.res.headers.get("location")).toBe(ORIGIN)
  })

  it("a throw: AccessDenied with the original message, logged", async () => {
    const original = new Error("blocked by policy")
    const { res, logger } = await attempt(() => {
      throw original
    })
    expect(res.headers.get("location")).toBe("http://localhost:3000/auth/error?error=AccessDenied")
    expect(res.headers.getSetCookie()).toEqual([])
    const logged = loggedOf(logger, "AccessDenied")
    expect(logged.message).toBe("blocked by policy")
    expect(logged.cause).toBe(original)
  })
})

describe("callbacks.redirect", () => {
  it("receives {url, baseUrl} and its result is the Location", async () => {
    const redirect = vi.fn(({ url, baseUrl }: { url: string; baseUrl: string }) => (url === "/dash" ? "https://partner.example/landing" : baseUrl))
    const { config } = setup({ callbacks: { redirect } })
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const res = await Auth(postForm("/auth/callback/credentials", { csrfToken, username: "alice", password: "password", callbackUrl: "/dash" }, { cookie: jar.header() }), config)
    expect(redirect).toHaveBeenCalledWith({ url: "/dash", baseUrl: ORIGIN })
    expect(res.headers.get("location")).toBe("https://partner.example/landing")
  })

  it("is used for the sign-out callbackUrl too", async () => {
    const redirect = vi.fn(() => "/after")
    const { config } = setup({ callbacks: { redirect } })
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const res = await Auth(postForm("/auth/signout", { csrfToken, callbackUrl: "/x" }, { cookie: jar.header() }), config)
    expect(res.headers.get("location")).toBe("http://localhost:3000/after")
    expect(redirect).toHaveBeenCalledWith({ url: "/x", baseUrl: ORIGIN })
  })
})

describe("callbacks.jwt and callbacks.session", () => {
  it("jwt on sign-in: trigger signIn, the default token, user and account", async () => {
    const jwt = vi.fn(({ token }: { token: JWT }) => ({ ...token, role: "admin" }))
    const { config } = setup({ callbacks: { jwt: jwt as never } })
    const { jar } = await signIn(config)
    expect(jwt).toHaveBeenCalledTimes(1)
    expect(jwt.mock.calls[0]![0]).toEqual({
      token: { name: "Alice", email: "alice@example.com", picture: "https://img.example/a.png", sub: "user-1" },
      user: { ...alice },
      account: { provider: "credentials", type: "credentials", providerAccountId: "user-1" },
      isNewUser: false,
      trigger: "signIn",
    })
    expect((await claims(sessionToken(jar))).role).toBe("admin")
  })

  it("jwt on read: the decoded token, no trigger", async () => {
    const jwt = vi.fn(({ token }: { token: JWT }) => token)
    const { config } = setup({ callbacks: { jwt: jwt as never } })
    const { jar } = await signIn(config)
    const stored = await claims(sessionToken(jar))
    jwt.mockClear()
    await Auth(get("/auth/session", { cookie: jar.header() }), config)
    expect(jwt).toHaveBeenCalledTimes(1)
    const arg = jwt.mock.calls[0]![0] as { token: JWT; trigger?: string; session?: unknown }
    expect(arg.token).toEqual(stored)
    expect(arg.trigger).toBeUndefined()
    expect(arg.session).toBeUndefined()
  })

  it("jwt returning null on sign-in: no session cookie is set", async () => {
    const { config } = setup({ callbacks: { jwt: () => null } })
    const { res, jar } = await signIn(config)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(ORIGIN)
    expect(jar.cookies.has(SESSION)).toBe(false)
    expect(res.headers.getSetCookie().every((c) => !c.startsWith(`${SESSION}=`) || c.includes("Max-Age=0"))).toBe(true)
  })

  it("jwt returning null on read: null session and the cookie cleared", async () => {
    const { config } = setup({ callbacks: { jwt: ({ token, trigger }) => (trigger === "signIn" ? token : null) } })
    const { jar } = await signIn(config)
    const res = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    expect(res.status).toBe(200)
    expect(await res.json()).toBeNull()
    expect(res.headers.getSetCookie()).toEqual([`${SESSION}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax`])
  })

  it("a jwt callback that changes the token on read re-issues the cookie", async () => {
    let reads = 0
    const { config } = setup({ callbacks: { jwt: ({ token, trigger }) => (trigger ? token : { ...token, reads: ++reads }) } })
    const { jar } = await signIn(config)
    const res = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    expect((await claims(expectSessionCookie(res))).reads).toBe(1)
  })

  it("the session callback shapes the output and gets {session, token}", async () => {
    const sessionCb = vi.fn(({ session, token }: { session: Record<string, unknown>; token: JWT }) => ({
      ...session,
      user: { ...(session.user as object), id: token.sub, role: token.role },
      extra: "x",
    }))
    const { config } = setup({ callbacks: { jwt: ({ token }) => ({ ...token, role: "admin" }), session: sessionCb as never } })
    const { jar } = await signIn(config)
    const stored = await claims(sessionToken(jar))
    const res = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    const expires = new Date((stored.exp as number) * 1000).toISOString()
    expect(await res.json()).toEqual({
      user: { name: "Alice", email: "alice@example.com", image: "https://img.example/a.png", id: "user-1", role: "admin" },
      expires,
      extra: "x",
    })
    const arg = sessionCb.mock.calls[0]![0] as { session: unknown; token: JWT }
    expect(arg.session).toEqual({ user: { name: "Alice", email: "alice@example.com", image: "https://img.example/a.png" }, expires })
    expect(arg.token).toEqual(stored)
  })
})

describe("events", () => {
  it("signIn gets {user, account}", async () => {
    const signInEvent = vi.fn()
    const { config } = setup({ events: { signIn: signInEvent } })
    await signIn(config)
    expect(signInEvent).toHaveBeenCalledTimes(1)
    expect(signInEvent).toHaveBeenCalledWith({
      user: { ...alice },
      account: { provider: "credentials", type: "credentials", providerAccountId: "user-1" },
    })
  })

  it("session gets {session, token} after each read", async () => {
    const sessionEvent = vi.fn()
    const { config } = setup({ events: { session: sessionEvent } })
    const { jar } = await signIn(config)
    const stored = await claims(sessionToken(jar))
    const res = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    const body = await res.json()
    expect(sessionEvent).toHaveBeenCalledTimes(1)
    expect(sessionEvent).toHaveBeenCalledWith({ session: body, token: stored })
  })

  it("no session event when there is no session", async () => {
    const sessionEvent = vi.fn()
    const { config } = setup({ events: { session: sessionEvent } })
    await Auth(get("/auth/session"), config)
    expect(sessionEvent).not.toHaveBeenCalled()
  })

  it("a throwing event is logged as EventError and does not change the response", async () => {
    const boom = new Error("audit log offline")
    const { config, logger } = setup({
      events: {
        signIn: () => { throw boom },
        session: async () => { throw boom },
        signOut: () => { throw boom },
      },
    })
    const { res, jar } = await signIn(config)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(ORIGIN)
    expectSessionCookie(res)
    const logged = loggedOf(logger, "EventError")
    expect(logged.cause).toBe(boom)
    expect(logged.message).toContain("signIn")

    const read = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    expect(read.status).toBe(200)
    expect(((await read.json()) as { user: { name: string } }).user.name).toBe("Alice")

    const csrfToken = await fetchCsrf(config, jar)
    const out = await Auth(postForm("/auth/signout", { csrfToken }, { cookie: jar.header() }), config)
    expect(out.headers.get("location")).toBe(ORIGIN)
    expectCleared(out, SESSION)
    expect(loggedTypes(logger)).toEqual(["EventError", "EventError", "EventError"])
  })
})

describe("session.maxAge", () => {
  it("controls the cookie Max-Age/Expires and the token exp", async () => {
    const { config } = setup({ session: { maxAge: 3600 } })
    const { res, jar } = await signIn(config)
    const token = await claims(expectSessionCookie(res, 3600))
    expect((token.exp as number) - (token.iat as number)).toBe(3600)
    const read = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    const body = (await read.json()) as { expires: string }
    expect(body.expires).toBe(new Date((token.exp as number) * 1000).toISOString())
  })

  it("re-issued cookies keep the configured maxAge", async () => {
    const { config } = setup({ session: { maxAge: 7200, updateAge: 0 } })
    const { jar } = await signIn(config)
    const res = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    const token = await claims(expectSessionCookie(res, 7200))
    expect((token.exp as number) - (token.iat as number)).toBe(7200)
    const body = (await res.json()) as { expires: string }
    expect(Math.abs(Date.parse(body.expires) - (Date.now() + 7200 * 1000))).toBeLessThan(3000)
  })
})

describe("jwt.encode / jwt.decode overrides", () => {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url")

  function overrides() {
    const encodeFn = vi.fn(async ({ token }: { token?: JWT }) => `custom.${b64(token)}`)
    const decodeFn = vi.fn(async ({ token }: { token?: string }) =>
      token?.startsWith("custom.") ? (JSON.parse(Buffer.from(token.slice(7), "base64url").toString()) as JWT) : null)
    return { encodeFn, decodeFn }
  }

  it("are used to write and read the session cookie", async () => {
    const { encodeFn, decodeFn } = overrides()
    const { config } = setup({ jwt: { encode: encodeFn, decode: decodeFn } })
    const { res, jar } = await signIn(config)
    const value = expectSessionCookie(res)
    expect(value).toBe(`custom.${b64({ name: "Alice", email: "alice@example.com", picture: alice.image, sub: "user-1" })}`)
    expect(encodeFn).toHaveBeenCalledTimes(1)
    expect(encodeFn.mock.calls[0]![0]).toMatchObject({ salt: SESSION, maxAge: MAX_AGE, token: { sub: "user-1" } })
    const read = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    expect(((await read.json()) as { user: { email: string } }).user.email).toBe("alice@example.com")
    expect(decodeFn).toHaveBeenCalledTimes(1)
    expect(decodeFn.mock.calls[0]![0]).toMatchObject({ token: value, salt: SESSION })
  })

  it("a decode override returning null: null session, cookie cleared", async () => {
    const { encodeFn } = overrides()
    const { config } = setup({ jwt: { encode: encodeFn, decode: async () => null } })
    const { jar } = await signIn(config)
    const res = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    expect(await res.json()).toBeNull()
    expectCleared(res, SESSION)
  })

  // Auth.js calls jwt.encode/decode with `{...jwt, token, salt}` where `jwt.secret` is `config.secret`
  // as configured: a string stays a string. Overrides written for Auth.js (e.g. jsonwebtoken.sign(token,
  // secret)) depend on it.
  it("the overrides receive the secret as configured (a string stays a string)", async () => {
    const { encodeFn, decodeFn } = overrides()
    const { config } = setup({ jwt: { encode: encodeFn, decode: decodeFn } })
    const { jar } = await signIn(config)
    await Auth(get("/auth/session", { cookie: jar.header() }), config)
    expect((encodeFn.mock.calls[0]![0] as { secret: unknown }).secret).toBe(SECRET)
    expect((decodeFn.mock.calls[0]![0] as { secret: unknown }).secret).toBe(SECRET)
  })

  it("with a secret list the overrides receive the list", async () => {
    const { encodeFn } = overrides()
    const { config } = setup({ secret: [S2, S1], jwt: { encode: encodeFn } })
    await signIn(config)
    expect((encodeFn.mock.calls[0]![0] as { secret: unknown }).secret).toEqual([S2, S1])
  })
})

describe("secret rotation", () => {
  async function tokenUnder(secret: string | string[]) {
    const { config } = setup({ secret })
    return signIn(config)
  }

  it("a token made with S1 is accepted under [S2, S1] and re-issued under S2's kid", async () => {
    const { jar } = await tokenUnder(S1)
    const oldToken = sessionToken(jar)
    expect(JSON.parse(Buffer.from(oldToken.split(".")[0] as string, "base64url").toString()).kid).toBe(deriveKey(S1, SESSION).kid)
    const { config } = setup({ secret: [S2, S1] })
    const res = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    expect(res.status).toBe(200)
    expect(((await res.json()) as { user: { name: string } }).user.name).toBe("Alice")
    const fresh = expectSessionCookie(res)
    const header = JSON.parse(Buffer.from(fresh.split(".")[0] as string, "base64url").toString())
    expect(header).toEqual({ alg: "dir", enc: "A256CBC-HS512", kid: deriveKey(S2, SESSION).kid })
    expect((await claims(fresh, S2)).sub).toBe("user-1")
    await expect(decode({ token: fresh, secret: S1, salt: SESSION })).rejects.toThrow()
  })

  it("a token made with S1 is rejected under [S2] alone and cleared", async () => {
    const { jar } = await tokenUnder(S1)
    const { config } = setup({ secret: [S2] })
    const res = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    expect(await res.json()).toBeNull()
    expectCleared(res, SESSION)
  })

  it("a fresh token under the current first secret is not re-issued", async () => {
    const { jar } = await tokenUnder([S2, S1])
    const { config } = setup({ secret: [S2, S1] })
    const res = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    expect(res.headers.getSetCookie()).toEqual([])
    expect(((await res.json()) as { user: { name: string } }).user.name).toBe("Alice")
  })

  it("a token made by encode() with S1 and no sign-in is read the same way", async () => {
    const token = await encode({ token: { name: "Eve", sub: "u9" }, secret: S1, salt: SESSION })
    const { config } = setup({ secret: [S2, S1] })
    const res = await Auth(get("/auth/session", { cookie: `${SESSION}=${token}` }), config)
    expect(((await res.json()) as { user: { name: string } }).user.name).toBe("Eve")
    expect(expectSessionCookie(res)).not.toBe(token)
  })
})

describe("routing", () => {
  it("an unknown action: 400 JSON UnknownAction", async () => {
    const { config } = setup()
    const res = await Auth(get("/auth/nope"), config)
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: string }).error).toBe("UnknownAction")
  })

  it("POST /csrf: 405 with Allow: GET", async () => {
    const { config } = setup()
    const res = await Auth(postForm("/auth/csrf", {}), config)
    expect(res.status).toBe(405)
    expect(res.headers.get("allow")).toBe("GET")
    expect(((await res.json()) as { error: string }).error).toBe("UnknownAction")
  })

  it("GET /callback/credentials: 405 with Allow: POST, authorize not called", async () => {
    const authorize = vi.fn(() => ({ ...alice }))
    const { config } = setup({ providers: [Credentials({ credentials: {}, authorize })] })
    const res = await Auth(get("/auth/callback/credentials?username=alice"), config)
    expect(res.status).toBe(405)
    expect(res.headers.get("allow")).toBe("POST")
    expect(authorize).not.toHaveBeenCalled()
  })
})
