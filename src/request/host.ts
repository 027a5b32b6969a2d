// The origin every URL and cookie policy is built from: AUTH_URL, else trusted forwarded headers, else the request URL.
import { InvalidRequest } from "../errors.js"
import type { ResolvedConfig } from "../pipeline-types.js"
import type { ArrivalOrigin, HeaderReader } from "./input.js"

function firstListValue(value: string | null): string | undefined {
  if (value === null) return undefined
  const comma = value.indexOf(",")
  const first = (comma === -1 ? value : value.slice(0, comma)).trim()
  return first === "" ? undefined : first
}

const HOST = /^[A-Za-z0-9.\-[\]:_]+$/

/**
 * The request's origin and whether cookies are Secure. AUTH_URL (when set; NEXTAUTH_URL or next-auth 4's default
 * origin for the next-auth 4 wire format, config/env.ts v4Origin) wins over every header (docs/security.md HT-02). With
 * `trustHost`, a proxy in front describes the public origin: `X-Forwarded-Host` (first value) replaces the host and
 * `X-Forwarded-Proto` (first value) may upgrade the scheme to https, with or without a forwarded host, but never
 * downgrades one (docs/security.md HT-03). Otherwise the request URL.
 */
export function resolveOrigin(
  url: ArrivalOrigin,
  headers: HeaderReader,
  config: ResolvedConfig,
): { origin: string; secure: boolean } {
  let origin: string
  if (config.canonicalUrl) {
    origin = config.canonicalUrl.origin
  } else if (!config.trustHost) {
    origin = url.origin
  } else {
    const forwardedHost = firstListValue(headers.get("x-forwarded-host"))
    const forwardedProto = firstListValue(headers.get("x-forwarded-proto"))?.toLowerCase()
    // next-auth 4 takes https unless the proxy says http; an https arrival is never downgraded in either format.
    const upgrade = config.wire === "next-auth-v4" ? forwardedProto !== "http" : forwardedProto === "https"
    const protocol = url.protocol === "https:" || upgrade ? "https:" : url.protocol
    if (forwardedHost === undefined) {
      origin = protocol === url.protocol ? url.origin : `${protocol}//${url.host}`
    } else {
      if (!HOST.test(forwardedHost)) throw new InvalidRequest("X-Forwarded-Host is not a valid host.")
      try {
        origin = new URL(`${protocol}//${forwardedHost}`).origin
      } catch {
        throw new InvalidRequest("X-Forwarded-Host is not a valid host.")
      }
    }
  }
  const secure = config.useSecureCookies ?? origin.startsWith("https:")
  return { origin, secure }
}
