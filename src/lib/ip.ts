// IP address literals without node:net: which family a string spells, for the client-address rules and the rate-limit
// keys. Same answers as node:net's isIP (src/lib/ip.test.ts compares the two), so it runs on Edge and workerd too.

/** Whether text[start, end) is a dotted-quad IPv4 address: four decimal octets 0–255, no leading zeros. */
function isIPv4Range(text: string, start: number, end: number): boolean {
  let octets = 0
  let i = start
  while (octets < 4) {
    const first = i
    let value = 0
    while (i < end) {
      const code = text.charCodeAt(i)
      if (code < 48 || code > 57) break
      value = value * 10 + (code - 48)
      i++
    }
    const digits = i - first
    if (digits === 0 || digits > 3 || value > 255 || (digits > 1 && text.charCodeAt(first) === 48)) return false
    octets++
    if (octets < 4) {
      if (i >= end || text.charCodeAt(i) !== 46 /* . */) return false
      i++
    }
  }
  return i === end
}

/** Whether text[start, end) is one to four hex digits. */
function isHexGroup(text: string, start: number, end: number): boolean {
  const length = end - start
  if (length < 1 || length > 4) return false
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i)
    const lower = code | 0x20 // A-F to a-f
    if (!((code >= 48 && code <= 57) || (lower >= 97 && lower <= 102))) return false
  }
  return true
}

/**
 * The number of 16-bit groups that the colon-separated groups in text[start, end) spell (an IPv4 tail counts two,
 * and is allowed only when `v4Tail`), or -1 when one of them is malformed. An empty range has no groups.
 */
function groupCount(text: string, start: number, end: number, v4Tail: boolean): number {
  if (start === end) return 0
  let count = 0
  let groupStart = start
  for (;;) {
    const colon = text.indexOf(":", groupStart)
    const groupEnd = colon === -1 || colon >= end ? end : colon
    if (groupEnd === end && v4Tail && text.lastIndexOf(".", end - 1) >= groupStart) {
      if (!isIPv4Range(text, groupStart, end)) return -1
      return count + 2
    }
    if (!isHexGroup(text, groupStart, groupEnd)) return -1
    count++
    if (groupEnd === end) return count
    groupStart = groupEnd + 1
  }
}

/** Whether a zone id (after the `%`) is made only of letters, digits, `-`, `.` and `:`, and is not empty. */
function isZone(text: string, start: number): boolean {
  if (start >= text.length) return false
  for (let i = start; i < text.length; i++) {
    const code = text.charCodeAt(i)
    const lower = code | 0x20
    const ok =
      (code >= 48 && code <= 58) /* 0-9 : */ || (lower >= 97 && lower <= 122) || code === 45 /* - */ || code === 46
    if (!ok) return false
  }
  return true
}

/** Whether text is an IPv6 address (RFC 4291 §2.2 text forms, with an optional `%zone`). */
function isIPv6(text: string): boolean {
  const percent = text.indexOf("%")
  const end = percent === -1 ? text.length : percent
  if (percent !== -1 && !isZone(text, percent + 1)) return false
  const gap = text.indexOf("::")
  if (gap === -1 || gap >= end) return groupCount(text, 0, end, true) === 8
  const after = gap + 2
  if (text.indexOf("::", after) !== -1 && text.indexOf("::", after) < end) return false
  // A third colon right after the gap (":::") leaves an empty group on the right, which groupCount refuses.
  const left = groupCount(text, 0, gap, false)
  if (left === -1) return false
  const right = groupCount(text, after, end, true)
  return right !== -1 && left + right <= 7
}

/** 4 when `text` is an IPv4 address, 6 when it is an IPv6 address (zone id allowed), 0 otherwise. */
export function isIP(text: string): 0 | 4 | 6 {
  if (isIPv4Range(text, 0, text.length)) return 4
  return text.length >= 2 && isIPv6(text) ? 6 : 0
}
