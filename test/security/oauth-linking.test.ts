// Security group A (docs/security.md §1.A), account linking by e-mail after an OAuth sign-in (OA-19): never without
// allowDangerousEmailAccountLinking, never on an unverified side, and the identity key (provider, sub).
import { describe, expect, it } from "vitest"
import type { AdapterUser } from "../../src/index.js"
import type { MemoryAdapter } from "../../src/adapters/memory.js"
import type { MockOp } from "../support/mock-op.js"
import {
  CHECK_COOKIES,
  authorizedCallback,
  expectReject,
  expectSignedIn,
  fullFlow,
  provider,
  setup,
  expectNoUnhandled,
  useMockOps,
} from "../support/oauth-flow.js"

let opA: MockOp
const harness = useMockOps(["client-a"], (ops) => {
  opA = ops[0] as MockOp
})

describe("A. OAuth 2 / OIDC callback — attacks (docs/security.md §1.A)", () => {
  describe("OA-19 account linking by e-mail", () => {
    const EMAIL = "mock.user@op.example" // the e-mail in the mock OP's ID tokens
    const seed = async (mem: ReturnType<typeof MemoryAdapter>, verified: boolean) => {
      await mem.createUser!({
        id: "local-1",
        email: EMAIL,
        emailVerified: verified ? new Date(0) : null,
        name: "Local",
      } as AdapterUser)
    }

    it("OA-19 existing verified local user with the IdP's e-mail, linking not enabled: REJECT(OAuthAccountNotLinked), I2 nothing written", async () => {
      const { config, log, mem } = setup([provider(opA)])
      await seed(mem, true)
      const { res, before } = await authorizedCallback(config, opA)
      await expectReject(res, { type: "OAuthAccountNotLinked", log, op: opA, before, carried: CHECK_COOKIES })
      expect(mem.accounts.size).toBe(0)
      expect(mem.users.size).toBe(1)
    })

    it("OA-19 linking enabled but the IdP says email_verified=false: REJECT(OAuthAccountNotLinked), nothing linked", async () => {
      opA.extraClaims = { email_verified: false }
      const { config, log, mem } = setup([provider(opA, { allowDangerousEmailAccountLinking: true })])
      await seed(mem, true)
      const { res, before } = await authorizedCallback(config, opA)
      await expectReject(res, { type: "OAuthAccountNotLinked", log, op: opA, before, carried: CHECK_COOKIES })
      expect(mem.accounts.size).toBe(0)
    })

    it("OA-19 linking enabled, IdP e-mail verified, but the local row is unverified: never link to an unverified row -> REJECT(OAuthAccountNotLinked)", async () => {
      const { config, log, mem } = setup([provider(opA, { allowDangerousEmailAccountLinking: true })])
      await seed(mem, false)
      const { res, before } = await authorizedCallback(config, opA)
      await expectReject(res, { type: "OAuthAccountNotLinked", log, op: opA, before, carried: CHECK_COOKIES })
      expect(mem.accounts.size).toBe(0)
    })

    it("OA-19 (control) linking enabled, both sides verified: linked to the existing user", async () => {
      const { config, mem } = setup([provider(opA, { allowDangerousEmailAccountLinking: true })])
      await seed(mem, true)
      expectSignedIn((await fullFlow(config, opA)).res)
      expect([...mem.accounts.values()].map((a) => [a.provider, a.providerAccountId, a.userId])).toEqual([
        ["mock", "mock-user-1", "local-1"],
      ])
    })

    it("OA-19 identity key = (provider, sub): the same sub at another provider id is another account; the same (provider, sub) with a new e-mail is the same user", async () => {
      const { config, mem } = setup([provider(opA, { id: "mock" }), provider(opA, { id: "mock-twin" })])
      expectSignedIn((await fullFlow(config, opA, "mock")).res)
      expect(mem.users.size).toBe(1)
      const firstUser = [...mem.users.keys()][0]
      // Same OP, same sub, but reached through another provider id and with another e-mail: a new user and account.
      opA.extraClaims = { email: "twin@op.example" }
      expectSignedIn((await fullFlow(config, opA, "mock-twin")).res)
      expect(mem.users.size).toBe(2)
      expect([...mem.accounts.values()].map((a) => `${a.provider}|${a.providerAccountId}`).sort()).toEqual([
        "mock-twin|mock-user-1",
        "mock|mock-user-1",
      ])
      // The original (provider, sub) with a changed e-mail still resolves to the first user.
      opA.extraClaims = { email: "changed@op.example" }
      const { res } = await fullFlow(config, opA, "mock")
      expectSignedIn(res)
      expect(mem.users.size).toBe(2)
      expect([...mem.accounts.values()].find((a) => a.provider === "mock")?.userId).toBe(firstUser)
    })
  })
})

describe("I6", () => {
  it("I6 no unhandled rejection during the OAuth security tests", async () => {
    await expectNoUnhandled(harness)
  })
})
