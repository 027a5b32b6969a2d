// POST /signout (CSRF-checked): fire signOut, expire every session cookie, redirect to the callbackUrl.
import { SignOutError } from "../errors.js"
import type { ResolvedConfig } from "../config/resolve.js"
import { emitEvent } from "../events.js"
import type { AuthRequest } from "../request/parse.js"
import { resolveCallbackUrl } from "../security/redirect.js"
import { clearJwtSession, readJwtSession } from "../session/jwt.js"
import type { ResponseInternal } from "../types.js"

export async function signOut(req: AuthRequest, config: ResolvedConfig): Promise<ResponseInternal> {
  const redirect = await resolveCallbackUrl(req, config)
  const read = await readJwtSession(req, config)
  if (read.status === "absent") return { redirect }
  if (read.status === "valid") await emitEvent(config, "signOut", { token: read.token })
  else config.logger.error(new SignOutError("The session cookie could not be read; it is cleared anyway.", { cause: read.error }))
  return { redirect, cookies: clearJwtSession(req, config, read.names) }
}
