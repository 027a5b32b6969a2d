// readFormFields reads a urlencoded body as `new URLSearchParams(text)` does: the same fields (first value of each
// name, unsafe names dropped) and the same repeated names, for plain bodies and for the ones its fast path hands over.
import { describe, expect, it } from "vitest"
import { formFieldsOf, readFormFields } from "./form.js"

const viaSearchParams = (text: string) => formFieldsOf(new URLSearchParams(text))

describe("readFormFields", () => {
  it.each([
    [
      "a sign-in form",
      "csrfToken=ab12&email=bench%40example.com&password=pw&callbackUrl=http%3A%2F%2Flocalhost%3A3000",
    ],
    ["+ is a space, %2B a plus", "q=a+b%2Bc&r=%20x+"],
    ["empty sequences are skipped", "&&a=1&&b=2&"],
    ["no = gives an empty value; = splits at the first", "flag&x==y=z&=v"],
    ["UTF-8 sequences decode", "name=%C3%A9l%C3%A8ve&emoji=%F0%9F%94%91"],
    ["raw non-ASCII text stays", "name=élève"],
    ["a stray % (URLSearchParams keeps it)", "a=100%&b=%zz&c=%4"],
    ["bytes that are not UTF-8 (URLSearchParams writes U+FFFD)", "a=%C3&b=%ED%A0%80&c=%C0%80"],
    ["a leading ? (the constructor drops it)", "?a=1&b=2"],
    ["repeated names, each at its second showing", "csrfToken=t&email=a&csrfToken=u&email=b&email=c"],
    ["unsafe names are dropped, never repeated", "__proto__=x&constructor=y&prototype=z&__proto__=w&ok=1"],
    ["names are decoded before they are compared", "e%6Dail=a&email=b"],
    ["empty body", ""],
  ])("%s", (_, text) => {
    const fast = readFormFields(text)
    expect(fast).toEqual(viaSearchParams(text))
    expect(Object.getPrototypeOf(fast.fields)).toBe(Object.prototype)
  })

  it("agrees with URLSearchParams on random bodies made of the characters that matter", () => {
    const alphabet = ["a", "b", "=", "&", "+", "%", "2", "B", "C3", "A9", "zz", "?", "é", "\u00ff", "%41", "__proto__"]
    let seed = 7
    const next = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff
      return seed
    }
    for (let i = 0; i < 3000; i++) {
      const length = next() % 24
      let text = ""
      for (let j = 0; j < length; j++) text += alphabet[next() % alphabet.length]
      expect(readFormFields(text), text).toEqual(viaSearchParams(text))
    }
  })
})
