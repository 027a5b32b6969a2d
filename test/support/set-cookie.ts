// One Set-Cookie header parsed as a browser reads it, without vitest: shared by the tests and the stress harness.

export interface ParsedCookie {
  name: string
  value: string
  raw: string
  attrs: Record<string, string | true>
}

/** One Set-Cookie header; the value is percent-decoded when it decodes (kept as sent when it does not). */
export function parseSetCookie(raw: string): ParsedCookie {
  const [pair = "", ...rest] = raw.split(";")
  const eq = pair.indexOf("=")
  const name = pair.slice(0, eq).trim()
  let value = pair.slice(eq + 1).trim()
  try {
    value = decodeURIComponent(value)
  } catch {
    /* keep as sent */
  }
  const attrs: Record<string, string | true> = {}
  for (const part of rest) {
    const i = part.indexOf("=")
    if (i === -1) attrs[part.trim().toLowerCase()] = true
    else attrs[part.slice(0, i).trim().toLowerCase()] = part.slice(i + 1).trim()
  }
  return { name, value, raw, attrs }
}
