// Unit tests of cookie names, Set-Cookie serialisation (attribute order), session-cookie chunking and
// the strict chunk reader (gap, duplicate, bare + chunked, > 50 chunks are invalid).
import { describe, expect, it } from "vitest"
import { CHUNK_SIZE, MAX_CHUNKS, clearChunked, readChunked, writeChunked } from "./chunks.js"
import { InvalidEndpoints } from "../errors.js"
import { defaultCookies, expiredCookie, markUrlSafe, serializeCookie } from "./policy.js"

const NAME = "authjs.session-token"
const plain = defaultCookies(false)
const secure = defaultCookies(true)
const EXPIRES = new Date("2030-01-02T03:04:05.678Z")

describe("defaultCookies", () => {
  it("plain names and attributes", () => {
    expect(plain.sessionToken).toEqual({
      name: "authjs.session-token",
      options: { httpOnly: true, sameSite: "lax", path: "/", secure: false },
    })
    expect(plain.callbackUrl.name).toBe("authjs.callback-url")
    expect(plain.csrfToken.name).toBe("authjs.csrf-token")
    expect(plain.pkceCodeVerifier).toEqual({
      name: "authjs.pkce.code_verifier",
      options: { httpOnly: true, sameSite: "lax", path: "/", secure: false, maxAge: 900 },
    })
    expect(plain.state.name).toBe("authjs.state")
    expect(plain.state.options.maxAge).toBe(900)
    expect(plain.nonce.name).toBe("authjs.nonce")
    expect(plain.nonce.options.maxAge).toBeUndefined()
    expect(plain.webauthnChallenge.name).toBe("authjs.challenge")
    expect(plain.webauthnChallenge.options.maxAge).toBe(900)
  })

  it("secure names: __Secure- everywhere, __Host- for the CSRF cookie, and Secure set", () => {
    expect(secure.sessionToken.name).toBe("__Secure-authjs.session-token")
    expect(secure.callbackUrl.name).toBe("__Secure-authjs.callback-url")
    expect(secure.csrfToken.name).toBe("__Host-authjs.csrf-token")
    expect(secure.pkceCodeVerifier.name).toBe("__Secure-authjs.pkce.code_verifier")
    expect(secure.state.name).toBe("__Secure-authjs.state")
    expect(secure.nonce.name).toBe("__Secure-authjs.nonce")
    expect(secure.webauthnChallenge.name).toBe("__Secure-authjs.challenge")
    for (const option of Object.values(secure)) expect(option.options.secure).toBe(true)
  })

  it("returns fresh objects (callers cannot mutate shared defaults)", () => {
    const a = defaultCookies(false)
    a.sessionToken.options.path = "/changed"
    expect(defaultCookies(false).sessionToken.options.path).toBe("/")
  })
})

describe("serializeCookie", () => {
  it("uses the attribute order Max-Age; Path; Expires; HttpOnly; Secure; SameSite=Lax", () => {
    const out = serializeCookie({
      name: NAME,
      value: "v",
      options: { ...secure.sessionToken.options, maxAge: 60, expires: EXPIRES },
    })
    expect(out).toBe(
      `${NAME}=v; Max-Age=60; Path=/; Expires=Wed, 02 Jan 2030 03:04:05 GMT; HttpOnly; Secure; SameSite=Lax`,
    )
  })

  it("omits attributes that are not set", () => {
    expect(serializeCookie({ name: "a", value: "b", options: plain.csrfToken.options })).toBe(
      "a=b; Path=/; HttpOnly; SameSite=Lax",
    )
    expect(serializeCookie({ name: "a", value: "b", options: {} })).toBe("a=b")
  })

  it("places Domain after Max-Age and Partitioned before SameSite", () => {
    const out = serializeCookie({
      name: "a",
      value: "b",
      options: {
        maxAge: 1,
        domain: "example.com",
        path: "/",
        httpOnly: true,
        secure: true,
        partitioned: true,
        sameSite: "none",
      },
    })
    expect(out).toBe("a=b; Max-Age=1; Domain=example.com; Path=/; HttpOnly; Secure; Partitioned; SameSite=None")
  })

  it("maps sameSite values", () => {
    expect(serializeCookie({ name: "a", value: "", options: { sameSite: true } })).toBe("a=; SameSite=Strict")
    expect(serializeCookie({ name: "a", value: "", options: { sameSite: "strict" } })).toBe("a=; SameSite=Strict")
    expect(serializeCookie({ name: "a", value: "", options: { sameSite: false } })).toBe("a=")
  })

  it("floors Max-Age and keeps Max-Age=0", () => {
    expect(serializeCookie({ name: "a", value: "", options: { maxAge: 59.9 } })).toBe("a=; Max-Age=59")
    expect(serializeCookie({ name: "a", value: "", options: { maxAge: 0 } })).toBe("a=; Max-Age=0")
  })

  it("percent-encodes the value with encodeURIComponent", () => {
    expect(serializeCookie({ name: "authjs.csrf-token", value: "abc|def", options: {} })).toBe(
      "authjs.csrf-token=abc%7Cdef",
    )
    expect(serializeCookie({ name: "c", value: "http://x.test/a?b=1;c d", options: {} })).toBe(
      "c=http%3A%2F%2Fx.test%2Fa%3Fb%3D1%3Bc%20d",
    )
  })

  it("skips the encoding check only for the exact value last marked URL-safe; any other value is still encoded", () => {
    markUrlSafe("eyJ.a-b_c.d")
    expect(serializeCookie({ name: "s", value: "eyJ.a-b_c.d", options: {} })).toBe("s=eyJ.a-b_c.d")
    expect(serializeCookie({ name: "s", value: "eyJ.a b;c.d", options: {} })).toBe("s=eyJ.a%20b%3Bc.d")
    // Used once, the mark is gone: the same string is checked again (and needs no encoding, so the answer holds).
    markUrlSafe("a b")
    expect(serializeCookie({ name: "s", value: "a b", options: {} })).toBe("s=a b")
    expect(serializeCookie({ name: "s", value: "a b", options: {} })).toBe("s=a%20b")
  })

  it("refuses an invalid cookie name with a configuration error (an AuthError), never a raw TypeError", () => {
    expect(() => serializeCookie({ name: "a b", value: "", options: {} })).toThrow(InvalidEndpoints)
    expect(() => serializeCookie({ name: "a;b", value: "", options: {} })).toThrow(
      /invalid cookie name "a;b": set `cookies.<cookie>.name`/,
    )
    expect(() => serializeCookie({ name: "", value: "", options: {} })).toThrow(InvalidEndpoints)
  })
})

describe("expiredCookie / clearChunked", () => {
  it("expiredCookie: same attributes, empty value, Max-Age=0, no Expires", () => {
    const c = expiredCookie({
      ...plain.sessionToken,
      options: { ...plain.sessionToken.options, expires: EXPIRES, maxAge: 99 },
    })
    expect(c).toEqual({
      name: NAME,
      value: "",
      options: { httpOnly: true, sameSite: "lax", path: "/", secure: false, maxAge: 0, expires: undefined },
    })
    expect(serializeCookie(c)).toBe(`${NAME}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax`)
    expect(expiredCookie(plain.sessionToken, `${NAME}.3`).name).toBe(`${NAME}.3`)
  })

  it("clearChunked expires every seen name, or the bare name when none was seen", () => {
    expect(
      clearChunked(plain.sessionToken, [`${NAME}.0`, `${NAME}.1`]).map((c) => [c.name, c.value, c.options.maxAge]),
    ).toEqual([
      [`${NAME}.0`, "", 0],
      [`${NAME}.1`, "", 0],
    ])
    expect(clearChunked(plain.sessionToken, []).map((c) => c.name)).toEqual([NAME])
  })
})

describe("writeChunked", () => {
  const options = { ...plain.sessionToken.options, maxAge: 100, expires: EXPIRES }

  it("the chunk size is 4096 - 160 = 3936 characters", () => {
    expect(CHUNK_SIZE).toBe(3936)
  })

  it("a value of up to 3936 characters is one cookie with the bare name", () => {
    const value = "a".repeat(3936)
    expect(writeChunked(plain.sessionToken, value, options, [])).toEqual([{ name: NAME, value, options }])
  })

  it("3937 characters become .0 (3936) and .1 (1)", () => {
    const value = `${"a".repeat(3936)}b`
    const out = writeChunked(plain.sessionToken, value, options, [])
    expect(out.map((c) => [c.name, c.value.length])).toEqual([
      [`${NAME}.0`, 3936],
      [`${NAME}.1`, 1],
    ])
    expect(out[1]!.value).toBe("b")
    expect(out[0]!.options).toEqual(options)
  })

  it("7070 characters become .0 (3936) + .1 (3134) and the bare cookie of the request is expired", () => {
    const value = Array.from({ length: 7070 }, (_, i) => String.fromCharCode(97 + (i % 26))).join("")
    const out = writeChunked(plain.sessionToken, value, options, [NAME])
    expect(out.map((c) => [c.name, c.value.length, c.options.maxAge])).toEqual([
      [`${NAME}.0`, 3936, 100],
      [`${NAME}.1`, 3134, 100],
      [NAME, 0, 0],
    ])
    expect(out[0]!.value + out[1]!.value).toBe(value)
  })

  it("switching from chunked to a short value expires every old chunk", () => {
    const out = writeChunked(plain.sessionToken, "short", options, [`${NAME}.0`, `${NAME}.1`, `${NAME}.2`])
    expect(out.map((c) => [c.name, c.value, c.options.maxAge])).toEqual([
      [NAME, "short", 100],
      [`${NAME}.0`, "", 0],
      [`${NAME}.1`, "", 0],
      [`${NAME}.2`, "", 0],
    ])
  })

  it("fewer chunks than before: only the stale chunk numbers are expired", () => {
    const out = writeChunked(plain.sessionToken, "x".repeat(CHUNK_SIZE + 10), options, [
      `${NAME}.0`,
      `${NAME}.1`,
      `${NAME}.2`,
    ])
    expect(out.map((c) => [c.name, c.options.maxAge])).toEqual([
      [`${NAME}.0`, 100],
      [`${NAME}.1`, 100],
      [`${NAME}.2`, 0],
    ])
  })

  it("a name the request carried that is rewritten is not also expired", () => {
    const out = writeChunked(plain.sessionToken, "new", options, [NAME])
    expect(out).toEqual([{ name: NAME, value: "new", options }])
  })

  it("the round trip through readChunked gives the value back", () => {
    const value = "z".repeat(3 * CHUNK_SIZE + 5)
    const cookies = Object.fromEntries(
      writeChunked(plain.sessionToken, value, options, []).map((c) => [c.name, c.value]),
    )
    expect(Object.keys(cookies)).toHaveLength(4)
    expect(readChunked(cookies, NAME).value).toBe(value)
  })
})

describe("readChunked", () => {
  it("absent: no value, no names; unrelated cookies are ignored", () => {
    expect(readChunked({ other: "x", "authjs.session-tokenX": "y", "authjs.session": "z" }, NAME)).toEqual({
      value: undefined,
      names: [],
    })
  })

  it("the bare cookie alone", () => {
    expect(readChunked({ [NAME]: "tok", other: "x" }, NAME)).toEqual({ value: "tok", names: [NAME] })
  })

  it("chunks are joined by their index, not by their order in the header", () => {
    expect(readChunked({ [`${NAME}.2`]: "c", [`${NAME}.0`]: "a", [`${NAME}.1`]: "b" }, NAME)).toEqual({
      value: "abc",
      names: [`${NAME}.2`, `${NAME}.0`, `${NAME}.1`],
    })
  })

  it("a gap makes it invalid (names still reported for clean-up)", () => {
    expect(readChunked({ [`${NAME}.0`]: "a", [`${NAME}.2`]: "c" }, NAME)).toEqual({
      value: undefined,
      names: [`${NAME}.0`, `${NAME}.2`],
    })
    expect(readChunked({ [`${NAME}.1`]: "b" }, NAME)).toEqual({ value: undefined, names: [`${NAME}.1`] })
  })

  it("a duplicate index (a second spelling of the same number) makes it invalid", () => {
    expect(readChunked({ [`${NAME}.0`]: "a", [`${NAME}.00`]: "a2", [`${NAME}.1`]: "b" }, NAME).value).toBeUndefined()
    expect(readChunked({ [`${NAME}.0`]: "a", [`${NAME}.1`]: "b", [`${NAME}.01`]: "b2" }, NAME).value).toBeUndefined()
  })

  it("the bare cookie together with chunks is invalid", () => {
    const out = readChunked({ [NAME]: "bare", [`${NAME}.0`]: "a", [`${NAME}.1`]: "b" }, NAME)
    expect(out.value).toBeUndefined()
    expect(out.names.sort()).toEqual([NAME, `${NAME}.0`, `${NAME}.1`].sort())
  })

  it("non-numeric or signed suffixes are invalid", () => {
    expect(readChunked({ [`${NAME}.0`]: "a", [`${NAME}.x`]: "b" }, NAME).value).toBeUndefined()
    expect(readChunked({ [`${NAME}.-1`]: "a" }, NAME).value).toBeUndefined()
    expect(readChunked({ [`${NAME}.`]: "a" }, NAME).value).toBeUndefined()
    expect(readChunked({ [`${NAME}.0.1`]: "a" }, NAME).value).toBeUndefined()
  })

  it("an empty chunk or an empty bare cookie gives no value but reports the name", () => {
    expect(readChunked({ [`${NAME}.0`]: "a", [`${NAME}.1`]: "" }, NAME)).toEqual({
      value: undefined,
      names: [`${NAME}.0`, `${NAME}.1`],
    })
    expect(readChunked({ [NAME]: "" }, NAME)).toEqual({ value: undefined, names: [NAME] })
  })

  it("50 chunks are accepted, 51 are not", () => {
    expect(MAX_CHUNKS).toBe(50)
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`${NAME}.${i}`, String(i % 10)]))
    expect(readChunked(fifty, NAME).value).toBe(Array.from({ length: 50 }, (_, i) => String(i % 10)).join(""))
    const fiftyOne = { ...fifty, [`${NAME}.50`]: "x" }
    const out = readChunked(fiftyOne, NAME)
    expect(out.value).toBeUndefined()
    expect(out.names).toHaveLength(51)
  })

  it("a single far index (.999) is invalid without allocating up to it", () => {
    expect(readChunked({ [`${NAME}.0`]: "a", [`${NAME}.999`]: "b" }, NAME).value).toBeUndefined()
    expect(readChunked({ [`${NAME}.1000000`]: "b" }, NAME).value).toBeUndefined()
  })
})

describe("chunk names no Set-Cookie can carry (found by the fuzzer)", () => {
  it("CK-09 a malformed chunk name with a non-token character makes the cookie invalid and is not echoed back", () => {
    const option = defaultCookies(false).sessionToken
    for (const odd of [`${NAME}.é`, `${NAME}. 0`, `${NAME}.²`]) {
      const read = readChunked({ [`${NAME}.0`]: "abc", [odd]: "x" }, NAME)
      expect(read.value).toBeUndefined()
      const cleared = clearChunked(option, read.names)
      expect(cleared.map((c) => c.name)).toEqual([`${NAME}.0`])
      expect(() => cleared.map(serializeCookie)).not.toThrow()
      const rewritten = writeChunked(option, "token", option.options, read.names)
      expect(rewritten.map((c) => c.name)).toEqual([NAME, `${NAME}.0`])
    }
  })
})
