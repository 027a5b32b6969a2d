// `v4Cookies: "accept"` for a next-auth v4 app whose secret was shorter than 32 characters: the session cookie of a
// real next-auth 4.24.15 sign-in under a 12-character secret is read by Auth() with `secret: [long, short]`, re-issued
// as authjs.session-token under the long secret (a config with the long secret alone reads it next) and expired; the
// retired short secret is named in one warning. A short first secret is still refused.
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { Auth, type AuthConfig } from "../../src/index.js"
import Credentials from "../../src/providers/credentials.js"
import { setCookies } from "../support/cookies.js"
import { isolateEnv } from "../support/env.js"
import { alice, CookieJar, get } from "../support/flow-kit.js"
import { spyLogger } from "../support/logger.js"
import { cookieHeader, V4_SESSION, v4CredentialsSignIn } from "./v4-kit.js"

const SHORT = "twelve-chars"
const LONG = "the-new-secret-of-at-least-32-characters!"
const SESSION = "authjs.session-token"

let restoreEnv: () => void
beforeEach(() => {
  restoreEnv = isolateEnv()
})
afterEach(() => restoreEnv())

function config(secret: string | string[]) {
  const log = spyLogger()
  const config: AuthConfig = {
    secret,
    trustHost: true,
    basePath: "/auth",
    v4Cookies: "accept",
    logger: log.logger,
    providers: [Credentials({ credentials: { username: {}, password: {} }, authorize: () => null })],
  }
  return { config, log }
}

function session(config: AuthConfig, cookie: string): Promise<Response> {
  return Auth(get("/auth/session", { cookie }), config)
}

describe("v4Cookies: 'accept' with a short next-auth v4 secret kept as a retired one", () => {
  it("secret [long, short]: the v4 cookie is the session, re-issued under the long secret, which alone reads it next", async () => {
    const v4 = await v4CredentialsSignIn({ secret: SHORT })
    const { config: both, log } = config([LONG, SHORT])
    const res = await session(both, cookieHeader(v4))
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ user: { name: alice.name, email: alice.email } })
    const set = setCookies(res)
    expect(set.get(SESSION)?.value).toBeTruthy()
    expect(set.get(V4_SESSION)?.value).toBe("")
    expect(set.get(V4_SESSION)?.attrs["max-age"]).toBe("0")
    expect(log.warnings).toEqual([["secret-1-short"]])
    expect(log.errors).toEqual([])

    const jar = new CookieJar()
    jar.store(res)
    expect([...jar.cookies.keys()]).toEqual([SESSION])
    const { config: longOnly, log: longLog } = config(LONG)
    const again = await session(longOnly, jar.header())
    expect(await again.json()).toMatchObject({ user: { email: alice.email } })
    expect(longLog.errors).toEqual([])
    // The v4 cookie itself does not open under the long secret alone: signed out, and it is expired.
    const stale = await session(config(LONG).config, cookieHeader(v4))
    expect(await stale.json()).toBeNull()
    expect(setCookies(stale).get(V4_SESSION)?.value).toBe("")
  })

  it("a short first secret is still refused as a configuration error, and no cookie is read or set", async () => {
    const v4 = await v4CredentialsSignIn({ secret: SHORT })
    for (const secret of [SHORT, [SHORT, LONG]]) {
      const { config: refused, log } = config(secret)
      const res = await session(refused, cookieHeader(v4))
      expect(res.status).toBe(500)
      expect(setCookies(res).size).toBe(0)
      expect(log.types()).toEqual(["MissingSecret"])
      expect(log.messages()[0]).toMatch(/too short \(12 characters\)/)
      expect(log.warnings).toEqual([])
    }
  })
})
