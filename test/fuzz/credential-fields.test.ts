// Fuzz (RL-01): the credential-field extraction and the rate-limit key derivation, on bodies parsed as a request
// carries them (forms with repeated keys, JSON with non-strings, prototype keys, extra fields) for any declaration.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { resolveConfig } from "../../src/config/resolve.js"
import type { AuthRequest } from "../../src/pipeline-types.js"
import { credentialInput, declaredCredentialFields } from "../../src/flows/credentials.js"
import { credentialsKind } from "../../src/flows/kinds/credentials.js"
import type { CredentialInput } from "../../src/providers/types.js"
import Credentials from "../../src/providers/credentials.js"
import type { RateLimitStore } from "../../src/rate-limit/index.js"
import { guardRateLimit, normalizeIdentifier } from "../../src/rate-limit/sign-in-limit.js"
import { webInput } from "../../src/request/input.js"
import { parseRequest } from "../../src/request/parse.js"
import { makeConfig } from "../support/flow-kit.js"
import { FUZZ_RUNS, fuzz, fuzzTimeout, wildString } from "./arbitraries.js"

const FILE = "test/fuzz/credential-fields.test.ts"
/** How the credentials kind counts an attempt (its callback's rate-limit rule). */
const counts = credentialsKind.routes.callback.rateLimit!
const identifiersOf = counts.identifiers
const UNSAFE = new Set(["__proto__", "constructor", "prototype"])

/** Field names: the usual ones, the library's own, prototype keys, look-alikes and anything else. */
const fieldName = fc.oneof(
  { arbitrary: fc.constantFrom("email", "username", "password", "otp", "login", "remember"), weight: 6 },
  {
    arbitrary: fc.constantFrom(
      "csrfToken",
      "callbackUrl",
      "__proto__",
      "constructor",
      "prototype",
      "toString",
      "hasOwnProperty",
      "Email",
      "email[]",
      "email ",
    ),
    weight: 3,
  },
  { arbitrary: wildString(6), weight: 1 },
)

/** A declared field's `type`: absent, a string (password in any case), or a signal holding one. */
const fieldType = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom("password", "PASSWORD", "text", "email", "hidden", "checkbox"),
  fc.constantFrom("password", "text").map((value) => ({ value })),
)

/** `credentials`: omitted, `{}`, or up to five fields (own keys, so `__proto__` too) in a random order. */
const declaration = fc
  .oneof(
    { arbitrary: fc.constant(undefined), weight: 1 },
    { arbitrary: fc.constant<[string, unknown][]>([]), weight: 1 },
    {
      arbitrary: fc.uniqueArray(fc.tuple(fieldName, fieldType), { maxLength: 5, selector: ([name]) => name }),
      weight: 6,
    },
  )
  .map((fields): Record<string, CredentialInput> | undefined => {
    if (fields === undefined) return undefined
    const out: Record<string, CredentialInput> = {}
    for (const [name, type] of fields)
      Object.defineProperty(out, name, {
        value: type === undefined ? {} : { type },
        enumerable: true,
        writable: true,
        configurable: true,
      })
    return out
  })

/** A JSON value of any kind (a form can only carry strings; the JSON encoding keeps the rest). */
const fieldValue = fc.oneof(
  {
    arbitrary: fc.oneof(fc.constantFrom("alice", "Alice ", "ALICE", "", " ", "bob@x.test", "on"), wildString(10)),
    weight: 8,
  },
  {
    arbitrary: fc.oneof(
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.string(), { maxLength: 2 }),
      fc.dictionary(fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 }), { maxKeys: 2 }),
    ),
    weight: 2,
  },
)

const entries = fc.array(fc.tuple(fieldName, fieldValue), { maxLength: 10 })

type Entry = [string, unknown]

/** A form body (strings only; repeats kept) or a JSON text written by hand (so repeats and `__proto__` stay). */
function encode(list: readonly Entry[], json: boolean): { type: string; body: string } {
  if (json)
    return {
      type: "application/json",
      body: `{${list.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(",")}}`,
    }
  return {
    type: "application/x-www-form-urlencoded",
    body: new URLSearchParams(list.map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)])).toString(),
  }
}

function providerWith(credentials: Record<string, CredentialInput> | undefined) {
  return Credentials({ ...(credentials === undefined ? {} : { credentials }), authorize: async () => null })
}

/** The identifier field rule, written out independently of the implementation. */
function expectedIdentifierFields(credentials: Record<string, CredentialInput> | undefined): string[] {
  const declared = credentials === undefined ? [] : Object.keys(credentials).filter((k) => !UNSAFE.has(k))
  if (declared.length === 0) return ["email", "username"]
  const isPassword = (spec: CredentialInput): boolean => {
    const type: unknown = spec.type
    const value = typeof type === "object" && type !== null ? (type as { value?: unknown }).value : type
    return typeof value === "string" && value.toLowerCase() === "password"
  }
  const first = declared.find((k) => !isPassword(credentials![k]!))
  return first === undefined ? [] : [first]
}

/** A store that records the keys it is asked to count (never over any limit). */
function recordingStore(): RateLimitStore & { keys: string[] } {
  const store = {
    keys: [] as string[],
    async hit(key: string, windowMs: number) {
      store.keys.push(key)
      return { count: 1, resetAt: Date.now() + windowMs }
    },
    async undo() {},
  }
  return store
}

async function parsed(
  config: ReturnType<typeof resolveConfig>,
  list: readonly Entry[],
  json: boolean,
): Promise<AuthRequest> {
  const { type, body } = encode(list, json)
  const request = new Request("http://localhost:3000/auth/callback/credentials", {
    method: "POST",
    headers: { "content-type": type },
    body,
  })
  return parseRequest(webInput(request), config)
}

describe("fuzz: credential fields and the per-account key (RL-01)", () => {
  it(
    `RL-01 ${FUZZ_RUNS} declarations and bodies: authorize receives only declared string fields (or, with none declared, string fields but csrfToken), never a prototype key`,
    async () => {
      await fuzz(
        FILE,
        fc.asyncProperty(declaration, entries, fc.boolean(), async (credentials, list, json) => {
          const provider = providerWith(credentials)
          const config = resolveConfig(makeConfig({ providers: [provider], rateLimit: false }))
          const req = await parsed(config, list, json)
          const input = credentialInput(req.body, provider)
          const declared = declaredCredentialFields(provider)
          expect(Object.getPrototypeOf(input)).toBe(Object.prototype)
          for (const key of UNSAFE) expect(Object.hasOwn(input, key)).toBe(false)
          for (const [key, value] of Object.entries(input)) {
            expect(typeof value).toBe("string")
            expect(req.body[key]).toBe(value)
            if (declared.length > 0) expect(declared).toContain(key)
            else expect(key).not.toBe("csrfToken")
          }
          // Nothing a declared (or, with none declared, any) string field held is lost.
          for (const [key, value] of Object.entries(req.body)) {
            if (typeof value !== "string" || UNSAFE.has(key)) continue
            const expected = declared.length > 0 ? declared.includes(key) : key !== "csrfToken"
            expect(Object.hasOwn(input, key), key).toBe(expected)
          }
        }),
      )
    },
    fuzzTimeout(2),
  )

  it(
    `RL-01 ${FUZZ_RUNS} declarations and pairs of bodies: the identifier keys depend only on the identifier field (first declared non-password field, or email and username), whatever else changes`,
    async () => {
      await fuzz(
        FILE,
        fc.asyncProperty(declaration, entries, entries, fc.boolean(), async (credentials, list, others, json) => {
          const provider = providerWith(credentials)
          const store = recordingStore()
          const config = resolveConfig(
            makeConfig({ providers: [provider], rateLimit: { store, max: 1_000_000, maxPerAddress: 1_000_000 } }),
          )
          const fields = expectedIdentifierFields(credentials)
          // The same identifier-field entries (in the same order), every other entry replaced by others.
          const kept = list.filter(([key]) => fields.includes(key))
          const changed: Entry[] = [...others.filter(([key]) => !fields.includes(key)), ...kept]
          const a = await parsed(config, list, json)
          const b = await parsed(config, changed, json)

          const identifiers = identifiersOf(a.body, config.providers.get(provider.id)!)
          const expected = [
            ...new Set(
              fields
                .map((f) => (Object.hasOwn(a.body, f) ? normalizeIdentifier(a.body[f]) : undefined))
                .filter((v): v is string => v !== undefined),
            ),
          ]
          expect(identifiers).toEqual(expected)
          expect(identifiersOf(b.body, config.providers.get(provider.id)!)).toEqual(identifiers)

          // The keys the guard counts (HMACs) agree too; a web Request has no client address, so only "id:" keys.
          const keysOf = async (req: AuthRequest) => {
            store.keys.length = 0
            await guardRateLimit(req, config, config.providers.get(provider.id)!, counts)
            return store.keys.filter((k) => k.startsWith("id:"))
          }
          const keysA = await keysOf(a)
          expect(keysA).toHaveLength(identifiers.length)
          expect(await keysOf(b)).toEqual(keysA)
        }),
      )
    },
    fuzzTimeout(3),
  )
})
