// JWT session strategy: read, issue and clear the encrypted session cookie (the only writer of session cookies).
import { JWTSessionError } from "../errors.js"
import type { ResolvedConfig } from "../config/resolve.js"
import { decodeSync, encodeSync } from "../jwt/index.js"
import { nowSeconds } from "../jwt/jwe.js"
import type { AuthRequest } from "../request/parse.js"
import type { Cookie, JWT, JWTDecodeParams } from "../types.js"
import { clearChunked, readChunked, writeChunked } from "./cookie-store.js"

export type JwtSessionRead =
  | { status: "absent" }
  | { status: "invalid"; names: string[]; error: JWTSessionError }
  | { status: "valid"; token: JWT; names: string[]; /** Index of the secret that opened it; > 0 means an older rotation secret. */ secretIndex: number }

/** Reads and decrypts the session cookie (chunks joined). Never throws. */
export async function readJwtSession(req: AuthRequest, config: ResolvedConfig): Promise<JwtSessionRead> {
  const option = config.cookies(req.secure).sessionToken
  const { value, names } = readChunked(req.cookies, option.name)
  if (names.length === 0) return { status: "absent" }
  if (value === undefined) return { status: "invalid", names, error: new JWTSessionError("The session cookie is malformed (missing, duplicate or too many chunks).") }
  try {
    if (config.jwt.decode) {
      const token = await config.jwt.decode({ token: value, secret: config.source.secret as string | string[], salt: option.name, maxAge: config.jwt.maxAge } as JWTDecodeParams)
      if (!token) return { status: "invalid", names, error: new JWTSessionError("The jwt.decode override returned no token.") }
      return { status: "valid", token, names, secretIndex: 0 }
    }
    const decoded = decodeSync({ token: value, secret: config.secrets as string[], salt: option.name })
    if (!decoded) return { status: "invalid", names, error: new JWTSessionError("The session cookie is empty.") }
    return { status: "valid", token: decoded.payload, names, secretIndex: decoded.secretIndex }
  } catch (cause) {
    return { status: "invalid", names, error: new JWTSessionError("The session token could not be decrypted or has expired.", { cause }) }
  }
}

/**
 * Whether a valid token must be re-issued on a read: an old rotation secret, no `iat`, or `updateAge`
 * passed since `iat`. The update age is capped at half of `maxAge`, so a session in use always slides
 * before it expires even when `maxAge < updateAge`.
 */
export function isReissueDue(token: JWT, secretIndex: number, config: ResolvedConfig): boolean {
  const updateAge = Math.min(config.session.updateAge, config.session.maxAge / 2)
  if (secretIndex !== 0 || updateAge <= 0) return true
  const iat = token.iat
  return typeof iat !== "number" || iat + updateAge <= nowSeconds()
}

/** Encrypts `token` into session cookie(s) replacing those the request carried; returns them and the expiry. */
export async function issueJwtSession(token: JWT, req: AuthRequest, config: ResolvedConfig, seen: readonly string[] = []): Promise<{ cookies: Cookie[]; expires: Date }> {
  const option = config.cookies(req.secure).sessionToken
  const maxAge = config.jwt.maxAge
  const value = config.jwt.encode
    ? await config.jwt.encode({ token, secret: config.source.secret as string | string[], salt: option.name, maxAge })
    : encodeSync({ token, secret: config.secrets as string[], salt: option.name, maxAge })
  const expires = new Date(Date.now() + config.session.maxAge * 1000)
  const cookies = writeChunked(option, value, { ...option.options, maxAge: config.session.maxAge, expires }, seen)
  return { cookies, expires }
}

/** Set-Cookie headers that expire every session cookie the request carried. */
export function clearJwtSession(req: AuthRequest, config: ResolvedConfig, seen: readonly string[]): Cookie[] {
  return clearChunked(config.cookies(req.secure).sessionToken, seen)
}
