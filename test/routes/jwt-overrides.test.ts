// jwt.encode / jwt.decode overrides: used for the session cookie, given the secret as configured.
import { describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import type { JWT } from "../../src/index.js"
import { SECRET, alice, get, signIn } from "../support/flow-kit.js"
import { SESSION, MAX_AGE, S1, S2, setup, expectCleared, expectSessionCookie } from "../support/routes-kit.js"

describe("jwt.encode / jwt.decode overrides", () => {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url")

  function overrides() {
    const encodeFn = vi.fn(async ({ token }: { token?: JWT }) => `custom.${b64(token)}`)
    const decodeFn = vi.fn(async ({ token }: { token?: string }) =>
      token?.startsWith("custom.") ? (JSON.parse(Buffer.from(token.slice(7), "base64url").toString()) as JWT) : null,
    )
    return { encodeFn, decodeFn }
  }

  it("are used to write and read the session cookie", async () => {
    const { encodeFn, decodeFn } = overrides()
    const { config } = setup({ jwt: { encode: encodeFn, decode: decodeFn } })
    const { res, jar } = await signIn(config)
    const value = expectSessionCookie(res)
    // The override gets the token as is: the default claims and the session id (sid), no iat/exp/jti added.
    const sid = (JSON.parse(Buffer.from(value.slice("custom.".length), "base64url").toString()) as JWT).sid
    expect(sid).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect(value).toBe(
      `custom.${b64({ name: "Alice", email: "alice@example.com", picture: alice.image, sub: "user-1", sid })}`,
    )
    expect(encodeFn).toHaveBeenCalledTimes(1)
    expect(encodeFn.mock.calls[0]![0]).toMatchObject({ salt: SESSION, maxAge: MAX_AGE, token: { sub: "user-1" } })
    const read = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    expect(((await read.json()) as { user: { email: string } }).user.email).toBe("alice@example.com")
    expect(decodeFn).toHaveBeenCalledTimes(1)
    expect(decodeFn.mock.calls[0]![0]).toMatchObject({ token: value, salt: SESSION })
  })

  it("an encode override's token is percent-encoded in the Set-Cookie (only the built-in JWE skips the check)", async () => {
    // A default-config sign-in first, so the built-in encoder has just marked its own token URL-safe.
    await signIn(setup().config)
    const { config } = setup({ jwt: { encode: async () => "v1 a;b|c", decode: async () => null } })
    const { res } = await signIn(config)
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION}=`))
    expect(cookie?.split(";", 1)[0]).toBe(`${SESSION}=v1%20a%3Bb%7Cc`)
  })

  it("a decode override returning null: null session, cookie cleared", async () => {
    const { encodeFn } = overrides()
    const { config } = setup({ jwt: { encode: encodeFn, decode: async () => null } })
    const { jar } = await signIn(config)
    const res = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    expect(await res.json()).toBeNull()
    expectCleared(res, SESSION)
  })

  // Auth.js calls jwt.encode/decode with `{...jwt, token, salt}` where `jwt.secret` is `config.secret`
  // as configured: a string stays a string. Overrides written for Auth.js (e.g. jsonwebtoken.sign(token,
  // secret)) depend on it.
  it("the overrides receive the secret as configured (a string stays a string)", async () => {
    const { encodeFn, decodeFn } = overrides()
    const { config } = setup({ jwt: { encode: encodeFn, decode: decodeFn } })
    const { jar } = await signIn(config)
    await Auth(get("/auth/session", { cookie: jar.header() }), config)
    expect((encodeFn.mock.calls[0]![0] as { secret: unknown }).secret).toBe(SECRET)
    expect((decodeFn.mock.calls[0]![0] as { secret: unknown }).secret).toBe(SECRET)
  })

  it("with a secret list the overrides receive the list", async () => {
    const { encodeFn } = overrides()
    const { config } = setup({ secret: [S2, S1], jwt: { encode: encodeFn } })
    await signIn(config)
    expect((encodeFn.mock.calls[0]![0] as { secret: unknown }).secret).toEqual([S2, S1])
  })
})
