// Session sync of gatehouse/v4/react, as next-auth 4's client does it: between tabs through a localStorage key whose
// writes the other tabs of the origin see as `storage` events, and within the page through the SessionProviders
// registered here (signIn and signOut ask them to refetch).
import { isRecord } from "../../client/config.js"

/** The localStorage key next-auth 4 uses, so that tabs still running next-auth/react and these see each other. */
const MESSAGE_KEY = "nextauth.message"

/** What one tab tells the others: the session changed, refetch it (a tab never takes another tab's session object). */
export type SyncTrigger = "signout" | "getSession"

let sequence = 0

/**
 * Tells the other tabs to refetch their session: writes `{ event: "session", data: { trigger }, timestamp }` (seconds,
 * as next-auth 4) under the key. A `storage` event fires only when the stored text changes, so each message also
 * carries its own id: two messages within one second are both seen. Nothing happens on the server or without
 * localStorage (private modes may refuse it).
 */
export function postSessionMessage(trigger: SyncTrigger): void {
  if (typeof window === "undefined") return
  sequence += 1
  const message = {
    event: "session",
    data: { trigger },
    timestamp: Math.floor(Date.now() / 1000),
    id: `${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}.${sequence}`,
  }
  try {
    window.localStorage.setItem(MESSAGE_KEY, JSON.stringify(message))
  } catch {
    // Storage unavailable or full: the other tabs catch up on their next refetch.
  }
}

/** Calls `onMessage` for each session message another tab writes; returns the function that stops listening. */
export function receiveSessionMessages(onMessage: () => void): () => void {
  const handler = (event: StorageEvent): void => {
    if (event.key !== MESSAGE_KEY || event.newValue === null) return
    let message: unknown
    try {
      message = JSON.parse(event.newValue)
    } catch {
      return
    }
    if (!isRecord(message) || message.event !== "session" || !isRecord(message.data)) return
    onMessage()
  }
  window.addEventListener("storage", handler)
  return () => window.removeEventListener("storage", handler)
}

/** A mounted SessionProvider, as signIn, signOut and update reach it. */
export interface LocalSession {
  /** Refetch the session without telling the other tabs (next-auth 4's "storage" event). */
  refetch(): Promise<void>
}

const mounted = new Set<LocalSession>()

/** Registers a mounted SessionProvider; returns the function that removes it. */
export function registerLocalSession(session: LocalSession): () => void {
  mounted.add(session)
  return () => {
    mounted.delete(session)
  }
}

/** Has every SessionProvider of the page refetch, and waits for them (a failure of one does not fail the caller). */
export async function refetchLocalSessions(): Promise<void> {
  await Promise.allSettled([...mounted].map((session) => session.refetch()))
}
