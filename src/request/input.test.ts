// Unit tests of webInput: the path and arrival origin read from the URL string agree with a parsed URL, anything
// unusual falls back to `new URL`, the URL object is built only on first use, and a front door's options apply.
import { describe, expect, it } from "vitest"
import { resolveConfig } from "../config/resolve.js"
import { makeConfig } from "../../test/support/flow-kit.js"
import { serializedTarget, targetOf, webInput } from "./input.js"
import { parseRequest } from "./parse.js"

const fieldsOf = (url: URL) => ({ protocol: url.protocol, host: url.host, origin: url.origin, pathname: url.pathname })

describe("serializedTarget", () => {
  it.each([
    "http://localhost:3000/auth/session",
    "https://example.com/api/auth/callback/credentials?code=1&state=x",
    "https://example.com/auth/signin/github#top",
    "http://127.0.0.1/auth/csrf",
    "http://[::1]:8080/auth/providers",
    "https://xn--bcher-kva.example/auth/session?",
    "http://localhost/",
  ])("reads %s as a URL does", (href) => {
    expect(serializedTarget(href)).toEqual(fieldsOf(new URL(href)))
  })

  it.each([
    ["user info", "http://user:pass@example.com/auth/session"],
    ["a dot segment", "http://example.com/auth/../auth/session"],
    ["a dot in the path", "http://example.com/auth/callback/my.provider"],
    ["a percent-encoded path", "http://example.com/auth/%73ession"],
    ["an upper-case host (not as a serializer writes it)", "http://Example.com/auth/session"],
    ["a backslash", "http://example.com\\auth/session"],
    ["another scheme", "ftp://example.com/auth/session"],
    ["no path", "http://example.com"],
  ])("leaves %s to new URL", (_what, href) => {
    expect(serializedTarget(href)).toBeUndefined()
  })
})

describe("webInput", () => {
  it("routes from the URL string and builds the URL object only when something reads it", async () => {
    // The Request's URL string is read once to route; the URL object, when built, reads it a second time.
    let reads = 0
    class CountingRequest extends Request {
      override get url(): string {
        reads++
        return super.url
      }
    }
    const input = webInput(new CountingRequest("http://localhost:3000/auth/session?x=1"))
    const req = await parseRequest(input, resolveConfig(makeConfig({ basePath: "/auth", trustHost: true })))
    expect(req.action).toBe("session")
    expect(req.origin).toBe("http://localhost:3000")
    expect(reads).toBe(1)
    expect(req.url.href).toBe("http://localhost:3000/auth/session?x=1")
    expect(req.query.get("x")).toBe("1")
    expect(reads).toBe(2)
  })

  it("falls back to the parsed URL for a path the string reading leaves alone", async () => {
    const input = webInput(new Request("http://localhost/auth/callback/my.provider"))
    expect(input.target).toBeUndefined()
    expect(targetOf(input).pathname).toBe("/auth/callback/my.provider")
  })

  it("takes the socket address, a body reader and a replacement URL from the front door", async () => {
    const request = new Request("http://localhost/api/auth/x", { method: "POST", body: "a=1" })
    const url = new URL("http://localhost/api/auth/session")
    const readBody = async () => new Uint8Array([1])
    const input = webInput(request, { clientAddress: "203.0.113.9", readBody, url })
    expect(input.clientAddress).toBe("203.0.113.9")
    expect(await input.readBody(10)).toEqual(new Uint8Array([1]))
    // A replaced URL is the one routed: no target read from the Request's own URL string.
    expect(input.target).toBeUndefined()
    expect(targetOf(input).pathname).toBe("/api/auth/session")
    expect(input.url).toBe(url)
    const post = () => webInput(new Request("http://localhost/auth/csrf", { method: "POST", body: "a=1" }))
    expect(await post().readBody(10)).toEqual(new TextEncoder().encode("a=1"))
    expect(await post().readBody(2)).toBeUndefined()
  })
})
