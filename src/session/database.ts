// Database session strategy: the cookie holds only a session token; the row lives in the adapter
// (docs/wire-format.md §2.2, §2.9).
import { SessionTokenError, SignOutError } from "../errors.js"
import type { AuthRequest, ListedSession, ResolvedConfig, SessionAnswer, SessionStrategy } from "../pipeline-types.js"
import type { AdapterSession, AdapterUser } from "../adapters/index.js"
import type { GuardedAdapter } from "../adapters/guarded-adapter.js"
import type { Cookie, Session } from "../types.js"
import { expiredCookie } from "../cookies/policy.js"
import { merged } from "../lib/merged.js"
import { emitEvent } from "../events.js"
import { applySessionCallback } from "./callbacks.js"
import { v4CookiesCleared, v4SessionToken } from "./legacy-v4.js"
import { hmac } from "#crypto"
import { AdapterError } from "../errors.js"
import { decryptClaims, encryptClaims } from "../jwt/jwe.js"
import { listIssued, listSession, ownerOf, touchSession, unlistSessions, userAgentOf } from "./session-list.js"
import { isoDate } from "../lib/dates.js"

/** HKDF salt of a session token sealed in the session list: no other Gatehouse token opens with this key. */
const SEAL_SALT = "gatehouse.session-list"

/**
 * The id the session list gives a database session: an HMAC of its token under the first secret, cut to 22
 * characters, so the list and the API never hold or show the token, and an id gives no way back to it.
 */
async function listedIdFor(sessionToken: string, config: ResolvedConfig): Promise<string> {
  const mac = await hmac(
    "SHA-256",
    config.secrets[0] as string,
    `gatehouse.session-id\u0000${sessionToken}`,
    "base64url",
  )
  return mac.slice(0, 22)
}

/** The session list's entry of a database session: its HMAC id and its token sealed. */
async function listedEntry(
  sessionToken: string,
  expires: Date,
  req: AuthRequest,
  config: ResolvedConfig,
): Promise<ListedSession> {
  return {
    id: await listedIdFor(sessionToken, config),
    createdAt: Date.now(),
    expires: expires.valueOf(),
    userAgent: userAgentOf(req),
    sealed: await encryptClaims({ t: sessionToken }, config.secrets[0] as string, SEAL_SALT),
  }
}

/**
 * After a read (`session.revocation`): a session missing from the list (issued before revocation was on, or lost by
 * the store) is listed; an extended one gets its new expiry. A failure is logged; the session is served all the same.
 */
async function keepListed(
  read: { session: AdapterSession; user: AdapterUser; sessionToken: string },
  extended: Date | undefined,
  req: AuthRequest,
  config: ResolvedConfig,
): Promise<void> {
  try {
    const id = await listedIdFor(read.sessionToken, config)
    if ((await ownerOf(config, id)) === null) {
      const entry = await listedEntry(read.sessionToken, extended ?? read.session.expires, req, config)
      await listSession(config, String(read.user.id), entry)
    } else if (extended) await touchSession(config, id, extended.valueOf())
  } catch (cause) {
    config.logger.error(new AdapterError("The session list could not record a database session.", { cause }))
  }
}

/** Unlists database sessions (`session.revocation`); a failure is logged, the caller goes on. */
async function unlistTokens(config: ResolvedConfig, tokens: string[]): Promise<void> {
  try {
    await unlistSessions(config, await Promise.all(tokens.map((t) => listedIdFor(t, config))))
  } catch (cause) {
    config.logger.error(new AdapterError("An ended session could not be removed from the session list.", { cause }))
  }
}

type DatabaseSessionRead =
  | { status: "absent" }
  | { status: "invalid"; sessionToken: string }
  | { status: "unavailable"; error: unknown }
  | { status: "valid"; session: AdapterSession; user: AdapterUser; sessionToken: string }

function isValidDate(value: unknown): value is Date {
  return value instanceof Date && !Number.isNaN(value.valueOf())
}

function adapterOf(config: ResolvedConfig): GuardedAdapter {
  // The config check guarantees an adapter with the session methods under this strategy.
  return config.adapter as GuardedAdapter
}

function sessionTokenOf(req: AuthRequest, config: ResolvedConfig): string | undefined {
  // Under `v4Cookies: "accept"`, else the token of a next-auth v4 session cookie (legacy-v4.ts).
  return req.cookies[config.cookies(req.secure).sessionToken.name] || v4SessionToken(req, config)
}

/** Looks the session up. Expired rows are deleted; malformed rows count as no session (docs/security.md DB-06). Never throws. */
async function readDatabaseSession(req: AuthRequest, config: ResolvedConfig): Promise<DatabaseSessionRead> {
  const sessionToken = sessionTokenOf(req, config)
  if (!sessionToken) return { status: "absent" }
  let found: FoundSession
  try {
    found = await adapterOf(config).getSessionAndUser(sessionToken)
  } catch (error) {
    return { status: "unavailable", error }
  }
  return checkedRead(found, sessionToken, config)
}

type FoundSession = Awaited<ReturnType<GuardedAdapter["getSessionAndUser"]>>

/**
 * What the adapter's answer means: valid, or invalid (malformed, or expired: then the row is deleted first). A
 * promise only for an expired row; the session read awaits the adapter itself and this, so the common read makes no
 * promise of its own here.
 */
function checkedRead(
  found: FoundSession,
  sessionToken: string,
  config: ResolvedConfig,
): DatabaseSessionRead | Promise<DatabaseSessionRead> {
  // Ids may be numbers (e.g. @auth/pg-adapter's SERIAL columns); anything else is a malformed row (docs/security.md DB-06).
  const id = found?.user?.id as unknown
  if (!found?.session || (typeof id !== "string" && typeof id !== "number")) return { status: "invalid", sessionToken }
  const expires =
    found.session.expires instanceof Date ? found.session.expires : new Date(found.session.expires as unknown as string)
  if (!isValidDate(expires)) return { status: "invalid", sessionToken }
  if (expires.valueOf() < Date.now()) return deleteExpired(sessionToken, config)
  const session = expires === found.session.expires ? found.session : merged(found.session, { expires })
  return { status: "valid", session, user: found.user, sessionToken }
}

async function deleteExpired(sessionToken: string, config: ResolvedConfig): Promise<DatabaseSessionRead> {
  try {
    await adapterOf(config).deleteSession(sessionToken)
  } catch (error) {
    config.logger.error(error as Error)
  }
  return { status: "invalid", sessionToken }
}

/** The Set-Cookie for a database session token. */
function sessionCookie(req: AuthRequest, config: ResolvedConfig, sessionToken: string, expires: Date): Cookie {
  const option = config.cookies(req.secure).sessionToken
  const maxAge = Math.max(0, Math.floor((expires.valueOf() - Date.now()) / 1000))
  return { name: option.name, value: sessionToken, options: merged(option.options, { maxAge, expires }) }
}

function clearCookie(req: AuthRequest, config: ResolvedConfig): Cookie[] {
  return [expiredCookie(config.cookies(req.secure).sessionToken), ...v4CookiesCleared(req, config)]
}

/**
 * Extends a session when `updateAge` has passed since it was last extended (0 = every read). A failed update
 * still serves the session, without extending it (docs/security.md DB-05). Returns the new expiry, or undefined when not extended.
 */
function isTouchDue(session: AdapterSession, config: ResolvedConfig): boolean {
  const { maxAge, updateAge } = config.session
  return session.expires.valueOf() - maxAge * 1000 + updateAge * 1000 <= Date.now()
}

/** Extends the session (the caller checked {@link isTouchDue}); undefined when the update failed. */
async function touch(session: AdapterSession, config: ResolvedConfig): Promise<Date | undefined> {
  const { maxAge } = config.session
  const expires = new Date(Date.now() + maxAge * 1000)
  try {
    await adapterOf(config).updateSession({ sessionToken: session.sessionToken, expires })
    return expires
  } catch (error) {
    config.logger.error(error as Error)
    return undefined
  }
}

export const databaseStrategy: SessionStrategy = {
  name: "database",

  async currentUser(req, config) {
    const read = await readDatabaseSession(req, config)
    return read.status === "valid" ? read.user : undefined
  },

  /**
   * Creates the session row, then deletes the session the browser already had, whoever it belonged to, so a sign-in
   * always ends the session it replaces (ASVS 5.0 7.2.4; docs/security.md CK-13). A failed sign-in keeps the old one.
   */
  async issue({ user }, _identity, req, config) {
    const adapter = adapterOf(config)
    const expires = new Date(Date.now() + config.session.maxAge * 1000)
    const session = await adapter.createSession({
      sessionToken: config.session.generateSessionToken(),
      userId: String(user.id),
      expires,
    })
    const previous = sessionTokenOf(req, config)
    if (previous && previous !== session.sessionToken) {
      try {
        await adapter.deleteSession(previous)
        if (config.revocation) await unlistTokens(config, [previous])
      } catch (error) {
        config.logger.error(error as Error)
      }
    }
    const sessionExpires = isValidDate(session.expires) ? session.expires : expires
    if (config.revocation) {
      const entry = await listedEntry(session.sessionToken, sessionExpires, req, config)
      try {
        await listIssued(config, String(user.id), entry)
      } catch (error) {
        // Under onStoreError "deny" a session the list cannot reach is not started.
        try {
          await adapter.deleteSession(session.sessionToken)
        } catch (cause) {
          config.logger.error(cause as Error)
        }
        throw error
      }
    }
    return [sessionCookie(req, config, session.sessionToken, sessionExpires), ...v4CookiesCleared(req, config)]
  },

  /**
   * Looks the row up, extends it when `updateAge` has passed (the cookie is re-set only then), and answers with the
   * `session` callback's output. An adapter failure answers null and keeps the cookie: the session may be fine once
   * the database is back (docs/security.md DB-02).
   */
  async read(req, config, update): Promise<SessionAnswer> {
    // readDatabaseSession's steps, inlined: no promise between the adapter's and this frame's. Sharing one helper
    // (the adapter's promise with a `then` to the checked read) cost 2,000 instructions a read (callgrind GDr, 2%).
    const sessionToken = sessionTokenOf(req, config)
    if (!sessionToken) return { session: null }
    let read: DatabaseSessionRead
    try {
      const found = await adapterOf(config).getSessionAndUser(sessionToken)
      const checked = checkedRead(found, sessionToken, config)
      read = checked instanceof Promise ? await checked : checked
    } catch (error) {
      read = { status: "unavailable", error }
    }
    if (read.status === "absent") return { session: null }
    if (read.status === "unavailable") {
      config.logger.error(
        new SessionTokenError("The session could not be read from the adapter.", { cause: read.error }),
      )
      return { session: null }
    }
    if (read.status === "invalid") return { session: null, cookies: clearCookie(req, config) }
    const { user, session: row } = read
    // As in Auth.js, the answer shows the row as read; an extension shows in the cookie (and the next read).
    // Without an extension due, a session callback or a session event (the common read), no promise is made for them.
    const extended = isTouchDue(row, config) ? await touch(row, config) : undefined
    if (config.revocation) await keepListed(read, extended, req, config)
    const fallback: Session = {
      user: { name: user.name, email: user.email, image: user.image },
      expires: isoDate(row.expires),
    }
    // As in Auth.js, the callback sees the row itself (its `expires` a Date) with the user on it.
    const session = config.callbacks.session
      ? await applySessionCallback(
          {
            session: merged(row, { user }) as never,
            user,
            ...(update ? { newSession: update.data, trigger: "update" as const } : {}),
          },
          fallback,
          config,
        )
      : fallback
    if (config.events.session)
      await emitEvent(config, "session", { session } as Parameters<typeof emitEvent<"session">>[2])
    // A session read from a next-auth v4 cookie is re-issued under this app's name, and the v4 cookie expired.
    const cleared = v4CookiesCleared(req, config)
    const fromV4 = cleared.length > 0 && !req.cookies[config.cookies(req.secure).sessionToken.name]
    const reissue = extended ?? (fromV4 ? row.expires : undefined)
    const cookies = reissue ? [sessionCookie(req, config, row.sessionToken, reissue), ...cleared] : cleared
    return { session, cookies: cookies.length > 0 ? cookies : undefined, user }
  },

  /** Deletes the row (a failure is logged; the cookie is expired anyway, docs/security.md DB-05) and fires signOut. */
  async revoke(req, config) {
    const sessionToken = sessionTokenOf(req, config)
    if (!sessionToken) return []
    try {
      const deleted = await adapterOf(config).deleteSession(sessionToken)
      if (config.revocation) await unlistTokens(config, [sessionToken])
      await emitEvent(config, "signOut", { session: deleted ?? null })
    } catch (cause) {
      config.logger.error(
        new SignOutError("The session row could not be deleted; the cookie is cleared anyway.", { cause }),
      )
    }
    return clearCookie(req, config)
  },

  async listedIdOf(req, config) {
    const sessionToken = sessionTokenOf(req, config)
    return sessionToken ? listedIdFor(sessionToken, config) : undefined
  },

  /** Deletes the row of a listed session, wherever its cookie is: the next read of that cookie finds none. */
  async endListed(entry, config) {
    if (!entry.sealed) throw new AdapterError("The listed session holds no sealed token to end it with.")
    const { payload } = await decryptClaims(entry.sealed, config.secrets, SEAL_SALT)
    if (typeof payload.t !== "string") throw new AdapterError("The listed session's sealed token is malformed.")
    await adapterOf(config).deleteSession(payload.t)
  },
}
