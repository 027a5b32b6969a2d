// Public `gatehouse/jwt`: encode, decode and getToken, token-compatible with @auth/core/jwt.
import { MissingSecret } from "../errors.js"
import { parseCookieHeader } from "../request/cookies.js"
import { defaultCookies, readChunked } from "../session/cookie-store.js"
import type { JWT, JWTDecodeParams, JWTEncodeParams } from "../types.js"
import { assertTimeClaims, decryptClaims, encryptClaims, nowSeconds, withTimeClaims } from "./jwe.js"

export type { JWT, JWTDecodeParams, JWTEncodeParams, JWTOptions } from "../types.js"

/** 30 days, the default session and token lifetime. */
export const DEFAULT_MAX_AGE = 30 * 24 * 60 * 60

function secretList(secret: string | string[] | undefined): string[] {
  const list = Array.isArray(secret) ? secret : secret ? [secret] : []
  if (list.length === 0 || list.some((s) => typeof s !== "string" || s === "")) throw new MissingSecret("A `secret` is required to encode or decode a JWT.")
  return list
}

function assertSalt(salt: unknown): asserts salt is string {
  if (typeof salt !== "string" || salt === "") throw new TypeError("A `salt` is required: pass the session cookie name (e.g. `authjs.session-token`).")
}

/** Synchronous encode: the library's own hot path. Adds `iat`, `exp`, `jti`; uses the first secret. */
export function encodeSync(params: JWTEncodeParams<Record<string, unknown>>): string {
  const { token = {}, secret, maxAge = DEFAULT_MAX_AGE, salt } = params
  assertSalt(salt)
  const secrets = secretList(secret)
  return encryptClaims(withTimeClaims(token, maxAge, nowSeconds()), secrets[0] as string, salt)
}

/** Synchronous decode: the claims, or throws on any fault (bad token, wrong secret, expired). */
export function decodeSync(params: JWTDecodeParams): { payload: JWT; secretIndex: number } | null {
  const { token, secret, salt } = params
  assertSalt(salt)
  const secrets = secretList(secret)
  if (!token) return null
  const { payload, secretIndex } = decryptClaims(token, secrets, salt)
  assertTimeClaims(payload, nowSeconds())
  return { payload: payload as JWT, secretIndex }
}

/** Encrypts a token as Auth.js does (JWE `dir` + A256CBC-HS512, HKDF key, `kid`). */
export async function encode<Payload = JWT>(params: JWTEncodeParams<Payload>): Promise<string> {
  return encodeSync(params as JWTEncodeParams<Record<string, unknown>>)
}

/** Decrypts a token made by `encode` (or by @auth/core). Throws when it is invalid or expired; null when empty. */
export async function decode<Payload = JWT>(params: JWTDecodeParams): Promise<Payload | null> {
  const result = decodeSync(params)
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
}

function headerValue(headers: Headers | Record<string, string | string[] | undefined>, name: string): string | null {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name)
  const value = (headers as Record<string, string | string[] | undefined>)[name]
  return Array.isArray(value) ? value.join(name === "cookie" ? "; " : ", ") : value ?? null
}

/** Reads the session token from a request's cookie (chunks joined) or `Authorization: Bearer`; null when absent or invalid. */
export async function getToken<R extends boolean = false>(params: GetTokenParams<R>): Promise<R extends true ? string | null : JWT | null> {
  type Out = R extends true ? string | null : JWT | null
  const { req, secureCookie = false, raw, secret } = params
  if (!req) throw new TypeError("Pass `req` to getToken().")
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
  if (!secret || (Array.isArray(secret) && secret.length === 0)) throw new MissingSecret("Pass `secret` to getToken() (or set AUTH_SECRET).")
  try {
    const decoder = params.decode ?? decode
    return ((await decoder({ token, secret, salt })) ?? null) as Out
  } catch {
    return null as Out
  }
}
