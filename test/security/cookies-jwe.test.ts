// Security group E: session cookies, JWE (dir + A256CBC-HS512, HKDF key), chunks, rotation
// (docs/security.md §1.E, CK-01..CK-13), for the JWT session strategy with a credentials provider.
// Forged tokens are built independently with node:crypto (test/support/jwe-forge.ts), not with src/.
import { createHmac, randomBytes } from "node:crypto"
import { deflateRawSync } from "node:zlib"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import { decode, encode, getToken } from "../../src/jwt/index.js"
import {
  type CredentialsSetup as Setup,
  CookieJar,
  alice,
  bob,
  credentialsSetup as setup,
  fetchCsrf,
  get,
  ORIGIN,
  postForm,
  postJson,
  SECRET,
  signIn as credentialsSignIn,
} from "../support/flow-kit.js"
import { sessionCookiesCleared, sessionCookiesSet, sessionTokenFrom, setCookieList } from "../support/cookies.js"
import {
  b64u,
  deriveKey,
  flipBit,
  forgeSessionToken,
  junkJwe,
  kidFor,
  nowSec,
  sealCbcHs512,
} from "../support/jwe-forge.js"
import { bodyText } from "../support/responses.js"
import { countCrypto } from "../support/crypto-calls.js"

// Counts the HMACs and deciphers done (CK-02, CK-11: hostile input is refused before any key is used).
vi.mock("node:crypto", async (importOriginal) =>
  (await import("../support/crypto-calls.js")).counting(await importOriginal()),
)

const SALT = "authjs.session-token"
const HTTPS = "https://app.example"
/** Signs `username` in (password "password") and returns the session token the browser now holds. */
async function signIn(
  s: Setup,
  username = "alice",
  jar = new CookieJar(),
  origin = ORIGIN,
): Promise<{ jar: CookieJar; res: Response; token: string; csrfToken: string }> {
  const { res, csrfToken } = await credentialsSignIn(s.config, { username, password: "password" }, origin, jar)
  expect(res.status).toBe(302)
  const token = sessionTokenFrom(res)
  expect(token, "sign-in set a session cookie").toBeTruthy()
  s.log.errors.length = 0
  return { jar, res, token: token!, csrfToken }
}

async function session(s: Setup, cookie: string, origin = ORIGIN): Promise<{ res: Response; body: unknown }> {
  const res = await Auth(get("/auth/session", { cookie, origin }), s.config)
  expect(res.status).toBe(200)
  return { res, body: await res.clone().json() }
}

/** decode() either throws or yields null: both count as rejection. */
async function decodeRejects(token: string, secret: string | string[] = SECRET, salt = SALT): Promise<boolean> {
  try {
    return (await decode({ token, secret, salt } as never)) == null
  } catch {
    return true
  }
}

/** GET /session with `cookie` answers 200 null, expires every session cookie it was sent, logs JWTSessionError once, leaks nothing. */
async function expectInvalidSession(s: Setup, cookie: string, sentNames: string[] = [SALT], secrets: string[] = []) {
  s.log.errors.length = 0
  const { res, body } = await session(s, cookie)
  expect(body).toBeNull()
  expect(sessionCookiesSet(res)).toEqual([])
  const cleared = sessionCookiesCleared(res).map((c) => c.name)
  for (const n of sentNames) expect(cleared, `expired ${n}`).toContain(n)
  expect(s.log.types()).toEqual(["JWTSessionError"])
  const text = (await bodyText(res)) + s.log.text()
  for (const v of [SECRET, ...secrets]) expect(text).not.toContain(v)
}

const claims = (extra: Record<string, unknown> = {}) => ({
  name: "Mallory",
  email: "m@evil.example",
  sub: "admin",
  iat: nowSec(),
  exp: nowSec() + 3600,
  jti: "x",
  ...extra,
})

describe("group E: session cookies and JWE", () => {
  describe("CK-01 bit flips", () => {
    it("CK-01 one bit flipped in header, IV, ciphertext or tag: /session 200 null, cookie expired, JWTSessionError, no throw", async () => {
      const s = setup()
      const { token } = await signIn(s)
      expect(token.split(".")).toHaveLength(5)
      expect(token.split(".")[1]).toBe("") // dir: empty encrypted key
      for (const part of [0, 2, 3, 4]) {
        const bad = flipBit(token, part)
        expect(bad).not.toBe(token)
        expect(await decodeRejects(bad), `part ${part}`).toBe(true)
        await expectInvalidSession(s, `${SALT}=${bad}`, [SALT], [bad, token])
      }
    })

    it("CK-01 truncated token or a dropped part is rejected the same way", async () => {
      const s = setup()
      const { token } = await signIn(s)
      const parts = token.split(".")
      for (const bad of [
        token.slice(0, -1),
        token.slice(0, -4),
        parts.slice(0, 4).join("."),
        [...parts, "x"].join("."),
        parts.join(".."),
      ]) {
        expect(await decodeRejects(bad)).toBe(true)
        await expectInvalidSession(s, `${SALT}=${bad}`)
      }
    })
  })

  describe("CK-02 hostile JWE headers", () => {
    const key = deriveKey(SECRET, SALT)
    const kid = kidFor(key)
    const body = JSON.stringify(claims())
    const hostile: [string, string][] = [
      ["enc A128GCM", junkJwe({ alg: "dir", enc: "A128GCM", kid })],
      ["enc A128CBC-HS256", junkJwe({ alg: "dir", enc: "A128CBC-HS256", kid })],
      ["alg RSA-OAEP", junkJwe({ alg: "RSA-OAEP", enc: "A256GCM" }, b64u.enc(randomBytes(256)))],
      ["alg RSA1_5", junkJwe({ alg: "RSA1_5", enc: "A256CBC-HS512" }, b64u.enc(randomBytes(256)))],
      [
        "alg PBES2 p2c=2^31",
        junkJwe(
          { alg: "PBES2-HS512+A256KW", enc: "A256CBC-HS512", p2c: 2 ** 31, p2s: b64u.enc(randomBytes(16)) },
          b64u.enc(randomBytes(72)),
        ),
      ],
      [
        "alg PBES2 p2c=2^31 (sealed)",
        sealCbcHs512(
          { alg: "PBES2-HS256+A128KW", enc: "A256CBC-HS512", p2c: 2 ** 31 - 1, p2s: b64u.enc(randomBytes(16)), kid },
          body,
          key,
        ),
      ],
      ["alg A256KW", junkJwe({ alg: "A256KW", enc: "A256CBC-HS512" }, b64u.enc(randomBytes(72)))],
      [
        "alg ECDH-ES",
        junkJwe({
          alg: "ECDH-ES",
          enc: "A256GCM",
          epk: { kty: "EC", crv: "P-256", x: b64u.enc(randomBytes(32)), y: b64u.enc(randomBytes(32)) },
        }),
      ],
      ["alg none", junkJwe({ alg: "none", enc: "A256CBC-HS512" })],
      [
        "zip DEF (sealed)",
        sealCbcHs512({ alg: "dir", enc: "A256CBC-HS512", kid, zip: "DEF" }, deflateRawSync(Buffer.from(body)), key),
      ],
      [
        "zip DEF bomb",
        sealCbcHs512(
          { alg: "dir", enc: "A256CBC-HS512", kid, zip: "DEF" },
          deflateRawSync(Buffer.alloc(8 * 1024 * 1024, 0x20)),
          key,
        ),
      ],
      [
        "crit unknown (sealed)",
        sealCbcHs512({ alg: "dir", enc: "A256CBC-HS512", kid, crit: ["x-gh"], "x-gh": 1 }, body, key),
      ],
      [
        "crit b64 (sealed)",
        sealCbcHs512({ alg: "dir", enc: "A256CBC-HS512", kid, crit: ["b64"], b64: false }, body, key),
      ],
      ["unknown member (sealed)", sealCbcHs512({ alg: "dir", enc: "A256CBC-HS512", kid, foo: "bar" }, body, key)],
      [
        "non-empty encrypted key with dir (sealed)",
        sealCbcHs512({ alg: "dir", enc: "A256CBC-HS512", kid }, body, key, b64u.enc(randomBytes(64))),
      ],
      [
        "header not JSON",
        [
          b64u.enc("{alg:dir"),
          "",
          b64u.enc(randomBytes(16)),
          b64u.enc(randomBytes(32)),
          b64u.enc(randomBytes(32)),
        ].join("."),
      ],
      [
        "header a JSON array",
        [b64u.enc('["dir"]'), "", b64u.enc(randomBytes(16)), b64u.enc(randomBytes(32)), b64u.enc(randomBytes(32))].join(
          ".",
        ),
      ],
      ["header with alg as object", junkJwe({ alg: { toString: "dir" }, enc: "A256CBC-HS512", kid })],
      [
        "header with __proto__",
        [
          b64u.enc(`{"alg":"dir","enc":"A256CBC-HS512","__proto__":{"alg":"none"}}`),
          "",
          b64u.enc(randomBytes(16)),
          b64u.enc(randomBytes(32)),
          b64u.enc(randomBytes(32)),
        ].join("."),
      ],
    ]

    it("CK-02 control: a token sealed by the independent sealer with the standard header is accepted", async () => {
      const s = setup()
      const token = forgeSessionToken({ secret: SECRET, salt: SALT, claims: claims({ name: "Sealed" }) })
      expect(await decode({ token, secret: SECRET, salt: SALT } as never)).toMatchObject({
        name: "Sealed",
        sub: "admin",
      })
      const { body: b } = await session(s, `${SALT}=${token}`)
      expect(b).toMatchObject({ user: { name: "Sealed" } })
    })

    for (const [label, token] of hostile) {
      it(`CK-02 header ${label} is rejected before any key is used (decode and /session)`, async () => {
        const s = setup()
        // The header alone decides: no MAC is computed and nothing is decrypted (no key derivation, no inflation).
        const decoded = await countCrypto(() => decodeRejects(token))
        expect(decoded.result).toBe(true)
        expect({ hmac: decoded.hmac, decipher: decoded.decipher }, `crypto work for ${label}`).toEqual({
          hmac: 0,
          decipher: 0,
        })
        const read = await countCrypto(() => expectInvalidSession(s, `${SALT}=${token}`))
        expect({ hmac: read.hmac, decipher: read.decipher }, `crypto work on /session for ${label}`).toEqual({
          hmac: 0,
          decipher: 0,
        })
      })
    }
  })

  describe("CK-03 not a JWE at all", () => {
    const jws = (() => {
      const h = b64u.enc(JSON.stringify({ alg: "HS256", typ: "JWT" }))
      const p = b64u.enc(JSON.stringify(claims()))
      // HS256 keyed with the raw secret: what a confused verifier might accept.
      const sig = createHmac("sha256", SECRET).update(`${h}.${p}`).digest("base64url")
      return `${h}.${p}.${sig}`
    })()
    const unsecured = `${b64u.enc(JSON.stringify({ alg: "none", typ: "JWT" }))}.${b64u.enc(JSON.stringify(claims()))}.`
    const garbage = b64u.enc(randomBytes(7500)) // ~10 KB
    const dotted = Array.from({ length: 5 }, () => b64u.enc(randomBytes(1500))).join(".")
    const forged: [string, string][] = [
      ["JWS HS256 keyed with the secret", jws],
      ["unsecured JWT", unsecured],
      ["10 KB garbage", garbage],
      ["10 KB garbage in five parts", dotted],
      ["JSON", encodeURIComponent(JSON.stringify(claims()))],
    ]

    for (const [label, value] of forged) {
      it(`CK-03 ${label} as session cookie: null session, no throw; sign-out with it decodes nothing`, async () => {
        const s = setup()
        await expectInvalidSession(s, `${SALT}=${value}`)
        const jar = new CookieJar()
        const csrfToken = await fetchCsrf(s.config, jar)
        s.log.errors.length = 0
        const out = await Auth(
          postForm("/auth/signout", { csrfToken }, { cookie: `${jar.header()}; ${SALT}=${value}` }),
          s.config,
        )
        expect(out.status).toBe(302)
        expect(new URL(out.headers.get("location")!).origin).toBe(ORIGIN)
        expect(sessionCookiesSet(out)).toEqual([])
        expect(sessionCookiesCleared(out).map((c) => c.name)).toContain(SALT)
        for (const [arg] of s.signOut.mock.calls) expect((arg as { token?: unknown })?.token ?? null).toBeNull()
        expect(s.log.text()).not.toContain(SECRET)
      })
    }

    it("CK-03 empty session cookie: null session, no throw", async () => {
      const s = setup()
      const { body } = await session(s, `${SALT}=`)
      expect(body).toBeNull()
      expect(sessionCookiesSet((await session(s, `${SALT}=`)).res)).toEqual([])
    })
  })

  describe("CK-04 other cookies' values in the session cookie", () => {
    it("CK-04 state/PKCE/nonce/challenge/encodedState JWEs, callback-url and CSRF values are rejected as session", async () => {
      const s = setup()
      const jar = new CookieJar()
      await fetchCsrf(s.config, jar)
      const copies: [string, string][] = []
      for (const salt of [
        "authjs.pkce.code_verifier",
        "authjs.state",
        "authjs.nonce",
        "authjs.challenge",
        "encodedState",
        "encodedWebauthnChallenge",
        "__Secure-authjs.session-token",
        "authjs.callback-url",
      ]) {
        copies.push([
          salt,
          await encode({
            token: { value: "v".repeat(43), provider: "credentials", sub: "admin", name: "Mallory" },
            secret: SECRET,
            salt,
            maxAge: 900,
          } as never),
        ])
      }
      copies.push(["csrf cookie", jar.cookies.get("authjs.csrf-token")!])
      copies.push(["callback-url", encodeURIComponent(`${ORIGIN}/dashboard`)])
      for (const [label, value] of copies) {
        if (value.split(".").length === 5) expect(await decodeRejects(value), label).toBe(true)
        expect(
          await getToken({
            req: get("/", { cookie: `${SALT}=${value}` }),
            secret: SECRET,
            secureCookie: false,
          } as never),
          label,
        ).toBeNull()
        await expectInvalidSession(s, `${SALT}=${value}`)
      }
    })

    it("CK-04 control: a token encoded with the session cookie name as salt is accepted", async () => {
      const s = setup()
      const token = await encode({ token: { name: "Control", sub: "1" }, secret: SECRET, salt: SALT } as never)
      expect((await session(s, `${SALT}=${token}`)).body).toMatchObject({ user: { name: "Control" } })
    })
  })

  describe("CK-05 expiry", () => {
    it("CK-05 exp passed beyond the 15 s tolerance: null, cookie expired", async () => {
      const s = setup()
      const token = await encode({ token: { name: "Old", sub: "1" }, secret: SECRET, salt: SALT, maxAge: -16 } as never)
      expect(await decodeRejects(token)).toBe(true)
      await expectInvalidSession(s, `${SALT}=${token}`)
    })

    it("CK-05 exp absent, non-numeric, or nbf in the future: null, cookie expired", async () => {
      const s = setup()
      const { exp: _e, ...noExp } = claims()
      for (const c of [noExp, claims({ exp: "9999999999" }), claims({ exp: null }), claims({ nbf: nowSec() + 3600 })]) {
        const token = forgeSessionToken({ secret: SECRET, salt: SALT, claims: c })
        expect(await decodeRejects(token), JSON.stringify(c)).toBe(true)
        await expectInvalidSession(s, `${SALT}=${token}`)
      }
    })

    it("CK-05 control: a token expired 5 s ago is within clock tolerance (docs/wire-format.md §4)", async () => {
      const s = setup()
      const token = await encode({
        token: { name: "Skewed", sub: "1" },
        secret: SECRET,
        salt: SALT,
        maxAge: -5,
      } as never)
      expect((await session(s, `${SALT}=${token}`)).body).toMatchObject({ user: { name: "Skewed" } })
    })
  })

  describe("CK-06 kid", () => {
    const S_OLD = "retired-secret-000000000000000000000000000"

    it("CK-06 kid of an unknown or retired secret is rejected even when the key would decrypt (no trial over keys)", async () => {
      const s = setup()
      const retiredKid = kidFor(deriveKey(S_OLD, SALT))
      for (const kid of ["bogus", retiredKid, "", kidFor(deriveKey(SECRET, SALT)).slice(0, -1)]) {
        const token = forgeSessionToken({ secret: SECRET, salt: SALT, claims: claims(), kid })
        expect(await decodeRejects(token), kid).toBe(true)
        expect(await decodeRejects(token, [SECRET, S_OLD]), kid).toBe(true)
        await expectInvalidSession(s, `${SALT}=${token}`)
      }
    })

    it("CK-06 a token made with a retired secret is rejected once that secret is gone", async () => {
      const s = setup()
      const token = await encode({ token: { name: "Old", sub: "1" }, secret: S_OLD, salt: SALT } as never)
      expect(await decodeRejects(token)).toBe(true)
      await expectInvalidSession(s, `${SALT}=${token}`)
    })

    it("CK-06 without kid only the first secret is tried", async () => {
      const token = forgeSessionToken({ secret: S_OLD, salt: SALT, claims: claims({ name: "NoKid" }), omitKid: true })
      expect(await decodeRejects(token, [SECRET, S_OLD])).toBe(true)
      // Compatibility: a kid-less token (older Auth.js) under the current first secret is accepted.
      expect(await decode({ token, secret: [S_OLD, SECRET], salt: SALT } as never)).toMatchObject({ name: "NoKid" })
      const s = setup({ secret: [SECRET, S_OLD] })
      await expectInvalidSession(s, `${SALT}=${token}`)
    })
  })

  describe("CK-07 secret rotation", () => {
    const S1 = "rotation-secret-one-1111111111111111111111"
    const S2 = "rotation-secret-two-2222222222222222222222"

    it("CK-07 cookie made with S1 under [S2, S1] is accepted and re-issued under S2; under [S2] rejected and expired", async () => {
      const s1 = setup({ secret: S1 })
      const { token: old } = await signIn(s1)
      const [h] = old.split(".")
      expect(JSON.parse(b64u.dec(h!).toString()).kid).toBe(kidFor(deriveKey(S1, SALT)))

      const s12 = setup({ secret: [S2, S1] })
      const { res, body } = await session(s12, `${SALT}=${old}`)
      expect(body).toMatchObject({ user: { name: "Alice", email: alice.email } })
      const reissued = sessionTokenFrom(res)
      expect(reissued, "re-issued under the new secret").toBeTruthy()
      expect(JSON.parse(b64u.dec(reissued!.split(".")[0]!).toString()).kid).toBe(kidFor(deriveKey(S2, SALT)))
      expect(await decode({ token: reissued!, secret: S2, salt: SALT } as never)).toMatchObject({ name: "Alice" })
      expect(await decodeRejects(reissued!, S1)).toBe(true)
      expect(s12.log.types()).toEqual([])
      expect(
        await getToken({ req: get("/", { cookie: `${SALT}=${old}` }), secret: [S2, S1], secureCookie: false } as never),
      ).toMatchObject({ name: "Alice" })

      const s2 = setup({ secret: [S2] })
      await expectInvalidSession(s2, `${SALT}=${old}`, [SALT], [S1, S2, old])
      expect((await session(s2, `${SALT}=${reissued}`)).body).toMatchObject({ user: { name: "Alice" } })
    })
  })

  describe("CK-08 chunking", () => {
    function bigConfig() {
      return setup({
        callbacks: {
          jwt: (({
            token,
            user,
            trigger,
            session: data,
          }: {
            token: Record<string, unknown>
            user?: unknown
            trigger?: string
            session?: { size?: string }
          }) => {
            if (user) return { ...token, blob: randomBytes(6000).toString("hex") } // 12 KB
            if (trigger === "update" && data?.size === "small") {
              const { blob: _b, ...rest } = token
              return { ...rest, small: true }
            }
            if (trigger === "update" && data?.size === "big")
              return { ...token, blob: randomBytes(6000).toString("hex") }
            return token
          }) as never,
        },
      })
    }

    function expectCookieSizes(res: Response) {
      for (const raw of res.headers.getSetCookie()) {
        expect(Buffer.byteLength(raw), raw.slice(0, 40)).toBeLessThanOrEqual(4096)
        const pair = raw.split(";")[0]!
        expect(Buffer.byteLength(pair)).toBeLessThanOrEqual(4096)
      }
    }

    it("CK-08 a 12 KB payload is split into .0..n chunks, each Set-Cookie <= 4096 bytes, and reads back", async () => {
      const s = bigConfig()
      const { jar, res, token } = await signIn(s)
      expectCookieSizes(res)
      const chunks = sessionCookiesSet(res).map((c) => c.name)
      expect(chunks.length).toBeGreaterThanOrEqual(4)
      expect(chunks.sort()).toEqual(chunks.map((_, i) => `${SALT}.${i}`).sort())
      expect(chunks).not.toContain(SALT)
      expect(((await decode({ token, secret: SECRET, salt: SALT } as never)) as { blob: string }).blob).toHaveLength(
        12000,
      )
      const { body } = await session(s, jar.header())
      expect(body).toMatchObject({ user: { name: "Alice" } })
    })

    it("CK-08 shrinking to a small payload expires the stale chunks; growing again expires the bare cookie", async () => {
      const s = bigConfig()
      const { jar, csrfToken } = await signIn(s)
      const before = [...jar.cookies.keys()].filter((n) => n.startsWith(SALT))
      expect(before.length).toBeGreaterThanOrEqual(4)

      const small = await Auth(
        postJson("/auth/session", { csrfToken, data: { size: "small" } }, { cookie: jar.header() }),
        s.config,
      )
      expect(small.status).toBe(200)
      expectCookieSizes(small)
      expect(sessionCookiesSet(small).map((c) => c.name)).toEqual([SALT])
      const cleared = sessionCookiesCleared(small).map((c) => c.name)
      for (const n of before) expect(cleared, `stale ${n} expired`).toContain(n)
      jar.store(small)
      expect([...jar.cookies.keys()].filter((n) => n.startsWith(SALT))).toEqual([SALT])
      const after = await decode({ token: jar.cookies.get(SALT)!, secret: SECRET, salt: SALT } as never)
      expect(after).toMatchObject({ small: true, name: "Alice" })
      expect(after).not.toHaveProperty("blob")
      expect((await session(s, jar.header())).body).toMatchObject({ user: { name: "Alice" } })

      const big = await Auth(
        postJson("/auth/session", { csrfToken, data: { size: "big" } }, { cookie: jar.header() }),
        s.config,
      )
      expect(big.status).toBe(200)
      expectCookieSizes(big)
      expect(sessionCookiesCleared(big).map((c) => c.name)).toContain(SALT)
      jar.store(big)
      const names = [...jar.cookies.keys()].filter((n) => n.startsWith(SALT))
      expect(names).not.toContain(SALT)
      expect(names.length).toBeGreaterThanOrEqual(4)
      expect((await session(s, jar.header())).body).toMatchObject({ user: { name: "Alice" } })
    })
  })

  describe("CK-09 broken chunk sets", () => {
    async function bigSession() {
      const s = setup({
        callbacks: {
          jwt: (({ token, user }: { token: Record<string, unknown>; user?: unknown }) =>
            user ? { ...token, blob: randomBytes(6000).toString("hex") } : token) as never,
        },
      })
      const { res } = await signIn(s)
      const chunks = sessionCookiesSet(res)
        .map((c) => ({ name: c.name, value: c.value, i: Number(c.name.split(".").pop()) }))
        .sort((a, b) => a.i - b.i)
      expect(chunks.length).toBeGreaterThanOrEqual(3)
      return { s, chunks }
    }
    const header = (cs: { name: string; value: string }[]) => cs.map((c) => `${c.name}=${c.value}`).join("; ")

    it("CK-09 a gap in the chunks: null session, every chunk expired", async () => {
      const { s, chunks } = await bigSession()
      const sent = chunks.filter((_, i) => i !== 1)
      await expectInvalidSession(
        s,
        header(sent),
        sent.map((c) => c.name),
      )
    })

    it("CK-09 a duplicated chunk index under another spelling (.1 and .01, .+1, .1.0): null session, chunks expired", async () => {
      const { s, chunks } = await bigSession()
      for (const alias of [`${SALT}.01`, `${SALT}.+1`, `${SALT}.1.0`, `${SALT}.-1`, `${SALT}.1e0`]) {
        const sent = [...chunks, { name: alias, value: chunks[1]!.value }]
        await expectInvalidSession(
          s,
          header(sent),
          sent.map((c) => c.name),
        )
      }
    })

    it("CK-09 a repeated chunk name follows the documented Cookie rule (first occurrence wins, docs/wire-format.md §1.1)", async () => {
      const { s, chunks } = await bigSession()
      const junk = { name: chunks[1]!.name, value: b64u.enc(randomBytes(2000)) }
      // genuine first: the junk repeat is ignored
      expect((await session(s, header([...chunks, junk]))).body).toMatchObject({ user: { name: "Alice" } })
      // junk first: the joined token is invalid -> null and every chunk expired
      const sent = [chunks[0]!, junk, ...chunks.slice(1)]
      await expectInvalidSession(
        s,
        header(sent),
        chunks.map((c) => c.name),
      )
    })

    it("CK-09 chunked and unchunked forms together: null session, both forms expired", async () => {
      const { s, chunks } = await bigSession()
      const small = await encode({ token: { name: "Bare", sub: "9" }, secret: SECRET, salt: SALT } as never)
      const sent = [{ name: SALT, value: small }, ...chunks]
      await expectInvalidSession(
        s,
        header(sent),
        sent.map((c) => c.name),
      )
    })

    it("CK-09 chunks arriving out of order in the Cookie header are reassembled by index (documented: sorted)", async () => {
      const { s, chunks } = await bigSession()
      const { body } = await session(s, header([...chunks].reverse()))
      expect(body).toMatchObject({ user: { name: "Alice" } })
    })
  })

  describe("CK-10 cookie attributes", () => {
    function expectSessionAttrs(
      c: { name: string; attrs: Record<string, string | true> } | undefined,
      secure: boolean,
      maxAge: number,
    ) {
      expect(c).toBeDefined()
      expect(c!.attrs.httponly).toBe(true)
      expect(String(c!.attrs.samesite).toLowerCase()).toBe("lax")
      expect(c!.attrs.path).toBe("/")
      expect(c!.attrs.domain).toBeUndefined()
      expect(c!.attrs["max-age"]).toBe(String(maxAge))
      const exp = Date.parse(String(c!.attrs.expires))
      expect(Math.abs(exp - (Date.now() + maxAge * 1000))).toBeLessThan(10_000)
      if (secure) expect(c!.attrs.secure).toBe(true)
      else expect(c!.attrs.secure).toBeUndefined()
    }

    it("CK-10 http origin: session and CSRF cookies are HttpOnly, SameSite=Lax, Path=/, no Secure; Max-Age = session.maxAge", async () => {
      const s = setup({ session: { maxAge: 3600 } })
      const { res, token } = await signIn(s)
      const c = setCookieList(res).find((x) => x.name === SALT)
      expectSessionAttrs(c, false, 3600)
      expect(res.headers.get("location") ?? "").not.toContain(token.slice(0, 40))
      expect(await bodyText(res)).not.toContain(token.slice(0, 40))
      const csrf = setCookieList(await Auth(get("/auth/csrf"), s.config)).find((x) => x.name === "authjs.csrf-token")
      expect(csrf).toBeDefined()
      expect(csrf!.attrs.httponly).toBe(true)
      expect(String(csrf!.attrs.samesite).toLowerCase()).toBe("lax")
      expect(csrf!.attrs.path).toBe("/")
      expect(csrf!.attrs.secure).toBeUndefined()
      const { res: sres } = await session(s, `${SALT}=${token}`)
      const text = await bodyText(sres)
      expect(text).not.toContain(token.slice(0, 40))
      expect(text).not.toContain("session-token")
    })

    it("CK-10 https origin: __Secure- session cookie with Secure; __Host- CSRF cookie (Secure, Path=/, no Domain)", async () => {
      const s = setup({ session: { maxAge: 7200 } })
      const { res } = await signIn(s, "alice", new CookieJar(), HTTPS)
      const names = setCookieList(res).map((c) => c.name)
      expect(names).not.toContain(SALT)
      expectSessionAttrs(
        setCookieList(res).find((x) => x.name === `__Secure-${SALT}`),
        true,
        7200,
      )
      const csrfRes = await Auth(get("/auth/csrf", { origin: HTTPS }), s.config)
      const csrf = setCookieList(csrfRes).find((x) => x.name === "__Host-authjs.csrf-token")
      expect(csrf).toBeDefined()
      expect(csrf!.attrs.secure).toBe(true)
      expect(csrf!.attrs.httponly).toBe(true)
      expect(csrf!.attrs.path).toBe("/")
      expect(csrf!.attrs.domain).toBeUndefined()
      expect(String(csrf!.attrs.samesite).toLowerCase()).toBe("lax")
      expect(setCookieList(csrfRes).map((c) => c.name)).not.toContain("authjs.csrf-token")
    })

    it("CK-10 an https session token is not accepted under the http cookie name (salt = cookie name)", async () => {
      const s = setup()
      const { token } = await signIn(s, "alice", new CookieJar(), HTTPS)
      await expectInvalidSession(s, `${SALT}=${token}`)
    })
  })

  describe("CK-11 getToken with bad input", () => {
    it("CK-11 bad percent-encoding, 64 KB bearer, garbage or no credentials: null, no throw", async () => {
      const cases: Record<string, string>[] = [
        { authorization: "Bearer %E0%A4%A" },
        { authorization: "Bearer " + "A".repeat(64 * 1024) },
        { authorization: "Bearer " + junkJwe({ alg: "dir", enc: "A256CBC-HS512" }) },
        { authorization: "Bearer " },
        { authorization: "Bearer" },
        { authorization: "Basic YWxpY2U6cGFzc3dvcmQ=" },
        { cookie: `${SALT}=%E0%A4%A` },
        { cookie: `${SALT}.0=%E0%A4%A; ${SALT}.1=x` },
        {},
      ]
      for (const headers of cases) {
        const { result, hmac, decipher } = await countCrypto(() =>
          getToken({ req: new Request(`${ORIGIN}/api`, { headers }), secret: SECRET, secureCookie: false } as never),
        )
        const what = JSON.stringify(headers).slice(0, 60)
        expect(result, what).toBeNull()
        // Bounded work: at most one MAC check (a well-formed JWE under the current secret), never a decryption.
        expect(hmac, what).toBeLessThanOrEqual(1)
        expect(decipher, what).toBe(0)
      }
    })

    it("CK-11 the same inputs on /session answer 200 null", async () => {
      const s = setup()
      for (const cookie of [`${SALT}=%E0%A4%A`, `${SALT}=${"A".repeat(4000)}`]) {
        const { body } = await session(s, cookie)
        expect(body).toBeNull()
      }
      const res = await Auth(get("/auth/session", { headers: { authorization: "Bearer %E0%A4%A" } }), s.config)
      expect(res.status).toBe(200)
      expect(await res.json()).toBeNull()
    })

    it("CK-11 control: a valid url-encoded bearer token is decoded", async () => {
      const s = setup()
      const { token } = await signIn(s)
      const r = await getToken({
        req: new Request(`${ORIGIN}/api`, { headers: { authorization: `Bearer ${encodeURIComponent(token)}` } }),
        secret: SECRET,
        secureCookie: false,
      } as never)
      expect(r).toMatchObject({ name: "Alice", email: alice.email, sub: alice.id })
    })
  })

  describe("CK-12 misconfiguration", () => {
    const saved: Record<string, string | undefined> = {}
    const ENV = ["AUTH_SECRET", "AUTH_SECRET_1", "AUTH_SECRET_2", "AUTH_SECRET_3", "NEXTAUTH_SECRET"]
    beforeEach(() => {
      for (const k of ENV) {
        saved[k] = process.env[k]
        delete process.env[k]
      }
    })
    afterEach(() => {
      for (const k of ENV) {
        if (saved[k] === undefined) delete process.env[k]
        else process.env[k] = saved[k]
      }
    })

    const BAD_SECRETS: [string, unknown][] = [
      ["missing", undefined],
      ["empty string", ""],
      ["empty array", []],
      ["too short (< 32 chars)", "short-secret"],
    ]

    for (const [label, secret] of BAD_SECRETS) {
      it(`CK-12 secret ${label}: endpoints answer 500 Configuration, never a session`, async () => {
        const good = setup()
        const { token, jar } = await signIn(good)
        const s = setup({ secret: secret as never })

        const sres = await Auth(get("/auth/session", { cookie: jar.header() }), s.config)
        expect(sres.status).toBe(500)
        const stext = await bodyText(sres)
        expect(stext).not.toContain("Alice")
        expect(stext).not.toContain(alice.email)
        expect(sessionCookiesSet(sres)).toEqual([])

        const page = await Auth(get("/auth/signin"), s.config)
        expect(page.status).toBe(500)
        expect(await bodyText(page)).not.toContain(SECRET)

        const csrfToken = await fetchCsrf(good.config, new CookieJar())
        const cb = await Auth(
          postForm(
            "/auth/callback/credentials",
            { csrfToken, username: "alice", password: "password" },
            { cookie: jar.header() },
          ),
          s.config,
        )
        expect(cb.status).toBe(500)
        expect(sessionCookiesSet(cb)).toEqual([])
        expect(s.authorize).not.toHaveBeenCalled()

        expect(s.log.types()).toContain("MissingSecret")
        expect(s.log.types().every((t) => t === "MissingSecret")).toBe(true)
        expect(s.log.text()).not.toContain(token)
        if (typeof secret === "string" && secret) expect(s.log.text()).not.toContain(secret)
      })
    }

    it("CK-12 secret missing with pages.error: GET pages redirect to ?error=Configuration", async () => {
      const s = setup({ secret: undefined, pages: { error: "/oops" } })
      const res = await Auth(get("/auth/signin"), s.config)
      expect(res.status).toBe(302)
      const u = new URL(res.headers.get("location")!, ORIGIN)
      expect(u.origin).toBe(ORIGIN)
      expect(u.pathname).toBe("/oops")
      expect(u.searchParams.get("error")).toBe("Configuration")
    })

    it("CK-12 getToken without a secret throws MissingSecret", async () => {
      const good = setup()
      const { token } = await signIn(good)
      for (const secret of [undefined, ""]) {
        const err = await getToken({
          req: get("/", { cookie: `${SALT}=${token}` }),
          secret,
          secureCookie: false,
        } as never).then(
          () => null,
          (e: unknown) => e,
        )
        expect(err, `secret ${JSON.stringify(secret)}`).not.toBeNull()
        expect((err as { type?: string }).type).toBe("MissingSecret")
        expect(String((err as Error).message)).not.toContain(token)
      }
    })
  })

  describe("CK-13 re-authentication and replay", () => {
    it("CK-13 signing in as B over A's session issues a new token for B", async () => {
      const s = setup()
      const { jar, token: tokenA } = await signIn(s, "alice")
      const a = (await decode({ token: tokenA, secret: SECRET, salt: SALT } as never)) as Record<string, unknown>
      const { token: tokenB, jar: jarB } = await signIn(s, "bob", jar)
      const b = (await decode({ token: tokenB, secret: SECRET, salt: SALT } as never)) as Record<string, unknown>
      expect(tokenB).not.toBe(tokenA)
      expect(b.sub).toBe(bob.id)
      expect(b.name).toBe("Bob")
      expect(b.jti).toBeTruthy()
      expect(b.jti).not.toBe(a.jti)
      expect((await session(s, jarB.header())).body).toMatchObject({ user: { name: "Bob", email: bob.email } })
    })

    it("CK-13 re-authenticating as the same user issues a fresh token (new jti)", async () => {
      const s = setup()
      const { jar, token: t1 } = await signIn(s, "alice")
      const { token: t2 } = await signIn(s, "alice", jar)
      const j1 = ((await decode({ token: t1, secret: SECRET, salt: SALT } as never)) as Record<string, unknown>).jti
      const j2 = ((await decode({ token: t2, secret: SECRET, salt: SALT } as never)) as Record<string, unknown>).jti
      expect(j2).not.toBe(j1)
    })

    it("CK-13 sign-out expires the cookie; a replayed JWE is bounded by exp (documented JWT window) and never yields another user", async () => {
      const s = setup({ session: { maxAge: 600 } })
      const { jar, token, csrfToken } = await signIn(s, "alice")
      const out = await Auth(postForm("/auth/signout", { csrfToken }, { cookie: jar.header() }), s.config)
      expect(out.status).toBe(302)
      expect(sessionCookiesCleared(out).map((c) => c.name)).toContain(SALT)
      expect(s.signOut).toHaveBeenCalledTimes(1)
      const p = (await decode({ token, secret: SECRET, salt: SALT } as never)) as { exp: number }
      expect(p.exp - nowSec()).toBeLessThanOrEqual(600)
      const { body } = await session(s, `${SALT}=${token}`)
      if (body !== null) expect(body).toMatchObject({ user: { name: "Alice", email: alice.email } })
    })
  })
})
