// node:http integration (gatehouse/node): the request handler (the node request read natively into the pipeline, its
// answer written back, through node-io.ts), the server-side session read, and the web Request/Response converters for
// apps that call Auth() themselves.
import type { IncomingMessage, ServerResponse } from "node:http"
import { Readable } from "node:stream"
import { resolveConfig } from "../config/resolve.js"
import { InvalidRequest, UnknownAction } from "../errors.js"
import { handle } from "../pipeline.js"
import { refusedRequest } from "../request/refused.js"
import type { InferSession } from "../infer.js"
import type { AuthConfig } from "../types.js"
import {
  appendSetCookies,
  FORBIDDEN_METHODS,
  HOST_HEADER,
  nodeArrival,
  nodeHeaderReader,
  nodeHeaders,
  nodeInput,
  pathOf,
  writeNodeResponse,
} from "./node-io.js"
import { readServerSessionAs, type SessionSource } from "./session-read.js"

export type { InferJWT, InferSession } from "../infer.js"

/**
 * Builds a web Request from a node request. The URL's origin comes from the Host header and the socket's TLS state
 * only; Gatehouse itself applies AUTH_URL / trustHost / X-Forwarded-* rules on top. It never throws: a request that
 * cannot be represented (a TRACE method, an invalid Host, an unusable target) becomes a placeholder that `Auth()`
 * answers with 405 or 400.
 */
export function toWebRequest(req: IncomingMessage): Request {
  const method = req.method ?? "GET"
  if (FORBIDDEN_METHODS.has(method.toUpperCase())) {
    return refusedRequest(new UnknownAction("This method is not allowed; use GET or POST.", { allow: ["GET", "POST"] }))
  }
  const host = req.headers.host ?? "localhost"
  if (!HOST_HEADER.test(host)) return refusedRequest(new InvalidRequest("The Host header is not a valid host."))
  const path = pathOf(req.url ?? "/")
  if (path === undefined) return refusedRequest(new InvalidRequest("The request target is not a path."))
  const encrypted = (req.socket as { encrypted?: boolean } | null)?.encrypted === true
  try {
    const url = new URL(`${encrypted ? "https" : "http"}://${host}${path}`)
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined) continue
      if (Array.isArray(value)) for (const v of value) headers.append(name, v)
      else headers.set(name, value)
    }
    const hasBody = method !== "GET" && method !== "HEAD"
    return new Request(url, {
      method,
      headers,
      ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: "half" } : {}),
    } as RequestInit)
  } catch (cause) {
    return refusedRequest(new InvalidRequest("The request cannot be read.", 400, { cause }))
  }
}

/** Writes a web Response to a node response, keeping every Set-Cookie header separate. */
export async function sendWebResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {}
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value
  })
  const cookies = response.headers.getSetCookie()
  if (cookies.length) headers["set-cookie"] = cookies
  res.writeHead(response.status, headers)
  res.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined)
}

function answerFailure(res: ServerResponse): void {
  if (res.headersSent) res.destroy()
  else res.writeHead(500, { "content-type": "application/json" }).end('{"error":"InternalError"}')
}

/**
 * A node:http request handler that answers every request under `config.basePath` through the pipeline, reading the
 * node request natively (no web Request or Response is built). Its promise never rejects: a failure after the
 * answer started ends the connection, one before it answers 500.
 */
export function createHandler(config: AuthConfig): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    try {
      const resolved = resolveConfig(config)
      const input = nodeInput(req, { res })
      const internal = await handle(input, resolved)
      writeNodeResponse(res, internal, input)
    } catch {
      answerFailure(res)
    }
  }
}

/** The node:http handler under its earlier name; the same function as `createHandler`. */
export const createAuthHandler: typeof createHandler = createHandler

/**
 * The session of a node:http request, read from its Cookie header (GET /session's rules, no web Request built):
 * the session, or null when signed out. A re-issued session cookie is appended to `res` when one is given and
 * headers were not sent yet. Throws only for a broken config. Typed as the config's session (`InferSession`): a
 * config typed `: AuthConfig` gives `Session`.
 */
export function getSession<C extends AuthConfig = AuthConfig>(
  req: IncomingMessage,
  config: C,
  res?: ServerResponse,
): Promise<InferSession<C> | null> {
  // The read's one `then` is the answer: no async frame or `then` of this function's own (a bad request object still
  // rejects, as it did).
  let source: SessionSource
  try {
    source = { url: nodeArrival(req), header: nodeHeaderReader(req), headers: () => nodeHeaders(req) }
  } catch (error) {
    return Promise.reject(error)
  }
  return readServerSessionAs(source, config, undefined, (answer) => {
    if (res && answer.setCookies.length && !res.headersSent) appendSetCookies(res, answer.setCookies)
    return answer.session as InferSession<C> | null
  })
}
