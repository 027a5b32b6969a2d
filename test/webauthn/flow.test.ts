// Passkey sign-up and sign-in through Auth(), with the software authenticator, on JWT and database sessions, on the
// memory adapter, the postgres adapter on PGlite, and real PostgreSQL when DATABASE_URL is set.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Adapter } from "../../src/adapters/index.js"
import { type Backend, allBackends } from "../support/db-harness.js"
import {
  CookieJar,
  ORIGIN,
  getOptions,
  passkeyConfig,
  registerPasskey,
  session,
  signInWithPasskey,
  softPasskey,
} from "../support/webauthn-kit.js"

const backends: Backend[] = await allBackends()
afterAll(async () => {
  for (const b of backends) await b.close()
})

/** The authenticator rows of an adapter, through its own API (works on every backend). */
async function authenticatorsOf(adapter: Adapter, userId: string) {
  return adapter.listAuthenticatorsByUserId!(userId)
}

describe.each(backends.map((b) => [b.name, b] as const))("passkey flow on %s", (_name, backend) => {
  let adapter: Adapter
  beforeAll(async () => {
    adapter = await backend.fresh()
  })

  describe.each(["jwt", "database"] as const)("%s sessions", (strategy) => {
    it("registers a new user, signs in again in a new browser with the same passkey, and the counter moves forward", async () => {
      adapter = await backend.fresh()
      const config = passkeyConfig(adapter, { session: { strategy } })
      const auth = softPasskey({ alg: strategy === "jwt" ? "ES256" : "EdDSA" })
      const jar = new CookieJar()
      const reg = await registerPasskey(config, auth, jar, "Ada@Example.com")
      expect(reg.url).toBe(`${ORIGIN}/account`)
      expect((await session(config, jar))?.user.email).toBe("ada@example.com")
      const users = await backend.users()
      expect(users).toHaveLength(1)
      expect(users[0]!.emailVerified).toBeNull()
      const accounts = await backend.accounts()
      expect(accounts).toEqual([
        expect.objectContaining({ provider: "passkey", type: "webauthn", userId: users[0]!.id }),
      ])
      const [row] = await authenticatorsOf(adapter, users[0]!.id)
      expect(row!.credentialID).toBe(Buffer.from(auth.credentials[0]!.id, "base64url").toString("base64"))
      expect(row!.providerAccountId).toBe(row!.credentialID)
      expect(row!.transports).toBe("internal")
      const fresh = new CookieJar()
      const login = await signInWithPasskey(config, auth, fresh)
      expect(login.url).toBe(`${ORIGIN}/account`)
      expect((await session(config, fresh))?.user.email).toBe("ada@example.com")
      expect((await authenticatorsOf(adapter, users[0]!.id))[0]!.counter).toBe(1)
      expect(await backend.users()).toHaveLength(1)
      if (strategy === "database") expect((await backend.sessions()).length).toBe(2)
    })
  })

  it("options: register for a new e-mail, authenticate for a known one, 400 for a bad action or a taken e-mail", async () => {
    adapter = await backend.fresh()
    const config = passkeyConfig(adapter)
    const fresh = await getOptions(config, new CookieJar(), { email: "new@example.com" })
    expect(fresh.body.action).toBe("register")
    expect(fresh.res.headers.get("set-cookie")).toMatch(/^authjs\.challenge=[^;]+;.*HttpOnly/i)
    expect(fresh.res.headers.get("cache-control")).toContain("no-store")
    await registerPasskey(config, softPasskey(), new CookieJar(), "known@example.com")
    const known = await getOptions(config, new CookieJar(), { email: "known@example.com" })
    expect(known.body.action).toBe("authenticate")
    expect(known.body.options.allowCredentials).toHaveLength(1)
    expect(known.body.options.userVerification).toBe("required")
    const bad = await getOptions(config, new CookieJar(), { action: "steal" })
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual({ error: "Invalid action" })
    const taken = await getOptions(config, new CookieJar(), { action: "register", email: "known@example.com" })
    expect(taken.status).toBe(400)
    expect(taken.body).toEqual({ error: "Invalid request" })
    expect(taken.res.headers.get("set-cookie")).toBeNull()
  })
})
