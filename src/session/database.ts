// Database session strategy: the cookie holds only a session token; the row lives in the adapter (wire.md §2.2, §2.9).
import type { ResolvedConfig } from "../config/resolve.js"
import type { AdapterSession, AdapterUser } from "../adapters/index.js"
import type { GuardedAdapter } from "../adapters/guard.js"
import type { AuthRequest } from "../request/parse.js"
import type { Cookie } from "../types.js"
import { expiredCookie } from "./cookie-store.js"

export type DatabaseSessionRead =
  | { status: "absent" }
  | { status: "invalid"; sessionToken: string }
  | { status: "unavailable"; error: unknown }
  | { status: "valid"; session: AdapterSession; user: AdapterUser; sessionToken: string }

function isValidDate(value: unknown): value is Date {
  return value instanceof Date && !Number.isNaN(value.valueOf())
}

/** Looks the session up. Expired rows are deleted; malformed rows count as no session (DB-06). Never throws. */
export async function readDatabaseSession(req: AuthRequest, config: ResolvedConfig): Promise<DatabaseSessionRead> {
  const adapter = config.adapter as GuardedAdapter
  const sessionToken = req.cookies[config.cookies(req.secure).sessionToken.name]
  if (!sessionToken) return { status: "absent" }
  let found: Awaited<ReturnType<GuardedAdapter["getSessionAndUser"]>>
  try {
    found = await adapter.getSessionAndUser(sessionToken)
  } catch (error) {
    return { status: "unavailable", error }
  }
  // Ids may be numbers (e.g. @auth/pg-adapter's SERIAL columns); anything else is a malformed row (DB-06).
  const id = found?.user?.id as unknown
  if (!found || !found.session || (typeof id !== "string" && typeof id !== "number")) return { status: "invalid", sessionToken }
  const expires = found.session.expires instanceof Date ? found.session.expires : new Date(found.session.expires as unknown as string)
  if (!isValidDate(expires)) return { status: "invalid", sessionToken }
  if (expires.valueOf() < Date.now()) {
    try {
      await adapter.deleteSession(sessionToken)
    } catch (error) {
      config.logger.error(error as Error)
    }
    return { status: "invalid", sessionToken }
  }
  return { status: "valid", session: { ...found.session, expires }, user: found.user, sessionToken }
}

/** The Set-Cookie for a database session token. */
export function databaseSessionCookie(req: AuthRequest, config: ResolvedConfig, sessionToken: string, expires: Date): Cookie {
  const option = config.cookies(req.secure).sessionToken
  const maxAge = Math.max(0, Math.floor((expires.valueOf() - Date.now()) / 1000))
  return { name: option.name, value: sessionToken, options: { ...option.options, maxAge, expires } }
}

/** Expires the database session cookie. */
export function clearDatabaseSession(req: AuthRequest, config: ResolvedConfig): Cookie[] {
  return [expiredCookie(config.cookies(req.secure).sessionToken)]
}

/**
 * Extends a session when `updateAge` has passed since it was last extended (0 = every read). A failed update
 * still serves the session, without extending it (DB-05). Returns the new expiry, or undefined when not extended.
 */
export async function touchDatabaseSession(session: AdapterSession, config: ResolvedConfig): Promise<Date | undefined> {
  const { maxAge, updateAge } = config.session
  const lastExtended = session.expires.valueOf() - maxAge * 1000
  if (lastExtended + updateAge * 1000 > Date.now()) return undefined
  const expires = new Date(Date.now() + maxAge * 1000)
  try {
    await (config.adapter as GuardedAdapter).updateSession({ sessionToken: session.sessionToken, expires })
    return expires
  } catch (error) {
    config.logger.error(error as Error)
    return undefined
  }
}

/** Creates a session row for a user and returns its cookie. */
export async function createDatabaseSession(adapter: GuardedAdapter, req: AuthRequest, config: ResolvedConfig, userId: string): Promise<{ session: AdapterSession; cookie: Cookie }> {
  const expires = new Date(Date.now() + config.session.maxAge * 1000)
  const session = await adapter.createSession({ sessionToken: config.session.generateSessionToken(), userId, expires })
  const sessionExpires = session.expires instanceof Date ? session.expires : expires
  return { session, cookie: databaseSessionCookie(req, config, session.sessionToken, sessionExpires) }
}
