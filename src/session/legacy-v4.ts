// `v4Cookies: "accept"`: the session cookie next-auth 4 (or Gatehouse's v4 entry points) left in the browser is read
// once by an app on the v5-style API, re-issued as its own session cookie and expired in the same response, so moving
// off the v4 entry points signs nobody out. jwt.ts and database.ts call in here; without the option nothing here runs.
//
// next-auth 4's session cookie: `next-auth.session-token`, `__Secure-` on https (the rule req.secure follows), chunked
// `.0`, `.1`… when long; a JWT session is a JWE (`dir` + A256GCM, key HKDF-SHA256(secret, salt "", info "NextAuth.js
// Generated Encryption Key"), jwt/jwe.ts's "next-auth-v4" scheme); a database session is the token of a row in the
// same sessions table.
import { JWTSessionError, UnsupportedStrategy } from "../errors.js"
import type { AuthRequest, ResolvedConfig } from "../pipeline-types.js"
import { decodeToken } from "../jwt/jwe.js"
import type { AuthConfig, Cookie, JWT, JWTDecodeParams } from "../types.js"
import { readChunked } from "../cookies/chunks.js"
import { expiredCookie, isCookieName } from "../cookies/policy.js"
import { merged } from "../lib/merged.js"

/** A JWT session read as session/jwt.ts makes it (the same union, declared here so the two modules form no cycle). */
type JwtRead =
  | { status: "absent" }
  | { status: "invalid"; names: string[]; error: JWTSessionError }
  | { status: "valid"; token: JWT; names: string[]; secretIndex: number }

/**
 * The `secretIndex` of a token read from a v4 cookie: not 0, so jwt.ts's re-issue rule always writes it as a v5
 * cookie (and, through the names it was read under, expires the v4 ones).
 */
const FROM_V4 = -1

/** The config check: `v4Cookies` is left out or "accept"; anything else is a configuration error naming the fix. */
export function checkV4CookiesOption(config: AuthConfig): UnsupportedStrategy | undefined {
  const value: unknown = (config as { v4Cookies?: unknown }).v4Cookies
  if (value === undefined || value === "accept") return undefined
  const shown = typeof value === "string" ? JSON.stringify(value.slice(0, 40)) : typeof value
  return new UnsupportedStrategy(
    `\`v4Cookies\` must be "accept" (read next-auth v4 session cookies once and re-issue them) or left out; got ${shown}.`,
  )
}

function accepts(config: ResolvedConfig): boolean {
  return config.source.v4Cookies === "accept"
}

/** next-auth 4's session cookie name for a secure (https) or plain origin. */
function v4Name(secure: boolean): string {
  return `${secure ? "__Secure-" : ""}next-auth.session-token`
}

/**
 * The v4 session cookie the request carries (every name of it, bare and `.N`, and the joined value), under
 * `v4Cookies: "accept"`. None when the configured session cookie has the v4 name itself: that cookie is the app's own.
 */
function v4Cookie(
  req: AuthRequest,
  config: ResolvedConfig,
): { value: string | undefined; names: string[] } | undefined {
  if (!accepts(config)) return undefined
  const name = v4Name(req.secure)
  if (config.cookies(req.secure).sessionToken.name === name) return undefined
  const read = readChunked(req.cookies, name)
  return read.names.length > 0 ? read : undefined
}

/**
 * The names of the v4 session cookie in the request, for the session cookie writer to expire along with its own stale
 * chunks (with the configured session cookie's attributes: Path, Domain, Secure, SameSite as v4 set them by default).
 */
export function v4CookieNames(req: AuthRequest, config: ResolvedConfig): string[] {
  return v4Cookie(req, config)?.names ?? []
}

/** Set-Cookie values that expire every name of the request's v4 session cookie (none without one). */
export function v4CookiesCleared(req: AuthRequest, config: ResolvedConfig): Cookie[] {
  if (!accepts(config)) return []
  const option = config.cookies(req.secure).sessionToken
  return v4CookieNames(req, config)
    .filter(isCookieName)
    .map((name) => expiredCookie(option, name))
}

/**
 * Database strategy: the session token in the request's v4 cookie (a row of the same sessions table), read when the
 * request has no session cookie of its own.
 */
export function v4SessionToken(req: AuthRequest, config: ResolvedConfig): string | undefined {
  return v4Cookie(req, config)?.value || undefined
}

/**
 * Decodes a v4 session token. A custom `jwt.decode` gets it with next-auth 4's session salt, "". Otherwise each
 * configured secret is tried in turn (jwe.ts's "next-auth-v4" scheme): next-auth 4 had one secret and its tokens carry
 * no `kid` to pick one by, and the move to the v5-style API is when an app may also rotate it (`secret: [newSecret,
 * oldV4Secret]`); the list is short and a v4 cookie is read once, then expired. Throws JWTSessionError when nothing
 * opens it or it has expired.
 */
async function decodeV4(value: string, config: ResolvedConfig): Promise<JWT> {
  if (config.jwt.decode) {
    const token = await config.jwt.decode({
      token: value,
      secret: config.source.secret as string | string[],
      salt: "",
      maxAge: config.jwt.maxAge,
    } as JWTDecodeParams)
    if (!token) throw new JWTSessionError("The jwt.decode override returned no token.")
    return token
  }
  const decoded = await decodeToken({ token: value, secret: config.secrets as string[], salt: "" }, "next-auth-v4")
  if (!decoded) throw new JWTSessionError("The next-auth v4 session cookie is empty.")
  return decoded.payload
}

async function v4Read(value: string | undefined, names: string[], config: ResolvedConfig): Promise<JwtRead> {
  const error = (cause?: unknown) =>
    new JWTSessionError("The next-auth v4 session cookie could not be read (malformed, expired or another secret).", {
      cause,
    })
  if (value === undefined) return { status: "invalid", names, error: error() }
  try {
    return { status: "valid", token: await decodeV4(value, config), names, secretIndex: FROM_V4 }
  } catch (cause) {
    return { status: "invalid", names, error: error(cause) }
  }
}

/**
 * JWT strategy: the read of the app's own session cookie, with the request's v4 cookie taken into account. A present
 * v5 cookie wins, valid or not, and the v4 names join its own so they are expired with it (a valid one is re-issued
 * for that). Without one, the v4 cookie is decoded: valid, it is the session (re-issued as a v5 cookie by jwt.ts,
 * after the `jwt` callback); invalid, it reads as no session and is expired. When the configured session cookie has
 * the v4 name, a value there that is not a v5 token is tried as a v4 one.
 */
export async function withV4Jwt(read: JwtRead, req: AuthRequest, config: ResolvedConfig): Promise<JwtRead> {
  if (!accepts(config)) return read
  const v4 = v4Cookie(req, config)
  if (!v4) {
    if (read.status !== "invalid" || config.cookies(req.secure).sessionToken.name !== v4Name(req.secure)) return read
    const own = await v4Read(readChunked(req.cookies, v4Name(req.secure)).value, read.names, config)
    return own.status === "valid" ? own : read
  }
  if (read.status === "absent") return v4Read(v4.value, v4.names, config)
  const names = [...read.names, ...v4.names]
  return read.status === "valid" ? merged(read, { names, secretIndex: FROM_V4 }) : merged(read, { names })
}
