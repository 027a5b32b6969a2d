// Unit tests of request parsing: the path -> (action, provider) rule, and the bounded parseRequest
// (Cookie-header limit, body by content type, first form value wins, unsafe keys dropped).
import { describe, expect, it } from "vitest"
import { InvalidRequest, UnknownAction } from "../errors.js"
import { resolveConfig } from "../config/resolve.js"
import { makeConfig } from "../../test/support/flow-kit.js"
import { webInput } from "./input.js"
import { bodyString, repeatedFormField } from "../lib/body-fields.js"
import { MAX_COOKIE_HEADER, MAX_FORM_BYTES, parseActionPath, parseRequest } from "./parse.js"

describe("parseActionPath", () => {
  it.each([
    ["/auth/providers", "providers"],
    ["/auth/session", "session"],
    ["/auth/csrf", "csrf"],
    ["/auth/signin", "signin"],
    ["/auth/signout", "signout"],
    ["/auth/callback", "callback"],
    ["/auth/verify-request", "verify-request"],
    ["/auth/error", "error"],
    ["/auth/webauthn-options", "webauthn-options"],
  ])("%s -> %s", (path, action) => {
    expect(parseActionPath(path, "/auth")).toEqual({ action, providerId: undefined })
  })

  it.each([
    ["/auth/signin/github", "signin", "github"],
    ["/auth/callback/credentials", "callback", "credentials"],
    ["/auth/webauthn-options/passkey", "webauthn-options", "passkey"],
    ["/auth/callback/my.provider-1", "callback", "my.provider-1"],
  ])("%s carries a provider id", (path, action, providerId) => {
    expect(parseActionPath(path, "/auth")).toEqual({ action, providerId })
  })

  it("tolerates a trailing slash and empty segments", () => {
    expect(parseActionPath("/auth/session/", "/auth")).toEqual({ action: "session", providerId: undefined })
    expect(parseActionPath("/auth/callback/credentials/", "/auth")).toEqual({
      action: "callback",
      providerId: "credentials",
    })
    expect(parseActionPath("/auth//signin//github", "/auth")).toEqual({ action: "signin", providerId: "github" })
  })

  it("a provider id spelled `undefined` is treated as absent", () => {
    expect(parseActionPath("/auth/signin/undefined", "/auth")).toEqual({ action: "signin", providerId: undefined })
  })

  it.each([
    ["/auth/session/x", "a provider id on an action that takes none"],
    ["/auth/csrf/x", "a provider id on csrf"],
    ["/auth/error/x", "a provider id on error"],
    ["/auth/signin/a/b", "three segments"],
    ["/auth/unknown", "an unknown action"],
    ["/auth/Session", "a differently cased action"],
    ["/auth", "the base path alone"],
    ["/auth/", "the base path with a slash"],
    ["/authx/session", "a path that only starts with the base path"],
    ["/other/session", "another prefix"],
    ["/session", "no base path"],
    ["/auth/__proto__", "a prototype key as action"],
  ])("%s is refused (%s)", (path) => {
    expect(() => parseActionPath(path, "/auth")).toThrow(UnknownAction)
    try {
      parseActionPath(path, "/auth")
    } catch (error) {
      expect((error as UnknownAction).allow).toBeUndefined()
      expect((error as UnknownAction).type).toBe("UnknownAction")
    }
  })

  it("other base paths", () => {
    expect(parseActionPath("/api/auth/csrf", "/api/auth")).toEqual({ action: "csrf", providerId: undefined })
    expect(parseActionPath("/session", "/")).toEqual({ action: "session", providerId: undefined })
    expect(parseActionPath("/signin/x", "")).toEqual({ action: "signin", providerId: "x" })
    expect(() => parseActionPath("/auth/csrf", "/api/auth")).toThrow(UnknownAction)
  })
})

async function parse(request: Request) {
  return parseRequest(webInput(request), resolveConfig(makeConfig()))
}

describe("parseRequest", () => {
  it("a GET: action, provider, origin, cookies, query, empty body", async () => {
    const req = await parse(
      new Request("http://localhost:3000/auth/signin/github?error=X&callbackUrl=%2Fa", {
        headers: { cookie: "a=1; a=2; b=%7C" },
      }),
    )
    expect(req.action).toBe("signin")
    expect(req.providerId).toBe("github")
    expect(req.method).toBe("GET")
    expect(req.origin).toBe("http://localhost:3000")
    expect(req.secure).toBe(false)
    expect({ ...req.cookies }).toEqual({ a: "1", b: "|" })
    expect(req.query.get("callbackUrl")).toBe("/a")
    expect(req.body).toEqual({})
    expect(req.returnRedirect).toBe(false)
  })

  it("https is secure; X-Auth-Return-Redirect is seen", async () => {
    const req = await parse(
      new Request("https://app.example/auth/session", { headers: { "x-auth-return-redirect": "1" } }),
    )
    expect(req.secure).toBe(true)
    expect(req.origin).toBe("https://app.example")
    expect(req.returnRedirect).toBe(true)
  })

  it("a Cookie header over 64 KiB is refused with 431", async () => {
    expect(MAX_COOKIE_HEADER).toBe(64 * 1024)
    const big = `a=${"x".repeat(MAX_COOKIE_HEADER)}`
    await expect(
      parse(new Request("http://localhost:3000/auth/session", { headers: { cookie: big } })),
    ).rejects.toMatchObject({ type: "InvalidRequest", status: 431 })
    const ok = `a=${"x".repeat(MAX_COOKIE_HEADER - 2)}`
    expect(
      (await parse(new Request("http://localhost:3000/auth/session", { headers: { cookie: ok } }))).cookies.a,
    ).toHaveLength(MAX_COOKIE_HEADER - 2)
  })

  it("form body: first value wins, unsafe keys are dropped", async () => {
    const req = await parse(
      new Request("http://localhost:3000/auth/signin", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded; charset=UTF-8" },
        body: "callbackUrl=a&callbackUrl=b&__proto__=x&constructor=y&prototype=z&csrfToken=t",
      }),
    )
    expect(req.body).toEqual({ callbackUrl: "a", csrfToken: "t" })
    expect(Object.getPrototypeOf(req.body)).toBe(Object.prototype)
    expect(bodyString(req, "callbackUrl")).toBe("a")
  })

  it("repeatedFormField names the first of the given fields a form carries twice; JSON bodies and other fields never", async () => {
    const form = (body: string, type = "application/x-www-form-urlencoded") =>
      parse(
        new Request("http://localhost:3000/auth/signin", { method: "POST", headers: { "content-type": type }, body }),
      )
    const names = new Set(["email", "csrfToken"])
    expect(repeatedFormField(await form("email=a&x=1&x=2&csrfToken=t"), names)).toBeUndefined()
    expect(repeatedFormField(await form("email=a&csrfToken=t&email=b"), names)).toBe("email")
    expect(repeatedFormField(await form("csrfToken=t&csrfToken=t&email=a&email=b"), names)).toBe("csrfToken")
    expect(repeatedFormField(await form('{"email":"a","email":"b"}', "application/json"), names)).toBeUndefined()
  })

  it("JSON body: an object is kept (non-strings too, bodyString ignores them), unsafe keys dropped", async () => {
    const req = await parse(
      new Request("http://localhost:3000/auth/session", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"csrfToken":"t","data":{"name":"B"},"n":1,"__proto__":{"admin":true}}',
      }),
    )
    expect(req.body).toEqual({ csrfToken: "t", data: { name: "B" }, n: 1 })
    expect((req.body as Record<string, unknown>).admin).toBeUndefined()
    expect(bodyString(req, "n")).toBeUndefined()
    expect(bodyString(req, "csrfToken")).toBe("t")
  })

  it("invalid JSON or a non-object JSON body is a 400 InvalidRequest; an empty JSON body is {}", async () => {
    const post = (body: string) =>
      new Request("http://localhost:3000/auth/session", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      })
    await expect(parse(post("{nope"))).rejects.toBeInstanceOf(InvalidRequest)
    await expect(parse(post("[1,2]"))).rejects.toMatchObject({ status: 400 })
    await expect(parse(post('"str"'))).rejects.toMatchObject({ status: 400 })
    await expect(parse(post("null"))).rejects.toMatchObject({ status: 400 })
    expect((await parse(post("  "))).body).toEqual({})
  })

  it("other content types are not parsed", async () => {
    const req = await parse(
      new Request("http://localhost:3000/auth/signin", {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: "csrfToken=t",
      }),
    )
    expect(req.body).toEqual({})
  })

  it("a form body over 64 KiB is refused with 413", async () => {
    const body = `a=${"x".repeat(MAX_FORM_BYTES)}`
    await expect(
      parse(
        new Request("http://localhost:3000/auth/signin", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body,
        }),
      ),
    ).rejects.toMatchObject({ type: "InvalidRequest", status: 413 })
  })

  it("an unknown action throws UnknownAction before the body is read", async () => {
    await expect(
      parse(
        new Request("http://localhost:3000/auth/nope", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "{bad",
        }),
      ),
    ).rejects.toBeInstanceOf(UnknownAction)
  })
})
