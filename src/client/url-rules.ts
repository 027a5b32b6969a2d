// The browser client's URL rules, as pure functions: where a sign-in or sign-out may send the page, and which
// basePath is accepted. Pure so the property tests can check them without a browser (test/fuzz/client-url.test.ts).

/** `raw` read against `base` as the browser's URL parser reads it, when it is an http(s) URL; else undefined. */
export function httpUrl(raw: string, base: string): URL | undefined {
  let url: URL
  try {
    url = new URL(raw, base)
  } catch {
    return undefined
  }
  return url.protocol === "http:" || url.protocol === "https:" ? url : undefined
}

/**
 * Where the page may go after a sign-in or sign-out: the URL the server returned (the server checked it; an OAuth
 * sign-in returns the provider's page, so it may be off-origin) when it is http(s); otherwise the caller's target when
 * it is an http(s) URL on the page's own origin; otherwise nowhere (undefined: stay and report). The answer is the
 * parsed href, so the browser navigates to exactly the URL checked here.
 */
export function chooseDestination(
  returned: string | undefined,
  target: string | undefined,
  page: string,
): string | undefined {
  const fromServer = returned === undefined ? undefined : httpUrl(returned, page)
  if (fromServer) return fromServer.href
  const here = httpUrl(page, page)
  const fallback = target === undefined || !here ? undefined : httpUrl(target, page)
  return fallback && fallback.origin === here?.origin ? fallback.href : undefined
}

/**
 * Why `basePath` is not a path on the page's origin, or undefined when it is one. A browser reads `//host`, `/\host`
 * and `\\host` as another host, drops tabs and newlines anywhere (`/\t/host` is `//host`) and trims control
 * characters, so only a string that starts with one "/" and holds no backslash or control character is accepted.
 */
export function basePathProblem(basePath: unknown): string | undefined {
  if (typeof basePath !== "string") return "it is not a string"
  if (!basePath.startsWith("/")) return 'it does not start with "/"'
  if (basePath.startsWith("//")) return 'it starts with "//", which a browser reads as another host'
  if (/[\\\u0000-\u001f\u007f]/.test(basePath))
    return "it holds a backslash or a control character, which a browser may read as another host"
  if (/[?#]/.test(basePath)) return 'it holds "?" or "#", so the route names would land in the query or fragment'
  return undefined
}
