// Unit tests of merged: the object `{ ...base, ...extra }` makes, own `__proto__` keys included, built without a spread.
import { describe, expect, it } from "vitest"
import { withTimeClaims } from "../jwt/jwe.js"
import { merged } from "./merged.js"

describe("merged", () => {
  it("copies base's own properties, then extra's over them, in the order a spread gives", () => {
    const sym = Symbol("s")
    const base = { a: 1, b: "two", c: undefined, [sym]: 3 }
    const out = merged(base, { b: "over", d: null })
    expect(out).toEqual({ ...base, b: "over", d: null })
    expect(Reflect.ownKeys(out)).toEqual(Reflect.ownKeys({ ...base, b: "over", d: null }))
    expect(Object.hasOwn(out, "c")).toBe(true)
    expect(out[sym]).toBe(3)
  })

  it("makes a new object and leaves both inputs as they were", () => {
    const base = { a: 1 }
    const extra = { b: 2 }
    const out = merged(base, extra)
    expect(out).not.toBe(base)
    expect(base).toEqual({ a: 1 })
    expect(extra).toEqual({ b: 2 })
  })

  it("copies a getter's value, not the getter, and skips inherited and non-enumerable properties", () => {
    const base = Object.create(
      { inherited: 1 },
      {
        got: { get: () => "value", enumerable: true },
        hidden: { value: 2, enumerable: false },
      },
    ) as Record<string, unknown>
    const out = merged(base, {}) as Record<string, unknown>
    expect(Object.getOwnPropertyDescriptor(out, "got")).toMatchObject({ value: "value", writable: true })
    expect("inherited" in out).toBe(false)
    expect(Object.hasOwn(out, "hidden")).toBe(false)
  })

  it("keeps an own __proto__ key (JSON.parse makes one) as a property: it never becomes the copy's prototype", () => {
    const base = JSON.parse('{"sub":"u1","__proto__":{"admin":true}}') as Record<string, unknown>
    const out = merged(base, { id: "x" }) as Record<string, unknown>
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(out.admin).toBeUndefined()
    expect(Object.hasOwn(out, "__proto__")).toBe(true)
    expect(Object.getOwnPropertyDescriptor(out, "__proto__")?.value).toEqual({ admin: true })
    expect(out.sub).toBe("u1")
    expect(out.id).toBe("x")
  })

  it("a token's __proto__ claim stays a claim when the time claims are added (no inherited admin: true)", () => {
    const token = JSON.parse('{"sub":"u1","__proto__":{"admin":true}}') as Record<string, unknown>
    const claims = withTimeClaims(token, 60, 1_000)
    expect(Object.getPrototypeOf(claims)).toBe(Object.prototype)
    expect(claims.admin).toBeUndefined()
    expect(JSON.parse(JSON.stringify(claims))).toMatchObject({ sub: "u1", iat: 1_000, exp: 1_060 })
    expect(JSON.stringify(claims)).toContain('"__proto__":{"admin":true}')
  })
})
