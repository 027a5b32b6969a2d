// Fuzz (EM-07, EM-12): the default e-mail normaliser. IDN domains in their Unicode and punycode spellings, NFKC
// look-alikes (full-width letters and `@`), idempotence, and every answer one address with an ASCII domain or a refusal.
import { domainToUnicode as nodeDomainToUnicode } from "node:url"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { EmailSignInError } from "../../src/errors.js"
import { normalizeEmailAddress } from "../../src/lib/email-address.js"
import { domainToAscii, domainToUnicode } from "../../src/lib/idn.js"
import { fuzz, fuzzTimeout } from "./arbitraries.js"

const FILE = "test/fuzz/email-normalize.test.ts"

/** Letters of left-to-right scripts that IDNA allows (Latin with marks, Greek, Cyrillic, CJK, Hangul, Thai). */
const IDN_LETTERS = [
  ..."abcdefghijklmnopqrstuvwxyz0123456789äöüßéèêçñøåæœłąęńśźżğışăâîțșαβγδεζηθλμπσωабвгдежзийклмнопрстуфхцчшщыэюяё中文字日本語東京한국어ไทย",
]
const ASCII_LOCAL = [..."abcdefghijklmnopqrstuvwxyz0123456789._+-'"]

/** One DNS label of `letters`, 1-20 characters, a hyphen only inside. */
function label(letters: readonly string[]): fc.Arbitrary<string> {
  return fc
    .tuple(fc.array(fc.constantFrom(...letters), { minLength: 1, maxLength: 19 }), fc.boolean())
    .map(([chars, hyphen]) => {
      const text = chars.join("")
      return hyphen && text.length > 2 ? `${text.slice(0, 1)}-${text.slice(1)}` : text
    })
}

/** A domain with at least one non-ASCII label and an ASCII top-level label. */
const unicodeDomain = fc
  .tuple(
    fc.array(label(IDN_LETTERS), { minLength: 1, maxLength: 3 }),
    fc.constantFrom("example", "test", "de", "com", "xn--p1ai"),
  )
  .map(([labels, tld]) => [...labels, tld].join("."))
  .filter((domain) => /[^\x00-\x7f]/.test(domain))

/** A dot-atom local part of ASCII characters (no leading, trailing or double dot). */
const localPart = fc
  .array(fc.constantFrom(...ASCII_LOCAL), { minLength: 1, maxLength: 30 })
  .map((chars) => chars.join(""))
  .filter((local) => !local.startsWith(".") && !local.endsWith(".") && !local.includes(".."))

/** The outcome of normalising: the address, or the refusal (anything but EmailSignInError fails the property). */
function outcome(input: string): string | EmailSignInError {
  try {
    return normalizeEmailAddress(input)
  } catch (error) {
    if (!(error instanceof EmailSignInError)) throw error
    return error
  }
}

/** The ASCII form the WHATWG URL parser gives a domain, or undefined when it refuses it. */
function urlAscii(domain: string): string | undefined {
  try {
    return new URL(`http://${domain}`).hostname
  } catch {
    return undefined
  }
}

/** Full-width forms (U+FF01..U+FF5E) of printable ASCII: NFKC maps each back. */
function fullWidth(text: string): string {
  return [...text].map((c) => (c >= "!" && c <= "~" ? String.fromCodePoint(c.codePointAt(0)! + 0xfee0) : c)).join("")
}

describe("fuzz: the default e-mail normaliser", () => {
  it("EM-12: a Unicode domain and its punycode form normalise to one address, its domain in ASCII", {
    timeout: fuzzTimeout(0.2),
  }, async () => {
    await fuzz(
      FILE,
      fc.asyncProperty(localPart, unicodeDomain, fc.boolean(), async (local, domain, upper) => {
        const ascii = urlAscii(domain)
        // Upper case only where it is the same name again (ı upper-cases to I, which lower-cases to i: another domain).
        const shouted = domain.toUpperCase()
        const unicodeSpelling = outcome(`${local}@${upper && shouted.toLowerCase() === domain ? shouted : domain}`)
        if (ascii === undefined) {
          expect(unicodeSpelling).toBeInstanceOf(EmailSignInError)
          return
        }
        const punycodeSpelling = outcome(`${local}@${upper ? ascii.toUpperCase() : ascii}`)
        expect(punycodeSpelling).toEqual(unicodeSpelling)
        if (typeof unicodeSpelling === "string") expect(unicodeSpelling).toBe(`${local.toLowerCase()}@${ascii}`)
      }),
    )
  })

  it("EM-12: the punycode decoder returns the Unicode spelling node:url gives, and it encodes back to the same ASCII", {
    timeout: fuzzTimeout(0.2),
  }, async () => {
    await fuzz(
      FILE,
      fc.asyncProperty(unicodeDomain, async (domain) => {
        const ascii = domainToAscii(domain)
        if (ascii === undefined) return
        const unicode = domainToUnicode(ascii)
        expect(unicode).toBe(nodeDomainToUnicode(ascii))
        expect(domainToAscii(unicode!)).toBe(ascii)
      }),
    )
  })

  it("EM-12: punycode-shaped junk labels never decode to a Unicode spelling of another domain", {
    timeout: fuzzTimeout(0.2),
  }, async () => {
    const junk = fc
      .array(fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789-"), { minLength: 1, maxLength: 40 })
      .map((c) => `xn--${c.join("")}.example`)
    await fuzz(
      FILE,
      fc.asyncProperty(junk, async (domain) => {
        const unicode = domainToUnicode(domain)
        if (unicode !== undefined) expect(domainToAscii(unicode)).toBe(domain)
      }),
    )
  })

  it("EM-07: full-width letters, digits and `@` normalise as their ASCII originals", {
    timeout: fuzzTimeout(0.2),
  }, async () => {
    const address = fc
      .tuple(localPart, fc.array(label([..."abcdefghijklmnopqrstuvwxyz0123456789"]), { minLength: 1, maxLength: 3 }))
      .map(([local, labels]) => `${local}@${labels.join(".")}.example`)
    await fuzz(
      FILE,
      fc.asyncProperty(address, fc.boolean(), async (plain, upper) => {
        const lookAlike = fullWidth(upper ? plain.toUpperCase() : plain)
        expect(outcome(lookAlike)).toEqual(outcome(plain))
      }),
    )
  })

  it("EM-06 EM-07 EM-12: any input is refused or becomes one address with an ASCII domain, and normalising it again changes nothing", {
    timeout: fuzzTimeout(0.3),
  }, async () => {
    const input = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 60 }),
      fc.string({ unit: "binary", maxLength: 60 }),
      fc.tuple(localPart, unicodeDomain).map(([l, d]) => `${l}@${d}`),
      fc
        .tuple(fc.string({ unit: "grapheme", maxLength: 20 }), fc.string({ unit: "grapheme", maxLength: 20 }))
        .map(([l, d]) => `${l}@${d}`),
      fc.tuple(localPart, fc.string({ unit: "binary", maxLength: 30 })).map(([l, d]) => `${l}@xn--${d}.example`),
    )
    await fuzz(
      FILE,
      fc.asyncProperty(input, async (raw) => {
        const out = outcome(raw)
        if (out instanceof EmailSignInError) return
        expect(out.length).toBeLessThanOrEqual(254)
        expect(out.split("@")).toHaveLength(2)
        const [local, domain] = out.split("@") as [string, string]
        expect(local.length).toBeGreaterThan(0)
        expect(domain).toMatch(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/)
        expect(out).not.toMatch(/[\s\p{Cc}\p{Cf}\p{Zl}\p{Zp},;:<>()[\]"\\%\uFF20\uFE6B]/u)
        expect(out).toBe(out.normalize("NFKC").toLowerCase())
        expect(normalizeEmailAddress(out)).toBe(out)
      }),
    )
  })
})
