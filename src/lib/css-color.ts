// CSS colour checks shared by the pages and the default e-mail: a theme or provider colour is only ever used when it
// is plain colour syntax, so a hostile value cannot close a rule, add a declaration or load a URL.

/** The colour when it is a hex colour, a bare keyword (`red`, `rebeccapurple`) or rgb()/hsl() of numbers; else undefined. */
export function cssColor(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined
  const v = value.trim()
  if (/^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(v)) return v
  if (/^[a-z]{3,24}$/i.test(v)) return v
  if (/^(?:rgba?|hsla?)\(\s*[-\d.%\s,/]+\)$/i.test(v)) return v
  return undefined
}

/** The colour as `cssColor` checks it, or the fallback. */
export function cssColorOr(value: unknown, fallback: string): string {
  return cssColor(value) ?? fallback
}

/** sRGB channels 0-255 of an opaque hex colour (`#rgb` or `#rrggbb`); undefined for anything else. */
function hexChannels(color: string): [number, number, number] | undefined {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color)
  if (!m) return undefined
  const hex = (m[1] as string).length === 3 ? [...(m[1] as string)].map((c) => c + c).join("") : (m[1] as string)
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number]
}

/** @see https://www.w3.org/TR/WCAG21/#dfn-relative-luminance */
function luminance([r, g, b]: [number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
}

/**
 * The WCAG contrast ratio of two opaque hex colours (1 to 21), or undefined when either is not one (a keyword or
 * rgb() is not judged). @see https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio
 */
export function contrastRatio(a: string, b: string): number | undefined {
  const ca = hexChannels(a)
  const cb = hexChannels(b)
  if (!ca || !cb) return undefined
  const [hi, lo] = [luminance(ca), luminance(cb)].sort((x, y) => y - x) as [number, number]
  return (hi + 0.05) / (lo + 0.05)
}
