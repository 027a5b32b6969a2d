// Unit tests of declaredParameters: it must never say a function cannot read an argument it can.
import { describe, expect, it } from "vitest"
import { declaredParameters } from "./parameters.js"

/* eslint-disable @typescript-eslint/no-unused-vars */
describe("declaredParameters", () => {
  it("counts plain, destructured and defaulted parameters", () => {
    expect(declaredParameters(async () => null)).toBe(0)
    expect(declaredParameters(() => null)).toBe(0)
    expect(declaredParameters((c: unknown) => c)).toBe(1)
    expect(declaredParameters(async (c: unknown) => c)).toBe(1)
    expect(declaredParameters(async ({ a, b }: { a: 1; b: 2 }) => a + b)).toBe(1)
    expect(declaredParameters((c = { x: "(,)" }) => c)).toBe(1)
    expect(declaredParameters((c: unknown, r: unknown) => [c, r])).toBe(2)
    expect(declaredParameters((c: unknown, r = "a,b") => [c, r])).toBe(2)
    expect(
      declaredParameters(async function authorize(c: unknown, r: unknown) {
        return [c, r]
      }),
    ).toBe(2)
    expect(
      declaredParameters(
        {
          authorize(c: unknown) {
            return c
          },
        }.authorize,
      ),
    ).toBe(1)
  })

  it("rest parameters and unreadable sources count as unbounded", () => {
    expect(declaredParameters((...args: unknown[]) => args)).toBe(Infinity)
    expect(declaredParameters(((c: unknown, ...rest: unknown[]) => rest) as never)).toBe(Infinity)
    expect(declaredParameters(Math.max as never)).toBe(Infinity)
    expect(declaredParameters(((c: unknown) => c).bind(null) as never)).toBe(Infinity)
  })
})
