// POST /session: the session update with its CSRF check and the jwt callback's update trigger.
import { describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import type { AuthConfig, JWT } from "../../src/index.js"
import { CookieJar, alice, fetchCsrf, get, postForm, postJson, signIn } from "../support/flow-kit.js"
import { setup, sessionToken, claims, expectSessionCookie } from "../support/routes-kit.js"

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
    const res = await Auth(
      postJson("/auth/session", { csrfToken: "f".repeat(64), data: {} }, { cookie: jar.header() }),
      config,
    )
    expect(res.status).toBe(400)
    expect(await res.json()).toBeNull()
  })

  it("the jwt callback gets trigger update and session = data; the cookie is re-issued", async () => {
    const jwt = vi.fn(({ token, trigger, session }: { token: JWT; trigger?: string; session?: unknown }) =>
      trigger === "update" ? { ...token, name: (session as { name: string }).name } : token,
    )
    const session = vi.fn(({ session: s }: { session: unknown }) => s)
    const { config, jar, csrfToken } = await signedIn({ callbacks: { jwt: jwt as never, session: session as never } })
    const before = await claims(sessionToken(jar))
    jwt.mockClear()
    const res = await Auth(
      postJson("/auth/session", { csrfToken, data: { name: "Bob" } }, { cookie: jar.header() }),
      config,
    )
    expect(res.status).toBe(200)
    expect(jwt).toHaveBeenCalledTimes(1)
    expect(jwt.mock.calls[0]![0]).toEqual({
      token: {
        name: "Alice",
        email: "alice@example.com",
        picture: alice.image,
        sub: "user-1",
        sid: before.sid,
        iat: before.iat,
        exp: before.exp,
        jti: before.jti,
      },
      trigger: "update",
      session: { name: "Bob" },
    })
    expect(session).toHaveBeenLastCalledWith(
      expect.objectContaining({ token: expect.objectContaining({ name: "Bob" }) }),
    )
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
