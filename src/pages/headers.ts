// The response headers of a built-in page: its CSP plus the fixed framing, caching and referrer rules; one frozen
// object per distinct (CSP, Vary) pair, built on first use.

/** What every page sends besides its CSP. */
const FIXED: Readonly<Record<string, string>> = Object.freeze({
  "Content-Type": "text/html",
  "Cache-Control": "no-store",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "same-origin",
  "X-Content-Type-Options": "nosniff",
})

const cache = new Map<string, Readonly<Record<string, string>>>()
const MAX_ENTRIES = 64

/**
 * Headers for a page with this CSP. `varyLanguage`: the page's language came from Accept-Language, so shared
 * caches (were one to ignore no-store) must key on it.
 */
export function pageHeaders(csp: string, varyLanguage: boolean): Readonly<Record<string, string>> {
  const key = `${varyLanguage ? "v" : "-"}${csp}`
  let headers = cache.get(key)
  if (!headers) {
    headers = Object.freeze({
      ...FIXED,
      "Content-Security-Policy": csp,
      ...(varyLanguage ? { Vary: "Accept-Language" } : {}),
    })
    if (cache.size >= MAX_ENTRIES) cache.clear()
    cache.set(key, headers)
  }
  return headers
}
