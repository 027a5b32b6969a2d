// A user's `cookies.<name>` override (name and options, maxAge included) is honoured for every cookie Gatehouse sets,
// the short-lived flow cookies included: their Max-Age and the lifetime sealed inside them follow it.
import { describe, expect, it, vi } from "vitest"
import { Auth } from "../src/index.js"
import { setCookies } from "./support/flow-kit.js"
import type { MockOp } from "./support/mock-op.js"
import { NONCE, PKCE, STATE, beginSignIn, callbackGet, provider, setup, useMockOps } from "./support/oauth-flow.js"
import { get } from "./support/flow-kit.js"

let op: MockOp
useMockOps(["cookie-client"], ([started]) => {
  op = started!
})

const overrides = {
  state: { options: { maxAge: 60 } },
  pkceCodeVerifier: { options: { maxAge: 120 } },
  nonce: { options: { maxAge: 90 } },
  callbackUrl: { name: "app.return-to", options: { maxAge: 300 } },
  csrfToken: { name: "app.csrf", options: { sameSite: "strict" as const } },
}

describe("cookies.<name>.options overrides", () => {
  it("the state, PKCE and nonce cookies get the configured Max-Age and Expires; the callback-url and CSRF cookies their names and options", async () => {
    const { config } = setup([provider(op)], { cookies: overrides })
    const csrf = await Auth(get("/auth/csrf"), config)
    const csrfCookie = setCookies(csrf).get("app.csrf")
    expect(csrfCookie?.attrs.samesite).toBe("Strict")

    const started = await beginSignIn(config)
    const set = setCookies(started.signin)
    const now = Date.now()
    for (const [name, maxAge] of [
      [STATE, 60],
      [PKCE, 120],
      [NONCE, 90],
    ] as const) {
      const cookie = set.get(name)
      expect(cookie?.attrs["max-age"], name).toBe(String(maxAge))
      const expires = Date.parse(String(cookie?.attrs.expires))
      expect(Math.abs(expires - (now + maxAge * 1000)), `${name} Expires`).toBeLessThan(5_000)
    }
    expect(set.get("app.return-to")?.attrs["max-age"]).toBe("300")
    expect(set.has("authjs.callback-url")).toBe(false)
  })

  it("the lifetime sealed in a check cookie follows the override: a callback after it has passed is InvalidCheck", async () => {
    const { config, log } = setup([provider(op)], {
      cookies: {
        state: { options: { maxAge: 60 } },
        pkceCodeVerifier: { options: { maxAge: 60 } },
        nonce: { options: { maxAge: 60 } },
      },
    })
    const started = await beginSignIn(config)
    const answer = await op.authorize(started.authUrl)
    const later = Date.now() + 120_000
    vi.spyOn(Date, "now").mockReturnValue(later)
    const res = await callbackGet(config, answer.url, started.jar.header())
    expect(res.headers.get("location")).toBe("http://localhost:3000/auth/error?error=Configuration")
    expect(log.types()).toContain("InvalidCheck")
  })
})
