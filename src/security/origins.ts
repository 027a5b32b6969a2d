// Trusted deployment origins (`trustedOrigins` / AUTH_TRUSTED_ORIGINS): where the redirect proxy may forward an
// authorization response. Patterns are exact origins, or a `*.` wildcard standing for exactly one DNS label.
import { UntrustedHost } from "../errors.js"

/** A compiled pattern: scheme and port must equal; the host equals, or is one label under the wildcard's suffix. */
interface OriginPattern {
  protocol: string
  port: string
  host: string
  wildcard: boolean
}

function compile(pattern: string): OriginPattern | undefined {
  const wildcard = /^(https?:\/\/)\*\.(.+)$/i.exec(pattern.trim())
  let url: URL
  try {
    url = new URL(wildcard ? `${wildcard[1]}${wildcard[2]}` : pattern.trim())
  } catch {
    return undefined
  }
  if (
    (url.protocol !== "https:" && url.protocol !== "http:") ||
    url.pathname !== "/" ||
    url.search ||
    url.hash ||
    url.username ||
    url.password
  )
    return undefined
  // A wildcard directly under a public suffix-like single label ("*.com") would trust the world.
  if (wildcard && !url.hostname.includes(".")) return undefined
  return { protocol: url.protocol, port: url.port, host: url.hostname, wildcard: wildcard !== null }
}

function matches(pattern: OriginPattern, origin: URL): boolean {
  if (origin.protocol !== pattern.protocol || origin.port !== pattern.port) return false
  if (!pattern.wildcard) return origin.hostname === pattern.host
  const suffix = `.${pattern.host}`
  if (!origin.hostname.endsWith(suffix)) return false
  const label = origin.hostname.slice(0, -suffix.length)
  return label !== "" && !label.includes(".")
}

/**
 * A predicate for the configured trusted origins; throws UntrustedHost naming the first pattern that is not an
 * origin (the config check reports it as the config's error). Hosts are compared after WHATWG URL parsing, so
 * case, a trailing dot and IDN spellings cannot slip past.
 */
export function trustedOriginMatcher(patterns: readonly string[]): (origin: string) => boolean {
  const compiled = patterns.map((pattern, i) => {
    const c = compile(pattern)
    if (!c)
      throw new UntrustedHost(
        `trustedOrigins[${i}] ("${pattern}") is not an origin or a "https://*.example.com" pattern.`,
      )
    return c
  })
  return (origin) => {
    let url: URL
    try {
      url = new URL(origin)
    } catch {
      return false
    }
    return compiled.some((p) => matches(p, url))
  }
}
