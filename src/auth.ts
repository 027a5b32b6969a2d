// Auth(request, config): the web-standard front door — resolve the config, run the pipeline, build the Response.
import { resolveConfig } from "./config/resolve.js"
import { handle } from "./pipeline.js"
import { webInput } from "./request/input.js"
import { toResponse } from "./response/build.js"
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
  const res = await handle(webInput(request), resolved)
  if (resolved.raw) return res
  try {
    return toResponse(res, () => request.headers.has("x-auth-return-redirect"), request.method === "HEAD")
  } catch (failure) {
    // A header value the Response constructor refuses (e.g. a configured page URL with a newline).
    resolved.logger.error(failure instanceof Error ? failure : new Error(String(failure)))
    return new Response(null, { status: 500 })
  }
}
