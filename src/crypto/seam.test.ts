// Both backends meet the seam's contract (a type check) and answer byte for byte alike over many inputs.
import { generateKeyPairSync, sign as nodeSign, constants } from "node:crypto"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as node from "./node.js"
import type * as seam from "./seam.js"
import * as web from "./web.js"

// The type check: each backend has every function of the contract with a compatible signature, and the node backend
// (which tsconfig.json maps #crypto to for type checking) has exactly the contract's signatures: a contract function
// fits it too, so no caller type-checked against node.ts can count on a synchronous answer.
const backends: Record<"node" | "web", typeof seam> = { node, web }
type Functions<T> = Omit<T, "backend">
const contractFitsNode = (contract: Functions<typeof seam>): Functions<typeof node> => contract

const hex = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex")
const bytes = (max = 300): fc.Arbitrary<Uint8Array> => fc.uint8Array({ maxLength: max })
const text = fc.oneof(fc.string({ unit: "grapheme", maxLength: 80 }), fc.string({ unit: "binary", maxLength: 80 }))
const runs = { numRuns: 300 }

describe("the crypto seam", () => {
  it("names its backend", () => {
    expect(node.backend).toBe("node")
    expect(web.backend).toBe("web")
  })

  it("encodes text as UTF-8 alike, lone surrogates included", () => {
    fc.assert(
      fc.property(text, (s) => {
        expect(hex(web.utf8(s))).toBe(hex(node.utf8(s)))
        expect(hex(node.utf8(s))).toBe(Buffer.from(s, "utf8").toString("hex"))
      }),
      runs,
    )
  })

  it("decodes any bytes as UTF-8 alike (U+FFFD for bad sequences, a leading BOM kept)", () => {
    fc.assert(
      fc.property(bytes(), (b) => {
        expect(web.fromUtf8(b)).toBe(node.fromUtf8(b))
      }),
      runs,
    )
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, 0x41])
    expect(web.fromUtf8(bom)).toBe("\uFEFFA")
    expect(node.fromUtf8(bom)).toBe("\uFEFFA")
  })

  it("encodes base64, base64url and hex alike, for bytes and strings", () => {
    fc.assert(
      fc.property(bytes(), text, (b, s) => {
        for (const input of [b, s]) {
          const reference = typeof input === "string" ? Buffer.from(input, "utf8") : Buffer.from(input)
          expect(web.toBase64Url(input)).toBe(reference.toString("base64url"))
          expect(node.toBase64Url(input)).toBe(reference.toString("base64url"))
          expect(web.toBase64(input)).toBe(reference.toString("base64"))
          expect(node.toBase64(input)).toBe(reference.toString("base64"))
        }
        expect(web.toHex(b)).toBe(Buffer.from(b).toString("hex"))
        expect(node.toHex(b)).toBe(Buffer.from(b).toString("hex"))
      }),
      runs,
    )
  })

  it("round-trips base64 and base64url, padded or not", () => {
    fc.assert(
      fc.property(bytes(), (b) => {
        for (const backend of [node, web]) {
          expect(hex(backend.fromBase64Url(backend.toBase64Url(b)))).toBe(hex(b))
          expect(hex(backend.fromBase64(backend.toBase64(b)))).toBe(hex(b))
          expect(hex(backend.fromBase64Url(backend.toBase64(b)))).toBe(hex(b))
        }
      }),
      runs,
    )
  })

  it("decodes any text as base64 the same way (stray characters skipped, the first = ends it)", () => {
    const alphabetish = fc.string({
      unit: fc.constantFrom(..."AZaz09+/-_=  .!\n\u00e9\u20ac".split(""), "Q", "U", "x"),
      maxLength: 40,
    })
    fc.assert(
      fc.property(fc.oneof(alphabetish, fc.string({ maxLength: 40 })), (s) => {
        expect(hex(web.fromBase64Url(s))).toBe(hex(node.fromBase64Url(s)))
        expect(hex(web.fromBase64(s))).toBe(hex(node.fromBase64(s)))
      }),
      { numRuns: 1000 },
    )
  })

  it("concatenates alike", () => {
    fc.assert(
      fc.property(fc.array(bytes(40), { maxLength: 6 }), (parts) => {
        expect(hex(web.concatBytes(...parts))).toBe(hex(Buffer.concat(parts)))
        expect(hex(node.concatBytes(...parts))).toBe(hex(Buffer.concat(parts)))
      }),
      runs,
    )
  })

  it("compares in constant time alike: equal, different, different lengths, strings as UTF-8", () => {
    fc.assert(
      fc.property(bytes(64), bytes(64), text, (a, b, s) => {
        for (const backend of [node, web]) {
          expect(backend.timingSafeEqual(a, a.slice())).toBe(true)
          expect(backend.timingSafeEqual(a, b)).toBe(hex(a) === hex(b))
          expect(backend.timingSafeEqual(s, Buffer.from(s, "utf8"))).toBe(true)
          expect(backend.timingSafeEqual(s, `${s}x`)).toBe(false)
        }
      }),
      runs,
    )
  })

  it("hands out fresh random bytes of the asked size, and v4 UUIDs", () => {
    for (const backend of [node, web]) {
      const seen = new Set<string>()
      for (const size of [0, 1, 16, 32, 4095, 4096, 5000, 70_000]) {
        const b = backend.randomBytes(size)
        expect(b.length).toBe(size)
        if (size >= 16) {
          expect(seen.has(hex(b))).toBe(false)
          seen.add(hex(b))
        }
      }
      // Pooled bytes never repeat and stay valid after the pool is refilled.
      const first = backend.randomBytes(32)
      const copy = hex(first)
      for (let i = 0; i < 300; i++) seen.add(hex(backend.randomBytes(32)))
      expect(hex(first)).toBe(copy)
      expect(seen.has(copy)).toBe(false)
      expect(backend.randomUUID()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      expect(backend.randomUUID()).not.toBe(backend.randomUUID())
    }
  })

  it("hashes, MACs and derives keys alike", async () => {
    const algs: seam.HashAlg[] = ["SHA-1", "SHA-256", "SHA-384", "SHA-512"]
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...algs),
        fc.oneof(bytes(200), text),
        fc.oneof(bytes(200), text),
        async (alg, key, data) => {
          const digested = await node.digest(alg, data)
          const mac = await node.hmac(alg, key, data)
          expect(hex(await web.digest(alg, data))).toBe(hex(digested))
          expect(hex(await web.hmac(alg, key, data))).toBe(hex(mac))
          // As text: the same bytes in each encoding.
          for (const backend of [node, web]) {
            expect(await backend.digest(alg, data, "hex")).toBe(hex(digested))
            expect(await backend.digest(alg, data, "base64")).toBe(Buffer.from(digested).toString("base64"))
            expect(await backend.hmac(alg, key, data, "base64url")).toBe(Buffer.from(mac).toString("base64url"))
            expect(await backend.hmac(alg, key, data, "hex")).toBe(hex(mac))
          }
        },
      ),
      { numRuns: 200 },
    )
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(bytes(80), text),
        fc.oneof(bytes(40), text),
        fc.oneof(bytes(40), text),
        fc.integer({ min: 1, max: 255 * 32 }),
        async (ikm, salt, info, length) => {
          expect(hex(await web.hkdf(ikm, salt, info, length))).toBe(hex(await node.hkdf(ikm, salt, info, length)))
        },
      ),
      { numRuns: 150 },
    )
  })

  it("hashes SHA-256 at once alike, on block boundaries too", async () => {
    for (const size of [0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 1000]) {
      const b = new Uint8Array(size).map((_, i) => (i * 31 + size) & 255)
      expect(hex(web.sha256Sync(b))).toBe(hex(node.sha256Sync(b)))
    }
    expect(hex(web.sha256Sync("abc"))).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    fc.assert(
      fc.property(fc.oneof(bytes(300), text), (data) => {
        expect(hex(web.sha256Sync(data))).toBe(hex(node.sha256Sync(data)))
      }),
      runs,
    )
  })

  it("uses a string HMAC key the same whether cached or fresh", async () => {
    for (let i = 0; i < 3; i++)
      expect(hex(await web.hmac("SHA-256", "secret", `m${i}`))).toBe(hex(await node.hmac("SHA-256", "secret", `m${i}`)))
  })

  for (const enc of ["A256CBC-HS512", "A256GCM"] as const) {
    it(`encrypts ${enc} content so that either backend opens the other's, and both refuse tampering`, async () => {
      const keyLength = enc === "A256GCM" ? 32 : 64
      const ivLength = enc === "A256GCM" ? 12 : 16
      await fc.assert(
        fc.asyncProperty(
          fc.uint8Array({ minLength: keyLength, maxLength: keyLength }),
          fc.uint8Array({ minLength: ivLength, maxLength: ivLength }),
          bytes(80),
          bytes(300),
          fc.nat(),
          async (raw, iv, aad, plaintext, flip) => {
            const keys = { node: await node.importContentKey(enc, raw), web: await web.importContentKey(enc, raw) }
            const sealed = {
              node: await node.encryptContent(keys.node, iv, aad, plaintext),
              web: await web.encryptContent(keys.web, iv, aad, plaintext),
            }
            expect(hex(sealed.web.ciphertext)).toBe(hex(sealed.node.ciphertext))
            expect(hex(sealed.web.tag)).toBe(hex(sealed.node.tag))
            for (const [opener, backend] of [
              ["node", node],
              ["web", web],
            ] as const) {
              const { ciphertext, tag } = sealed[opener === "node" ? "web" : "node"]
              expect(hex(await backend.decryptContent(keys[opener], iv, aad, ciphertext, tag))).toBe(hex(plaintext))
              const badTag = tag.slice()
              badTag[flip % badTag.length] = (badTag[flip % badTag.length] as number) ^ 1
              await expect(
                (async () => backend.decryptContent(keys[opener], iv, aad, ciphertext, badTag))(),
              ).rejects.toThrow()
              // A flipped ciphertext byte, or one byte more (GCM's ciphertext of an empty plaintext is empty).
              const badCt = ciphertext.length > 0 ? ciphertext.slice() : new Uint8Array(1)
              if (ciphertext.length > 0) badCt[flip % badCt.length] = (badCt[flip % badCt.length] as number) ^ 0x80
              await expect((async () => backend.decryptContent(keys[opener], iv, aad, badCt, tag))()).rejects.toThrow()
              await expect(
                (async () => backend.decryptContent(keys[opener], iv, concatBytes(aad, [1]), ciphertext, tag))(),
              ).rejects.toThrow()
            }
          },
        ),
        { numRuns: 60 },
      )
    })
  }

  it("refuses content keys of the wrong length on both backends", async () => {
    for (const backend of [node, web]) {
      await expect((async () => backend.importContentKey("A256CBC-HS512", new Uint8Array(32)))()).rejects.toThrow()
      await expect((async () => backend.importContentKey("A256GCM", new Uint8Array(64)))()).rejects.toThrow()
    }
  })

  describe("JWS signatures", () => {
    const data = Buffer.from("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0", "ascii")
    const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 })
    const cases: { alg: string; sign: (d: Uint8Array) => Buffer; jwk: JsonWebKey }[] = [
      {
        alg: "RS256",
        sign: (d) => nodeSign("sha256", d, rsa.privateKey),
        jwk: rsa.publicKey.export({ format: "jwk" }),
      },
      {
        alg: "RS512",
        sign: (d) => nodeSign("sha512", d, rsa.privateKey),
        jwk: rsa.publicKey.export({ format: "jwk" }),
      },
      {
        alg: "PS256",
        sign: (d) =>
          nodeSign("sha256", d, { key: rsa.privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }),
        jwk: rsa.publicKey.export({ format: "jwk" }),
      },
      {
        alg: "PS384",
        sign: (d) =>
          nodeSign("sha384", d, { key: rsa.privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 48 }),
        jwk: rsa.publicKey.export({ format: "jwk" }),
      },
    ]
    for (const [alg, curve, hash] of [
      ["ES256", "P-256", "sha256"],
      ["ES384", "P-384", "sha384"],
      ["ES512", "P-521", "sha512"],
    ] as const) {
      const pair = generateKeyPairSync("ec", { namedCurve: curve })
      cases.push({
        alg,
        sign: (d) => nodeSign(hash, d, { key: pair.privateKey, dsaEncoding: "ieee-p1363" }),
        // A JWKS entry's alg and use must not stop the import.
        jwk: { ...pair.publicKey.export({ format: "jwk" }), alg, use: "sig" },
      })
    }
    const ed = generateKeyPairSync("ed25519")
    cases.push({
      alg: "EdDSA",
      sign: (d) => nodeSign(null, d, ed.privateKey),
      jwk: ed.publicKey.export({ format: "jwk" }),
    })

    for (const { alg, sign, jwk } of cases) {
      it(`${alg}: both backends accept a good signature and refuse a bad one or other data`, async () => {
        const signature = sign(data)
        const other = new Uint8Array(signature)
        other[5] = (other[5] as number) ^ 1
        for (const backend of [node, web]) {
          for (let round = 0; round < 2; round++) expect(await backend.verifyJws(alg, jwk, data, signature)).toBe(true)
          expect(await backend.verifyJws(alg, jwk, data, other)).toBe(false)
          expect(await backend.verifyJws(alg, jwk, concatBytes(data, [0x2e]), signature)).toBe(false)
        }
      })
    }

    it("throws for an algorithm it does not know, on both backends", async () => {
      for (const backend of [node, web])
        await expect((async () => backend.verifyJws("none", cases[0]!.jwk, data, new Uint8Array()))()).rejects.toThrow()
    })
  })

  it("has both backends in the map", () => {
    expect(Object.keys(backends)).toEqual(["node", "web"])
    expect(contractFitsNode(node)).toBe(node)
  })
})

function concatBytes(a: Uint8Array, b: number[]): Uint8Array {
  return Buffer.concat([a, Uint8Array.from(b)])
}
