// GET /csrf: the CSRF token (the cookie's when authentic, else a new one); 404 when CSRF checks are skipped.
import type { AuthRequest, ResolvedConfig } from "../pipeline-types.js"
import { NO_STORE_JSON_HEADERS } from "../response/build.js"
import { ensureCsrfToken } from "../security/csrf.js"
import { expiredCookie } from "../cookies/policy.js"
import type { ResponseInternal } from "../types.js"

export async function csrf(req: AuthRequest, config: ResolvedConfig): Promise<ResponseInternal> {
  if (config.skipCSRF) {
    return { status: 404, cookies: [expiredCookie(config.cookies(req.secure).csrfToken)] }
  }
  const { token, cookie } = await ensureCsrfToken(req, config)
  return {
    status: 200,
    headers: NO_STORE_JSON_HEADERS,
    body: { csrfToken: token },
    cookies: cookie ? [cookie] : undefined,
  }
}
