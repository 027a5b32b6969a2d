// The node:http front door under attack over a real socket: no request may crash the server or pick the origin.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import type { IncomingMessage, ServerResponse } from "node:http"
import { Auth } from "../../src/index.js"
import { createAuthHandler, sendWebResponse, toWebRequest } from "../../src/integrations/node.js"
import { makeConfig } from "../support/flow-kit.js"
import { type NodeServer, rawRequest, startNodeServer } from "../support/raw-http.js"

const config = makeConfig({ logger: { error() {}, warn() {}, debug() {} } })

/** The README's pattern: an async handler whose promise nobody awaits. */
async function readmeHandler(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.url === "/") return void res.end("app")
  return sendWebResponse(await Auth(toWebRequest(req), config), res)
}

const servers: Record<string, NodeServer> = {}
const rejections: unknown[] = []
const onRejection = (reason: unknown): void => void rejections.push(reason)

beforeAll(async () => {
  process.on("unhandledRejection", onRejection)
  servers.createAuthHandler = await startNodeServer(createAuthHandler(config))
  servers.readme = await startNodeServer(readmeHandler)
})
afterAll(async () => {
  process.off("unhandledRejection", onRejection)
  await Promise.all(Object.values(servers).map((s) => s.close()))
})
afterEach(async () => {
  // Give a rejected handler promise a turn to surface before the next case checks.
  await new Promise((resolve) => setTimeout(resolve, 20))
})

async function stillServing(port: number): Promise<void> {
  const res = await rawRequest(port, "GET /auth/providers HTTP/1.1\r\nHost: app.test")
  expect(res.status).toBe(200)
  expect(JSON.parse(res.body).credentials.signinUrl).toBe("http://app.test/auth/signin/credentials")
}

describe.each(["createAuthHandler", "readme"])("node integration (%s): hostile requests over a real socket", (name) => {
  const port = (): number => servers[name]!.port

  it("TRACE answers 405 with Allow and the server keeps serving", async () => {
    const res = await rawRequest(port(), "TRACE /auth/session HTTP/1.1\r\nHost: app.test")
    expect(res.status).toBe(405)
    expect(res.headers.allow?.[0]).toBe("GET, POST")
    expect(JSON.parse(res.body).error).toBe("UnknownAction")
    await stillServing(port())
    expect(rejections).toEqual([])
  })

  it.each(["exa mple", "[", "a@b@c", "app.test/evil", "app.test:99999999", "évil.test"])(
    "Host %j answers 400 InvalidRequest and the server keeps serving",
    async (host) => {
      const res = await rawRequest(port(), `GET /auth/session HTTP/1.1\r\nHost: ${host}`)
      expect([400]).toContain(res.status)
      if (res.body) expect(JSON.parse(res.body).error).toBe("InvalidRequest")
      await stillServing(port())
      expect(rejections).toEqual([])
    },
  )

  it("a //host request-target never becomes the origin", async () => {
    const res = await rawRequest(port(), "GET //evil.example/auth/providers HTTP/1.1\r\nHost: app.test")
    expect(res.status).toBe(400)
    expect(res.body).not.toContain("evil.example")
    await stillServing(port())
  })

  it("an absolute-form target keeps the Host header's origin", async () => {
    const res = await rawRequest(port(), "GET http://evil.example/auth/providers HTTP/1.1\r\nHost: app.test")
    expect(res.status).toBe(200)
    expect(res.body).not.toContain("evil.example")
    expect(JSON.parse(res.body).credentials.callbackUrl).toBe("http://app.test/auth/callback/credentials")
  })

  it("an asterisk-form target answers 400", async () => {
    const res = await rawRequest(port(), "OPTIONS * HTTP/1.1\r\nHost: app.test")
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
    await stillServing(port())
  })

  it("a client that aborts mid-body does not crash the server", async () => {
    const res = await new Promise<void>((resolve) => {
      import("node:net").then(({ connect }) => {
        const socket = connect(port(), "127.0.0.1", () => {
          socket.write(
            "POST /auth/callback/credentials HTTP/1.1\r\nHost: app.test\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\ncsrfToken=abc",
          )
          setTimeout(() => socket.destroy(), 30)
        })
        socket.on("close", () => resolve())
        socket.on("error", () => {})
      })
    })
    expect(res).toBeUndefined()
    await stillServing(port())
    expect(rejections).toEqual([])
  })
})
