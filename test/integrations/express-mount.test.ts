// gatehouse/express mounting on Express 5 and 4: basePath from the mount path (plain, nested, wildcard, root), a
// basePath mismatch logged once, requests outside basePath left to the app, an aborted body, and an untouched config.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { connect } from "node:net"
import type { NextFunction, Request, Response } from "express"
import { ExpressAuth, getSession } from "../../src/integrations/express.js"
import type { ExpressAuthConfig } from "../../src/integrations/express.js"
import { credentialsSetup } from "../support/flow-kit.js"
import { spyLogger } from "../support/logger.js"
import { Client, EXPRESS_VERSIONS, type ExpressApp, type ExpressModule, type Served, serve } from "./express-kit.js"

const rejections: unknown[] = []
const onRejection = (reason: unknown): void => void rejections.push(reason)
beforeAll(() => void process.on("unhandledRejection", onRejection))
afterAll(() => void process.off("unhandledRejection", onRejection))
afterEach(() => expect(rejections).toEqual([]))

const running: Served[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()))
})

async function start(app: ExpressApp): Promise<Served> {
  const served = await serve(app)
  running.push(served)
  return served
}

/** App routes that must keep answering whatever ExpressAuth is mounted on. */
function appRoutes(app: ExpressApp): void {
  for (const path of ["/", "/authx", "/auth-other", "/authx/session", "/auth-other/signin"])
    app.get(path, (_req, res) => void res.send(`app ${path}`))
  app.post("/auth-other/echo", (req: Request, res: Response) => void res.json({ body: req.body ?? null }))
  app.use((_req: Request, res: Response) => void res.status(404).send("app 404"))
}

async function providersOf(client: Client, basePath: string): Promise<{ signinUrl: string; callbackUrl: string }> {
  const res = await client.request(`${basePath}/providers`)
  expect(res.status).toBe(200)
  return ((await res.json()) as { credentials: { signinUrl: string; callbackUrl: string } }).credentials
}

async function until(check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out waiting")
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

describe.each(EXPRESS_VERSIONS)("%s", (_name, express: ExpressModule) => {
  it("requests outside basePath reach the app untouched (/authx, /auth-other, bodies included)", async () => {
    const { config, log } = credentialsSetup()
    const app = express()
    app.use("/auth", ExpressAuth(config))
    app.use(express.json())
    appRoutes(app)
    const served = await start(app)
    const client = new Client(served.origin)
    for (const path of ["/", "/authx", "/auth-other", "/authx/session", "/auth-other/signin"]) {
      const res = await client.request(path)
      expect(res.status).toBe(200)
      expect(await res.text()).toBe(`app ${path}`)
      expect(res.headers.get("set-cookie")).toBeNull()
    }
    const echo = await client.postJson("/auth-other/echo", { a: 1 })
    expect(await echo.json()).toEqual({ body: { a: 1 } })
    expect((await client.request("/nowhere")).status).toBe(404)
    expect(await client.session()).toBeNull()
    expect(log.errors).toEqual([])
  })

  it("mounted without a path: answers under config.basePath and passes everything else on", async () => {
    const { config } = credentialsSetup({ basePath: "/auth" })
    const app = express()
    app.use(ExpressAuth(config))
    appRoutes(app)
    const client = new Client((await start(app)).origin)
    expect((await client.signIn()).status).toBe(302)
    expect(await client.session()).toMatchObject({ user: { name: "Alice" } })
    expect(await (await client.request("/authx")).text()).toBe("app /authx")
    expect(await (await client.request("/")).text()).toBe("app /")
    expect((await client.request("/session")).status).toBe(404)
  })

  it("basePath is the mount path: a config without basePath mounted at /api/auth (and in a sub-router)", async () => {
    const { config } = credentialsSetup({ basePath: undefined })
    const app = express()
    app.use("/api/auth", ExpressAuth(config))
    const router = express.Router()
    router.use("/auth", ExpressAuth(config))
    app.use("/nested", router)
    appRoutes(app)
    const served = await start(app)
    const client = new Client(served.origin, {}, "/api/auth")
    expect(await providersOf(client, "/api/auth")).toMatchObject({
      signinUrl: `${served.origin}/api/auth/signin/credentials`,
      callbackUrl: `${served.origin}/api/auth/callback/credentials`,
    })
    expect((await client.signIn()).status).toBe(302)
    expect(await client.session()).toMatchObject({ user: { name: "Alice" } })
    expect((await providersOf(client, "/nested/auth")).signinUrl).toBe(
      `${served.origin}/nested/auth/signin/credentials`,
    )
    expect(await (await client.request("/auth-other")).text()).toBe("app /auth-other")
  })

  it(`the wildcard mount of the @auth/express docs works (${express === EXPRESS_VERSIONS[1]![1] ? '"/auth/*"' : '"/auth/*splat"'})`, async () => {
    const { config } = credentialsSetup({ basePath: undefined })
    const app = express()
    // Express 4's path syntax takes "/auth/*"; Express 5's path-to-regexp 8 names its wildcards.
    app.use(express === EXPRESS_VERSIONS[1]![1] ? "/auth/*" : "/auth/*splat", ExpressAuth(config))
    appRoutes(app)
    const served = await start(app)
    const client = new Client(served.origin)
    expect((await providersOf(client, "/auth")).callbackUrl).toBe(`${served.origin}/auth/callback/credentials`)
    expect((await client.signIn()).status).toBe(302)
    expect(await client.session()).toMatchObject({ user: { name: "Alice" } })
    expect(await (await client.request("/authx")).text()).toBe("app /authx")
  })

  it("a basePath that differs from the mount path answers a configuration error, logged once with the fix", async () => {
    const log = spyLogger()
    const { config } = credentialsSetup({ basePath: "/auth", logger: log.logger })
    const app = express()
    app.use("/api/auth", ExpressAuth(config))
    appRoutes(app)
    const served = await start(app)
    const client = new Client(served.origin, {}, "/api/auth")
    for (let i = 0; i < 3; i++) {
      const res = await client.request("/api/auth/session")
      expect(res.status).toBe(500)
      expect(await res.json()).toHaveProperty("message")
    }
    const page = await client.request("/api/auth/signin")
    expect(page.status).toBe(500)
    expect(page.headers.get("content-type")).toContain("text/html")
    expect(page.headers.get("set-cookie")).toBeNull()
    expect(log.errors).toHaveLength(1)
    const [message] = log.messages()
    expect(message).toContain('mounted at "/api/auth"')
    expect(message).toContain('basePath "/auth"')
    expect(message).toContain('app.use("/auth", ExpressAuth(config))')
    // The app itself is not affected.
    expect(await (await client.request("/authx")).text()).toBe("app /authx")
  })

  it("a request that only differs in letter case from the mount path is no mismatch", async () => {
    const log = spyLogger()
    const { config } = credentialsSetup({ basePath: "/auth", logger: log.logger })
    const app = express()
    app.use("/auth", ExpressAuth(config))
    const client = new Client((await start(app)).origin)
    expect((await client.request("/AUTH/session")).status).toBe(200)
    expect(log.errors).toEqual([])
  })

  it("never changes the config object it is given", async () => {
    const { config } = credentialsSetup({ basePath: undefined, secret: undefined })
    const previous = process.env.AUTH_SECRET
    process.env.AUTH_SECRET = "env-secret-that-is-at-least-32-characters-long"
    try {
      const provider = config.providers[0]
      const before = { ...config, providers: [...config.providers] }
      const providerBefore = { ...(provider as object) }
      const app = express()
      app.use("/api/auth", ExpressAuth(config))
      app.get("/me", async (req: Request, res: Response) => void res.json(await getSession(req, config)))
      const client = new Client((await start(app)).origin, {}, "/api/auth")
      expect((await client.signIn()).status).toBe(302)
      expect(await client.session()).toMatchObject({ user: { name: "Alice" } })
      expect(await (await client.request("/me")).json()).toMatchObject({ user: { name: "Alice" } })
      expect(config).toEqual(before)
      expect("basePath" in config && config.basePath !== undefined).toBe(false)
      expect(config.secret).toBeUndefined()
      expect(config.providers[0]).toBe(provider)
      expect({ ...(provider as object) }).toEqual(providerBefore)
    } finally {
      if (previous === undefined) delete process.env.AUTH_SECRET
      else process.env.AUTH_SECRET = previous
    }
  })

  it("getSession with a broken config rejects into the app's error handler (logged once)", async () => {
    const log = spyLogger()
    const config: ExpressAuthConfig = { ...credentialsSetup().config, secret: "short", logger: log.logger }
    const app = express()
    app.get("/me", (req: Request, res: Response, next: NextFunction) => {
      getSession(req, config).then((session) => res.json(session), next)
    })
    app.use(
      (error: Error, _req: Request, res: Response, _next: NextFunction) =>
        void res.status(500).json({ caught: error.message }),
    )
    const client = new Client((await start(app)).origin)
    for (let i = 0; i < 2; i++) {
      const res = await client.request("/me", { headers: { cookie: "authjs.session-token=x" } })
      expect(res.status).toBe(500)
      expect(((await res.json()) as { caught: string }).caught).toContain("secret")
    }
    expect(log.errors).toHaveLength(1)
  })

  it("a failure that is not an auth answer (a header Node refuses to write) goes to next(error)", async () => {
    const { config } = credentialsSetup({ pages: { signIn: "/login\nX-Injected: yes" } })
    const app = express()
    app.use("/auth", ExpressAuth(config))
    app.use(
      (error: Error, _req: Request, res: Response, _next: NextFunction) =>
        void res.status(502).send(`app handler: ${error.message}`),
    )
    const client = new Client((await start(app)).origin)
    const res = await client.request("/auth/signin")
    expect(res.status).toBe(502)
    expect(res.headers.get("x-injected")).toBeNull()
    expect(await res.text()).toContain("app handler: Invalid character in header content")
    expect((await client.request("/auth/session")).status).toBe(200)
  })

  it("a client that aborts mid-body: no sign-in, no unhandled rejection, and the server keeps serving", async () => {
    const { config, log, authorize } = credentialsSetup()
    const signIn = vitestSpy()
    const app = express()
    app.use("/auth", ExpressAuth({ ...config, events: { signIn: signIn.fn } }))
    const served = await start(app)
    const client = new Client(served.origin)
    const csrfToken = await client.csrf()
    const body = new URLSearchParams({ csrfToken, username: "alice", password: "password" }).toString()
    await new Promise<void>((resolve, reject) => {
      const socket = connect(served.port, "127.0.0.1", () => {
        socket.write(
          `POST /auth/callback/credentials HTTP/1.1\r\nHost: 127.0.0.1:${served.port}\r\nCookie: ${client.jar.header()}\r\n` +
            `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, body.length >> 1)}`,
          () => setTimeout(() => (socket.destroy(), resolve()), 50),
        )
      })
      socket.on("error", reject)
    })
    await until(() => log.types().includes("InvalidRequest"))
    expect(log.messages().join("\n")).toMatch(/body could not be read|closed the connection/)
    expect(authorize).not.toHaveBeenCalled()
    expect(signIn.calls).toBe(0)
    expect(await client.session()).toBeNull()
    expect((await client.signIn()).status).toBe(302)
  })
})

function vitestSpy(): { fn: () => void; calls: number } {
  const spy = { calls: 0, fn: () => void spy.calls++ }
  return spy
}
