// The session strategy: the one interface through which sessions are issued, read, updated and revoked. JWT or
// database is chosen once, when the config is resolved (config.sessionStrategy).
import type { AdapterUser } from "../adapters/index.js"
import type { ResolvedConfig } from "../config/resolve.js"
import type { LinkOutcome, VerifiedIdentity } from "../domain.js"
import type { AuthRequest } from "../request/parse.js"
import type { Cookie, Session } from "../types.js"

/** A session read: what `/session` answers (null when signed out) and any cookie the read sets or clears. */
export interface SessionAnswer {
  session: Session | null
  cookies?: Cookie[]
}

export interface SessionStrategy {
  readonly name: "jwt" | "database"
  /** The user already signed in on this browser (to link a new account to), if it is an adapter user. */
  currentUser(req: AuthRequest, config: ResolvedConfig): Promise<AdapterUser | undefined>
  /** Starts the session of a linked sign-in, replacing any session the browser had; returns its cookies. */
  issue(signedIn: LinkOutcome, identity: VerifiedIdentity, req: AuthRequest, config: ResolvedConfig): Promise<Cookie[]>
  /** Reads the session (and, with `update`, changes it: POST /session); slides its expiry when due. Never throws for bad cookies. */
  read(req: AuthRequest, config: ResolvedConfig, update?: { data: unknown }): Promise<SessionAnswer>
  /** Ends the session (sign-out): fires the signOut event and returns the cookies that expire it. */
  revoke(req: AuthRequest, config: ResolvedConfig): Promise<Cookie[]>
}

export { jwtStrategy } from "./jwt.js"
export { databaseStrategy } from "./database.js"
