import { describe, expect, it } from "vitest"
import { httpDate, isoDate } from "./dates.js"

const YEAR_10000 = Date.UTC(10000, 0, 1)
const DAY_MS = 86_400_000

/** Dates where a calendar conversion goes wrong first: month and year ends, leap days, century years. */
function edgeDates(): number[] {
  const out = [0, 1, 999, 1000, DAY_MS - 1, YEAR_10000 - 1]
  for (const year of [1970, 1971, 1972, 1999, 2000, 2001, 2024, 2038, 2100, 2400, 9999]) {
    for (let month = 0; month < 12; month++) {
      const first = Date.UTC(year, month, 1)
      out.push(first, first - 1, first + 1, first + 43_200_000 + 61_001)
    }
    out.push(Date.UTC(year, 1, 28, 23, 59, 59, 999), Date.UTC(year, 1, 29), Date.UTC(year, 11, 31, 23, 59, 59, 999))
  }
  return out.filter((ms) => ms >= 0 && ms < YEAR_10000)
}

/** A fixed pseudo-random sequence (xorshift), so a failure names the same dates on every run. */
function* sampleDates(count: number): Generator<number> {
  let x = 0x2545f491
  for (let i = 0; i < count; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    const unit = (x >>> 0) / 2 ** 32
    // Half over the whole range, half over the next century (where sessions and cookies expire).
    yield i % 2 ? Math.floor(unit * YEAR_10000) : Date.UTC(2000, 0, 1) + Math.floor(unit * 100 * 365.25 * DAY_MS)
  }
}

describe("isoDate and httpDate: the built-in Date formats without the built-in formatter", () => {
  it("match toISOString and toUTCString on month, year, leap-day and century edges from 1970 to 9999", () => {
    for (const ms of edgeDates()) {
      const date = new Date(ms)
      expect([ms, isoDate(date), isoDate(ms), httpDate(date)]).toEqual([
        ms,
        date.toISOString(),
        date.toISOString(),
        date.toUTCString(),
      ])
    }
  })

  it("match them on 20,000 dates spread over the range", () => {
    const wrong: string[] = []
    for (const ms of sampleDates(20_000)) {
      const date = new Date(ms)
      if (isoDate(date) !== date.toISOString() || httpDate(date) !== date.toUTCString()) wrong.push(date.toISOString())
    }
    expect(wrong).toEqual([])
  })

  it("leave dates before 1970 and after 9999 to the built-in methods, which give the same text", () => {
    for (const ms of [-1, -86_400_001, Date.UTC(1969, 11, 31, 23, 59, 59), Date.UTC(-50, 0, 1), YEAR_10000, 8.64e15]) {
      const date = new Date(ms)
      expect([isoDate(date), isoDate(ms), httpDate(date)]).toEqual([
        date.toISOString(),
        date.toISOString(),
        date.toUTCString(),
      ])
    }
    expect(isoDate(YEAR_10000)).toBe("+010000-01-01T00:00:00.000Z")
  })

  it("throw the built-in RangeError for an invalid date, and give 'Invalid Date' as a cookie date", () => {
    expect(() => isoDate(new Date(Number.NaN))).toThrow(RangeError)
    expect(() => isoDate(Number.NaN)).toThrow(RangeError)
    expect(httpDate(new Date(Number.NaN))).toBe("Invalid Date")
  })
})
