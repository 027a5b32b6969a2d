// Built-in GitHub and Google providers end to end through Auth(), against local servers on 127.0.0.1:
// - GitHub: a small server answering as github.com / api.github.com do (authorize -> code + state; the token
//   endpoint answers JSON only for `Accept: application/json`, else form-encoded, with token_type "bearer";
//   /user needs Bearer + User-Agent; /user/emails lists addresses). The provider is pointed at it with
//   `authorization/token/userinfo: { url }`, which must keep GitHub's own `userinfo.request` hook (deep merge).
// - Google: `Google({ issuer })` against the mock OP (test/support/mock-op.ts): the profile is the ID token.
import { createHash, randomBytes } from "node:crypto"
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest"
import type { AuthConfig } from "../../src/index.js"
import { AuthError } from "../../src/errors.js"
import GitHub from "../../src/providers/github.js"
import Google from "../../src/providers/google.js"
import type { OAuthConfigBase } from "../../src/providers/types.js"
import { resolveOAuthProvider } from "../../src/config/oauth.js"
import { clearDiscoveryCache } from "../../src/protocols/oauth2.js"
import { ORIGIN } from "../support/flow-kit.js"
import { startMockOp, type MockOp } from "../support/mock-op.js"
import {
  APP_PAGE,
  callback,
  logged,
  sendJson,
  sendRedirect,
  sendText,
  sessionOf,
  sessionToken,
  setup,
  startLocalServer,
  startSignIn,
  visitProvider,
} from "../support/provider-kit.js"

// ---------------------------------------------------------------------------------------------
// A local "GitHub"

interface GitHubUser {
  profile: Record<string, unknown>
  emails: { email: string; primary: boolean; verified: boolean; visibility: string | null }[]
}

interface FakeGitHub {
  url: string
  clientId: string
  clientSecret: string
  /** The login the next authorization is for. */
  login: string
  users: Map<string, GitHubUser>
  authorizeRequests: URLSearchParams[]
  tokenRequests: {
    accept: string | undefined
    authorization: string | undefined
    body: URLSearchParams
    answeredAs: "json" | "form" | "error"
  }[]
  apiRequests: { path: string; authorization: string | undefined; userAgent: string | undefined; status: number }[]
  stop(): Promise<void>
}

async function startFakeGitHub(): Promise<FakeGitHub> {
  const codes = new Map<string, { login: string; redirectUri: string; challenge?: string }>()
  const tokens = new Map<string, string>() // access token -> login
  const gh: FakeGitHub = {
    url: "",
    clientId: "Iv1.gh-client",
    clientSecret: `gh-secret-${randomBytes(8).toString("hex")}`,
    login: "octocat",
    users: new Map(),
    authorizeRequests: [],
    tokenRequests: [],
    apiRequests: [],
    stop: async () => {},
  }
  const server = await startLocalServer((req, res, r) => {
    if (r.method === "GET" && r.path === "/login/oauth/authorize") {
      const q = r.query
      gh.authorizeRequests.push(q)
      const redirectUri = q.get("redirect_uri") ?? ""
      if (q.get("client_id") !== gh.clientId || redirectUri !== `${ORIGIN}/auth/callback/github`)
        return sendJson(res, r, 400, { error: "redirect_uri_mismatch" })
      const code = randomBytes(10).toString("hex")
      codes.set(code, {
        login: gh.login,
        redirectUri,
        ...(q.get("code_challenge") ? { challenge: q.get("code_challenge")! } : {}),
      })
      const back = new URL(redirectUri)
      back.searchParams.set("code", code)
      if (q.has("state")) back.searchParams.set("state", q.get("state")!)
      return sendRedirect(res, r, back.href)
    }
    if (r.method === "POST" && r.path === "/login/oauth/access_token") {
      const body = new URLSearchParams(r.body)
      const accept = req.headers.accept
      const record: FakeGitHub["tokenRequests"][number] = {
        accept,
        authorization: req.headers.authorization,
        body,
        answeredAs: "error",
      }
      gh.tokenRequests.push(record)
      // GitHub takes the client credentials as Basic auth or in the body.
      let id = body.get("client_id")
      let secret = body.get("client_secret")
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? "")?.[1]
      if (basic) {
        const decoded = Buffer.from(basic, "base64").toString("utf8")
        const i = decoded.indexOf(":")
        id = decodeURIComponent(decoded.slice(0, i).replace(/\+/g, " "))
        secret = decodeURIComponent(decoded.slice(i + 1).replace(/\+/g, " "))
      }
      const grant = codes.get(body.get("code") ?? "")
      codes.delete(body.get("code") ?? "")
      let answer: Record<string, string>
      let ok = false
      if (id !== gh.clientId || secret !== gh.clientSecret) answer = { error: "incorrect_client_credentials" }
      else if (!grant || grant.redirectUri !== body.get("redirect_uri")) answer = { error: "bad_verification_code" }
      else if (
        grant.challenge &&
        createHash("sha256")
          .update(body.get("code_verifier") ?? "")
          .digest("base64url") !== grant.challenge
      )
        answer = { error: "bad_verification_code" }
      else {
        const accessToken = `gho_${randomBytes(16).toString("hex")}`
        tokens.set(accessToken, grant.login)
        answer = { access_token: accessToken, token_type: "bearer", scope: "read:user,user:email" }
        ok = true
      }
      // Like GitHub: errors come with 200, and JSON only when asked for (else form-encoded).
      if (accept?.includes("application/json")) {
        if (ok) record.answeredAs = "json"
        return sendJson(res, r, 200, answer)
      }
      if (ok) record.answeredAs = "form"
      return sendText(
        res,
        r,
        200,
        new URLSearchParams(answer).toString(),
        "application/x-www-form-urlencoded; charset=utf-8",
      )
    }
    // api.github.com paths under /api (GitHub Enterprise Server: /api/v3).
    const path = r.path.startsWith("/api/v3/") ? r.path.replace("/api/v3/", "/api/") : r.path
    if (r.method === "GET" && (path === "/api/user" || path === "/api/user/emails")) {
      const authorization = req.headers.authorization
      const userAgent = req.headers["user-agent"]
      const token = /^Bearer (.+)$/.exec(authorization ?? "")?.[1]
      const login = token ? tokens.get(token) : undefined
      const record = { path: r.path, authorization, userAgent, status: 0 }
      gh.apiRequests.push(record)
      // api.github.com refuses requests without a User-Agent.
      if (!userAgent)
        return sendJson(res, r, (record.status = 403), {
          message: "Request forbidden by administrative rules. Please make sure your request has a User-Agent header",
        })
      const user = login ? gh.users.get(login) : undefined
      if (!user) return sendJson(res, r, (record.status = 401), { message: "Bad credentials" })
      record.status = 200
      return sendJson(res, r, 200, path === "/api/user" ? user.profile : user.emails)
    }
    sendJson(res, r, 404, { message: "Not Found" })
  })
  gh.url = server.url
  gh.stop = server.stop
  return gh
}

// ---------------------------------------------------------------------------------------------
// Setup

let gh: FakeGitHub
let op: MockOp

beforeAll(async () => {
  ;[gh, op] = await Promise.all([
    startFakeGitHub(),
    startMockOp({ clientId: "google-client.apps.googleusercontent.com" }),
  ])
  gh.users.set("octocat", {
    // No public e-mail: the primary verified address comes from /user/emails.
    profile: {
      id: 583231,
      login: "octocat",
      name: "The Octocat",
      email: null,
      avatar_url: "https://avatars.example/u/583231",
    },
    emails: [
      { email: "octo-old@users.example", primary: false, verified: true, visibility: null },
      { email: "octo-unverified@users.example", primary: false, verified: false, visibility: null },
      { email: "Octocat@GitHub.Example", primary: true, verified: true, visibility: "private" },
    ],
  })
  gh.users.set("public-pat", {
    profile: {
      id: 42,
      login: "public-pat",
      name: null,
      email: "pat.public@users.example",
      avatar_url: "https://avatars.example/u/42",
    },
    emails: [{ email: "pat.primary@users.example", primary: true, verified: true, visibility: "public" }],
  })
  gh.users.set("unverified-uma", {
    profile: { id: 77, login: "unverified-uma", name: "Uma", email: null, avatar_url: "https://avatars.example/u/77" },
    emails: [{ email: "uma@users.example", primary: true, verified: false, visibility: null }],
  })
})
afterAll(async () => {
  await Promise.all([gh?.stop(), op?.stop()])
})
beforeEach(() => {
  gh.authorizeRequests.length = 0
  gh.tokenRequests.length = 0
  gh.apiRequests.length = 0
  op.reset()
  clearDiscoveryCache()
})

function githubProvider(): OAuthConfigBase {
  return GitHub({
    clientId: gh.clientId,
    clientSecret: gh.clientSecret,
    authorization: { url: `${gh.url}/login/oauth/authorize` },
    token: { url: `${gh.url}/login/oauth/access_token` },
    userinfo: { url: `${gh.url}/api/user` },
  }) as OAuthConfigBase
}

/** The full sign-in; returns the callback response and the jar (with the session cookie when it worked). */
async function signInWith(config: AuthConfig, id: string) {
  const started = await startSignIn(config, id)
  expect(started.res.status).toBe(302)
  const authUrl = started.location!
  const back = await visitProvider(authUrl)
  expect(back.origin).toBe(ORIGIN)
  expect(back.pathname).toBe(`/auth/callback/${id}`)
  const res = await callback(config, back, started.jar)
  return { jar: started.jar, res, authUrl, callback: back }
}

// ---------------------------------------------------------------------------------------------
// GitHub

describe("GitHub", () => {
  it("deep merge: the endpoint URLs are replaced, GitHub's scope and userinfo.request hook are kept", () => {
    const builtIn = GitHub() as OAuthConfigBase
    const hook = (builtIn.userinfo as { request?: unknown }).request
    expect(typeof hook).toBe("function")
    const resolved = resolveOAuthProvider(githubProvider(), undefined)
    expect(resolved.authorization.url?.href).toBe(`${gh.url}/login/oauth/authorize`)
    expect(resolved.authorization.params.scope).toBe("read:user user:email")
    expect(resolved.token.url?.href).toBe(`${gh.url}/login/oauth/access_token`)
    expect(resolved.userinfo.url?.href).toBe(`${gh.url}/api/user`)
    expect(typeof resolved.userinfo.request, "GitHub's userinfo.request hook lost in the merge").toBe("function")
    // The hook reads the URL from the merged provider it is given.
    expect((resolved.source.userinfo as { url?: string }).url).toBe(`${gh.url}/api/user`)
  })

  it("signs in: code + state back, JSON token answer with token_type bearer, /user with Bearer + User-Agent, primary verified e-mail from /user/emails", async () => {
    gh.login = "octocat"
    const { config, jwtCalls, log } = setup([githubProvider()])
    const { res, authUrl, jar } = await signInWith(config, "github")
    expect(log.errors, logged(log)).toEqual([])
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(APP_PAGE)

    // The authorization request: GitHub's default scope survived the `authorization: { url }` override.
    expect(`${authUrl.origin}${authUrl.pathname}`).toBe(`${gh.url}/login/oauth/authorize`)
    expect(authUrl.searchParams.get("scope")).toBe("read:user user:email")
    expect(authUrl.searchParams.get("client_id")).toBe(gh.clientId)
    expect(authUrl.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/auth/callback/github`)
    expect(authUrl.searchParams.get("code_challenge_method")).toBe("S256")

    // The token request asked for JSON and was answered in JSON (token_type "bearer" accepted).
    expect(gh.tokenRequests).toHaveLength(1)
    expect(gh.tokenRequests[0]!.accept).toContain("application/json")
    expect(gh.tokenRequests[0]!.answeredAs).toBe("json")
    expect(gh.tokenRequests[0]!.body.get("grant_type")).toBe("authorization_code")
    expect(gh.tokenRequests[0]!.body.get("redirect_uri")).toBe(`${ORIGIN}/auth/callback/github`)

    // GitHub's own userinfo.request hook ran: /user then /user/emails, both with Bearer and a User-Agent.
    expect(gh.apiRequests.map((r) => r.path)).toEqual(["/api/user", "/api/user/emails"])
    for (const r of gh.apiRequests) {
      expect(r.status).toBe(200)
      expect(r.authorization).toMatch(/^Bearer gho_[0-9a-f]{32}$/)
      expect(r.userAgent).toBeTruthy()
    }

    // The jwt callback sees the account and the mapped user.
    const signInCalls = jwtCalls.filter((c) => c.account)
    expect(signInCalls).toHaveLength(1)
    const call = signInCalls[0]!
    expect(call.account).toMatchObject({
      provider: "github",
      type: "oauth",
      providerAccountId: "583231",
      token_type: "bearer",
      scope: "read:user,user:email",
    })
    expect(call.account!.access_token).toMatch(/^gho_/)
    expect(call.user).toMatchObject({
      name: "The Octocat",
      email: "octocat@github.example",
      image: "https://avatars.example/u/583231",
    })
    expect(call.profile).toMatchObject({ id: 583231, login: "octocat", email: "Octocat@GitHub.Example" })

    // The session carries the mapped user.
    expect(await sessionOf(config, jar)).toMatchObject({
      user: { name: "The Octocat", email: "octocat@github.example", image: "https://avatars.example/u/583231" },
    })
    const token = await sessionToken(jar)
    expect(token).toMatchObject({
      name: "The Octocat",
      email: "octocat@github.example",
      picture: "https://avatars.example/u/583231",
    })
  })

  it("a profile with a public e-mail keeps it (no /user/emails call); name falls back to login", async () => {
    gh.login = "public-pat"
    const { config, jwtCalls, log } = setup([githubProvider()])
    const { res, jar } = await signInWith(config, "github")
    expect(log.errors, logged(log)).toEqual([])
    expect(res.headers.get("location")).toBe(APP_PAGE)
    expect(gh.apiRequests.map((r) => r.path)).toEqual(["/api/user"])
    expect(jwtCalls.find((c) => c.account)!.account).toMatchObject({ provider: "github", providerAccountId: "42" })
    expect(await sessionOf(config, jar)).toMatchObject({
      user: { name: "public-pat", email: "pat.public@users.example", image: "https://avatars.example/u/42" },
    })
  })

  it("GitHub's error-in-200 token answer (bad_verification_code) fails the sign-in before any /user call", async () => {
    gh.login = "octocat"
    const { config, log } = setup([githubProvider()])
    const { jar, location } = await startSignIn(config, "github")
    const back = await visitProvider(location!)
    back.searchParams.set("code", "not-a-code")
    const res = await callback(config, back, jar)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=OAuthCallbackError`)
    expect(gh.tokenRequests).toHaveLength(1)
    expect(gh.apiRequests).toHaveLength(0)
    expect(log.types()).toEqual(["OAuthCallbackError"])
    expect(jar.cookies.has("authjs.session-token")).toBe(false)
  })

  it("/user refusing the access token (401) fails the sign-in as OAuthCallbackError (an AuthError) that names the status", async () => {
    gh.login = "ghost" // no such user: the token is issued, but /user answers 401 Bad credentials
    const { config, log } = setup([githubProvider()])
    const { jar, res } = await signInWith(config, "github")
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=OAuthCallbackError`)
    expect(gh.apiRequests.map((r) => [r.path, r.status])).toEqual([["/api/user", 401]])
    expect(log.types()).toEqual(["OAuthCallbackError"])
    expect(log.errors[0]).toBeInstanceOf(AuthError)
    expect(logged(log)).toContain(`GitHub GET ${gh.url}/api/user answered 401`)
    expect(jar.cookies.has("authjs.session-token")).toBe(false)
  })

  it("GitHub Enterprise Server: enterprise.baseUrl gives <base>/login/oauth/* and <base>/api/v3/user(/emails)", async () => {
    gh.login = "octocat"
    const { config, log } = setup([
      GitHub({
        clientId: gh.clientId,
        clientSecret: gh.clientSecret,
        enterprise: { baseUrl: `${gh.url}/` },
      }) as OAuthConfigBase,
    ])
    const { res, jar, authUrl } = await signInWith(config, "github")
    expect(log.errors, logged(log)).toEqual([])
    expect(`${authUrl.origin}${authUrl.pathname}`).toBe(`${gh.url}/login/oauth/authorize`)
    expect(res.headers.get("location")).toBe(APP_PAGE)
    expect(gh.apiRequests.map((r) => r.path)).toEqual(["/api/v3/user", "/api/v3/user/emails"])
    expect(await sessionOf(config, jar)).toMatchObject({ user: { email: "octocat@github.example" } })
  })

  it("AUTH_GITHUB_ID / AUTH_GITHUB_SECRET fill a GitHub() without credentials", async () => {
    vi.stubEnv("AUTH_GITHUB_ID", gh.clientId)
    vi.stubEnv("AUTH_GITHUB_SECRET", gh.clientSecret)
    try {
      gh.login = "public-pat"
      const { config, log } = setup([
        GitHub({
          authorization: { url: `${gh.url}/login/oauth/authorize` },
          token: { url: `${gh.url}/login/oauth/access_token` },
          userinfo: { url: `${gh.url}/api/user` },
        }) as OAuthConfigBase,
      ])
      const { res, authUrl } = await signInWith(config, "github")
      expect(log.errors, logged(log)).toEqual([])
      expect(authUrl.searchParams.get("client_id")).toBe(gh.clientId)
      expect(res.headers.get("location")).toBe(APP_PAGE)
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it("a primary address that is not verified is not used: the e-mail is null", async () => {
    gh.login = "unverified-uma"
    const { config, log } = setup([githubProvider()])
    const { res, jar } = await signInWith(config, "github")
    expect(log.errors, logged(log)).toEqual([])
    expect(res.headers.get("location")).toBe(APP_PAGE)
    expect(gh.apiRequests.map((r) => r.path)).toEqual(["/api/user", "/api/user/emails"])
    const session = (await sessionOf(config, jar)) as { user: Record<string, unknown> }
    expect(session.user.name).toBe("Uma")
    expect(session.user.email ?? null).toBeNull()
  })
})

// ---------------------------------------------------------------------------------------------
// Google

describe("Google", () => {
  function googleProvider(): OAuthConfigBase {
    return Google({ clientId: op.clientId, clientSecret: op.clientSecret, issuer: op.issuer }) as OAuthConfigBase
  }

  it("signs in against the (mock) OP: discovery, the ID token's claims are the profile (id=sub, name, email, image=picture)", async () => {
    op.subject = "109876543210987654321"
    op.extraClaims = {
      name: "Grace Google",
      email: "Grace@Gmail.Example",
      picture: "https://lh3.example/grace.jpg",
      email_verified: true,
    }
    const { config, jwtCalls, log } = setup([googleProvider()])
    const { res, jar, authUrl, callback } = await signInWith(config, "google")
    expect(log.errors, logged(log)).toEqual([])
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(APP_PAGE)

    expect(`${authUrl.origin}${authUrl.pathname}`).toBe(op.endpoints.authorization)
    expect(authUrl.searchParams.get("scope")).toBe("openid email profile")
    expect(authUrl.searchParams.get("client_id")).toBe(op.clientId)
    expect(authUrl.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/auth/callback/google`)
    expect(callback.searchParams.get("iss")).toBe(op.issuer)
    expect(op.counts.discovery).toBe(1)
    expect(op.counts.token).toBe(1)
    // The profile came from the ID token: no userinfo call.
    expect(op.counts.userinfo).toBe(0)

    const call = jwtCalls.find((c) => c.account)!
    expect(call.account).toMatchObject({
      provider: "google",
      type: "oidc",
      providerAccountId: "109876543210987654321",
      token_type: "bearer",
    })
    expect(typeof call.account!.id_token).toBe("string")
    expect(call.profile).toMatchObject({
      sub: "109876543210987654321",
      iss: op.issuer,
      aud: op.clientId,
      picture: "https://lh3.example/grace.jpg",
    })
    expect(call.user).toMatchObject({
      name: "Grace Google",
      email: "grace@gmail.example",
      image: "https://lh3.example/grace.jpg",
    })

    expect(await sessionOf(config, jar)).toMatchObject({
      user: { name: "Grace Google", email: "grace@gmail.example", image: "https://lh3.example/grace.jpg" },
    })
  })

  it("a missing picture/name map to null", async () => {
    op.extraClaims = { name: undefined, picture: undefined, email: "nopic@gmail.example" }
    const { config, log } = setup([googleProvider()])
    const { res, jar } = await signInWith(config, "google")
    expect(log.errors, logged(log)).toEqual([])
    expect(res.headers.get("location")).toBe(APP_PAGE)
    const session = (await sessionOf(config, jar)) as { user: Record<string, unknown> }
    expect(session.user.email).toBe("nopic@gmail.example")
    expect(session.user.name ?? null).toBeNull()
    expect(session.user.image ?? null).toBeNull()
  })
})
