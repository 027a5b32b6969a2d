// The signIn, redirect, jwt and session callbacks: what they receive and how their results shape the response.
import { describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import type { AuthConfig, JWT } from "../../src/index.js"
import { CookieJar, ORIGIN, alice, fetchCsrf, get, postForm, signIn } from "../support/flow-kit.js"
import {
  SESSION,
  setup,
  loggedTypes,
  loggedOf,
  sessionToken,
  claims,
  expectSessionCookie,
} from "../support/routes-kit.js"

describe("callbacks.signIn", () => {
  async function attempt(
    signInCb: NonNullable<NonNullable<AuthConfig["callbacks"]>["signIn"]>,
    overrides: Partial<AuthConfig> = {},
  ) {
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
    const redirect = vi.fn(({ url, baseUrl }: { url: string; baseUrl: string }) =>
      url === "/dash" ? "https://partner.example/landing" : baseUrl,
    )
    const { config } = setup({ callbacks: { redirect } })
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const res = await Auth(
      postForm(
        "/auth/callback/credentials",
        { csrfToken, username: "alice", password: "password", callbackUrl: "/dash" },
        { cookie: jar.header() },
      ),
      config,
    )
    expect(redirect).toHaveBeenCalledWith({ url: "/dash", baseUrl: ORIGIN })
    expect(res.headers.get("location")).toBe("https://partner.example/landing")
  })

  it("is used for the sign-out callbackUrl too", async () => {
    const redirect = vi.fn(() => "/after")
    const { config } = setup({ callbacks: { redirect } })
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const res = await Auth(
      postForm("/auth/signout", { csrfToken, callbackUrl: "/x" }, { cookie: jar.header() }),
      config,
    )
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
      // sid: the session's random id (session/session-id.ts), in the token from its issue.
      token: {
        name: "Alice",
        email: "alice@example.com",
        picture: "https://img.example/a.png",
        sub: "user-1",
        sid: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      },
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
    const { config } = setup({
      callbacks: { jwt: ({ token, trigger }) => (trigger ? token : { ...token, reads: ++reads }) },
    })
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
    const { config } = setup({
      callbacks: { jwt: ({ token }) => ({ ...token, role: "admin" }), session: sessionCb as never },
    })
    const { jar } = await signIn(config)
    const stored = await claims(sessionToken(jar))
    const res = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    const expires = new Date((stored.exp as number) * 1000).toISOString()
    expect(await res.json()).toEqual({
      user: {
        name: "Alice",
        email: "alice@example.com",
        image: "https://img.example/a.png",
        id: "user-1",
        role: "admin",
      },
      expires,
      extra: "x",
    })
    const arg = sessionCb.mock.calls[0]![0] as { session: unknown; token: JWT }
    expect(arg.session).toEqual({
      user: { name: "Alice", email: "alice@example.com", image: "https://img.example/a.png" },
      expires,
    })
    expect(arg.token).toEqual(stored)
  })
})
