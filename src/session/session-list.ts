// The per-user session list behind gatehouse/sessions (`session.revocation`): one store key per user holding the
// user's sessions as JSON, changed only under the store lock so concurrent sign-ins keep each other's entries, and one
// key per session naming its user (revokeSession finds the list from the id). Both strategies record here at issue.
import { AdapterError } from "../errors.js"
import type { AuthRequest, ListedSession, ResolvedConfig } from "../pipeline-types.js"
import { keyDigest, storeKey } from "../stores/keys.js"
import { withStoreLock } from "../stores/lock.js"
import { merged } from "../lib/merged.js"

/** Sessions listed per user at most; a sign-in past it ends the oldest, so no session is ever left unlisted. */
const MAX_LISTED = 100
/** The longest user agent kept. */
const MAX_USER_AGENT = 256

const listKey = (user: string) => storeKey("sessions", "user", user)
const lockKey = (user: string) => storeKey("sessions", "lock", user)
const ownerKey = (id: string) => storeKey("sessions", "owner", id)

/** How a user is named in keys: the SHA-256 of the id, so a key shows no user id. */
export function userKeyOf(userId: string): Promise<string> {
  return Promise.resolve(keyDigest(userId))
}

function isListed(value: unknown): value is ListedSession {
  const s = value as ListedSession
  return (
    typeof s === "object" &&
    s !== null &&
    typeof s.id === "string" &&
    typeof s.createdAt === "number" &&
    typeof s.expires === "number" &&
    (s.lastSeenAt === undefined || typeof s.lastSeenAt === "number") &&
    (s.userAgent === undefined || typeof s.userAgent === "string") &&
    (s.sealed === undefined || typeof s.sealed === "string")
  )
}

/** The live entries of a stored list (an unreadable value counts as none). */
function parse(value: string | null, now: number): ListedSession[] {
  if (value === null) return []
  try {
    const list: unknown = JSON.parse(value)
    return Array.isArray(list) ? list.filter((s): s is ListedSession => isListed(s) && s.expires > now) : []
  } catch {
    return []
  }
}

/** The user's live sessions as stored (no lock: a read). */
export async function readList(config: ResolvedConfig, user: string): Promise<ListedSession[]> {
  return parse(await config.store.get(listKey(user)), Date.now())
}

const seconds = (until: number, now: number) => Math.max(1, Math.ceil((until - now) / 1000))

/**
 * Changes the user's list under the lock: `change` gets the live entries and returns the new list; expired entries
 * are pruned, the key lives until the latest expiry. Resolves to the entries past {@link MAX_LISTED} (oldest first),
 * which the caller must end. Store failures and a lock held too long throw AdapterError.
 */
async function changeList(
  config: ResolvedConfig,
  user: string,
  change: (list: ListedSession[]) => ListedSession[],
): Promise<ListedSession[]> {
  const fail = (cause: unknown): never => {
    throw new AdapterError("The session list could not be updated in the store.", { cause })
  }
  return withStoreLock(
    config.store,
    lockKey(user),
    {
      ttlSeconds: 10,
      waitMs: 5_000,
      backoffMs: [5, 10, 25, 50, 100],
      onWaitTimeout: () => fail(new Error("another process held the session list's lock for 5 s")),
      onStoreError: fail,
      onReleaseError: (cause) =>
        config.logger.error(new AdapterError("The session list's lock was not released.", { cause })),
    },
    async () => {
      const now = Date.now()
      let list: ListedSession[]
      try {
        list = change(parse(await config.store.get(listKey(user)), now)).filter((s) => s.expires > now)
        list.sort((a, b) => a.createdAt - b.createdAt)
        const dropped = list.length > MAX_LISTED ? list.splice(0, list.length - MAX_LISTED) : []
        if (list.length === 0) await config.store.delete(listKey(user))
        else
          await config.store.set(
            listKey(user),
            JSON.stringify(list),
            seconds(Math.max(...list.map((s) => s.expires)), now),
          )
        return dropped
      } catch (cause) {
        return fail(cause)
      }
    },
  )
}

/** The user agent worth keeping of a request, if it sent one. */
export function userAgentOf(req: AuthRequest): string | undefined {
  const agent = req.header.get("user-agent")
  return agent ? agent.slice(0, MAX_USER_AGENT) : undefined
}

/**
 * Lists a session just issued for `userId`. Throws AdapterError when the store failed. Sessions pushed past
 * {@link MAX_LISTED} are ended through the strategy and unlisted.
 */
export async function listSession(config: ResolvedConfig, userId: string, entry: ListedSession): Promise<void> {
  const user = await userKeyOf(userId)
  const dropped = await changeList(config, user, (list) => [...list.filter((s) => s.id !== entry.id), entry])
  // The owner key last: a session whose key is missing reads as unlisted and is listed again (checkRevoked).
  try {
    await config.store.set(ownerKey(entry.id), user, seconds(entry.expires, Date.now()))
  } catch (cause) {
    throw new AdapterError("The new session could not be listed in the store.", { cause })
  }
  for (const old of dropped) {
    try {
      await config.sessionStrategy.endListed(old, config)
      await config.store.delete(ownerKey(old.id))
    } catch (cause) {
      config.logger.error(new AdapterError("A session past the per-user limit could not be ended.", { cause }))
    }
  }
}

/** The user key a listed session belongs to, or null when the id is not listed (unknown, forged or expired). */
export function ownerOf(config: ResolvedConfig, id: string): Promise<string | null> {
  return config.store.get(ownerKey(id))
}

/** Records that a listed session was re-issued: its new expiry and when it was seen. Throws AdapterError. */
export async function touchSession(config: ResolvedConfig, id: string, expires: number): Promise<void> {
  const user = await ownerOf(config, id)
  if (user === null) return
  const now = Date.now()
  await changeList(config, user, (list) =>
    list.map((s) => (s.id === id ? merged(s, { expires: Math.max(s.expires, expires), lastSeenAt: now }) : s)),
  )
  await config.store.set(ownerKey(id), user, seconds(expires, now))
}

/** Removes sessions from their user's list (`user` given when known). Throws AdapterError. */
export async function unlistSessions(config: ResolvedConfig, ids: readonly string[], user?: string): Promise<void> {
  if (ids.length === 0) return
  const owner = user ?? (await ownerOf(config, ids[0] as string))
  if (owner !== null) await changeList(config, owner, (list) => list.filter((s) => !ids.includes(s.id)))
  for (const id of ids) await config.store.delete(ownerKey(id))
}

/**
 * Lists a session at its issue under `session.revocation.onStoreError`: "deny" throws (the sign-in fails rather than
 * start a session "sign out everywhere" could not reach), "allow" logs and goes on.
 */
export async function listIssued(config: ResolvedConfig, userId: string, entry: ListedSession): Promise<void> {
  try {
    await listSession(config, userId, entry)
  } catch (error) {
    if (config.revocation?.onStoreError !== "allow") throw error
    config.logger.error(error as Error)
  }
}

/** When a listed session re-issued now expires: the later of the cookie's and the token's expiry. */
export function listedExpiry(config: ResolvedConfig): number {
  return Date.now() + Math.max(config.session.maxAge, config.jwt.maxAge) * 1000
}

/**
 * After a re-issue: the new expiry and last-seen time go to the list, or, for a session that had no id yet
 * (`userId` given), a new entry. A failure is logged; the session is served all the same.
 */
export async function noteReissue(
  config: ResolvedConfig,
  req: AuthRequest,
  id: string,
  userId?: string,
): Promise<void> {
  const expires = listedExpiry(config)
  try {
    if (userId === undefined) await touchSession(config, id, expires)
    else await listSession(config, userId, { id, createdAt: Date.now(), expires, userAgent: userAgentOf(req) })
  } catch (cause) {
    config.logger.error(new AdapterError("The session list could not record a re-issued session.", { cause }))
  }
}
