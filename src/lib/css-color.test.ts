// The shared CSS colour check and the WCAG contrast ratio.
import { describe, expect, it } from "vitest"
import { contrastRatio, cssColor, cssColorOr } from "./css-color.js"

describe("cssColor", () => {
  it.each(["#fff", "#FFFF", "#123456", "#12345678", "red", "rebeccapurple", "rgb(1, 2, 3)", "hsl(10 20% 30% / .5)"])(
    "accepts %j",
    (v) => {
      expect(cssColor(v)).toBe(v)
    },
  )
  it.each([
    "red;}body{display:none",
    "#fff;background:url(x)",
    "url(https://t.test)",
    "expression(alert(1))",
    "#ggg",
    "var(--x)",
    "",
    42,
    null,
  ])("refuses %j", (v) => {
    expect(cssColor(v)).toBeUndefined()
    expect(cssColorOr(v, "#000")).toBe("#000")
  })
})

describe("contrastRatio", () => {
  it("black on white is 21, a colour on itself 1, keywords not judged", () => {
    expect(contrastRatio("#000", "#fff")).toBeCloseTo(21, 5)
    expect(contrastRatio("#346df1", "#346df1")).toBeCloseTo(1, 5)
    expect(contrastRatio("#07F", "#fff")).toBeLessThan(4.5)
    expect(contrastRatio("red", "#fff")).toBeUndefined()
  })
})
