// Set-Cookie parsing for the tests, as a browser applies it: every header in order, the final state per name,
// deletions (empty value, Max-Age <= 0, Expires in the past), and the session cookie or chunks a response leaves.
import { expect } from "vitest"
import { type ParsedCookie, parseSetCookie } from "./set-cookie.js"

export { type ParsedCookie, parseSetCookie } from "./set-cookie.js"

/** All Set-Cookie headers in order (a name may occur twice: deletion then re-set). */
export function setCookieList(res: Response): ParsedCookie[] {
  return res.headers.getSetCookie().map(parseSetCookie)
}

/** The final state of each cookie name after applying the response's Set-Cookie headers in order. */
export function setCookies(res: Response): Map<string, ParsedCookie> {
  const out = new Map<string, ParsedCookie>()
  for (const c of setCookieList(res)) out.set(c.name, c)
  return out
}

/** True when the Set-Cookie removes the cookie: an empty value, Max-Age <= 0 or Expires in the past. */
export function isDeletion(c: ParsedCookie): boolean {
  if (c.value === "") return true
  const maxAge = c.attrs["max-age"]
  if (typeof maxAge === "string" && Number(maxAge) <= 0) return true
  const expires = c.attrs["expires"]
  return typeof expires === "string" && Date.parse(expires) <= Date.now()
}

export function isSessionCookieName(name: string): boolean {
  return /^(__Secure-)?authjs\.session-token(\..+)?$/.test(name)
}

/** Session cookies (or chunks) that the response leaves in the browser with a value. */
export function sessionCookiesSet(res: Response): ParsedCookie[] {
  return [...setCookies(res).values()].filter((c) => isSessionCookieName(c.name) && !isDeletion(c))
}

/** The names of the session cookies (or chunks) the response leaves in the browser. */
export function sessionCookieNames(res: Response): string[] {
  return sessionCookiesSet(res).map((c) => c.name)
}

/** Session cookies (or chunks) the response expires. */
export function sessionCookiesCleared(res: Response): ParsedCookie[] {
  return [...setCookies(res).values()].filter((c) => isSessionCookieName(c.name) && isDeletion(c))
}

/** I1: a failed request never sets a session cookie. */
export function expectNoSessionCookie(res: Response): void {
  expect(sessionCookieNames(res)).toEqual([])
}

/** Reassembles the session token a browser would hold after `res` (bare or chunked). */
export function sessionTokenFrom(res: Response): string | undefined {
  const set = sessionCookiesSet(res)
  if (set.length === 0) return undefined
  const bare = set.find((c) => !/\.\d+$/.test(c.name))
  if (bare) return bare.value
  return set
    .map((c) => ({ i: Number(c.name.slice(c.name.lastIndexOf(".") + 1)), v: c.value }))
    .sort((a, b) => a.i - b.i)
    .map((x) => x.v)
    .join("")
}

/** A browser-like cookie jar: remembers Set-Cookie, drops cookies with Max-Age=0 or an empty value. */
export class CookieJar {
  readonly cookies = new Map<string, string>()
  store(res: Response): void {
    for (const [name, c] of setCookies(res)) {
      if (c.attrs["max-age"] === "0" || c.value === "") this.cookies.delete(name)
      else this.cookies.set(name, encodeURIComponent(c.value))
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ")
  }
}
