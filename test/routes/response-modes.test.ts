// How a response is returned: the X-Auth-Return-Redirect convention (200 JSON {url}) and raw mode.
import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import { Auth, raw } from "../../src/index.js"
import { CredentialsSignin } from "../../src/errors.js"
import { CookieJar, ORIGIN, SECRET, fetchCsrf, get, postForm, signIn } from "../support/flow-kit.js"
import { SESSION, CSRF, MAX_AGE, setup, claims, expectCleared, expectSessionCookie } from "../support/routes-kit.js"

describe("the web Response", () => {
  it("a sign-in redirect is a 302 with Location and the Set-Cookie headers only: no body, no Content-Type", async () => {
    const { config } = setup()
    const { res } = await signIn(config, { username: "alice", password: "password", callbackUrl: "/dash" })
    expect(res.status).toBe(302)
    expect(res.body).toBeNull()
    expect([...new Set([...res.headers.keys()])]).toEqual(["location", "set-cookie"])
    expect(res.headers.get("location")).toBe("http://localhost:3000/dash")
    expectSessionCookie(res)
  })
})

describe("X-Auth-Return-Redirect", () => {
  const header = { "X-Auth-Return-Redirect": "1" }

  it("a successful redirect becomes 200 JSON {url}, keeping Set-Cookie and Location", async () => {
    const { config } = setup()
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const res = await Auth(
      postForm(
        "/auth/callback/credentials",
        { csrfToken, username: "alice", password: "password", callbackUrl: "/dash" },
        { cookie: jar.header(), headers: header },
      ),
      config,
    )
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
    const res = await Auth(
      postForm(
        "/auth/callback/credentials",
        { csrfToken, username: "alice", password: "bad" },
        { cookie: jar.header(), headers: header },
      ),
      config,
    )
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      url: "http://localhost:3000/auth/signin?error=CredentialsSignin&code=credentials",
    })
    expect(res.headers.getSetCookie()).toEqual([])
  })

  it("sign-out with the header: {url} plus the clearing cookie", async () => {
    const { config } = setup()
    const { jar } = await signIn(config)
    const csrfToken = await fetchCsrf(config, jar)
    const res = await Auth(
      postForm("/auth/signout", { csrfToken, callbackUrl: "/bye" }, { cookie: jar.header(), headers: header }),
      config,
    )
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
      headers: {
        "Content-Type": "application/json",
        "Cache-Control": "private, no-cache, no-store",
        Expires: "0",
        Pragma: "no-cache",
      },
      body: null,
    })
  })

  it("returns cookies as objects", async () => {
    const { config } = setup()
    const out = await Auth(get("/auth/csrf"), { ...config, raw })
    const token = (out.body as { csrfToken: string }).csrfToken
    expect(out.status).toBe(200)
    expect(out.cookies).toEqual([
      {
        name: CSRF,
        value: `${token}|${createHash("sha256")
          .update(token + SECRET)
          .digest("hex")}`,
        options: { httpOnly: true, sameSite: "lax", path: "/", secure: false },
      },
    ])
  })

  it("a sign-in returns {redirect, cookies}", async () => {
    const { config } = setup()
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const out = await Auth(
      postForm(
        "/auth/callback/credentials",
        { csrfToken, username: "alice", password: "password" },
        { cookie: jar.header() },
      ),
      { ...config, raw },
    )
    expect(out.redirect).toBe(ORIGIN)
    expect(out.status).toBeUndefined()
    expect(out.cookies).toHaveLength(1)
    const [cookie] = out.cookies!
    expect(cookie!.name).toBe(SESSION)
    expect(cookie!.options).toMatchObject({
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: false,
      maxAge: MAX_AGE,
    })
    expect(cookie!.options.expires).toBeInstanceOf(Date)
    expect((await claims(cookie!.value)).sub).toBe("user-1")
  })

  it("an AuthError is thrown in raw mode", async () => {
    const { config } = setup()
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const rawConfig = { ...config, raw }
    const request = () =>
      postForm(
        "/auth/callback/credentials",
        { csrfToken, username: "alice", password: "bad" },
        { cookie: jar.header() },
      )
    const error = await Auth(request(), rawConfig).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(CredentialsSignin)
    expect((error as CredentialsSignin).type).toBe("CredentialsSignin")
    expect((error as CredentialsSignin).code).toBe("credentials")
    await expect(Auth(postForm("/auth/signin", {}), rawConfig)).rejects.toMatchObject({ type: "MissingCSRF" })
  })

  it("raw mode with the X-Auth-Return-Redirect header returns the error redirect instead of throwing", async () => {
    const { config } = setup()
    const out = await Auth(postForm("/auth/signin", {}, { headers: { "X-Auth-Return-Redirect": "1" } }), {
      ...config,
      raw,
    })
    expect(out).toEqual({ redirect: "http://localhost:3000/auth/signin?error=MissingCSRF" })
  })
})
