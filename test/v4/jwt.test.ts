// gatehouse/v4/jwt against next-auth 4.24.15's own next-auth/jwt: tokens each encodes the other decodes (session salt
// "" and a named salt), and getToken finds the same token in the same requests (cookie record, NextRequest, Cookie
// header only, chunks, Bearer, the __Secure- name from NEXTAUTH_URL or VERCEL, the secret from NEXTAUTH_SECRET or
// AUTH_SECRET), answering null where next-auth 4 does.
import { NextRequest } from "next/server.js"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { decode, encode, getToken } from "../../src/integrations/next-v4/jwt.js"
import { isolateEnv } from "../support/env.js"
import { nextAuthV4Jwt } from "../support/next-auth-v4.js"
import { V4_SECRET } from "./kit.js"

const v4 = nextAuthV4Jwt()
const OTHER = "another-secret-of-at-least-32-characters-long!!"
const CLAIMS = { sub: "user-1", name: "Alice", email: "alice@example.com" }

let restoreEnv: () => void
beforeEach(() => {
  restoreEnv = isolateEnv()
})
afterEach(() => restoreEnv())

describe("encode / decode", () => {
  it("next-auth 4 decodes what encode writes, and decode reads what next-auth 4 writes", async () => {
    const ours = await encode({ token: CLAIMS, secret: V4_SECRET })
    expect(await v4.decode({ token: ours, secret: V4_SECRET })).toMatchObject(CLAIMS)
    const theirs = await v4.encode({ token: CLAIMS, secret: V4_SECRET })
    const read = await decode({ token: theirs, secret: V4_SECRET })
    expect(read).toMatchObject(CLAIMS)
    expect(typeof read?.exp).toBe("number")
    expect(typeof read?.jti).toBe("string")
  })

  it("keeps a named salt apart from the session salt, both ways", async () => {
    const ours = await encode({ token: CLAIMS, secret: V4_SECRET, salt: "custom" })
    expect(await v4.decode({ token: ours, secret: V4_SECRET, salt: "custom" })).toMatchObject(CLAIMS)
    await expect(v4.decode({ token: ours, secret: V4_SECRET })).rejects.toThrow()
    const theirs = await v4.encode({ token: CLAIMS, secret: V4_SECRET, salt: "custom" })
    expect(await decode({ token: theirs, secret: V4_SECRET, salt: "custom" })).toMatchObject(CLAIMS)
    await expect(decode({ token: theirs, secret: V4_SECRET })).rejects.toThrow()
  })

  it("refuses another secret and an expired token; null for no token; maxAge sets exp", async () => {
    const theirs = await v4.encode({ token: CLAIMS, secret: V4_SECRET })
    await expect(decode({ token: theirs, secret: OTHER })).rejects.toThrow()
    const expired = await v4.encode({ token: CLAIMS, secret: V4_SECRET, maxAge: -60 })
    await expect(decode({ token: expired, secret: V4_SECRET })).rejects.toThrow()
    expect(await decode({ token: "", secret: V4_SECRET })).toBeNull()
    const short = await encode({ token: CLAIMS, secret: V4_SECRET, maxAge: 60 })
    const claims = await v4.decode({ token: short, secret: V4_SECRET })
    expect((claims?.exp as number) - (claims?.iat as number)).toBe(60)
  })

  it("takes a Buffer secret of UTF-8 text as next-auth 4 does", async () => {
    const token = await encode({ token: CLAIMS, secret: Buffer.from(V4_SECRET) })
    expect(await v4.decode({ token, secret: V4_SECRET })).toMatchObject(CLAIMS)
  })
})

/** Both getTokens on the same parameters. */
async function both(params: Record<string, unknown>): Promise<[unknown, unknown]> {
  return [await getToken(params as never), await v4.getToken(params as never)]
}

describe("getToken", () => {
  it("reads req.cookies (pages router), a NextRequest and a Cookie header alike", async () => {
    const token = await v4.encode({ token: CLAIMS, secret: V4_SECRET })
    const fromRecord = await both({
      req: { headers: {}, cookies: { "next-auth.session-token": token } },
      secret: V4_SECRET,
    })
    expect(fromRecord[0]).toMatchObject(CLAIMS)
    expect(fromRecord[0]).toEqual(fromRecord[1])
    const next = new NextRequest("http://localhost:3000/x", { headers: { cookie: `next-auth.session-token=${token}` } })
    const fromNext = await both({ req: next, secret: V4_SECRET })
    expect(fromNext[0]).toMatchObject(CLAIMS)
    expect(fromNext[0]).toEqual(fromNext[1])
    // A bare node request with the Cookie header only (next-auth 4 reads req.cookies; Gatehouse falls back to the header).
    expect(
      await getToken({ req: { headers: { cookie: `next-auth.session-token=${token}` } }, secret: V4_SECRET }),
    ).toMatchObject(CLAIMS)
  })

  it("joins chunked cookies and falls back to Authorization: Bearer", async () => {
    const big = await v4.encode({ token: { ...CLAIMS, blob: "x".repeat(6000) }, secret: V4_SECRET })
    const cookies = { "next-auth.session-token.0": big.slice(0, 3933), "next-auth.session-token.1": big.slice(3933) }
    const chunked = await both({ req: { headers: {}, cookies }, secret: V4_SECRET })
    expect(chunked[0]).toMatchObject(CLAIMS)
    expect(chunked[0]).toEqual(chunked[1])
    const token = await encode({ token: CLAIMS, secret: V4_SECRET })
    const bearer = await both({
      req: { headers: { authorization: `Bearer ${encodeURIComponent(token)}` }, cookies: {} },
      secret: V4_SECRET,
    })
    expect(bearer[0]).toMatchObject(CLAIMS)
    expect(bearer[0]).toEqual(bearer[1])
    const malformed = await both({
      req: { headers: { authorization: "Bearer %E0%A4%A" }, cookies: {} },
      secret: V4_SECRET,
    })
    expect(malformed).toEqual([null, null])
  })

  it("answers null for no token, another secret, a tampered token; raw gives the string", async () => {
    const token = await v4.encode({ token: CLAIMS, secret: V4_SECRET })
    const req = { headers: {}, cookies: { "next-auth.session-token": token } }
    expect(await both({ req: { headers: {}, cookies: {} }, secret: V4_SECRET })).toEqual([null, null])
    expect(await both({ req, secret: OTHER })).toEqual([null, null])
    const tampered = { headers: {}, cookies: { "next-auth.session-token": `${token.slice(0, -3)}abc` } }
    expect(await both({ req: tampered, secret: V4_SECRET })).toEqual([null, null])
    expect(await both({ req, raw: true })).toEqual([token, token])
    await expect(getToken({ req: undefined as never })).rejects.toThrow(/req/)
  })

  it("takes the secret from NEXTAUTH_SECRET, then AUTH_SECRET, and a custom decode", async () => {
    const token = await v4.encode({ token: CLAIMS, secret: V4_SECRET })
    const req = { headers: {}, cookies: { "next-auth.session-token": token } }
    expect(await both({ req })).toEqual([null, null])
    process.env.AUTH_SECRET = V4_SECRET
    expect((await both({ req }))[0]).toMatchObject(CLAIMS)
    process.env.NEXTAUTH_SECRET = OTHER
    expect(await both({ req })).toEqual([null, null])
    const seen: unknown[] = []
    const custom = async (params: { token?: string; secret: unknown }) => {
      seen.push(params)
      return { sub: "custom" }
    }
    expect(await getToken({ req, secret: "s", decode: custom })).toEqual({ sub: "custom" })
    expect(seen).toEqual([{ token, secret: "s" }])
  })

  it("picks the __Secure- name when NEXTAUTH_URL is https, or on Vercel without NEXTAUTH_URL", async () => {
    const token = await v4.encode({ token: CLAIMS, secret: V4_SECRET })
    const req = { headers: {}, cookies: { "__Secure-next-auth.session-token": token } }
    expect(await both({ req, secret: V4_SECRET })).toEqual([null, null])
    process.env.VERCEL = "1"
    expect((await both({ req, secret: V4_SECRET }))[0]).toMatchObject(CLAIMS)
    process.env.NEXTAUTH_URL = "http://localhost:3000"
    expect(await both({ req, secret: V4_SECRET })).toEqual([null, null])
    process.env.NEXTAUTH_URL = "https://app.example"
    const found = await both({ req, secret: V4_SECRET })
    expect(found[0]).toMatchObject(CLAIMS)
    expect(found[0]).toEqual(found[1])
    expect(await both({ req, secret: V4_SECRET, secureCookie: false })).toEqual([null, null])
  })
})
