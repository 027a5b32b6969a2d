// gatehouse/hono over real HTTP (@hono/node-server on 127.0.0.1): initAuthConfig, authHandler, verifyAuth, getAuthUser,
// basePath, env defaults, requests outside basePath, HEAD, a broken config logged once, and the example app.
import { type ChildProcess, spawn } from "node:child_process"
import type { Server } from "node:http"
import { createAdaptorServer } from "@hono/node-server"
import { Hono } from "hono"
import { afterEach, describe, expect, expectTypeOf, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import {
  type AuthConfig,
  type AuthUser,
  authHandler,
  getAuthUser,
  initAuthConfig,
  verifyAuth,
} from "../../src/integrations/hono.js"
import Credentials from "../../src/providers/credentials.js"
import {
  CookieJar,
  isDeletion,
  isSessionCookieName,
  sessionCookieNames,
  sessionCookiesCleared,
  setCookieList,
} from "../support/cookies.js"
import { type Listening, listenLocal } from "../support/listen.js"
import { spyLogger } from "../support/logger.js"
import { withEnv } from "../support/env.js"

// Module augmentation of gatehouse's Session reaches c.get("authUser") (checked by tsc).
declare module "../../src/types.js" {
  interface Session {
    honoTestRole?: string
  }
}

const SECRET = "hono-test-secret-that-is-at-least-32-characters"
const alice = { id: "user-1", name: "Alice", email: "alice@example.com" }

function credentials() {
  return Credentials({
    credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
    authorize: async (c) => (c.username === "alice" && c.password === "password" ? { ...alice } : null),
  })
}

function baseConfig(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return { secret: SECRET, trustHost: true, providers: [credentials()], ...overrides }
}

const running: Listening[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()))
})

async function serve(app: Hono): Promise<string> {
  const listening = await listenLocal(createAdaptorServer({ fetch: app.fetch }) as Server)
  running.push(listening)
  return listening.origin
}

/** An app as @hono/auth-js documents it, plus a getAuthUser route and a public route. */
function documentedApp(config: AuthConfig | (() => AuthConfig)): Hono {
  const app = new Hono()
  app.use("*", initAuthConfig(typeof config === "function" ? config : () => config))
  app.use("/api/auth/*", authHandler())
  app.use("/api/*", verifyAuth())
  app.get("/api/protected", (c) => {
    const authUser: AuthUser = c.get("authUser")
    expectTypeOf(authUser.session.honoTestRole).toEqualTypeOf<string | undefined>()
    return c.json(authUser)
  })
  app.get("/whoami", async (c) => c.json({ authUser: await getAuthUser(c) }))
  app.get("/public", (c) => c.text("public page"))
  return app
}

function get(origin: string, path: string, jar?: CookieJar, method = "GET"): Promise<Response> {
  const headers: Record<string, string> = {}
  const cookie = jar?.header()
  if (cookie) headers.cookie = cookie
  return fetch(`${origin}${path}`, { method, headers, redirect: "manual" })
}

async function post(origin: string, path: string, form: Record<string, string>, jar: CookieJar): Promise<Response> {
  return fetch(`${origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.header() },
    body: new URLSearchParams(form).toString(),
    redirect: "manual",
  })
}

async function csrfToken(origin: string, jar: CookieJar, basePath = "/api/auth"): Promise<string> {
  const res = await get(origin, `${basePath}/csrf`, jar)
  expect(res.status).toBe(200)
  jar.store(res)
  return ((await res.json()) as { csrfToken: string }).csrfToken
}

async function signIn(
  origin: string,
  basePath = "/api/auth",
  password = "password",
): Promise<{ jar: CookieJar; res: Response }> {
  const jar = new CookieJar()
  const token = await csrfToken(origin, jar, basePath)
  const res = await post(
    origin,
    `${basePath}/callback/credentials`,
    { csrfToken: token, username: "alice", password, callbackUrl: `${origin}/done` },
    jar,
  )
  jar.store(res)
  return { jar, res }
}

describe("gatehouse/hono, JWT strategy", () => {
  it("credentials sign-in through authHandler sets the session cookie and redirects to the callbackUrl", async () => {
    const origin = await serve(documentedApp(baseConfig()))
    const { res } = await signIn(origin)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(`${origin}/done`)
    expect(sessionCookieNames(res)).toEqual(["authjs.session-token"])

    const wrong = await signIn(origin, "/api/auth", "nope")
    expect(wrong.res.headers.get("location")).toBe(
      `${origin}/api/auth/signin?error=CredentialsSignin&code=credentials&callbackUrl=${encodeURIComponent(`${origin}/done`)}`,
    )
    expect(sessionCookieNames(wrong.res)).toEqual([])
  })

  it("GET /api/auth/session answers null signed out and the session signed in", async () => {
    const origin = await serve(documentedApp(baseConfig()))
    const out = await get(origin, "/api/auth/session")
    expect(out.status).toBe(200)
    expect(await out.json()).toBeNull()
    const { jar } = await signIn(origin)
    const res = await get(origin, "/api/auth/session", jar)
    expect(res.status).toBe(200)
    const body = (await res.json()) as { user: unknown; expires: string }
    expect(body.user).toEqual({ name: alice.name, email: alice.email })
    expect(Date.parse(body.expires)).toBeGreaterThan(Date.now())
  })

  it('verifyAuth answers 401 `Unauthorized` signed out, and sets c.get("authUser") with the session and token signed in', async () => {
    const config = baseConfig({
      callbacks: { session: ({ session }) => ({ ...session, honoTestRole: "admin" }) },
    })
    const origin = await serve(documentedApp(config))
    const out = await get(origin, "/api/protected")
    expect(out.status).toBe(401)
    expect(await out.text()).toBe("Unauthorized")

    const { jar } = await signIn(origin)
    const res = await get(origin, "/api/protected", jar)
    expect(res.status).toBe(200)
    const authUser = (await res.json()) as AuthUser
    expect(authUser.session.user).toEqual({ name: alice.name, email: alice.email })
    expect(authUser.session.honoTestRole).toBe("admin")
    expect(authUser.token).toMatchObject({ sub: alice.id, email: alice.email, name: alice.name })
    expect(authUser.user).toBeUndefined()
  })

  it("getAuthUser in a route: null signed out, the user signed in; a cookie due for re-issue is re-issued on the route's response", async () => {
    const origin = await serve(documentedApp(baseConfig({ session: { updateAge: 0 } })))
    const out = await get(origin, "/whoami")
    expect(await out.json()).toEqual({ authUser: null })
    expect(setCookieList(out)).toEqual([])

    const { jar } = await signIn(origin)
    const res = await get(origin, "/whoami", jar)
    expect(res.status).toBe(200)
    const { authUser } = (await res.json()) as { authUser: AuthUser }
    expect(authUser.session.user?.email).toBe(alice.email)
    expect(authUser.token?.sub).toBe(alice.id)
    // updateAge 0: every read re-issues the session cookie, through c.header("Set-Cookie", …, { append: true }).
    expect(sessionCookieNames(res)).toEqual(["authjs.session-token"])
  })

  it("a bad session cookie reads as signed out, and the 401 clears it", async () => {
    const origin = await serve(documentedApp(baseConfig()))
    const jar = new CookieJar()
    jar.cookies.set("authjs.session-token", "not-a-token")
    const res = await get(origin, "/api/protected", jar)
    expect(res.status).toBe(401)
    expect(await res.text()).toBe("Unauthorized")
    expect(sessionCookiesCleared(res).map((c) => c.name)).toEqual(["authjs.session-token"])
  })

  it("sign-out clears the session; verifyAuth answers 401 again", async () => {
    const origin = await serve(documentedApp(baseConfig()))
    const { jar } = await signIn(origin)
    expect((await get(origin, "/api/protected", jar)).status).toBe(200)
    const token = await csrfToken(origin, jar)
    const res = await post(origin, "/api/auth/signout", { csrfToken: token, callbackUrl: `${origin}/bye` }, jar)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(`${origin}/bye`)
    const cleared = setCookieList(res).filter((c) => isSessionCookieName(c.name))
    expect(cleared.length).toBeGreaterThan(0)
    expect(cleared.every(isDeletion)).toBe(true)
    jar.store(res)
    expect((await get(origin, "/api/protected", jar)).status).toBe(401)
    expect(await (await get(origin, "/api/auth/session", jar)).json()).toBeNull()
  })

  it("HEAD /api/auth/session is answered like the GET, without a body", async () => {
    const origin = await serve(documentedApp(baseConfig()))
    const { jar } = await signIn(origin)
    const res = await get(origin, "/api/auth/session", jar, "HEAD")
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toBe("application/json")
    expect(await res.text()).toBe("")
  })

  it("the user's config object is not mutated: secret and basePath come from the environment on a copy, resolved once", async () => {
    const log = spyLogger()
    // `debug: true` makes each resolution warn "debug-enabled" once: the count is the number of resolutions.
    const config: AuthConfig = { trustHost: true, providers: [credentials()], debug: true, logger: log.logger }
    const snapshot = { ...config }
    await withEnv({ AUTH_SECRET: SECRET }, async () => {
      const origin = await serve(documentedApp(config))
      const { res, jar } = await signIn(origin)
      expect(res.status).toBe(302)
      expect((await get(origin, "/api/protected", jar)).status).toBe(200)
      expect((await get(origin, "/whoami", jar)).status).toBe(200)
    })
    expect(log.warnings).toEqual([["debug-enabled"]])
    expect(config).toEqual(snapshot)
    expect("secret" in config).toBe(false)
    expect("basePath" in config).toBe(false)
  })

  it("AUTH_URL's path is the basePath when the config sets none", async () => {
    await withEnv({ AUTH_SECRET: SECRET, AUTH_URL: "http://127.0.0.1/custom/auth" }, async () => {
      const app = new Hono()
      app.use(
        "*",
        initAuthConfig(() => config),
      )
      app.use("*", authHandler())
      const config: AuthConfig = { providers: [credentials()] }
      const origin = await serve(app)
      const res = await get(origin, "/custom/auth/providers")
      expect(res.status).toBe(200)
      expect(Object.keys((await res.json()) as object)).toEqual(["credentials"])
      expect((await get(origin, "/api/auth/providers")).status).toBe(404)
    })
  })
})

describe("gatehouse/hono, database strategy (memory adapter)", () => {
  it("verifyAuth sets authUser with the session and the adapter user (no token)", async () => {
    const adapter = MemoryAdapter()
    const origin = await serve(documentedApp(baseConfig({ adapter, session: { strategy: "database" } })))
    expect((await get(origin, "/api/protected")).status).toBe(401)
    const { res, jar } = await signIn(origin)
    expect(res.status).toBe(302)
    const protectedRes = await get(origin, "/api/protected", jar)
    expect(protectedRes.status).toBe(200)
    const authUser = (await protectedRes.json()) as AuthUser
    expect(authUser.session.user).toMatchObject({ name: alice.name, email: alice.email })
    expect(authUser.user).toMatchObject({ id: alice.id, name: alice.name, email: alice.email })
    expect(authUser.token).toBeUndefined()

    const token = await csrfToken(origin, jar)
    const out = await post(origin, "/api/auth/signout", { csrfToken: token }, jar)
    jar.store(out)
    expect((await get(origin, "/api/protected", jar)).status).toBe(401)
  })
})

describe("gatehouse/hono, basePath and requests outside it", () => {
  it("a custom basePath: authHandler on every path answers under it only", async () => {
    const app = new Hono()
    const config = baseConfig({ basePath: "/custom/auth" })
    app.use(
      "*",
      initAuthConfig(() => config),
    )
    app.use("*", authHandler())
    app.get("/me", verifyAuth(), (c) => c.json(c.get("authUser").session))
    const origin = await serve(app)
    const { res, jar } = await signIn(origin, "/custom/auth")
    expect(res.status).toBe(302)
    expect(((await (await get(origin, "/custom/auth/session", jar)).json()) as { user: unknown }).user).toEqual({
      name: alice.name,
      email: alice.email,
    })
    expect((await get(origin, "/me", jar)).status).toBe(200)
    // The default path is the app's: Hono's own 404.
    const other = await get(origin, "/api/auth/session", jar)
    expect(other.status).toBe(404)
    expect(await other.text()).toBe("404 Not Found")
  })

  it("requests outside basePath reach the app untouched: method, body, headers and a look-alike prefix", async () => {
    const app = new Hono()
    const config = baseConfig()
    app.use(
      "*",
      initAuthConfig(() => config),
    )
    app.use("*", authHandler())
    app.post("/echo", async (c) => c.json({ body: await c.req.text(), header: c.req.header("x-test") ?? null }))
    app.get("/api/authors", (c) => c.text("authors"))
    const origin = await serve(app)
    const res = await fetch(`${origin}/echo`, { method: "POST", body: "raw body", headers: { "x-test": "kept" } })
    expect(await res.json()).toEqual({ body: "raw body", header: "kept" })
    expect(setCookieList(res)).toEqual([])
    const lookalike = await get(origin, "/api/authors")
    expect(lookalike.status).toBe(200)
    expect(await lookalike.text()).toBe("authors")
  })

  it("sign-in still works when an earlier middleware already read the body", async () => {
    const app = new Hono()
    const config = baseConfig()
    app.use(
      "*",
      initAuthConfig(() => config),
    )
    app.use("*", async (c, next) => {
      if (c.req.method === "POST") await c.req.parseBody()
      await next()
    })
    app.use("/api/auth/*", authHandler())
    const origin = await serve(app)
    const { res } = await signIn(origin)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(`${origin}/done`)
    expect(sessionCookieNames(res)).toEqual(["authjs.session-token"])
  })

  it("authHandler mounted where the basePath is not: one error naming the fix, logged once", async () => {
    const log = spyLogger()
    const config = baseConfig({ logger: log.logger })
    const app = new Hono()
    app.use(
      "*",
      initAuthConfig(() => config),
    )
    app.use("/auth/*", authHandler())
    const origin = await serve(app)
    for (let i = 0; i < 3; i++) {
      const res = await get(origin, "/auth/session")
      expect(res.status).toBe(500)
      expect(await res.json()).toEqual({ message: expect.stringContaining("server configuration") })
    }
    expect(log.types()).toEqual(["InvalidEndpoints"])
    expect(log.messages()[0]).toContain('set `basePath: "/auth"`')
  })
})

describe("gatehouse/hono, a broken config", () => {
  it("a missing secret is one MissingSecret naming the fix, logged once for the handler, verifyAuth and getAuthUser", async () => {
    await withEnv({}, async () => {
      const log = spyLogger()
      const config: AuthConfig = { trustHost: true, providers: [credentials()], logger: log.logger }
      const origin = await serve(documentedApp(config))
      for (let i = 0; i < 3; i++) {
        const res = await get(origin, "/api/auth/session")
        expect(res.status).toBe(500)
        expect(await res.json()).toEqual({
          message: "There was a problem with the server configuration. Check the server logs for more information.",
        })
        const guarded = await get(origin, "/api/protected")
        expect(guarded.status).toBe(500)
        expect(await guarded.json()).toEqual({ message: expect.stringContaining("server configuration") })
        expect((await get(origin, "/whoami")).status).toBe(500)
      }
      expect(log.types()).toEqual(["MissingSecret"])
      expect(log.messages()[0]).toMatch(/AUTH_SECRET/)
      expect((await get(origin, "/public")).status).toBe(200)
    })
  })

  it("a callback that builds a new (broken) config per request still logs the error once", async () => {
    await withEnv({}, async () => {
      const log = spyLogger()
      const origin = await serve(
        documentedApp(() => ({ trustHost: true, providers: [credentials()], logger: log.logger })),
      )
      for (let i = 0; i < 3; i++) expect((await get(origin, "/api/auth/session")).status).toBe(500)
      expect(log.types()).toEqual(["MissingSecret"])
    })
  })

  it("getAuthUser without initAuthConfig fails with an error that says what to add", async () => {
    const app = new Hono()
    let caught: unknown
    app.get("/x", async (c) => {
      try {
        await getAuthUser(c)
      } catch (error) {
        caught = error
      }
      return c.text("done")
    })
    const origin = await serve(app)
    expect((await get(origin, "/x")).status).toBe(200)
    expect(caught).toBeInstanceOf(Error)
    expect((caught as Error).message).toContain("initAuthConfig")
  })
})

describe("examples/hono", () => {
  let child: ChildProcess | undefined
  afterEach(() => {
    if (child?.exitCode === null) child.kill()
    child = undefined
  })

  it("starts with its README command and serves sign-in, the protected page and sign-out", async () => {
    // The README's `npx tsx examples/hono/server.ts`, as one node process (tsx's loader) so the test can stop it by pid.
    const env = { ...process.env, PORT: "0", AUTH_SECRET: "", AUTH_URL: "" }
    child = spawn(process.execPath, ["--import", "tsx", "examples/hono/server.ts"], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    })
    const origin = await new Promise<string>((resolve, reject) => {
      let out = ""
      const timer = setTimeout(() => reject(new Error(`example did not start: ${out}`)), 15_000)
      child!.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString()
        const match = /http:\/\/localhost:(\d+)/.exec(out)
        if (match) {
          clearTimeout(timer)
          resolve(`http://127.0.0.1:${match[1]}`)
        }
      })
      child!.stderr!.on("data", (chunk: Buffer) => (out += chunk.toString()))
      child!.on("exit", (code) => reject(new Error(`example exited with ${code}: ${out}`)))
    })
    const home = await get(origin, "/")
    expect(home.status).toBe(200)
    expect(await home.text()).toContain("Not signed in")
    expect((await get(origin, "/protected")).status).toBe(401)

    const jar = new CookieJar()
    const token = await csrfToken(origin, jar)
    const res = await post(
      origin,
      "/api/auth/callback/credentials",
      { csrfToken: token, username: "demo", password: "demo" },
      jar,
    )
    expect(res.status).toBe(302)
    jar.store(res)
    const page = await get(origin, "/protected", jar)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain("Demo User")
    expect(html).toContain("demo@example.com")

    const out = await post(origin, "/api/auth/signout", { csrfToken: await csrfToken(origin, jar) }, jar)
    jar.store(out)
    expect((await get(origin, "/protected", jar)).status).toBe(401)
  })
})
