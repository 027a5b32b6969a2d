// The two date formats a request writes: a session's `expires` (ISO 8601, as Date.prototype.toISOString) and a cookie's
// `Expires` (the IMF-fixdate of RFC 9110 §5.6.7, as Date.prototype.toUTCString). Node 20's V8 formats both through a
// printf-style formatter: about 7,000 instructions a call (callgrind), a twentieth of a database session read. These
// do the same with integer arithmetic and give the same text for every date from 1970 to 9999; any other date (and an
// invalid one) goes to the built-in method, so its result and its errors are the built-in's.

/** The first millisecond of the year 10000: four-digit years end there. */
const YEAR_10000 = 253_402_300_800_000
const DAY_MS = 86_400_000

const TWO_DIGITS: readonly string[] = Array.from({ length: 100 }, (_, i) => (i < 10 ? `0${i}` : `${i}`))
const WEEKDAYS = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"] as const // 1970-01-01 was a Thursday
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const

interface Civil {
  year: number
  /** 1–12 */
  month: number
  day: number
  /** Days since 1970-01-01. */
  days: number
  /** Milliseconds since midnight. */
  time: number
}

/**
 * The UTC calendar date of `ms` (0 <= ms < YEAR_10000): the days-to-civil conversion over 400-year eras that begin on
 * 1 March (Howard Hinnant's "chrono-compatible low-level date algorithms").
 */
function civil(ms: number): Civil {
  const days = Math.floor(ms / DAY_MS)
  const z = days + 719_468 // days since 0000-03-01
  const era = Math.floor(z / 146_097)
  const dayOfEra = z - era * 146_097
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  )
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const shifted = Math.floor((5 * dayOfYear + 2) / 153) // 0 = March
  const month = shifted < 10 ? shifted + 3 : shifted - 9
  return {
    year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0),
    month,
    day: dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1,
    days,
    time: ms - days * DAY_MS,
  }
}

/** `hh:mm:ss` of a time of day in milliseconds. */
function clock(time: number): string {
  const seconds = Math.floor(time / 1000)
  return `${TWO_DIGITS[Math.floor(seconds / 3600)]}:${TWO_DIGITS[Math.floor(seconds / 60) % 60]}:${TWO_DIGITS[seconds % 60]}`
}

/** The last day isoDate wrote, and its `YYYY-MM-DDT`: the expiry dates of one server's sessions share a few days. */
let isoDay = { days: Number.NaN, text: "" }

/** Date.prototype.toISOString of a Date or a time value: `2026-11-28T01:02:03.004Z`. */
export function isoDate(date: Date | number): string {
  const ms = typeof date === "number" ? date : date.getTime()
  if (!(ms >= 0 && ms < YEAR_10000)) return (typeof date === "number" ? new Date(date) : date).toISOString()
  const days = Math.floor(ms / DAY_MS)
  if (days !== isoDay.days) {
    const c = civil(ms)
    isoDay = { days, text: `${c.year}-${TWO_DIGITS[c.month]}-${TWO_DIGITS[c.day]}T` }
  }
  const time = ms - days * DAY_MS
  const milli = time % 1000
  return `${isoDay.text}${clock(time)}.${milli < 10 ? "00" : milli < 100 ? "0" : ""}${milli}Z`
}

/** Date.prototype.toUTCString of a Date: `Sat, 28 Nov 2026 01:02:03 GMT`, the form a cookie's Expires takes. */
export function httpDate(date: Date): string {
  const ms = date.getTime()
  if (!(ms >= 0 && ms < YEAR_10000)) return date.toUTCString()
  const c = civil(ms)
  return `${WEEKDAYS[c.days % 7]}, ${TWO_DIGITS[c.day]} ${MONTHS[c.month - 1]} ${c.year} ${clock(c.time)} GMT`
}
