// Unit tests of the trusted-origin patterns the redirect proxy forwards to (RD-07, RD-08 rules applied to origins).
import { describe, expect, it } from "vitest"
import { UntrustedHost } from "../errors.js"
import { trustedOriginMatcher } from "./origins.js"

describe("trustedOriginMatcher", () => {
  const trusted = trustedOriginMatcher(["https://app.example", "https://*.preview.example", "http://localhost:3000"])

  it("accepts exact origins and one label under a wildcard", () => {
    for (const origin of [
      "https://app.example",
      "https://APP.example",
      "https://pr-12.preview.example",
      "http://localhost:3000",
    ]) {
      expect(trusted(origin), origin).toBe(true)
    }
  })

  it("RD-07 refuses look-alikes, deeper labels, other schemes and ports", () => {
    for (const origin of [
      "https://evil.example",
      "https://app.example.evil.example",
      "https://evil-app.example",
      "https://xapp.example",
      "http://app.example",
      "https://app.example:8443",
      "https://preview.example",
      "https://a.b.preview.example",
      "https://evilpreview.example",
      "https://pr-1.preview.example.evil.example",
      "http://localhost:3001",
      "not a url",
      "",
    ]) {
      expect(trusted(origin), origin).toBe(false)
    }
  })

  it("RD-08 compares after WHATWG parsing: a Cyrillic look-alike is refused", () => {
    expect(trusted("https://аpp.example")).toBe(false)
  })

  it("nothing is trusted without patterns", () => {
    expect(trustedOriginMatcher([])("https://app.example")).toBe(false)
  })

  it("a pattern that is not an origin is an error naming it", () => {
    for (const bad of [
      "app.example",
      "https://app.example/path",
      "ftp://app.example",
      "https://*.com",
      "https://user@app.example",
      "*",
    ]) {
      expect(() => trustedOriginMatcher([bad]), bad).toThrow(/trustedOrigins\[0\]/)
      expect(() => trustedOriginMatcher([bad]), bad).toThrow(UntrustedHost)
    }
  })
})
