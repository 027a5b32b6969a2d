// Passkey sign-up and sign-in through Auth(), with the software authenticator, on JWT and database sessions.
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { CookieJar, ORIGIN, getOptions, passkeyConfig, registerPasskey, session, signInWithPasskey, softPasskey } from "../support/webauthn-kit.js"

describe.each(["jwt", "database"] as const)("passkey flow (%s sessions)", (strategy) => {
  it("registers a new user, signs out, and signs in again with the same passkey", async () => {
    const adapter = MemoryAdapter()
    const config = passkeyConfig(adapter, { session: { strategy } })
    const auth = softPasskey()
    const jar = new CookieJar()
    const reg = await registerPasskey(config, auth, jar, "Ada@Example.com")
    expect(reg.url).toBe(`${ORIGIN}/account`)
    expect((await session(config, jar))?.user.email).toBe("ada@example.com")
    expect(adapter.users.size).toBe(1)
    const [user] = [...adapter.users.values()]
    expect(user!.emailVerified).toBeNull()
    const [authenticator] = [...adapter.authenticators.values()]
    expect(authenticator!.userId).toBe(user!.id)
    expect(authenticator!.credentialID).toBe(Buffer.from(auth.credentials[0]!.id, "base64url").toString("base64"))
    const fresh = new CookieJar()
    const login = await signInWithPasskey(config, auth, fresh)
    expect(login.url).toBe(`${ORIGIN}/account`)
    expect((await session(config, fresh))?.user.email).toBe("ada@example.com")
    expect([...adapter.authenticators.values()][0]!.counter).toBe(1)
  })

  it("options: register for a new e-mail, authenticate for a known one, 400 for a bad action", async () => {
    const adapter = MemoryAdapter()
    const config = passkeyConfig(adapter, { session: { strategy } })
    const jar = new CookieJar()
    const fresh = await getOptions(config, jar, { email: "new@example.com" })
    expect(fresh.body.action).toBe("register")
    expect(fresh.res.headers.get("set-cookie")).toContain("authjs.challenge=")
    await registerPasskey(config, softPasskey(), new CookieJar(), "known@example.com")
    const known = await getOptions(config, new CookieJar(), { email: "known@example.com" })
    expect(known.body.action).toBe("authenticate")
    expect(known.body.options.allowCredentials).toHaveLength(1)
    const bad = await getOptions(config, new CookieJar(), { action: "steal" })
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual({ error: "Invalid action" })
    const taken = await getOptions(config, new CookieJar(), { action: "register", email: "known@example.com" })
    expect(taken.status).toBe(400)
    expect(taken.body).toEqual({ error: "Invalid request" })
  })
})
