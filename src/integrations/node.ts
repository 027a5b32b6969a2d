// node:http integration: IncomingMessage -> web Request, web Response -> ServerResponse. Nothing else.
import type { IncomingMessage, ServerResponse } from "node:http"
import { Readable } from "node:stream"
import { Auth } from "../auth.js"
import { InvalidRequest, UnknownAction } from "../errors.js"
import { refusedRequest } from "../request/refused.js"
import type { AuthConfig } from "../types.js"

/** A Host header as RFC 9110 §7.2 allows it: a reg-name or an IP literal, with an optional port. */
const HOST_HEADER = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~]+)(?::[0-9]{1,5})?$/

/** Methods the Fetch standard refuses to put in a Request; answered 405 rather than thrown. */
const FORBIDDEN_METHODS: ReadonlySet<string> = new Set(["CONNECT", "TRACE", "TRACK"])

/**
 * The path and query of a request-target. Only origin-form (`/path?q`) and absolute-form (`http://h/path?q`,
 * RFC 9112 §3.2.2) carry one; the authority of an absolute-form target is ignored, so the origin comes from the
 * Host header alone (a target of `//evil.example/x` stays a path on this host).
 */
function pathOf(target: string): string | undefined {
  if (target.startsWith("/")) return target
  if (!/^https?:\/\//i.test(target)) return undefined
  try {
    const url = new URL(target)
    return url.pathname + url.search
  } catch {
    return undefined
  }
}

/**
 * Builds a web Request from a node request. The URL's origin comes from the Host header and the socket's TLS state
 * only; Gatehouse itself applies AUTH_URL / trustHost / X-Forwarded-* rules on top. It never throws: a request that
 * cannot be represented (a TRACE method, an invalid Host, an unusable target) becomes a placeholder that `Auth()`
 * answers with 405 or 400.
 */
export function toWebRequest(req: IncomingMessage): Request {
  const method = req.method ?? "GET"
  if (FORBIDDEN_METHODS.has(method.toUpperCase())) {
    return refusedRequest(new UnknownAction(`${method} is not allowed; use GET or POST.`, { allow: ["GET", "POST"] }))
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

/**
 * A node:http request handler that answers every request under `config.basePath` with `Auth()`. Its promise never
 * rejects: a failure after the answer started ends the connection, one before it answers 500.
 */
export function createAuthHandler(config: AuthConfig): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    try {
      await sendWebResponse(await Auth(toWebRequest(req), config), res)
    } catch {
      if (res.headersSent) res.destroy()
      else res.writeHead(500, { "content-type": "application/json" }).end('{"error":"InternalError"}')
    }
  }
}
