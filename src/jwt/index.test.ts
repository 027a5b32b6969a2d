// The public gatehouse/jwt contract on bad tokens, checked side by side with @auth/core/jwt: decode resolves null for
// an empty token and rejects (with a JWTSessionError here) for one it cannot accept; getToken resolves null for both.
import * as authjs from "@auth/core/jwt"
import { describe, expect, it, vi } from "vitest"
import { AuthError, JWTSessionError, MissingSecret, type AnyAuthError } from "../errors.js"
import { decode, encode, getToken } from "./index.js"

const SECRET = "jwt-contract-secret-at-least-32-characters"
const OTHER = "another-secret-that-is-32-characters-long!"
const SALT = "authjs.session-token"

/** Flips one character in the middle of the ciphertext: still base64url, no longer authentic. */
function tamper(token: string): string {
  const parts = token.split(".")
  const ct = parts[3] as string
  const i = Math.floor(ct.length / 2)
  parts[3] = `${ct.slice(0, i)}${ct[i] === "A" ? "B" : "A"}${ct.slice(i + 1)}`
  return parts.join(".")
}

const implementations = {
  gatehouse: { encode, decode, getToken },
  "@auth/core": { encode: authjs.encode, decode: authjs.decode, getToken: authjs.getToken },
} as const

/** Each bad token, made by the implementation under test (so tampering and expiry apply to its own format). */
async function badTokens(
  impl: (typeof implementations)[keyof typeof implementations],
): Promise<[string, string, string | string[], string][]> {
  const good = await impl.encode({ token: { sub: "u1" }, secret: SECRET, salt: SALT })
  const expired = await impl.encode({ token: { sub: "u1" }, secret: SECRET, salt: SALT, maxAge: -60 })
  return [
    ["tampered", tamper(good), SECRET, SALT],
    ["wrong secret", good, OTHER, SALT],
    ["wrong salt", good, SECRET, "__Secure-authjs.session-token"],
    ["garbage", "not-a-token", SECRET, SALT],
    ["five empty segments", "....", SECRET, SALT],
    ["expired", expired, SECRET, SALT],
  ]
}

const request = (token: string) => new Request("http://localhost/", { headers: { cookie: `${SALT}=${token}` } })
const bearer = (token: string) => new Request("http://localhost/", { headers: { authorization: `Bearer ${token}` } })

describe.each(Object.entries(implementations))("%s", (_name, impl) => {
  it("decode returns the claims of a good token, also with the secret second in a rotation list", async () => {
    const token = await impl.encode({ token: { sub: "u1", name: "A" }, secret: SECRET, salt: SALT })
    expect(await impl.decode({ token, secret: SECRET, salt: SALT })).toMatchObject({ sub: "u1", name: "A" })
    expect(await impl.decode({ token, secret: [OTHER, SECRET], salt: SALT })).toMatchObject({ sub: "u1" })
  })

  it("decode resolves null for an empty or absent token, without deriving a key", async () => {
    expect(await impl.decode({ token: "", secret: SECRET, salt: SALT })).toBeNull()
    expect(await impl.decode({ token: undefined, secret: SECRET, salt: SALT })).toBeNull()
  })

  it("decode rejects a tampered, foreign, garbage or expired token", async () => {
    for (const [label, token, secret, salt] of await badTokens(impl)) {
      await expect(impl.decode({ token, secret, salt }), label).rejects.toBeInstanceOf(Error)
    }
  })

  it("getToken resolves null for the same tokens, in the cookie and as a Bearer token", async () => {
    for (const [label, token, secret, salt] of await badTokens(impl)) {
      expect(await impl.getToken({ req: request(token), secret, salt }), label).toBeNull()
      expect(await impl.getToken({ req: bearer(token), secret, salt }), `${label} (Bearer)`).toBeNull()
    }
  })

  it("getToken resolves null without a token (no cookie, empty cookie, malformed Bearer encoding) and the claims with a good one", async () => {
    expect(await impl.getToken({ req: new Request("http://localhost/"), secret: SECRET })).toBeNull()
    expect(await impl.getToken({ req: request(""), secret: SECRET })).toBeNull()
    expect(await impl.getToken({ req: bearer("%E0%A4%A"), secret: SECRET })).toBeNull()
    const token = await impl.encode({ token: { sub: "u1" }, secret: SECRET, salt: SALT })
    expect(await impl.getToken({ req: request(token), secret: SECRET })).toMatchObject({ sub: "u1" })
  })

  it("getToken rejects with MissingSecret when a token is present but no secret is given", async () => {
    const token = await impl.encode({ token: { sub: "u1" }, secret: SECRET, salt: SALT })
    const error = await impl.getToken({ req: request(token) }).catch((e: unknown) => e)
    expect((error as { type?: unknown }).type ?? (error as { name?: unknown }).name).toBe("MissingSecret")
  })
})

describe("gatehouse rejections are AuthErrors", () => {
  it("decode rejects each bad token with a JWTSessionError that names the reason and never echoes the token", async () => {
    for (const [label, token, secret, salt] of await badTokens(implementations.gatehouse)) {
      const error = await decode({ token, secret, salt }).catch((e: unknown) => e)
      expect(error, label).toBeInstanceOf(JWTSessionError)
      expect(error, label).toBeInstanceOf(AuthError)
      expect((error as AnyAuthError).type, label).toBe("JWTSessionError")
      expect((error as Error).message, label).not.toBe("")
      if (token.length > 8) expect((error as Error).message, label).not.toContain(token.slice(0, 40))
    }
    const expired = await encode({ token: {}, secret: SECRET, salt: SALT, maxAge: -60 })
    await expect(decode({ token: expired, secret: SECRET, salt: SALT })).rejects.toThrow("token expired")
  })

  it("a missing secret is MissingSecret and a missing salt or req a JWTSessionError, each saying what to pass", async () => {
    await expect(decode({ token: "a.b.c.d.e", secret: "", salt: SALT })).rejects.toBeInstanceOf(MissingSecret)
    await expect(encode({ token: {}, secret: [], salt: SALT })).rejects.toBeInstanceOf(MissingSecret)
    await expect(encode({ token: {}, secret: SECRET, salt: "" })).rejects.toThrow(JWTSessionError)
    await expect(encode({ token: {}, secret: SECRET, salt: "" })).rejects.toThrow(/salt/)
    await expect(getToken({ req: undefined as never, secret: SECRET })).rejects.toThrow(JWTSessionError)
    await expect(getToken({ req: request("x"), secret: undefined })).rejects.toBeInstanceOf(MissingSecret)
  })

  it("getToken tells a given logger (debug) why a token was not accepted, without the token; no logger, no output", async () => {
    const expired = await encode({ token: { sub: "u1" }, secret: SECRET, salt: SALT, maxAge: -60 })
    const calls: unknown[][] = []
    const logger = { debug: (...args: unknown[]) => void calls.push(args) }
    expect(await getToken({ req: request(expired), secret: SECRET, logger })).toBeNull()
    expect(calls).toEqual([
      ["getToken: the session token was not accepted", { reason: expect.stringContaining("token expired") }],
    ])
    expect(JSON.stringify(calls)).not.toContain(expired.slice(0, 40))
    const leaky = async () => {
      throw new Error(`cannot read ${expired}`)
    }
    expect(await getToken({ req: request(expired), secret: SECRET, logger, decode: leaky })).toBeNull()
    expect(calls[1]).toEqual(["getToken: the session token was not accepted", { reason: "Error" }])
    const token = await encode({ token: { sub: "u1" }, secret: SECRET, salt: SALT })
    expect(await getToken({ req: request(token), secret: SECRET, logger })).toMatchObject({ sub: "u1" })
    expect(calls).toHaveLength(2)
    const consoleSpies = (["debug", "log", "info", "warn", "error"] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation(() => {}),
    )
    try {
      expect(await getToken({ req: request(expired), secret: SECRET })).toBeNull()
      for (const spy of consoleSpies) expect(spy).not.toHaveBeenCalled()
    } finally {
      for (const spy of consoleSpies) spy.mockRestore()
    }
  })

  it("a token from either implementation reads in the other", async () => {
    const ours = await encode({ token: { sub: "ours" }, secret: SECRET, salt: SALT })
    const theirs = await authjs.encode({ token: { sub: "theirs" }, secret: SECRET, salt: SALT })
    expect(await authjs.decode({ token: ours, secret: SECRET, salt: SALT })).toMatchObject({ sub: "ours" })
    expect(await decode({ token: theirs, secret: SECRET, salt: SALT })).toMatchObject({ sub: "theirs" })
    expect(await getToken({ req: request(theirs), secret: SECRET })).toMatchObject({ sub: "theirs" })
  })
})
