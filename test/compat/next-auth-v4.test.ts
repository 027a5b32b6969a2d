// next-auth 4's wire format (the `nextAuthV4` marker, docs/wire-format.md) against next-auth 4.24.15 itself: the same
// requests go through next-auth 4's AuthHandler (loaded by path, test/support/next-auth-v4.ts, its answer written as
// next-auth/next's API-route handler writes it) and through Gatehouse's Auth() with the marker, with the same secret
// and a credentials provider under JWT sessions; statuses, JSON bodies, redirects, cookie names and attributes are
// compared, and what one side writes (session cookies, chunked or not, CSRF cookies) the other reads. An OIDC sign-in
// at a local OP (oidc-provider) shows the check cookies under v4's names and a session next-auth 4 reads. Deliberate
// differences are named where they apply.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import type { AuthConfig } from "../../src/index.js"
import Credentials from "../../src/providers/credentials.js"
import type { OAuthConfigBase } from "../../src/providers/types.js"
import { decodeToken } from "../../src/jwt/jwe.js"
import { nextAuthV4 } from "../../src/symbols.js"
import { Browser, formatStep } from "../support/browser.js"
import { type ParsedCookie, parseSetCookie } from "../support/set-cookie.js"
import { isolateEnv } from "../support/env.js"
import { OP_USERS, type OidcOp, startOidcProvider } from "../support/oidc-op.js"
import {
  nextAuthV4Handler,
  nextAuthV4Jwt,
  nextAuthV4Module,
  nextAuthV4SerializeCookie,
} from "../support/next-auth-v4.js"

const ORIGIN = "http://localhost:3000"
const BASE = `${ORIGIN}/api/auth`
const SECRET = "a-next-auth-v4-compat-secret-of-at-least-32-chars"
const MAX_AGE = 30 * 24 * 60 * 60
const alice = { id: "user-1", name: "Alice", email: "alice@example.com", image: "https://img.example/alice.png" }
const silent = { error() {}, warn() {}, debug() {} }

const v4AuthHandler = nextAuthV4Handler()
const v4Jwt = nextAuthV4Jwt()
const serialize = nextAuthV4SerializeCookie()
const V4Credentials =
  nextAuthV4Module<(options: Record<string, unknown>) => Record<string, unknown>>("providers/credentials")

type Handler = (request: Request) => Promise<Response>
type Lib = "v4" | "gatehouse"
const LIBS: readonly Lib[] = ["v4", "gatehouse"]

/** What each `authorize` was called with, per library. */
const authorizeCalls: Record<Lib, { credentials: Record<string, unknown>; req: Record<string, unknown> }[]> = {
  v4: [],
  gatehouse: [],
}

function authorizeFor(lib: Lib) {
  return async (credentials: Record<string, unknown>, req: Record<string, unknown>) => {
    authorizeCalls[lib].push({ credentials, req })
    if (credentials.password === "throw") throw new Error("Account locked: call support")
    return credentials.username === "alice" && credentials.password === "password" ? { ...alice } : null
  }
}

const credentialFields = { username: { label: "Username" }, password: { label: "Password", type: "password" } }

/** next-auth 4's AuthHandler behind a web handler, answering as next-auth/next's pages-router API route does. */
function v4App(extra: Record<string, unknown> = {}, basePath = "/api/auth"): Handler {
  const options = {
    secret: SECRET,
    logger: silent,
    providers: [V4Credentials({ credentials: credentialFields, authorize: authorizeFor("v4") })],
    ...extra,
  }
  return async (request) => {
    const url = new URL(request.url)
    const [action = "", providerId] = url.pathname.slice(basePath.length + 1).split("/")
    const query = Object.fromEntries(url.searchParams)
    let body: Record<string, unknown> | undefined
    if (request.method === "POST") {
      const text = await request.text()
      body = (request.headers.get("content-type") ?? "").includes("json")
        ? (JSON.parse(text) as Record<string, unknown>)
        : Object.fromEntries(new URLSearchParams(text))
    }
    const cookies: Record<string, string> = {}
    for (const pair of (request.headers.get("cookie") ?? "").split(/;\s*/)) {
      const eq = pair.indexOf("=")
      if (eq > 0) cookies[pair.slice(0, eq)] = decodeURIComponent(pair.slice(eq + 1))
    }
    const answer = await v4AuthHandler({
      req: {
        action,
        ...(providerId !== undefined ? { providerId } : {}),
        method: request.method,
        ...(body ? { body } : {}),
        query,
        cookies,
        headers: Object.fromEntries(request.headers),
        ...((query.error ?? providerId) ? { error: (query.error as string | undefined) ?? providerId } : {}),
      },
      options,
    })
    const headers = new Headers()
    for (const c of answer.cookies ?? []) headers.append("Set-Cookie", serialize(c.name, c.value, c.options))
    for (const h of answer.headers ?? []) headers.set(h.key, h.value)
    if (answer.redirect) {
      if (body?.json !== "true") {
        headers.set("Location", answer.redirect)
        return new Response(null, { status: 302, headers })
      }
      headers.set("Content-Type", "application/json")
      return new Response(JSON.stringify({ url: answer.redirect }), { status: answer.status ?? 200, headers })
    }
    const text =
      answer.body === undefined ? null : typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body)
    return new Response(text, { status: answer.status ?? 200, headers })
  }
}

/** Gatehouse with the next-auth 4 marker: no basePath, no trustHost, as a v4 app configures it. */
function gatehouseApp(extra: Partial<AuthConfig> = {}): Handler {
  const config = {
    secret: SECRET,
    logger: silent,
    providers: [Credentials({ credentials: credentialFields, authorize: authorizeFor("gatehouse") as never })],
    ...extra,
    [nextAuthV4]: nextAuthV4,
  } as AuthConfig
  return (request) => Auth(request, config)
}

function apps(extra: { v4?: Record<string, unknown>; gatehouse?: Partial<AuthConfig> } = {}): Record<Lib, Handler> {
  return { v4: v4App(extra.v4), gatehouse: gatehouseApp(extra.gatehouse) }
}

/** A cookie jar per library: a browser's view of one origin. */
class Jar {
  readonly cookies = new Map<string, string>()
  store(res: Response): Response {
    for (const line of res.headers.getSetCookie()) {
      const c = parseSetCookie(line)
      if (c.value === "" || c.attrs["max-age"] === "0") this.cookies.delete(c.name)
      else this.cookies.set(c.name, c.value)
    }
    return res
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("; ")
  }
}

function get(app: Handler, jar: Jar, path: string, headers: Record<string, string> = {}): Promise<Response> {
  const cookie = jar.header()
  return app(new Request(`${ORIGIN}${path}`, { headers: { ...(cookie ? { cookie } : {}), ...headers } })).then((r) =>
    jar.store(r),
  )
}

function post(app: Handler, jar: Jar, path: string, form: Record<string, string>): Promise<Response> {
  const cookie = jar.header()
  return app(
    new Request(`${ORIGIN}${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
      body: new URLSearchParams(form).toString(),
    }),
  ).then((r) => jar.store(r))
}

async function csrf(app: Handler, jar: Jar): Promise<string> {
  const res = await get(app, jar, "/api/auth/csrf")
  expect(res.status).toBe(200)
  return ((await res.json()) as { csrfToken: string }).csrfToken
}

async function signIn(
  app: Handler,
  jar: Jar,
  form: Record<string, string> = { username: "alice", password: "password" },
): Promise<Response> {
  const csrfToken = await csrf(app, jar)
  return post(app, jar, "/api/auth/callback/credentials", {
    ...form,
    csrfToken,
    callbackUrl: `${ORIGIN}/dashboard`,
  })
}

/** A Set-Cookie's attributes with Expires replaced by its distance from now in whole minutes (both sides differ by ms). */
function shape(c: ParsedCookie | undefined): Record<string, string | true> | undefined {
  if (!c) return undefined
  const attrs = { ...c.attrs }
  if (typeof attrs.expires === "string")
    attrs.expires = `${Math.round((Date.parse(attrs.expires) - Date.now()) / 60_000)}m`
  return attrs
}

function cookiesOf(res: Response): Map<string, ParsedCookie> {
  return new Map(res.headers.getSetCookie().map((line) => [parseSetCookie(line).name, parseSetCookie(line)]))
}

const noStore = (res: Response) => ({
  type: res.headers.get("content-type"),
  cache: res.headers.get("cache-control"),
  pragma: res.headers.get("pragma"),
  expires: res.headers.get("expires"),
})

let restoreEnv: () => void
beforeEach(() => {
  restoreEnv = isolateEnv()
  process.env.NEXTAUTH_URL = ORIGIN
  authorizeCalls.v4 = []
  authorizeCalls.gatehouse = []
})
afterEach(() => restoreEnv())

describe("next-auth 4 wire format: the same answers as next-auth 4.24.15", () => {
  it("GET /session signed out is 200 {} with no-store headers and no session cookie", async () => {
    const { v4, gatehouse } = apps()
    const [a, b] = await Promise.all([
      get(v4, new Jar(), "/api/auth/session"),
      get(gatehouse, new Jar(), "/api/auth/session"),
    ])
    expect([a.status, b.status]).toEqual([200, 200])
    expect(await b.json()).toStrictEqual(await a.json())
    expect(await get(gatehouse, new Jar(), "/api/auth/session").then((r) => r.text())).toBe("{}")
    expect(noStore(b)).toStrictEqual(noStore(a))
    // next-auth 4 mints a CSRF cookie and writes the callback-url cookie on any request as a side effect; Gatehouse
    // only where a form needs the one and a sign-in leaves the site for the other (docs/differences.md).
    expect([...cookiesOf(a).keys()].sort()).toEqual(["next-auth.callback-url", "next-auth.csrf-token"])
    expect([...cookiesOf(b).keys()]).toEqual([])
  })

  it("GET /csrf: same body shape, headers, cookie name and attributes; each side's CSRF cookie passes the other's check", async () => {
    const { v4, gatehouse } = apps()
    const [ja, jb] = [new Jar(), new Jar()]
    const [a, b] = await Promise.all([get(v4, ja, "/api/auth/csrf"), get(gatehouse, jb, "/api/auth/csrf")])
    const [ta, tb] = [(await a.json()) as { csrfToken: string }, (await b.json()) as { csrfToken: string }]
    expect(Object.keys(tb)).toEqual(Object.keys(ta))
    expect(tb.csrfToken).toMatch(/^[0-9a-f]{64}$/)
    expect(noStore(b)).toStrictEqual(noStore(a))
    const ca = cookiesOf(a).get("next-auth.csrf-token")
    const cb = cookiesOf(b).get("next-auth.csrf-token")
    expect(shape(cb)).toStrictEqual(shape(ca))
    expect(cb?.value).toMatch(/^[0-9a-f]{64}\|[0-9a-f]{64}$/)
    // Swap the jars: Gatehouse's CSRF cookie and token sign in at next-auth 4, and the other way round.
    for (const [app, jar, token] of [
      [v4, jb, tb.csrfToken],
      [gatehouse, ja, ta.csrfToken],
    ] as const) {
      const res = await post(app, jar, "/api/auth/callback/credentials", {
        username: "alice",
        password: "password",
        csrfToken: token,
        callbackUrl: `${ORIGIN}/dashboard`,
      })
      expect(res.status).toBe(302)
      expect(res.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    }
  })

  it("GET /providers lists the same providers with the same URLs", async () => {
    const { v4, gatehouse } = apps()
    const [a, b] = await Promise.all([
      get(v4, new Jar(), "/api/auth/providers"),
      get(gatehouse, new Jar(), "/api/auth/providers"),
    ])
    expect(b.status).toBe(a.status)
    expect(b.headers.get("content-type")).toBe(a.headers.get("content-type"))
    expect(await b.json()).toStrictEqual(await a.json())
  })

  it("a credentials sign-in: same redirect, session cookie name and attributes (Expires, no Max-Age), same session", async () => {
    const { v4, gatehouse } = apps()
    const [ja, jb] = [new Jar(), new Jar()]
    const [a, b] = [await signIn(v4, ja), await signIn(gatehouse, jb)]
    expect([a.status, b.status]).toEqual([302, 302])
    expect(b.headers.get("location")).toBe(a.headers.get("location"))
    const sa = cookiesOf(a).get("next-auth.session-token")
    const sb = cookiesOf(b).get("next-auth.session-token")
    expect(sa).toBeDefined()
    expect(shape(sb)).toStrictEqual(shape(sa))
    expect(sb?.attrs["max-age"]).toBeUndefined()
    expect(shape(sb)?.expires).toBe(`${MAX_AGE / 60}m`)
    const [ra, rb] = [await get(v4, ja, "/api/auth/session"), await get(gatehouse, jb, "/api/auth/session")]
    const [bodyA, bodyB] = [(await ra.json()) as Record<string, unknown>, (await rb.json()) as Record<string, unknown>]
    expect(bodyB.user).toStrictEqual(bodyA.user)
    expect(bodyA.user).toStrictEqual({ name: alice.name, email: alice.email, image: alice.image })
    expect(Object.keys(bodyB).sort()).toEqual(Object.keys(bodyA).sort())
  })

  it("session cookies are read both ways: next-auth 4's by Gatehouse (and decodeToken), Gatehouse's by next-auth 4 (and next-auth/jwt)", async () => {
    const { v4, gatehouse } = apps()
    const [ja, jb] = [new Jar(), new Jar()]
    await signIn(v4, ja)
    await signIn(gatehouse, jb)
    const v4Token = ja.cookies.get("next-auth.session-token") as string
    const ghToken = jb.cookies.get("next-auth.session-token") as string
    // Gatehouse reads next-auth 4's cookie; next-auth 4 reads Gatehouse's.
    const readByGatehouse = (await get(gatehouse, ja, "/api/auth/session").then((r) => r.json())) as { user?: unknown }
    const readByV4 = (await get(v4, jb, "/api/auth/session").then((r) => r.json())) as { user?: unknown }
    expect(readByGatehouse.user).toStrictEqual({ name: alice.name, email: alice.email, image: alice.image })
    expect(readByV4.user).toStrictEqual(readByGatehouse.user)
    // The token layer: the v4 key scheme opens next-auth 4's token; next-auth/jwt opens Gatehouse's, and getToken finds it.
    const decoded = await decodeToken({ token: v4Token, secret: SECRET, salt: "" }, "next-auth-v4")
    expect(decoded?.payload).toMatchObject({
      sub: alice.id,
      name: alice.name,
      email: alice.email,
      picture: alice.image,
    })
    expect(await v4Jwt.decode({ token: ghToken, secret: SECRET })).toMatchObject({ sub: alice.id, email: alice.email })
    const req = {
      headers: { cookie: `next-auth.session-token=${ghToken}` },
      cookies: { "next-auth.session-token": ghToken },
    }
    expect(await v4Jwt.getToken({ req, secret: SECRET })).toMatchObject({ sub: alice.id, name: alice.name })
    // Same token claims either side: {name, email, picture, sub} plus iat, exp, jti; Gatehouse adds its session id
    // (`sid`, docs/differences.md), which next-auth 4 passes through as any other claim.
    const ghClaims = (await v4Jwt.decode({ token: ghToken, secret: SECRET })) as Record<string, unknown>
    expect(Object.keys(ghClaims).sort()).toEqual([...Object.keys(decoded?.payload ?? {}), "sid"].sort())
    expect(ghClaims.sid).toMatch(/^[A-Za-z0-9_-]{22}$/)
  })

  it("a big token is chunked alike (.0, .1 of 3,933 characters) and each side joins the other's chunks", async () => {
    const big = (lib: Lib) => ({
      jwt: ({ token, user }: { token: Record<string, unknown>; user?: unknown }) =>
        user ? { ...token, big: "x".repeat(5000), lib } : token,
      session: ({ session, token }: { session: Record<string, unknown>; token: Record<string, unknown> }) => ({
        ...session,
        bigLen: typeof token.big === "string" ? token.big.length : null,
        lib: token.lib,
      }),
    })
    const v4 = v4App({ callbacks: big("v4") })
    const gatehouse = gatehouseApp({ callbacks: big("gatehouse") as never })
    const [ja, jb] = [new Jar(), new Jar()]
    const [a, b] = [await signIn(v4, ja), await signIn(gatehouse, jb)]
    const chunks = (res: Response) =>
      [...cookiesOf(res).values()].filter((c) => c.name.startsWith("next-auth.session-token"))
    expect(chunks(a).map((c) => c.name)).toEqual(["next-auth.session-token.0", "next-auth.session-token.1"])
    expect(chunks(b).map((c) => c.name)).toEqual(chunks(a).map((c) => c.name))
    expect(chunks(b)[0]?.value).toHaveLength(3933)
    expect(chunks(a)[0]?.value).toHaveLength(3933)
    expect(shape(chunks(b)[1])).toStrictEqual(shape(chunks(a)[1]))
    // Cross-read: the chunks next-auth 4 wrote open in Gatehouse and vice versa.
    const byGatehouse = (await get(gatehouse, ja, "/api/auth/session").then((r) => r.json())) as Record<string, unknown>
    const byV4 = (await get(v4, jb, "/api/auth/session").then((r) => r.json())) as Record<string, unknown>
    expect(byGatehouse).toMatchObject({ bigLen: 5000, lib: "v4", user: { name: alice.name } })
    expect(byV4).toMatchObject({ bigLen: 5000, lib: "gatehouse", user: { name: alice.name } })
  })

  it("json=true answers { url } with next-auth 4's statuses: 200 signed in, 401 wrong credentials (&provider=), 401 a thrown message", async () => {
    const { v4, gatehouse } = apps()
    // Wrong credentials: Gatehouse adds the callbackUrl sent, which next-auth 4 keeps in its cookie (docs/differences.md).
    const cases: [Record<string, string>, number, string, string][] = [
      [{ username: "alice", password: "password" }, 200, `${ORIGIN}/dashboard`, ""],
      [
        { username: "alice", password: "wrong" },
        401,
        `${BASE}/error?error=CredentialsSignin&provider=credentials`,
        `&callbackUrl=${encodeURIComponent(`${ORIGIN}/dashboard`)}`,
      ],
      [{ username: "alice", password: "throw" }, 401, `${BASE}/error?error=Account%20locked%3A%20call%20support`, ""],
    ]
    for (const [form, status, url, ours] of cases) {
      for (const app of [v4, gatehouse]) {
        const res = await signIn(app, new Jar(), { ...form, json: "true" })
        expect(res.status, `${JSON.stringify(form)}`).toBe(status)
        expect(res.headers.get("content-type")).toContain("application/json")
        expect(res.headers.get("location")).toBeNull()
        expect(await res.json()).toStrictEqual({ url: app === gatehouse ? url + ours : url })
      }
    }
  })

  it("without json, a failed sign-in is a 302 to the same error URL; /error sends sign-in codes on to /signin", async () => {
    const { v4, gatehouse } = apps()
    const sent = `&callbackUrl=${encodeURIComponent(`${ORIGIN}/dashboard`)}`
    for (const app of [v4, gatehouse]) {
      const res = await signIn(app, new Jar(), { username: "alice", password: "wrong" })
      expect(res.status).toBe(302)
      expect(res.headers.get("location")).toBe(
        `${BASE}/error?error=CredentialsSignin&provider=credentials${app === gatehouse ? sent : ""}`,
      )
      expect(cookiesOf(res).has("next-auth.session-token")).toBe(false)
    }
    for (const code of ["CredentialsSignin", "OAuthCallback", "SessionRequired"]) {
      const [a, b] = await Promise.all([
        get(v4, new Jar(), `/api/auth/error?error=${code}`),
        get(gatehouse, new Jar(), `/api/auth/error?error=${code}`),
      ])
      expect([a.status, b.status]).toEqual([302, 302])
      expect(b.headers.get("location")).toBe(a.headers.get("location"))
      expect(b.headers.get("location")).toBe(`${BASE}/signin?error=${code}`)
    }
    // Gatehouse's error route passes a same-origin callbackUrl on with the code; another origin's is dropped.
    const on = await get(gatehouse, new Jar(), `/api/auth/error?error=CredentialsSignin${sent}`)
    expect(on.headers.get("location")).toBe(`${BASE}/signin?error=CredentialsSignin${sent}`)
    const off = await get(
      gatehouse,
      new Jar(),
      `/api/auth/error?error=CredentialsSignin&callbackUrl=${encodeURIComponent("https://evil.example/x")}`,
    )
    expect(off.headers.get("location")).toBe(`${BASE}/signin?error=CredentialsSignin`)
    // Other codes go to pages.error when one is configured.
    const pages = { pages: { error: "/oops" } }
    const [a, b] = await Promise.all([
      get(v4App(pages), new Jar(), "/api/auth/error?error=AccessDenied"),
      get(gatehouseApp(pages), new Jar(), "/api/auth/error?error=AccessDenied"),
    ])
    expect(b.headers.get("location")).toBe(a.headers.get("location"))
    expect(b.headers.get("location")).toBe("/oops?error=AccessDenied")
  })

  it("authorize(credentials, req) gets the whole body and a { body, query, headers, method } request, as in next-auth 4", async () => {
    const { v4, gatehouse } = apps()
    await signIn(v4, new Jar(), { username: "alice", password: "password", json: "true", extra: "kept" })
    await signIn(gatehouse, new Jar(), { username: "alice", password: "password", json: "true", extra: "kept" })
    const [a, b] = [authorizeCalls.v4[0], authorizeCalls.gatehouse[0]]
    expect(a && b).toBeTruthy()
    // The CSRF tokens differ per side; every field is there.
    const withoutToken = (c: Record<string, unknown>) => ({ ...c, csrfToken: typeof c.csrfToken })
    expect(withoutToken(b!.credentials)).toStrictEqual(withoutToken(a!.credentials))
    expect(b!.credentials).toMatchObject({ extra: "kept", json: "true", callbackUrl: `${ORIGIN}/dashboard` })
    expect(Object.keys(b!.req).sort()).toEqual(Object.keys(a!.req).sort())
    expect(b!.req.method).toBe("POST")
    expect(withoutToken(b!.req.body as Record<string, unknown>)).toStrictEqual(
      withoutToken(a!.req.body as Record<string, unknown>),
    )
    expect((b!.req.headers as Record<string, string>)["content-type"]).toBe("application/x-www-form-urlencoded")
    expect(b!.req.query).toStrictEqual(a!.req.query)
  })

  it("a missing CSRF token: sign-in and sign-out go back with ?csrf=true, a session update is 400 {}", async () => {
    const { v4, gatehouse } = apps()
    for (const app of [v4, gatehouse]) {
      const jar = new Jar()
      await csrf(app, jar)
      const cb = await post(app, jar, "/api/auth/callback/credentials", { username: "alice", password: "password" })
      expect(cb.status).toBe(302)
      expect(cb.headers.get("location")).toBe(`${BASE}/signin?csrf=true`)
      const si = await post(app, jar, "/api/auth/signin/credentials", { csrfToken: "0".repeat(64) })
      expect(si.headers.get("location")).toBe(`${BASE}/signin?csrf=true`)
      const so = await post(app, jar, "/api/auth/signout", {})
      expect(so.status).toBe(302)
      expect(so.headers.get("location")).toBe(`${BASE}/signout?csrf=true`)
      const up = await post(app, jar, "/api/auth/session", { data: "{}" })
      expect(up.status).toBe(400)
      expect(await up.json()).toStrictEqual({})
    }
  })

  it("sign-out: same redirect, the session cookie expired with the same attributes, json=true gives { url }", async () => {
    const { v4, gatehouse } = apps()
    const outs: Response[] = []
    for (const app of [v4, gatehouse]) {
      const jar = new Jar()
      await signIn(app, jar)
      const csrfToken = await csrf(app, jar)
      outs.push(await post(app, jar, "/api/auth/signout", { csrfToken, callbackUrl: "/bye" }))
      expect(jar.cookies.has("next-auth.session-token")).toBe(false)
      await signIn(app, jar)
      const json = await post(app, jar, "/api/auth/signout", {
        csrfToken: await csrf(app, jar),
        callbackUrl: "/",
        json: "true",
      })
      expect(json.status).toBe(200)
      expect(await json.json()).toStrictEqual({ url: `${ORIGIN}/` })
    }
    const [a, b] = outs as [Response, Response]
    expect([a.status, b.status]).toEqual([302, 302])
    expect(b.headers.get("location")).toBe(a.headers.get("location"))
    expect(b.headers.get("location")).toBe(`${ORIGIN}/bye`)
    const [ca, cb] = [cookiesOf(a).get("next-auth.session-token"), cookiesOf(b).get("next-auth.session-token")]
    expect(cb?.value).toBe("")
    expect(shape(cb)).toStrictEqual(shape(ca))
  })

  it("the signIn callback: false is 403 AccessDenied for credentials, a thrown message is the code, as next-auth 4", async () => {
    const refuse = { callbacks: { signIn: () => false } }
    const thrower = {
      callbacks: {
        signIn: () => {
          throw new Error("Not on the list")
        },
      },
    }
    for (const [extra, status, url] of [
      [refuse, 403, `${BASE}/error?error=AccessDenied`],
      [thrower, 200, `${BASE}/error?error=Not%20on%20the%20list`],
    ] as const) {
      for (const app of [v4App(extra), gatehouseApp(extra as Partial<AuthConfig>)]) {
        const res = await signIn(app, new Jar(), { username: "alice", password: "password", json: "true" })
        expect(res.status).toBe(status)
        expect(await res.json()).toStrictEqual({ url })
        expect(cookiesOf(res).has("next-auth.session-token")).toBe(false)
      }
    }
  })

  it("the secret from NEXTAUTH_SECRET, or jwt.secret; jwt.encode/decode overrides get next-auth 4's parameters", async () => {
    process.env.NEXTAUTH_SECRET = SECRET
    const fromEnv = gatehouseApp({ secret: undefined })
    const fromJwt = gatehouseApp({ secret: undefined, jwt: { secret: SECRET } as never })
    for (const app of [fromEnv, fromJwt]) {
      const jar = new Jar()
      expect((await signIn(app, jar)).status).toBe(302)
      const token = jar.cookies.get("next-auth.session-token") as string
      expect(await v4Jwt.decode({ token, secret: SECRET })).toMatchObject({ sub: alice.id })
      delete process.env.NEXTAUTH_SECRET
    }
    // With neither, the config is refused (a 500 on every route but the pages).
    expect((await get(gatehouseApp({ secret: undefined }), new Jar(), "/api/auth/session")).status).toBe(500)
    // Overrides: next-auth 4 calls them with { token, secret, maxAge } (its own spread adds the encode/decode
    // functions themselves, of no use to them); no salt.
    const seen: Record<string, string[]> = {}
    const jwt = {
      encode: async (params: Record<string, unknown>) => {
        seen.encode = Object.keys(params).sort()
        expect(params.secret).toBe(SECRET)
        return v4Jwt.encode(params as never)
      },
      decode: async (params: Record<string, unknown>) => {
        seen.decode = Object.keys(params).sort()
        return v4Jwt.decode(params as never)
      },
    }
    const jar = new Jar()
    const app = gatehouseApp({ jwt: jwt as never })
    await signIn(app, jar)
    const read = (await get(app, jar, "/api/auth/session").then((r) => r.json())) as { user?: { name?: string } }
    expect(read.user?.name).toBe(alice.name)
    expect(seen).toStrictEqual({ encode: ["maxAge", "secret", "token"], decode: ["maxAge", "secret", "token"] })
  })

  it("POST /_log answers 200 with no body", async () => {
    const { v4, gatehouse } = apps()
    for (const app of [v4, gatehouse]) {
      const res = await post(app, new Jar(), "/api/auth/_log", {
        level: "error",
        code: "CLIENT_FETCH_ERROR",
        message: "x",
      })
      expect(res.status).toBe(200)
      expect(await res.text()).toBe("")
    }
  })

  it("on https (NEXTAUTH_URL) both use __Secure-/__Host- names with the same attributes", async () => {
    process.env.NEXTAUTH_URL = "https://localhost:3000"
    const { v4, gatehouse } = apps()
    const signed: Response[] = []
    for (const app of [v4, gatehouse]) {
      const jar = new Jar()
      const token = await get(app, jar, "/api/auth/csrf").then((r) => r.json() as Promise<{ csrfToken: string }>)
      expect([...jar.cookies.keys()]).toContain("__Host-next-auth.csrf-token")
      signed.push(
        await post(app, jar, "/api/auth/callback/credentials", {
          username: "alice",
          password: "password",
          csrfToken: token.csrfToken,
          callbackUrl: "/dashboard",
        }),
      )
    }
    const [a, b] = signed as [Response, Response]
    expect(b.headers.get("location")).toBe(a.headers.get("location"))
    expect(b.headers.get("location")).toBe("https://localhost:3000/dashboard")
    const name = "__Secure-next-auth.session-token"
    expect(cookiesOf(a).has(name)).toBe(true)
    expect(shape(cookiesOf(b).get(name))).toStrictEqual(shape(cookiesOf(a).get(name)))
  })

  it("the origin: NEXTAUTH_URL (a bare host gets https://), else the forwarded host when trusted, else localhost:3000", async () => {
    const signinUrl = async (
      app: Handler,
      headers: Record<string, string> = {},
      origin = "http://app.internal:8080",
    ) => {
      // The request URL's host stands for the Host header (a Next.js request's URL carries it).
      const res = await app(
        new Request(`${origin}/api/auth/providers`, { headers: { host: new URL(origin).host, ...headers } }),
      )
      return ((await res.json()) as { credentials: { signinUrl: string } }).credentials.signinUrl
    }
    // No NEXTAUTH_URL, no trusted host: next-auth 4's default origin, whatever the request's host.
    delete process.env.NEXTAUTH_URL
    let { v4, gatehouse } = apps()
    expect(await signinUrl(gatehouse)).toBe(await signinUrl(v4))
    expect(await signinUrl(gatehouse)).toBe(`${BASE}/signin/credentials`)
    // AUTH_TRUST_HOST: the forwarded host; https unless the proxy says http.
    process.env.AUTH_TRUST_HOST = "true"
    ;({ v4, gatehouse } = apps())
    const forwarded: Record<string, string>[] = [
      { "x-forwarded-host": "app.example" },
      { "x-forwarded-host": "app.example", "x-forwarded-proto": "http" },
      { "x-forwarded-proto": "https" },
      {},
    ]
    for (const headers of forwarded) {
      expect(await signinUrl(gatehouse, headers), JSON.stringify(headers)).toBe(await signinUrl(v4, headers))
    }
    expect(await signinUrl(gatehouse, {}, "http://app.example")).toBe(await signinUrl(v4, {}, "http://app.example"))
    expect(await signinUrl(gatehouse, {}, "http://app.example")).toBe("https://app.example/api/auth/signin/credentials")
    expect(await signinUrl(gatehouse, { "x-forwarded-host": "app.example" })).toBe(
      "https://app.example/api/auth/signin/credentials",
    )
    // NEXTAUTH_URL without a scheme, with a path: https:// added, the path is the basePath.
    delete process.env.AUTH_TRUST_HOST
    process.env.NEXTAUTH_URL = "app.example/custom/auth"
    const v4Custom = v4App({}, "/custom/auth")
    const ghCustom = gatehouseApp()
    const at = async (app: Handler) => {
      const res = await app(new Request("http://app.internal/custom/auth/providers"))
      return ((await res.json()) as { credentials: { signinUrl: string } }).credentials.signinUrl
    }
    expect(await at(ghCustom)).toBe(await at(v4Custom))
    expect(await at(ghCustom)).toBe("https://app.example/custom/auth/signin/credentials")
  })
})

describe("next-auth 4 wire format: an OIDC sign-in at a local OP", () => {
  let op: OidcOp
  beforeAll(async () => {
    op = await startOidcProvider({ rpOrigin: ORIGIN, basePath: "/api/auth", providerIds: ["op"] })
  })
  afterAll(async () => {
    await op?.stop()
  })

  it("writes the state, PKCE and nonce cookies under v4's names and ends in a session next-auth 4 reads", async () => {
    const client = op.clients.basic
    const provider: OAuthConfigBase = {
      id: "op",
      name: "Test OP",
      type: "oidc",
      issuer: op.issuer,
      clientId: client.client_id,
      clientSecret: client.client_secret as string,
      client: { token_endpoint_auth_method: client.token_endpoint_auth_method },
      authorization: { params: { scope: "openid email profile" } },
      checks: ["pkce", "state", "nonce"],
    }
    const config = { secret: SECRET, logger: silent, providers: [provider], [nextAuthV4]: nextAuthV4 } as AuthConfig
    const olivia = OP_USERS[0]!
    const browser = new Browser({
      apps: {
        [ORIGIN]: (req) =>
          new URL(req.url).pathname.startsWith("/api/auth")
            ? Auth(req, config)
            : new Response("app page", { headers: { "content-type": "text/plain" } }),
      },
      user: { login: olivia.email, password: olivia.password },
    })
    const { csrfToken } = (await (await browser.request(`${BASE}/csrf`)).json()) as { csrfToken: string }
    const start = await browser.request(
      new Request(`${BASE}/signin/op`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken, callbackUrl: `${ORIGIN}/dashboard` }).toString(),
      }),
    )
    expect(start.status).toBe(302)
    const names = start.headers.getSetCookie().map((line) => parseSetCookie(line).name)
    expect(names.sort()).toEqual(
      ["next-auth.callback-url", "next-auth.nonce", "next-auth.pkce.code_verifier", "next-auth.state"].sort(),
    )
    const done = await browser.follow(start.headers.get("location") as string, { initiator: ORIGIN })
    expect(done.url, done.steps.map(formatStep).join("\n")).toBe(`${ORIGIN}/dashboard`)
    // The check cookies are spent; the session cookie is next-auth 4's, which its own /session and jwt read.
    for (const name of ["next-auth.state", "next-auth.pkce.code_verifier", "next-auth.nonce"])
      expect(browser.cookies.get("localhost", name)).toBeUndefined()
    const session = browser.cookies.get("localhost", "next-auth.session-token")
    expect(session).toBeDefined()
    const token = decodeURIComponent(session!.value)
    // next-auth 4 keeps the provider's id as the user's (the token's sub) without an adapter; so does the v4 format.
    expect(await v4Jwt.decode({ token, secret: SECRET })).toMatchObject({
      email: olivia.email,
      name: olivia.name,
      sub: olivia.sub,
    })
    const jar = new Jar()
    jar.cookies.set("next-auth.session-token", token)
    const read = (await get(v4App(), jar, "/api/auth/session").then((r) => r.json())) as { user?: unknown }
    expect(read.user).toStrictEqual({ name: olivia.name, email: olivia.email, image: olivia.picture })
  })
})
