// The "next-auth-v4" key scheme of jwe.ts against next-auth 4.24.15's own next-auth/jwt (the oracle, installed as a dev
// dependency, loaded through test/support/next-auth-v4.ts): tokens each side encodes are read by the other, with the empty session salt and with a named salt; the
// header is exactly next-auth 4's, and the schemes never read each other's tokens.
import { decodeProtectedHeader } from "jose"
import { describe, expect, it } from "vitest"
import { nextAuthV4Jwt } from "../../test/support/next-auth-v4.js"
import { JWTSessionError } from "../errors.js"
import { decodeToken, encodeToken } from "./jwe.js"

const { decode: v4Decode, encode: v4Encode } = nextAuthV4Jwt()

const SECRET = "a-next-auth-v4-secret-of-at-least-32-characters"
const OTHER = "another-secret-of-at-least-32-characters-long!!"

describe("jwe next-auth-v4 scheme", () => {
  it("writes next-auth 4's header exactly, and next-auth 4 decodes the token (session salt '')", async () => {
    const token = await encodeToken({ token: { sub: "u1", name: "Ada" }, secret: SECRET, salt: "" }, "next-auth-v4")
    expect(decodeProtectedHeader(token)).toStrictEqual({ alg: "dir", enc: "A256GCM" })
    const claims = await v4Decode({ token, secret: SECRET })
    expect(claims).toMatchObject({ sub: "u1", name: "Ada" })
    expect(typeof claims?.exp).toBe("number")
    expect(typeof claims?.jti).toBe("string")
  })

  it("reads a token next-auth 4 encoded, with the empty salt and with a named one", async () => {
    const session = await v4Encode({ token: { sub: "u2", email: "b@example.com" }, secret: SECRET })
    const read = await decodeToken({ token: session, secret: SECRET, salt: "" }, "next-auth-v4")
    expect(read?.payload).toMatchObject({ sub: "u2", email: "b@example.com" })
    const salted = await v4Encode({ token: { sub: "u3" }, secret: SECRET, salt: "custom" })
    expect((await decodeToken({ token: salted, secret: SECRET, salt: "custom" }, "next-auth-v4"))?.payload.sub).toBe(
      "u3",
    )
    await expect(decodeToken({ token: salted, secret: SECRET, salt: "" }, "next-auth-v4")).rejects.toThrow(
      JWTSessionError,
    )
  })

  it("opens a kid-less v4 token under each secret of a list in order, and says which one", async () => {
    const session = await v4Encode({ token: { sub: "u6" }, secret: "twelve-chars" })
    const read = await decodeToken(
      { token: session, secret: [SECRET, OTHER, "twelve-chars"], salt: "" },
      "next-auth-v4",
    )
    expect(read).toMatchObject({ payload: { sub: "u6" }, secretIndex: 2 })
    await expect(decodeToken({ token: session, secret: [SECRET, OTHER], salt: "" }, "next-auth-v4")).rejects.toThrow(
      JWTSessionError,
    )
    // (Auth.js's scheme keeps its rule, a kid-less token under the first secret only: jwe.test.ts.)
  })

  it("refuses another secret, a tampered token, and the other scheme's tokens", async () => {
    const session = await v4Encode({ token: { sub: "u4" }, secret: SECRET })
    await expect(decodeToken({ token: session, secret: OTHER, salt: "" }, "next-auth-v4")).rejects.toThrow(
      JWTSessionError,
    )
    const parts = session.split(".")
    parts[3] = `${parts[3]?.slice(0, -2)}${parts[3]?.endsWith("AA") ? "AB" : "AA"}`
    await expect(decodeToken({ token: parts.join("."), secret: SECRET, salt: "" }, "next-auth-v4")).rejects.toThrow()
    // An Auth.js token (kid in its header) is not a v4 token, and a v4 token does not open under the Auth.js scheme.
    const v5 = await encodeToken({ token: { sub: "u5" }, secret: SECRET, salt: "authjs.session-token" })
    await expect(decodeToken({ token: v5, secret: SECRET, salt: "" }, "next-auth-v4")).rejects.toThrow(/kid/)
    await expect(decodeToken({ token: session, secret: SECRET, salt: "next-auth.session-token" })).rejects.toThrow(
      JWTSessionError,
    )
    await expect(v4Decode({ token: v5, secret: SECRET })).rejects.toThrow()
  })
})
