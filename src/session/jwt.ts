// JWT session strategy: the session lives in the encrypted, possibly chunked session cookie
// (docs/wire-format.md §2.2, §4).
import { JWTSessionError, SignOutError } from "../errors.js"
import type { AuthRequest, ResolvedConfig, SessionAnswer, SessionStrategy } from "../pipeline-types.js"
import { decodeToken, encodeToken, type KeyScheme, nowSeconds } from "../jwt/jwe.js"
import type { Cookie, JWT, JWTDecodeParams, JWTEncodeParams, Session } from "../types.js"
import { CHUNK_SIZE, clearChunked, readChunked, V4_CHUNK_SIZE, writeChunked } from "../cookies/chunks.js"
import { markUrlSafe } from "../cookies/policy.js"
import { merged } from "../lib/merged.js"
import { emitEvent } from "../events.js"
import { applyJwtCallback, applySessionCallback } from "./callbacks.js"
import { refreshIfDue } from "./refresh.js"
import {
  accountToKeep,
  dropServerTokens,
  dropServerTokensOf,
  holdsServerTokens,
  toCookieToken,
  withServerTokens,
} from "./server-tokens.js"
import { checkCookieBudget } from "./cookie-budget.js"
import { DecodedTokenCache } from "./token-cache.js"
import { newSessionId, SESSION_ID_CLAIM, sessionIdOf, withSessionId } from "./session-id.js"
import { checkRevoked, markRevoked } from "./revocation.js"
import { listedExpiry, listIssued, noteReissue, unlistSessions, userAgentOf } from "./session-list.js"
import { v4CookieNames, withV4Jwt } from "./legacy-v4.js"
import { isoDate } from "../lib/dates.js"

type JwtSessionRead =
  | { status: "absent" }
  | { status: "invalid"; names: string[]; error: JWTSessionError }
  | {
      status: "valid"
      token: JWT
      names: string[] /** Index of the secret that opened it; > 0 means an older rotation secret. */
      secretIndex: number
    }

/** One cache of decrypted tokens per config, key scheme and salt: a v4 and a v5 token never share an entry. */
const caches = new WeakMap<ResolvedConfig, Map<string, DecodedTokenCache>>()

function cacheOf(config: ResolvedConfig, scheme: KeyScheme, salt: string): DecodedTokenCache {
  let bySalt = caches.get(config)
  if (!bySalt) caches.set(config, (bySalt = new Map()))
  const key = `${scheme}\u0000${salt}`
  let cache = bySalt.get(key)
  if (!cache) bySalt.set(key, (cache = new DecodedTokenCache()))
  return cache
}

/**
 * How the config's session tokens are sealed: Auth.js derives the key from the cookie name; next-auth 4 from the
 * empty salt, with its own HKDF info and no `kid` (jwt/jwe.ts "next-auth-v4"), whatever the cookie is called.
 */
function sessionKey(config: ResolvedConfig, cookieName: string): { scheme: KeyScheme; salt: string } {
  return config.wire === "next-auth-v4" ? { scheme: "next-auth-v4", salt: "" } : { scheme: "authjs", salt: cookieName }
}

/**
 * The parameters a `jwt.encode` / `jwt.decode` override gets: Auth.js's (secret as configured, the cookie name as
 * salt), or next-auth 4's (`{ token, secret, maxAge }`, the secret a string).
 */
function overrideParams(config: ResolvedConfig, cookieName: string, maxAge: number) {
  if (config.wire === "next-auth-v4") return { secret: config.secrets[0] as string, maxAge }
  return { secret: config.source.secret as string | string[], salt: cookieName, maxAge }
}

/** Reads and decrypts the session cookie (chunks joined; a token decrypted before comes from the cache). Never throws. */
async function readJwtSession(req: AuthRequest, config: ResolvedConfig): Promise<JwtSessionRead> {
  const option = config.cookies(req.secure).sessionToken
  const { value, names } = readChunked(req.cookies, option.name)
  if (names.length === 0) return { status: "absent" }
  if (value === undefined)
    return {
      status: "invalid",
      names,
      error: new JWTSessionError("The session cookie is malformed (missing, duplicate or too many chunks)."),
    }
  try {
    if (config.jwt.decode) {
      const token = await config.jwt.decode({
        token: value,
        ...overrideParams(config, option.name, config.jwt.maxAge),
      } as JWTDecodeParams)
      if (!token)
        return { status: "invalid", names, error: new JWTSessionError("The jwt.decode override returned no token.") }
      return { status: "valid", token, names, secretIndex: 0 }
    }
    const { scheme, salt } = sessionKey(config, option.name)
    const cache = cacheOf(config, scheme, salt)
    const cached = cache.get(value)
    if (cached) return { status: "valid", token: cached.payload, names, secretIndex: cached.secretIndex }
    const decoded = await decodeToken({ token: value, secret: config.secrets as string[], salt }, scheme)
    if (!decoded) return { status: "invalid", names, error: new JWTSessionError("The session cookie is empty.") }
    cache.set(value, decoded.payload, decoded.secretIndex)
    return { status: "valid", token: decoded.payload, names, secretIndex: decoded.secretIndex }
  } catch (cause) {
    return {
      status: "invalid",
      names,
      error: new JWTSessionError("The session token could not be decrypted or has expired.", { cause }),
    }
  }
}

/** readJwtSession; under `v4Cookies: "accept"` with the request's next-auth v4 session cookie too (legacy-v4.ts). */
function readSession(req: AuthRequest, config: ResolvedConfig): Promise<JwtSessionRead> {
  const read = readJwtSession(req, config)
  return config.source.v4Cookies === "accept" ? read.then((r) => withV4Jwt(r, req, config)) : read
}

/**
 * Whether a valid token must be re-issued on a read: an old rotation secret, no `iat`, or `updateAge`
 * passed since `iat`. The update age is capped at half of `maxAge`, so a session in use always slides
 * before it expires even when `maxAge < updateAge`.
 */
function isReissueDue(token: JWT, secretIndex: number, config: ResolvedConfig): boolean {
  const updateAge = Math.min(config.session.updateAge, config.session.maxAge / 2)
  if (secretIndex !== 0 || updateAge <= 0) return true
  const iat = token.iat
  return typeof iat !== "number" || iat + updateAge <= nowSeconds()
}

/** Encrypts `token` into session cookie(s) replacing those the request carried; returns them and the expiry. */
async function writeToken(
  token: JWT,
  req: AuthRequest,
  config: ResolvedConfig,
  seen: readonly string[],
): Promise<{ cookies: Cookie[]; expires: Date }> {
  const option = config.cookies(req.secure).sessionToken
  const maxAge = config.jwt.maxAge
  const { scheme, salt } = sessionKey(config, option.name)
  // session.tokens: "server" moves the provider tokens to the store (server-tokens.ts).
  const toKeep = toCookieToken(token, req, config)
  const kept = toKeep instanceof Promise ? await toKeep : toKeep
  const value = config.jwt.encode
    ? await config.jwt.encode({ token: kept, ...overrideParams(config, option.name, maxAge) } as JWTEncodeParams)
    : await encodeToken({ token: kept, secret: config.secrets as string[], salt, maxAge }, scheme)
  const expires = new Date(Date.now() + config.session.maxAge * 1000)
  // next-auth 4 dates its session cookie with Expires alone, and cuts it into smaller chunks.
  const v4 = config.wire === "next-auth-v4"
  const options = merged(option.options, v4 ? { expires } : { maxAge: config.session.maxAge, expires })
  // The built-in encoder's token is a compact JWE (base64url and dots): a user's `jwt.encode` may return anything.
  if (!config.jwt.encode) markUrlSafe(value)
  const cookies = writeChunked(option, value, options, seen, v4 ? V4_CHUNK_SIZE : CHUNK_SIZE)
  checkCookieBudget(kept, cookies, req, config)
  return { cookies, expires }
}

function clearToken(req: AuthRequest, config: ResolvedConfig, seen: readonly string[]): Cookie[] {
  return clearChunked(config.cookies(req.secure).sessionToken, seen)
}

/** Revokes the JWT session `sid` and unlists it (`session.revocation`); a failure is logged as `what`. */
async function endSession(config: ResolvedConfig, sid: string, what: string): Promise<void> {
  try {
    await markRevoked(config, sid)
    await unlistSessions(config, [sid])
  } catch (cause) {
    config.logger.error(new SignOutError(what, { cause }))
  }
}

/** Auth.js's default session shape for a token, plus the refresh error marker when refreshing failed. */
function defaultSession(token: JWT, expires: string): Session {
  const session: Session & { error?: "RefreshTokenError" } = {
    user: { name: token.name, email: token.email, image: token.picture },
    expires,
  }
  if (token.error === "RefreshTokenError") session.error = "RefreshTokenError"
  return session
}

export const jwtStrategy: SessionStrategy = {
  name: "jwt",

  async currentUser(req, config) {
    if (!config.adapter) return undefined
    const read = await readSession(req, config)
    if (read.status !== "valid" || typeof read.token.sub !== "string") return undefined
    return (await config.adapter.getUser(read.token.sub)) ?? undefined
  },

  /** Default token `{name, email, picture, sub}` (plus the provider tokens when it refreshes them), then the `jwt` callback. */
  async issue({ user, isNewUser }, identity, req, config) {
    // readChunked's list is new on every call: extended in place only when a next-auth 4 cookie is there too.
    const seen = readChunked(req.cookies, config.cookies(req.secure).sessionToken.name).names
    for (const name of v4CookieNames(req, config)) seen.push(name)
    const { account, profile } = identity
    // The session id is minted whether or not revocation is on, so it can be turned on later.
    const sid = newSessionId()
    const token: JWT = {
      name: user.name,
      email: user.email,
      picture: user.image,
      sub: String(user.id),
      [SESSION_ID_CLAIM]: sid,
    }
    const kept = accountToKeep(account, config)
    if (kept) token.account = kept
    // Without a jwt callback the token is the answer: its parameters are built only for a callback.
    const final = config.callbacks.jwt
      ? await applyJwtCallback(
          {
            token,
            user,
            account,
            ...(profile ? { profile } : {}),
            isNewUser,
            trigger: isNewUser ? "signUp" : "signIn",
          },
          config,
        )
      : token
    if (!final) return clearToken(req, config, seen)
    if (config.revocation) {
      // The session this sign-in replaces ends everywhere; the new one is listed before its cookie exists.
      const previous = await readSession(req, config)
      const old = previous.status === "valid" ? sessionIdOf(previous.token) : undefined
      if (old) await endSession(config, old, "The session replaced by this sign-in could not be revoked.")
      const now = Date.now()
      await listIssued(config, String(user.id), {
        id: sid,
        createdAt: now,
        expires: listedExpiry(config),
        userAgent: userAgentOf(req),
      })
    } else if (seen.length > 0) {
      // A sign-in over a session whose provider tokens are kept in the store (session.tokens "server"): the entry
      // ends with that session, as at sign-out. Revocation (above) ends the whole session, entry included.
      const previous = await readSession(req, config)
      if (previous.status === "valid") await dropServerTokens(previous.token, config)
    }
    return (await writeToken(withSessionId(final, sid), req, config, seen)).cookies
  },

  /** Re-issues the cookie only when the token changed (refresh, `jwt` callback, update) or the re-issue age passed. */
  async read(req, config, update): Promise<SessionAnswer> {
    const read = await readSession(req, config)
    if (read.status === "absent") return { session: null }
    if (read.status === "invalid") {
      config.logger.error(read.error)
      return { session: null, cookies: clearToken(req, config, read.names) }
    }
    // The id matters to revocation and to putting it back after a jwt callback; the plain read skips the check.
    const sid = config.revocation || config.callbacks.jwt ? sessionIdOf(read.token) : undefined
    let unlisted = false
    if (config.revocation && sid) {
      const answer = checkRevoked(config, sid)
      const verdict = typeof answer === "string" ? answer : await answer
      if (verdict === "revoked") return { session: null, cookies: clearToken(req, config, read.names) }
      // Fail closed: no session for this request, and the cookie kept for when the store answers again.
      if (verdict === "unavailable" && config.revocation.onStoreError === "deny") return { session: null }
      unlisted = verdict === "unlisted"
    }
    let token: JWT | null = holdsServerTokens(read.token) ? await withServerTokens(read.token, req, config) : read.token
    let changed = update !== undefined
    if (token.account !== undefined) {
      const refreshed = await refreshIfDue(token, config)
      if (refreshed) {
        token = refreshed
        changed = true
      }
    }
    if (config.callbacks.jwt) {
      const before = JSON.stringify(token)
      token = await applyJwtCallback(
        update
          ? { token, user: undefined as never, trigger: "update", session: update.data }
          : { token, user: undefined as never, session: undefined },
        config,
      )
      if (!token) {
        await dropServerTokens(read.token, config)
        return { session: null, cookies: clearToken(req, config, read.names) }
      }
      if (sid) token = withSessionId(token, sid)
      changed ||= JSON.stringify(token) !== before
    }
    // Under revocation a session missing from the list (issued before it was on) is listed now; a token from before
    // session ids gets one first, and is re-issued with it.
    const adopted = config.revocation && !sid && typeof token.sub === "string" ? newSessionId() : undefined
    if (adopted) {
      token = withSessionId(token, adopted)
      changed = true
    }
    const listAs = (adopted || unlisted) && typeof token.sub === "string" ? token.sub : undefined
    let cookies: Cookie[] | undefined
    let expires: string
    if (changed || isReissueDue(token, read.secretIndex, config)) {
      const written = await writeToken(token, req, config, read.names)
      cookies = written.cookies
      expires = isoDate(written.expires)
      if (config.revocation && sid && !listAs) await noteReissue(config, req, sid)
    } else {
      expires = isoDate((token.exp as number) * 1000)
    }
    if (listAs) await noteReissue(config, req, (adopted ?? sid) as string, listAs)
    const base = defaultSession(token, expires)
    // Without a session callback or event (the common read), no promise is made for either.
    const session = config.callbacks.session
      ? await applySessionCallback(
          { session: base as never, token, ...(update ? { newSession: update.data, trigger: "update" as const } : {}) },
          base,
          config,
        )
      : base
    if (config.events.session) await emitEvent(config, "session", { session, token })
    return { session, cookies, token }
  },

  async revoke(req, config) {
    const read = await readSession(req, config)
    if (read.status === "absent") return []
    if (read.status === "valid") {
      // The event sees the provider tokens (to revoke them at the provider) wherever they are kept.
      await emitEvent(config, "signOut", { token: await withServerTokens(read.token, req, config) })
      await dropServerTokens(read.token, config)
    } else
      config.logger.error(
        new SignOutError("The session cookie could not be read; it is cleared anyway.", { cause: read.error }),
      )
    const sid = read.status === "valid" ? sessionIdOf(read.token) : undefined
    // A copy of this cookie stops working everywhere too.
    if (config.revocation && sid)
      await endSession(config, sid, "The session could not be revoked; its cookie is cleared.")
    return clearToken(req, config, read.names)
  },

  async listedIdOf(req, config) {
    const read = await readSession(req, config)
    return read.status === "valid" ? sessionIdOf(read.token) : undefined
  },

  async endListed(entry, config) {
    await markRevoked(config, entry.id)
    // Its provider tokens (session.tokens: "server") go too: no cookie can reach them any more.
    await dropServerTokensOf(entry.id, config)
  },
}
