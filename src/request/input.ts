// What a front door hands the pipeline: one request's method, URL, headers and body, read from a web Request
// (Auth(), Hono, Next) or straight from a native server request (node:http, Express) without building one.
import type { HeaderReader } from "../pipeline-types.js"
import type { AuthError } from "../errors.js"
import { readLimited } from "../lib/read-limited.js"
import { refusalOf } from "./refused.js"

export type { HeaderReader } from "../pipeline-types.js"

/** The origin parts of the URL a request arrived on, as the server saw it (before AUTH_URL / trustHost rules). */
export interface ArrivalOrigin {
  readonly protocol: string
  readonly host: string
  readonly origin: string
}

/** One incoming request, as parse.ts reads it. */
export interface RequestInput {
  readonly method: string
  /** The request URL: path and query as sent, origin from the Host header and the socket (or the web Request's URL). */
  readonly url: URL
  /** Single-header lookup: what the pipeline reads on every request. */
  readonly header: HeaderReader
  /** All headers, built on first use (for user hooks that get a web Request). */
  headers(): Headers
  /** The body up to `limit` bytes; undefined as soon as it is larger (then the rest is not read). */
  readBody(limit: number): Promise<Uint8Array | undefined>
  /** The peer's IP address as the socket reports it (node:http, Express, Hono on Node.js); unknown for a plain web Request. */
  readonly clientAddress?: string | undefined
  /**
   * The client's address by the framework's own proxy setting (Express: `req.ip` when the app sets `trust proxy`);
   * used when `rateLimit.clientAddress` is not set. Absent where the framework has no such setting.
   */
  readonly frameworkClientAddress?: (() => string | undefined) | undefined
  /** Why the front door refused the request (answered with 405 or 400), when it did. */
  readonly refusal?: AuthError | undefined
}

/** A web Request as pipeline input. */
export function webInput(request: Request): RequestInput {
  let url: URL
  try {
    url = new URL(request.url)
  } catch {
    // Request objects always carry an absolute URL; this guards a subclass or a polyfill that does not.
    url = new URL("http://localhost/")
  }
  return {
    method: request.method,
    url,
    header: request.headers,
    headers: () => request.headers,
    readBody: (limit) => readLimited(request, limit),
    refusal: refusalOf(request),
  }
}
