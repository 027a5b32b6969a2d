// application/x-www-form-urlencoded bodies read into a field record (the first value of each name) and the names sent
// more than once, as URLSearchParams reads them, without building a URLSearchParams on the sign-in path.
import { decodePercent } from "../lib/percent.js"

/** Field names a body record never takes (prototype pollution). */
export const UNSAFE_FIELD_NAMES: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"])

/** A form body's fields: the first value of each name, and each name sent again, in the order of its second showing. */
export interface FormFields {
  readonly fields: Record<string, string>
  readonly repeated: string[]
}

/**
 * One name or value as the urlencoded parser decodes it: `+` is a space, then percent-decoding as UTF-8. Undefined
 * when decodeURIComponent refuses the percent sequences (a stray `%`, bytes that are not UTF-8), where URLSearchParams
 * keeps them as they are or writes U+FFFD: the caller then reads the whole body with URLSearchParams.
 */
function decodeComponent(raw: string): string | undefined {
  const spaced = raw.includes("+") ? raw.replaceAll("+", " ") : raw
  return spaced.includes("%") ? decodePercent(spaced) : spaced
}

/** The fields of `form`, collected as the body record keeps them (unsafe names skipped, the first value kept). */
export function formFieldsOf(entries: Iterable<[string, string]>): FormFields {
  const fields: Record<string, string> = {}
  const repeated: string[] = []
  for (const [name, value] of entries) add(fields, repeated, name, value)
  return { fields, repeated }
}

function add(fields: Record<string, string>, repeated: string[], name: string, value: string): void {
  if (Object.hasOwn(fields, name)) repeated.push(name)
  else if (!UNSAFE_FIELD_NAMES.has(name)) fields[name] = value
}

/**
 * Reads a urlencoded body (WHATWG URL, "application/x-www-form-urlencoded parsing"): `&`-separated sequences, empty
 * ones skipped, each split at its first `=`. The result is what `new URLSearchParams(text)` gives: a body that only
 * URLSearchParams reads as it does (a leading `?`, which the constructor drops; percent sequences decodeURIComponent
 * refuses) is read by it.
 */
export function readFormFields(text: string): FormFields {
  if (text.charCodeAt(0) === 63 /* ? */) return formFieldsOf(new URLSearchParams(text))
  const fields: Record<string, string> = {}
  const repeated: string[] = []
  let start = 0
  while (start < text.length) {
    let end = text.indexOf("&", start)
    if (end === -1) end = text.length
    if (end > start) {
      const eq = text.indexOf("=", start)
      const split = eq !== -1 && eq < end
      const name = decodeComponent(text.slice(start, split ? eq : end))
      const value = split ? decodeComponent(text.slice(eq + 1, end)) : ""
      if (name === undefined || value === undefined) return formFieldsOf(new URLSearchParams(text))
      add(fields, repeated, name, value)
    }
    start = end + 1
  }
  return { fields, repeated }
}
