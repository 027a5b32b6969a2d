// POST /signout (CSRF-checked): fire signOut, expire every session cookie, redirect to the callbackUrl.
import { SignOutError } from "../errors.js"
import type { ResolvedConfig } from "../config/resolve.js"
import { emitEvent } from "../events.js"
import type { AuthRequest } from "../request/parse.js"
import { resolveCallbackUrl } from "../security/redirect.js"
import { clearJwtSession, readJwtSession } from "../session/jwt.js"
import type { ResponseInternal } from "../types.js"
import type { GuardedAdapter } from "../adapters/guard.js"
import { clearDatabaseSession } from "../session/database.js"

export async function signOut(req: AuthRequest, config: ResolvedConfig): Promise<ResponseInternal> {
  const redirect = await resolveCallbackUrl(req, config)
  if (config.session.strategy === "database") return databaseSignOut(req, config, redirect)
  const read = await readJwtSession(req, config)
  if (read.status === "absent") return { redirect }
  if (read.status === "valid") await emitEvent(config, "signOut", { token: read.token })
  else config.logger.error(new SignOutError("The session cookie could not be read; it is cleared anyway.", { cause: read.error }))
  return { redirect, cookies: clearJwtSession(req, config, read.names) }
}

/** Database strategy: delete the row (a failure is logged; the cookie is expired anyway, DB-05), fire signOut. */
async function databaseSignOut(req: AuthRequest, config: ResolvedConfig, redirect: string): Promise<ResponseInternal> {
  const sessionToken = req.cookies[config.cookies(req.secure).sessionToken.name]
  if (!sessionToken) return { redirect }
  try {
    const deleted = await (config.adapter as GuardedAdapter).deleteSession(sessionToken)
    await emitEvent(config, "signOut", { session: deleted ?? null })
  } catch (cause) {
    config.logger.error(new SignOutError("The session row could not be deleted; the cookie is cleared anyway.", { cause }))
  }
  return { redirect, cookies: clearDatabaseSession(req, config) }
}
