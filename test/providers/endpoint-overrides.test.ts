// A string endpoint override replaces only the URL (docs/differences.md, "OAuth 2 / OpenID Connect"): for every
// built-in OAuth provider (GitHub, Google, Twitter with OAuth 1.0a and 2.0, VK, TikTok) and each of `authorization`,
// `token` and `userinfo`, a sign-in with `Provider({ <endpoint>: "http://127.0.0.1:<port>/override/<endpoint>" })` must
// send that endpoint the same request as the provider's default URL receives: method, query and body parameters (the
// provider's params such as TikTok's client_key or VK's v), content type, client authentication (Basic,
// client_secret_post, OAuth 1.0a signature valid for the new URL) and the headers of the provider's request hooks.
//
// One local server on 127.0.0.1 plays every provider: the default run reaches it through a customFetch that routes the
// providers' real hosts to it (and the test's browser visits the localized authorize page); the override run sends
// one endpoint to /override/<endpoint> on the same server. Both runs must sign in, and the request recorded for the
// endpoint under test is compared after masking the per-run random values (state, PKCE, nonces, OAuth 1 timestamps
// and signatures).
import { createSign, generateKeyPairSync, randomUUID } from "node:crypto"
import type { ServerResponse } from "node:http"
import { afterEach, describe, expect, it, vi } from "vitest"
import { Auth, customFetch } from "../../src/index.js"
import type { AuthConfig } from "../../src/index.js"
import GitHub from "../../src/providers/github.js"
import Google from "../../src/providers/google.js"
import TikTok from "../../src/providers/tiktok.js"
import Twitter from "../../src/providers/twitter.js"
import VK from "../../src/providers/vk.js"
import { clearDiscoveryCache } from "../../src/protocols/oauth2.js"
import { clearJwksCache } from "../../src/protocols/jws.js"
import { ORIGIN, get } from "../support/flow-kit.js"
import { verifyOAuth1 } from "../support/fake-twitter.js"
import {
  type LocalServer,
  type Recorded,
  callback,
  expectSignedIn,
  localize,
  routingFetch,
  sendJson,
  sendRedirect,
  sendText,
  setup,
  startLocalServer,
  startSignIn,
  useFakeProvider,
  visitProvider,
} from "../support/provider-kit.js"

type Endpoint = "authorization" | "token" | "userinfo"
type Role = Endpoint | "emails" | "discovery" | "jwks" | "request_token"
type Provider = AuthConfig["providers"][number]

const CLIENT_ID = "override-client-id"
const CLIENT_SECRET = "override-client-secret-value"
const ACCESS_TOKEN = "override-access-token"
const CODE = "override-code"
// OAuth 1.0a: the temporary credentials, the verifier and the token credentials the fake issues.
const REQUEST_TOKEN = "override-request-token"
const REQUEST_TOKEN_SECRET = "override-request-token-secret"
const VERIFIER = "override-verifier"
const TOKEN_SECRET = "override-token-secret"

const TIKTOK_LOG_ID = "20240101000000ABCDEF"

const GOOGLE_ISSUER = "https://accounts.google.com"
const REAL_ORIGINS = [
  "https://github.com",
  "https://api.github.com",
  GOOGLE_ISSUER,
  "https://oauth2.googleapis.com",
  "https://openidconnect.googleapis.com",
  "https://www.googleapis.com",
  "https://x.com",
  "https://api.x.com",
  "https://oauth.vk.com",
  "https://api.vk.com",
  "https://www.tiktok.com",
  "https://open.tiktokapis.com",
] as const

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
const KID = "override-test-key"

function googleIdToken(): string {
  const now = Math.floor(Date.now() / 1000)
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")
  const input = `${b64({ alg: "RS256", kid: KID, typ: "JWT" })}.${b64({
    iss: GOOGLE_ISSUER,
    aud: CLIENT_ID,
    sub: "google-user-1",
    iat: now,
    exp: now + 3600,
    email: "g@example.com",
    email_verified: true,
    name: "G",
  })}`
  return `${input}.${createSign("RSA-SHA256").update(input).sign(privateKey).toString("base64url")}`
}

/** One built-in provider: how to build it, the paths of its real endpoints, and what its endpoints answer. */
interface ProviderCase {
  name: string
  id: string
  make: (options: Record<string, unknown>) => Provider
  /** Extra options for the runs of one endpoint (Google's userinfo is only called with `idToken: false`). */
  extraFor?: Partial<Record<Endpoint, Record<string, unknown>>>
  /** The real endpoints' paths (their hosts are routed to the fake). */
  paths: Partial<Record<Role, string>>
  oauth1?: boolean
  answer: Partial<Record<Role, (res: ServerResponse, r: Recorded) => void>>
}

const bearerToken = (res: ServerResponse, r: Recorded, extra: Record<string, unknown> = {}) =>
  sendJson(res, r, 200, { access_token: ACCESS_TOKEN, token_type: "bearer", expires_in: 3600, ...extra })

const CASES: ProviderCase[] = [
  {
    name: "GitHub",
    id: "github",
    make: (o) => GitHub(o),
    paths: { authorization: "/login/oauth/authorize", token: "/login/oauth/access_token", userinfo: "/user" },
    answer: {
      token: (res, r) => bearerToken(res, r, { scope: "read:user,user:email" }),
      userinfo: (res, r) =>
        sendJson(res, r, 200, {
          id: 1,
          login: "octo",
          name: "Octo",
          email: null,
          avatar_url: "https://a.example/o.png",
        }),
      emails: (res, r) =>
        sendJson(res, r, 200, [{ email: "octo@example.com", primary: true, verified: true, visibility: null }]),
    },
  },
  {
    name: "Google",
    id: "google",
    make: (o) => Google(o),
    extraFor: { userinfo: { idToken: false } },
    paths: {
      discovery: "/.well-known/openid-configuration",
      authorization: "/o/oauth2/v2/auth",
      token: "/token",
      userinfo: "/v1/userinfo",
      jwks: "/oauth2/v3/certs",
    },
    answer: {
      discovery: (res, r) =>
        sendJson(res, r, 200, {
          issuer: GOOGLE_ISSUER,
          authorization_endpoint: `${GOOGLE_ISSUER}/o/oauth2/v2/auth`,
          token_endpoint: "https://oauth2.googleapis.com/token",
          userinfo_endpoint: "https://openidconnect.googleapis.com/v1/userinfo",
          jwks_uri: "https://www.googleapis.com/oauth2/v3/certs",
          code_challenge_methods_supported: ["S256"],
          id_token_signing_alg_values_supported: ["RS256"],
        }),
      jwks: (res, r) =>
        sendJson(res, r, 200, {
          keys: [{ ...publicKey.export({ format: "jwk" }), kid: KID, alg: "RS256", use: "sig" }],
        }),
      token: (res, r) => bearerToken(res, r, { id_token: googleIdToken(), scope: "openid email profile" }),
      userinfo: (res, r) =>
        sendJson(res, r, 200, { sub: "google-user-1", email: "g@example.com", email_verified: true, name: "G" }),
    },
  },
  {
    name: "Twitter (OAuth 2.0)",
    id: "twitter",
    make: (o) => Twitter({ ...o, version: "2.0" }),
    paths: { authorization: "/i/oauth2/authorize", token: "/2/oauth2/token", userinfo: "/2/users/me" },
    answer: {
      token: (res, r) => bearerToken(res, r, { scope: "users.read tweet.read offline.access" }),
      userinfo: (res, r) =>
        sendJson(res, r, 200, {
          data: {
            id: "2244994945",
            name: "X Dev",
            username: "xdev",
            profile_image_url: "https://pbs.example/p_normal.jpg",
          },
        }),
    },
  },
  {
    name: "Twitter (OAuth 1.0a)",
    id: "twitter",
    oauth1: true,
    make: (o) => Twitter(o),
    paths: {
      request_token: "/oauth/request_token",
      authorization: "/oauth/authenticate",
      token: "/oauth/access_token",
      userinfo: "/1.1/account/verify_credentials.json",
    },
    answer: {
      request_token: (res, r) =>
        sendText(
          res,
          r,
          200,
          `oauth_token=${REQUEST_TOKEN}&oauth_token_secret=${REQUEST_TOKEN_SECRET}&oauth_callback_confirmed=true`,
          "application/x-www-form-urlencoded",
        ),
      token: (res, r) =>
        sendText(
          res,
          r,
          200,
          `oauth_token=${ACCESS_TOKEN}&oauth_token_secret=${TOKEN_SECRET}&user_id=6253282&screen_name=xapi`,
          "application/x-www-form-urlencoded",
        ),
      userinfo: (res, r) =>
        sendJson(res, r, 200, {
          id: 6253282,
          id_str: "6253282",
          name: "X API",
          screen_name: "xapi",
          email: "api@x.example",
        }),
    },
  },
  {
    name: "VK",
    id: "vk",
    make: (o) => VK(o),
    paths: { authorization: "/authorize", token: "/access_token", userinfo: "/method/users.get" },
    answer: {
      // VK's token answer has no token_type and carries the e-mail (the provider's conform hook fixes the first).
      token: (res, r) =>
        sendJson(res, r, 200, { access_token: ACCESS_TOKEN, expires_in: 86400, user_id: 1, email: "vk@example.com" }),
      userinfo: (res, r) =>
        sendJson(res, r, 200, {
          response: [{ id: 1, first_name: "Pavel", last_name: "D", photo_100: "https://vk.example/p.jpg" }],
        }),
    },
  },
  {
    name: "TikTok",
    id: "tiktok",
    make: (o) => TikTok(o),
    paths: { authorization: "/v2/auth/authorize", token: "/v2/oauth/token/", userinfo: "/v2/user/info/" },
    answer: {
      token: (res, r) => {
        // TikTok answers errors with HTTP 200 and `{ error, error_description, log_id }`.
        if (fake.tokenError)
          return sendJson(res, r, 200, {
            error: fake.tokenError,
            error_description: "The refresh token is invalid.",
            log_id: TIKTOK_LOG_ID,
          })
        bearerToken(res, r, { open_id: "tt-open-id", refresh_token: `rft.${randomUUID()}`, scope: "user.info.profile" })
      },
      userinfo: (res, r) =>
        sendJson(res, r, 200, {
          data: {
            user: {
              open_id: "tt-open-id",
              display_name: "Clip",
              username: "clip",
              avatar_url: "https://tt.example/a.jpg",
            },
          },
          error: { code: "ok", message: "", log_id: "202401010000" },
        }),
    },
  },
]

interface FakeProvider extends LocalServer {
  /** The provider the server plays in the current run, and the path each of its endpoints has in that run. */
  current: { case: ProviderCase; paths: Partial<Record<Role, string>> } | undefined
  /** The callback URL the OAuth 1.0a request-token step named (where the authorize page sends the browser back). */
  oauthCallback: string | undefined
  /** TikTok's token endpoint answers this error (HTTP 200) instead of tokens. */
  tokenError: string | undefined
  reset(): void
}

async function startFakeProvider(): Promise<FakeProvider> {
  const fake = {} as FakeProvider
  const roleOf = (path: string): Role | undefined => {
    const paths = fake.current?.paths ?? {}
    for (const [role, p] of Object.entries(paths)) if (p === path) return role as Role
    // GitHub's userinfo hook reads `<userinfo URL>/emails`.
    if (paths.userinfo && path === `${paths.userinfo}/emails`) return "emails"
    return undefined
  }
  const server = await startLocalServer((_req, res, r) => {
    const role = roleOf(r.path)
    const current = fake.current
    if (!role || !current) return
    ;(r as Recorded & { role?: Role }).role = role
    if (role === "authorization") {
      if (current.case.oauth1) {
        const back = new URL(fake.oauthCallback ?? `${ORIGIN}/auth/callback/${current.case.id}`)
        back.searchParams.set("oauth_token", r.query.get("oauth_token") ?? "")
        back.searchParams.set("oauth_verifier", VERIFIER)
        return sendRedirect(res, r, back.href)
      }
      const back = new URL(r.query.get("redirect_uri") ?? `${ORIGIN}/auth/callback/${current.case.id}`)
      back.searchParams.set("code", CODE)
      const state = r.query.get("state")
      if (state !== null) back.searchParams.set("state", state)
      return sendRedirect(res, r, back.href)
    }
    if (role === "request_token") {
      const header = r.headers.authorization ?? ""
      const callback = /oauth_callback="([^"]*)"/.exec(header)?.[1]
      fake.oauthCallback = callback === undefined ? undefined : decodeURIComponent(callback)
    }
    current.case.answer[role]?.(res, r)
  })
  Object.assign(fake, server, {
    current: undefined,
    oauthCallback: undefined,
    tokenError: undefined,
    reset() {
      fake.current = undefined
      fake.oauthCallback = undefined
      fake.tokenError = undefined
      fake.requests.length = 0
    },
  })
  return fake
}

let fake: FakeProvider
useFakeProvider(startFakeProvider, (server) => {
  fake = server
})

// ---------------------------------------------------------------------------------------------
// The request shape

/** Values that differ on every run (random or time-based): compared as present, not by value. */
const PER_RUN = new Set([
  "state",
  "code_challenge",
  "code_verifier",
  "nonce",
  "oauth_nonce",
  "oauth_timestamp",
  "oauth_signature",
])

function masked(entries: Iterable<[string, string]>): [string, string][] {
  return [...entries]
    .map(([k, v]): [string, string] => [k, PER_RUN.has(k) ? "<per-run>" : v])
    .sort((a, b) => (a[0] + a[1] < b[0] + b[1] ? -1 : 1))
}

/** The URL the client used: the original URL when the routing customFetch carried the request, else the local one. */
function signedUrl(r: Recorded): URL {
  if (r.originalUrl) return new URL(r.originalUrl)
  const query = r.query.toString()
  return new URL(`${fake.url}${r.path}${query ? `?${query}` : ""}`)
}

function authorizationShape(r: Recorded): unknown {
  const header = r.headers.authorization
  if (header === undefined) return undefined
  const basic = /^Basic (.+)$/.exec(header)
  if (basic) return `Basic ${Buffer.from(basic[1]!, "base64").toString("utf8")}`
  if (/^OAuth /.test(header)) {
    const params = [...header.slice(6).matchAll(/([^=\s,]+)="([^"]*)"/g)].map((m): [string, string] => [
      m[1]!,
      decodeURIComponent(m[2]!),
    ])
    return { oauth: masked(params) }
  }
  return header
}

/** What a provider endpoint sees of one request, with the per-run values masked. */
function shapeOf(r: Recorded): Record<string, unknown> {
  const contentType = (r.headers["content-type"] ?? "").split(";")[0]!.trim() || undefined
  return {
    method: r.method,
    query: masked(r.query),
    contentType,
    body: contentType === "application/x-www-form-urlencoded" ? masked(new URLSearchParams(r.body)) : r.body,
    authorization: authorizationShape(r),
    accept: r.headers.accept,
    userAgent: r.headers["user-agent"],
  }
}

/** OAuth 1.0a: the signature must be valid for the URL the request was sent to (consumer and token secrets known). */
function oauth1SignatureValid(r: Recorded): boolean {
  const result = verifyOAuth1({
    method: r.method,
    url: signedUrl(r),
    authorization: r.headers.authorization,
    contentType: r.headers["content-type"],
    body: r.body,
    consumers: new Map([[CLIENT_ID, CLIENT_SECRET]]),
    tokenSecret: (token) =>
      token === REQUEST_TOKEN ? REQUEST_TOKEN_SECRET : token === ACCESS_TOKEN ? TOKEN_SECRET : undefined,
    tokenRequired: false,
    seenNonces: new Set(),
  })
  return result.ok
}

// ---------------------------------------------------------------------------------------------
// One sign-in

interface Run {
  /** Every request the provider server received in this run, by role. */
  byRole: Map<Role, Recorded[]>
  /** Where Gatehouse sent the browser to sign in. */
  authorizeUrl: URL
}

async function signInWith(c: ProviderCase, endpoint: Endpoint, override: boolean): Promise<Run> {
  const overridePath = `/override/${endpoint}`
  // Each run discovers and fetches keys afresh, so both runs send the same requests.
  clearDiscoveryCache()
  clearJwksCache()
  fake.reset()
  fake.current = { case: c, paths: { ...c.paths, ...(override ? { [endpoint]: overridePath } : {}) } }
  const route = routingFetch(REAL_ORIGINS, fake.url)
  const options: Record<string, unknown> = {
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    [customFetch]: route.fetch,
    ...c.extraFor?.[endpoint],
    ...(override ? { [endpoint]: `${fake.url}${overridePath}` } : {}),
  }
  const s = setup([c.make(options)])
  const started = await startSignIn(s.config, c.id)
  expect(started.res.status, "the sign-in start redirects to the provider").toBe(302)
  const back = await visitProvider(localize(started.location!, REAL_ORIGINS, fake.url))
  const res = await callback(s.config, back, started.jar)
  expectSignedIn(res, s.log)
  const byRole = new Map<Role, Recorded[]>()
  for (const r of fake.requests) {
    const role = (r as Recorded & { role?: Role }).role
    if (role) byRole.set(role, [...(byRole.get(role) ?? []), r])
  }
  return { byRole, authorizeUrl: started.location! }
}

function only(run: Run, role: Role): Recorded {
  const requests = run.byRole.get(role) ?? []
  expect(requests, `one ${role} request`).toHaveLength(1)
  return requests[0]!
}

const ENDPOINTS: Endpoint[] = ["authorization", "token", "userinfo"]

describe("a string endpoint override replaces only the URL", () => {
  for (const c of CASES) {
    describe(c.name, () => {
      for (const endpoint of ENDPOINTS) {
        it(`${endpoint}: the override URL receives the request the default ${endpoint} endpoint receives`, async () => {
          const byDefault = await signInWith(c, endpoint, false)
          const overridden = await signInWith(c, endpoint, true)
          const expected = only(byDefault, endpoint)
          const actual = only(overridden, endpoint)
          expect(actual.path).toBe(`/override/${endpoint}`)
          expect(expected.path).toBe(c.paths[endpoint])
          expect(shapeOf(actual)).toEqual(shapeOf(expected))
          // The rest of the flow is unchanged: every other endpoint still got its one request.
          for (const role of Object.keys(c.paths) as Role[]) {
            if (role === endpoint) continue
            expect(overridden.byRole.get(role)?.length ?? 0, role).toBe(byDefault.byRole.get(role)?.length ?? 0)
          }
          // GitHub's userinfo hook follows the URL: the e-mail lookup goes to <override>/emails, shaped as before.
          if (byDefault.byRole.has("emails")) {
            const emails = only(overridden, "emails")
            expect(emails.path).toBe(
              endpoint === "userinfo" ? "/override/userinfo/emails" : `${c.paths.userinfo}/emails`,
            )
            expect(shapeOf(emails)).toEqual(shapeOf(only(byDefault, "emails")))
          }
          if (c.oauth1 && endpoint !== "authorization") {
            expect(oauth1SignatureValid(expected), "default request signed").toBe(true)
            expect(oauth1SignatureValid(actual), "override request signed for the override URL").toBe(true)
          }
        })
      }
    })
  }

  it("the issue's example: TikTok({ token: <url> }) sends client_key and client_secret_post to the new URL, form-encoded", async () => {
    const tiktok = CASES.find((c) => c.id === "tiktok")!
    const run = await signInWith(tiktok, "token", true)
    const request = only(run, "token")
    expect(request.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded/)
    const body = new URLSearchParams(request.body)
    expect(body.get("client_key")).toBe(CLIENT_ID)
    expect(body.get("client_secret")).toBe(CLIENT_SECRET)
    expect(body.get("grant_type")).toBe("authorization_code")
    expect(request.headers.authorization).toBeUndefined()
  })

  it("the provider's query parameters stay unless the override sets them (VK's v, TikTok's fields)", async () => {
    const vk = CASES.find((c) => c.id === "vk")!
    const run = await signInWith(vk, "userinfo", true)
    expect(only(run, "userinfo").query.get("v")).toBe("5.126")
    expect(only(run, "userinfo").query.get("fields")).toBe("photo_100")
    fake.reset()
    const route = routingFetch(REAL_ORIGINS, fake.url)
    fake.current = { case: vk, paths: { ...vk.paths, userinfo: "/override/userinfo" } }
    const s = setup([
      VK({
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        [customFetch]: route.fetch,
        userinfo: `${fake.url}/override/userinfo?v=5.199`,
      }),
    ])
    const started = await startSignIn(s.config, "vk")
    const back = await visitProvider(localize(started.location!, REAL_ORIGINS, fake.url))
    expectSignedIn(await callback(s.config, back, started.jar), s.log)
    const users = fake.requests.filter((r) => r.path === "/override/userinfo")
    expect(users.map((r) => r.query.getAll("v"))).toEqual([["5.199"]])
    expect(users[0]!.query.get("fields")).toBe("photo_100")
  })

  it("an object override `{ url }` keeps the provider's params and hooks the same way", async () => {
    const tiktok = CASES.find((c) => c.id === "tiktok")!
    fake.reset()
    fake.current = { case: tiktok, paths: { ...tiktok.paths, token: "/override/token" } }
    const route = routingFetch(REAL_ORIGINS, fake.url)
    const s = setup([
      TikTok({
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        [customFetch]: route.fetch,
        token: { url: `${fake.url}/override/token` },
      }),
    ])
    const started = await startSignIn(s.config, "tiktok")
    const back = await visitProvider(localize(started.location!, REAL_ORIGINS, fake.url))
    expectSignedIn(await callback(s.config, back, started.jar), s.log)
    const [request] = fake.requests.filter((r) => r.path === "/override/token")
    expect(new URLSearchParams(request!.body).get("client_key")).toBe(CLIENT_ID)
  })
})

describe("the refresh request keeps the provider's token params and hooks too", () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  /** TikTok with refreshAccessToken, signed in; then the clock passes the access token's expiry. */
  async function signedInTikTokWithExpiredToken() {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() })
    const tiktok = CASES.find((c) => c.id === "tiktok")!
    fake.reset()
    fake.current = { case: tiktok, paths: tiktok.paths }
    const route = routingFetch(REAL_ORIGINS, fake.url)
    const s = setup([
      TikTok({
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        refreshAccessToken: true,
        [customFetch]: route.fetch,
      }),
    ])
    const started = await startSignIn(s.config, "tiktok")
    const back = await visitProvider(localize(started.location!, REAL_ORIGINS, fake.url))
    expectSignedIn(await callback(s.config, back, started.jar), s.log)
    vi.setSystemTime(Date.now() + 3600 * 1000)
    const refreshes = () =>
      fake.requests.filter(
        (r) => r.path === tiktok.paths.token && new URLSearchParams(r.body).get("grant_type") === "refresh_token",
      )
    return { s, jar: started.jar, refreshes }
  }

  it("TikTok: the refresh POST is form-encoded with client_key and client_secret_post, and the session gets the new token", async () => {
    const { s, jar, refreshes } = await signedInTikTokWithExpiredToken()
    const res = await Auth(get("/auth/session", { cookie: jar.header() }), s.config)
    expect(res.status).toBe(200)
    expect(s.log.errors).toEqual([])
    const [refresh] = refreshes()
    expect(refreshes()).toHaveLength(1)
    expect(refresh!.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded/)
    const body = new URLSearchParams(refresh!.body)
    expect(body.get("client_key")).toBe(CLIENT_ID)
    expect(body.get("client_secret")).toBe(CLIENT_SECRET)
    expect(body.get("refresh_token")).toMatch(/^rft\./)
    expect(res.headers.getSetCookie().some((c) => c.startsWith("authjs.session-token="))).toBe(true)
  })

  it("TikTok: a refresh answered with HTTP 200 {error, log_id} fails through the conform hook; the log names the error and the log_id", async () => {
    const { s, jar, refreshes } = await signedInTikTokWithExpiredToken()
    fake.tokenError = "invalid_grant"
    const res = await Auth(get("/auth/session", { cookie: jar.header() }), s.config)
    expect(res.status).toBe(200)
    expect(refreshes()).toHaveLength(1)
    expect(s.log.types()).toEqual(["RefreshTokenError"])
    expect(s.log.text()).toContain("invalid_grant")
    expect(s.log.text()).toContain(TIKTOK_LOG_ID)
    expect(s.log.text()).not.toContain("The refresh token is invalid.")
  })
})

describe("discovery only when an endpoint is missing", () => {
  it("a plain OAuth provider with an issuer and all three endpoints (Mastodon with AUTH_MASTODON_ISSUER) starts without fetching a discovery document; an OIDC one still discovers", async () => {
    const seen: string[] = []
    const recorder = (async (input: string | URL | Request) => {
      seen.push(String(input instanceof Request ? input.url : input))
      return new Response("{}", { status: 404 })
    }) as typeof fetch
    const oauth = {
      id: "instance",
      name: "Instance",
      type: "oauth" as const,
      clientId: "id",
      clientSecret: "secret",
      issuer: "https://social.example",
      authorization: "https://social.example/oauth/authorize",
      token: "https://social.example/oauth/token",
      userinfo: "https://social.example/api/v1/accounts/verify_credentials",
      [customFetch]: recorder,
    }
    const config: AuthConfig = {
      secret: "test-secret-that-is-at-least-32-characters-long",
      trustHost: true,
      basePath: "/auth",
      providers: [oauth],
      logger: { error() {}, warn() {}, debug() {} },
    }
    const csrf = await Auth(get("/auth/csrf"), config)
    const cookie = csrf.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ")
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const res = await Auth(
      new Request(`${ORIGIN}/auth/signin/instance`, {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken }),
      }),
      config,
    )
    expect(res.status).toBe(302)
    expect(new URL(res.headers.get("location")!).origin + new URL(res.headers.get("location")!).pathname).toBe(
      "https://social.example/oauth/authorize",
    )
    expect(seen).toEqual([])
    clearDiscoveryCache()
    const oidcConfig = { ...config, providers: [{ ...oauth, id: "oidc-instance", type: "oidc" as const }] }
    await Auth(
      new Request(`${ORIGIN}/auth/signin/oidc-instance`, {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken }),
      }),
      oidcConfig,
    )
    expect(seen).toEqual(["https://social.example/.well-known/openid-configuration"])
  })
})
