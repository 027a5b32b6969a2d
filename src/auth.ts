// Auth(request, config): the whole pipeline — resolve config, parse, route, run the action, build the Response.
import { AuthError } from "./errors.js"
import { resolveConfig } from "./config/resolve.js"
import { parseRequest } from "./request/parse.js"
import type { AuthRequest } from "./domain.js"
import { refusalOf } from "./request/refused.js"
import { route } from "./router.js"
import { toResponse } from "./response/build.js"
import { configurationErrorResponse, errorResponse } from "./response/error.js"
import type { AuthConfig, ResponseInternal } from "./types.js"
import type { raw } from "./symbols.js"

/**
 * Handles one auth request. Returns a web `Response`, or the internal response object when the config
 * carries the `raw` marker (`{ ...config, raw }`).
 */
export async function Auth(request: Request, config: AuthConfig & { raw: typeof raw }): Promise<ResponseInternal>
export async function Auth(request: Request, config: Omit<AuthConfig, "raw">): Promise<Response>
export async function Auth(request: Request, config: AuthConfig): Promise<Response | ResponseInternal>
export async function Auth(request: Request, config: AuthConfig): Promise<Response | ResponseInternal> {
  const resolved = resolveConfig(config)
  const returnRedirect = request.headers.has("x-auth-return-redirect")
  const deliver = (res: ResponseInternal): Response | ResponseInternal => (resolved.raw ? res : toResponse(res, returnRedirect))
  let req: AuthRequest | undefined
  try {
    if (resolved.error) {
      resolved.logger.error(resolved.error)
      return deliver(configurationErrorResponse(request, resolved))
    }
    const refusal = refusalOf(request)
    if (refusal) throw refusal
    req = await parseRequest(request, resolved)
    const handler = route(req, resolved)
    return deliver(await handler())
  } catch (caught) {
    const error = caught instanceof Error ? caught : new Error(String(caught))
    resolved.logger.error(error)
    if (resolved.raw && error instanceof AuthError && !returnRedirect) throw error
    try {
      return deliver(errorResponse(error, req, request, resolved))
    } catch (failure) {
      // Even the error answer could not be built (e.g. a configured page URL that is not a valid header value).
      resolved.logger.error(failure instanceof Error ? failure : new Error(String(failure)))
      return resolved.raw ? { status: 500, body: null } : new Response(null, { status: 500 })
    }
  }
}
