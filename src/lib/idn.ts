// Internationalised domain names in one spelling: to ASCII through the WHATWG URL host parser (UTS #46), and back to
// Unicode with an RFC 3492 punycode decoder, so the Unicode and punycode spellings of one mailbox compare equal.

/** An ASCII DNS label: letters, digits, inner hyphens, at most 63 characters (RFC 1035 §2.3.1, RFC 5890 §2.3.1). */
const ASCII_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/

/**
 * The ASCII (punycode) form of a lower-case domain, or undefined when it is not a valid host name. An ASCII domain
 * without `xn--` labels is returned as it is (it is canonical already, and the URL parser would turn a numeric one
 * into an IPv4 address); anything else goes through the URL host parser, which applies UTS #46 and checks punycode.
 */
export function domainToAscii(domain: string): string | undefined {
  if (/^[\x00-\x7f]*$/.test(domain) && !domain.split(".").some((label) => label.startsWith("xn--"))) return domain
  let host: string
  try {
    host = new URL(`http://${domain}`).hostname
  } catch {
    return undefined
  }
  const labels = host.split(".")
  // A numeric last label means the parser read an IPv4 address: not the name that was written.
  if (/^[0-9]+$/.test(labels.at(-1) ?? "") || !labels.every((label) => ASCII_LABEL.test(label))) return undefined
  return host
}

/** RFC 3492 §5 parameters for IDNA. */
const BASE = 36
const T_MIN = 1
const T_MAX = 26
const SKEW = 38
const DAMP = 700
const INITIAL_BIAS = 72
const INITIAL_N = 128

/** RFC 3492 §6.1 bias adaptation. */
function adapt(delta: number, points: number, first: boolean): number {
  let d = first ? Math.floor(delta / DAMP) : Math.floor(delta / 2)
  d += Math.floor(d / points)
  let k = 0
  while (d > ((BASE - T_MIN) * T_MAX) >> 1) {
    d = Math.floor(d / (BASE - T_MIN))
    k += BASE
  }
  return k + Math.floor(((BASE - T_MIN + 1) * d) / (d + SKEW))
}

/** The value of one punycode digit (a-z = 0..25, 0-9 = 26..35), or BASE when it is none. */
function digitOf(code: number): number {
  if (code >= 0x61 && code <= 0x7a) return code - 0x61
  if (code >= 0x30 && code <= 0x39) return code - 0x30 + 26
  return BASE
}

/** RFC 3492 §6.2: decodes one punycode label (without `xn--`), or undefined when it is malformed. */
function decodePunycode(input: string): string | undefined {
  const delimiter = input.lastIndexOf("-")
  const output: number[] = []
  for (let j = 0; j < Math.max(delimiter, 0); j++) {
    const code = input.charCodeAt(j)
    if (code >= 0x80) return undefined
    output.push(code)
  }
  let n = INITIAL_N
  let i = 0
  let bias = INITIAL_BIAS
  for (let at = delimiter > 0 ? delimiter + 1 : 0; at < input.length; ) {
    const oldI = i
    let w = 1
    for (let k = BASE; ; k += BASE) {
      if (at >= input.length) return undefined
      const digit = digitOf(input.charCodeAt(at++))
      if (digit >= BASE) return undefined
      i += digit * w
      const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias
      if (digit < t) break
      w *= BASE - t
      // Past the last code point nothing valid remains; this also keeps the arithmetic exact.
      if (i > 0x10ffff * (output.length + 1) || w > 0x10ffff * BASE) return undefined
    }
    bias = adapt(i - oldI, output.length + 1, oldI === 0)
    n += Math.floor(i / (output.length + 1))
    i %= output.length + 1
    if (n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return undefined
    output.splice(i, 0, n)
    i++
  }
  return String.fromCodePoint(...output)
}

/**
 * The Unicode form of an ASCII domain (each `xn--` label decoded), or undefined when a label does not decode to a
 * name whose ASCII form is this domain again (so only one Unicode spelling answers for one ASCII domain).
 */
export function domainToUnicode(domain: string): string | undefined {
  if (!domain.split(".").some((label) => label.startsWith("xn--"))) return domain
  const labels: string[] = []
  for (const label of domain.split(".")) {
    if (!label.startsWith("xn--")) {
      labels.push(label)
      continue
    }
    const decoded = decodePunycode(label.slice(4))
    if (decoded === undefined) return undefined
    labels.push(decoded)
  }
  const unicode = labels.join(".")
  return domainToAscii(unicode) === domain ? unicode : undefined
}
