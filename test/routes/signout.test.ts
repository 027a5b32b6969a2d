// Sign-out: the GET confirmation page and the POST that clears every session chunk and fires signOut.
import { describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import type { JWT } from "../../src/index.js"
import { CookieJar, ORIGIN, fetchCsrf, get, postForm, setCookies, signIn } from "../support/flow-kit.js"
import { SESSION, CSRF, setup, loggedTypes, expectCleared } from "../support/routes-kit.js"

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
    expect(html).toContain(
      `<form id="signout-form" action="http://localhost:3000/auth/signout" method="POST"><input type="hidden" name="csrfToken" value="${token}">`,
    )
  })

  it("?callbackUrl= rides along in the form, validated: confirming lands there; a foreign one becomes the origin", async () => {
    const { config } = setup()
    const { jar } = await signIn(config)
    const page = await Auth(get("/auth/signout?callbackUrl=%2Fbye", { cookie: jar.header() }), config)
    jar.store(page)
    const html = await page.text()
    expect(html).toContain(`<input type="hidden" name="callbackUrl" value="${ORIGIN}/bye">`)
    const csrfToken = /name="csrfToken" value="([0-9a-f]{64})"/.exec(html)![1]!
    const confirmed = await Auth(
      postForm("/auth/signout", { csrfToken, callbackUrl: `${ORIGIN}/bye` }, { cookie: jar.header() }),
      config,
    )
    expect(confirmed.headers.get("location")).toBe(`${ORIGIN}/bye`)

    const hostile = await (
      await Auth(get("/auth/signout?callbackUrl=https%3A%2F%2Fevil.example%2F", { cookie: jar.header() }), config)
    ).text()
    expect(hostile).toContain(`<input type="hidden" name="callbackUrl" value="${ORIGIN}">`)
    expect(hostile).not.toContain("evil.example")
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
    const res = await Auth(
      postForm("/auth/signout", { csrfToken, callbackUrl: "/bye" }, { cookie: jar.header() }),
      config,
    )
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe("http://localhost:3000/bye")
    for (const name of chunks) expectCleared(res, name)
    expect(res.headers.getSetCookie()).toHaveLength(chunks.length)
    expect(signOut).toHaveBeenCalledTimes(1)
    expect(signOut).toHaveBeenCalledWith({
      token: expect.objectContaining({ name: "Alice", email: "alice@example.com", sub: "user-1", blob }),
    })
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
    const res = await Auth(
      postForm("/auth/signout", { csrfToken, callbackUrl: "/bye" }, { cookie: jar.header() }),
      config,
    )
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
    const res = await Auth(
      postForm("/auth/signout", { csrfToken }, { cookie: `${jar.header()}; ${SESSION}=garbage` }),
      config,
    )
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
