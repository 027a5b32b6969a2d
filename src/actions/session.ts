// GET /session (read) and POST /session (update, CSRF-checked) through the config's session strategy.
import type { AuthRequest, ResolvedConfig } from "../pipeline-types.js"
import { NO_STORE_JSON_HEADERS } from "../response/build.js"
import type { ResponseInternal } from "../types.js"

/**
 * Answers the session (null when signed out; `{}` in next-auth 4's wire format); `update` carries the client's `data`
 * for the callbacks (trigger "update").
 */
export async function session(
  req: AuthRequest,
  config: ResolvedConfig,
  update?: { data: unknown },
): Promise<ResponseInternal> {
  const { session, cookies } = await config.sessionStrategy.read(req, config, update)
  const body = session ?? (config.wire === "next-auth-v4" ? {} : null)
  return { status: 200, headers: NO_STORE_JSON_HEADERS, body, ...(cookies?.length ? { cookies } : {}) }
}
