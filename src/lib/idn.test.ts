// Unit tests of the IDN helpers: ASCII through the URL host parser, punycode decoded back per RFC 3492.
import { describe, expect, it } from "vitest"
import { domainToAscii, domainToUnicode } from "./idn.js"

describe("domainToAscii", () => {
  it("writes Unicode labels in punycode and leaves plain ASCII domains as they are", () => {
    expect(domainToAscii("bücher.example")).toBe("xn--bcher-kva.example")
    expect(domainToAscii("straße.de")).toBe("xn--strae-oqa.de")
    expect(domainToAscii("münchen.xn--p1ai")).toBe("xn--mnchen-3ya.xn--p1ai")
    expect(domainToAscii("example.com")).toBe("example.com")
    // Numeric ASCII names are not read as IPv4 addresses (the URL parser would turn 0x7f.1 into 127.0.0.1).
    expect(domainToAscii("0x7f.1")).toBe("0x7f.1")
  })

  it("refuses what is not a host name: bad punycode, a Unicode name that parses as an IP, over-long labels", () => {
    for (const bad of ["xn--zz.example", "xn--abc-.example", "bücher.1", `${"ü".repeat(60)}.example`]) {
      expect(domainToAscii(bad), bad).toBeUndefined()
    }
  })
})

describe("domainToUnicode", () => {
  it("decodes every xn-- label (RFC 3492 §7.1 sample B included) and leaves other domains alone", () => {
    expect(domainToUnicode("xn--bcher-kva.example")).toBe("bücher.example")
    expect(domainToUnicode("xn--strae-oqa.de")).toBe("straße.de")
    expect(domainToUnicode("xn--ihqwcrb4cv8a8dqg056pqjye.example")).toBe("他们为什么不说中文.example")
    expect(domainToUnicode("example.com")).toBe("example.com")
  })

  it("answers undefined for labels that do not decode to a name whose ASCII form is the input", () => {
    for (const bad of ["xn--abc-.example", "xn--zz.example", "xn--a.example", "xn--99999999999.example"]) {
      expect(domainToUnicode(bad), bad).toBeUndefined()
    }
  })
})
