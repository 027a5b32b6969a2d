// Unit tests of the Cookie-header parser: first occurrence wins, percent-decoding, malformed input,
// quoted values and bounded (linear) work.
import { describe, expect, it } from "vitest"
import { parseCookieHeader } from "./parse.js"

describe("parseCookieHeader", () => {
  it("parses name=value pairs and trims the whitespace around them", () => {
    expect({ ...parseCookieHeader("a=1; b=2;c=3 ;  d = 4 ") }).toEqual({ a: "1", b: "2", c: "3", d: "4" })
  })

  it("returns an empty record for null or an empty header", () => {
    expect(Object.keys(parseCookieHeader(null))).toEqual([])
    expect(Object.keys(parseCookieHeader(""))).toEqual([])
    expect(Object.keys(parseCookieHeader(" ; ;; "))).toEqual([])
  })

  it("the first occurrence of a name wins", () => {
    expect({ ...parseCookieHeader("sid=first; other=x; sid=second; sid=third") }).toEqual({ sid: "first", other: "x" })
  })

  it("the first occurrence wins even when it is empty", () => {
    expect({ ...parseCookieHeader("sid=; sid=later") }).toEqual({ sid: "" })
  })

  it("percent-decodes values", () => {
    const out = parseCookieHeader("csrf=abc%7Cdef; url=http%3A%2F%2Flocalhost%3A3000%2Fa%3Fb%3D1; utf=%C3%BC")
    expect(out.csrf).toBe("abc|def")
    expect(out.url).toBe("http://localhost:3000/a?b=1")
    expect(out.utf).toBe("ü")
  })

  it("keeps a value as is when its percent-encoding is malformed", () => {
    const out = parseCookieHeader("bad=%E0%A4%A; lone=100%; ok=%41")
    expect(out.bad).toBe("%E0%A4%A")
    expect(out.lone).toBe("100%")
    expect(out.ok).toBe("A")
  })

  it("does not decode names", () => {
    expect({ ...parseCookieHeader("a%20b=1") }).toEqual({ "a%20b": "1" })
  })

  it("keeps '=' inside a value", () => {
    expect(parseCookieHeader("t=a=b==").t).toBe("a=b==")
  })

  it("strips one pair of surrounding double quotes, then decodes", () => {
    const out = parseCookieHeader('q="hello"; e=""; p="%41%42"; one="; inner=a"b')
    expect(out.q).toBe("hello")
    expect(out.e).toBe("")
    expect(out.p).toBe("AB")
    expect(out.one).toBe('"')
    expect(out.inner).toBe('a"b')
  })

  it("skips parts without '=' and parts with an empty name", () => {
    expect({ ...parseCookieHeader("novalue; =x; a=1; ; b") }).toEqual({ a: "1" })
  })

  it("a part without '=' does not swallow the next cookie", () => {
    expect({ ...parseCookieHeader("flag;a=1") }).toEqual({ a: "1" })
  })

  it("returns a record with no inherited keys (Object.prototype is not in its chain, __proto__ is a plain name)", () => {
    const out = parseCookieHeader("__proto__=polluted; constructor=c")
    const proto = Object.getPrototypeOf(out)
    expect(proto === null || Object.getPrototypeOf(proto) === null).toBe(true)
    if (proto !== null) expect(Reflect.ownKeys(proto)).toEqual([])
    expect(Object.keys(out)).toEqual(["__proto__", "constructor"])
    // biome-ignore lint/suspicious/noProto: the test reads the own property a cookie named __proto__ must become
    expect(out.__proto__).toBe("polluted")
    expect(out.constructor).toBe("c")
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect("toString" in parseCookieHeader("a=1")).toBe(false)
    expect(parseCookieHeader("a=1").hasOwnProperty).toBeUndefined()
  })

  // The 200-cookie cap of the first version was replaced by a 64 KiB Cookie-header limit in
  // parseRequest (431, see parse.test.ts); the parser itself reads every cookie, in linear time.
  it("reads every cookie of a large header (no count cap; the size is bounded by parseRequest)", () => {
    const header = Array.from({ length: 1000 }, (_, i) => `c${i}=v${i}`).join("; ")
    const out = parseCookieHeader(header)
    expect(Object.keys(out)).toHaveLength(1000)
    expect(out.c0).toBe("v0")
    expect(out.c199).toBe("v199")
    expect(out.c200).toBe("v200")
    expect(out.c999).toBe("v999")
  })

  it("repeated names keep the first value among many", () => {
    const header = [
      ...Array.from({ length: 300 }, (_, i) => `dup=${i}`),
      ...Array.from({ length: 199 }, (_, i) => `c${i}=${i}`),
    ].join("; ")
    const out = parseCookieHeader(header)
    expect(Object.keys(out)).toHaveLength(200)
    expect(out.dup).toBe("0")
    expect(out.c198).toBe("198")
  })

  it("parses a long header in linear time", () => {
    const header = "x".repeat(1_000_000) + "; a=1"
    const started = performance.now()
    expect(parseCookieHeader(header).a).toBe("1")
    expect(performance.now() - started).toBeLessThan(500)
  })
})
