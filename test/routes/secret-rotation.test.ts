// Secret rotation: a token under an older secret is read and re-issued under the first one (kid selects the secret).
import { describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import { decode, encode } from "../../src/jwt/index.js"
import { deriveKey } from "../../src/jwt/jwe.js"
import { get, signIn } from "../support/flow-kit.js"
import {
  SESSION,
  S1,
  S2,
  setup,
  sessionToken,
  claims,
  expectCleared,
  expectSessionCookie,
} from "../support/routes-kit.js"

describe("secret rotation", () => {
  async function tokenUnder(secret: string | string[]) {
    const { config } = setup({ secret })
    return signIn(config)
  }

  it("a token made with S1 is accepted under [S2, S1] and re-issued under S2's kid", async () => {
    const { jar } = await tokenUnder(S1)
    const oldToken = sessionToken(jar)
    expect(JSON.parse(Buffer.from(oldToken.split(".")[0] as string, "base64url").toString()).kid).toBe(
      (await deriveKey(S1, SESSION)).kid,
    )
    const { config } = setup({ secret: [S2, S1] })
    const res = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    expect(res.status).toBe(200)
    expect(((await res.json()) as { user: { name: string } }).user.name).toBe("Alice")
    const fresh = expectSessionCookie(res)
    const header = JSON.parse(Buffer.from(fresh.split(".")[0] as string, "base64url").toString())
    expect(header).toEqual({ alg: "dir", enc: "A256CBC-HS512", kid: (await deriveKey(S2, SESSION)).kid })
    expect((await claims(fresh, S2)).sub).toBe("user-1")
    await expect(decode({ token: fresh, secret: S1, salt: SESSION })).rejects.toThrow()
  })

  it("a token made with S1 is rejected under [S2] alone and cleared", async () => {
    const { jar } = await tokenUnder(S1)
    const { config } = setup({ secret: [S2] })
    const res = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    expect(await res.json()).toBeNull()
    expectCleared(res, SESSION)
  })

  it("a fresh token under the current first secret is not re-issued", async () => {
    const { jar } = await tokenUnder([S2, S1])
    const { config } = setup({ secret: [S2, S1] })
    const res = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    expect(res.headers.getSetCookie()).toEqual([])
    expect(((await res.json()) as { user: { name: string } }).user.name).toBe("Alice")
  })

  it("a token made by encode() with S1 and no sign-in is read the same way", async () => {
    const token = await encode({ token: { name: "Eve", sub: "u9" }, secret: S1, salt: SESSION })
    const { config } = setup({ secret: [S2, S1] })
    const res = await Auth(get("/auth/session", { cookie: `${SESSION}=${token}` }), config)
    expect(((await res.json()) as { user: { name: string } }).user.name).toBe("Eve")
    expect(expectSessionCookie(res)).not.toBe(token)
  })
})
