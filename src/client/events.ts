// Session change notices: to the SessionProviders of this page (directly) and of the other tabs (BroadcastChannel).
import type { Session } from "../types.js"
import { isRecord } from "./config.js"

/** The BroadcastChannel name the tabs of one origin share. */
export const SESSION_CHANNEL = "gatehouse-session"

/** What changed the session. */
export type SessionTrigger = "signin" | "signout" | "update" | "getSession"

/** A session change as a listener sees it: `session` is present when the new session is already known. */
export interface SessionChange {
  trigger: SessionTrigger
  /** The new session when it is known (an update, a getSession); absent means "refetch it". */
  session?: Session | null
  /** True when the change came from another tab. */
  remote: boolean
}

/** Called on every session change; a returned promise is awaited by the helper that caused the change. */
export type SessionListener = (change: SessionChange) => void | Promise<void>

const listeners = new Set<SessionListener>()
let channel: BroadcastChannel | null | undefined

const TRIGGERS: ReadonlySet<string> = new Set(["signin", "signout", "update", "getSession"])

function onMessage(event: MessageEvent<unknown>): void {
  const message = event.data
  if (!isRecord(message) || message.event !== "session" || !isRecord(message.data)) return
  const trigger = message.data.trigger
  if (typeof trigger !== "string" || !TRIGGERS.has(trigger)) return
  // Another tab's session object is not trusted as is: each listener refetches its own.
  for (const listener of [...listeners]) void listener({ trigger: trigger as SessionTrigger, remote: true })
}

/** The page's one channel, created on first use (never during server rendering, never where unsupported). */
function sessionChannel(): BroadcastChannel | null {
  if (channel !== undefined) return channel
  // Read off globalThis: Next's Edge build warns about a bare BroadcastChannel in code it server-renders on Edge.
  const Channel = (globalThis as { BroadcastChannel?: typeof BroadcastChannel }).BroadcastChannel
  if (Channel === undefined) return (channel = null)
  channel = new Channel(SESSION_CHANNEL)
  channel.addEventListener("message", onMessage)
  return channel
}

/** Listens to session changes of this page and of the other tabs; returns the function that stops listening. */
export function subscribe(listener: SessionListener): () => void {
  sessionChannel()
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

/** Tells the other tabs that the session changed (they refetch it). */
export function broadcast(trigger: SessionTrigger): void {
  sessionChannel()?.postMessage({ event: "session", data: { trigger } })
}

/** Tells this page's listeners that the session changed and waits for them (e.g. a SessionProvider's refetch). */
export async function notifyLocal(trigger: SessionTrigger, session?: Session | null): Promise<void> {
  const change: SessionChange = session === undefined ? { trigger, remote: false } : { trigger, session, remote: false }
  // One failing listener must not fail the sign-in or sign-out that caused the change.
  await Promise.allSettled([...listeners].map(async (listener) => listener(change)))
}
