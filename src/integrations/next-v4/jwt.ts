// gatehouse/v4/jwt (next-auth 4's next-auth/jwt): encode and decode in next-auth 4's token format (JWE dir + A256GCM,
// HKDF info "NextAuth.js Generated Encryption Key", no kid; docs/wire-format.md §4) through jwe.ts's "next-auth-v4"
// scheme, and getToken with next-auth 4's defaults (NEXTAUTH_URL / VERCEL pick the __Secure- name, NEXTAUTH_SECRET then
// AUTH_SECRET, the empty session salt, Bearer fallback). Runs off Node.js too: the Edge middleware imports it.
import { fromUtf8, utf8 } from "#crypto"
import { readChunked } from "../../cookies/chunks.js"
import { parseCookieHeader } from "../../cookies/parse.js"
import { MissingSecret } from "../../errors.js"
import { decodeToken, encodeToken } from "../../jwt/jwe.js"
import { readEnv, v4EnvSecret } from "../../lib/env.js"
import type { JWT } from "../../types.js"
import type { JWTDecodeParams, JWTEncodeParams, JWTOptions, LoggerInstance } from "./types.js"

export type { DefaultJWT, JWT } from "../../types.js"
export type { JWTDecodeParams, JWTEncodeParams, JWTOptions, Secret } from "./types.js"

/** A secret as the codec takes it; next-auth 4 also took a Buffer, read here as UTF-8 text. */
function secretText(secret: string | Uint8Array | undefined): string {
  if (typeof secret === "string") return secret
  if (secret instanceof Uint8Array) {
    const text = fromUtf8(secret)
    const back = utf8(text)
    if (back.byteLength !== secret.byteLength || back.some((byte, i) => byte !== secret[i]))
      throw new MissingSecret("gatehouse/v4/jwt takes the secret as a string (or a Buffer of UTF-8 text).")
    return text
  }
  return ""
}

/** Encrypts a token as next-auth 4 does (A256GCM; the session token's salt is ""), adding `iat`, `exp` and `jti`. */
export async function encode(params: JWTEncodeParams): Promise<string> {
  const { token = {}, secret, maxAge, salt = "" } = params
  return encodeToken({ token, secret: secretText(secret), maxAge, salt }, "next-auth-v4")
}

/**
 * Decrypts a token made by next-auth 4 (or `encode`): null for an empty token; rejects for one it cannot accept
 * (another secret or salt, tampered, expired beyond 15 s of clock tolerance).
 */
export async function decode(params: JWTDecodeParams): Promise<JWT | null> {
  const { token, secret, salt = "" } = params
  if (!token) return null
  // A list (Gatehouse's secret rotation: the new secret first, an old one after it) is tried in order.
  const secrets = Array.isArray(secret) ? secret.map((s: string | Uint8Array) => secretText(s)) : secretText(secret)
  const result = await decodeToken({ token, secret: secrets, salt }, "next-auth-v4")
  return result ? result.payload : null
}

/** Request headers: web Headers, or node's plain record. */
type HeadersLike = Headers | Partial<Record<string, string | string[]>>

/** Request cookies: NextRequest's (getAll), a Map, or the record Next parsed for API routes and getServerSideProps. */
type CookiesLike =
  | { getAll(): { name: string; value: string }[] }
  | Map<string, string>
  | Partial<Record<string, string>>

/** Where getToken looks: a NextRequest, a pages-router API request, or a getServerSideProps request. */
export interface GetTokenRequest {
  headers: HeadersLike
  cookies?: CookiesLike
}

/** next-auth 4's getToken parameters. */
export interface GetTokenParams<R extends boolean = false> {
  /** The request carrying the token in its cookies or in `Authorization: Bearer`. */
  req: GetTokenRequest
  /** Read the `__Secure-` cookie. Default: NEXTAUTH_URL starts with https://, else whether VERCEL is set. */
  secureCookie?: boolean
  /** Default: `next-auth.session-token`, `__Secure-next-auth.session-token` with secureCookie. */
  cookieName?: string
  /** Resolve the token as it is (the encrypted string), not decoded. */
  raw?: R
  /**
   * Default: NEXTAUTH_SECRET, then AUTH_SECRET. A list (`[new, old]`, as the NextAuth options may rotate) is tried in
   * order, so a cookie sealed under the old secret still reads until it is re-issued.
   */
  secret?: string | string[]
  /** Custom decoder, as set in `jwt.decode` of the NextAuth options. */
  decode?: JWTOptions["decode"]
  logger?: LoggerInstance | Console
}

function headerOf(headers: HeadersLike | undefined, name: string): string | null {
  if (!headers) return null
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name)
  const value = (headers as Partial<Record<string, string | string[]>>)[name]
  return Array.isArray(value) ? value.join(name === "cookie" ? "; " : ", ") : (value ?? null)
}

/** The request's cookies as a record: from `req.cookies` as Next provides it, else from the Cookie header. */
function cookiesOf(req: GetTokenRequest): Record<string, string> {
  const cookies = req.cookies
  if (cookies === undefined || cookies === null) return parseCookieHeader(headerOf(req.headers, "cookie"))
  const out: Record<string, string> = {}
  if (typeof (cookies as { getAll?: unknown }).getAll === "function") {
    for (const { name, value } of (cookies as { getAll(): { name: string; value: string }[] }).getAll())
      out[name] = value
  } else if (cookies instanceof Map) {
    for (const [name, value] of cookies) out[name] = value
  } else {
    for (const [name, value] of Object.entries(cookies)) if (typeof value === "string") out[name] = value
  }
  return out
}

/** The longest Authorization header read for a Bearer token. */
const MAX_AUTHORIZATION = 16_384

/** The `Bearer` token of an Authorization header, percent-decoded; null when absent or malformed. */
function bearerOf(req: GetTokenRequest): string | null {
  const authorization = headerOf(req.headers, "authorization")
  if (!authorization || authorization.length > MAX_AUTHORIZATION) return null
  const [scheme, value] = authorization.split(" ")
  if (scheme !== "Bearer" || !value) return null
  try {
    return decodeURIComponent(value)
  } catch {
    return null
  }
}

/**
 * The session token of a request (its cookie, chunks joined, else `Authorization: Bearer`), decoded; with `raw`,
 * the token string. Resolves null when there is none and when it does not decode (another secret, tampered,
 * expired, no secret at all), as next-auth 4 does; rejects only without `req`.
 */
export async function getToken<R extends boolean = false>(
  params: GetTokenParams<R>,
): Promise<R extends true ? string : JWT | null> {
  type Out = R extends true ? string : JWT | null
  const { req, raw } = params
  if (!req) throw new TypeError("Pass `req` to getToken().")
  const secureCookie = params.secureCookie ?? readEnv("NEXTAUTH_URL")?.startsWith("https://") ?? !!readEnv("VERCEL")
  const cookieName =
    params.cookieName ?? (secureCookie ? "__Secure-next-auth.session-token" : "next-auth.session-token")
  const token = readChunked(cookiesOf(req), cookieName).value ?? bearerOf(req)
  if (!token) return null as Out
  if (raw) return token as Out
  const secret = params.secret ?? v4EnvSecret()
  try {
    const decoder = params.decode ?? decode
    return ((await decoder({ token, secret: secret as JWTDecodeParams["secret"] })) ?? null) as Out
  } catch {
    return null as Out
  }
}
