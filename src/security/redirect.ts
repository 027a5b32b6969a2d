// callbackUrl resolution and redirect validation: only the app's own origin unless a user `redirect` callback allows more.
import type { AuthRequest, ResolvedConfig } from "../pipeline-types.js"
import { bodyString } from "../lib/body-fields.js"

/** Longest callbackUrl considered; longer ones fall back to the base URL (docs/security.md DS-05). */
const MAX_URL_LENGTH = 8192

/**
 * The default `redirect` callback: a path is resolved against the origin, an absolute URL is kept only
 * when it is on the same origin (compared after WHATWG parsing, docs/security.md RD-01/RD-08); anything else is the base URL.
 * @see RFC 9700 §4.11 (no open redirector)
 */
export function defaultRedirect({ url, baseUrl }: { url: string; baseUrl: string }): string {
  if (typeof url !== "string" || url.length > MAX_URL_LENGTH) return baseUrl
  const origin = originOf(baseUrl)
  if (origin === undefined) return baseUrl
  const candidate = url.startsWith("/") ? `${origin}${url}` : url
  const target = parseUrl(candidate)
  if (!target || target.origin !== origin) return baseUrl
  return asLocation(candidate, target)
}

/** The last base URL parsed and its origin (undefined: not an http(s) URL). An app has one base URL or very few. */
let lastBase: { url: string; origin: string | undefined } = { url: "", origin: undefined }

/** The origin of an http(s) base URL, parsed once while the base URL stays the same. */
function originOf(baseUrl: string): string | undefined {
  if (baseUrl !== lastBase.url) lastBase = { url: baseUrl, origin: parseUrl(baseUrl)?.origin }
  return lastBase.origin
}

/**
 * Printable ASCII without spaces or backslashes: safe to send as a Location header unchanged. A backslash is where
 * WHATWG and RFC 3986 parsers disagree (`https://app.example\\@evil.example` is app.example to a browser, evil.example
 * to an RFC 3986 client), so such a URL is sent in its parsed form instead.
 */
const PLAIN_URL = /^[\x21-\x5b\x5d-\x7e]*$/

/** The URL as given when it is plain ASCII (Auth.js returns same-origin URLs as is), else its encoded WHATWG form (docs/security.md RD-06). */
function asLocation(candidate: string, parsed: URL): string {
  return PLAIN_URL.test(candidate) ? candidate : parsed.href
}

function parseUrl(value: string): URL | undefined {
  try {
    const url = new URL(value)
    return url.protocol === "http:" || url.protocol === "https:" ? url : undefined
  } catch {
    return undefined
  }
}

/**
 * Runs the `redirect` callback (user's or default) and checks its result: it must be an http(s) URL or
 * a path; a throw or garbage falls back to the base URL (docs/security.md RD-05). Returns an absolute, encoded URL.
 */
export async function applyRedirect(url: string, req: AuthRequest, config: ResolvedConfig): Promise<string> {
  const baseUrl = req.origin
  const callback = config.callbacks.redirect
  if (!callback) return defaultRedirect({ url, baseUrl })
  let result: unknown
  try {
    result = await callback({ url, baseUrl })
  } catch (error) {
    config.logger.error(error instanceof Error ? error : new Error(String(error)))
    return baseUrl
  }
  if (typeof result !== "string" || result.length > MAX_URL_LENGTH) return baseUrl
  const candidate = result.startsWith("/") ? `${baseUrl}${result}` : result
  const resolved = parseUrl(candidate)
  return resolved ? asLocation(candidate, resolved) : baseUrl
}

/**
 * Where to send the user after this action: body `callbackUrl`, else query `callbackUrl`, else the
 * callback-url cookie (re-validated at use, docs/security.md RD-03), else the origin, each through the redirect callback.
 */
export async function resolveCallbackUrl(req: AuthRequest, config: ResolvedConfig): Promise<string> {
  const candidate =
    bodyString(req, "callbackUrl") ??
    req.query.get("callbackUrl") ??
    req.cookies[config.cookies(req.secure).callbackUrl.name]
  if (candidate === undefined || candidate === null || candidate === "") return req.origin
  return applyRedirect(candidate, req, config)
}

/**
 * The callbackUrl a sign-in request carried (body, else query) when it stays on the app's origin, for a failed
 * sign-in to hand back to the sign-in page: the retry then lands where the first try was going (a credentials form
 * carries it in its body, and no cookie remembers it). Checked by the default rule only, synchronously: the page runs
 * the `redirect` callback on it again when it is asked for. Undefined when none was sent, or it is the origin itself.
 */
export function sentCallbackUrl(req: AuthRequest): string | undefined {
  const candidate = bodyString(req, "callbackUrl") ?? req.query.get("callbackUrl")
  if (!candidate) return undefined
  const url = defaultRedirect({ url: candidate, baseUrl: req.origin })
  return url === req.origin ? undefined : url
}

/** sentCallbackUrl as a query parameter to append (`&callbackUrl=<encoded>`), or "" when there is none. */
export function sentCallbackUrlParam(req: AuthRequest): string {
  const sent = sentCallbackUrl(req)
  return sent === undefined ? "" : `&callbackUrl=${encodeURIComponent(sent)}`
}
