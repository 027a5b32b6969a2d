// Credentials sign-in: POST /signin and POST /callback/credentials, with their CSRF check, redirects and errors.
import { describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import { CredentialsSignin } from "../../src/errors.js"
import Credentials from "../../src/providers/credentials.js"
import { CookieJar, ORIGIN, alice, fetchCsrf, postForm, signIn } from "../support/flow-kit.js"
import { MAX_AGE, setup, loggedTypes, loggedOf, claims, expectSessionCookie } from "../support/routes-kit.js"

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
    const res = await Auth(
      postForm("/auth/signin/credentials", { csrfToken, username: "alice" }, { cookie: jar.header() }),
      config,
    )
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

  it("an unknown provider is a configuration error: 302 to /auth/error?error=Configuration, as in Auth.js", async () => {
    const { config } = setup()
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const res = await Auth(postForm("/auth/signin/nope", { csrfToken }, { cookie: jar.header() }), config)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`)
    expect(res.headers.getSetCookie()).toEqual([])
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
      name: "Alice",
      email: "alice@example.com",
      picture: "https://img.example/a.png",
      sub: "user-1",
      sid: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      iat: expect.any(Number),
      exp: (token.iat as number) + MAX_AGE,
      jti: expect.any(String),
    })
  })

  it("success with callbackUrl: 302 there", async () => {
    const { config } = setup()
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const res = await Auth(
      postForm(
        "/auth/callback/credentials",
        { csrfToken, username: "alice", password: "password", callbackUrl: "/dashboard?tab=1" },
        { cookie: jar.header() },
      ),
      config,
    )
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe("http://localhost:3000/dashboard?tab=1")
    expectSessionCookie(res)
  })

  it("a foreign callbackUrl falls back to the origin", async () => {
    const { config } = setup()
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const res = await Auth(
      postForm(
        "/auth/callback/credentials",
        { csrfToken, username: "alice", password: "password", callbackUrl: "https://evil.example/x" },
        { cookie: jar.header() },
      ),
      config,
    )
    expect(res.headers.get("location")).toBe(ORIGIN)
  })

  it("wrong credentials: 302 to /signin?error=CredentialsSignin&code=credentials, no session cookie", async () => {
    const { config, logger } = setup()
    const { res } = await signIn(config, { username: "alice", password: "wrong" })
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(
      "http://localhost:3000/auth/signin?error=CredentialsSignin&code=credentials",
    )
    expect(res.headers.getSetCookie()).toEqual([])
    expect(loggedTypes(logger)).toEqual(["CredentialsSignin"])
  })

  it("a CredentialsSignin subclass with a custom code: &code=<code>", async () => {
    class InvalidOtp extends CredentialsSignin {
      override code = "bad_otp"
    }
    const { config } = setup({
      providers: [
        Credentials({
          credentials: {},
          authorize: () => {
            throw new InvalidOtp("otp mismatch")
          },
        }),
      ],
    })
    const { res } = await signIn(config, { username: "alice", password: "x" })
    expect(res.headers.get("location")).toBe("http://localhost:3000/auth/signin?error=CredentialsSignin&code=bad_otp")
    expect(res.headers.getSetCookie()).toEqual([])
  })

  it("authorize throws a plain Error: /error?error=Configuration, logged as CallbackRouteError", async () => {
    const boom = new Error("database down")
    const { config, logger } = setup({
      providers: [
        Credentials({
          credentials: {},
          authorize: () => {
            throw boom
          },
        }),
      ],
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

  it("with no declared fields, authorize receives the submitted string fields but csrfToken, and a Request", async () => {
    const authorize = vi.fn((_c: unknown, _r: Request) => ({ ...alice }))
    const { config } = setup({ providers: [Credentials({ credentials: {}, authorize })] })
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    await Auth(
      postForm(
        "/auth/callback/credentials",
        { csrfToken, username: "alice", password: "pw" },
        { cookie: jar.header() },
      ),
      config,
    )
    expect(authorize).toHaveBeenCalledTimes(1)
    expect(authorize.mock.calls[0]![0]).toEqual({ username: "alice", password: "pw" })
    expect(authorize.mock.calls[0]![1]).toBeInstanceOf(Request)
  })
})
