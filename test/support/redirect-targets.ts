// Where a response would send the browser: a Location or page attribute resolved the way a browser does, and every
// URL-ish attribute of an HTML page, unescaped (security group D, redirects and callbackUrl).

/** Resolves a Location / attribute value the way a browser would (WHATWG URL against the page). */
export function resolvesTo(value: string, base: string): URL | null {
  try {
    return new URL(value, base)
  } catch {
    return null
  }
}

export function htmlUnescape(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&amp;/g, "&")
}

/** Every href/action/src/formaction/value attribute in an HTML page, unescaped. */
export function htmlAttributeValues(html: string): { name: string; value: string }[] {
  const out: { name: string; value: string }[] = []
  const re = /\s(href|action|src|formaction|value|content)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi
  for (let m = re.exec(html); m; m = re.exec(html))
    out.push({ name: m[1]!.toLowerCase(), value: htmlUnescape(m[2] ?? m[3] ?? "") })
  return out
}
