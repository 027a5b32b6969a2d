import { describe, expect, it } from "vitest"
import { onOrigin, withQuery } from "./page-url.js"

describe("withQuery", () => {
  it("adds after ? to a bare page, after & to a page with a query of its own, nothing when empty", () => {
    expect(withQuery("/login", "error=X")).toBe("/login?error=X")
    expect(withQuery("/login?lang=en", "error=X")).toBe("/login?lang=en&error=X")
    expect(withQuery("/login", new URLSearchParams({ callbackUrl: "https://app.test/a?b=c" }))).toBe(
      "/login?callbackUrl=https%3A%2F%2Fapp.test%2Fa%3Fb%3Dc",
    )
    expect(withQuery("/login?lang=en", new URLSearchParams())).toBe("/login?lang=en")
    expect(withQuery("/login", "")).toBe("/login")
  })
})

describe("onOrigin", () => {
  it("puts a path on the origin and leaves an absolute URL as it is", () => {
    expect(onOrigin("https://app.test", "/login")).toBe("https://app.test/login")
    expect(onOrigin("https://app.test", "https://auth.app.test/login")).toBe("https://auth.app.test/login")
    expect(onOrigin("https://app.test", "HTTP://auth.app.test/login")).toBe("HTTP://auth.app.test/login")
    // A protocol-relative or relative page stays a path on this origin, as before.
    expect(onOrigin("https://app.test", "//auth.app.test/login")).toBe("https://app.test//auth.app.test/login")
    expect(onOrigin("", "/login")).toBe("/login")
  })
})
