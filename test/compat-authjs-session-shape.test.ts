// The session's shape against @auth/core 0.41.3 as the oracle: the same sign-in (credentials, and OAuth with a sparse
// profile from a real OAuth 2 server on 127.0.0.1) runs through both libraries, and the `/session` body and the decoded
// session JWT claims are compared. Deliberate differences (docs/differences.md, "Sessions") are pinned as such.
import { createServer } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Auth as AuthJs } from "@auth/core"
import AuthJsCredentials from "@auth/core/providers/credentials"
import * as authjsJwt from "@auth/core/jwt"
import { Auth } from "../src/index.js"
import Credentials from "../src/providers/credentials.js"
import { CookieJar, ORIGIN, SECRET, get, postForm } from "./support/flow-kit.js"
import { listenLocal, type Listening } from "./support/listen.js"

type Handler = (request: Request) => Promise<Response>
const SALT = "authjs.session-token"
const quiet = { error() {}, warn() {}, debug() {} }
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/

// A plain OAuth 2 server: the token endpoint answers a bearer token, userinfo answers whatever `profile` holds now.
let server: Listening
let profile: Record<string, unknown> = {}
beforeAll(async () => {
  server = await listenLocal(
    createServer((req, res) => {
      res.setHeader("content-type", "application/json")
      const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname
      if (req.method === "POST" && path === "/token")
        return res.end(JSON.stringify({ access_token: "at-1", token_type: "bearer", expires_in: 3600 }))
      if (req.method === "GET" && path === "/userinfo" && req.headers.authorization === "Bearer at-1")
        return res.end(JSON.stringify(profile))
      res.statusCode = 404
      res.end("{}")
    }),
  )
})
afterAll(() => server.stop())

/** The same custom OAuth provider for both libraries (a fresh object each, as each library normalises its own). */
function oauthProvider(extra: Record<string, unknown> = {}) {
  return {
    id: "plain",
    name: "Plain",
    type: "oauth" as const,
    clientId: "client",
    clientSecret: "secret",
    checks: ["state" as const],
    authorization: `${server.origin}/authorize`,
    token: `${server.origin}/token`,
    userinfo: `${server.origin}/userinfo`,
    ...extra,
  }
}

function both(providers: () => unknown[]): { authjs: Handler; gatehouse: Handler } {
  const common = { secret: SECRET, trustHost: true, basePath: "/auth", logger: quiet }
  const authjsConfig = { ...common, providers: providers() } as unknown as Parameters<typeof AuthJs>[1]
  const gatehouseConfig = { ...common, providers: providers() } as unknown as Parameters<typeof Auth>[1]
  return { authjs: (r) => AuthJs(r, authjsConfig), gatehouse: (r) => Auth(r, gatehouseConfig) }
}

async function csrf(h: Handler, jar: CookieJar): Promise<string> {
  const res = await h(get("/auth/csrf", { cookie: jar.header() }))
  jar.store(res)
  return ((await res.json()) as { csrfToken: string }).csrfToken
}

/** The /session body and the session JWT's claims after a sign-in through `h`. */
async function afterSignIn(
  h: Handler,
  jar: CookieJar,
): Promise<{ session: Record<string, unknown>; claims: Record<string, unknown> }> {
  const token = jar.cookies.get(SALT)
  expect(token, "a session cookie").toBeDefined()
  const claims = (await authjsJwt.decode({ token: decodeURIComponent(token!), secret: SECRET, salt: SALT })) as Record<
    string,
    unknown
  >
  const res = await h(get("/auth/session", { cookie: jar.header() }))
  return { session: (await res.json()) as Record<string, unknown>, claims }
}

async function credentialsSignIn(h: Handler) {
  const jar = new CookieJar()
  const csrfToken = await csrf(h, jar)
  const res = await h(postForm("/auth/callback/credentials", { csrfToken, username: "u" }, { cookie: jar.header() }))
  expect(res.status).toBe(302)
  jar.store(res)
  return afterSignIn(h, jar)
}

async function oauthSignIn(h: Handler) {
  const jar = new CookieJar()
  const csrfToken = await csrf(h, jar)
  const start = await h(postForm("/auth/signin/plain", { csrfToken }, { cookie: jar.header() }))
  jar.store(start)
  const state = new URL(start.headers.get("location")!).searchParams.get("state")
  const res = await h(get(`/auth/callback/plain?code=c1&state=${state}`, { cookie: jar.header() }))
  expect(res.headers.get("location")).toBe(ORIGIN)
  jar.store(res)
  return afterSignIn(h, jar)
}

/**
 * The claims each library sets itself (iat, exp, jti, and the random user id in sub) differ per run; Gatehouse's token
 * also carries its random session id, `sid` (docs/differences.md), which Auth.js's has not.
 */
function stable(claims: Record<string, unknown>): Record<string, unknown> {
  const { iat, exp, jti, sub, sid, ...rest } = claims
  expect([typeof iat, typeof exp, typeof jti, typeof sub]).toEqual(["number", "number", "string", "string"])
  if (sid !== undefined) expect(sid).toMatch(/^[A-Za-z0-9_-]{22}$/)
  return rest
}

function withoutExpires(session: Record<string, unknown>): Record<string, unknown> {
  expect(session.expires).toMatch(ISO_MS)
  const { expires: _, ...rest } = session
  return rest
}

describe("session shape matches @auth/core", () => {
  it("credentials: authorize returning { id } only gives {user:{}} and a token of sub, iat, exp, jti (and sid)", async () => {
    const authorize = async () => ({ id: "1" })
    const a = both(() => [AuthJsCredentials({ credentials: { username: {} }, authorize })])
    const g = both(() => [Credentials({ credentials: { username: {} }, authorize })])
    const ours = await credentialsSignIn(g.gatehouse)
    const theirs = await credentialsSignIn(a.authjs)
    expect(withoutExpires(ours.session)).toEqual({ user: {} })
    expect(withoutExpires(ours.session)).toEqual(withoutExpires(theirs.session))
    expect(Object.keys(ours.claims).sort()).toEqual(["exp", "iat", "jti", "sid", "sub"])
    expect(Object.keys(theirs.claims).sort()).toEqual(["exp", "iat", "jti", "sub"])
    expect(stable(ours.claims)).toEqual(stable(theirs.claims))
  })

  it("OAuth: a profile with no name, e-mail or picture gives {user:{}} and no null claims, as in Auth.js", async () => {
    profile = { id: "42" }
    const { authjs, gatehouse } = both(() => [oauthProvider()])
    const ours = await oauthSignIn(gatehouse)
    const theirs = await oauthSignIn(authjs)
    expect(withoutExpires(theirs.session)).toEqual({ user: {} })
    expect(withoutExpires(ours.session)).toEqual({ user: {} })
    expect(stable(ours.claims)).toEqual({})
    expect(stable(theirs.claims)).toEqual({})
  })

  it("OAuth: a full profile gives the same user (e-mail lower-cased, nickname as the name fallback) on both", async () => {
    profile = { sub: "42", nickname: "pat", email: "Pat@Example.COM", picture: "https://img.example/pat.png" }
    const { authjs, gatehouse } = both(() => [oauthProvider()])
    const ours = await oauthSignIn(gatehouse)
    const theirs = await oauthSignIn(authjs)
    expect(withoutExpires(ours.session)).toEqual({
      user: { name: "pat", email: "pat@example.com", image: "https://img.example/pat.png" },
    })
    expect(withoutExpires(ours.session)).toEqual(withoutExpires(theirs.session))
    expect(stable(ours.claims)).toEqual(stable(theirs.claims))
  })

  it("OAuth: a null e-mail from profile() is left out, as in Auth.js", async () => {
    profile = { id: "42" }
    const mapped = () => ({ id: "42", name: "Pat", email: null })
    const { authjs, gatehouse } = both(() => [oauthProvider({ profile: mapped })])
    const ours = await oauthSignIn(gatehouse)
    const theirs = await oauthSignIn(authjs)
    expect(withoutExpires(ours.session)).toEqual({ user: { name: "Pat" } })
    expect(withoutExpires(ours.session)).toEqual(withoutExpires(theirs.session))
    expect(stable(ours.claims)).toEqual(stable(theirs.claims))
  })

  it("OAuth (documented difference): a null name or picture is left out too, where Auth.js keeps the null", async () => {
    profile = { id: "42" }
    const mapped = () => ({ id: "42", name: null, email: "pat@example.com", image: null })
    const { authjs, gatehouse } = both(() => [oauthProvider({ profile: mapped })])
    const ours = await oauthSignIn(gatehouse)
    const theirs = await oauthSignIn(authjs)
    expect(withoutExpires(theirs.session)).toEqual({ user: { name: null, email: "pat@example.com", image: null } })
    expect(withoutExpires(ours.session)).toEqual({ user: { email: "pat@example.com" } })
    expect(stable(ours.claims)).toEqual({ email: "pat@example.com" })
  })

  it("a session token issued with null claims (before this change, or by Auth.js) still reads, as Auth.js reads it", async () => {
    const token = await authjsJwt.encode({
      token: { name: null, email: null, picture: null, sub: "1" },
      secret: SECRET,
      salt: SALT,
    })
    const cookie = `${SALT}=${token}`
    const { authjs, gatehouse } = both(() => [oauthProvider()])
    const ours = (await (await gatehouse(get("/auth/session", { cookie }))).json()) as Record<string, unknown>
    const theirs = (await (await authjs(get("/auth/session", { cookie }))).json()) as Record<string, unknown>
    expect(withoutExpires(ours)).toEqual({ user: { name: null, email: null, image: null } })
    expect(withoutExpires(ours)).toEqual(withoutExpires(theirs))
  })

  it("expires (documented difference): the token's own expiry, in whole seconds, within a second of Auth.js's", async () => {
    const authorize = async () => ({ id: "1" })
    const a = both(() => [AuthJsCredentials({ credentials: { username: {} }, authorize })])
    const g = both(() => [Credentials({ credentials: { username: {} }, authorize })])
    const ours = await credentialsSignIn(g.gatehouse)
    const theirs = await credentialsSignIn(a.authjs)
    expect(ours.session.expires).toMatch(/\.000Z$/)
    expect(ours.session.expires).toBe(new Date((ours.claims.exp as number) * 1000).toISOString())
    expect(
      Math.abs(Date.parse(ours.session.expires as string) - Date.parse(theirs.session.expires as string)),
    ).toBeLessThan(2000)
  })
})
