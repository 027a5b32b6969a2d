// The one pipeline every front door runs: request input -> parse -> route -> action -> internal response, plus the
// error path. Auth() feeds it a web Request; the node and Express integrations feed it their native request.
import { AuthError } from "./errors.js"
import { reportConfigError } from "./config/report.js"
import type { AuthRequest, ResolvedConfig } from "./pipeline-types.js"
import type { RequestInput } from "./request/input.js"
import { parseRequest } from "./request/parse.js"
import { route } from "./router.js"
import { configurationErrorResponse, errorResponse } from "./response/error.js"
import type { ResponseInternal } from "./types.js"

/**
 * Answers one request. Never rejects, except in raw mode, where an AuthError is thrown to the caller as Auth.js does
 * (unless the client asked for a `{url}` answer).
 */
export async function handle(input: RequestInput, config: ResolvedConfig): Promise<ResponseInternal> {
  let req: AuthRequest | undefined
  try {
    if (config.error) {
      reportConfigError(config)
      return configurationErrorResponse(input, config)
    }
    if (input.refusal) throw input.refusal
    req = await parseRequest(input, config)
    return await route(req, config)()
  } catch (caught) {
    const error = caught instanceof Error ? caught : new Error(String(caught))
    config.logger.error(error)
    if (config.raw && error instanceof AuthError && input.header.get("x-auth-return-redirect") === null) throw error
    try {
      return errorResponse(error, req, input, config)
    } catch (failure) {
      // Even the error answer could not be built (e.g. a configured page URL that is not a valid header value).
      config.logger.error(failure instanceof Error ? failure : new Error(String(failure)))
      return { status: 500, body: null }
    }
  }
}
