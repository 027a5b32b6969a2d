// Public `gatehouse/sessions`: a user's sessions listed, and ended one at a time or all at once ("sign out
// everywhere"), on both session strategies. Needs `session.revocation` (session/revocation.ts, session/session-list.ts).
import { AdapterError, InvalidRequest, RevocationNotEnabled } from "./errors.js"
import { resolvedOrThrow, type SessionSource } from "./integrations/session-read.js"
import { sessionRequestOf } from "./integrations/session-read.js"
import type { ListedSession, ResolvedConfig } from "./pipeline-types.js"
import { ownerOf, readList, unlistSessions, userKeyOf } from "./session/session-list.js"
import type { AuthConfig } from "./types.js"

/** One session of a user, as an account page shows it. */
export interface SessionInfo {
  /** The session's id: pass it to {@link revokeSession}. Never the cookie nor any part of it. */
  sessionId: string
  /** When the session was issued (the sign-in). */
  createdAt: Date
  /** When it ends unless it is used again (each re-issue moves it on). */
  expires: Date
  /** When its cookie was last re-issued (at most once per `session.updateAge`); absent before the first. */
  lastSeenAt?: Date
  /** The User-Agent header of the sign-in, cut to 256 characters. */
  userAgent?: string
  /** True for the session of the `request` given to {@link listSessions}. */
  current?: boolean
}

/** Something that carries the request headers: a web `Request`, or its `Headers` (any object with `get`). */
export type SessionRequest = Request | { get(name: string): string | null }

/** A session id as Gatehouse makes them (base64url); anything else names no session. */
const SESSION_ID = /^[A-Za-z0-9_-]{16,64}$/

/**
 * The config resolved, with revocation on; else RevocationNotEnabled (a broken config throws its own error). An
 * integration's resolved config is taken as it is.
 */
function withRevocation(config: AuthConfig | ResolvedConfig): ResolvedConfig {
  const resolved = resolvedOrThrow(config)
  if (!resolved.revocation)
    throw new RevocationNotEnabled(
      "Listing and revoking sessions needs `session: { revocation: true }` in the config (docs/guide.md, " +
        '"Listing and revoking sessions").',
    )
  return resolved
}

function checkUserId(userId: unknown): asserts userId is string {
  if (typeof userId !== "string" || userId === "") throw new InvalidRequest("`userId` must be a non-empty string.")
}

/** The request as the session read sees it: a `Request` gives its URL; bare headers the canonical URL, else the cookie's prefix. */
function sourceOf(request: SessionRequest, resolved: ResolvedConfig): SessionSource {
  if (typeof Request !== "undefined" && request instanceof Request)
    return { url: new URL(request.url), header: request.headers }
  const header = request as { get(name: string): string | null }
  const secureName = `${resolved.cookies(true).sessionToken.name}=`
  const https = (header.get("cookie") ?? "").split(/;\s*/).some((c) => c.startsWith(secureName))
  return { url: resolved.canonicalUrl ?? new URL(https ? "https://localhost" : "http://localhost"), header }
}

function toInfo(entry: ListedSession, current: string | undefined): SessionInfo {
  const info: SessionInfo = {
    sessionId: entry.id,
    createdAt: new Date(entry.createdAt),
    expires: new Date(entry.expires),
  }
  if (entry.lastSeenAt !== undefined) info.lastSeenAt = new Date(entry.lastSeenAt)
  if (entry.userAgent !== undefined) info.userAgent = entry.userAgent
  if (current !== undefined && entry.id === current) info.current = true
  return info
}

/**
 * The user's sessions that have not ended, newest first; each is listed from the moment it is issued. With
 * `request`, the session that request carries is marked `current`. Store failures throw AdapterError.
 */
export async function listSessions(
  config: AuthConfig,
  userId: string,
  options: { request?: SessionRequest } = {},
): Promise<SessionInfo[]> {
  const resolved = withRevocation(config)
  checkUserId(userId)
  const list = await readList(resolved, await userKeyOf(userId))
  const req = options.request ? sessionRequestOf(sourceOf(options.request, resolved), resolved) : undefined
  const current = req ? await resolved.sessionStrategy.listedIdOf(req, resolved) : undefined
  return list.sort((a, b) => b.createdAt - a.createdAt).map((entry) => toInfo(entry, current))
}

/**
 * Ends one session wherever its cookie is: the next read of that cookie, in any process sharing the store (JWT) or
 * the adapter (database), finds no session. Resolves false, and ends nothing, for an id that is not listed (unknown,
 * forged, already ended) or, with `userId`, that belongs to another user; pass the signed-in user's id when the id
 * comes from a request. Store or adapter failures throw AdapterError.
 */
export async function revokeSession(
  config: AuthConfig,
  sessionId: string,
  options: { userId?: string } = {},
): Promise<boolean> {
  const resolved = withRevocation(config)
  if (typeof sessionId !== "string" || !SESSION_ID.test(sessionId)) return false
  const user = await ownerOf(resolved, sessionId)
  if (user === null) return false
  if (options.userId !== undefined) {
    checkUserId(options.userId)
    if (user !== (await userKeyOf(options.userId))) return false
  }
  const entry = (await readList(resolved, user)).find((s) => s.id === sessionId)
  if (!entry) return false
  await resolved.sessionStrategy.endListed(entry, resolved)
  await unlistSessions(resolved, [sessionId], user)
  return true
}

/**
 * Ends every session the user has when called ("sign out everywhere", or after a password change), except
 * `except` (e.g. the session making the request). The user can sign in again at once. Resolves to the number ended;
 * when some could not be ended it throws AdapterError after ending the others (call it again to retry).
 */
export async function revokeUserSessions(
  config: AuthConfig,
  userId: string,
  options: { except?: string } = {},
): Promise<number> {
  const resolved = withRevocation(config)
  checkUserId(userId)
  const user = await userKeyOf(userId)
  const targets = (await readList(resolved, user)).filter((s) => s.id !== options.except)
  const results = await Promise.allSettled(targets.map((s) => resolved.sessionStrategy.endListed(s, resolved)))
  const ended = targets.filter((_, i) => results[i]?.status === "fulfilled").map((s) => s.id)
  await unlistSessions(resolved, ended, user)
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected")
  if (failed)
    throw new AdapterError(
      `${targets.length - ended.length} of the user's ${targets.length} sessions could not be ended; the others were.`,
      { cause: failed.reason },
    )
  return ended.length
}
