// Unit tests of the pooled CSPRNG: views never overlap or repeat, and earlier views survive a refill.
import { describe, expect, it } from "vitest"
import { randomBytesPooled } from "./random.js"

describe("randomBytesPooled", () => {
  it("hands out distinct, non-overlapping bytes across refills and keeps earlier views intact", () => {
    const first = randomBytesPooled(32)
    const copy = Buffer.from(first)
    const seen = new Set<string>([copy.toString("hex")])
    for (let i = 0; i < 1000; i++) seen.add(randomBytesPooled(32).toString("hex"))
    expect(seen.size).toBe(1001)
    expect(first.equals(copy)).toBe(true)
  })

  it("serves sizes larger than the pool directly", () => {
    expect(randomBytesPooled(10_000)).toHaveLength(10_000)
  })
})
