// The one pipeline every front door runs: request input -> parse -> route -> action -> internal response, plus the
// error path. Auth() feeds it a web Request; the node and Express integrations feed it their native request.
import { AuthError } from "./errors.js"
import { reportConfigError } from "./config/report.js"
import type { AuthRequest, ResolvedConfig } from "./pipeline-types.js"
import { type RequestInput, targetOf } from "./request/input.js"
import { isClientLogPath, parseRequest } from "./request/parse.js"
import { route } from "./router.js"
import { clientLog } from "./actions/log.js"
import { v4Answer } from "./response/build.js"
import { configurationErrorResponse, errorResponse } from "./response/error.js"
import { noteErrorProvider } from "./logger.js"
import type { ResponseInternal } from "./types.js"

/**
 * Answers one request. Never rejects, except in raw mode, where an AuthError is thrown to the caller as Auth.js does
 * (unless the client asked for a `{url}` answer, or the config speaks next-auth 4's wire format).
 */
export function handle(input: RequestInput, config: ResolvedConfig): Promise<ResponseInternal> {
  if (config.wire !== "next-auth-v4") return answer(input, config)
  // next-auth 4's wire format: its redirects are 302, or `{ url }` with their status for a JSON client.
  return answer(input, config, (res, req) =>
    v4Answer(res, req?.returnRedirect ?? input.header.get("x-auth-return-redirect") !== null),
  )
}

async function answer(
  input: RequestInput,
  config: ResolvedConfig,
  finish: (res: ResponseInternal, req: AuthRequest | undefined) => ResponseInternal = (res) => res,
): Promise<ResponseInternal> {
  let req: AuthRequest | undefined
  try {
    if (config.error) {
      reportConfigError(config)
      return configurationErrorResponse(input, config)
    }
    if (input.refusal) throw input.refusal
    if (config.wire === "next-auth-v4" && isClientLogPath(targetOf(input).pathname, config.basePath))
      return await clientLog(input, config)
    const parsed = parseRequest(input, config)
    req = parsed instanceof Promise ? await parsed : parsed
    return finish(await route(req, config)(), req)
  } catch (caught) {
    const error = caught instanceof Error ? caught : new Error(String(caught))
    if (req?.providerId !== undefined) noteErrorProvider(error, req.providerId)
    config.logger.error(error)
    // next-auth 4 answers every failure (its handler never throws one at the caller), raw mode included.
    if (
      config.raw &&
      config.wire !== "next-auth-v4" &&
      error instanceof AuthError &&
      input.header.get("x-auth-return-redirect") === null
    )
      throw error
    try {
      return finish(errorResponse(error, req, input, config), req)
    } catch (failure) {
      // Even the error answer could not be built (e.g. a configured page URL that is not a valid header value).
      config.logger.error(failure instanceof Error ? failure : new Error(String(failure)))
      return { status: 500, body: null }
    }
  }
}
