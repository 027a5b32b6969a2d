// The default address normaliser: ordinary addresses pass in their canonical form; anything that is not one plain
// address is refused (the attack cases are in security.test.ts, EM-06 … EM-08).
import { describe, expect, it } from "vitest"
import { EmailSignInError } from "../../src/errors.js"
import { normalizeEmailAddress } from "../../src/providers/email.js"

describe("normalizeEmailAddress", () => {
  it("keeps ordinary addresses, lower-cased and trimmed", () => {
    for (const [input, out] of [
      ["alice@example.com", "alice@example.com"],
      [" Alice@Example.COM\t", "alice@example.com"],
      ["first.last+tag@sub.example.co.uk", "first.last+tag@sub.example.co.uk"],
      ["o'brien@example.ie", "o'brien@example.ie"],
      ["user_name-1@x-y.example", "user_name-1@x-y.example"],
      // The domain in its ASCII (punycode) form, the local part as written (docs/security.md EM-12).
      ["jörg@bücher.de", "jörg@xn--bcher-kva.de"],
      ["jörg@xn--bcher-kva.de", "jörg@xn--bcher-kva.de"],
      ["user@ＢÜＣＨＥＲ.de", "user@xn--bcher-kva.de"],
      ["user@straße.de", "user@xn--strae-oqa.de"],
      ["admin@localhost", "admin@localhost"],
    ] as const) {
      expect(normalizeEmailAddress(input), input).toBe(out)
    }
  })

  it("refuses with EmailSignInError what is not one plain address", () => {
    for (const input of [
      "",
      "   ",
      "plain",
      "a@",
      "@b",
      "a@b@c",
      ".a@x.test",
      "a.@x.test",
      "a..b@x.test",
      "a@-x.test",
      "a@x-.test",
      "a@.x",
      "a@x.",
      `${"a".repeat(65)}@x.test`,
      `a@${"b".repeat(250)}.test`,
      "a@xn--zz.test",
      "a@xn--abc-.test",
      `a@${"ü".repeat(60)}.test`,
    ]) {
      expect(() => normalizeEmailAddress(input), JSON.stringify(input)).toThrow(EmailSignInError)
    }
  })
})

describe("normalizeEmailAddress on hostile lengths", () => {
  it("answers at once for 60 000 spaces followed by a letter", () => {
    const start = performance.now()
    expect(() => normalizeEmailAddress(`${" ".repeat(60_000)}x`)).toThrow(EmailSignInError)
    expect(performance.now() - start).toBeLessThan(50)
  })
})
