// gatehouse/node over real sockets: createHandler reads node requests natively (sign-in, session, HEAD, limits,
// aborts), and getSession reads the session of an app route from its Cookie header, re-issuing the cookie when due.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { connect } from "node:net"
import type { IncomingMessage, ServerResponse } from "node:http"
import { createHandler, getSession } from "../../src/integrations/node.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { encode } from "../../src/jwt/index.js"
import type { AuthConfig } from "../../src/index.js"
import { SECRET, credentialsSetup } from "../support/flow-kit.js"
import { type NodeServer, rawRequest, startNodeServer } from "../support/raw-http.js"
import { parseSetCookie } from "../support/set-cookie.js"

const { config, authorize } = credentialsSetup()
const rejections: unknown[] = []
const onRejection = (reason: unknown): void => void rejections.push(reason)
let server: NodeServer
let base: string

/** An app: the auth routes through createHandler, /me through getSession. */
function app(cfg: AuthConfig) {
  const auth = createHandler(cfg)
  return async (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith("/auth/")) return auth(req, res)
    if (req.url === "/me") {
      const session = await getSession(req, cfg, res)
      res.setHeader("content-type", "application/json")
      return res.end(JSON.stringify({ session }))
    }
    res.statusCode = 404
    res.end("app 404")
  }
}

beforeAll(async () => {
  process.on("unhandledRejection", onRejection)
  server = await startNodeServer(app(config))
  base = `http://127.0.0.1:${server.port}`
})
afterAll(async () => {
  process.off("unhandledRejection", onRejection)
  await server.close()
})

/** Signs alice in over HTTP; returns the Cookie header a browser would send next. */
async function signIn(target = base): Promise<string> {
  const csrf = await fetch(`${target}/auth/csrf`)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const csrfCookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(";", 1)[0])
    .join("; ")
  const res = await fetch(`${target}/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie },
    body: new URLSearchParams({ csrfToken, username: "alice", password: "password" }),
  })
  expect(res.status).toBe(302)
  const session = res.headers
    .getSetCookie()
    .map(parseSetCookie)
    .find((c) => c.name === "authjs.session-token")
  expect(session?.value).toMatch(/^[\w-]+\.\.[\w-]+\.[\w-]+\.[\w-]+$/)
  return `authjs.session-token=${session!.value}`
}

describe("gatehouse/node createHandler", () => {
  it("signs in with credentials and answers /auth/session over a real socket, with no web Request built", async () => {
    const cookie = await signIn()
    const res = await fetch(`${base}/auth/session`, { headers: { cookie } })
    expect(res.status).toBe(200)
    expect(res.headers.get("cache-control")).toBe("private, no-cache, no-store")
    expect(await res.json()).toMatchObject({ user: { name: "Alice", email: "alice@example.com" } })
    expect(Number(res.headers.get("content-length"))).toBeGreaterThan(0)
  })

  it("HEAD /auth/session and /auth/providers: the GET's status and headers, no body; HEAD on a callback is 405", async () => {
    for (const path of ["/auth/session", "/auth/providers", "/auth/signin"]) {
      const get = await rawRequest(server.port, `GET ${path} HTTP/1.1\r\nHost: app.test\r\nConnection: close`)
      const head = await rawRequest(server.port, `HEAD ${path} HTTP/1.1\r\nHost: app.test\r\nConnection: close`)
      expect(head.status, path).toBe(get.status)
      expect(head.headers["content-type"], path).toEqual(get.headers["content-type"])
      expect(head.headers["content-length"], path).toEqual(get.headers["content-length"])
      expect(head.body, path).toBe("")
    }
    const callback = await rawRequest(
      server.port,
      "HEAD /auth/callback/credentials HTTP/1.1\r\nHost: app.test\r\nConnection: close",
    )
    expect(callback.status).toBe(405)
    expect(callback.headers.allow).toEqual(["POST"])
  })

  it("leaves requests outside basePath to the app", async () => {
    const res = await fetch(`${base}/authx/session`)
    expect(res.status).toBe(404)
    expect(await res.text()).toBe("app 404")
  })

  it("a client that aborts in the middle of a sign-in body: authorize never runs, no unhandled rejection, the server keeps serving", async () => {
    authorize.mockClear()
    const csrf = await fetch(`${base}/auth/csrf`)
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const cookie = csrf.headers
      .getSetCookie()
      .map((c) => c.split(";", 1)[0])
      .join("; ")
    const body = new URLSearchParams({ csrfToken, username: "alice", password: "password" }).toString()
    await new Promise<void>((resolve, reject) => {
      const socket = connect(server.port, "127.0.0.1", () => {
        socket.write(
          `POST /auth/callback/credentials HTTP/1.1\r\nHost: app.test\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
            `Cookie: ${cookie}\r\nContent-Length: ${body.length + 100}\r\n\r\n${body.slice(0, 20)}`,
        )
        setTimeout(() => {
          socket.destroy()
          resolve()
        }, 50)
      })
      socket.on("error", reject)
    })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(authorize).not.toHaveBeenCalled()
    expect(rejections).toEqual([])
    expect((await fetch(`${base}/auth/providers`)).status).toBe(200)
  })

  it("a form body over 64 KiB is refused with 413 and the connection is not kept alive", async () => {
    const big = "a=" + "x".repeat(70 * 1024)
    const res = await rawRequest(
      server.port,
      `POST /auth/signout HTTP/1.1\r\nHost: app.test\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${big.length}`,
      big,
    )
    expect(res.status).toBe(413)
    expect(res.headers.connection).toEqual(["close"])
  })
})

describe("gatehouse/node getSession", () => {
  it("reads the session of an app route from the Cookie header (null when signed out or tampered)", async () => {
    const cookie = await signIn()
    const signedIn = await (await fetch(`${base}/me`, { headers: { cookie } })).json()
    expect(signedIn).toMatchObject({ session: { user: { name: "Alice", email: "alice@example.com" } } })
    expect(await (await fetch(`${base}/me`)).json()).toEqual({ session: null })
    const tampered = `${cookie.slice(0, -4)}AAAA`
    const res = await fetch(`${base}/me`, { headers: { cookie: tampered } })
    expect(await res.json()).toEqual({ session: null })
    // The unreadable cookie is cleared, as GET /session does.
    const cleared = res.headers
      .getSetCookie()
      .map(parseSetCookie)
      .find((c) => c.name === "authjs.session-token")
    expect(cleared?.value).toBe("")
  })

  it("re-issues the session cookie on the app's response once updateAge has passed, keeping the app's own cookies", async () => {
    const cfg: AuthConfig = { ...config, session: { updateAge: 60 } }
    const handler = createHandler(cfg)
    const local = await startNodeServer(async (req, res) => {
      if (req.url?.startsWith("/auth/")) return handler(req, res)
      res.setHeader("set-cookie", "app=1; Path=/")
      const session = await getSession(req, cfg, res)
      res.end(JSON.stringify({ session }))
    })
    try {
      // A token issued two minutes ago (encode stamps iat with the clock).
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() - 120_000 })
      const old = await encode({
        token: { name: "Alice", email: "alice@example.com", sub: "user-1" },
        secret: SECRET,
        salt: "authjs.session-token",
      })
      vi.useRealTimers()
      const res = await fetch(`http://127.0.0.1:${local.port}/me`, {
        headers: { cookie: `authjs.session-token=${old}` },
      })
      const cookies = res.headers.getSetCookie().map(parseSetCookie)
      expect(cookies.map((c) => c.name)).toEqual(["app", "authjs.session-token"])
      expect(cookies[1]!.value).not.toBe(old)
      expect(await res.json()).toMatchObject({ session: { user: { email: "alice@example.com" } } })
    } finally {
      await local.close()
    }
  })

  it("database strategy: reads the row through the adapter", async () => {
    const adapter = MemoryAdapter()
    const user = await adapter.createUser!({
      id: "u-db",
      email: "db@example.com",
      emailVerified: null,
      name: "Db User",
    })
    await adapter.createSession!({
      sessionToken: "tok-db",
      userId: user.id,
      expires: new Date(Date.now() + 86_400_000),
    })
    const cfg: AuthConfig = { ...config, adapter, session: { strategy: "database" } }
    const local = await startNodeServer(app(cfg))
    try {
      const body = await (
        await fetch(`http://127.0.0.1:${local.port}/me`, { headers: { cookie: "authjs.session-token=tok-db" } })
      ).json()
      expect(body).toMatchObject({ session: { user: { name: "Db User", email: "db@example.com" } } })
    } finally {
      await local.close()
    }
  })

  it("a broken config throws its configuration error from getSession and logs it once", async () => {
    const errors = vi.fn()
    const broken: AuthConfig = { ...config, secret: "short", logger: { error: errors, warn() {}, debug() {} } }
    const req = {
      headers: { host: "app.test", cookie: "authjs.session-token=x" },
      socket: {},
    } as unknown as IncomingMessage
    await expect(getSession(req, broken)).rejects.toMatchObject({ type: "MissingSecret" })
    await expect(getSession(req, broken)).rejects.toMatchObject({ type: "MissingSecret" })
    expect(errors).toHaveBeenCalledTimes(1)
  })
})
