// gatehouse/v4/providers/<id> configured the next-auth 4 way, signing in through Gatehouse's Auth() against servers on
// 127.0.0.1: GitHub (a small github.com), Google, Azure AD (tenantId) and Keycloak / Auth0 (issuer, wellKnown) against
// the mock OP, Twitter's OAuth 1.0a and 2.0 against the local Twitter, a custom next-auth 4 OAuth object with v4
// `token.request` / `userinfo.request` hooks that use the openid-client `client` stand-in, Credentials with v4's
// `authorize(credentials, req)` and Email with v4's `sendVerificationRequest` and SMTP `server`. The providers' real
// hosts are routed to the local servers by a customFetch (the global fetch refuses anything but 127.0.0.1).
import { createHash, randomBytes } from "node:crypto"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { Auth, customFetch } from "../../src/index.js"
import type { AuthConfig } from "../../src/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { fromV4Provider } from "../../src/integrations/next-v4/providers/translate.js"
import AzureADProvider from "../../src/integrations/next-v4/providers/azure-ad.js"
import Auth0Provider from "../../src/integrations/next-v4/providers/auth0.js"
import CredentialsProvider from "../../src/integrations/next-v4/providers/credentials.js"
import EmailProvider from "../../src/integrations/next-v4/providers/email.js"
import GithubProvider from "../../src/integrations/next-v4/providers/github.js"
import GoogleProvider from "../../src/integrations/next-v4/providers/google.js"
import KeycloakProvider from "../../src/integrations/next-v4/providers/keycloak.js"
import TwitterProvider from "../../src/integrations/next-v4/providers/twitter.js"
import { clearDiscoveryCache } from "../../src/protocols/oauth2.js"
import { CookieJar, ORIGIN, fetchCsrf, get, postForm } from "../support/flow-kit.js"
import { type FakeTwitter, TWITTER_ORIGINS, startFakeTwitter } from "../support/fake-twitter.js"
import { startMockOp, type MockOp } from "../support/mock-op.js"
import {
  APP_PAGE,
  type FetchGuard,
  type LocalServer,
  callback,
  expectSignedIn,
  installFetchGuard,
  localize,
  routingFetch,
  sendJson,
  sendRedirect,
  sessionOf,
  setup,
  startLocalServer,
  startSignIn,
  visitProvider,
} from "../support/provider-kit.js"
import { type SmtpSink, startSmtpSink } from "../support/smtp.js"

type Providers = AuthConfig["providers"]

// ---------------------------------------------------------------------------------------------
// A small github.com / api.github.com: authorize → code (PKCE bound), token (JSON when asked), /user, /user/emails.

interface FakeGitHub extends LocalServer {
  clientId: string
  clientSecret: string
  tokenBodies: URLSearchParams[]
}

async function startFakeGitHub(): Promise<FakeGitHub> {
  const codes = new Map<string, { redirectUri: string; challenge: string | null }>()
  const tokens = new Set<string>()
  const gh = { clientId: "Iv1.v4-client", clientSecret: "gh-v4-secret", tokenBodies: [] as URLSearchParams[] }
  const server = await startLocalServer((req, res, r) => {
    if (r.method === "GET" && r.path === "/login/oauth/authorize") {
      if (r.query.get("client_id") !== gh.clientId) return sendJson(res, r, 400, { error: "bad client" })
      const code = randomBytes(8).toString("hex")
      codes.set(code, { redirectUri: r.query.get("redirect_uri")!, challenge: r.query.get("code_challenge") })
      const back = new URL(r.query.get("redirect_uri")!)
      back.searchParams.set("code", code)
      if (r.query.has("state")) back.searchParams.set("state", r.query.get("state")!)
      return sendRedirect(res, r, back.href)
    }
    if (r.method === "POST" && r.path === "/login/oauth/access_token") {
      const body = new URLSearchParams(r.body)
      gh.tokenBodies.push(body)
      const grant = codes.get(body.get("code") ?? "")
      const verifier = body.get("code_verifier") ?? ""
      const basic = Buffer.from((req.headers.authorization ?? "").replace(/^Basic /, ""), "base64").toString()
      if (
        basic !== `${gh.clientId}:${gh.clientSecret}` ||
        !grant ||
        grant.redirectUri !== body.get("redirect_uri") ||
        createHash("sha256").update(verifier).digest("base64url") !== grant.challenge
      )
        return sendJson(res, r, 200, { error: "bad_verification_code" })
      const accessToken = `gho_${randomBytes(8).toString("hex")}`
      tokens.add(accessToken)
      return sendJson(res, r, 200, { access_token: accessToken, token_type: "bearer", scope: "read:user,user:email" })
    }
    const token = (req.headers.authorization ?? "").replace(/^Bearer /, "")
    if (r.method === "GET" && r.path === "/user" && tokens.has(token))
      return sendJson(res, r, 200, {
        id: 9001,
        login: "v4cat",
        name: null,
        email: null,
        avatar_url: "https://a.example/9001",
      })
    if (r.method === "GET" && r.path === "/user/emails" && tokens.has(token))
      return sendJson(res, r, 200, [{ email: "v4cat@example.com", primary: true, verified: true, visibility: null }])
    sendJson(res, r, 404, { message: "Not Found" })
  })
  return Object.assign(server, gh)
}

// ---------------------------------------------------------------------------------------------

let guard: FetchGuard
let gh: FakeGitHub
let op: MockOp
let tw: FakeTwitter
let smtp: SmtpSink

beforeAll(async () => {
  guard = installFetchGuard()
  ;[gh, op, tw, smtp] = await Promise.all([
    startFakeGitHub(),
    startMockOp({ clientId: "v4-oidc-client" }),
    startFakeTwitter(),
    startSmtpSink(),
  ])
})
afterAll(async () => {
  await Promise.all([gh?.stop(), op?.stop(), tw?.stop(), smtp?.stop()])
  guard?.restore()
})
beforeEach(() => {
  op.reset()
  op.issuer = `${op.origin}${op.issuerPath}`
  tw.reset()
  clearDiscoveryCache()
  guard.blocked.length = 0
})

/** Start, the provider's page (through `browse`), the callback: the callback's answer and the jar. */
async function signIn(config: AuthConfig, id: string, browse: (url: URL) => Promise<URL> = visitProvider) {
  const started = await startSignIn(config, id)
  expect(started.res.status, await started.res.clone().text()).toBe(302)
  const back = await browse(started.location!)
  expect(`${back.origin}${back.pathname}`).toBe(`${ORIGIN}/auth/callback/${id}`)
  const res = await callback(config, back, started.jar)
  return { res, jar: started.jar, authorizeUrl: started.location! }
}

describe("OAuth 2 providers configured the v4 way", () => {
  it("GithubProvider({ clientId, clientSecret }): github.com's endpoints, PKCE, the primary verified e-mail", async () => {
    const route = routingFetch(["https://github.com", "https://api.github.com"], gh.url)
    const s = setup([
      GithubProvider({ clientId: gh.clientId, clientSecret: gh.clientSecret, [customFetch]: route.fetch }) as never,
    ])
    const { res, jar, authorizeUrl } = await signIn(s.config, "github", (url) =>
      visitProvider(localize(url, ["https://github.com"], gh.url)),
    )
    expectSignedIn(res, s.log)
    expect(`${authorizeUrl.origin}${authorizeUrl.pathname}`).toBe("https://github.com/login/oauth/authorize")
    expect(authorizeUrl.searchParams.get("scope")).toBe("read:user user:email")
    expect(route.calls.map((c) => c.url)).toEqual([
      "https://github.com/login/oauth/access_token",
      "https://api.github.com/user",
      "https://api.github.com/user/emails",
    ])
    expect(s.signInCall().account).toMatchObject({ provider: "github", providerAccountId: "9001" })
    expect((await sessionOf(s.config, jar))?.user).toMatchObject({ name: "v4cat", email: "v4cat@example.com" })
    expect(guard.blocked).toEqual([])
  })

  it("GoogleProvider: v4's accounts.google.com discovery, the profile from the ID token", async () => {
    op.issuer = "https://accounts.google.com"
    const google = ["https://accounts.google.com"]
    const route = routingFetch(google, `${op.origin}${op.issuerPath}`)
    const s = setup([
      GoogleProvider({ clientId: op.clientId, clientSecret: op.clientSecret, [customFetch]: route.fetch }) as never,
    ])
    const { res, jar, authorizeUrl } = await signIn(
      s.config,
      "google",
      async (url) => (await op.authorize(localize(url, google, `${op.origin}${op.issuerPath}`))).url,
    )
    expectSignedIn(res, s.log)
    expect(route.calls[0]?.url).toBe("https://accounts.google.com/.well-known/openid-configuration")
    expect(authorizeUrl.searchParams.get("scope")).toBe("openid email profile")
    expect(s.signInCall().account).toMatchObject({ provider: "google", providerAccountId: "mock-user-1" })
    expect((await sessionOf(s.config, jar))?.user).toMatchObject({ email: "mock.user@op.example" })
  })

  it("AzureADProvider({ tenantId }): the tenant's v2.0 issuer, discovery with ?appid=<clientId>", async () => {
    const login = "https://login.microsoftonline.com"
    op.issuer = `${login}/tenant-v4/v2.0`
    const routes = [login, "https://graph.microsoft.com"]
    const target = `${op.origin}${op.issuerPath}`.replace(/\/op$/, "")
    const route = routingFetch(routes, target)
    const s = setup([
      AzureADProvider({
        clientId: op.clientId,
        clientSecret: op.clientSecret,
        tenantId: "tenant-v4",
        [customFetch]: (url: RequestInfo | URL, init?: RequestInit) => {
          // The mock OP serves its issuer under /op: map Microsoft's /tenant-v4/v2.0 onto it.
          const href = String(url instanceof Request ? url.url : url).replace(`${login}/tenant-v4/v2.0`, `${login}/op`)
          return route.fetch(href, init)
        },
      }) as never,
    ])
    const { res, jar } = await signIn(s.config, "azure-ad", async (url) => {
      const local = new URL(url.href.replace(`${login}/tenant-v4/v2.0`, `${op.origin}/op`))
      return (await op.authorize(local)).url
    })
    expectSignedIn(res, s.log)
    expect(route.calls[0]?.url).toBe(
      `${login}/op/.well-known/openid-configuration?appid=${encodeURIComponent(op.clientId)}`,
    )
    expect(s.signInCall().account).toMatchObject({ provider: "azure-ad", providerAccountId: "mock-user-1" })
    expect((await sessionOf(s.config, jar))?.user).toMatchObject({ email: "mock.user@op.example" })
  })

  it("KeycloakProvider({ issuer }) and Auth0Provider({ wellKnown }): discovery from the issuer, and from a wellKnown URL alone", async () => {
    for (const [id, provider] of [
      ["keycloak", KeycloakProvider({ clientId: op.clientId, clientSecret: op.clientSecret, issuer: op.issuer })],
      [
        "auth0",
        Auth0Provider({
          clientId: op.clientId,
          clientSecret: op.clientSecret,
          wellKnown: `${op.issuer}/.well-known/openid-configuration`,
        }),
      ],
    ] as const) {
      op.reset()
      clearDiscoveryCache()
      const s = setup([provider as never])
      const { res, jar, authorizeUrl } = await signIn(s.config, id, async (url) => (await op.authorize(url)).url)
      expectSignedIn(res, s.log)
      expect(op.counts.discovery, id).toBe(1)
      expect(authorizeUrl.searchParams.get("code_challenge_method"), id).toBe("S256")
      expect((await sessionOf(s.config, jar))?.user, id).toMatchObject({ email: "mock.user@op.example" })
    }
  })

  it("a custom v4 OIDC provider object ({ type: 'oauth', wellKnown, idToken: true }) through fromV4Provider", async () => {
    const custom = fromV4Provider({
      id: "corp",
      name: "Corp SSO",
      type: "oauth",
      wellKnown: `${op.issuer}/.well-known/openid-configuration`,
      idToken: true,
      checks: "state",
      authorization: { params: { scope: "openid email profile", claims: { id_token: { email: null } } } },
      clientId: op.clientId,
      clientSecret: op.clientSecret,
      httpOptions: { timeout: 4000 },
      profile: (profile: Record<string, unknown>) => ({ id: String(profile.sub), email: String(profile.email) }),
    })
    expect(custom).toMatchObject({ type: "oidc", issuer: op.issuer, checks: ["state"], timeout: 4000 })
    expect(fromV4Provider(custom), "translated once").toBe(custom)
    const s = setup([custom as never])
    const { res, jar, authorizeUrl } = await signIn(s.config, "corp", async (url) => (await op.authorize(url)).url)
    expectSignedIn(res, s.log)
    expect(authorizeUrl.searchParams.get("claims")).toBe('{"id_token":{"email":null}}')
    expect(authorizeUrl.searchParams.has("state")).toBe(true)
    expect(authorizeUrl.searchParams.has("code_challenge")).toBe(false)
    expect((await sessionOf(s.config, jar))?.user).toMatchObject({ email: "mock.user@op.example" })
  })

  it("a custom v4 OAuth provider whose token.request and userinfo.request hooks use the v4 `client`", async () => {
    op.userinfoClaims = { name: "Hook User", email: "hook@op.example" }
    const seen: Record<string, unknown> = {}
    const custom = fromV4Provider({
      id: "hooked",
      name: "Hooked",
      type: "oauth",
      issuer: op.issuer,
      authorization: { url: op.endpoints.authorization, params: { scope: "profile" } },
      token: {
        url: op.endpoints.token,
        async request({ client, params, checks, provider }: Record<string, any>) {
          seen.callbackUrl = provider.callbackUrl
          seen.signinUrl = provider.signinUrl
          seen.verifier = typeof checks.code_verifier
          // next-auth 4's Twitter 2.0 did exactly this.
          const tokens = await client.oauthCallback(provider.callbackUrl, params, checks, {
            exchangeBody: { audience: "api" },
          })
          return { tokens }
        },
      },
      userinfo: {
        url: op.endpoints.userinfo,
        async request({ client, tokens }: Record<string, any>) {
          seen.claims = typeof tokens.claims
          return client.userinfo(tokens)
        },
      },
      clientId: op.clientId,
      clientSecret: op.clientSecret,
      profile: (profile: Record<string, unknown>) => ({
        id: String(profile.sub),
        name: profile.name as string,
        email: profile.email as string,
      }),
    })
    const s = setup([custom as never])
    const { res, jar } = await signIn(s.config, "hooked", async (url) => (await op.authorize(url)).url)
    expectSignedIn(res, s.log)
    expect(seen).toEqual({
      callbackUrl: `${ORIGIN}/auth/callback/hooked`,
      signinUrl: `${ORIGIN}/auth/signin/hooked`,
      verifier: "string",
      claims: "function",
    })
    // The stand-in's exchange: client_secret_basic, the PKCE verifier, the redirect URI and the exchangeBody field.
    const [exchange] = op.tokenRequests
    expect(exchange?.status).toBe(200)
    expect(exchange?.authorization).toMatch(/^Basic /)
    expect(exchange?.body.get("audience")).toBe("api")
    expect(exchange?.body.get("redirect_uri")).toBe(`${ORIGIN}/auth/callback/hooked`)
    expect(exchange?.body.get("code_verifier")).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(op.counts.userinfo).toBe(1)
    expect((await sessionOf(s.config, jar))?.user).toMatchObject({ name: "Hook User", email: "hook@op.example" })
  })
})

describe("Twitter configured the v4 way", () => {
  it("TwitterProvider({ clientId, clientSecret }): OAuth 1.0a on api.x.com, each leg's signature verified", async () => {
    const route = routingFetch(TWITTER_ORIGINS, tw.url)
    const s = setup([
      TwitterProvider({
        clientId: tw.consumerKey,
        clientSecret: tw.consumerSecret,
        [customFetch]: route.fetch,
      }) as never,
    ])
    const { res, jar, authorizeUrl } = await signIn(s.config, "twitter", (url) =>
      visitProvider(localize(url, TWITTER_ORIGINS, tw.url)),
    )
    expectSignedIn(res, s.log)
    expect(`${authorizeUrl.origin}${authorizeUrl.pathname}`).toBe("https://api.x.com/oauth/authenticate")
    expect(tw.oauth1Failures).toEqual([])
    expect(s.signInCall().account).toMatchObject({ provider: "twitter", providerAccountId: tw.legacyUser.id_str })
    expect((await sessionOf(s.config, jar))?.user?.name).toBe(tw.legacyUser.name)
  })

  it('TwitterProvider({ version: "2.0" }): OAuth 2 with PKCE and state', async () => {
    const route = routingFetch(TWITTER_ORIGINS, tw.url)
    const s = setup([
      TwitterProvider({
        clientId: tw.clientId,
        clientSecret: tw.clientSecret,
        version: "2.0",
        [customFetch]: route.fetch,
      }) as never,
    ])
    const { res, jar, authorizeUrl } = await signIn(s.config, "twitter", (url) =>
      visitProvider(localize(url, TWITTER_ORIGINS, tw.url)),
    )
    expectSignedIn(res, s.log)
    expect(authorizeUrl.searchParams.has("state")).toBe(true)
    expect(authorizeUrl.searchParams.get("code_challenge_method")).toBe("S256")
    expect(s.signInCall().account).toMatchObject({ provider: "twitter", providerAccountId: tw.v2User.id })
    expect((await sessionOf(s.config, jar))?.user?.name).toBe(tw.v2User.name)
  })
})

describe("Credentials and Email configured the v4 way", () => {
  it("CredentialsProvider: authorize(credentials, req) gets v4's req ({ query, body, headers, method })", async () => {
    const calls: { credentials: unknown; req: Record<string, unknown> }[] = []
    const s = setup([
      CredentialsProvider({
        name: "Password",
        credentials: {
          username: { label: "Username", type: "text" },
          password: { label: "Password", type: "password" },
        },
        authorize(credentials, req) {
          calls.push({ credentials, req: req as unknown as Record<string, unknown> })
          return credentials?.password === "right" ? { id: "u-1", name: credentials.username } : null
        },
      }) as never,
    ])
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(s.config, jar)
    const post = (password: string) =>
      Auth(
        postForm(
          "/auth/callback/credentials?from=v4",
          { csrfToken, username: "ada", password, callbackUrl: APP_PAGE },
          { cookie: jar.header(), headers: { "x-request-id": "req-42" } },
        ),
        s.config,
      )
    const wrong = await post("wrong")
    expect(wrong.status).toBe(302)
    expect(wrong.headers.get("location")).toContain("error=CredentialsSignin")
    expect(s.log.types()).toEqual(["CredentialsSignin"])
    s.log.errors.length = 0
    const res = await post("right")
    jar.store(res)
    expectSignedIn(res, s.log)
    expect(calls).toHaveLength(2)
    const { credentials, req } = calls[1]!
    expect(credentials).toMatchObject({ username: "ada", password: "right" })
    expect(req.method).toBe("POST")
    expect(req.query).toEqual({ from: "v4" })
    expect(req.body).toMatchObject({ username: "ada", password: "right" })
    expect(req.headers).toMatchObject({ "x-request-id": "req-42", "content-type": "application/x-www-form-urlencoded" })
    expect(req.headers).not.toBeInstanceOf(Headers)
    expect((await sessionOf(s.config, jar))?.user?.name).toBe("ada")
  })

  it("v4's req from the flow (gatehouse/v4's wire format passes it already) is handed on as it is", async () => {
    const seen: unknown[] = []
    const provider = CredentialsProvider({
      credentials: {},
      authorize(_credentials, req) {
        seen.push(req)
        return { id: "u-9" }
      },
    })
    const v4Request = { query: {}, body: { csrfToken: "t", username: "x" }, headers: { host: "h" }, method: "POST" }
    expect(await provider.authorize({ username: "x" }, v4Request as never)).toEqual({ id: "u-9" })
    expect(seen).toEqual([v4Request])
    expect(seen[0]).toBe(v4Request)
  })

  it("an authorize that declares one parameter is called with one; a rest parameter gets v4's req", async () => {
    const seen: number[] = []
    const s = setup([
      CredentialsProvider({
        id: "one",
        credentials: { username: { label: "Username" } },
        authorize: function (_credentials) {
          // biome-ignore lint/complexity/noArguments: `arguments` counts what the wrapper passes
          seen.push(arguments.length)
          return { id: "u-2" }
        },
      }) as never,
      CredentialsProvider({
        id: "rest",
        credentials: { username: { label: "Username" } },
        authorize(...all: unknown[]) {
          seen.push(all.length)
          expect(all[1]).toMatchObject({ method: "POST", body: { username: "x" } })
          return { id: "u-3" }
        },
      }) as never,
    ])
    for (const id of ["one", "rest"]) {
      const jar = new CookieJar()
      const csrfToken = await fetchCsrf(s.config, jar)
      const res = await Auth(
        postForm(`/auth/callback/${id}`, { csrfToken, username: "x", callbackUrl: APP_PAGE }, { cookie: jar.header() }),
        s.config,
      )
      expectSignedIn(res, s.log)
    }
    expect(seen).toEqual([1, 2])
  })

  it("EmailProvider({ sendVerificationRequest }): v4's parameters, then the link signs in", async () => {
    const sent: Record<string, unknown>[] = []
    const adapter = MemoryAdapter()
    const s = setup(
      [
        EmailProvider({
          from: "Acme <login@acme.example>",
          maxAge: 600,
          sendVerificationRequest: (params) => void sent.push(params as unknown as Record<string, unknown>),
        }) as never,
      ],
      // The link's origin must be configured (docs/security.md EM-11); next-auth 4 took NEXTAUTH_URL's.
      { adapter, trustedOrigins: [ORIGIN] } as never,
    )
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(s.config, jar)
    const res = await Auth(
      postForm(
        "/auth/signin/email",
        { csrfToken, email: "Grace@Example.com", callbackUrl: APP_PAGE },
        { cookie: jar.header() },
      ),
      s.config,
    )
    expect(res.status, await res.clone().text()).toBe(302)
    expect(s.log.types(), res.headers.get("location") ?? "").toEqual([])
    expect(sent).toHaveLength(1)
    const params = sent[0]!
    expect(params.identifier).toBe("grace@example.com")
    expect(params.provider).toMatchObject({
      id: "email",
      type: "email",
      from: "Acme <login@acme.example>",
      maxAge: 600,
    })
    expect(typeof params.token).toBe("string")
    expect(params.theme).toBeTypeOf("object")
    const expires = (params.expires as Date).getTime() - Date.now()
    expect(expires).toBeGreaterThan(590_000)
    expect(expires).toBeLessThanOrEqual(600_000)
    const link = new URL(params.url as string)
    const back = await Auth(get(`${link.pathname}${link.search}`, { cookie: jar.header() }), s.config)
    jar.store(back)
    expectSignedIn(back, s.log)
    expect((await sessionOf(s.config, jar))?.user?.email).toBe("grace@example.com")
  })

  it("EmailProvider({ server, from }): the default mail over SMTP, as v4 sent it", async () => {
    const s = setup([EmailProvider({ server: smtp.url, from: "login@acme.example" }) as never], {
      adapter: MemoryAdapter(),
      trustedOrigins: [ORIGIN],
    } as never)
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(s.config, jar)
    const before = smtp.messages.length
    const res = await Auth(
      postForm("/auth/signin/email", { csrfToken, email: "lin@example.com" }, { cookie: jar.header() }),
      s.config,
    )
    expect(res.status).toBe(302)
    const mail = await smtp.waitFor(before + 1)
    expect(mail.to).toEqual(["lin@example.com"])
    expect(mail.from).toBe("login@acme.example")
    expect(mail.raw).toContain(`${ORIGIN}/auth/callback/email`)
  })

  it("EmailProvider() with neither sendVerificationRequest nor server: v4's localhost:25 (Gatehouse's Email() would throw)", () => {
    expect(EmailProvider()).toMatchObject({
      id: "email",
      server: { host: "localhost", port: 25, auth: { user: "", pass: "" } },
    })
  })
})
