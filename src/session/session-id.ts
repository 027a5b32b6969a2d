// The session id of a JWT session: a random value minted when the session is issued and kept, unchanged, in the
// encrypted token across every re-issue. Revocation, the session list and server-side provider tokens key on it. It is
// not derived from the cookie and no part of the cookie can be derived from it: knowing an id builds no session.
import { randomBytes, toBase64Url } from "#crypto"
import type { JWT } from "../types.js"
import { merged } from "../lib/merged.js"

/** The claim of the session JWT that holds the session id. */
export const SESSION_ID_CLAIM = "sid"

/** A new session id: 16 bytes from the CSPRNG, base64url (22 characters). */
export function newSessionId(): string {
  return toBase64Url(randomBytes(16))
}

/** The session id a token carries, when it carries a well-formed one. */
export function sessionIdOf(token: JWT | null | undefined): string | undefined {
  const sid = token?.[SESSION_ID_CLAIM]
  return typeof sid === "string" && /^[A-Za-z0-9_-]{16,64}$/.test(sid) ? sid : undefined
}

/** `token` carrying the session id `sid`: the same object when it already does, else a copy with it. */
export function withSessionId(token: JWT, sid: string): JWT {
  return token[SESSION_ID_CLAIM] === sid ? token : merged(token, { [SESSION_ID_CLAIM]: sid })
}
