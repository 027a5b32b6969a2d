// GET /session: reading, sliding, re-issuing and clearing the JWT session cookie (docs/wire-format.md §2.2, §3, §4),
// and session.maxAge.
import { describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import Credentials from "../../src/providers/credentials.js"
import { alice, get, setCookies, signIn } from "../support/flow-kit.js"
import {
  SESSION,
  MAX_AGE,
  setup,
  loggedTypes,
  expectNoCacheJson,
  sessionToken,
  claims,
  expectCleared,
  expectSessionCookie,
  inThePast,
  tamper,
} from "../support/routes-kit.js"

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
    expect(res.headers.getSetCookie().find((c) => c.startsWith("__Secure-authjs.session-token="))).toMatch(
      /; HttpOnly; Secure; SameSite=Lax$/,
    )
    const read = await Auth(get("/auth/session", { cookie: jar.header(), origin: "https://app.example" }), config)
    expect(((await read.json()) as { user: { name: string } }).user.name).toBe("Alice")
    // The plain name is not read on https.
    const plain = await Auth(
      get("/auth/session", {
        cookie: `${SESSION}=${sessionToken(jar, "__Secure-authjs.session-token")}`,
        origin: "https://app.example",
      }),
      config,
    )
    expect(await plain.json()).toBeNull()
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
