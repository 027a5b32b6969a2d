// gatehouse/v4/adapters against next-auth 4.24.15's `next-auth/adapters`: every method a v4 adapter may have is one
// Gatehouse's Adapter declares (so @next-auth/*-adapter objects pass unchanged), the ones Gatehouse adds are only for
// WebAuthn, and a v4-style adapter (createUser without an id, v4's return types) type-checks as gatehouse/v4/adapters'
// Adapter. The method lists are read from the two declaration files.
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { describe, expect, it } from "vitest"
import type {
  Adapter,
  AdapterAccount,
  AdapterSession,
  AdapterUser,
  VerificationToken,
} from "../../src/integrations/next-v4/adapters.js"

const require = createRequire(import.meta.url)
const v4Declarations = readFileSync(join(dirname(dirname(require.resolve("next-auth/jwt"))), "adapters.d.ts"), "utf8")
const ours = readFileSync(new URL("../../src/adapters/index.ts", import.meta.url), "utf8")

/** The member names of `interface Adapter { … }` in a declaration text. */
function adapterMethods(text: string): string[] {
  const start = text.indexOf("interface Adapter {")
  expect(start, "interface Adapter").toBeGreaterThan(-1)
  let depth = 0
  let end = start
  for (let i = text.indexOf("{", start); i < text.length; i++) {
    if (text[i] === "{") depth++
    else if (text[i] === "}" && --depth === 0) {
      end = i
      break
    }
  }
  const body = text.slice(text.indexOf("{", start) + 1, end)
  return [...body.matchAll(/^ {2,4}(\w+)\?[:(]/gm)].map((m) => m[1]!).sort()
}

describe("gatehouse/v4/adapters", () => {
  it("declares every method of next-auth 4's Adapter; the extra ones are WebAuthn's", () => {
    const v4 = adapterMethods(v4Declarations)
    const gatehouse = adapterMethods(ours)
    expect(v4).toHaveLength(14)
    expect(v4.filter((m) => !gatehouse.includes(m))).toEqual([])
    expect(gatehouse.filter((m) => !v4.includes(m))).toEqual([
      "createAuthenticator",
      "deleteAuthenticator",
      "getAccount",
      "getAuthenticator",
      "listAuthenticatorsByUserId",
      "updateAuthenticatorCounter",
    ])
  })

  it("a next-auth 4 style adapter is an Adapter as it stands", async () => {
    const users = new Map<string, AdapterUser>()
    // As v4 adapters write createUser: the user without an id, the id chosen by the store.
    const createUser = async (user: Omit<AdapterUser, "id">): Promise<AdapterUser> => {
      const created = { ...user, id: `db-${users.size + 1}` }
      users.set(created.id, created)
      return created
    }
    const linkAccount = async (account: AdapterAccount): Promise<AdapterAccount | null | undefined> => account
    const createSession = (session: AdapterSession) => session
    const createVerificationToken = (token: VerificationToken) => token
    const adapter: Adapter = {
      createUser,
      getUser: (id) => users.get(id) ?? null,
      linkAccount,
      createSession,
      createVerificationToken,
    }
    const user = await adapter.createUser!({ id: "ignored", email: "a@example.com", emailVerified: null })
    expect(user.id).toBe("db-1")
    expect(await adapter.getUser!("db-1")).toMatchObject({ email: "a@example.com" })
  })
})
