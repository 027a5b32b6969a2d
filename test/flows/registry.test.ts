// The sign-in kind registry (src/flows/registry.ts): every provider type has a kind, config resolution is the one place
// that refuses a type without one, each kind's declared adapter methods are exactly what resolution requires, and the
// browser client's restated start (client/sign-in-start.ts) agrees with the kinds.
import { readdirSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import type { Adapter } from "../../src/adapters/index.js"
import { signInStart } from "../../src/client/sign-in-start.js"
import { resolveConfig } from "../../src/config/resolve.js"
import type { SignInKind } from "../../src/pipeline-types.js"
import { allKinds, kindFor, signInKinds } from "../../src/flows/registry.js"
import type { ProviderConfig, ProviderType } from "../../src/providers/types.js"
import type { AuthConfig } from "../../src/types.js"
import { SECRET } from "../support/flow-kit.js"
import { spyLogger } from "../support/logger.js"

/** Every provider type, as an object so that a type added to ProviderType and left out here fails to compile. */
const EVERY_TYPE = {
  credentials: true,
  email: true,
  oauth: true,
  oidc: true,
  webauthn: true,
} as const satisfies Record<ProviderType, true>

/** A minimal provider of each type, valid on its own. */
const PROVIDER: Record<ProviderType, ProviderConfig> = {
  credentials: { id: "credentials", name: "Credentials", type: "credentials", credentials: {}, authorize: () => null },
  email: { id: "email", name: "Email", type: "email", sendVerificationRequest: () => {} },
  oauth: {
    id: "plain",
    name: "Plain",
    type: "oauth",
    clientId: "id",
    clientSecret: "secret",
    authorization: "https://as.example/authorize",
    token: "https://as.example/token",
    userinfo: "https://as.example/userinfo",
  },
  oidc: {
    id: "oidc",
    name: "OIDC",
    type: "oidc",
    clientId: "id",
    clientSecret: "secret",
    issuer: "https://op.example",
  },
  webauthn: { id: "passkey", name: "Passkey", type: "webauthn" },
}

const TYPES = Object.keys(EVERY_TYPE) as ProviderType[]

function config(providers: ProviderConfig[], extra: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    providers,
    session: { strategy: "jwt" },
    experimental: { enableWebAuthn: true },
    logger: spyLogger().logger,
    ...extra,
  }
}

/** A memory adapter without the named methods. */
function adapterWithout(...missing: string[]): Adapter {
  const adapter: Record<string, unknown> = { ...MemoryAdapter() }
  for (const name of missing) delete adapter[name]
  return adapter as Adapter
}

describe("sign-in kind registry", () => {
  it("every provider type has a kind, and the registry serves no other type", () => {
    for (const type of TYPES) expect(kindFor(type), type).toBeDefined()
    expect(Object.keys(signInKinds).sort()).toEqual([...TYPES].sort())
    // OAuth 2 and OpenID Connect are one kind (OIDC is the provider's `oidc` flag; OAuth 1.0a its `oauth1`).
    expect(kindFor("oidc")).toBe(kindFor("oauth"))
    expect(new Set(TYPES.map((t) => kindFor(t))).size).toBe(allKinds.length)
  })

  it("every built-in provider's type has a kind", async () => {
    const dir = new URL("../../src/providers/", import.meta.url)
    const files = readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
    let built = 0
    for (const file of files) {
      const module = (await import(new URL(file, dir).href)) as { default?: unknown }
      if (typeof module.default !== "function") continue
      const options = { clientId: "x", clientSecret: "y", server: "smtp://localhost", from: "a@b.example", apiKey: "k" }
      const provider = (module.default as (o: object) => { type: string })(options)
      expect(kindFor(provider.type), `${file}: ${provider.type}`).toBeDefined()
      built++
    }
    expect(built).toBeGreaterThan(100)
  })

  it("a type no kind serves is refused by config resolution, naming the types (prototype keys included)", () => {
    for (const type of ["saml", "__proto__", "constructor", "toString", undefined]) {
      const resolved = resolveConfig(config([{ id: "odd", name: "Odd", type } as unknown as ProviderConfig]))
      expect(resolved.error?.type, String(type)).toBe("InvalidProvider")
      expect(resolved.error?.message).toContain(`unknown provider type "${String(type)}"`)
      expect(resolved.error?.message).toContain("credentials, email, oauth, oidc, webauthn")
      // Nothing without a kind gets into the resolved config.
      expect(resolved.providers.has("odd")).toBe(false)
    }
  })

  it("each type resolves on its own, to a provider whose kind is its type's", () => {
    for (const type of TYPES) {
      const adapter = signInKinds[type].adapter ? MemoryAdapter() : undefined
      const resolved = resolveConfig(config([PROVIDER[type]], adapter ? { adapter } : {}))
      expect(resolved.error, type).toBeUndefined()
      const provider = resolved.providerList[0]!
      expect(resolved.kindOf(provider), type).toBe(kindFor(type))
    }
  })

  describe("a kind's declared adapter methods are exactly what config resolution requires", () => {
    const withAdapter = TYPES.filter((t): t is ProviderType => signInKinds[t].adapter !== undefined)

    it("the kinds that need an adapter are e-mail and WebAuthn", () => {
      expect(withAdapter).toEqual(["email", "webauthn"])
    })

    for (const type of TYPES) {
      const kind: SignInKind = signInKinds[type]
      const methods = kind.adapter?.methods ?? []

      it(`${type}: no adapter is MissingAdapter exactly when the kind declares methods`, () => {
        const resolved = resolveConfig(config([PROVIDER[type]]))
        if (methods.length) {
          expect(resolved.error?.type).toBe("MissingAdapter")
          expect(resolved.error?.message).toContain(`The ${kind.label} provider "${PROVIDER[type].id}" needs an`)
        } else expect(resolved.error).toBeUndefined()
      })

      it(`${type}: each declared method, left out, is named by MissingAdapterMethods; nothing else is asked for`, () => {
        for (const method of methods) {
          const resolved = resolveConfig(config([PROVIDER[type]], { adapter: adapterWithout(method) }))
          expect(resolved.error?.type, method).toBe("MissingAdapterMethods")
          expect(resolved.error?.message, method).toMatch(new RegExp(`needs: ${method}\\.$`))
        }
        // Every method the kind does not declare may be missing (JWT sessions: the strategy asks for none).
        const undeclared = Object.keys(MemoryAdapter()).filter((m) => !(methods as readonly string[]).includes(m))
        const resolved = resolveConfig(config([PROVIDER[type]], { adapter: adapterWithout(...undeclared) }))
        expect(resolved.error).toBeUndefined()
      })
    }
  })

  it("the browser client starts each type's sign-in where its kind takes it", () => {
    for (const type of TYPES) {
      const kind = signInKinds[type]
      const expected = kind.routes["webauthn-options"] ? "ceremony" : kind.formAction
      expect(signInStart(type), type).toBe(expected)
    }
    // A type the client does not know posts to /signin/<id>.
    expect(signInStart("something-new")).toBe("signin")
    expect(signInStart("__proto__")).toBe("signin")
  })
})
