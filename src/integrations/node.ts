// node:http integration: IncomingMessage -> web Request, web Response -> ServerResponse. Nothing else.
import type { IncomingMessage, ServerResponse } from "node:http"
import { Readable } from "node:stream"
import { Auth } from "../auth.js"
import type { AuthConfig } from "../types.js"

/**
 * Builds a web Request from a node request. The URL's origin comes from the Host header and the socket's
 * TLS state; Gatehouse itself applies AUTH_URL / trustHost / X-Forwarded-* rules on top.
 */
export function toWebRequest(req: IncomingMessage): Request {
  const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true
  const host = req.headers.host ?? "localhost"
  const url = new URL(req.url ?? "/", `${encrypted ? "https" : "http"}://${host}`)
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue
    if (Array.isArray(value)) for (const v of value) headers.append(name, v)
    else headers.set(name, value)
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD"
  return new Request(url, {
    method: req.method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: "half" } : {}),
  } as RequestInit)
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

/** A node:http request handler that answers every request under `config.basePath` with `Auth()`. */
export function createAuthHandler(config: AuthConfig): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    const response = await Auth(toWebRequest(req), config)
    await sendWebResponse(response, res)
  }
}
