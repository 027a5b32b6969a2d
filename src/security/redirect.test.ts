// Unit tests of redirect validation: the default `redirect` callback, the check on a user callback's
// result, and callbackUrl resolution (body > query > cookie > origin).
import { describe, expect, it, vi } from "vitest"
import type { AuthRequest, ResolvedConfig } from "../pipeline-types.js"
import { defaultCookies } from "../cookies/policy.js"
import { applyRedirect, defaultRedirect, resolveCallbackUrl } from "./redirect.js"

const baseUrl = "http://localhost:3000"

describe("defaultRedirect", () => {
  it.each([
    ["a path is joined to the origin", "/dashboard", "http://localhost:3000/dashboard"],
    ["the root path", "/", "http://localhost:3000/"],
    ["a path with query and fragment", "/a?b=1&c=2#frag", "http://localhost:3000/a?b=1&c=2#frag"],
    ["the origin itself", "http://localhost:3000", "http://localhost:3000"],
    ["a same-origin absolute URL is kept as given", "http://localhost:3000/x?y=1", "http://localhost:3000/x?y=1"],
    ["same origin in upper case is kept byte for byte", "HTTP://LOCALHOST:3000/A", "HTTP://LOCALHOST:3000/A"],
    ["a protocol-relative path stays on the origin", "//evil.com", "http://localhost:3000//evil.com"],
    ["a backslash path stays on the origin, sent in its parsed form", "/\\evil.com", "http://localhost:3000//evil.com"],
    ["a path with a space is percent-encoded", "/path with space", "http://localhost:3000/path%20with%20space"],
    ["a non-ASCII path is percent-encoded", "/ü", "http://localhost:3000/%C3%BC"],
    ["CR/LF cannot inject a header", "/a\r\nSet-Cookie: x=1", "http://localhost:3000/aSet-Cookie:%20x=1"],
  ])("%s", (_label, url, expected) => {
    expect(defaultRedirect({ url, baseUrl })).toBe(expected)
  })

  it.each([
    ["another host", "https://evil.com/steal"],
    ["another port", "http://localhost:3001/"],
    ["another scheme", "https://localhost:3000/"],
    ["a host that only starts with the origin", "http://localhost:3000.evil.com/"],
    ["userinfo that hides another host", "http://localhost:3000@evil.com/"],
    ["a javascript: URL", "javascript:alert(1)"],
    ["a data: URL", "data:text/html,<script>alert(1)</script>"],
    ["an ftp: URL", "ftp://localhost:3000/"],
    ["a relative path without a leading slash", "dashboard"],
    ["an empty string", ""],
    ["garbage", "http://[::1"],
  ])("%s falls back to the base URL", (_label, url) => {
    expect(defaultRedirect({ url, baseUrl })).toBe(baseUrl)
  })

  it("a URL longer than 8192 characters falls back to the base URL; 8192 is accepted", () => {
    const ok = `/${"a".repeat(8191)}`
    expect(defaultRedirect({ url: ok, baseUrl })).toBe(`${baseUrl}${ok}`)
    expect(defaultRedirect({ url: `/${"a".repeat(8192)}`, baseUrl })).toBe(baseUrl)
  })

  it("a non-string url falls back to the base URL", () => {
    expect(defaultRedirect({ url: undefined as never, baseUrl })).toBe(baseUrl)
    expect(defaultRedirect({ url: 42 as never, baseUrl })).toBe(baseUrl)
  })

  it("an https origin: default port written out still counts as same origin", () => {
    expect(defaultRedirect({ url: "https://app.example:443/x", baseUrl: "https://app.example" })).toBe(
      "https://app.example:443/x",
    )
    expect(defaultRedirect({ url: "http://app.example/x", baseUrl: "https://app.example" })).toBe("https://app.example")
  })

  it("an unparsable base URL is returned as is", () => {
    expect(defaultRedirect({ url: "/x", baseUrl: "not a url" })).toBe("not a url")
  })
})

function fakeReq(
  init: { body?: Record<string, unknown>; query?: string; cookies?: Record<string, string>; secure?: boolean } = {},
): AuthRequest {
  return {
    origin: baseUrl,
    secure: init.secure ?? false,
    body: init.body ?? {},
    query: new URLSearchParams(init.query ?? ""),
    cookies: init.cookies ?? {},
  } as unknown as AuthRequest
}

function fakeConfig(redirect?: (p: { url: string; baseUrl: string }) => unknown) {
  const logger = { error: vi.fn(), warn: vi.fn(), debug: vi.fn() }
  const config = {
    callbacks: redirect ? { redirect } : {},
    logger,
    cookies: (secure: boolean) => defaultCookies(secure),
  } as unknown as ResolvedConfig
  return { config, logger }
}

describe("applyRedirect", () => {
  it("without a user callback applies the default rule", async () => {
    const { config } = fakeConfig()
    expect(await applyRedirect("/x", fakeReq(), config)).toBe("http://localhost:3000/x")
    expect(await applyRedirect("https://evil.com", fakeReq(), config)).toBe(baseUrl)
  })

  it("passes {url, baseUrl} to the user callback and honours an allowed foreign URL", async () => {
    const redirect = vi.fn(() => "https://partner.example/landing")
    const { config } = fakeConfig(redirect)
    expect(await applyRedirect("/from-client", fakeReq(), config)).toBe("https://partner.example/landing")
    expect(redirect).toHaveBeenCalledWith({ url: "/from-client", baseUrl })
  })

  it("a path returned by the callback is made absolute on the origin", async () => {
    const { config } = fakeConfig(async () => "/welcome")
    expect(await applyRedirect("/x", fakeReq(), config)).toBe("http://localhost:3000/welcome")
  })

  it.each([
    ["a javascript: URL", "javascript:alert(1)"],
    ["a relative path without slash", "welcome"],
    ["a number", 42],
    ["null", null],
    ["an over-long URL", `https://partner.example/${"a".repeat(8200)}`],
  ])("a callback returning %s falls back to the base URL", async (_label, value) => {
    const { config } = fakeConfig(() => value)
    expect(await applyRedirect("/x", fakeReq(), config)).toBe(baseUrl)
  })

  it("a callback that throws falls back to the base URL and is logged", async () => {
    const boom = new Error("redirect exploded")
    const { config, logger } = fakeConfig(() => {
      throw boom
    })
    expect(await applyRedirect("/x", fakeReq(), config)).toBe(baseUrl)
    expect(logger.error).toHaveBeenCalledWith(boom)
  })

  it("a non-ASCII result is percent-encoded", async () => {
    const { config } = fakeConfig(() => "https://partner.example/ä b")
    expect(await applyRedirect("/x", fakeReq(), config)).toBe("https://partner.example/%C3%A4%20b")
  })
})

describe("resolveCallbackUrl", () => {
  const cookieName = "authjs.callback-url"

  it("no candidate: the origin", async () => {
    const { config } = fakeConfig()
    expect(await resolveCallbackUrl(fakeReq(), config)).toBe(baseUrl)
    expect(await resolveCallbackUrl(fakeReq({ body: { callbackUrl: "" } }), config)).toBe(baseUrl)
  })

  it("the body wins over the query and the cookie", async () => {
    const { config } = fakeConfig()
    const req = fakeReq({
      body: { callbackUrl: "/body" },
      query: "callbackUrl=/query",
      cookies: { [cookieName]: "/cookie" },
    })
    expect(await resolveCallbackUrl(req, config)).toBe("http://localhost:3000/body")
  })

  it("the query wins over the cookie", async () => {
    const { config } = fakeConfig()
    expect(
      await resolveCallbackUrl(
        fakeReq({ query: "callbackUrl=%2Fquery", cookies: { [cookieName]: "/cookie" } }),
        config,
      ),
    ).toBe("http://localhost:3000/query")
  })

  it("the cookie is used last, and the secure cookie name on https", async () => {
    const { config } = fakeConfig()
    expect(await resolveCallbackUrl(fakeReq({ cookies: { [cookieName]: "http://localhost:3000/c" } }), config)).toBe(
      "http://localhost:3000/c",
    )
    expect(await resolveCallbackUrl(fakeReq({ secure: true, cookies: { [cookieName]: "/plain" } }), config)).toBe(
      baseUrl,
    )
    expect(
      await resolveCallbackUrl(fakeReq({ secure: true, cookies: { [`__Secure-${cookieName}`]: "/s" } }), config),
    ).toBe("http://localhost:3000/s")
  })

  it("a foreign URL planted in the cookie is re-validated and ignored (RD-03)", async () => {
    const { config } = fakeConfig()
    expect(await resolveCallbackUrl(fakeReq({ cookies: { [cookieName]: "https://evil.com/" } }), config)).toBe(baseUrl)
  })

  it("a non-string body callbackUrl is ignored and the query is used", async () => {
    const { config } = fakeConfig()
    expect(await resolveCallbackUrl(fakeReq({ body: { callbackUrl: ["/a"] }, query: "callbackUrl=/q" }), config)).toBe(
      "http://localhost:3000/q",
    )
  })

  it("every source goes through the user's redirect callback", async () => {
    const redirect = vi.fn(({ url }: { url: string }) => `/wrapped${url}`)
    const { config } = fakeConfig(redirect)
    expect(await resolveCallbackUrl(fakeReq({ query: "callbackUrl=/q" }), config)).toBe(
      "http://localhost:3000/wrapped/q",
    )
    expect(redirect).toHaveBeenCalledWith({ url: "/q", baseUrl })
  })
})

describe("URLs WHATWG and RFC 3986 parsers read differently (found by the fuzzer)", () => {
  it("RD-01 a same-origin callbackUrl with a backslash is sent parsed, so no parser sees another host", () => {
    const base = "https://app.example"
    expect(defaultRedirect({ url: "https://app.example\\@evil.example", baseUrl: base })).toBe(
      "https://app.example/@evil.example",
    )
    expect(defaultRedirect({ url: "https://app.example/a\\b", baseUrl: base })).toBe("https://app.example/a/b")
    // Plain URLs are still returned byte for byte, as Auth.js does.
    expect(defaultRedirect({ url: "https://app.example/x?y=1#z", baseUrl: base })).toBe("https://app.example/x?y=1#z")
  })
})
