// Wire compatibility with @auth/core 0.41.3: every test runs real requests / real token calls through
// BOTH libraries and checks that what one produces the other accepts, and that the wire output matches.
// Deliberate differences (docs/differences.md) are excluded explicitly where they apply.
import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import { Auth as AuthJs } from "@auth/core"
import type { AuthConfig as AuthJsConfig } from "@auth/core"
import AuthJsCredentials from "@auth/core/providers/credentials"
import * as authjsJwt from "@auth/core/jwt"
import { Auth } from "../src/index.js"
import type { AuthConfig } from "../src/index.js"
import Credentials from "../src/providers/credentials.js"
import { decode, encode, getToken } from "../src/jwt/index.js"
import { CookieJar, SECRET, alice, setCookies } from "./support/flow-kit.js"

// ---------------------------------------------------------------------------------------------
// Setup: two configs of the same shape, kept as separate objects.
// ---------------------------------------------------------------------------------------------

const HTTP = "http://localhost:3000"
const HTTPS = "https://localhost:3000"
const ORIGINS = [HTTP, HTTPS] as const
const S1 = "first-rotation-secret-0123456789abcdefghijklmnop"
const S2 = "second-rotation-secret-0123456789abcdefghijklmno"
const PLAIN_SALT = "authjs.session-token"
const SECURE_SALT = "__Secure-authjs.session-token"
const DEFAULT_MAX_AGE = 30 * 24 * 60 * 60
const BIG = 5000 // a claim this long makes the session JWE > 3936 chars, i.e. chunked

const aliceUser = { id: alice.id, name: alice.name, email: alice.email, image: alice.image }
const expectedSessionUser = { name: alice.name, email: alice.email, image: alice.image }

const credentialFields = { username: { label: "Username" }, password: { label: "Password", type: "password" } }
const authorize = async (c: Partial<Record<string, unknown>>) =>
  c.username === "alice" && c.password === "password" ? { ...aliceUser } : null

/** Callbacks that add a big claim at sign-in (=> chunked cookie) and expose its length in /session. */
const chunkyCallbacks = {
  jwt: ({ token, user }: { token: Record<string, unknown>; user?: unknown }) =>
    user ? { ...token, big: "x".repeat(BIG) } : token,
  session: ({ session, token }: { session: Record<string, unknown>; token: Record<string, unknown> }) => ({
    ...session,
    bigLen: typeof token.big === "string" ? token.big.length : null,
  }),
}

function authjsConfig(extra: Partial<AuthJsConfig> = {}): AuthJsConfig {
  return {
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    // Auth.js prints full stack traces for CredentialsSignin etc.; keep the test output readable.
    logger: { error() {}, warn() {}, debug() {} },
    providers: [AuthJsCredentials({ credentials: credentialFields, authorize })],
    ...extra,
  }
}

function gatehouseConfig(extra: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    providers: [Credentials({ credentials: credentialFields, authorize: authorize as never })],
    ...extra,
  }
}

type Handler = (req: Request) => Promise<Response>
type LibName = "authjs" | "gatehouse"

function handler(lib: LibName, extra: Record<string, unknown> = {}): Handler {
  if (lib === "authjs") {
    const cfg = authjsConfig(extra as Partial<AuthJsConfig>)
    return (req) => AuthJs(req, cfg)
  }
  const cfg = gatehouseConfig(extra as Partial<AuthConfig>)
  return (req) => Auth(req, cfg)
}

const other = (lib: LibName): LibName => (lib === "authjs" ? "gatehouse" : "authjs")

// ---------------------------------------------------------------------------------------------
// Request helpers (library-agnostic)
// ---------------------------------------------------------------------------------------------

function getReq(origin: string, path: string, cookie = "", headers: Record<string, string> = {}): Request {
  const h = new Headers(headers)
  if (cookie) h.set("cookie", cookie)
  return new Request(`${origin}${path}`, { headers: h })
}

function formReq(
  origin: string,
  path: string,
  form: Record<string, string>,
  cookie = "",
  headers: Record<string, string> = {},
): Request {
  const h = new Headers(headers)
  h.set("content-type", "application/x-www-form-urlencoded")
  if (cookie) h.set("cookie", cookie)
  return new Request(`${origin}${path}`, { method: "POST", headers: h, body: new URLSearchParams(form).toString() })
}

const sessionName = (origin: string) => (origin.startsWith("https:") ? SECURE_SALT : PLAIN_SALT)
const csrfName = (origin: string) => (origin.startsWith("https:") ? "__Host-authjs.csrf-token" : "authjs.csrf-token")

/** GET /auth/csrf through `h`, storing cookies into `jar`; returns the token and the response. */
async function getCsrf(h: Handler, origin: string, jar: CookieJar): Promise<{ csrfToken: string; res: Response }> {
  const res = await h(getReq(origin, "/auth/csrf", jar.header()))
  expect(res.status).toBe(200)
  jar.store(res)
  const body = (await res.clone().json()) as { csrfToken: string }
  return { csrfToken: body.csrfToken, res }
}

/** Credentials sign-in: GET /csrf then POST /callback/credentials, both through `h`. */
async function signIn(
  h: Handler,
  origin: string,
  creds = { username: "alice", password: "password" },
  headers: Record<string, string> = {},
) {
  const jar = new CookieJar()
  const { csrfToken } = await getCsrf(h, origin, jar)
  const res = await h(formReq(origin, "/auth/callback/credentials", { csrfToken, ...creds }, jar.header(), headers))
  jar.store(res)
  return { jar, res, csrfToken }
}

/** The `Cookie` header holding only the session cookie (chunks included) of a jar. */
function sessionCookieHeader(jar: CookieJar, origin: string): string {
  const name = sessionName(origin)
  return [...jar.cookies]
    .filter(([k]) => k === name || k.startsWith(`${name}.`))
    .map(([k, v]) => `${k}=${v}`)
    .join("; ")
}

async function readSession(h: Handler, origin: string, cookie: string): Promise<{ res: Response; body: any }> {
  const res = await h(getReq(origin, "/auth/session", cookie))
  const body = await res.clone().json()
  return { res, body }
}

/** Decoding either returns the payload, or fails (throw or null); normalise failure to null. */
async function tryDecode(fn: () => Promise<unknown>): Promise<any> {
  try {
    return (await fn()) ?? null
  } catch {
    return null
  }
}

function protectedHeader(jwe: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwe.split(".")[0]!, "base64url").toString("utf8"))
}

/**
 * A CSRF-checked POST that passed: a redirect that is not an error. The exact Location is checked
 * softly (the request carries a callback-url cookie from the minting library, and its value must be
 * redirected to as is, docs/wire-format.md §2.11), so that the rest of the test still runs when only that differs.
 */
function expectAcceptedRedirect(res: Response, origin: string, label = ""): void {
  const loc = res.headers.get("location")
  expect(loc, label).toBeTruthy()
  expect(loc, label).not.toMatch(/[?&]error=/)
  expect(new URL(loc!).origin, label).toBe(origin)
  expect.soft(loc, `${label} Location equals Auth.js's (the callback-url cookie value, unchanged)`).toBe(origin)
}

const sha256hex = (s: string) => createHash("sha256").update(s).digest("hex")
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/

/** Recursive "shape" of a JSON value: keys (sorted) and primitive types, not values. */
function shape(v: unknown): unknown {
  if (v === null) return "null"
  if (Array.isArray(v)) return v.map(shape)
  if (typeof v === "object") {
    return Object.fromEntries(
      Object.keys(v as object)
        .sort()
        .map((k) => [k, shape((v as Record<string, unknown>)[k])]),
    )
  }
  return typeof v
}

// ---------------------------------------------------------------------------------------------
// 1. Session JWE tokens
// ---------------------------------------------------------------------------------------------

describe("session JWE tokens cross-decode", () => {
  const claims = {
    name: "Alice",
    email: "alice@example.com",
    picture: "https://img.example/a.png",
    sub: "user-1",
    role: "admin",
    nested: { plan: "pro", tags: ["a", "b"], n: 3 },
  }

  for (const salt of [PLAIN_SALT, SECURE_SALT]) {
    describe(`salt ${salt}`, () => {
      it("@auth/core encode -> Gatehouse decode keeps every claim and adds iat/exp/jti", async () => {
        const token = await authjsJwt.encode({ token: claims, secret: SECRET, salt })
        const ours = await decode({ token, secret: SECRET, salt })
        expect(ours).toMatchObject(claims)
        expect(typeof ours!.iat).toBe("number")
        expect(ours!.exp! - ours!.iat!).toBe(DEFAULT_MAX_AGE)
        expect(ours!.jti).toMatch(UUID)
        // exactly what Auth.js itself reads from the token
        expect(ours).toEqual(await authjsJwt.decode({ token, secret: SECRET, salt }))
      })

      it("Gatehouse encode -> @auth/core decode keeps every claim and adds iat/exp/jti", async () => {
        const token = await encode({ token: claims, secret: SECRET, salt, maxAge: 3600 })
        const theirs = await authjsJwt.decode({ token, secret: SECRET, salt })
        expect(theirs).toMatchObject(claims)
        expect(typeof theirs!.iat).toBe("number")
        expect(Math.abs(theirs!.iat! - Date.now() / 1000)).toBeLessThan(30)
        expect(theirs!.exp! - theirs!.iat!).toBe(3600)
        expect(theirs!.jti).toMatch(UUID)
        expect(theirs).toEqual(await decode({ token, secret: SECRET, salt }))
      })

      it("Gatehouse and @auth/core produce the same JWE protected header (alg, enc, kid) and layout", async () => {
        const ours = await encode({ token: claims, secret: SECRET, salt })
        const theirs = await authjsJwt.encode({ token: claims, secret: SECRET, salt })
        expect(protectedHeader(ours)).toEqual(protectedHeader(theirs))
        expect(protectedHeader(ours)).toMatchObject({ alg: "dir", enc: "A256CBC-HS512" })
        const parts = ours.split(".")
        expect(parts).toHaveLength(5)
        expect(parts[1]).toBe("")
      })
    })
  }

  it("the salt is part of the key: a token for one cookie name is not readable under the other, in either direction", async () => {
    const theirs = await authjsJwt.encode({ token: claims, secret: SECRET, salt: PLAIN_SALT })
    expect(await tryDecode(() => decode({ token: theirs, secret: SECRET, salt: SECURE_SALT }))).toBeNull()
    const ours = await encode({ token: claims, secret: SECRET, salt: SECURE_SALT })
    expect(await tryDecode(() => authjsJwt.decode({ token: ours, secret: SECRET, salt: PLAIN_SALT }))).toBeNull()
  })

  it("a token made with another secret is rejected by both", async () => {
    const theirs = await authjsJwt.encode({ token: claims, secret: S1, salt: PLAIN_SALT })
    expect(await tryDecode(() => decode({ token: theirs, secret: S2, salt: PLAIN_SALT }))).toBeNull()
    const ours = await encode({ token: claims, secret: S1, salt: PLAIN_SALT })
    expect(await tryDecode(() => authjsJwt.decode({ token: ours, secret: S2, salt: PLAIN_SALT }))).toBeNull()
  })

  describe("secret rotation (array secrets)", () => {
    for (const salt of [PLAIN_SALT, SECURE_SALT]) {
      it(`[${salt}] @auth/core token made with S1 decodes in Gatehouse configured with [S2, S1]`, async () => {
        const token = await authjsJwt.encode({ token: claims, secret: S1, salt })
        expect(await decode({ token, secret: [S2, S1], salt })).toMatchObject(claims)
      })

      it(`[${salt}] Gatehouse token made with S1 decodes in @auth/core configured with [S2, S1]`, async () => {
        const token = await encode({ token: claims, secret: S1, salt })
        expect(await authjsJwt.decode({ token, secret: [S2, S1], salt })).toMatchObject(claims)
      })

      it(`[${salt}] Gatehouse encode with [S2, S1] uses S2 (the first), exactly like @auth/core`, async () => {
        const ours = await encode({ token: claims, secret: [S2, S1], salt })
        expect(await authjsJwt.decode({ token: ours, secret: S2, salt })).toMatchObject(claims)
        expect(await tryDecode(() => authjsJwt.decode({ token: ours, secret: S1, salt }))).toBeNull()
        const theirs = await authjsJwt.encode({ token: claims, secret: [S2, S1], salt })
        expect(protectedHeader(ours).kid).toBe(protectedHeader(theirs).kid)
        expect(await decode({ token: theirs, secret: S2, salt })).toMatchObject(claims)
        expect(await tryDecode(() => decode({ token: theirs, secret: S1, salt }))).toBeNull()
      })
    }
  })

  describe("getToken reads the other library's cookie", () => {
    for (const secureCookie of [false, true]) {
      const name = secureCookie ? SECURE_SALT : PLAIN_SALT
      const origin = secureCookie ? HTTPS : HTTP

      it(`secureCookie=${secureCookie}: @auth/core cookie -> Gatehouse getToken`, async () => {
        const token = await authjsJwt.encode({ token: claims, secret: SECRET, salt: name })
        const req = getReq(origin, "/api/x", `${name}=${token}`)
        expect(await getToken({ req, secret: SECRET, secureCookie })).toMatchObject(claims)
        expect(await getToken({ req, secret: SECRET, secureCookie, raw: true })).toBe(token)
        // wrong cookie family => nothing found
        expect(await getToken({ req, secret: SECRET, secureCookie: !secureCookie })).toBeNull()
      })

      it(`secureCookie=${secureCookie}: Gatehouse cookie -> @auth/core getToken`, async () => {
        const token = await encode({ token: claims, secret: SECRET, salt: name })
        const req = getReq(origin, "/api/x", `${name}=${token}`)
        expect(await authjsJwt.getToken({ req, secret: SECRET, secureCookie })).toMatchObject(claims)
      })
    }
  })
})

// ---------------------------------------------------------------------------------------------
// 2. Session cookies end to end
// ---------------------------------------------------------------------------------------------

describe("session cookie issued by one library is a valid session in the other", () => {
  for (const origin of ORIGINS) {
    for (const producer of ["authjs", "gatehouse"] as const) {
      const consumer = other(producer)

      it(`${origin}: ${producer} sign-in cookie -> ${consumer} GET /auth/session`, async () => {
        const { jar, res } = await signIn(handler(producer), origin)
        expect(res.status).toBe(302)
        expect(res.headers.get("location")).toBe(origin)
        expect(jar.cookies.has(sessionName(origin))).toBe(true)
        // the bare cookie name of this origin's cookie family, no other session cookie
        const otherFamily = origin.startsWith("https:") ? PLAIN_SALT : SECURE_SALT
        expect([...jar.cookies.keys()].some((k) => k.startsWith(otherFamily))).toBe(false)

        const cookie = jar.header() // the whole browser jar, as after swapping the library
        const theirs = await readSession(handler(consumer), origin, cookie)
        expect(theirs.res.status).toBe(200)
        expect(theirs.body).not.toBeNull()
        expect(theirs.body.user).toEqual(expectedSessionUser)
        // and it is the same user JSON the producing library reports for the same cookie
        const own = await readSession(handler(producer), origin, cookie)
        expect(theirs.body.user).toEqual(own.body.user)
      })

      it(`${origin}: ${producer} session cookie value moved under the other cookie name is rejected by ${consumer}`, async () => {
        // Proves the salt is the cookie name on both sides: the value of a plain cookie under
        // the __Secure- name (or vice versa) must not decrypt.
        const { jar } = await signIn(handler(producer), origin)
        const value = jar.cookies.get(sessionName(origin))!
        const wrongOrigin = origin === HTTP ? HTTPS : HTTP
        const { body } = await readSession(handler(consumer), wrongOrigin, `${sessionName(wrongOrigin)}=${value}`)
        expect(body).toBeNull()
      })

      it(`${origin}: chunked (> 3936 chars) ${producer} session cookie -> ${consumer}`, async () => {
        const { jar, res } = await signIn(handler(producer, { callbacks: chunkyCallbacks }), origin)
        expect(res.status).toBe(302)
        const name = sessionName(origin)
        const sc = setCookies(res)
        expect(sc.has(`${name}.0`)).toBe(true)
        expect(sc.has(`${name}.1`)).toBe(true)
        expect(sc.get(`${name}.0`)!.value).toHaveLength(3936)
        expect(jar.cookies.has(name)).toBe(false)

        const cookie = sessionCookieHeader(jar, origin)
        const theirs = await readSession(handler(consumer, { callbacks: chunkyCallbacks }), origin, cookie)
        expect(theirs.body?.user).toEqual(expectedSessionUser)
        expect(theirs.body?.bigLen).toBe(BIG)

        // and through getToken of the consumer
        const req = getReq(origin, "/api/x", cookie)
        const secureCookie = origin.startsWith("https:")
        const tok: any =
          consumer === "gatehouse"
            ? await getToken({ req, secret: SECRET, secureCookie })
            : await authjsJwt.getToken({ req, secret: SECRET, secureCookie })
        expect(tok?.sub).toBe("user-1")
        expect(tok?.big).toHaveLength(BIG)
      })
    }
  }
})

// ---------------------------------------------------------------------------------------------
// 3. CSRF double-submit cookie crosses libraries
// ---------------------------------------------------------------------------------------------

describe("CSRF token from one library is accepted by the other", () => {
  for (const origin of ORIGINS) {
    for (const minter of ["authjs", "gatehouse"] as const) {
      const checker = other(minter)

      it(`${origin}: ${minter} GET /csrf -> ${checker} POST /auth/callback/credentials signs in`, async () => {
        const jar = new CookieJar()
        const { csrfToken } = await getCsrf(handler(minter), origin, jar)
        expect(jar.cookies.has(csrfName(origin))).toBe(true)
        const res = await handler(checker)(
          formReq(
            origin,
            "/auth/callback/credentials",
            { csrfToken, username: "alice", password: "password" },
            jar.header(),
          ),
        )
        expect(res.status).toBe(302)
        expectAcceptedRedirect(res, origin)
        jar.store(res)
        const { body } = await readSession(handler(checker), origin, sessionCookieHeader(jar, origin))
        expect(body?.user).toEqual(expectedSessionUser)
      })

      it(`${origin}: ${minter} GET /csrf -> ${checker} POST /auth/signout clears the session`, async () => {
        // a browser signed in through the checker, holding a CSRF cookie minted by the minter
        const { jar: sessionJar } = await signIn(handler(checker), origin)
        const jar = new CookieJar()
        const { csrfToken } = await getCsrf(handler(minter), origin, jar)
        const cookie = `${jar.header()}; ${sessionCookieHeader(sessionJar, origin)}`
        const res = await handler(checker)(formReq(origin, "/auth/signout", { csrfToken }, cookie))
        expect(res.status).toBe(302)
        expectAcceptedRedirect(res, origin)
        const cleared = setCookies(res).get(sessionName(origin))
        expect(cleared, "session cookie must be cleared").toBeDefined()
        expect(cleared!.value).toBe("")
        const expiredByMaxAge = cleared!.attrs["max-age"] === "0"
        const expiredByDate =
          typeof cleared!.attrs.expires === "string" && Date.parse(cleared!.attrs.expires) <= Date.now()
        expect(expiredByMaxAge || expiredByDate).toBe(true)
      })

      it(`${origin}: ${checker} rejects a ${minter} CSRF cookie when the body token differs`, async () => {
        const jar = new CookieJar()
        await getCsrf(handler(minter), origin, jar)
        const res = await handler(checker)(
          formReq(
            origin,
            "/auth/callback/credentials",
            { csrfToken: "0".repeat(64), username: "alice", password: "password" },
            jar.header(),
          ),
        )
        expect(res.status).toBe(302)
        expect(res.headers.get("location")).toBe(`${origin}/auth/signin?error=MissingCSRF`)
      })

      it(`${origin}: ${checker} rejects a ${minter} CSRF cookie minted with another secret`, async () => {
        const jar = new CookieJar()
        const { csrfToken } = await getCsrf(handler(minter, { secret: S1 }), origin, jar)
        const res = await handler(checker)(
          formReq(
            origin,
            "/auth/callback/credentials",
            { csrfToken, username: "alice", password: "password" },
            jar.header(),
          ),
        )
        expect(res.status).toBe(302)
        expect(res.headers.get("location")).toBe(`${origin}/auth/signin?error=MissingCSRF`)
      })
    }

    it(`${origin}: array secrets hash the CSRF token the same way ([S2, S1] comma-joined)`, async () => {
      for (const minter of ["authjs", "gatehouse"] as const) {
        const jar = new CookieJar()
        const { csrfToken } = await getCsrf(handler(minter, { secret: [S2, S1] }), origin, jar)
        const res = await handler(other(minter), { secret: [S2, S1] })(
          formReq(
            origin,
            "/auth/callback/credentials",
            { csrfToken, username: "alice", password: "password" },
            jar.header(),
          ),
        )
        expectAcceptedRedirect(res, origin, `${minter} -> ${other(minter)}`)
      }
    })
  }
})

// ---------------------------------------------------------------------------------------------
// 4. Cookie names and attributes
// ---------------------------------------------------------------------------------------------

describe("cookie names and attributes match @auth/core", () => {
  for (const origin of ORIGINS) {
    const secure = origin.startsWith("https:")

    it(`${origin}: session cookie set on sign-in`, async () => {
      const a = setCookies((await signIn(handler("authjs"), origin)).res)
      const g = setCookies((await signIn(handler("gatehouse"), origin)).res)
      const name = sessionName(origin)
      expect(name).toBe(secure ? "__Secure-authjs.session-token" : "authjs.session-token")
      const sessionNamesOf = (m: typeof a) => [...m.keys()].filter((k) => k.includes("session-token"))
      expect(sessionNamesOf(a)).toEqual([name])
      expect(sessionNamesOf(g)).toEqual([name])

      const ac = a.get(name)!
      const gc = g.get(name)!
      const { "max-age": gMaxAge, expires: gExpires, ...gRest } = gc.attrs
      const { "max-age": aMaxAge, expires: aExpires, ...aRest } = ac.attrs
      expect(aMaxAge).toBeUndefined()
      // Path, HttpOnly, SameSite, Secure (and nothing else, e.g. no Domain) are identical
      expect(gRest).toEqual(aRest)
      expect(gRest).toMatchObject({ path: "/", httponly: true, samesite: "Lax" })
      expect("secure" in gRest).toBe(secure)
      expect("domain" in gRest).toBe(false)
      // Expires: both now + 30 days (Gatehouse additionally sends Max-Age, see differences.md)
      expect(typeof gExpires).toBe("string")
      expect(Math.abs(Date.parse(gExpires as string) - Date.parse(aExpires as string))).toBeLessThan(60_000)
      if (gMaxAge !== undefined) expect(Math.abs(Number(gMaxAge) - DEFAULT_MAX_AGE)).toBeLessThanOrEqual(5)
    })

    it(`${origin}: CSRF cookie set by GET /csrf`, async () => {
      const aRes = await handler("authjs")(getReq(origin, "/auth/csrf"))
      const gRes = await handler("gatehouse")(getReq(origin, "/auth/csrf"))
      const name = csrfName(origin)
      expect(name).toBe(secure ? "__Host-authjs.csrf-token" : "authjs.csrf-token")
      const a = setCookies(aRes).get(name)
      const g = setCookies(gRes).get(name)
      expect(a).toBeDefined()
      expect(g, `Gatehouse must set ${name}`).toBeDefined()
      // identical attributes: Path=/, HttpOnly, SameSite=Lax, Secure on https, no Expires/Max-Age
      expect(g!.attrs).toEqual(a!.attrs)
      // value `token|hash`, sent percent-encoded, hash = sha256(token + secret)
      for (const [c, res] of [
        [a!, aRes],
        [g!, gRes],
      ] as const) {
        expect(c.value).toMatch(/^[0-9a-f]{64}\|[0-9a-f]{64}$/)
        expect(c.raw).toMatch(new RegExp(`^${name.replace(/[.]/g, "\\.")}=[0-9a-f]{64}%7C[0-9a-f]{64};`))
        const [token, hash] = c.value.split("|")
        expect(hash).toBe(sha256hex(`${token}${SECRET}`))
        expect(((await res.json()) as { csrfToken: string }).csrfToken).toBe(token)
      }
    })
  }
})

// ---------------------------------------------------------------------------------------------
// 5. JSON shapes and redirects
// ---------------------------------------------------------------------------------------------

describe("JSON bodies and redirects match @auth/core", () => {
  for (const origin of ORIGINS) {
    it(`${origin}: GET /auth/session with a session`, async () => {
      const out: Record<string, { res: Response; body: any }> = {}
      for (const lib of ["authjs", "gatehouse"] as const) {
        const { jar } = await signIn(handler(lib), origin)
        out[lib] = await readSession(handler(lib), origin, jar.header())
      }
      const a = out.authjs!
      const g = out.gatehouse!
      expect(g.res.status).toBe(200)
      expect(g.res.headers.get("content-type")).toBe(a.res.headers.get("content-type"))
      expect(g.res.headers.get("cache-control")).toBe(a.res.headers.get("cache-control"))
      expect(shape(g.body)).toEqual(shape(a.body))
      expect(g.body.user).toEqual(a.body.user)
      expect(g.body.user).toEqual(expectedSessionUser)
      for (const body of [a.body, g.body]) {
        expect(body.expires).toMatch(ISO)
        expect(Math.abs(Date.parse(body.expires) - (Date.now() + DEFAULT_MAX_AGE * 1000))).toBeLessThan(120_000)
      }
    })

    it(`${origin}: GET /auth/session without a cookie is null`, async () => {
      for (const lib of ["authjs", "gatehouse"] as const) {
        const res = await handler(lib)(getReq(origin, "/auth/session"))
        expect(res.status, lib).toBe(200)
        expect(res.headers.get("content-type"), lib).toBe("application/json")
        expect(await res.text(), lib).toBe("null")
      }
    })

    it(`${origin}: GET /auth/csrf`, async () => {
      const a = await handler("authjs")(getReq(origin, "/auth/csrf"))
      const g = await handler("gatehouse")(getReq(origin, "/auth/csrf"))
      expect(g.status).toBe(a.status)
      expect(g.headers.get("content-type")).toBe(a.headers.get("content-type"))
      expect(g.headers.get("cache-control")).toBe(a.headers.get("cache-control"))
      const aBody = await a.json()
      const gBody = await g.json()
      expect(Object.keys(gBody)).toEqual(["csrfToken"])
      expect(shape(gBody)).toEqual(shape(aBody))
      expect(gBody.csrfToken).toMatch(/^[0-9a-f]{64}$/)
      expect(gBody.csrfToken).not.toBe(aBody.csrfToken)
    })

    it(`${origin}: GET /auth/providers is the exact same JSON`, async () => {
      const a = await handler("authjs")(getReq(origin, "/auth/providers"))
      const g = await handler("gatehouse")(getReq(origin, "/auth/providers"))
      expect(g.status).toBe(200)
      expect(g.headers.get("content-type")).toBe("application/json")
      const aBody = await a.json()
      expect(aBody).toEqual({
        credentials: {
          id: "credentials",
          name: "Credentials",
          type: "credentials",
          signinUrl: `${origin}/auth/signin/credentials`,
          callbackUrl: `${origin}/auth/callback/credentials`,
        },
      })
      expect(await g.json()).toEqual(aBody)
    })

    it(`${origin}: the post-sign-in redirect to a given callbackUrl is byte-identical`, async () => {
      // The default redirect callback (docs/wire-format.md §2.11): "/path" -> origin + path; same origin -> as is;
      // else origin.
      const cases: Array<[string, string]> = [
        [origin, origin],
        [`${origin}/dashboard`, `${origin}/dashboard`],
        ["/dashboard?tab=1", `${origin}/dashboard?tab=1`],
        ["https://evil.example/steal", origin],
      ]
      for (const [callbackUrl, expected] of cases) {
        for (const lib of ["authjs", "gatehouse"] as const) {
          const h = handler(lib)
          const jar = new CookieJar()
          const { csrfToken } = await getCsrf(h, origin, jar)
          const res = await h(
            formReq(
              origin,
              "/auth/callback/credentials",
              { csrfToken, callbackUrl, username: "alice", password: "password" },
              jar.header(),
            ),
          )
          expect(res.status, `${lib} ${callbackUrl}`).toBe(302)
          expect.soft(res.headers.get("location"), `${lib} callbackUrl=${callbackUrl}`).toBe(expected)
        }
      }
    })

    it(`${origin}: wrong credentials redirect to /auth/signin?error=CredentialsSignin&code=credentials`, async () => {
      const expected = `${origin}/auth/signin?error=CredentialsSignin&code=credentials`
      for (const lib of ["authjs", "gatehouse"] as const) {
        const { res, jar } = await signIn(handler(lib), origin, { username: "alice", password: "wrong" })
        expect(res.status, lib).toBe(302)
        expect(res.headers.get("location"), lib).toBe(expected)
        expect(jar.cookies.has(sessionName(origin)), lib).toBe(false)
      }
    })

    it(`${origin}: missing CSRF redirects to /auth/signin?error=MissingCSRF`, async () => {
      const expected = `${origin}/auth/signin?error=MissingCSRF`
      for (const lib of ["authjs", "gatehouse"] as const) {
        const h = handler(lib)
        // no cookie, no token
        const r1 = await h(formReq(origin, "/auth/callback/credentials", { username: "alice", password: "password" }))
        expect(r1.status, lib).toBe(302)
        expect(r1.headers.get("location"), lib).toBe(expected)
        expect(setCookies(r1).has(sessionName(origin)), lib).toBe(false)
        // a valid cookie but no token in the body
        const jar = new CookieJar()
        await getCsrf(h, origin, jar)
        const r2 = await h(
          formReq(origin, "/auth/callback/credentials", { username: "alice", password: "password" }, jar.header()),
        )
        expect(r2.headers.get("location"), lib).toBe(expected)
        // sign-out without a token
        const r3 = await h(formReq(origin, "/auth/signout", {}, jar.header()))
        expect(r3.status, lib).toBe(302)
        expect(r3.headers.get("location"), lib).toBe(expected)
      }
    })

    it(`${origin}: X-Auth-Return-Redirect turns redirects into 200 JSON {url}`, async () => {
      const hdr = { "X-Auth-Return-Redirect": "1" }
      const results: Record<string, { ok: any; bad: any; csrf: any; okCookie: boolean }> = {}
      for (const lib of ["authjs", "gatehouse"] as const) {
        const h = handler(lib)
        const ok = await signIn(h, origin, undefined, hdr)
        expect(ok.res.status, lib).toBe(200)
        expect(ok.res.headers.get("content-type"), lib).toMatch(/^application\/json/)
        const bad = await signIn(h, origin, { username: "alice", password: "wrong" }, hdr)
        expect(bad.res.status, lib).toBe(200)
        const csrf = await h(
          formReq(origin, "/auth/callback/credentials", { username: "alice", password: "password" }, "", hdr),
        )
        expect(csrf.status, lib).toBe(200)
        results[lib] = {
          ok: await ok.res.json(),
          bad: await bad.res.json(),
          csrf: await csrf.json(),
          okCookie: setCookies(ok.res).has(sessionName(origin)),
        }
      }
      expect(results.authjs).toEqual({
        ok: { url: origin },
        bad: { url: `${origin}/auth/signin?error=CredentialsSignin&code=credentials` },
        csrf: { url: `${origin}/auth/signin?error=MissingCSRF` },
        okCookie: true,
      })
      expect(results.gatehouse).toEqual(results.authjs)
    })
  }
})
