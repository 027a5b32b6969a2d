// Pure Cookie-header parser: first occurrence of a name wins, values percent-decoded when valid, bounded work.

function safeDecode(value: string): string {
  if (value.indexOf("%") === -1) return value
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

/** Parses a Cookie header into a null-prototype record. Linear in the header length. @see RFC 6265 §5.4 */
export function parseCookieHeader(header: string | null): Record<string, string> {
  const out: Record<string, string> = Object.create(null)
  if (!header) return out
  let start = 0
  const length = header.length
  while (start < length) {
    let end = header.indexOf(";", start)
    if (end === -1) end = length
    const eq = header.indexOf("=", start)
    if (eq !== -1 && eq < end) {
      const name = header.slice(start, eq).trim()
      if (name !== "" && !(name in out)) {
        let value = header.slice(eq + 1, end).trim()
        if (value.length >= 2 && value.charCodeAt(0) === 34 && value.charCodeAt(value.length - 1) === 34)
          value = value.slice(1, -1)
        out[name] = safeDecode(value)
      }
    }
    start = end + 1
  }
  return out
}
