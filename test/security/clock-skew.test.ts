// R8 (clock skew, docs/security.md §2) for the two expiries the stress harness cannot hit to the millisecond: an e-mail
// link's `expires` (a Date, compared in ms) and a WebAuthn challenge's `exp` (whole seconds). The clock is frozen
// (vi fake Date only; timers stay real), so "exactly at the bound" is exact here. `npm run stress -- --only=R8` runs
// the same bounds at ±1 s over HTTP with the app's clock pinned (stress/r8-clock-skew.ts).
import { afterEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { sessionCookiesSet } from "../support/cookies.js"
import { createSoftAuthenticator } from "../support/soft-authenticator.js"
import { CookieJar, ORIGIN, csrfToken, getOptions, passkeyConfig, postCallback } from "../support/webauthn-kit.js"
import { ERROR_VERIFICATION, click, emailSetup, expectVerifyRequest, requestLink, sessionOf } from "../email/kit.js"

/** A fixed instant, 0.5 s into its second (as the stress harness pins it). */
const T0 = Date.UTC(2026, 10, 26, 9, 0, 0) + 500

function freezeAt(ms: number): void {
  vi.setSystemTime(ms)
}

afterEach(() => {
  vi.useRealTimers()
})

describe("R8 e-mail link expiry (src/flows/email.ts: refused when expires < now, in ms, no tolerance)", () => {
  /** Mints a link at T0 (frozen), then clicks it at `clickAt` (frozen); returns what the click left. */
  async function linkUsedAt(maxAge: number | undefined, clickAt: (expires: number) => number) {
    vi.useFakeTimers({ toFake: ["Date"], now: T0 })
    const inner = MemoryAdapter()
    const setup = emailSetup({ session: { strategy: "database" } }, inner, maxAge === undefined ? {} : { maxAge })
    expectVerifyRequest(await requestLink(setup.config, "skew@example.com"))
    const sent = setup.sent.at(-1)!
    const expires = sent.expires.valueOf()
    expect(expires).toBe(T0 + (maxAge ?? 24 * 60 * 60) * 1000)
    expect([...inner.verificationTokens.values()].map((r) => r.expires.valueOf())).toEqual([expires])
    freezeAt(clickAt(expires))
    const jar = new CookieJar()
    const res = await click(setup.config, sent.url, jar)
    return { res, inner, jar, setup }
  }

  for (const maxAge of [undefined, 60]) {
    const label = maxAge === undefined ? "default maxAge (24 h)" : `maxAge ${maxAge} s`
    it(`${label}: used 1 s before expires → signed in, the row consumed`, async () => {
      const { res, inner, jar, setup } = await linkUsedAt(maxAge, (e) => e - 1000)
      expect(res.status).toBe(302)
      expect(res.headers.get("location")).toBe(ORIGIN)
      expect(sessionCookiesSet(res)).toHaveLength(1)
      expect((await sessionOf(setup.config, jar))?.user?.email).toBe("skew@example.com")
      expect(inner.verificationTokens.size).toBe(0)
      expect(inner.sessions.size).toBe(1)
    })

    it(`${label}: used exactly at expires (same millisecond) → still signed in (the bound is inclusive, as in Auth.js)`, async () => {
      const { res, inner } = await linkUsedAt(maxAge, (e) => e)
      expect(res.headers.get("location")).toBe(ORIGIN)
      expect(sessionCookiesSet(res)).toHaveLength(1)
      expect(inner.verificationTokens.size).toBe(0)
      expect(inner.users.size).toBe(1)
    })

    for (const [what, late] of [
      ["1 ms", 1],
      ["1 s", 1000],
    ] as const) {
      it(`${label}: used ${what} after expires → Verification, no session cookie, nothing written, the row deleted`, async () => {
        const { res, inner } = await linkUsedAt(maxAge, (e) => e + late)
        expect(res.status).toBe(302)
        expect(res.headers.get("location")).toBe(ERROR_VERIFICATION)
        expect(sessionCookiesSet(res)).toEqual([])
        expect(inner.verificationTokens.size).toBe(0)
        expect(inner.users.size).toBe(0)
        expect(inner.sessions.size).toBe(0)
      })
    }
  }
})

describe("R8 WebAuthn challenge expiry (src/security/webauthn-challenge.ts: exp = options second + 900, refused when exp ≤ now, whole seconds)", () => {
  const REFUSED = `${ORIGIN}/auth/error?error=WebAuthnVerificationError`
  const TTL = 900

  /** A registered passkey (at the real clock), then options for `action` at `optionsAt` and the callback at `finishAt`. */
  async function ceremonyAt(action: "register" | "authenticate", optionsAt: number, finishAt: number) {
    const adapter = MemoryAdapter()
    const config = passkeyConfig(adapter)
    const authenticator = createSoftAuthenticator({ alg: "ES256", rpId: "localhost", origin: ORIGIN })
    if (action === "authenticate") {
      const jar = new CookieJar()
      const { body } = await getOptions(config, jar, { action: "register", email: "owner@example.com" })
      const { url } = await postCallback(config, jar, "register", authenticator.register(body.options))
      expect(url).toBe(`${ORIGIN}/account`)
    }
    const before = {
      users: adapter.users.size,
      accounts: adapter.accounts.size,
      authenticators: adapter.authenticators.size,
      sessions: adapter.sessions.size,
    }
    vi.useFakeTimers({ toFake: ["Date"], now: optionsAt })
    const jar = new CookieJar()
    const csrf = await csrfToken(config, jar)
    const { body } = await getOptions(
      config,
      jar,
      action === "register" ? { action, email: "new@example.com" } : { action },
    )
    expect(body.action).toBe(action)
    const data = action === "register" ? authenticator.register(body.options) : authenticator.authenticate(body.options)
    freezeAt(finishAt)
    const { res, url } = await postCallback(config, jar, action, data, { csrf })
    const after = {
      users: adapter.users.size,
      accounts: adapter.accounts.size,
      authenticators: adapter.authenticators.size,
      sessions: adapter.sessions.size,
    }
    return { res, url, before, after }
  }

  const second = Math.floor(T0 / 1000)
  for (const action of ["authenticate", "register"] as const) {
    it(`${action}: finished in the last second before exp → succeeds`, async () => {
      const { res, url, before, after } = await ceremonyAt(action, T0, (second + TTL - 1) * 1000 + 999)
      expect(url).toBe(`${ORIGIN}/account`)
      expect(sessionCookiesSet(res)).toHaveLength(1)
      if (action === "register")
        expect(after).toEqual({
          ...before,
          users: before.users + 1,
          accounts: before.accounts + 1,
          authenticators: before.authenticators + 1,
        })
      else expect(after).toEqual(before)
    })

    for (const [what, at] of [
      ["exactly at exp", (second + TTL) * 1000],
      ["1 s after exp", (second + TTL + 1) * 1000 + 500],
    ] as const) {
      it(`${action}: finished ${what} → WebAuthnVerificationError, no session cookie, nothing written`, async () => {
        const { res, url, before, after } = await ceremonyAt(action, T0, at)
        expect(url).toBe(REFUSED)
        expect(sessionCookiesSet(res)).toEqual([])
        expect(after).toEqual(before)
      })
    }
  }

  it("the lifetime is counted from the options request's whole second: options at .999 leave 899.001 s", async () => {
    const late = second * 1000 + 999
    expect((await ceremonyAt("authenticate", late, (second + TTL) * 1000 - 1)).url).toBe(`${ORIGIN}/account`)
    expect((await ceremonyAt("authenticate", late, (second + TTL) * 1000)).url).toBe(REFUSED)
  })
})
