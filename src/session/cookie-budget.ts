// The session cookie's size budget: when a JWT session cookie (all its chunks) passes `session.cookieBudget` (4096
// bytes per cookie, 8192 for the whole Cookie header by default: nginx's default header buffer), the config's logger
// gets one "session-cookie-size" warning, with the sizes and the names of the claims that make the token large.
// Nothing is dropped: the cookie is written as it is.
import { UnsupportedStrategy } from "../errors.js"
import type { AuthRequest, ResolvedConfig } from "../pipeline-types.js"
import type { AuthConfig, Cookie, JWT } from "../types.js"

/** The budget a config gets unless it sets `session.cookieBudget`. */
const DEFAULT_COOKIE_BUDGET = Object.freeze({ cookie: 4096, header: 8192 })
/** How many claims the warning names, largest first. */
const TOP_CLAIMS = 5

/** What the "session-cookie-size" warning carries besides its code: sizes and claim names, never a value. */
interface CookieSizeReport {
  /** Bytes of `name=value` of every chunk of the session cookie, as the browser sends them back. */
  cookieBytes: number
  /** Estimate of the browser's Cookie header: this session cookie plus the request's other cookies. */
  headerBytes: number
  budget: { cookie: number; header: number }
  /** The session token's largest claims by encoded JSON size, largest first (names and sizes only). */
  claims: { name: string; bytes: number }[]
}

const warned = new WeakSet<ResolvedConfig>()
const encoder = new TextEncoder()

/** UTF-8 bytes of a string (every runtime: no Buffer). */
function utf8Length(text: string): number {
  return encoder.encode(text).length
}

/** `name=value` pairs joined as a Cookie header joins them. */
function pairsBytes(pairs: Iterable<[string, string]>): number {
  let bytes = 0
  let count = 0
  for (const [name, value] of pairs) {
    bytes += name.length + 1 + utf8Length(value)
    count++
  }
  return count > 1 ? bytes + 2 * (count - 1) : bytes
}

/** The token's claims by the size of `"name":<json>`, largest first. */
function largestClaims(token: JWT, top = TOP_CLAIMS): { name: string; bytes: number }[] {
  const sizes: { name: string; bytes: number }[] = []
  for (const [name, value] of Object.entries(token)) {
    const json = JSON.stringify(value)
    if (json === undefined) continue
    sizes.push({ name, bytes: utf8Length(JSON.stringify(name)) + 1 + utf8Length(json) })
  }
  return sizes.sort((a, b) => b.bytes - a.bytes).slice(0, top)
}

/** The sizes of a written session cookie against the budget (no budget when `session.cookieBudget: false`). */
function measureSessionCookie(
  written: readonly Cookie[],
  req: AuthRequest,
  config: ResolvedConfig,
): CookieSizeReport | undefined {
  const budget = config.session.cookieBudget
  if (!budget) return undefined
  const set = written.filter((c) => c.value !== "")
  const names = new Set(written.map((c) => c.name))
  const sessionName = config.cookies(req.secure).sessionToken.name
  const cookieBytes = pairsBytes(set.map((c) => [c.name, c.value]))
  // The request's other cookies stay in the browser's header beside it; its old session chunks do not.
  const others = Object.entries(req.cookies).filter(
    ([name]) => !names.has(name) && name !== sessionName && !name.startsWith(`${sessionName}.`),
  )
  const otherBytes = pairsBytes(others)
  const headerBytes = "Cookie: ".length + cookieBytes + (otherBytes > 0 && cookieBytes > 0 ? 2 : 0) + otherBytes
  return { cookieBytes, headerBytes, budget: { cookie: budget.cookie, header: budget.header }, claims: [] }
}

/**
 * Whether the cookies surely fit the budget: every UTF-16 unit is at most 3 UTF-8 bytes, and every cookie of the
 * request counts, so these sums bound the exact ones from above. No allocation: a sign-in pays two loops.
 */
function surelyFits(written: readonly Cookie[], req: AuthRequest, budget: { cookie: number; header: number }): boolean {
  let cookie = 0
  for (const c of written) if (c.value !== "") cookie += c.name.length + 3 + 3 * c.value.length
  if (cookie > budget.cookie) return false
  let header = "Cookie: ".length + cookie
  const sent = req.cookies
  for (const name in sent) header += name.length + 3 + 3 * (sent[name] as string).length
  return header <= budget.header
}

/**
 * Warns once per config when the session cookie just written passes the budget. Cheap when under it: two sums of
 * lengths, nothing encoded and no claim measured.
 */
export function checkCookieBudget(
  token: JWT,
  written: readonly Cookie[],
  req: AuthRequest,
  config: ResolvedConfig,
): void {
  if (warned.has(config)) return
  const budget = config.session.cookieBudget
  if (!budget || surelyFits(written, req, budget)) return
  const report = measureSessionCookie(written, req, config)
  if (!report) return
  if (report.cookieBytes <= report.budget.cookie && report.headerBytes <= report.budget.header) return
  warned.add(config)
  report.claims = largestClaims(token)
  config.logger.warn("session-cookie-size", report as unknown as Record<string, unknown>)
}

/** The smallest budget accepted: below a cookie's own name and attributes no session fits, so it is surely a typo. */
const MIN_BUDGET = 256

function shown(value: unknown): string {
  return typeof value === "string"
    ? JSON.stringify(value.slice(0, 40))
    : typeof value === "number"
      ? String(value)
      : typeof value
}

/**
 * `session.tokens` and `session.cookieBudget` checked and resolved at config time (resolve.ts): a bad value is an
 * `UnsupportedStrategy` config error, never a silent default.
 */
export function checkSessionSizeOptions(session: AuthConfig["session"]): {
  tokens: "cookie" | "server"
  cookieBudget: { cookie: number; header: number } | false
  error?: UnsupportedStrategy
} {
  const resolved = {
    tokens: "cookie" as "cookie" | "server",
    cookieBudget: DEFAULT_COOKIE_BUDGET as { cookie: number; header: number } | false,
  }
  const tokens: unknown = session?.tokens
  if (tokens !== undefined && tokens !== "cookie" && tokens !== "server")
    return {
      ...resolved,
      error: new UnsupportedStrategy(`\`session.tokens\` must be "cookie" or "server"; got ${shown(tokens)}.`),
    }
  if (tokens === "server") resolved.tokens = "server"
  const budget: unknown = session?.cookieBudget
  if (budget === undefined) return resolved
  if (budget === false) return { ...resolved, cookieBudget: false }
  if (!budget || typeof budget !== "object" || Array.isArray(budget))
    return {
      ...resolved,
      error: new UnsupportedStrategy(
        `\`session.cookieBudget\` must be false or { cookie?: number, header?: number }; got ${shown(budget)}.`,
      ),
    }
  const out: { cookie: number; header: number } = { ...DEFAULT_COOKIE_BUDGET }
  for (const [key, value] of Object.entries(budget)) {
    if (key !== "cookie" && key !== "header")
      return {
        ...resolved,
        error: new UnsupportedStrategy(
          `\`session.cookieBudget\` has an unknown key ${JSON.stringify(key.slice(0, 40))}; the keys are cookie and header.`,
        ),
      }
    if (value === undefined) continue
    if (typeof value !== "number" || !Number.isInteger(value) || value < MIN_BUDGET)
      return {
        ...resolved,
        error: new UnsupportedStrategy(
          `\`session.cookieBudget.${key}\` must be a whole number of bytes, at least ${MIN_BUDGET}; got ${shown(value)}.`,
        ),
      }
    out[key] = value
  }
  return { ...resolved, cookieBudget: out }
}
