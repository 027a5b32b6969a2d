// Public `gatehouse/jwt`: encode, decode and getToken, token-compatible with @auth/core/jwt. The codec lives in jwe.ts.
import { JWTSessionError, MissingSecret } from "../errors.js"
import { parseCookieHeader } from "../cookies/parse.js"
import { readChunked } from "../cookies/chunks.js"
import { defaultCookies } from "../cookies/policy.js"
import type { JWT, JWTDecodeParams, JWTEncodeParams, LoggerInstance } from "../types.js"
import { decodeToken, encodeToken } from "./jwe.js"

export type { DefaultJWT, JWT, JWTDecodeParams, JWTEncodeParams, JWTOptions } from "../types.js"

/** Encrypts a token as Auth.js does (JWE `dir` + A256CBC-HS512, HKDF key, `kid`); adds `iat`, `exp` and `jti`. */
export async function encode<Payload = JWT>(params: JWTEncodeParams<Payload>): Promise<string> {
  return encodeToken(params as JWTEncodeParams<Record<string, unknown>>)
}

/**
 * Decrypts a token made by `encode` (or by @auth/core), with the same contract: resolves null for an empty or
 * absent token, and rejects for a token it cannot accept (tampered, garbage, another secret or salt, expired),
 * here with a `JWTSessionError` whose message gives the reason. A missing secret rejects with `MissingSecret`.
 */
export async function decode<Payload = JWT>(params: JWTDecodeParams): Promise<Payload | null> {
  const result = await decodeToken(params)
  return result ? (result.payload as Payload) : null
}

export interface GetTokenParams<R extends boolean = false> {
  /** A web Request, or anything with `headers` (Headers or a plain record). */
  req: Request | { headers: Headers | Record<string, string | string[] | undefined> }
  /** Use the `__Secure-` cookie name. Default: false. */
  secureCookie?: boolean
  cookieName?: string
  salt?: string
  secret?: string | string[]
  /** Return the encrypted token string instead of its claims. */
  raw?: R
  decode?: (params: JWTDecodeParams) => Promise<JWT | null> | JWT | null
  /**
   * Where getToken reports, at debug level, why a token it found was not accepted (it still resolves null).
   * Default: nothing is logged.
   */
  logger?: Partial<LoggerInstance> | Console
}

function headerValue(headers: Headers | Record<string, string | string[] | undefined>, name: string): string | null {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name)
  const value = (headers as Record<string, string | string[] | undefined>)[name]
  return Array.isArray(value) ? value.join(name === "cookie" ? "; " : ", ") : (value ?? null)
}

/**
 * Reads the session token from a request's cookie (chunks joined) or `Authorization: Bearer`. Resolves null when
 * there is none and when it does not decode (tampered, foreign, expired), as @auth/core does (the reason goes to
 * `logger.debug` when a logger is given); rejects only for a missing `req` (JWTSessionError) or `secret` (MissingSecret).
 */
export async function getToken<R extends boolean = false>(
  params: GetTokenParams<R>,
): Promise<R extends true ? string | null : JWT | null> {
  type Out = R extends true ? string | null : JWT | null
  const { req, secureCookie = false, raw, secret } = params
  if (!req) throw new JWTSessionError("Pass `req` to getToken().")
  const cookieName = params.cookieName ?? defaultCookies(secureCookie).sessionToken.name
  const salt = params.salt ?? cookieName
  const cookies = parseCookieHeader(headerValue(req.headers, "cookie"))
  let token = readChunked(cookies, cookieName).value
  if (!token) {
    const authorization = headerValue(req.headers, "authorization")
    if (authorization && authorization.length <= 16_384 && authorization.startsWith("Bearer ")) {
      try {
        token = decodeURIComponent(authorization.slice(7).trim())
      } catch {
        return null as Out
      }
    }
  }
  if (!token) return null as Out
  if (raw) return token as Out
  if (!secret || (Array.isArray(secret) && secret.length === 0))
    throw new MissingSecret("Pass `secret` to getToken() (or set AUTH_SECRET).")
  try {
    const decoder = params.decode ?? decode
    return ((await decoder({ token, secret, salt })) ?? null) as Out
  } catch (error) {
    // A token that does not decode is no token (the @auth/core contract). Only our own JWTSessionError's message is
    // logged: it never quotes the token, while a custom decoder's error might.
    const reason = error instanceof JWTSessionError ? error.message : error instanceof Error ? error.name : typeof error
    params.logger?.debug?.("getToken: the session token was not accepted", { reason })
    return null as Out
  }
}
