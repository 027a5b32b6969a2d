// End-to-end OAuth 2 / OpenID Connect sign-in through Auth() (docs/wire-format.md §2.6-2.8, §2.11, §3.3, §6):
// a real OpenID Provider (oidc-provider v9, test/support/oidc-op.ts) on 127.0.0.1 and a tiny plain OAuth 2
// server (below), driven by a programmatic browser (test/support/browser.ts) that keeps cookies per host
// with SameSite rules, follows redirects, logs in and consents at the OP and submits form_post pages.
// Gatehouse's origin http://localhost:3000 is virtual: the browser calls Auth() in-process for it.
//
// OAUTH_FLOW_REFERENCE=authjs runs the same flows against @auth/core 0.41.3 (a check of the tests).
import { createHash, randomBytes } from "node:crypto"
import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Auth as GatehouseAuth } from "../src/index.js"
import type { AuthConfig } from "../src/index.js"
import type { OAuthConfigBase } from "../src/providers/types.js"
import { ORIGIN, SECRET } from "./support/flow-kit.js"
import { Browser, formatStep, parseForms, type FollowResult, type Step } from "./support/browser.js"
import { OP_USERS, startOidcProvider, type OidcOp, type OpClient } from "./support/oidc-op.js"

const REFERENCE = process.env.OAUTH_FLOW_REFERENCE === "authjs"
const Auth: (request: Request, config: AuthConfig) => Promise<Response> = REFERENCE
  ? ((await import("@auth/core")).Auth as unknown as (request: Request, config: AuthConfig) => Promise<Response>)
  : GatehouseAuth

const OLIVIA = OP_USERS[0]!
const MIXED = OP_USERS[1]!
const APP_PAGE = `${ORIGIN}/dashboard`
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

// ---------------------------------------------------------------------------------------------
// A plain OAuth 2 authorization server (no OIDC): authorize -> code (+ state), token (Basic auth,
// PKCE S256), userinfo (Bearer).

interface PlainServer {
  url: string
  clientId: string
  clientSecret: string
  tokenRequests: { authorization?: string; body: Record<string, string> }[]
  userinfoRequests: { authorization?: string }[]
  authorizationRequests: URLSearchParams[]
  stop(): Promise<void>
}

const PLAIN_PROFILE = {
  id: "plain-4242",
  login: "pat",
  name: "Pat Plain",
  email: "Pat@Plain.Example",
  avatar: "https://img.plain.example/pat.png",
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const c of req) chunks.push(c as Buffer)
  return Buffer.concat(chunks).toString("utf8")
}

async function startPlainServer(): Promise<PlainServer> {
  const clientId = "plain-client"
  const clientSecret = `plain-secret-${randomBytes(8).toString("hex")}`
  const codes = new Map<string, { redirectUri: string; challenge?: string; method?: string }>()
  const tokens = new Set<string>()
  const state: Omit<PlainServer, "url" | "stop"> = {
    clientId,
    clientSecret,
    tokenRequests: [],
    userinfoRequests: [],
    authorizationRequests: [],
  }
  const json = (res: import("node:http").ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" })
    res.end(JSON.stringify(body))
  }
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1")
      if (req.method === "GET" && url.pathname === "/authorize") {
        const q = url.searchParams
        state.authorizationRequests.push(q)
        const redirectUri = q.get("redirect_uri") ?? ""
        if (q.get("client_id") !== clientId || redirectUri !== `${ORIGIN}/auth/callback/plain`)
          return json(res, 400, { error: "invalid_request" })
        const code = randomBytes(16).toString("base64url")
        codes.set(code, {
          redirectUri,
          ...(q.get("code_challenge")
            ? { challenge: q.get("code_challenge")!, method: q.get("code_challenge_method") ?? "plain" }
            : {}),
        })
        const back = new URL(redirectUri)
        back.searchParams.set("code", code)
        if (q.has("state")) back.searchParams.set("state", q.get("state")!)
        res.writeHead(302, { location: back.href })
        return res.end()
      }
      if (req.method === "POST" && url.pathname === "/token") {
        const body = Object.fromEntries(new URLSearchParams(await readBody(req)))
        const authorization = req.headers.authorization
        state.tokenRequests.push({ ...(authorization ? { authorization } : {}), body })
        const expected = `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString("base64")}`
        if (authorization !== expected) return json(res, 401, { error: "invalid_client" })
        const grant = codes.get(body.code ?? "")
        codes.delete(body.code ?? "")
        if (body.grant_type !== "authorization_code" || !grant || grant.redirectUri !== body.redirect_uri)
          return json(res, 400, { error: "invalid_grant" })
        if (grant.challenge) {
          const verifier = body.code_verifier ?? ""
          const computed =
            grant.method === "S256" ? createHash("sha256").update(verifier).digest("base64url") : verifier
          if (computed !== grant.challenge) return json(res, 400, { error: "invalid_grant", error_description: "PKCE" })
        }
        const accessToken = randomBytes(16).toString("base64url")
        tokens.add(accessToken)
        return json(res, 200, {
          access_token: accessToken,
          token_type: "bearer",
          expires_in: 3600,
          scope: "read:user",
          refresh_token: "plain-refresh",
        })
      }
      if (req.method === "GET" && url.pathname === "/userinfo") {
        const authorization = req.headers.authorization
        state.userinfoRequests.push({ ...(authorization ? { authorization } : {}) })
        const token = /^Bearer (.+)$/.exec(authorization ?? "")?.[1]
        if (!token || !tokens.has(token)) return json(res, 401, { error: "invalid_token" })
        return json(res, 200, PLAIN_PROFILE)
      }
      json(res, 404, { error: "not_found" })
    })().catch((e: unknown) => json(res, 500, { error: String(e) }))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    ...state,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()))
        server.closeAllConnections()
      }),
  }
}

// ---------------------------------------------------------------------------------------------
// Setup

let op: OidcOp
let plain: PlainServer

beforeAll(async () => {
  ;[op, plain] = await Promise.all([startOidcProvider(), startPlainServer()])
})
afterAll(async () => {
  await Promise.all([op?.stop(), plain?.stop()])
})

type JwtCall = {
  token: Record<string, unknown>
  user?: { id?: string; name?: string | null; email?: string | null; image?: string | null }
  account?: Record<string, unknown> | null
  profile?: Record<string, unknown>
  trigger?: string
}

interface Setup {
  config: AuthConfig
  jwtCalls: JwtCall[]
  errors: Error[]
  browser: Browser
}

function oidcProvider(id: string, client: OpClient, extra: Partial<OAuthConfigBase> = {}): OAuthConfigBase {
  return {
    id,
    name: "Test OP",
    type: "oidc",
    issuer: op.issuer,
    clientId: client.client_id,
    ...(client.client_secret ? { clientSecret: client.client_secret } : {}),
    client: { token_endpoint_auth_method: client.token_endpoint_auth_method },
    authorization: { params: { scope: "openid email profile" } },
    ...extra,
  }
}

function plainProvider(extra: Partial<OAuthConfigBase> = {}): OAuthConfigBase {
  return {
    id: "plain",
    name: "Plain",
    type: "oauth",
    clientId: plain.clientId,
    clientSecret: plain.clientSecret,
    authorization: `${plain.url}/authorize`,
    token: `${plain.url}/token`,
    userinfo: `${plain.url}/userinfo`,
    profile: (p: Record<string, unknown>) => ({
      id: p.id as string,
      name: p.name as string,
      email: p.email as string,
      image: p.avatar as string,
    }),
    ...extra,
  }
}

/** A fresh config (fresh memo), a browser wired to it, and spies on the jwt callback and the error log. */
function setup(
  providers: OAuthConfigBase[],
  user: { login: string; password: string } | undefined = { login: OLIVIA.email, password: OLIVIA.password },
  consent: "approve" | "deny" = "approve",
): Setup {
  const jwtCalls: JwtCall[] = []
  const errors: Error[] = []
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    providers,
    logger: { error: (e: Error) => void errors.push(e), warn: () => {}, debug: () => {} },
    callbacks: {
      jwt: (params: JwtCall) => {
        jwtCalls.push(params)
        return params.token
      },
    },
  } as AuthConfig
  const browser = new Browser({
    apps: {
      // Gatehouse under /auth; any other path is "the app" (a page the user lands on).
      [ORIGIN]: (req) =>
        new URL(req.url).pathname.startsWith("/auth")
          ? Auth(req, config)
          : new Response("app page", { headers: { "content-type": "text/plain" } }),
    },
    ...(user ? { user } : {}),
    consent,
  })
  return { config, jwtCalls, errors, browser }
}

async function csrfToken(b: Browser): Promise<string> {
  const res = await b.request(`${ORIGIN}/auth/csrf`)
  return ((await res.json()) as { csrfToken: string }).csrfToken
}

function signinRequest(id: string, csrf: string, callbackUrl = APP_PAGE, query = ""): Request {
  return new Request(`${ORIGIN}/auth/signin/${id}${query}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken: csrf, callbackUrl }).toString(),
  })
}

/** POST /auth/signin/<id> and follow everything to the end. */
async function signIn(s: Setup, id: string, callbackUrl = APP_PAGE): Promise<FollowResult> {
  const csrf = await csrfToken(s.browser)
  return s.browser.follow(signinRequest(id, csrf, callbackUrl))
}

async function session(b: Browser): Promise<unknown> {
  const res = await b.request(`${ORIGIN}/auth/session`)
  expect(res.status).toBe(200)
  return res.json()
}

function trace(r: FollowResult): string {
  return r.steps.map(formatStep).join("\n")
}

function stepTo(r: FollowResult, path: string): Step {
  const step = r.steps.find((s) => new URL(s.url).origin === ORIGIN && new URL(s.url).pathname === path)
  expect(step, `a request to ${path} in\n${trace(r)}`).toBeDefined()
  return step!
}

/** The jwt call made at sign-in (the one with an account). */
function signInCall(s: Setup): JwtCall {
  const calls = s.jwtCalls.filter((c) => c.account)
  expect(calls).toHaveLength(1)
  return calls[0]!
}

function appCookie(b: Browser, name: string) {
  return b.cookies.get("localhost", name)
}

function decodeJwtPayload(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split(".")[1] ?? "", "base64url").toString("utf8")) as Record<string, unknown>
}

function expectSignedIn(r: FollowResult, s: Setup, landing = APP_PAGE): void {
  expect(r.url, trace(r)).toBe(landing)
  expect(r.status).toBe(200)
  expect(s.errors, s.errors.map((e) => `${(e as { type?: string }).type}: ${e.message}`).join("\n")).toEqual([])
  expect(appCookie(s.browser, "authjs.session-token"), "session cookie").toBeDefined()
}

// ---------------------------------------------------------------------------------------------
// The harness itself, without Gatehouse: a hand-built authorization request and code exchange.

describe("harness: the test OP driven directly", () => {
  it("runs login + consent, returns code/state/iss and exchanges the code (client_secret_basic, PKCE)", async () => {
    let callback: URL | undefined
    const b = new Browser({
      apps: { [ORIGIN]: (req) => ((callback = new URL(req.url)), new Response("ok")) },
      user: { login: OLIVIA.sub, password: OLIVIA.password },
    })
    const verifier = randomBytes(32).toString("base64url")
    const redirectUri = `${ORIGIN}/auth/callback/op`
    const authz = new URL(`${op.issuer}/auth`)
    for (const [k, v] of Object.entries({
      response_type: "code",
      client_id: op.clients.basic.client_id,
      redirect_uri: redirectUri,
      scope: "openid email profile",
      state: "s-1",
      nonce: "n-1",
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
    }))
      authz.searchParams.set(k, v)
    const r = await b.follow(authz.href, { initiator: ORIGIN })
    expect(r.steps.map((s) => s.kind)).toContain("interaction")
    expect(callback?.searchParams.get("state")).toBe("s-1")
    expect(callback?.searchParams.get("iss")).toBe(op.issuer)
    const res = await fetch(`${op.issuer}/token`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${op.clients.basic.client_id}:${op.clients.basic.client_secret}`).toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: callback?.searchParams.get("code") ?? "",
        redirect_uri: redirectUri,
        code_verifier: verifier,
      }),
    })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { id_token: string; token_type: string }
    expect(decodeJwtPayload(body.id_token)).toMatchObject({
      sub: OLIVIA.sub,
      email: OLIVIA.email,
      name: OLIVIA.name,
      picture: OLIVIA.picture,
      nonce: "n-1",
      aud: op.clients.basic.client_id,
      iss: op.issuer,
    })
  })

  it("answers response_mode=form_post with an auto-submitting form the browser posts cross-site", async () => {
    let posted: { form: URLSearchParams; headers: Headers } | undefined
    const b = new Browser({
      apps: {
        [ORIGIN]: async (req) => (
          (posted = { form: new URLSearchParams(await req.text()), headers: req.headers }), new Response("ok")
        ),
      },
      user: { login: OLIVIA.email, password: OLIVIA.password },
    })
    const authz = new URL(`${op.issuer}/auth`)
    for (const [k, v] of Object.entries({
      response_type: "code",
      response_mode: "form_post",
      client_id: op.clients.public.client_id,
      redirect_uri: `${ORIGIN}/auth/callback/op`,
      scope: "openid",
      state: "s-2",
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      code_challenge_method: "S256",
    }))
      authz.searchParams.set(k, v)
    const r = await b.follow(authz.href, { initiator: ORIGIN })
    const last = r.steps.at(-1)!
    expect(last).toMatchObject({
      kind: "form_post",
      method: "POST",
      url: `${ORIGIN}/auth/callback/op`,
      secFetchSite: "cross-site",
    })
    expect(posted?.form.get("state")).toBe("s-2")
    expect(posted?.form.get("iss")).toBe(op.issuer)
    expect(posted?.form.get("code")).toBeTruthy()
    expect(posted?.headers.get("origin")).toBe(op.issuer)
  })

  it("parses forms with entities, hidden fields and unchecked boxes", () => {
    const [f] = parseForms(
      `<form method="post" action="/x?a=1&amp;b=2"><input type="hidden" name="v" value="&lt;&#39;&quot;&gt;"><input type=checkbox name=c><input type="submit" name="go" value="1"></form>`,
      "http://127.0.0.1:1/page",
    )
    expect(f).toEqual({
      action: "http://127.0.0.1:1/x?a=1&b=2",
      method: "POST",
      attrs: { method: "post", action: "/x?a=1&b=2" },
      fields: [["v", `<'">`]],
    })
  })
})

// ---------------------------------------------------------------------------------------------
// OpenID Connect

describe("OIDC sign-in against a real OP", () => {
  it("client_secret_basic with the default checks (pkce): authorization URL, cookies, token request, session, jwt callback", async () => {
    const s = setup([oidcProvider("op-basic", op.clients.basic)])
    const before = Math.floor(Date.now() / 1000)
    const r = await signIn(s, "op-basic")
    expectSignedIn(r, s)

    // POST /signin/<id> -> 302 to the discovered authorization endpoint (docs/wire-format.md §2.6, §2.8).
    const start = r.steps[0]!
    expect(start).toMatchObject({ method: "POST", url: `${ORIGIN}/auth/signin/op-basic`, status: 302 })
    const authz = new URL(start.location!)
    expect(authz.origin + authz.pathname).toBe(`${op.issuer}/auth`)
    expect(authz.searchParams.get("response_type")).toBe("code")
    expect(authz.searchParams.get("client_id")).toBe(op.clients.basic.client_id)
    expect(authz.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/auth/callback/op-basic`)
    expect(authz.searchParams.get("scope")).toBe("openid email profile")
    expect(authz.searchParams.get("code_challenge_method")).toBe("S256")
    expect(authz.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(authz.searchParams.has("state")).toBe(false)
    expect(authz.searchParams.has("nonce")).toBe(false)

    // The OP came back with code + iss (RFC 9207) to the callback, which redirected to the callbackUrl.
    const cb = stepTo(r, "/auth/callback/op-basic")
    const cbUrl = new URL(cb.url)
    expect(cb.method).toBe("GET")
    expect(cbUrl.searchParams.get("iss")).toBe(op.issuer)
    expect(cbUrl.searchParams.get("code")).toBeTruthy()
    expect(cb.sentCookies).toEqual(expect.arrayContaining(["authjs.pkce.code_verifier", "authjs.callback-url"]))
    expect(cb).toMatchObject({ status: 302, location: APP_PAGE })
    expect(appCookie(s.browser, "authjs.pkce.code_verifier"), "the used PKCE cookie is cleared").toBeUndefined()

    // Token request: Basic auth, no client credentials in the body, the verifier matching the challenge.
    expect(op.tokenRequests.at(-1)).toBeDefined()
    const tr = op.tokenRequests.at(-1)!
    expect(tr.status).toBe(200)
    const basic = `Basic ${Buffer.from(`${op.clients.basic.client_id}:${op.clients.basic.client_secret}`).toString("base64")}`
    expect(tr.authorization).toBe(basic)
    expect(tr.body).not.toHaveProperty("client_secret")
    expect(tr.body).not.toHaveProperty("client_id")
    expect(tr.body).toMatchObject({
      grant_type: "authorization_code",
      code: cbUrl.searchParams.get("code"),
      redirect_uri: `${ORIGIN}/auth/callback/op-basic`,
    })
    expect(createHash("sha256").update(String(tr.body.code_verifier)).digest("base64url")).toBe(
      authz.searchParams.get("code_challenge"),
    )

    // Session (docs/wire-format.md §2.2).
    const sess = (await session(s.browser)) as { user: unknown; expires: string }
    expect(sess.user).toEqual({ name: OLIVIA.name, email: OLIVIA.email, image: OLIVIA.picture })
    expect(Date.parse(sess.expires)).toBeGreaterThan(Date.now())

    // jwt callback at sign-in: user, account (token response + provider/type/providerAccountId/expires_at), profile =
    // ID token claims (docs/wire-format.md §2.8, §12).
    const call = signInCall(s)
    expect(call.trigger).toBe("signIn")
    expect(call.user).toEqual({
      id: expect.stringMatching(UUID),
      name: OLIVIA.name,
      email: OLIVIA.email,
      image: OLIVIA.picture,
    })
    expect(call.token).toMatchObject({
      name: OLIVIA.name,
      email: OLIVIA.email,
      picture: OLIVIA.picture,
      sub: call.user!.id,
    })
    const account = call.account!
    expect(account).toMatchObject({
      provider: "op-basic",
      type: "oidc",
      providerAccountId: OLIVIA.sub,
      access_token: expect.any(String),
      id_token: expect.any(String),
      token_type: "bearer",
      scope: "openid email profile",
      expires_in: 3600,
    })
    expect(account.expires_at).toBeGreaterThanOrEqual(before + 3600)
    expect(account.expires_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 3600)
    const idClaims = decodeJwtPayload(account.id_token as string)
    expect(call.profile).toMatchObject({
      sub: OLIVIA.sub,
      email: OLIVIA.email,
      email_verified: true,
      name: OLIVIA.name,
      picture: OLIVIA.picture,
      iss: op.issuer,
      aud: op.clients.basic.client_id,
    })
    expect(call.profile).toMatchObject(idClaims)
  })

  it("client_secret_post: credentials in the body, no Authorization header; e-mail lowercased", async () => {
    const s = setup([oidcProvider("op-post", op.clients.post)], { login: MIXED.sub, password: MIXED.password })
    const r = await signIn(s, "op-post")
    expectSignedIn(r, s)

    const tr = op.tokenRequests.at(-1)!
    expect(tr.status).toBe(200)
    expect(tr.authorization).toBeUndefined()
    expect(tr.body).toMatchObject({
      client_id: op.clients.post.client_id,
      client_secret: op.clients.post.client_secret,
      redirect_uri: `${ORIGIN}/auth/callback/op-post`,
    })

    expect(((await session(s.browser)) as { user: unknown }).user).toEqual({
      name: MIXED.name,
      email: MIXED.email.toLowerCase(),
      image: MIXED.picture,
    })
    const call = signInCall(s)
    expect(call.account).toMatchObject({ provider: "op-post", type: "oidc", providerAccountId: MIXED.sub })
    expect(call.profile).toMatchObject({ sub: MIXED.sub, email: MIXED.email, email_verified: false })
  })

  it("client_secret_jwt: an HS256 client assertion signed with the secret, no secret on the wire", async () => {
    if (REFERENCE) return
    const s = setup([oidcProvider("op-jwt", op.clients.jwt)])
    const r = await signIn(s, "op-jwt")
    expectSignedIn(r, s)
    const tr = op.tokenRequests.at(-1)!
    expect(tr.status).toBe(200)
    expect(tr.authorization).toBeUndefined()
    expect(tr.body).toMatchObject({ client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer" })
    expect(JSON.stringify(tr.body)).not.toContain(op.clients.jwt.client_secret!)
    const assertion = decodeJwtPayload(String((tr.body as Record<string, unknown>).client_assertion))
    expect(assertion).toMatchObject({ iss: op.clients.jwt.client_id, sub: op.clients.jwt.client_id })
  })

  it("public client (token_endpoint_auth_method none) with PKCE", async () => {
    const s = setup([oidcProvider("op-public", op.clients.public)])
    const r = await signIn(s, "op-public")
    expectSignedIn(r, s)

    const authz = new URL(r.steps[0]!.location!)
    expect(authz.searchParams.get("client_id")).toBe(op.clients.public.client_id)
    expect(authz.searchParams.get("code_challenge_method")).toBe("S256")
    const tr = op.tokenRequests.at(-1)!
    expect(tr.status).toBe(200)
    expect(tr.authorization).toBeUndefined()
    expect(tr.body).toMatchObject({ client_id: op.clients.public.client_id })
    expect(tr.body).not.toHaveProperty("client_secret")
    expect(createHash("sha256").update(String(tr.body.code_verifier)).digest("base64url")).toBe(
      authz.searchParams.get("code_challenge"),
    )

    expect(((await session(s.browser)) as { user: unknown }).user).toEqual({
      name: OLIVIA.name,
      email: OLIVIA.email,
      image: OLIVIA.picture,
    })
    expect(signInCall(s).account).toMatchObject({
      provider: "op-public",
      type: "oidc",
      providerAccountId: OLIVIA.sub,
      id_token: expect.any(String),
    })
  })

  it("idToken: false takes the profile from the OP's userinfo endpoint (Bearer access token)", async () => {
    const s = setup([oidcProvider("op-basic", op.clients.basic, { idToken: false })])
    const r = await signIn(s, "op-basic")
    expectSignedIn(r, s)
    const call = signInCall(s)
    const userinfo = op.requests.filter((q) => q.path === "/me").at(-1)
    expect(userinfo?.headers.authorization).toBe(`Bearer ${call.account!.access_token as string}`)
    const { password: _password, ...claims } = OLIVIA
    expect(call.profile).toEqual(claims) // the userinfo response, not the ID token (no iss/aud/exp)
    expect(call.account).toMatchObject({
      provider: "op-basic",
      type: "oidc",
      providerAccountId: OLIVIA.sub,
      id_token: expect.any(String),
    })
    expect(((await session(s.browser)) as { user: unknown }).user).toEqual({
      name: OLIVIA.name,
      email: OLIVIA.email,
      image: OLIVIA.picture,
    })
  })

  it("checks pkce + state + nonce: sealed cookies, nonce in the ID token, cookies cleared", async () => {
    const s = setup([oidcProvider("op-nonce", op.clients.basic, { checks: ["pkce", "state", "nonce"] })])
    const csrf = await csrfToken(s.browser)
    const start = await s.browser.request(signinRequest("op-nonce", csrf))
    expect(start.status).toBe(302)
    const authz = new URL(start.headers.get("location")!)
    const state = authz.searchParams.get("state")
    const nonce = authz.searchParams.get("nonce")
    expect(state).toMatch(/^[\w-]+\.\.[\w-]+\.[\w-]+\.[\w-]+$/) // JWE: empty key part (docs/wire-format.md §3.3)
    expect(nonce).toMatch(/^[\w-]{20,}$/)
    expect(authz.searchParams.get("code_challenge")).toBeTruthy()

    // Each check cookie: sealed (JWE), HttpOnly, SameSite=Lax, Path=/, 15 minutes (docs/wire-format.md §3.1, §3.3).
    const set = new Map(start.headers.getSetCookie().map((c) => [c.slice(0, c.indexOf("=")), c]))
    for (const name of ["authjs.state", "authjs.pkce.code_verifier", "authjs.nonce"]) {
      const raw = set.get(name)
      expect(raw, name).toBeDefined()
      const value = decodeURIComponent(raw!.slice(name.length + 1, raw!.indexOf(";")))
      expect(value, name).toMatch(/^[\w-]+\.\.[\w-]+\.[\w-]+\.[\w-]+$/)
      expect(value).not.toContain(nonce!)
      expect(raw).toMatch(/;\s*HttpOnly/i)
      expect(raw).toMatch(/;\s*SameSite=Lax/i)
      expect(raw).toMatch(/;\s*Path=\//i)
      const expires = /;\s*Expires=([^;]+)/i.exec(raw!)?.[1]
      expect(Math.abs(Date.parse(expires!) - (Date.now() + 900_000))).toBeLessThan(5_000)
    }

    const r = await s.browser.follow(start.headers.get("location")!, { initiator: ORIGIN })
    expectSignedIn(r, s)
    const cb = new URL(stepTo(r, "/auth/callback/op-nonce").url)
    expect(cb.searchParams.get("state")).toBe(state)
    expect(cb.searchParams.get("iss")).toBe(op.issuer)
    const call = signInCall(s)
    expect(call.profile?.nonce).toBe(nonce)
    expect(decodeJwtPayload(call.account!.id_token as string).nonce).toBe(nonce)
    for (const name of ["authjs.state", "authjs.pkce.code_verifier", "authjs.nonce"])
      expect(appCookie(s.browser, name), `${name} cleared`).toBeUndefined()
    expect(((await session(s.browser)) as { user: unknown }).user).toEqual({
      name: OLIVIA.name,
      email: OLIVIA.email,
      image: OLIVIA.picture,
    })
  })

  it("nonce check: an ID token whose nonce is not the cookie's is rejected (no session)", async () => {
    const provider = oidcProvider("op-nonce", op.clients.basic, { checks: ["nonce"] })
    const victim = setup([provider])
    const other = setup([provider])
    const startA = await victim.browser.request(signinRequest("op-nonce", await csrfToken(victim.browser)))
    const startB = await other.browser.request(signinRequest("op-nonce", await csrfToken(other.browser)))
    expect(new URL(startA.headers.get("location")!).searchParams.get("nonce")).not.toBe(
      new URL(startB.headers.get("location")!).searchParams.get("nonce"),
    )
    // Swap in the other browser's (valid, same-provider) nonce cookie.
    const foreign = appCookie(other.browser, "authjs.nonce")!
    victim.browser.cookies.set("localhost", "authjs.nonce", foreign.value, {
      path: foreign.path,
      sameSite: foreign.sameSite,
    })

    const r = await victim.browser.follow(startA.headers.get("location")!, { initiator: ORIGIN })
    const cb = stepTo(r, "/auth/callback/op-nonce")
    expect(cb.status).toBe(302)
    // Auth.js: the oauth4webapi error becomes CallbackRouteError -> Configuration. Gatehouse reports ID
    // token validation failures as OAuthCallbackError (docs/wire-format.md §6.2, docs/security.md OA-11/OA-15).
    expect(cb.location).toBe(
      REFERENCE ? `${ORIGIN}/auth/error?error=Configuration` : `${ORIGIN}/auth/signin?error=OAuthCallbackError`,
    )
    expect(appCookie(victim.browser, "authjs.session-token")).toBeUndefined()
    expect(await session(victim.browser)).toBeNull()
    expect(victim.jwtCalls.filter((c) => c.account)).toHaveLength(0)
  })

  it("response_mode=form_post (checks state + nonce, as Auth.js's Apple provider): the cross-site POST carries the SameSite=None check cookies", async () => {
    const s = setup([
      oidcProvider("op-form-post", op.clients.basic, {
        checks: ["state", "nonce"],
        authorization: { params: { scope: "openid email profile", response_mode: "form_post" } },
      }),
    ])
    const csrf = await csrfToken(s.browser)
    const start = await s.browser.request(signinRequest("op-form-post", csrf))
    expect(start.status).toBe(302)
    const authz = new URL(start.headers.get("location")!)
    expect(authz.searchParams.get("response_mode")).toBe("form_post")
    const set = new Map(start.headers.getSetCookie().map((c) => [c.slice(0, c.indexOf("=")), c]))
    for (const name of ["authjs.state", "authjs.nonce"]) {
      expect(set.get(name), name).toMatch(/;\s*SameSite=None/i)
      expect(set.get(name), name).toMatch(/;\s*Secure/i)
    }

    const r = await s.browser.follow(start.headers.get("location")!, { initiator: ORIGIN })
    const cb = stepTo(r, "/auth/callback/op-form-post")
    expect(cb).toMatchObject({ kind: "form_post", method: "POST", secFetchSite: "cross-site" })
    expect(cb.form).toMatchObject({ code: expect.any(String), state: authz.searchParams.get("state"), iss: op.issuer })
    // A real browser sends only the SameSite=None cookies on this cross-site POST. Auth.js keeps the
    // callback-url cookie Lax, so its sign-in ends on the base URL (docs/wire-format.md §2.11); Gatehouse makes every
    // cookie the callback needs SameSite=None under form_post, so the user lands on the callbackUrl.
    expect(cb.sentCookies).toEqual(expect.arrayContaining(["authjs.state", "authjs.nonce"]))
    const landing = REFERENCE ? `${ORIGIN}/` : APP_PAGE
    if (REFERENCE) expect(cb.sentCookies).not.toContain("authjs.callback-url")
    else expect(cb.sentCookies).toContain("authjs.callback-url")
    expect(cb.status).toBe(302)
    expect(new URL(cb.location!).href).toBe(new URL(landing).href)
    expectSignedIn(r, s, landing)

    expect(((await session(s.browser)) as { user: unknown }).user).toEqual({
      name: OLIVIA.name,
      email: OLIVIA.email,
      image: OLIVIA.picture,
    })
    const call = signInCall(s)
    expect(call.account).toMatchObject({ provider: "op-form-post", type: "oidc", providerAccountId: OLIVIA.sub })
    expect(call.profile?.nonce).toBe(authz.searchParams.get("nonce"))
    for (const name of ["authjs.state", "authjs.nonce"])
      expect(appCookie(s.browser, name), `${name} cleared`).toBeUndefined()
  })

  it("OA-22 response_mode=form_post with the default pkce check: Auth.js loses the Lax PKCE cookie; Gatehouse's SameSite=None one survives the cross-site POST", async () => {
    const s = setup([
      oidcProvider("op-form-post", op.clients.basic, {
        authorization: { params: { scope: "openid email profile", response_mode: "form_post" } },
      }),
    ])
    const r = await signIn(s, "op-form-post")
    const cb = stepTo(r, "/auth/callback/op-form-post")
    expect(cb).toMatchObject({ kind: "form_post", method: "POST" })
    if (REFERENCE) {
      expect(cb.sentCookies).not.toContain("authjs.pkce.code_verifier")
      expect(cb.location).toBe(`${ORIGIN}/auth/error?error=Configuration`)
      expect(await session(s.browser)).toBeNull()
    } else {
      expect(cb.sentCookies).toContain("authjs.pkce.code_verifier")
      expect(new URL(cb.location!).href).toBe(new URL(APP_PAGE).href)
      expect(((await session(s.browser)) as { user: { email: string } }).user.email).toBe(OLIVIA.email)
    }
  })

  it("the user denies consent at the OP: ?error=access_denied ends the sign-in without a session", async () => {
    const s = setup(
      [oidcProvider("op-basic", op.clients.basic)],
      { login: OLIVIA.email, password: OLIVIA.password },
      "deny",
    )
    const r = await signIn(s, "op-basic")
    const cb = stepTo(r, "/auth/callback/op-basic")
    expect(new URL(cb.url).searchParams.get("error")).toBe("access_denied")
    expect(new URL(cb.url).searchParams.get("iss")).toBe(op.issuer)
    // Auth.js: every provider error is OAuthCallbackError. Gatehouse maps access_denied to
    // AccessDenied (docs/wire-format.md §6.2, docs/security.md OA-10).
    expect(cb.location).toBe(
      REFERENCE
        ? `${ORIGIN}/auth/signin?error=OAuthCallbackError`
        : `${ORIGIN}/auth/error?error=AccessDenied&code=access_denied`,
    )
    expect(await session(s.browser)).toBeNull()
  })
})

// ---------------------------------------------------------------------------------------------
// Plain OAuth 2

describe("plain OAuth 2 sign-in (no OIDC)", () => {
  it("authorize -> code + state -> token (Basic, PKCE) -> userinfo (Bearer) -> session", async () => {
    const s = setup([plainProvider({ checks: ["pkce", "state"] })])
    const before = Math.floor(Date.now() / 1000)
    const r = await signIn(s, "plain")
    expectSignedIn(r, s)

    const authz = new URL(r.steps[0]!.location!)
    expect(authz.origin + authz.pathname).toBe(`${plain.url}/authorize`)
    const q = plain.authorizationRequests.at(-1)!
    expect(q.get("response_type")).toBe("code")
    expect(q.get("client_id")).toBe(plain.clientId)
    expect(q.get("redirect_uri")).toBe(`${ORIGIN}/auth/callback/plain`)
    expect(q.get("scope")).toBe("openid profile email") // added when the URL has none (docs/wire-format.md §2.8)
    expect(q.get("code_challenge_method")).toBe("S256")
    expect(q.get("state")).toBeTruthy()

    const tr = plain.tokenRequests.at(-1)!
    expect(tr.authorization).toMatch(/^Basic /)
    expect(tr.body).toMatchObject({
      grant_type: "authorization_code",
      redirect_uri: `${ORIGIN}/auth/callback/plain`,
      code_verifier: expect.any(String),
    })
    const ui = plain.userinfoRequests.at(-1)!
    expect(ui.authorization).toMatch(/^Bearer .+/)

    expect(((await session(s.browser)) as { user: unknown }).user).toEqual({
      name: PLAIN_PROFILE.name,
      email: PLAIN_PROFILE.email.toLowerCase(),
      image: PLAIN_PROFILE.avatar,
    })
    const call = signInCall(s)
    expect(call.user).toEqual({
      id: expect.stringMatching(UUID),
      name: PLAIN_PROFILE.name,
      email: PLAIN_PROFILE.email.toLowerCase(),
      image: PLAIN_PROFILE.avatar,
    })
    expect(call.account).toMatchObject({
      provider: "plain",
      type: "oauth",
      providerAccountId: PLAIN_PROFILE.id,
      access_token: ui.authorization!.slice(7),
      token_type: "bearer",
      refresh_token: "plain-refresh",
      scope: "read:user",
    })
    expect(call.account!.expires_at).toBeGreaterThanOrEqual(before + 3600)
    expect(call.account).not.toHaveProperty("id_token")
    expect(call.profile).toEqual(PLAIN_PROFILE)
    for (const name of ["authjs.state", "authjs.pkce.code_verifier"])
      expect(appCookie(s.browser, name), `${name} cleared`).toBeUndefined()
  })

  it("with the default checks (pkce only) and authorization given as {url, params}", async () => {
    const s = setup([
      plainProvider({ authorization: { url: `${plain.url}/authorize`, params: { scope: "read:user" } } }),
    ])
    const r = await signIn(s, "plain", "/settings")
    expectSignedIn(r, s, `${ORIGIN}/settings`)
    const q = plain.authorizationRequests.at(-1)!
    expect(q.get("scope")).toBe("read:user")
    expect(q.has("state")).toBe(false)
    expect(q.get("code_challenge")).toBeTruthy()
    expect(signInCall(s).account).toMatchObject({
      provider: "plain",
      type: "oauth",
      providerAccountId: PLAIN_PROFILE.id,
    })
  })
})
