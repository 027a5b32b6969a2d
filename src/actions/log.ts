// POST <basePath>/_log in next-auth 4's wire format: where next-auth 4's browser logger sends client-side messages.
// Answered 200 with no body, as next-auth 4's handler sends it. What the browser sent is untrusted: only its level and
// code, trimmed to a short token, reach the app's logger, and at debug level (off unless `debug`), never as an error.
import { fromUtf8 } from "#crypto"
import { UnknownAction } from "../errors.js"
import type { ResolvedConfig } from "../pipeline-types.js"
import type { ResponseInternal } from "../types.js"

/** A client message's body is a short form; a larger one is answered the same, unread. */
const MAX_LOG_BYTES = 16 * 1024

/** A level or code as logged: word characters, dots and dashes, at most 64 of them; anything else is dropped. */
function token(value: string | null): string | undefined {
  if (value === null) return undefined
  const clean = value.replace(/[^\w.-]/g, "").slice(0, 64)
  return clean === "" ? undefined : clean
}

/** What the route reads of the request (the pipeline hands it the front door's RequestInput, before any parsing). */
interface LogRequest {
  readonly method: string
  readBody(limit: number): Promise<Uint8Array | undefined>
}

export async function clientLog(input: LogRequest, config: ResolvedConfig): Promise<ResponseInternal> {
  if (input.method !== "POST")
    throw new UnknownAction("This method is not allowed on /_log; use POST.", { allow: ["POST"] })
  const bytes = await input.readBody(MAX_LOG_BYTES)
  if (bytes) {
    const form = new URLSearchParams(fromUtf8(bytes))
    const level = token(form.get("level"))
    const code = token(form.get("code"))
    if (level !== undefined || code !== undefined) config.logger.debug("client-log", { level, code })
  }
  return { status: 200 }
}
