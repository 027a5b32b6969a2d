// Unit tests of ID token signature failures: every refusal is an OAuthCallbackError (an AuthError), on canned tokens and JWKS answers.
import { createHmac, generateKeyPairSync, sign } from "node:crypto"
import { beforeEach, describe, expect, it } from "vitest"
import { AuthError, OAuthCallbackError } from "../errors.js"
import { clearJwksCache, verifyJwsSignature } from "./jws.js"

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString("base64url")
const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
const jwk = { ...publicKey.export({ format: "jwk" }), kid: "k1", use: "sig" }

function rs256(header: Record<string, unknown>): string {
  const data = `${b64(header)}.${b64({ sub: "1" })}`
  return `${data}.${sign("sha256", Buffer.from(data), privateKey).toString("base64url")}`
}
function jwks(body: unknown, status = 200): typeof fetch {
  return (async () => new Response(JSON.stringify(body), { status })) as typeof fetch
}
const options = (fetchFn: typeof fetch) => ({
  expectedAlg: "RS256",
  jwksUri: "https://op.example/jwks",
  clientSecret: "secret",
  fetch: fetchFn,
})

async function refusal(promise: Promise<void>): Promise<OAuthCallbackError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(OAuthCallbackError)
  expect(error).toBeInstanceOf(AuthError)
  expect((error as OAuthCallbackError).type).toBe("OAuthCallbackError")
  return error as OAuthCallbackError
}

beforeEach(() => clearJwksCache())

describe("verifyJwsSignature", () => {
  it("accepts an RS256 token signed by the JWKS key, and an HS256 token under the client secret", async () => {
    await expect(
      verifyJwsSignature(rs256({ alg: "RS256", kid: "k1" }), options(jwks({ keys: [jwk] }))),
    ).resolves.toBeUndefined()
    const data = `${b64({ alg: "HS256" })}.${b64({ sub: "1" })}`
    const hs = `${data}.${createHmac("sha256", "secret").update(data).digest("base64url")}`
    await expect(
      verifyJwsSignature(hs, { ...options(jwks({ keys: [] })), expectedAlg: "HS256" }),
    ).resolves.toBeUndefined()
  })
  it("refuses a token that is not a compact JWS", async () => {
    expect((await refusal(verifyJwsSignature("a.b", options(jwks({ keys: [jwk] }))))).message).toMatch(/compact JWS/)
  })
  it("refuses alg none and any alg but the expected one", async () => {
    await refusal(verifyJwsSignature(`${b64({ alg: "none" })}.${b64({ sub: "1" })}.`, options(jwks({ keys: [jwk] }))))
    await refusal(verifyJwsSignature(rs256({ alg: "RS384", kid: "k1" }), options(jwks({ keys: [jwk] }))))
  })
  it("refuses a bad signature", async () => {
    const token = rs256({ alg: "RS256", kid: "k1" })
    const tampered = `${token.slice(0, token.lastIndexOf(".") + 1)}${Buffer.alloc(256, 1).toString("base64url")}`
    expect((await refusal(verifyJwsSignature(tampered, options(jwks({ keys: [jwk] }))))).message).toMatch(
      /signature is invalid/,
    )
  })
  it("refuses when the JWKS answers an error or has no keys array", async () => {
    expect(
      (await refusal(verifyJwsSignature(rs256({ alg: "RS256", kid: "k1" }), options(jwks({}, 500))))).message,
    ).toMatch(/JWKS request answered 500/)
    clearJwksCache()
    expect(
      (await refusal(verifyJwsSignature(rs256({ alg: "RS256", kid: "k1" }), options(jwks({ nokeys: 1 }))))).message,
    ).toMatch(/no keys array/)
  })
  it("refuses an unknown kid", async () => {
    expect(
      (await refusal(verifyJwsSignature(rs256({ alg: "RS256", kid: "other" }), options(jwks({ keys: [jwk] })))))
        .message,
    ).toMatch(/No JWKS key matches/)
  })
})
