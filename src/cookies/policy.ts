// The one cookie policy: names, __Secure-/__Host- prefixes, attributes, per-cookie lifetimes with the user's
// `cookies.<name>` overrides applied, and Set-Cookie serialisation (docs/wire-format.md §3).
import { InvalidEndpoints } from "../errors.js"
import type { WireFormat } from "../pipeline-types.js"
import type { AuthConfig, Cookie, CookieOption, CookiesOptions } from "../types.js"
import { merged } from "../lib/merged.js"
import { httpDate } from "../lib/dates.js"

/** How long the short-lived flow cookies (state, PKCE, nonce, WebAuthn challenge) live unless overridden: 15 minutes, as in Auth.js. */
export const FLOW_COOKIE_MAX_AGE = 900

/**
 * The default cookie names and attributes for a secure (https) or plain origin. The names start `authjs.` (Auth.js v5),
 * or `next-auth.` for next-auth 4's wire format, with the same prefixes and attributes (next-auth 4 has no WebAuthn:
 * its challenge cookie is named after the others).
 */
export function defaultCookies(secure: boolean, wire: WireFormat = "authjs"): CookiesOptions {
  const prefix = secure ? "__Secure-" : ""
  const lib = wire === "next-auth-v4" ? "next-auth" : "authjs"
  const base = { httpOnly: true, sameSite: "lax" as const, path: "/", secure }
  return {
    sessionToken: { name: `${prefix}${lib}.session-token`, options: { ...base } },
    callbackUrl: { name: `${prefix}${lib}.callback-url`, options: { ...base } },
    csrfToken: { name: `${secure ? "__Host-" : ""}${lib}.csrf-token`, options: { ...base } },
    pkceCodeVerifier: { name: `${prefix}${lib}.pkce.code_verifier`, options: { ...base, maxAge: FLOW_COOKIE_MAX_AGE } },
    state: { name: `${prefix}${lib}.state`, options: { ...base, maxAge: FLOW_COOKIE_MAX_AGE } },
    nonce: { name: `${prefix}${lib}.nonce`, options: { ...base } },
    webauthnChallenge: { name: `${prefix}${lib}.challenge`, options: { ...base, maxAge: FLOW_COOKIE_MAX_AGE } },
  }
}

const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/

/** Whether a name is a cookie-name token (RFC 6265 §4.1.1), i.e. one a Set-Cookie can carry. */
export function isCookieName(name: string): boolean {
  return COOKIE_NAME.test(name)
}

/** Characters encodeURIComponent leaves as they are: a value made only of these (a JWE, a hex token) needs no encoding. */
const UNRESERVED = /^[A-Za-z0-9\-_.!~*'()]*$/

/** `Expires` dates repeat within a second on a busy server: the last one is kept formatted. */
let lastExpires = { seconds: Number.NaN, text: "" }
function expiresText(date: Date): string {
  const seconds = Math.floor(date.valueOf() / 1000)
  if (seconds !== lastExpires.seconds) lastExpires = { seconds, text: httpDate(date) }
  return lastExpires.text
}

/**
 * The last value known to need no encoding: the session token the built-in encoder just made, a JWE in compact form
 * (base64url parts joined by dots). serializeCookie skips its check for exactly that string, so a sign-in does not pass
 * a regular expression over the token's 500+ characters. Any other value, this token's chunks included, is checked.
 */
let knownUrlSafe = ""

/** Notes that `value` is made only of characters encodeURIComponent leaves as they are. */
export function markUrlSafe(value: string): void {
  knownUrlSafe = value
}

/**
 * Serialises one cookie in the attribute order Auth.js uses: Max-Age; Domain; Path; Expires; HttpOnly; Secure;
 * Partitioned; SameSite.
 */
export function serializeCookie(cookie: Cookie): string {
  const { name, value, options } = cookie
  // Names come only from the config (`cookies.<name>.name`): a bad one is a configuration error, typed as Auth.js's
  // configuration errors are (it answers `?error=Configuration`), never a raw TypeError.
  if (!COOKIE_NAME.test(name)) {
    throw new InvalidEndpoints(
      `invalid cookie name ${JSON.stringify(name)}: set \`cookies.<cookie>.name\` to an RFC 6265 token (letters, digits and !#$%&'*+-.^_\`|~).`,
    )
  }
  // The marked token is let go of once it is used: the module keeps no session token past its response.
  const marked = value === knownUrlSafe
  if (marked) knownUrlSafe = ""
  const safe = marked || UNRESERVED.test(value)
  let out = `${name}=${safe ? value : encodeURIComponent(value)}`
  if (options.maxAge !== undefined) out += `; Max-Age=${Math.floor(options.maxAge)}`
  if (options.domain) out += `; Domain=${options.domain}`
  if (options.path) out += `; Path=${options.path}`
  if (options.expires) out += `; Expires=${expiresText(options.expires)}`
  if (options.httpOnly) out += "; HttpOnly"
  if (options.secure) out += "; Secure"
  if (options.partitioned) out += "; Partitioned"
  const sameSite = options.sameSite === true ? "strict" : options.sameSite
  if (sameSite === "lax") out += "; SameSite=Lax"
  else if (sameSite === "strict") out += "; SameSite=Strict"
  else if (sameSite === "none") out += "; SameSite=None"
  return out
}

/** A cookie that deletes `name` (empty value, Max-Age=0, same attributes). */
export function expiredCookie(option: CookieOption, name = option.name): Cookie {
  return { name, value: "", options: merged(option.options, { maxAge: 0, expires: undefined }) }
}

/**
 * The cookie policy of a config: for a secure (https) or plain origin, the default names and attributes with the
 * user's `cookies.<name>` overrides merged in (name and every option, maxAge included). Computed once per origin kind.
 */
export function cookiePolicy(
  overrides: AuthConfig["cookies"] = {},
  wire: WireFormat = "authjs",
): (secure: boolean) => Readonly<CookiesOptions> {
  const cache = new Map<boolean, Readonly<CookiesOptions>>()
  return (secure) => {
    let hit = cache.get(secure)
    if (!hit) {
      const defaults = defaultCookies(secure, wire)
      const merged = { ...defaults }
      for (const key of Object.keys(defaults) as (keyof CookiesOptions)[]) {
        const o = overrides[key]
        if (o) merged[key] = { name: o.name ?? defaults[key].name, options: { ...defaults[key].options, ...o.options } }
      }
      hit = Object.freeze(merged)
      cache.set(secure, hit)
    }
    return hit
  }
}

/** A short-lived flow cookie: the option's own maxAge (default 15 minutes, or the user's override) sets its expiry. */
export function flowCookie(option: CookieOption, value: string): Cookie {
  const maxAge = lifetimeOf(option)
  return {
    name: option.name,
    value,
    options: merged(option.options, { maxAge, expires: new Date(Date.now() + maxAge * 1000) }),
  }
}

/** Seconds a flow cookie (and the sealed value inside it) stays valid: the option's maxAge, else 15 minutes. */
export function lifetimeOf(option: CookieOption): number {
  const maxAge = option.options.maxAge
  return typeof maxAge === "number" && maxAge > 0 ? maxAge : FLOW_COOKIE_MAX_AGE
}
