// `v4Cookies: "accept"` through Auth(): session cookies minted by next-auth 4.24.15 itself (a credentials sign-in
// through its handler, tokens from its next-auth/jwt) are read once, answered as the session, re-issued as
// authjs.session-token and expired (every chunk) in the same response; bad ones are expired without a session; without
// the option nothing changes; a misspelt option is a configuration error.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { Auth, type AuthConfig } from "../../src/index.js"
import Credentials from "../../src/providers/credentials.js"
import { type ParsedCookie, setCookieList, setCookies } from "../support/cookies.js"
import { isolateEnv } from "../support/env.js"
import { alice, bob, CookieJar, fetchCsrf, get, postForm, postJson, SECRET } from "../support/flow-kit.js"
import { spyLogger } from "../support/logger.js"
import {
  type CookieMap,
  cookieHeader,
  V4_SECRET,
  V4_SESSION,
  v4CredentialsSignIn,
  v4Encode,
  v4SessionNames,
} from "./v4-kit.js"

let restoreEnv: () => void
beforeEach(() => {
  restoreEnv = isolateEnv()
})
afterEach(() => restoreEnv())

const SESSION = "authjs.session-token"

/** The v5-style app: credentials for bob, the v4 app's secret, a jwt and a session callback that pass `role` on. */
function upgradeConfig(overrides: Partial<AuthConfig> = {}) {
  const jwt = vi.fn(({ token }: { token: Record<string, unknown> }) => token)
  const session = vi.fn(({ session, token }: { session: Record<string, unknown>; token: Record<string, unknown> }) => ({
    ...session,
    role: token.role,
  }))
  const log = spyLogger()
  const config: AuthConfig = {
    secret: V4_SECRET,
    trustHost: true,
    basePath: "/auth",
    v4Cookies: "accept",
    logger: log.logger,
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: (c) => (c.username === "bob" && c.password === "password" ? { ...bob } : null),
      }),
    ],
    callbacks: { jwt: jwt as never, session: session as never },
    ...overrides,
  }
  return { config, jwt, session, log }
}

/** The Set-Cookie a response sends for `name` (the last one), or undefined. */
function cookieSet(res: Response, name: string): ParsedCookie | undefined {
  return setCookies(res).get(name)
}

function expectExpired(c: ParsedCookie | undefined, attrs: Record<string, string | true> = {}): void {
  expect(c).toBeDefined()
  expect(c?.value).toBe("")
  expect(c?.attrs["max-age"]).toBe("0")
  expect(c?.attrs).toMatchObject({ path: "/", httponly: true, samesite: "Lax", ...attrs })
}

/** Session cookie names (v5) a response leaves set with a value. */
function v5Set(res: Response): string[] {
  return setCookieList(res)
    .filter((c) => /^(__Secure-)?authjs\.session-token/.test(c.name) && c.value !== "")
    .map((c) => c.name)
}

async function session(config: AuthConfig, cookie: string, origin?: string): Promise<Response> {
  return Auth(get("/auth/session", { cookie, ...(origin ? { origin } : {}) }), config)
}

describe("a JWT session cookie of next-auth 4", () => {
  it("from next-auth 4's own credentials sign-in is the session once, re-issued as authjs.session-token and expired", async () => {
    const v4 = await v4CredentialsSignIn()
    expect(v4SessionNames(v4)).toEqual([V4_SESSION])
    const { config, jwt, session: sessionCallback } = upgradeConfig()
    const res = await session(config, cookieHeader(v4))
    expect(res.status).toBe(200)
    const body = (await res.json()) as Record<string, unknown>
    expect(body).toMatchObject({ user: { name: alice.name, email: alice.email }, role: "admin" })
    // The jwt callback saw the v4 token as a read (no trigger), the session callback the token it returned.
    expect(jwt).toHaveBeenCalledTimes(1)
    expect(jwt.mock.calls[0]?.[0]).toMatchObject({ token: { sub: "user-1", role: "admin" } })
    expect(jwt.mock.calls[0]?.[0]).not.toHaveProperty("trigger")
    expect(sessionCallback).toHaveBeenCalledTimes(1)
    expect(v5Set(res)).toEqual([SESSION])
    expect(cookieSet(res, SESSION)?.attrs).toMatchObject({ path: "/", httponly: true, samesite: "Lax" })
    expectExpired(cookieSet(res, V4_SESSION))
    // The next request, with only what the browser now holds, is signed in through the v5 cookie alone.
    const jar = new CookieJar()
    jar.store(res)
    expect([...jar.cookies.keys()]).toEqual([SESSION])
    const again = await session(config, jar.header())
    expect(await again.json()).toMatchObject({ user: { email: alice.email }, role: "admin" })
    expect(jwt).toHaveBeenCalledTimes(2)
    expect(cookieSet(again, V4_SESSION)).toBeUndefined()
    // It is a v5 token: an app without the option reads it too.
    const plain = upgradeConfig({ v4Cookies: undefined }).config
    expect(await (await session(plain, jar.header())).json()).toMatchObject({ user: { email: alice.email } })
  })

  it("chunked by next-auth 4 (.0, .1…) is joined, re-issued in v5 chunks, and every v4 chunk expired", async () => {
    const v4 = await v4CredentialsSignIn({ padding: 4000 })
    const chunks = v4SessionNames(v4)
    expect(chunks).toEqual([`${V4_SESSION}.0`, `${V4_SESSION}.1`])
    const { config } = upgradeConfig()
    const res = await session(config, cookieHeader(v4))
    expect(await res.json()).toMatchObject({ user: { email: alice.email }, role: "admin" })
    expect(v5Set(res)).toEqual([`${SESSION}.0`, `${SESSION}.1`])
    for (const name of chunks) expectExpired(cookieSet(res, name))
    expect(cookieSet(res, V4_SESSION)).toBeUndefined()
    const jar = new CookieJar()
    jar.store(res)
    expect(await (await session(config, jar.header())).json()).toMatchObject({ user: { email: alice.email } })
  })

  it("on https is the __Secure- cookie; it is expired with Secure, and a plain-named one is not read there", async () => {
    const token = await v4Encode({ sub: "user-1", name: "Alice", email: alice.email })
    const { config } = upgradeConfig()
    const origin = "https://app.example"
    const res = await session(config, `__Secure-${V4_SESSION}=${token}`, origin)
    expect(await res.json()).toMatchObject({ user: { email: alice.email } })
    expect(v5Set(res)).toEqual([`__Secure-${SESSION}`])
    expectExpired(cookieSet(res, `__Secure-${V4_SESSION}`), { secure: true })
    const plain = await session(config, `${V4_SESSION}=${token}`, origin)
    expect(await plain.json()).toBeNull()
    expect(plain.headers.getSetCookie()).toEqual([])
  })

  it("opens under any configured secret: the v4 app's old one may follow a new one", async () => {
    const token = await v4Encode({ sub: "user-1", email: alice.email })
    const { config } = upgradeConfig({ secret: [SECRET, V4_SECRET] })
    const res = await session(config, `${V4_SESSION}=${token}`)
    expect(await res.json()).toMatchObject({ user: { email: alice.email } })
    expect(v5Set(res)).toEqual([SESSION])
    // The re-issued cookie is sealed under the first (current) secret: an app with only that one reads it.
    const jar = new CookieJar()
    jar.store(res)
    const current = upgradeConfig({ secret: SECRET }).config
    expect(await (await session(current, jar.header())).json()).toMatchObject({ user: { email: alice.email } })
  })

  it("tampered, expired, under another secret or with a gap in its chunks: signed out, no error, the v4 cookie expired", async () => {
    const good = await v4Encode({ sub: "user-1", email: alice.email })
    const parts = good.split(".")
    parts[3] = `${parts[3]?.slice(0, -2)}${parts[3]?.endsWith("AA") ? "AB" : "AA"}`
    const chunked = await v4CredentialsSignIn({ padding: 4000 })
    const cases: Record<string, CookieMap> = {
      tampered: { [V4_SESSION]: parts.join(".") },
      expired: { [V4_SESSION]: await v4Encode({ sub: "user-1" }, V4_SECRET, -60) },
      "another secret": { [V4_SESSION]: await v4Encode({ sub: "user-1" }, "some-other-secret-of-at-least-32-chars!!") },
      "not a JWE": { [V4_SESSION]: "garbage" },
      "a chunk missing": { [`${V4_SESSION}.1`]: chunked[`${V4_SESSION}.1`] as string },
    }
    for (const [label, cookies] of Object.entries(cases)) {
      const { config, jwt, log } = upgradeConfig()
      const res = await session(config, cookieHeader(cookies))
      expect(res.status, label).toBe(200)
      expect(await res.json(), label).toBeNull()
      expect(v5Set(res), label).toEqual([])
      for (const name of Object.keys(cookies)) expectExpired(cookieSet(res, name))
      expect(jwt, label).not.toHaveBeenCalled()
      expect(log.types(), label).toEqual(["JWTSessionError"])
      expect(log.text(), label).not.toContain(V4_SECRET)
    }
  })

  it("without the option is ignored and left alone: signed out, no Set-Cookie", async () => {
    const v4 = await v4CredentialsSignIn()
    const { config, jwt } = upgradeConfig({ v4Cookies: undefined })
    const res = await session(config, cookieHeader(v4))
    expect(await res.json()).toBeNull()
    expect(res.headers.getSetCookie()).toEqual([])
    expect(jwt).not.toHaveBeenCalled()
  })

  it("loses to a v5 session cookie in the same request, valid or not; the v4 cookie is expired either way", async () => {
    const v4 = await v4CredentialsSignIn()
    const { config } = upgradeConfig()
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const signIn = await Auth(
      postForm(
        "/auth/callback/credentials",
        { csrfToken, username: "bob", password: "password" },
        { cookie: jar.header() },
      ),
      config,
    )
    jar.store(signIn)
    const both = await session(config, `${jar.header()}; ${cookieHeader(v4)}`)
    expect(await both.json()).toMatchObject({ user: { email: bob.email } })
    expectExpired(cookieSet(both, V4_SESSION))
    expect(v5Set(both)).toEqual([SESSION])
    const badV5 = await session(config, `${SESSION}=garbage; ${cookieHeader(v4)}`)
    expect(await badV5.json()).toBeNull()
    expectExpired(cookieSet(badV5, SESSION))
    expectExpired(cookieSet(badV5, V4_SESSION))
  })

  it("is ended by sign-out: the signOut event gets the v4 token and the v4 cookie is expired", async () => {
    const v4 = await v4CredentialsSignIn()
    const signOut = vi.fn()
    const { config } = upgradeConfig({ events: { signOut } })
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const res = await Auth(
      postForm("/auth/signout", { csrfToken }, { cookie: `${jar.header()}; ${cookieHeader(v4)}` }),
      config,
    )
    expect(res.status).toBe(302)
    expectExpired(cookieSet(res, V4_SESSION))
    expect(v5Set(res)).toEqual([])
    expect(signOut).toHaveBeenCalledWith({ token: expect.objectContaining({ sub: "user-1", role: "admin" }) })
  })

  it("can be updated (POST /session): the update applies to the v4 session and lands in the v5 cookie", async () => {
    const v4 = await v4CredentialsSignIn()
    const { config } = upgradeConfig({
      callbacks: {
        jwt: ({ token, trigger, session }) => (trigger === "update" ? { ...token, role: session.role } : token),
        session: ({ session, token }) => ({ ...session, role: token.role }),
      },
    })
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const res = await Auth(
      postJson(
        "/auth/session",
        { csrfToken, data: { role: "editor" } },
        { cookie: `${jar.header()}; ${cookieHeader(v4)}` },
      ),
      config,
    )
    expect(await res.json()).toMatchObject({ role: "editor" })
    expectExpired(cookieSet(res, V4_SESSION))
    jar.store(res)
    expect(await (await session(config, jar.header())).json()).toMatchObject({ role: "editor" })
  })

  it("is read under the configured session cookie name when the app kept next-auth 4's name for it", async () => {
    const token = await v4Encode({ sub: "user-1", email: alice.email })
    const { config } = upgradeConfig({ cookies: { sessionToken: { name: V4_SESSION } } })
    const res = await session(config, `${V4_SESSION}=${token}`)
    expect(await res.json()).toMatchObject({ user: { email: alice.email } })
    // Re-issued as a v5 token under the same name (not expired after being set).
    const set = setCookieList(res).filter((c) => c.name === V4_SESSION)
    expect(set).toHaveLength(1)
    expect(set[0]?.value).not.toBe("")
    expect(set[0]?.value).not.toBe(token)
    const jar = new CookieJar()
    jar.store(res)
    const plain = upgradeConfig({ cookies: { sessionToken: { name: V4_SESSION } }, v4Cookies: undefined }).config
    expect(await (await session(plain, jar.header())).json()).toMatchObject({ user: { email: alice.email } })
  })
})

describe("the v4Cookies option", () => {
  it("refuses any value but 'accept' as a configuration error naming the option", async () => {
    for (const value of ["Accept", "accepted", true, "yes"]) {
      const { config, log } = upgradeConfig({ v4Cookies: value as never })
      const res = await session(config, `${V4_SESSION}=x`)
      expect(res.status).toBe(500)
      expect(log.messages().join("\n")).toMatch(/`v4Cookies` must be "accept"/)
    }
  })
})
