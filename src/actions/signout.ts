// POST /signout (CSRF-checked): end the session through the strategy (which fires signOut), redirect to the callbackUrl.
import type { AuthRequest, ResolvedConfig } from "../pipeline-types.js"
import { resolveCallbackUrl } from "../security/redirect.js"
import type { ResponseInternal } from "../types.js"

export async function signOut(req: AuthRequest, config: ResolvedConfig): Promise<ResponseInternal> {
  const redirect = await resolveCallbackUrl(req, config)
  const cookies = await config.sessionStrategy.revoke(req, config)
  return cookies.length ? { redirect, cookies } : { redirect }
}
