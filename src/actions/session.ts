// GET /session (read) and POST /session (update, CSRF-checked) through the config's session strategy.
import type { AuthRequest, ResolvedConfig } from "../pipeline-types.js"
import { NO_STORE_JSON_HEADERS } from "../response/build.js"
import type { ResponseInternal } from "../types.js"

/** Answers the session (null when signed out); `update` carries the client's `data` for the callbacks (trigger "update"). */
export async function session(
  req: AuthRequest,
  config: ResolvedConfig,
  update?: { data: unknown },
): Promise<ResponseInternal> {
  const { session, cookies } = await config.sessionStrategy.read(req, config, update)
  return { status: 200, headers: NO_STORE_JSON_HEADERS, body: session, ...(cookies?.length ? { cookies } : {}) }
}
