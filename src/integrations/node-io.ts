// The node:http plumbing the front doors share (node.ts, express.ts, next/core.ts): a node request read natively as
// pipeline input, its header lookup, bounded body and arrival origin, and the pipeline's answer written back. Internal:
// no package.json subpath exports it.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http"
import type { AuthError } from "../errors.js"
import { InvalidRequest, UnknownAction } from "../errors.js"
import type { ArrivalOrigin, HeaderReader, RequestInput } from "../request/input.js"
import { renderResponse } from "../response/build.js"
import type { ResponseInternal } from "../types.js"

/** A Host header as RFC 9110 §7.2 allows it: a reg-name or an IP literal, with an optional port. */
export const HOST_HEADER = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~]+)(?::[0-9]{1,5})?$/

/** Methods the Fetch standard refuses to put in a Request; answered 405 rather than thrown. */
export const FORBIDDEN_METHODS: ReadonlySet<string> = new Set(["CONNECT", "TRACE", "TRACK"])

/**
 * The path and query of a request-target. Only origin-form (`/path?q`) and absolute-form (`http://h/path?q`,
 * RFC 9112 §3.2.2) carry one; the authority of an absolute-form target is ignored, so the origin comes from the
 * Host header alone (a target of `//evil.example/x` stays a path on this host).
 */
export function pathOf(target: string): string | undefined {
  if (target.startsWith("/")) return target
  if (!/^https?:\/\//i.test(target)) return undefined
  try {
    const url = new URL(target)
    return url.pathname + url.search
  } catch {
    return undefined
  }
}

/** Header lookup on a node request (node lower-cases names and joins repeated headers). */
/**
 * Header names in lower case, as Node.js keys `req.headers`. The names looked up are a handful of literals and config
 * values, so each is lower-cased once: a Map read costs a fraction of `toLowerCase` (about 250 instructions a call).
 */
const lowerNames = new Map<string, string>()
function lowerName(name: string): string {
  let lower = lowerNames.get(name)
  if (lower === undefined) {
    lower = name.toLowerCase()
    if (lowerNames.size < 256) lowerNames.set(name, lower)
  }
  return lower
}

export function nodeHeaderReader(req: IncomingMessage): HeaderReader {
  return {
    get(name) {
      const value = req.headers[lowerName(name)]
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value
    },
  }
}

/** All headers of a node request as a web Headers object (values the Fetch standard refuses are left out). */
export function nodeHeaders(req: IncomingMessage): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue
    try {
      if (Array.isArray(value)) for (const v of value) headers.append(name, v)
      else headers.set(name, value)
    } catch {
      // A value the Fetch standard refuses; the pipeline never needs it.
    }
  }
  return headers
}

/**
 * Reads at most `limit` bytes of a node request body; undefined as soon as there is more (the rest is not read, and
 * the connection is not reused). A client that aborts mid-body rejects with InvalidRequest; nothing was written yet.
 */
export function readNodeBody(
  req: IncomingMessage,
  res: ServerResponse | undefined,
  limit: number,
): Promise<Buffer | undefined> {
  const declared = req.headers["content-length"]
  const tooLarge = (): undefined => {
    if (res) res.shouldKeepAlive = false
    return undefined
  }
  if (declared !== undefined && Number(declared) > limit) return Promise.resolve(tooLarge())
  // Already consumed (a body parser ran first) with nothing left to read: an empty body, never a hang.
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0))
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const done = (): void => {
      req.off("data", onData).off("end", onEnd).off("error", onError).off("close", onClose)
    }
    const onData = (chunk: Buffer): void => {
      size += chunk.length
      if (size > limit) {
        done()
        req.pause()
        resolve(tooLarge())
      } else chunks.push(chunk)
    }
    const onEnd = (): void => {
      done()
      resolve(Buffer.concat(chunks, size))
    }
    const onError = (cause: Error): void => {
      done()
      reject(new InvalidRequest("The request body could not be read.", 400, { cause }))
    }
    const onClose = (): void => {
      if (req.complete) return
      done()
      reject(new InvalidRequest("The client closed the connection before the body was read.", 400))
    }
    req.on("data", onData).on("end", onEnd).on("error", onError).on("close", onClose)
  })
}

/** Options for reading a node request that a framework has already seen. */
export interface NodeInputOptions {
  /** The request target to use instead of `req.url` (Express: `originalUrl`, as `url` is relative to the mount). */
  target?: string
  /** The protocol to trust instead of the socket's (Express: `req.protocol`, which follows its "trust proxy"). */
  protocol?: "http:" | "https:"
  /** The client's address by the framework's proxy setting (Express: `req.ip` under `trust proxy`); see RequestInput. */
  frameworkClientAddress?: () => string | undefined
  /** Reads the body instead of the socket (Express: a body a parser already consumed). */
  readBody?: (limit: number) => Promise<Buffer | undefined>
  /** The response, to stop keep-alive after a refused body. */
  res?: ServerResponse
}

function refusedInput(req: IncomingMessage, refusal: AuthError): RequestInput {
  return {
    method: req.method ?? "GET",
    url: new URL("http://localhost/"),
    header: nodeHeaderReader(req),
    headers: () => nodeHeaders(req),
    readBody: async () => Buffer.alloc(0),
    refusal,
  }
}

/**
 * A node request as pipeline input, read natively: no web Request is built. Same rules as `toWebRequest`: the origin
 * comes from the Host header (and the socket's TLS state) only; a request it cannot represent is refused (405/400).
 */
export function nodeInput(req: IncomingMessage, options: NodeInputOptions = {}): RequestInput {
  const method = req.method ?? "GET"
  if (FORBIDDEN_METHODS.has(method.toUpperCase())) {
    return refusedInput(
      req,
      new UnknownAction("This method is not allowed; use GET or POST.", { allow: ["GET", "POST"] }),
    )
  }
  const host = req.headers.host ?? "localhost"
  if (!HOST_HEADER.test(host)) return refusedInput(req, new InvalidRequest("The Host header is not a valid host."))
  const path = pathOf(options.target ?? req.url ?? "/")
  if (path === undefined) return refusedInput(req, new InvalidRequest("The request target is not a path."))
  const protocol =
    options.protocol ?? ((req.socket as { encrypted?: boolean } | null)?.encrypted === true ? "https:" : "http:")
  let url: URL
  try {
    url = new URL(`${protocol}//${host}${path}`)
  } catch (cause) {
    return refusedInput(req, new InvalidRequest("The request cannot be read.", 400, { cause }))
  }
  let headers: Headers | undefined
  return {
    method,
    url,
    header: nodeHeaderReader(req),
    headers: () => (headers ??= nodeHeaders(req)),
    readBody: options.readBody ?? ((limit) => readNodeBody(req, options.res, limit)),
    clientAddress: req.socket?.remoteAddress,
    frameworkClientAddress: options.frameworkClientAddress,
  }
}

/** Writes the pipeline's answer to a node response (Set-Cookie values kept separate; no body for a HEAD). */
export function writeNodeResponse(
  res: ServerResponse,
  internal: ResponseInternal,
  input: Pick<RequestInput, "method" | "header">,
): void {
  const rendered = renderResponse(internal, () => input.header.get("x-auth-return-redirect") !== null)
  const headers: OutgoingHttpHeaders = { ...rendered.headers }
  if (rendered.setCookies.length) headers["set-cookie"] = rendered.setCookies
  // A string body goes out with the head in one write (a Buffer body would take a writev of two chunks).
  const body = rendered.body ?? ""
  headers["content-length"] = Buffer.byteLength(body)
  res.writeHead(rendered.status, headers)
  res.end(input.method === "HEAD" ? undefined : body)
}

/** The arrival origin of a node request: the socket's TLS state and the Host header. */
export function nodeArrival(req: IncomingMessage, protocol?: "http:" | "https:"): ArrivalOrigin {
  const scheme = protocol ?? ((req.socket as { encrypted?: boolean } | null)?.encrypted === true ? "https:" : "http:")
  const host = req.headers.host && HOST_HEADER.test(req.headers.host) ? req.headers.host : "localhost"
  return { protocol: scheme, host, origin: `${scheme}//${host}` }
}

/** Adds Set-Cookie values to a node response, keeping any the app already set. */
export function appendSetCookies(res: ServerResponse, values: readonly string[]): void {
  const existing = res.getHeader("set-cookie")
  const list = existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)]
  res.setHeader("set-cookie", [...list, ...values])
}
