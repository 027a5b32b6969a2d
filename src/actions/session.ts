// GET /session (read) and POST /session (update, CSRF-checked): the JWT strategy, with re-issue only when due.
import type { ResolvedConfig } from "../config/resolve.js"
import { emitEvent } from "../events.js"
import type { AuthRequest } from "../request/parse.js"
import { NO_STORE_JSON_HEADERS } from "../response/build.js"
import { clearJwtSession, isReissueDue, issueJwtSession, readJwtSession } from "../session/jwt.js"
import type { CallbacksOptions, Cookie, JWT, ResponseInternal, Session } from "../types.js"
import { refreshIfDue } from "../session/refresh.js"
import { clearDatabaseSession, databaseSessionCookie, readDatabaseSession, touchDatabaseSession } from "../session/database.js"
import { SessionTokenError } from "../errors.js"

/** The session callback's parameter: Auth.js types it as the intersection of the JWT and database forms. */
type SessionCallbackParams = Parameters<NonNullable<CallbacksOptions["session"]>>[0]

const NULL_SESSION: ResponseInternal = Object.freeze({ status: 200, headers: NO_STORE_JSON_HEADERS, body: null })

/** The default `session` callback output: name, email and image of the token, the expiry, and a refresh error if any. */
function defaultSession(token: JWT, expires: string): Session {
  const session: Session = { user: { name: token.name, email: token.email, image: token.picture }, expires }
  if (token.error === "RefreshTokenError") session.error = "RefreshTokenError"
  return session
}

/**
 * Reads (and on update, changes) the JWT session. `update` carries the client's `data` for the `jwt`
 * callback (trigger "update"); it always re-issues the cookie.
 */
export async function session(req: AuthRequest, config: ResolvedConfig, update?: { data: unknown }): Promise<ResponseInternal> {
  if (config.session.strategy === "database") return databaseSession(req, config, update)
  const read = await readJwtSession(req, config)
  if (read.status === "absent") return NULL_SESSION
  if (read.status === "invalid") {
    config.logger.error(read.error)
    return { status: 200, headers: NO_STORE_JSON_HEADERS, body: null, cookies: clearJwtSession(req, config, read.names) }
  }
  let token: JWT | null = read.token
  let changed = update !== undefined
  if (token.account !== undefined) {
    const refreshed = await refreshIfDue(token, config)
    if (refreshed) {
      token = refreshed
      changed = true
    }
  }
  const jwtCallback = config.callbacks.jwt
  if (jwtCallback) {
    const before = JSON.stringify(token)
    token = await jwtCallback(update ? { token, user: undefined as never, trigger: "update", session: update.data } : { token, user: undefined as never, session: undefined })
    if (!token) return { status: 200, headers: NO_STORE_JSON_HEADERS, body: null, cookies: clearJwtSession(req, config, read.names) }
    changed ||= JSON.stringify(token) !== before
  }
  let cookies: Cookie[] | undefined
  let expires: string
  if (changed || isReissueDue(token, read.secretIndex, config)) {
    const issued = await issueJwtSession(token, req, config, read.names)
    cookies = issued.cookies
    expires = issued.expires.toISOString()
  } else {
    expires = new Date((token.exp as number) * 1000).toISOString()
  }
  const sessionCallback = config.callbacks.session
  const base = defaultSession(token, expires)
  const result = sessionCallback
    ? await sessionCallback({ session: base, token, ...(update ? { newSession: update.data, trigger: "update" as const } : {}) } as SessionCallbackParams)
    : base
  await emitEvent(config, "session", { session: result as Session, token })
  return { status: 200, headers: NO_STORE_JSON_HEADERS, body: result, cookies }
}

/**
 * The database strategy: look the row up, delete it when expired, extend it when `updateAge` has passed (the
 * cookie is re-set only then), and answer with the `session` callback's output. An adapter failure answers
 * `null` and keeps the cookie (the session may be fine once the database is back, DB-02).
 */
async function databaseSession(req: AuthRequest, config: ResolvedConfig, update?: { data: unknown }): Promise<ResponseInternal> {
  const read = await readDatabaseSession(req, config)
  if (read.status === "absent") return NULL_SESSION
  if (read.status === "unavailable") {
    config.logger.error(new SessionTokenError("The session could not be read from the adapter.", { cause: read.error }))
    return NULL_SESSION
  }
  if (read.status === "invalid") return { status: 200, headers: NO_STORE_JSON_HEADERS, body: null, cookies: clearDatabaseSession(req, config) }
  const { session: row, user } = read
  const extended = await touchDatabaseSession(row, config)
  const base: Session = { user: { name: user.name, email: user.email, image: user.image }, expires: row.expires.toISOString() }
  const sessionCallback = config.callbacks.session
  const result = sessionCallback
    ? await sessionCallback({ session: { ...row, ...base, user }, user, ...(update ? { newSession: update.data, trigger: "update" as const } : {}) } as SessionCallbackParams)
    : base
  await emitEvent(config, "session", { session: result as Session } as { session: Session; token: JWT })
  const cookies = extended ? [databaseSessionCookie(req, config, row.sessionToken, extended)] : undefined
  return { status: 200, headers: NO_STORE_JSON_HEADERS, body: result, cookies }
}
