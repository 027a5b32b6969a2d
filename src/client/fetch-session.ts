// The one GET /session request of the browser helpers, telling "signed out" (null) apart from "could not ask".
import type { Session } from "../types.js"
import { authUrl, isRecord, readJson, reportClientError } from "./config.js"

/** A session read: the session (null when signed out), or `ok: false` when the server could not be asked. */
export type SessionRead = { ok: true; session: Session | null } | { ok: false }

/** A `/session` body as a session: null and an empty object both mean signed out (as next-auth/react reads it). */
export function sessionFromBody(body: unknown): Session | null | undefined {
  if (body === null) return null
  if (!isRecord(body)) return undefined
  return Object.keys(body).length > 0 ? (body as unknown as Session) : null
}

/** GET {basePath}/session, without telling anyone: the SessionProvider's own refetch. */
export async function fetchSession(): Promise<SessionRead> {
  try {
    const res = await fetch(authUrl("session"), {
      headers: { accept: "application/json" },
      credentials: "same-origin",
      cache: "no-store",
    })
    const session = sessionFromBody(await readJson(res))
    if (!res.ok || session === undefined) {
      reportClientError("GET session", new Error(`unexpected answer ${res.status} from ${authUrl("session")}`))
      return { ok: false }
    }
    return { ok: true, session }
  } catch (cause) {
    reportClientError("GET session", cause)
    return { ok: false }
  }
}
