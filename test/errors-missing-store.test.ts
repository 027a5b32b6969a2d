// A store that lacks methods is MissingStoreMethods (not an adapter error): a configuration error naming what is missing,
// for the shared `store` and for `rateLimit.store`; the browser sees only Configuration, as for any config error.
import { describe, expect, it } from "vitest"
import { Auth } from "../src/index.js"
import type { SharedStore } from "../src/stores/index.js"
import type { RateLimitStore } from "../src/rate-limit/index.js"
import { CookieJar, ORIGIN, fetchCsrf, get, makeConfig, postForm } from "./support/flow-kit.js"
import { spyLogger } from "./support/logger.js"

/** A SharedStore with every method but the ones named. */
function storeWithout(...missing: (keyof SharedStore)[]): SharedStore {
  const store: Record<string, unknown> = {
    claim: async () => true,
    get: async () => null,
    set: async () => {},
    delete: async () => {},
  }
  for (const m of missing) delete store[m]
  return store as unknown as SharedStore
}

describe("MissingStoreMethods", () => {
  it.each([
    [["delete"], /store` lacks methods of a SharedStore.*: delete\./],
    [["claim", "set"], /store` lacks methods of a SharedStore.*: claim, set\./],
  ] as const)(
    "a `store` without %j: 500 JSON, the error page says Configuration, the log names the methods",
    async (missing, message) => {
      const log = spyLogger()
      const config = makeConfig({ logger: log.logger, store: storeWithout(...missing) })
      const res = await Auth(get("/auth/session"), config)
      expect(res.status).toBe(500)
      expect(await res.json()).toEqual({ message: expect.any(String) })
      const page = await Auth(get("/auth/signin"), config)
      expect(page.status).toBe(500)
      expect(await page.text()).toContain("Server error")
      expect(log.types()).toContain("MissingStoreMethods")
      expect(log.types()).not.toContain("MissingAdapterMethods")
      expect(log.messages().join("\n")).toMatch(message)
    },
  )

  it("a `store` with every method is accepted", async () => {
    const config = makeConfig({ store: storeWithout() })
    expect((await Auth(get("/auth/session"), config)).status).toBe(200)
  })

  it("a `rateLimit.store` without undo: sign-in ends at ?error=Configuration, the log names the method", async () => {
    const log = spyLogger()
    const store = { hit: async () => ({ count: 1, resetAt: Date.now() + 60_000 }) } as unknown as RateLimitStore
    const config = makeConfig({ logger: log.logger, rateLimit: { store } })
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const res = await Auth(
      postForm(
        "/auth/callback/credentials",
        { csrfToken, username: "alice", password: "password" },
        { cookie: jar.header() },
      ),
      config,
    )
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`)
    expect(log.types()).toContain("MissingStoreMethods")
    expect(log.messages().join("\n")).toMatch(/rateLimit\.store` lacks methods of a RateLimitStore.*: undo\./)
  })
})
