// The document shell: escaping, image URLs, theme sheet, CSP per page.
import { describe, expect, it } from "vitest"
import { buttonColors, documentShell, escapeHtml, safeImageUrl } from "./html.js"
import { de, en } from "./locales/index.js"

describe("page helpers", () => {
  it("escapeHtml escapes the five HTML specials", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;",
    )
  })

  it.each([
    ["https://cdn.test/a.svg", true],
    ["http://localhost:3000/a.png", true],
    ["/logo.png", true],
    ["data:image/svg+xml,%3Csvg%3E", true],
    ["javascript:alert(1)", false],
    [" JaVaScRiPt:alert(1)", false],
    ["data:text/html,<script>", false],
    ["//evil.test/a.png", false],
    ["/\\evil.test/a.png", false],
    ["vbscript:x", false],
    ["", false],
    [42, false],
  ])("safeImageUrl(%j) kept: %s", (value, kept) => {
    expect(safeImageUrl(value) !== undefined).toBe(kept)
  })

  it("buttonColors: CSS colours only, and a hex pair under 4.5:1 is dropped", () => {
    expect(buttonColors("#24292f", "#fff")).toEqual({ bg: "#24292f", text: "#fff" })
    expect(buttonColors("#07F", "#fff")).toBeUndefined()
    expect(buttonColors("red;}", "#fff")).toBeUndefined()
    expect(buttonColors("black", "white")).toEqual({ bg: "black", text: "white" })
  })

  it("documentShell: lang from the locale, one <main>, colour scheme class, theme sheet only when the theme sets colours", () => {
    const plain = documentShell({ title: "T", content: "<h1>x</h1>", theme: {}, locale: de })
    expect(plain.html).toContain('<html lang="de">')
    expect(plain.html).toContain('<body class="__next-auth-theme-auto"><main>')
    expect(plain.html.match(/<style>/g)).toHaveLength(1)
    expect(plain.csp).toMatch(/style-src 'sha256-[^']+';/)
    const themed = documentShell({
      title: "T",
      content: "",
      theme: { colorScheme: "dark", brandColor: "#000", logo: "javascript:x" },
      locale: en,
    })
    expect(themed.html).toContain('class="__next-auth-theme-dark"')
    expect(themed.html).not.toContain("javascript:")
    expect(themed.html.match(/<style>/g)).toHaveLength(2)
    expect(themed.csp).toMatch(/style-src 'sha256-[^']+' 'sha256-[^']+';/)
    // An inline, empty icon: the browser asks the app for no /favicon.ico; img-src allows data:.
    expect(plain.html).toMatch(/<head>[^]*<link rel="icon" href="data:,">[^]*<\/head>/)
    expect(themed.html.match(/<link [^>]*>/g)).toEqual(['<link rel="icon" href="data:,">']) // not the theme logo
    expect(plain.csp).toMatch(/img-src [^;]*data:/)
    const hostileScheme = documentShell({
      title: "T",
      content: "",
      theme: { colorScheme: '"><x' as never },
      locale: en,
    })
    expect(hostileScheme.html).toContain('class="__next-auth-theme-auto"')
  })
})
