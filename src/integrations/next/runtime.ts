// What gatehouse/next needs of Next at run time: next/* modules imported lazily (so the entry loads without next
// installed), the request's headers as a session source, and cookies written through next/headers.
import type { ArrivalOrigin, HeaderReader } from "../../request/input.js"
import type { Cookie, CookieSerializeOptions } from "../../types.js"
import type { SessionSource } from "../session-read.js"

type NextHeadersModule = typeof import("next/headers.js")
type NextNavigationModule = typeof import("next/navigation.js")
type NextServerModule = typeof import("next/server.js")

let headersModule: Promise<NextHeadersModule> | undefined
let navigationModule: Promise<NextNavigationModule> | undefined
let serverModule: Promise<NextServerModule> | undefined

/** next/headers, imported on first use. */
function nextHeaders(): Promise<NextHeadersModule> {
  return (headersModule ??= import("next/headers.js"))
}

/** next/navigation, imported on first use. */
export function nextNavigation(): Promise<NextNavigationModule> {
  return (navigationModule ??= import("next/navigation.js"))
}

/** next/server, imported on first use. */
export function nextServer(): Promise<NextServerModule> {
  return (serverModule ??= import("next/server.js"))
}

/** Only http and https; Next itself derives a request URL's scheme the same way (X-Forwarded-Proto contains https). */
function protocolOf(header: HeaderReader): "http:" | "https:" {
  return header.get("x-forwarded-proto")?.includes("https") ? "https:" : "http:"
}

const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~]+)(?::[0-9]{1,5})?$/

/** The origin a request arrived on, from its headers as Next passes them on (Host, X-Forwarded-Proto). */
function arrivalFromHeaders(header: HeaderReader): ArrivalOrigin {
  const protocol = protocolOf(header)
  const hostHeader = header.get("host")
  const host = hostHeader !== null && HOST.test(hostHeader) ? hostHeader : "localhost"
  return { protocol, host, origin: `${protocol}//${host}` }
}

/** The session source of the current request in a server component, route handler or server action. */
export async function currentRequestSource(): Promise<SessionSource> {
  const { headers } = await nextHeaders()
  const header = await headers()
  return { url: arrivalFromHeaders(header), header, headers: () => new Headers(header) }
}

/** The session source of a web Request (middleware/proxy, a wrapped route handler). */
export function requestSource(request: Request): SessionSource {
  let url: URL
  try {
    url = new URL(request.url)
  } catch {
    url = new URL("http://localhost/")
  }
  return {
    url: { protocol: url.protocol, host: url.host, origin: url.origin },
    header: request.headers,
    headers: () => request.headers,
  }
}

/** A Set-Cookie value as Gatehouse writes it (cookies/policy.ts serializeCookie), read back into name, value, options. */
function parseSetCookie(setCookie: string): Cookie | undefined {
  const [pair = "", ...attributes] = setCookie.split(";")
  const eq = pair.indexOf("=")
  if (eq <= 0) return undefined
  const name = pair.slice(0, eq).trim()
  let value = pair.slice(eq + 1).trim()
  try {
    value = decodeURIComponent(value)
  } catch {
    // kept as sent
  }
  const options: CookieSerializeOptions = {}
  for (const attribute of attributes) {
    const [key = "", ...rest] = attribute.split("=")
    const val = rest.join("=").trim()
    switch (key.trim().toLowerCase()) {
      case "max-age":
        options.maxAge = Number(val)
        break
      case "domain":
        options.domain = val
        break
      case "path":
        options.path = val
        break
      case "expires":
        options.expires = new Date(val)
        break
      case "httponly":
        options.httpOnly = true
        break
      case "secure":
        options.secure = true
        break
      case "partitioned":
        options.partitioned = true
        break
      case "samesite": {
        const lower = val.toLowerCase()
        if (lower === "lax" || lower === "strict" || lower === "none") options.sameSite = lower
        break
      }
    }
  }
  return { name, value, options }
}

/**
 * Sets cookies through next/headers `cookies()`. Next allows that in server actions and route handlers only; in a
 * server component it throws, and the cookies are dropped there (as next-auth does): the next request re-issues them.
 */
export async function setCookies(cookies: readonly Cookie[]): Promise<void> {
  if (cookies.length === 0) return
  const { cookies: cookieStore } = await nextHeaders()
  const jar = await cookieStore()
  try {
    for (const { name, value, options } of cookies) jar.set(name, value, options)
  } catch {
    // A server component: Next forbids setting cookies while rendering.
  }
}

/** `setCookies` for serialized Set-Cookie values (what a server-side session read returns). */
export function setSerializedCookies(values: readonly string[]): Promise<void> {
  return setCookies(values.map(parseSetCookie).filter((c): c is Cookie => c !== undefined))
}
