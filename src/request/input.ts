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

/** The path and arrival origin of a request, enough to route it (a URL has them all). */
export interface RequestTarget extends ArrivalOrigin {
  readonly pathname: string
}

/** One incoming request, as parse.ts reads it. */
export interface RequestInput {
  readonly method: string
  /** The request URL: path and query as sent, origin from the Host header and the socket (or the web Request's URL). */
  readonly url: URL
  /**
   * The path and arrival origin when the front door has them without building `url` (a web Request's URL string, read
   * by `webInput`); otherwise they are read from `url`. Always the same request as `url`.
   */
  readonly target?: RequestTarget | undefined
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

/** The request's path and arrival origin: its `target` when the front door gave one, else its URL's. */
export function targetOf(input: RequestInput): RequestTarget {
  return input.target ?? input.url
}

/**
 * An http(s) URL as a WHATWG URL serializer writes it (what `Request.url` returns): scheme, a host of lower-case
 * letters, digits, dots and hyphens (or a bracketed IPv6 address) with an optional port, then a path of letters,
 * digits, `/`, `_` and `-`, then the query or fragment if any. For such a string (undici, workerd, Deno, Bun and
 * Next.js's NextRequest all return serializer output) the parts equal `new URL`'s; a URL with user info, a dot
 * segment, a percent sign, a backslash or another scheme does not match and is parsed by `new URL` instead.
 */
const SERIALIZED_URL =
  /^(https?:)\/\/([a-z0-9.-]+(?::[0-9]{1,5})?|\[[0-9a-f:.]+\](?::[0-9]{1,5})?)(\/[A-Za-z0-9/_-]*)(?:[?#]|$)/

/** The target of a web Request's URL string without parsing a URL, when it has the plain form above. */
export function serializedTarget(href: string): RequestTarget | undefined {
  const m = SERIALIZED_URL.exec(href)
  if (m === null) return undefined
  const protocol = m[1]!
  const host = m[2]!
  return { protocol, host, origin: `${protocol}//${host}`, pathname: m[3]! }
}

/** What a front door built on a web Request adds to or replaces in its input. */
export interface WebInputOptions {
  /** The socket's address, where the framework gives it. */
  readonly clientAddress?: string | undefined
  /** Reads the body instead of the Request (Hono: a body an earlier middleware already consumed). */
  readonly readBody?: ((limit: number) => Promise<Uint8Array | undefined>) | undefined
  /** The URL to route instead of the Request's (next-auth 4's catch-all route rebuilds it from its params). */
  readonly url?: URL | undefined
}

/**
 * A web Request as pipeline input. The URL object is built on first use: routing reads the path and origin from the
 * URL string (`serializedTarget`), and a session read never needs more. A class, not a literal with a getter (slow to
 * make); do not spread one (`{ ...input }` drops `url`): pass what changes as `options` instead.
 */
class WebInput implements RequestInput {
  readonly method: string
  readonly header: Headers
  readonly target: RequestTarget | undefined
  readonly refusal: AuthError | undefined
  readonly clientAddress: string | undefined
  readonly #request: Request
  readonly #readBody: ((limit: number) => Promise<Uint8Array | undefined>) | undefined
  #url: URL | undefined

  constructor(request: Request, options: WebInputOptions | undefined) {
    this.#request = request
    this.method = request.method
    this.header = request.headers
    this.refusal = refusalOf(request)
    this.clientAddress = options?.clientAddress
    this.#readBody = options?.readBody
    this.#url = options?.url
    this.target = this.#url === undefined ? serializedTarget(request.url) : undefined
  }

  get url(): URL {
    if (this.#url === undefined) {
      try {
        this.#url = new URL(this.#request.url)
      } catch {
        // Request objects always carry an absolute URL; this guards a subclass or a polyfill that does not.
        this.#url = new URL("http://localhost/")
      }
    }
    return this.#url
  }

  headers(): Headers {
    return this.#request.headers
  }

  readBody(limit: number): Promise<Uint8Array | undefined> {
    return this.#readBody ? this.#readBody(limit) : readLimited(this.#request, limit)
  }
}

/** A web Request as pipeline input; `options` add the socket address or replace the body reader or the URL. */
export function webInput(request: Request, options?: WebInputOptions): RequestInput {
  return new WebInput(request, options)
}
