// Unit tests of the session JWE: round trips, jose interop (A256CBC-HS512 and A256GCM), kid selection,
// header checks, tag tampering, time claims (15 s tolerance) and the bounded key cache.
import { hkdfSync } from "node:crypto"
import { CompactEncrypt, EncryptJWT, calculateJwkThumbprint, decodeProtectedHeader, jwtDecrypt } from "jose"
import { afterEach, describe, expect, it, vi } from "vitest"
import { JWTSessionError } from "../errors.js"
import { decode, encode } from "./index.js"
import {
  CLOCK_TOLERANCE,
  assertTimeClaims,
  decodeToken,
  encodeToken,
  decryptClaims,
  deriveKey,
  encryptClaims,
  nowSeconds,
  withTimeClaims,
} from "./jwe.js"

const S1 = "first-secret-that-is-at-least-32-characters-long"
const S2 = "second-secret-that-is-at-least-32-characters-long"
const SALT = "authjs.session-token"

/** The key Auth.js derives: HKDF-SHA256(secret, salt, "Auth.js Generated Encryption Key (<salt>)"). */
function authjsKey(secret: string, salt: string, length: 32 | 64): Uint8Array {
  return new Uint8Array(hkdfSync("sha256", secret, salt, `Auth.js Generated Encryption Key (${salt})`, length))
}

function b64json(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url")
}

/** Re-encodes one part of a compact JWE after flipping one byte of it (a real change, not a padding bit). */
function flipByte(token: string, part: number, index = 0): string {
  const parts = token.split(".")
  const bytes = Buffer.from(parts[part] as string, "base64url")
  bytes[index] = (bytes[index] as number) ^ 0x01
  parts[part] = bytes.toString("base64url")
  return parts.join(".")
}

/** A token whose protected header is replaced (the tag then fails, but header checks must fire first). */
function withHeader(token: string, header: Record<string, unknown>): string {
  const parts = token.split(".")
  parts[0] = b64json(header)
  return parts.join(".")
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe("deriveKey", () => {
  it("derives the Auth.js HKDF key (64 bytes for A256CBC-HS512, 32 for A256GCM)", async () => {
    expect(Buffer.from((await deriveKey(S1, SALT)).raw)).toEqual(Buffer.from(authjsKey(S1, SALT, 64)))
    expect((await deriveKey(S1, SALT)).raw.length).toBe(64)
    expect(Buffer.from((await deriveKey(S1, SALT, "A256GCM")).raw)).toEqual(Buffer.from(authjsKey(S1, SALT, 32)))
  })

  it("kid is the RFC 7638 thumbprint (SHA-512 for the 64-byte key, SHA-256 for the 32-byte key)", async () => {
    const k64 = Buffer.from(authjsKey(S1, SALT, 64)).toString("base64url")
    const k32 = Buffer.from(authjsKey(S1, SALT, 32)).toString("base64url")
    expect((await deriveKey(S1, SALT)).kid).toBe(await calculateJwkThumbprint({ kty: "oct", k: k64 }, "sha512"))
    expect((await deriveKey(S1, SALT, "A256GCM")).kid).toBe(
      await calculateJwkThumbprint({ kty: "oct", k: k32 }, "sha256"),
    )
  })

  it("different salts (cookie names) give different keys", async () => {
    expect((await deriveKey(S1, "authjs.session-token")).kid).not.toBe(
      (await deriveKey(S1, "__Secure-authjs.session-token")).kid,
    )
  })
})

describe("encrypt / decrypt round trip", () => {
  it("decrypts what it encrypts, with the Auth.js protected header", async () => {
    const payload = { name: "Alice", email: "alice@example.com", n: 1, nested: { a: [1, 2] }, unicode: "ünï😀" }
    const token = await encryptClaims(payload, S1, SALT)
    const parts = token.split(".")
    expect(parts).toHaveLength(5)
    expect(parts[1]).toBe("")
    expect(Buffer.from(parts[2] as string, "base64url")).toHaveLength(16)
    expect(Buffer.from(parts[4] as string, "base64url")).toHaveLength(32)
    expect(decodeProtectedHeader(token)).toEqual({
      alg: "dir",
      enc: "A256CBC-HS512",
      kid: (await deriveKey(S1, SALT)).kid,
    })
    expect(JSON.parse(Buffer.from(parts[0] as string, "base64url").toString())).toEqual({
      alg: "dir",
      enc: "A256CBC-HS512",
      kid: (await deriveKey(S1, SALT)).kid,
    })
    expect(await decryptClaims(token, [S1], SALT)).toEqual({ payload, secretIndex: 0 })
  })

  it("a fresh IV per token: the same claims encrypt differently", async () => {
    const a = await encryptClaims({ a: 1 }, S1, SALT)
    const b = await encryptClaims({ a: 1 }, S1, SALT)
    expect(a).not.toBe(b)
    expect(a.split(".")[2]).not.toBe(b.split(".")[2])
  })

  it("encode/decode add iat, exp (= iat + maxAge) and a jti and give the claims back", async () => {
    const token = await encode({
      token: { name: "Alice", sub: "u1", iat: 1, exp: 2, jti: "old" },
      secret: S1,
      salt: SALT,
      maxAge: 600,
    })
    const now = nowSeconds()
    const claims = await decode({ token, secret: S1, salt: SALT })
    expect(claims).toMatchObject({ name: "Alice", sub: "u1" })
    expect(Math.abs((claims!.iat as number) - now)).toBeLessThanOrEqual(1)
    expect((claims!.exp as number) - (claims!.iat as number)).toBe(600)
    expect(claims!.jti).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(claims!.jti).not.toBe("old")
  })

  it("decode of an empty token is null; a missing secret or salt throws", async () => {
    expect(await decode({ token: "", secret: S1, salt: SALT })).toBeNull()
    await expect(encodeToken({ token: {}, secret: "", salt: SALT })).rejects.toThrow(/secret/)
    await expect(encodeToken({ token: {}, secret: S1, salt: "" })).rejects.toThrow(/salt/)
  })

  it("tokens from encode are read by jose's jwtDecrypt with the Auth.js key", async () => {
    const token = await encodeToken({ token: { name: "Alice" }, secret: S1, salt: SALT, maxAge: 60 })
    const { payload, protectedHeader } = await jwtDecrypt(token, authjsKey(S1, SALT, 64), { clockTolerance: 15 })
    expect(payload.name).toBe("Alice")
    expect(protectedHeader).toEqual({ alg: "dir", enc: "A256CBC-HS512", kid: (await deriveKey(S1, SALT)).kid })
  })
})

describe("tokens made with jose", () => {
  it("A256CBC-HS512 with kid (the Auth.js encode) decrypts", async () => {
    const kid = (await deriveKey(S1, SALT)).kid
    const now = nowSeconds()
    const token = await new EncryptJWT({ name: "Bob" })
      .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512", kid })
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .setJti("j1")
      .encrypt(authjsKey(S1, SALT, 64))
    expect(await decryptClaims(token, [S1], SALT)).toEqual({
      payload: { name: "Bob", iat: now, exp: now + 60, jti: "j1" },
      secretIndex: 0,
    })
    expect((await decodeToken({ token, secret: S1, salt: SALT }))?.payload.name).toBe("Bob")
  })

  it("A256GCM with kid decrypts with the 32-byte key", async () => {
    const kid = (await deriveKey(S1, SALT, "A256GCM")).kid
    const now = nowSeconds()
    const token = await new EncryptJWT({ name: "Gcm" })
      .setProtectedHeader({ alg: "dir", enc: "A256GCM", kid })
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .encrypt(authjsKey(S1, SALT, 32))
    expect(Buffer.from(token.split(".")[2] as string, "base64url")).toHaveLength(12)
    expect(await decryptClaims(token, [S2, S1], SALT)).toEqual({
      payload: { name: "Gcm", iat: now, exp: now + 60 },
      secretIndex: 1,
    })
  })

  it("A256GCM without kid decrypts with the first secret only", async () => {
    const token = await new EncryptJWT({ name: "NoKid" })
      .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
      .setExpirationTime(nowSeconds() + 60)
      .encrypt(authjsKey(S1, SALT, 32))
    expect((await decryptClaims(token, [S1, S2], SALT)).payload.name).toBe("NoKid")
    await expect(decryptClaims(token, [S2, S1], SALT)).rejects.toThrow(JWTSessionError)
    await expect(decryptClaims(token, [S2, S1], SALT)).rejects.toThrow("decryption failed")
  })

  it("A256GCM tag and ciphertext tampering is detected", async () => {
    const token = await new EncryptJWT({ name: "Gcm" })
      .setProtectedHeader({ alg: "dir", enc: "A256GCM", kid: (await deriveKey(S1, SALT, "A256GCM")).kid })
      .setExpirationTime(nowSeconds() + 60)
      .encrypt(authjsKey(S1, SALT, 32))
    await expect(decryptClaims(flipByte(token, 4, 5), [S1], SALT)).rejects.toThrow("decryption failed")
    await expect(decryptClaims(flipByte(token, 3, 0), [S1], SALT)).rejects.toThrow("decryption failed")
    await expect(decryptClaims(flipByte(token, 2, 0), [S1], SALT)).rejects.toThrow("decryption failed")
  })
})

describe("kid selection (secret rotation)", () => {
  it("picks the secret whose derived key matches the kid and reports its index", async () => {
    const token = await encryptClaims({ who: "s1" }, S1, SALT)
    expect((await decryptClaims(token, [S1], SALT)).secretIndex).toBe(0)
    expect(await decryptClaims(token, [S2, S1], SALT)).toEqual({ payload: { who: "s1" }, secretIndex: 1 })
    const token2 = await encodeToken({ token: {}, secret: [S1, S2], salt: SALT })
    expect((await decodeToken({ token: token2, secret: [S2, S1], salt: SALT }))?.secretIndex).toBe(1)
  })

  it("encode uses the first secret of a list", async () => {
    const token = await encodeToken({ token: {}, secret: [S2, S1], salt: SALT })
    expect(decodeProtectedHeader(token).kid).toBe((await deriveKey(S2, SALT)).kid)
  })

  it("a kid that matches no secret is refused", async () => {
    const token = await encryptClaims({ who: "s1" }, S1, SALT)
    await expect(decryptClaims(token, [S2], SALT)).rejects.toThrow("no secret matches the token's kid")
  })

  it("the salt is part of the key: a token for one cookie name does not open under another", async () => {
    const token = await encryptClaims({ a: 1 }, S1, "authjs.session-token")
    await expect(decryptClaims(token, [S1], "__Secure-authjs.session-token")).rejects.toThrow(
      "no secret matches the token's kid",
    )
  })

  it("a kid-less token is tried with the first secret only", async () => {
    const token = await encryptClaims({ a: 1 }, S1, SALT)
    // Same key and AAD recomputed for a kid-less header: re-encrypt with jose so the tag is valid.
    const noKid = await new CompactEncrypt(Buffer.from(JSON.stringify({ a: 1 })))
      .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512" })
      .encrypt(authjsKey(S1, SALT, 64))
    expect(token).not.toBe(noKid)
    expect(await decryptClaims(noKid, [S1, S2], SALT)).toEqual({ payload: { a: 1 }, secretIndex: 0 })
    await expect(decryptClaims(noKid, [S2, S1], SALT)).rejects.toThrow("authentication tag mismatch")
  })
})

describe("header and format checks", () => {
  const good = () => encryptClaims({ a: 1 }, S1, SALT)
  const kid = async () => (await deriveKey(S1, SALT)).kid

  it.each([
    ["alg other than dir", { alg: "A256KW", enc: "A256CBC-HS512" }, "alg must be dir"],
    ["alg none", { alg: "none", enc: "A256CBC-HS512" }, "alg must be dir"],
    ["enc A128GCM", { alg: "dir", enc: "A128GCM" }, "enc must be A256CBC-HS512 or A256GCM"],
    ["enc A128CBC-HS256", { alg: "dir", enc: "A128CBC-HS256" }, "enc must be A256CBC-HS512 or A256GCM"],
    ["a zip member", { alg: "dir", enc: "A256CBC-HS512", zip: "DEF" }, 'unsupported header member "zip"'],
    ["a crit member", { alg: "dir", enc: "A256CBC-HS512", crit: ["exp"] }, 'unsupported header member "crit"'],
    ["an unknown member", { alg: "dir", enc: "A256CBC-HS512", typ: "JWT" }, 'unsupported header member "typ"'],
    ["a numeric kid", { alg: "dir", enc: "A256CBC-HS512", kid: 5 }, "kid must be a string"],
  ])("refuses %s", async (_label, header, message) => {
    await expect(decryptClaims(withHeader(await good(), header), [S1], SALT)).rejects.toThrow(message)
  })

  it("refuses a header that is not a JSON object", async () => {
    const t = (await good()).split(".")
    await expect(
      decryptClaims([Buffer.from("not json").toString("base64url"), ...t.slice(1)].join("."), [S1], SALT),
    ).rejects.toThrow("protected header is not JSON")
    await expect(decryptClaims([b64json([1, 2]), ...t.slice(1)].join("."), [S1], SALT)).rejects.toThrow(
      "protected header is not an object",
    )
    await expect(decryptClaims([b64json(null), ...t.slice(1)].join("."), [S1], SALT)).rejects.toThrow(
      "protected header is not an object",
    )
  })

  it("a header with a wrong member fails before the kid lookup", async () => {
    // A kid that matches no secret plus a bad alg: the alg error wins, so no key was looked up first.
    await expect(
      decryptClaims(withHeader(await good(), { alg: "RSA-OAEP", enc: "A256CBC-HS512", kid: "nope" }), [S1], SALT),
    ).rejects.toThrow("alg must be dir")
  })

  it("refuses tokens that are not a 5-part compact dir JWE", async () => {
    const t = await good()
    await expect(decryptClaims(t.split(".").slice(0, 4).join("."), [S1], SALT)).rejects.toThrow("not a compact JWE")
    await expect(decryptClaims(`${t}.x`, [S1], SALT)).rejects.toThrow("not a compact JWE")
    const parts = t.split(".")
    parts[1] = "AAAA"
    await expect(decryptClaims(parts.join("."), [S1], SALT)).rejects.toThrow("dir tokens have no encrypted key")
    await expect(decryptClaims(t.replace(/\.([^.]*)$/, ".ab+c/"), [S1], SALT)).rejects.toThrow("bad base64url")
    await expect(decryptClaims("x".repeat(200_001), [S1], SALT)).rejects.toThrow("token too large")
  })

  it("refuses a wrong IV or tag length", async () => {
    const parts = (await good()).split(".")
    const shortIv = [...parts]
    shortIv[2] = Buffer.alloc(12).toString("base64url")
    await expect(decryptClaims(shortIv.join("."), [S1], SALT)).rejects.toThrow("bad iv or tag length")
    const shortTag = [...parts]
    shortTag[4] = Buffer.alloc(16).toString("base64url")
    await expect(decryptClaims(shortTag.join("."), [S1], SALT)).rejects.toThrow("bad iv or tag length")
  })

  it("the header is authenticated: a changed kid-compatible header fails the tag", async () => {
    // Same header fields, different serialisation (key order): the AAD changes, so the tag must fail.
    await expect(
      decryptClaims(withHeader(await good(), { enc: "A256CBC-HS512", alg: "dir", kid: await kid() }), [S1], SALT),
    ).rejects.toThrow("authentication tag mismatch")
  })
})

describe("tamper detection (A256CBC-HS512)", () => {
  it.each([
    ["tag", 4],
    ["ciphertext", 3],
    ["iv", 2],
  ])("a flipped %s byte fails authentication", async (_label, part) => {
    const token = await encryptClaims({ admin: false }, S1, SALT)
    await expect(decryptClaims(flipByte(token, part as number, 0), [S1], SALT)).rejects.toThrow(
      "authentication tag mismatch",
    )
    await expect(decryptClaims(flipByte(token, part as number, 7), [S1], SALT)).rejects.toThrow(JWTSessionError)
  })

  it("a truncated ciphertext fails authentication", async () => {
    const parts = (await encryptClaims({ a: "x".repeat(40) }, S1, SALT)).split(".")
    parts[3] = Buffer.from(parts[3] as string, "base64url")
      .subarray(16)
      .toString("base64url")
    await expect(decryptClaims(parts.join("."), [S1], SALT)).rejects.toThrow("authentication tag mismatch")
  })

  it("a payload that is not a claims object is refused after decryption", async () => {
    const key = authjsKey(S1, SALT, 64)
    const header = { alg: "dir", enc: "A256CBC-HS512", kid: (await deriveKey(S1, SALT)).kid } as const
    const array = await new CompactEncrypt(Buffer.from("[1,2]")).setProtectedHeader(header).encrypt(key)
    const text = await new CompactEncrypt(Buffer.from("hello")).setProtectedHeader(header).encrypt(key)
    await expect(decryptClaims(array, [S1], SALT)).rejects.toThrow("payload is not a claims object")
    await expect(decryptClaims(text, [S1], SALT)).rejects.toThrow("payload is not JSON")
  })
})

describe("time claims", () => {
  const now = 1_700_000_000

  it("tolerance is 15 seconds", async () => {
    expect(CLOCK_TOLERANCE).toBe(15)
  })

  it("exp: accepted up to 14 s in the past, refused from 15 s", async () => {
    expect(() => assertTimeClaims({ exp: now + 100 }, now)).not.toThrow()
    expect(() => assertTimeClaims({ exp: now }, now)).not.toThrow()
    expect(() => assertTimeClaims({ exp: now - 10 }, now)).not.toThrow()
    expect(() => assertTimeClaims({ exp: now - 14 }, now)).not.toThrow()
    expect(() => assertTimeClaims({ exp: now - 15 }, now)).toThrow("token expired")
    expect(() => assertTimeClaims({ exp: now - 3600 }, now)).toThrow("token expired")
  })

  it("exp is required and numeric", async () => {
    expect(() => assertTimeClaims({}, now)).toThrow("exp missing")
    expect(() => assertTimeClaims({ exp: String(now + 60) }, now)).toThrow("exp missing")
    expect(() => assertTimeClaims({ exp: Number.POSITIVE_INFINITY }, now)).toThrow("exp missing")
    expect(() => assertTimeClaims({ exp: Number.NaN }, now)).toThrow("exp missing")
  })

  it("nbf: accepted up to 15 s in the future, refused after; must be numeric", async () => {
    expect(() => assertTimeClaims({ exp: now + 60, nbf: now + 15 }, now)).not.toThrow()
    expect(() => assertTimeClaims({ exp: now + 60, nbf: now + 16 }, now)).toThrow("token not yet valid")
    expect(() => assertTimeClaims({ exp: now + 60, nbf: "0" }, now)).toThrow("token not yet valid")
  })

  it("iat must be numeric when present", async () => {
    expect(() => assertTimeClaims({ exp: now + 60, iat: now }, now)).not.toThrow()
    expect(() => assertTimeClaims({ exp: now + 60, iat: "yesterday" }, now)).toThrow("iat is not a number")
  })

  it("withTimeClaims overwrites iat, exp and jti and keeps the rest", async () => {
    const out = withTimeClaims({ sub: "u", iat: 1, exp: 2, jti: "x" }, 300, now)
    expect(out).toMatchObject({ sub: "u", iat: now, exp: now + 300 })
    expect(out.jti).not.toBe("x")
    expect(typeof out.jti).toBe("string")
  })

  it("decodeToken applies the tolerance against the clock", async () => {
    const spy = vi.spyOn(Date, "now")
    spy.mockReturnValue(now * 1000)
    const token = await encodeToken({ token: { sub: "u" }, secret: S1, salt: SALT, maxAge: 60 })
    spy.mockReturnValue((now + 60 + 10) * 1000) // expired 10 s ago: inside the tolerance
    expect((await decodeToken({ token, secret: S1, salt: SALT }))?.payload.sub).toBe("u")
    spy.mockReturnValue((now + 60 + 20) * 1000) // expired 20 s ago
    await expect(decodeToken({ token, secret: S1, salt: SALT })).rejects.toThrow("token expired")
  })

  it("decode (async) rejects an expired token", async () => {
    const spy = vi.spyOn(Date, "now")
    spy.mockReturnValue(now * 1000)
    const token = await encode({ token: { sub: "u" }, secret: S1, salt: SALT, maxAge: 60 })
    spy.mockReturnValue((now + 3600) * 1000)
    await expect(decode({ token, secret: S1, salt: SALT })).rejects.toThrow("token expired")
  })
})

describe("key cache", () => {
  const CACHE_SIZE = 256

  it("returns the cached object for the same (secret, salt, enc)", async () => {
    const a = await deriveKey(S1, "cache-identity")
    expect(await deriveKey(S1, "cache-identity")).toBe(a)
    expect(await deriveKey(S1, "cache-identity", "A256GCM")).not.toBe(a)
  })

  it("holds at most 256 keys (oldest evicted first)", async () => {
    const salts = Array.from({ length: CACHE_SIZE + 1 }, (_, i) => `bound-${i}`)
    const first = await Promise.all(salts.slice(0, CACHE_SIZE).map((s) => deriveKey(S1, s)))
    // The cache now holds exactly these 256: all still hits.
    expect(await deriveKey(S1, salts[0] as string)).toBe(first[0])
    expect(await deriveKey(S1, salts[CACHE_SIZE - 1] as string)).toBe(first[CACHE_SIZE - 1])
    // One more evicts the oldest, and only it.
    await deriveKey(S1, salts[CACHE_SIZE] as string)
    expect(await deriveKey(S1, salts[2] as string)).toBe(first[2])
    const again = await deriveKey(S1, salts[0] as string)
    expect(again).not.toBe(first[0])
    expect(again.kid).toBe(first[0]!.kid)
  })

  it("tokens with forged kids do not grow the cache", async () => {
    const salts = Array.from({ length: CACHE_SIZE }, (_, i) => `forged-${i}`)
    const keys = await Promise.all(salts.map((s) => deriveKey(S1, s)))
    const target = salts[CACHE_SIZE - 1] as string
    for (let i = 0; i < 100; i++) {
      const forged = withHeader(await encryptClaims({}, S1, target), {
        alg: "dir",
        enc: "A256CBC-HS512",
        kid: `forged-kid-${i}`,
      })
      await expect(decryptClaims(forged, [S1], target)).rejects.toThrow("no secret matches the token's kid")
    }
    // Nothing was inserted: the oldest entry is still there.
    expect(await deriveKey(S1, salts[0] as string)).toBe(keys[0])
  })
})
