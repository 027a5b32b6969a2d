// The two backends of #crypto in use, not only side by side: the library's own modules are loaded once per backend
// (vitest's module registry reset, #crypto pointed at node.ts or web.ts) and what one copy writes the other reads:
// session JWEs both ways and with @auth/core 0.41.3, CSRF cookies and whole credentials sign-ins through Auth(), the
// RFC 5849 OAuth 1.0a signatures, and ID tokens (RS256, PS256, ES256, EdDSA, HS256) against a JWKS on 127.0.0.1.
import { type Server, createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { decode as authjsDecode, encode as authjsEncode } from "@auth/core/jwt"
import { SignJWT, exportJWK, generateKeyPair } from "jose"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"

type Backend = "node" | "web"
const BACKENDS: Backend[] = ["node", "web"]
const SECRET = "compat-secret-that-is-at-least-32-characters-long"
const SALT = "authjs.session-token"

/** Fresh copies of the library's modules, every one of them on `backend`'s #crypto. */
async function onBackend(backend: Backend) {
  vi.resetModules()
  vi.doMock("#crypto", () => import(backend === "node" ? "./node.js" : "./web.js"))
  const seam = await import("#crypto")
  const jwe = await import("../jwt/jwe.js")
  const jwt = await import("../jwt/index.js")
  const oauth1 = await import("../protocols/oauth1.js")
  const jws = await import("../protocols/jws.js")
  const { Auth } = await import("../index.js")
  const { default: Credentials } = await import("../providers/credentials.js")
  vi.doUnmock("#crypto")
  return { seam, jwe, jwt, oauth1, jws, Auth, Credentials }
}
type Loaded = Awaited<ReturnType<typeof onBackend>>
const loaded = {} as Record<Backend, Loaded>

beforeAll(async () => {
  for (const backend of BACKENDS) loaded[backend] = await onBackend(backend)
})

describe("each copy runs on its own backend", () => {
  it("names the backend it was loaded with", () => {
    expect(loaded.node.seam.backend).toBe("node")
    expect(loaded.web.seam.backend).toBe("web")
  })
})

describe("session JWE", () => {
  const claims = { name: "Ada", email: "ada@example.com", sub: "u-1", nested: { list: [1, "ü", null] } }

  for (const minter of BACKENDS)
    for (const opener of BACKENDS)
      it(`a token encoded on ${minter} decodes on ${opener}`, async () => {
        const token = await loaded[minter].jwt.encode({ token: claims, secret: SECRET, salt: SALT })
        expect(await loaded[opener].jwt.decode({ token, secret: SECRET, salt: SALT })).toMatchObject(claims)
        // And under a rotated secret list, by kid.
        const opened = await loaded[opener].jwe.decodeToken({
          token,
          secret: ["newer-secret-32-chars-long-....", SECRET],
          salt: SALT,
        })
        expect(opened?.secretIndex).toBe(1)
      })

  for (const backend of BACKENDS) {
    it(`${backend} opens @auth/core's tokens, and @auth/core opens ${backend}'s`, async () => {
      const theirs = await authjsEncode({ token: claims, secret: SECRET, salt: SALT })
      expect(await loaded[backend].jwt.decode({ token: theirs, secret: SECRET, salt: SALT })).toMatchObject(claims)
      const ours = await loaded[backend].jwt.encode({ token: claims, secret: SECRET, salt: SALT })
      expect(await authjsDecode({ token: ours, secret: SECRET, salt: SALT })).toMatchObject(claims)
    })

    it(`${backend} refuses a token with a flipped ciphertext byte and one under another secret`, async () => {
      const token = await loaded[backend === "node" ? "web" : "node"].jwt.encode({
        token: claims,
        secret: SECRET,
        salt: SALT,
      })
      const parts = token.split(".")
      const ct = loaded.node.seam.fromBase64Url(parts[3] as string)
      ct[0] = (ct[0] as number) ^ 1
      parts[3] = loaded.node.seam.toBase64Url(ct)
      await expect(loaded[backend].jwt.decode({ token: parts.join("."), secret: SECRET, salt: SALT })).rejects.toThrow(
        "authentication tag mismatch",
      )
      await expect(
        loaded[backend].jwt.decode({ token, secret: "another-secret-that-is-32-characters-long", salt: SALT }),
      ).rejects.toThrow("no secret matches")
    })
  }
})

describe("Auth() on either backend", () => {
  const ORIGIN = "http://localhost:3000"
  const config = (backend: Backend) => ({
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    providers: [
      loaded[backend].Credentials({
        credentials: { username: {}, password: {} },
        authorize: async (c: Record<string, unknown>) =>
          c.username === "ada" && c.password === "pw" ? { id: "u-1", name: "Ada", email: "ada@example.com" } : null,
      }),
    ],
  })
  const cookieHeader = (res: Response) =>
    res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ")

  for (const [csrfOn, signInOn, readOn] of [
    ["node", "web", "node"],
    ["web", "node", "web"],
  ] as const)
    it(`a CSRF cookie from ${csrfOn} passes on ${signInOn}, whose session reads on ${readOn}`, async () => {
      const csrf = await loaded[csrfOn].Auth(new Request(`${ORIGIN}/auth/csrf`), config(csrfOn))
      const { csrfToken } = (await csrf.json()) as { csrfToken: string }
      const signIn = await loaded[signInOn].Auth(
        new Request(`${ORIGIN}/auth/callback/credentials`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookieHeader(csrf) },
          body: new URLSearchParams({ csrfToken, username: "ada", password: "pw" }),
        }),
        config(signInOn),
      )
      expect(signIn.status).toBe(302)
      const session = cookieHeader(signIn)
      expect(session).toContain("authjs.session-token=")
      const read = await loaded[readOn].Auth(
        new Request(`${ORIGIN}/auth/session`, { headers: { cookie: session } }),
        config(readOn),
      )
      expect(((await read.json()) as { user?: { name?: string } }).user?.name).toBe("Ada")
    })

  for (const backend of BACKENDS)
    it(`${backend} refuses a sign-in whose CSRF token is not the cookie's`, async () => {
      const csrf = await loaded[backend === "node" ? "web" : "node"].Auth(
        new Request(`${ORIGIN}/auth/csrf`),
        config(backend),
      )
      const signIn = await loaded[backend].Auth(
        new Request(`${ORIGIN}/auth/callback/credentials`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookieHeader(csrf) },
          body: new URLSearchParams({ csrfToken: "0".repeat(64), username: "ada", password: "pw" }),
        }),
        config(backend),
      )
      expect(signIn.headers.get("location")).toContain("error=MissingCSRF")
    })

  for (const backend of BACKENDS)
    it(`${backend} counts wrong passwords under one rate-limit key: the sixth is answered RateLimited`, async () => {
      // The web backend's key prefix is a promise (an async HMAC) and its hash too; the node backend's are strings.
      const limited = config(backend)
      const csrf = await loaded[backend].Auth(new Request(`${ORIGIN}/auth/csrf`), limited)
      const { csrfToken } = (await csrf.json()) as { csrfToken: string }
      const attempt = async () =>
        (
          await loaded[backend].Auth(
            new Request(`${ORIGIN}/auth/callback/credentials`, {
              method: "POST",
              headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookieHeader(csrf) },
              body: new URLSearchParams({ csrfToken, username: "ada", password: "wrong" }),
            }),
            limited,
          )
        ).headers.get("location")
      for (let i = 0; i < 5; i++) expect(await attempt()).toContain("error=CredentialsSignin")
      expect(await attempt()).toContain("error=RateLimited")
    })
})

describe("OAuth 1.0a HMAC-SHA1 (RFC 5849 §1.2 and OAuth Core 1.0 Appendix A.5)", () => {
  for (const backend of BACKENDS)
    it(`${backend} signs the specifications' examples to their published signatures`, async () => {
      const { hmacSha1Signature, signatureBaseString, authorizationHeader } = loaded[backend].oauth1
      const initiate: [string, string][] = [
        ["oauth_consumer_key", "dpf43f3p2l4k3l03"],
        ["oauth_signature_method", "HMAC-SHA1"],
        ["oauth_timestamp", "137131200"],
        ["oauth_nonce", "wIjqoS"],
        ["oauth_callback", "http://printer.example.com/ready"],
      ]
      const base = signatureBaseString("POST", new URL("https://photos.example.net/initiate"), initiate)
      expect(await hmacSha1Signature(base, "kd94hf93k423kf44")).toBe("74KNZJeDHnMBp0EMJ9ZHt/XKycU=")
      const header = await authorizationHeader(
        "GET",
        new URL("http://photos.example.net/photos?file=vacation.jpg&size=original"),
        {
          consumerKey: "dpf43f3p2l4k3l03",
          consumerSecret: "kd94hf93k423kf44",
          token: "nnch734d00sl2jdk",
          tokenSecret: "pfkkdhi9sl3r4s00",
        },
        {},
        undefined,
        1191242096,
        "kllo9940pd9333jh",
      )
      expect(header).toContain('oauth_signature="tR3%2BTy81lMeYAr%2FFid0kMTYa%2FWM%3D"')
    })
})

describe("ID token signatures against a JWKS on 127.0.0.1", () => {
  let server: Server
  let jwksUri = ""
  const keys: Record<string, { sign: (alg: string) => Promise<string> }> = {}
  const jwks: JsonWebKey[] = []

  beforeAll(async () => {
    for (const [alg, options] of [
      ["RS256", {}],
      ["PS256", {}],
      ["ES256", {}],
      ["EdDSA", { crv: "Ed25519" }],
    ] as const) {
      const { privateKey, publicKey } = await generateKeyPair(alg, { ...options, extractable: true })
      const kid = `key-${alg}`
      jwks.push({ ...(await exportJWK(publicKey)), kid, alg, use: "sig" } as JsonWebKey)
      keys[alg] = {
        sign: (a) =>
          new SignJWT({ sub: "u-1", iss: "https://idp.example" }).setProtectedHeader({ alg: a, kid }).sign(privateKey),
      }
    }
    server = createServer((_req, res) => {
      res.setHeader("content-type", "application/json")
      res.end(JSON.stringify({ keys: jwks }))
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    jwksUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const tamper = (jws: string): string => {
    const [h, p, s] = jws.split(".")
    return `${h}.${p}.${s?.startsWith("A") ? `B${s.slice(1)}` : `A${s?.slice(1)}`}`
  }

  for (const backend of BACKENDS) {
    for (const alg of ["RS256", "PS256", "ES256", "EdDSA"])
      it(`${backend} verifies ${alg} and refuses it tampered or under another alg`, async () => {
        const { verifyJwsSignature, clearJwksCache } = loaded[backend].jws
        clearJwksCache()
        const token = await keys[alg]!.sign(alg)
        const options = { expectedAlg: alg, jwksUri, clientSecret: undefined, fetch }
        await expect(verifyJwsSignature(token, options)).resolves.toBeUndefined()
        // Again, with the key made from the cached JWK.
        await expect(verifyJwsSignature(token, options)).resolves.toBeUndefined()
        await expect(verifyJwsSignature(tamper(token), options)).rejects.toThrow("ID token signature is invalid.")
        await expect(verifyJwsSignature(token, { ...options, expectedAlg: "RS512" })).rejects.toThrow("ID token alg")
      })

    it(`${backend} verifies HS256 under the client secret and refuses another secret`, async () => {
      const { verifyJwsSignature } = loaded[backend].jws
      const secret = "the-client-secret"
      const token = await new SignJWT({ sub: "u-1" })
        .setProtectedHeader({ alg: "HS256" })
        .sign(new TextEncoder().encode(secret))
      const options = { expectedAlg: "HS256", jwksUri: undefined, clientSecret: secret, fetch }
      await expect(verifyJwsSignature(token, options)).resolves.toBeUndefined()
      await expect(verifyJwsSignature(token, { ...options, clientSecret: `${secret}!` })).rejects.toThrow(
        "ID token signature is invalid.",
      )
    })
  }
})
