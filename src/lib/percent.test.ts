// decodeAsciiEscapes gives decodeURIComponent's answer wherever it answers, and hands every other string back
// (undefined) for decodeURIComponent to decode or refuse.
import { describe, expect, it } from "vitest"
import { decodeAsciiEscapes } from "./percent.js"

const viaUri = (text: string): string | Error => {
  try {
    return decodeURIComponent(text)
  } catch (error) {
    return error as Error
  }
}

describe("decodeAsciiEscapes", () => {
  it.each([
    ["no escape", "abc", "abc"],
    ["the CSRF cookie's bar", `${"a".repeat(64)}%7C${"b".repeat(64)}`, `${"a".repeat(64)}|${"b".repeat(64)}`],
    ["reserved characters are decoded too", "http%3A%2F%2Fx.test%2Fa%3Fb%3D1%26c", "http://x.test/a?b=1&c"],
    ["lower- and upper-case hex", "%7c%7C%2f", "||/"],
    ["escape at either end", "%41b%43", "AbC"],
    ["NUL and DEL", "%00%7F", "\u0000\u007f"],
  ])("%s", (_, text, decoded) => {
    expect(decodeAsciiEscapes(text)).toBe(decoded)
    expect(viaUri(text)).toBe(decoded)
  })

  it.each([
    ["a UTF-8 sequence", "%C3%A9"],
    ["a byte of 0x80", "%80"],
    ["a stray %", "100%"],
    ["a short escape", "%4"],
    ["a non-hex escape", "%zz"],
    ["a bad escape after a good one", "%41%G0"],
  ])("hands back %s", (_, text) => {
    expect(decodeAsciiEscapes(text)).toBeUndefined()
  })

  it("agrees with decodeURIComponent on random text whenever it answers", () => {
    const alphabet = ["a", "%", "0", "7", "8", "c", "C", "F", "g", "%7C", "%C3%A9", "%41", "/", "é"]
    let seed = 11
    const next = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff
      return seed
    }
    let answered = 0
    for (let i = 0; i < 5000; i++) {
      let text = ""
      for (let j = next() % 16; j > 0; j--) text += alphabet[next() % alphabet.length]
      const fast = decodeAsciiEscapes(text)
      if (fast === undefined) continue
      answered++
      expect(fast, text).toBe(viaUri(text))
    }
    expect(answered).toBeGreaterThan(1000)
  })
})
