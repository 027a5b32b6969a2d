// Raw HTTP/1.1 over a socket, for requests fetch() will not send (TRACE, broken Host headers, absolute-form targets).
import { connect } from "node:net"
import { type Server, createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export interface RawResponse {
  status: number
  headers: Record<string, string[]>
  body: string
}

/** Sends `head` (request line and headers, no final blank line) and reads the answer until the server closes. */
export function rawRequest(port: number, head: string, body = ""): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1")
    let data = ""
    socket.setEncoding("latin1")
    socket.on("data", (chunk: string) => (data += chunk))
    socket.on("error", reject)
    // A server whose handler died never answers: give up so the test fails instead of hanging.
    socket.setTimeout(3000, () => socket.destroy())
    socket.on("close", () => {
      const split = data.indexOf("\r\n\r\n")
      const lines = data.slice(0, split === -1 ? data.length : split).split("\r\n")
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? "")?.[1] ?? 0)
      const headers: Record<string, string[]> = {}
      for (const line of lines.slice(1)) {
        const i = line.indexOf(":")
        if (i === -1) continue
        const name = line.slice(0, i).trim().toLowerCase()
        ;(headers[name] ??= []).push(line.slice(i + 1).trim())
      }
      const raw = split === -1 ? "" : data.slice(split + 4)
      resolve({ status, headers, body: headers["transfer-encoding"]?.includes("chunked") ? dechunk(raw) : raw })
    })
    socket.write(`${head}\r\nConnection: close\r\n\r\n${body}`)
  })
}

/** Joins the chunks of a `Transfer-Encoding: chunked` body (RFC 9112 §7.1). */
function dechunk(raw: string): string {
  let out = ""
  let at = 0
  for (;;) {
    const eol = raw.indexOf("\r\n", at)
    if (eol === -1) return out
    const size = Number.parseInt(raw.slice(at, eol), 16)
    if (!size) return out
    out += raw.slice(eol + 2, eol + 2 + size)
    at = eol + 2 + size + 2
  }
}

export interface NodeServer {
  port: number
  server: Server
  close(): Promise<void>
}

/** A node:http server on 127.0.0.1 with an OS-chosen port. */
export async function startNodeServer(
  handler: (req: IncomingMessage, res: ServerResponse) => unknown,
): Promise<NodeServer> {
  const server = createServer((req, res) => void handler(req, res))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  return { port, server, close: () => new Promise((resolve) => server.close(() => resolve())) }
}
