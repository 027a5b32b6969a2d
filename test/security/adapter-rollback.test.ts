// Failures part-way through a sign-in on every backend: what the undo leaves behind must let the user sign in again,
// and the adapter's transaction itself fails as a typed, bounded AdapterError (docs/reliability.md bugs A and B).
import { afterAll, beforeEach, describe, expect, it } from "vitest"
import type { Adapter } from "../../src/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { ORIGIN } from "../support/flow-kit.js"
import {
  type Backend,
  ERROR_CONFIGURATION,
  type FaultyAdapter,
  allBackends,
  createIdp,
  dbConfig,
  faulty,
  oauthSignIn,
  setsSession,
  sleep,
} from "../support/db-harness.js"

const backends = await allBackends()
afterAll(async () => {
  for (const b of backends) await b.close()
})

const OLIVIA = { id: "olivia-1", name: "Olivia", email: "olivia@example.com" }

describe.each(backends)("DB-01 a half-undone first sign-in on $name", (backend: Backend) => {
  let adapter: FaultyAdapter
  beforeEach(async () => {
    adapter = faulty(await backend.fresh())
  })

  it("DB-01 createSession fails and then deleteUser fails too: the user keeps its account, and the next sign-in works", async () => {
    const idp = createIdp("idp", OLIVIA)
    const { config, rec } = dbConfig(adapter, [idp.provider()], { adapterTimeout: 500 })
    adapter.faults.set("createSession", { kind: "throw" })
    adapter.faults.set("deleteUser", { kind: "throw" })
    const failed = await oauthSignIn(config, idp)
    expect(failed.location).toBe(ERROR_CONFIGURATION)
    expect(setsSession(failed.res)).toBe(false)
    // Never a user without its account: either both were undone or both are still there.
    const counts = await backend.counts()
    expect([counts.users, counts.accounts]).toEqual([counts.users === 0 ? 0 : 1, counts.users === 0 ? 0 : 1])
    expect(rec.errorTypes()).toContain("AdapterError")

    adapter.heal()
    const retry = await oauthSignIn(config, idp)
    expect(retry.location, "not OAuthAccountNotLinked: the user is not locked out").toBe(ORIGIN)
    expect(await backend.counts()).toMatchObject({ users: 1, accounts: 1, sessions: 1 })
  })

  it("DB-01 createSession fails with a healthy undo: no user, account or session is left", async () => {
    const idp = createIdp("idp", OLIVIA)
    const { config } = dbConfig(adapter, [idp.provider()])
    adapter.faults.set("createSession", { kind: "throw" })
    expect((await oauthSignIn(config, idp)).location).toBe(ERROR_CONFIGURATION)
    expect(await backend.counts()).toEqual({ users: 0, accounts: 0, sessions: 0 })
  })
})

/** The memory adapter with a `transaction` whose start the test controls. */
function withTransaction(
  start: (run: () => Promise<unknown>) => Promise<unknown>,
): Adapter & { inner: ReturnType<typeof MemoryAdapter> } {
  const inner = MemoryAdapter()
  return Object.assign(Object.create(inner) as Adapter, {
    inner,
    transaction: <T>(fn: (tx: Adapter) => Promise<T>) => start(() => fn(inner)) as Promise<T>,
  })
}

describe("DB-03 the adapter's transaction itself", () => {
  it("DB-03 a transaction that cannot start (connection lost) is an AdapterError naming it, answered with the error page", async () => {
    const adapter = withTransaction(() => Promise.reject(new Error("Connection terminated unexpectedly")))
    const idp = createIdp("idp", OLIVIA)
    const { config, rec } = dbConfig(adapter, [idp.provider()])
    const res = await oauthSignIn(config, idp)
    expect(res.location).toBe(ERROR_CONFIGURATION)
    const logged = rec.errors.find((e) => (e as { type?: string }).type === "AdapterError") as
      | { message: string }
      | undefined
    expect(logged?.message).toMatch(/"transaction"/)
    expect(rec.errors.some((e) => (e as Error).constructor === Error)).toBe(false)
  })

  it("DB-03 a transaction that starts only after adapterTimeout is answered in time and, when it starts, writes nothing", async () => {
    let startLater: (() => void) | undefined
    const adapter = withTransaction(
      (run) =>
        new Promise((resolve, reject) => {
          startLater = () => void Promise.resolve().then(run).then(resolve, reject)
        }),
    )
    const idp = createIdp("idp", OLIVIA)
    const { config, rec } = dbConfig(adapter, [idp.provider()], { adapterTimeout: 200 })
    const res = await oauthSignIn(config, idp)
    expect(res.location).toBe(ERROR_CONFIGURATION)
    expect(
      rec.errors.some((e) => /did not start within 200 ms/.test(String((e as { cause?: Error }).cause?.message))),
    ).toBe(true)
    startLater!()
    await sleep(50)
    expect(adapter.inner.users.size).toBe(0)
    expect(adapter.inner.accounts.size).toBe(0)
  })
})
