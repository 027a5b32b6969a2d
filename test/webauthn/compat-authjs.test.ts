// Wire compatibility of passkeys with @auth/core 0.41.3: a passkey registered through an Auth.js app (its
// @simplewebauthn/server 9, its row format) signs in through Gatehouse on the same adapter after the switch, and a
// passkey registered through Gatehouse is stored in the shape Auth.js reads (and signs in through Auth.js).
import { describe, expect, it } from "vitest"
import { Auth as AuthJs } from "@auth/core"
import type { AuthConfig as AuthJsConfig } from "@auth/core"
import AuthJsPasskey from "@auth/core/providers/passkey"
import * as swa9 from "simplewebauthn-server9"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import {
  CookieJar,
  ORIGIN,
  SECRET,
  passkeyConfig,
  registerPasskey,
  session,
  signInWithPasskey,
  softPasskey,
} from "../support/webauthn-kit.js"

/** An Auth.js app on the same adapter, with the @simplewebauthn/server major it was built for (9). */
function authJsConfig(adapter: ReturnType<typeof MemoryAdapter>): AuthJsConfig {
  return {
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    adapter: adapter as unknown as AuthJsConfig["adapter"],
    session: { strategy: "jwt" },
    experimental: { enableWebAuthn: true },
    logger: { error() {}, warn() {}, debug() {} },
    providers: [AuthJsPasskey({ simpleWebAuthn: swa9 as never })],
  }
}

async function authJsCeremony(
  config: AuthJsConfig,
  jar: CookieJar,
  query: string,
  answer: (options: never) => unknown,
  action: string,
): Promise<Response> {
  const optionsRes = await AuthJs(
    new Request(`${ORIGIN}/auth/webauthn-options/passkey?${query}`, { headers: { cookie: jar.header() } }),
    config,
  )
  jar.store(optionsRes)
  const { options } = (await optionsRes.json()) as { options: never }
  const csrfRes = await AuthJs(new Request(`${ORIGIN}/auth/csrf`, { headers: { cookie: jar.header() } }), config)
  jar.store(csrfRes)
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string }
  const body = new URLSearchParams({
    action,
    data: JSON.stringify(answer(options)),
    csrfToken,
    callbackUrl: `${ORIGIN}/home`,
  })
  const res = await AuthJs(
    new Request(`${ORIGIN}/auth/callback/passkey`, {
      method: "POST",
      headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
      body,
    }),
    config,
  )
  jar.store(res)
  return res
}

describe("passkeys across the switch from @auth/core", () => {
  it("a passkey registered through @auth/core signs in through Gatehouse, and the counter Auth.js stored is honoured", async () => {
    const adapter = MemoryAdapter()
    // EdDSA: @simplewebauthn/server 9 refuses some valid ES256 signatures (a leading zero byte in r or s), which
    // would make this test flaky for a reason that is Auth.js's, not the wire's.
    const passkey = softPasskey({ alg: "EdDSA" })
    const jar = new CookieJar()
    const registered = await authJsCeremony(
      authJsConfig(adapter),
      jar,
      "action=register&email=ada%40example.com",
      (o) => passkey.register(o),
      "register",
    )
    expect(registered.status).toBe(302)
    expect(registered.headers.get("location")).toBe(`${ORIGIN}/home`)
    const [row] = [...adapter.authenticators.values()]
    expect(row!.credentialID).toBe(Buffer.from(passkey.credentials[0]!.id, "base64url").toString("base64"))
    // One more sign-in through Auth.js, so the stored counter is not 0.
    expect(
      (
        await authJsCeremony(
          authJsConfig(adapter),
          new CookieJar(),
          "action=authenticate",
          (o) => passkey.authenticate(o),
          "authenticate",
        )
      ).headers.get("location"),
    ).toBe(`${ORIGIN}/home`)
    expect([...adapter.authenticators.values()][0]!.counter).toBe(1)

    const config = passkeyConfig(adapter)
    const fresh = new CookieJar()
    const login = await signInWithPasskey(config, passkey, fresh)
    expect(login.url).toBe(`${ORIGIN}/account`)
    expect((await session(config, fresh))?.user.email).toBe("ada@example.com")
    expect([...adapter.authenticators.values()][0]!.counter).toBe(2)
    // A cloned authenticator behind the counter Auth.js stored is refused by Gatehouse.
    const behind = passkey.clone()
    behind.setCounter(passkey.credentials[0]!.id, 0)
    await expect(signInWithPasskey(config, behind, new CookieJar())).resolves.toMatchObject({
      url: `${ORIGIN}/auth/error?error=WebAuthnVerificationError`,
    })
  })

  it("a passkey registered through Gatehouse is stored as Auth.js stores it and signs in through @auth/core", async () => {
    const adapter = MemoryAdapter()
    const passkey = softPasskey({ alg: "EdDSA" })
    const reg = await registerPasskey(passkeyConfig(adapter), passkey, new CookieJar(), "grace@example.com")
    expect(reg.url).toBe(`${ORIGIN}/account`)
    const [row] = [...adapter.authenticators.values()]
    expect(Object.keys(row!).sort()).toEqual([
      "counter",
      "credentialBackedUp",
      "credentialDeviceType",
      "credentialID",
      "credentialPublicKey",
      "providerAccountId",
      "transports",
      "userId",
    ])
    expect(row!.credentialPublicKey).toMatch(/^[A-Za-z0-9+/]+=*$/)
    const res = await authJsCeremony(
      authJsConfig(adapter),
      new CookieJar(),
      "action=authenticate",
      (o) => passkey.authenticate(o),
      "authenticate",
    )
    expect(res.headers.get("location")).toBe(`${ORIGIN}/home`)
    expect(res.headers.get("set-cookie")).toContain("authjs.session-token=")
  })
})
