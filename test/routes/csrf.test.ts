// GET /csrf: minting, reusing and replacing the CSRF token and cookie (docs/wire-format.md §5), and skipCSRFCheck.
import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import { Auth, skipCSRFCheck } from "../../src/index.js"
import { CookieJar, ORIGIN, SECRET, fetchCsrf, get, postForm, setCookies } from "../support/flow-kit.js"
import { CSRF, setup, expectNoCacheJson, expectSessionCookie } from "../support/routes-kit.js"

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
    expect(setCookies(res).get(CSRF)?.value).toBe(
      `${csrfToken}|${createHash("sha256")
        .update(csrfToken + SECRET)
        .digest("hex")}`,
    )
  })

  it("on https the cookie is __Host-authjs.csrf-token with Secure", async () => {
    const { config } = setup()
    const res = await Auth(get("/auth/csrf", { origin: "https://app.example" }), config)
    const [cookie] = res.headers.getSetCookie()
    expect(cookie).toMatch(
      /^__Host-authjs\.csrf-token=[0-9a-f]{64}%7C[0-9a-f]{64}; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    )
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
