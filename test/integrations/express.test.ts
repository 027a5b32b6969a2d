// gatehouse/express over real HTTP, on Express 5 and 4: credentials sign-in, /session read and update, getSession in
// an app route, sign-out, HEAD, trust proxy with X-Forwarded-Proto, and body parsers mounted before ExpressAuth.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import type { Request, Response } from "express"
import { ExpressAuth, getSession } from "../../src/integrations/express.js"
import type { ExpressAuthConfig } from "../../src/integrations/express.js"
import { credentialsSetup } from "../support/flow-kit.js"
import { isDeletion, isSessionCookieName, setCookieList } from "../support/cookies.js"
import { rawRequest } from "../support/raw-http.js"
import { Client, EXPRESS_VERSIONS, type ExpressApp, type ExpressModule, type Served, serve } from "./express-kit.js"

const rejections: unknown[] = []
const onRejection = (reason: unknown): void => void rejections.push(reason)
beforeAll(() => void process.on("unhandledRejection", onRejection))
afterAll(() => void process.off("unhandledRejection", onRejection))
afterEach(() => expect(rejections).toEqual([]))

type Setup = ReturnType<typeof credentialsSetup>

/** The credentials config with a jwt callback that applies POST /session updates (trigger "update") to the name. */
function setup(overrides: Partial<ExpressAuthConfig> = {}): Setup {
  return credentialsSetup({
    callbacks: {
      jwt: ({ token, trigger, session }) => {
        if (trigger === "update" && session && typeof session === "object" && "name" in session)
          token.name = String(session.name)
        return token
      },
    },
    ...overrides,
  })
}

/** The body parsers an app may mount before ExpressAuth. */
const PARSERS: ReadonlyArray<readonly [string, (express: ExpressModule, app: ExpressApp) => void]> = [
  ["no body parser", () => {}],
  [
    "express.json() + express.urlencoded({ extended: true })",
    (e, app) => void app.use(e.json(), e.urlencoded({ extended: true })),
  ],
  [
    "express.urlencoded({ extended: false }) + express.json()",
    (e, app) => void app.use(e.urlencoded({ extended: false }), e.json()),
  ],
  ["express.raw({ type: '*/*' })", (e, app) => void app.use(e.raw({ type: "*/*" }))],
  ["express.text({ type: '*/*' })", (e, app) => void app.use(e.text({ type: "*/*" }))],
]

/** An app with ExpressAuth at /auth and a /me route that answers getSession. */
function buildApp(
  express: ExpressModule,
  config: ExpressAuthConfig,
  before: (app: ExpressApp) => void = () => {},
): ExpressApp {
  const app = express()
  before(app)
  app.use("/auth", ExpressAuth(config))
  app.get("/me", async (req: Request, res: Response) => {
    res.json({ session: await getSession(req, config) })
  })
  return app
}

describe.each(EXPRESS_VERSIONS)("%s", (_name, express) => {
  describe.each(PARSERS)("with %s mounted before", (_parser, mountParser) => {
    let s: Setup
    let served: Served
    beforeAll(async () => {
      s = setup()
      served = await serve(buildApp(express, s.config, (app) => mountParser(express, app)))
    })
    afterAll(() => served.stop())

    it("signs in with credentials: csrf, then POST /auth/callback/credentials sets the session cookie and redirects", async () => {
      const client = new Client(served.origin)
      const res = await client.signIn("alice", "password", { extraField: "kept" })
      expect(res.status).toBe(302)
      expect(res.headers.get("location")).toBe(`${served.origin}/me`)
      expect(setCookieList(res).some((c) => c.name === "authjs.session-token" && !isDeletion(c))).toBe(true)
      // Every declared field reached authorize(), none lost when a parser consumed the body first; an undeclared
      // one (extraField) never does (docs/security.md RL-01).
      const credentials = s.authorize.mock.calls.at(-1)![0]
      expect(credentials).toEqual({ username: "alice", password: "password" })
      expect(await client.session()).toMatchObject({ user: { name: "Alice", email: "alice@example.com" } })
    })

    it("refuses wrong credentials without a session cookie", async () => {
      const client = new Client(served.origin)
      const res = await client.signIn("alice", "wrong")
      expect(res.status).toBe(302)
      expect(res.headers.get("location")).toContain("error=CredentialsSignin")
      expect(setCookieList(res).filter((c) => isSessionCookieName(c.name) && !isDeletion(c))).toEqual([])
    })

    it("a form over 64 KiB (within the parsers' 100 KB limit) answers 413 and authorize is not called", async () => {
      const client = new Client(served.origin)
      const csrfToken = await client.csrf()
      const calls = s.authorize.mock.calls.length
      const res = await client.postForm("/auth/callback/credentials", {
        csrfToken,
        username: "alice",
        password: "password",
        pad: "x".repeat(70_000),
      })
      expect(res.status).toBe(413)
      expect(s.authorize.mock.calls.length).toBe(calls)
      expect(setCookieList(res).filter((c) => isSessionCookieName(c.name) && !isDeletion(c))).toEqual([])
    })

    it("updates the session with POST /auth/session (JSON body with csrfToken and data)", async () => {
      const client = new Client(served.origin)
      expect((await client.signIn()).status).toBe(302)
      const csrfToken = await client.csrf()
      const res = await client.postJson("/auth/session", { csrfToken, data: { name: "Alice Updated" } })
      expect(res.status).toBe(200)
      expect(await res.json()).toMatchObject({ user: { name: "Alice Updated" } })
      expect(await client.session()).toMatchObject({ user: { name: "Alice Updated" } })
    })

    it("refuses POST /auth/session without the CSRF token (nothing changes)", async () => {
      const client = new Client(served.origin)
      expect((await client.signIn()).status).toBe(302)
      const res = await client.postJson("/auth/session", { data: { name: "Mallory" } })
      expect(await client.session()).toMatchObject({ user: { name: "Alice" } })
      expect(res.headers.get("set-cookie") ?? "").not.toContain("authjs.session-token=ey")
    })
  })

  describe("routes and getSession", () => {
    let s: Setup
    let served: Served
    beforeAll(async () => {
      s = setup()
      served = await serve(buildApp(express, s.config))
    })
    afterAll(() => served.stop())

    it("getSession in an app route: null signed out, the session signed in, null again after sign-out", async () => {
      const client = new Client(served.origin)
      expect(await (await client.request("/me")).json()).toEqual({ session: null })
      expect(await client.session()).toBeNull()
      expect((await client.signIn()).status).toBe(302)
      const me = (await (await client.request("/me")).json()) as {
        session: { user: { email: string }; expires: string }
      }
      expect(me.session.user.email).toBe("alice@example.com")
      expect(Date.parse(me.session.expires)).toBeGreaterThan(Date.now())

      const csrfToken = await client.csrf()
      const out = await client.postForm("/auth/signout", { csrfToken })
      expect(out.status).toBe(302)
      expect(setCookieList(out).some((c) => c.name === "authjs.session-token" && isDeletion(c))).toBe(true)
      expect(s.signOut).toHaveBeenCalled()
      expect(await (await client.request("/me")).json()).toEqual({ session: null })
      expect(await client.session()).toBeNull()
    })

    it("HEAD /auth/session answers 200 like the GET, with no body", async () => {
      const client = new Client(served.origin)
      await client.signIn()
      const res = await rawRequest(
        served.port,
        `HEAD /auth/session HTTP/1.1\r\nHost: 127.0.0.1:${served.port}\r\nCookie: ${client.jar.header()}`,
      )
      expect(res.status).toBe(200)
      expect(res.headers["content-type"]?.[0]).toContain("application/json")
      expect(res.body).toBe("")
      const viaFetch = await client.request("/auth/session", { method: "HEAD" })
      expect(viaFetch.status).toBe(200)
    })

    it("GET /auth/providers builds URLs under the mount path", async () => {
      const res = await new Client(served.origin).request("/auth/providers")
      const body = (await res.json()) as { credentials: { signinUrl: string; callbackUrl: string } }
      expect(body.credentials.signinUrl).toBe(`${served.origin}/auth/signin/credentials`)
      expect(body.credentials.callbackUrl).toBe(`${served.origin}/auth/callback/credentials`)
    })
  })

  describe("getSession re-issues the session cookie on the route's response", () => {
    let served: Served
    beforeAll(async () => {
      // updateAge 0: every read re-issues (session/jwt.ts), as a read past updateAge does.
      served = await serve(buildApp(express, setup({ session: { updateAge: 0 } }).config))
    })
    afterAll(() => served.stop())

    it("appends Set-Cookie with a fresh session token to the app route's answer", async () => {
      const client = new Client(served.origin)
      await client.signIn()
      const before = client.jar.cookies.get("authjs.session-token")
      const res = await client.request("/me")
      expect(res.status).toBe(200)
      const reissued = setCookieList(res).find((c) => c.name === "authjs.session-token")
      expect(reissued && !isDeletion(reissued)).toBe(true)
      expect(client.jar.cookies.get("authjs.session-token")).not.toBe(before)
      expect(((await res.json()) as { session: { user: { name: string } } }).session.user.name).toBe("Alice")
    })
  })

  describe('app.set("trust proxy", true)', () => {
    let served: Served
    beforeAll(async () => {
      const { config } = setup()
      served = await serve(buildApp(express, config, (app) => void app.set("trust proxy", true)))
    })
    afterAll(() => served.stop())

    it("X-Forwarded-Proto: https gives __Secure- cookies, and getSession reads them", async () => {
      const client = new Client(served.origin, { "x-forwarded-proto": "https" })
      const res = await client.signIn()
      expect(res.status).toBe(302)
      const session = setCookieList(res).find((c) => c.name === "__Secure-authjs.session-token")
      expect(session?.attrs.secure).toBe(true)
      expect(setCookieList(res).some((c) => c.name === "authjs.session-token")).toBe(false)
      const me = (await (await client.request("/me")).json()) as { session: { user: { email: string } } | null }
      expect(me.session?.user.email).toBe("alice@example.com")
      expect(await client.session()).toMatchObject({ user: { email: "alice@example.com" } })
    })

    it("without X-Forwarded-Proto the cookies are plain (http)", async () => {
      const res = await new Client(served.origin).signIn()
      expect(setCookieList(res).some((c) => c.name === "authjs.session-token" && c.attrs.secure === undefined)).toBe(
        true,
      )
      expect(setCookieList(res).some((c) => c.name.startsWith("__Secure-"))).toBe(false)
    })
  })
})
