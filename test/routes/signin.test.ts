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

  it("RD-04 wrong credentials with a callbackUrl: the sign-in page gets it back (same origin only), and the retry from that page lands there", async () => {
    const { config } = setup({ rateLimit: false })
    const jar = new CookieJar()
    const sent = async (callbackUrl: string) => {
      const csrfToken = await fetchCsrf(config, jar)
      const res = await Auth(
        postForm(
          "/auth/callback/credentials",
          { csrfToken, username: "alice", password: "wrong", callbackUrl },
          { cookie: jar.header() },
        ),
        config,
      )
      expect(res.status).toBe(302)
      expect(res.headers.getSetCookie()).toEqual([])
      return res.headers.get("location")
    }
    const page = `${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials`
    expect(await sent("/dash?tab=2")).toBe(`${page}&callbackUrl=${encodeURIComponent(`${ORIGIN}/dash?tab=2`)}`)
    expect(await sent(`${ORIGIN}/dash`)).toBe(`${page}&callbackUrl=${encodeURIComponent(`${ORIGIN}/dash`)}`)
    // Another origin or scheme, or the origin itself: nothing to hand back. A path is joined to the origin (so `//x` is
    // a path here, as in every redirect).
    for (const other of ["https://evil.example/x", "javascript:alert(1)", "http://localhost:3001/", ORIGIN, ""])
      expect(await sent(other)).toBe(page)
    expect(await sent("//evil.example/x")).toBe(
      `${page}&callbackUrl=${encodeURIComponent(`${ORIGIN}//evil.example/x`)}`,
    )
    // The page puts it in its form, and the form's retry lands on it.
    const form = await Auth(new Request(String(await sent("/dash")), { headers: { cookie: jar.header() } }), config)
    jar.store(form)
    const html = await form.text()
    expect(html).toContain(`name="callbackUrl" value="${ORIGIN}/dash"`)
    const csrfToken = /name="csrfToken" value="([^"]+)"/.exec(html)?.[1] ?? ""
    const retry = await Auth(
      postForm(
        "/auth/callback/credentials",
        { csrfToken, username: "alice", password: "password", callbackUrl: `${ORIGIN}/dash` },
        { cookie: jar.header() },
      ),
      config,
    )
    expect(retry.headers.get("location")).toBe(`${ORIGIN}/dash`)
  })

  it("rate limited: the sign-in page gets the callbackUrl back too", async () => {
    const { config } = setup()
    const jar = new CookieJar()
    let location: string | null = null
    for (let i = 0; i < 12 && !location?.includes("RateLimited"); i++) {
      const csrfToken = await fetchCsrf(config, jar)
      const res = await Auth(
        postForm(
          "/auth/callback/credentials",
          { csrfToken, username: "alice", password: "wrong", callbackUrl: "/dash" },
          { cookie: jar.header() },
        ),
        config,
      )
      location = res.headers.get("location")
    }
    expect(location).toBe(`${ORIGIN}/auth/signin?error=RateLimited&callbackUrl=${encodeURIComponent(`${ORIGIN}/dash`)}`)
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
