// Local HTTP plumbing shared by the tests' fake servers (mock OP, provider fakes, attacker servers): listen on
// 127.0.0.1 with an OS-chosen port and stop with every connection ended, read a request body, answer JSON.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo, Socket } from "node:net"

export interface Listening {
  /** http://127.0.0.1:<port> */
  origin: string
  /** Ends every open connection (keep-alive and hanging answers included), then closes the server. */
  stop(): Promise<void>
}

/**
 * How long the fake servers keep an idle connection. At Node's 5 s default a loaded machine's late timers let the
 * client (undici, which drops an idle connection a little before the server's Keep-Alive timeout) send a request on
 * a connection the server is closing that moment: the request fails with ECONNRESET. Two minutes puts that race
 * beyond any pause inside a test; stop() ends every connection anyway.
 */
const KEEP_ALIVE_MS = 120_000

/** Listens on 127.0.0.1 with an OS-chosen port. */
export async function listenLocal(server: Server): Promise<Listening> {
  server.keepAliveTimeout = KEEP_ALIVE_MS
  const sockets = new Set<Socket>()
  server.on("connection", (socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve())
  })
  let stopped: Promise<void> | undefined
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      (stopped ??= new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
        for (const socket of sockets) socket.destroy()
      })),
  }
}

/** The request body as text; a body over `maxBytes` is refused (a fake server is no sink). */
export async function readBody(req: IncomingMessage, maxBytes = 1024 * 1024): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > maxBytes) throw new Error("request body too large")
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks).toString("utf8")
}

/** A JSON answer, not cacheable. */
export function writeJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store", ...headers })
  res.end(JSON.stringify(body))
}

/** A port free on 127.0.0.1 right now (for a child process that must be told its port before it listens). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })
}
