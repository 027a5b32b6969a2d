// Percent-decoding without decodeURIComponent where every escape is an ASCII byte (%00-%7F): a CSRF cookie's `%7C`,
// a form's `%40` and `%3A%2F%2F`. V8's decodeURIComponent walks the whole string in C++ behind a runtime call; this
// copies the plain runs between escapes.

/** The value of one hex digit, or -1. */
function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48
  const lower = c | 0x20
  return lower >= 97 && lower <= 102 ? lower - 87 : -1
}

/**
 * `text` with each `%XX` escape of an ASCII byte replaced by its character: what decodeURIComponent returns for such
 * text. Undefined when an escape is malformed or stands for a byte of 0x80 or more (part of a UTF-8 sequence): the
 * caller hands those to decodeURIComponent, which decodes or refuses them.
 */
export function decodeAsciiEscapes(text: string): string | undefined {
  let at = text.indexOf("%")
  if (at === -1) return text
  let out = ""
  let from = 0
  while (at !== -1) {
    const high = hexDigit(text.charCodeAt(at + 1))
    const low = hexDigit(text.charCodeAt(at + 2))
    if (high < 0 || high > 7 || low < 0) return undefined
    out += text.slice(from, at) + String.fromCharCode(high * 16 + low)
    from = at + 3
    at = text.indexOf("%", from)
  }
  return out + text.slice(from)
}

/** `text` percent-decoded as decodeURIComponent decodes it, or undefined where decodeURIComponent refuses it. */
export function decodePercent(text: string): string | undefined {
  const ascii = decodeAsciiEscapes(text)
  if (ascii !== undefined) return ascii
  try {
    return decodeURIComponent(text)
  } catch {
    return undefined
  }
}
