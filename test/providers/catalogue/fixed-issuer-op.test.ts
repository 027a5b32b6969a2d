// Provider catalogue: the OIDC providers with a FIXED issuer, each through one full flow against oidc-provider
// (test/support/oidc-op.ts) configured AS that provider's real issuer (https://accounts.google.com, https://slack.com,
// https://id.twitch.tv/oauth2, ...): discovery, ID token `iss`, the authorization response `iss` and every endpoint URL
// in the metadata are the real https ones. The provider config is the catalogue's, with only clientId / clientSecret
// (and a tenant issuer for Entra ID, a region issuer for Battle.net, which have no single fixed issuer).
//
// Routing (nothing leaves 127.0.0.1; a fetch guard fails the test otherwise):
// - server side: `[customFetch]` sends https://<issuer host>/... to the local OP, same path and query (header
//   x-test-original-url as in provider-kit); graph.microsoft.com (Entra's photo) is answered in the test, after the
//   bearer token was checked at the OP's userinfo endpoint;
// - browser leg: the Browser (test/support/browser.ts) serves https://<issuer host> as an in-process app that forwards
//   to the local OP; the OP treats every request as one for its issuer's origin (X-Forwarded-*, `proxy`) and serves
//   under the issuer's path (its mount path), so its redirects and cookies stay on the real host.
//
// Provider quirks emulated at that front (not in the OP, not in the provider config):
// - apple: Apple issues an ID token for `scope=name email` without `openid`; oidc-provider issues one only for
//   `openid`, so the front adds `openid` to the authorization request it forwards. Apple posts the user's name once,
//   as the `user` JSON field of the form_post; the front adds that field to oidc-provider's form_post page.
//
// Attacks, once per family (ID-token profile with client_secret_basic, form_post + client_secret_post, HS256 ID
// tokens, userinfo profile with `idToken: false`, issuer with a path): an OP configured as another issuer behind the
// real host (discovery refused), a mix-up after discovery (authorization response `iss` of the other issuer), and the
// same with the response `iss` forged to the real issuer (the ID token's `iss` still refuses it). No session cookie.
// Client authentication is asserted on the wire (oidc-op's tokenRequests): oidc-provider itself accepts
// client_secret_basic and client_secret_post interchangeably for a client registered with either.
//
// Not covered here, and why:
// - microsoft-entra-id / azure-ad with the default multi-tenant `common` issuer: its discovery document names the
//   template issuer `https://login.microsoftonline.com/{tenantid}/v2.0` while ID tokens carry the tenant's; one
//   oidc-provider instance has a single issuer, so it cannot be that OP. Both are covered here with a tenant issuer;
//   the multi-tenant issuers run against a local login.microsoftonline.com in test/providers/entra-multitenant.test.ts.
// - Issuer-required providers (keycloak, okta, azure-ad-b2c, passage, frontegg, ...) have no fixed issuer; they run
//   against oidc-provider in oidc.test.ts / enterprise.test.ts.
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { Auth } from "../../../src/index.js"
import { clearJwksCache } from "../../../src/protocols/jws.js"
import { clearDiscoveryCache } from "../../../src/protocols/oauth2.js"
import type { OAuthConfigBase } from "../../../src/providers/types.js"
import { customFetch } from "../../../src/symbols.js"
import Apple from "../../../src/providers/apple.js"
import AzureAD from "../../../src/providers/azure-ad.js"
import BankIDNorway from "../../../src/providers/bankid-no.js"
import BattleNet from "../../../src/providers/battlenet.js"
import Descope from "../../../src/providers/descope.js"
import Google from "../../../src/providers/google.js"
import Huggingface from "../../../src/providers/huggingface.js"
import LINE from "../../../src/providers/line.js"
import LinkedIn from "../../../src/providers/linkedin.js"
import MicrosoftEntraID from "../../../src/providers/microsoft-entra-id.js"
import Roblox from "../../../src/providers/roblox.js"
import Salesforce from "../../../src/providers/salesforce.js"
import SimpleLogin from "../../../src/providers/simplelogin.js"
import Slack from "../../../src/providers/slack.js"
import Twitch from "../../../src/providers/twitch.js"
import Vipps from "../../../src/providers/vipps.js"
import { ORIGIN } from "../../support/flow-kit.js"
import { Browser, formatStep, type FollowResult } from "../../support/browser.js"
import { startOidcProvider, type OidcOp, type OpExtraClient, type OpUser } from "../../support/oidc-op.js"
import {
  APP_PAGE,
  ERROR_PAGE,
  ORIGINAL_URL_HEADER,
  SIGNIN_ERROR,
  basicCredentials,
  installFetchGuard,
  logged,
  setup,
  type FetchGuard,
} from "../../support/provider-kit.js"

type Factory = (options?: Record<string, unknown>) => OAuthConfigBase
type Check = "pkce" | "state" | "nonce"
interface User {
  name: string | null
  email: string | null
  image: string | null
}
interface Row {
  id: string
  factory: Factory
  /** The issuer the provider declares (or, for the tenant / region providers, the one given). */
  issuer: string
  /** Options besides clientId and clientSecret. */
  options?: Record<string, unknown>
  auth: "client_secret_basic" | "client_secret_post"
  alg?: "HS256"
  /** The client registered signed UserInfo answers with this alg (BankID). */
  userinfoAlg?: "RS256"
  scope: string
  checks: Check[]
  /** false: the profile comes from userinfo (`idToken: false`). */
  idToken: boolean
  /** Scope -> claims the OP releases besides openid/email/profile (as the real provider does). */
  claims?: Record<string, string[] | null>
  claimsParameter?: boolean
  user: User
}

const TENANT = "9188040d-6c67-4c5b-b112-36a304b66dad"
const ADA: OpUser = {
  sub: "fixed-user-1",
  password: "analytical engine",
  name: "Ada Lovelace",
  given_name: "Ada",
  family_name: "Lovelace",
  email: "ada@fixed.example",
  email_verified: true,
  picture: "https://img.fixed.example/ada.png",
  preferred_username: "ada_l",
  nickname: "ada",
  avatar_url: "https://img.fixed.example/ada-avatar.png",
  battle_tag: "Ada#1815",
}
const full: User = { name: ADA.name, email: ADA.email, image: ADA.picture }
const APPLE_USER = { name: { firstName: "Augusta", lastName: "King" }, email: ADA.email }
/** Entra's photo, as Graph would serve it (a PNG signature is enough here). */
const PHOTO = Buffer.from("89504e470d0a1a0a", "hex")
const photoUser: User = { ...full, image: `data:image/png;base64,${PHOTO.toString("base64")}` }

const ROWS: Row[] = [
  {
    id: "google",
    factory: Google as Factory,
    issuer: "https://accounts.google.com",
    auth: "client_secret_basic",
    scope: "openid email profile",
    checks: ["pkce"],
    idToken: true,
    user: full,
  },
  {
    id: "apple",
    factory: Apple as Factory,
    issuer: "https://appleid.apple.com",
    auth: "client_secret_post",
    scope: "name email",
    checks: ["nonce", "state"],
    idToken: true,
    user: { name: "Augusta King", email: ADA.email, image: null },
  },
  {
    id: "line",
    factory: LINE as Factory,
    issuer: "https://access.line.me",
    auth: "client_secret_basic",
    alg: "HS256",
    scope: "openid profile email",
    checks: ["state"],
    idToken: true,
    user: full,
  },
  {
    id: "linkedin",
    factory: LinkedIn as Factory,
    issuer: "https://www.linkedin.com/oauth",
    auth: "client_secret_post",
    scope: "openid profile email",
    checks: ["state"],
    idToken: true,
    user: full,
  },
  {
    id: "slack",
    factory: Slack as Factory,
    issuer: "https://slack.com",
    auth: "client_secret_basic",
    scope: "openid profile email",
    checks: ["nonce"],
    idToken: true,
    user: full,
  },
  {
    id: "twitch",
    factory: Twitch as Factory,
    issuer: "https://id.twitch.tv/oauth2",
    auth: "client_secret_post",
    scope: "openid user:read:email",
    checks: ["pkce"],
    idToken: true,
    claims: { "user:read:email": [], preferred_username: null },
    claimsParameter: true,
    user: { name: ADA.preferred_username as string, email: ADA.email, image: ADA.picture },
  },
  {
    id: "salesforce",
    factory: Salesforce as Factory,
    issuer: "https://login.salesforce.com",
    auth: "client_secret_basic",
    scope: "openid profile email",
    checks: ["pkce", "state", "nonce"],
    idToken: false,
    user: full,
  },
  {
    id: "roblox",
    factory: Roblox as Factory,
    issuer: "https://apis.roblox.com/oauth/",
    auth: "client_secret_basic",
    scope: "openid profile",
    checks: ["pkce", "state"],
    idToken: true,
    user: { name: ADA.name, email: null, image: ADA.picture },
  },
  {
    id: "huggingface",
    factory: Huggingface as Factory,
    issuer: "https://huggingface.co",
    auth: "client_secret_basic",
    scope: "openid profile email",
    checks: ["state", "pkce"],
    idToken: true,
    user: full,
  },
  {
    id: "simplelogin",
    factory: SimpleLogin as Factory,
    issuer: "https://app.simplelogin.io",
    auth: "client_secret_basic",
    scope: "openid profile email",
    checks: ["pkce"],
    idToken: true,
    claims: { profile: ["name", "avatar_url"] },
    user: { ...full, image: ADA.avatar_url as string },
  },
  {
    id: "vipps",
    factory: Vipps as Factory,
    issuer: "https://api.vipps.no/access-management-1.0/access/",
    auth: "client_secret_basic",
    scope: "openid name email",
    checks: ["pkce", "state", "nonce"],
    idToken: false,
    claims: { name: ["given_name", "family_name"] },
    user: { ...full, image: null },
  },
  {
    id: "bankid-no",
    factory: BankIDNorway as Factory,
    issuer: "https://auth.bankid.no/auth/realms/prod",
    auth: "client_secret_post",
    scope: "openid profile email",
    checks: ["pkce", "state", "nonce"],
    idToken: false,
    userinfoAlg: "RS256",
    user: { ...full, image: null },
  },
  {
    id: "battlenet",
    factory: BattleNet as Factory,
    issuer: "https://oauth.battle.net",
    options: { issuer: "https://oauth.battle.net" },
    auth: "client_secret_basic",
    scope: "openid",
    checks: ["pkce"],
    idToken: true,
    claims: { openid: ["sub", "battle_tag"] },
    user: { name: ADA.battle_tag as string, email: null, image: null },
  },
  {
    id: "descope",
    factory: Descope as Factory,
    issuer: "https://api.descope.com/P2fixedIssuerProject",
    auth: "client_secret_basic",
    scope: "openid profile email",
    checks: ["pkce", "state"],
    idToken: true,
    user: full,
  },
  {
    id: "microsoft-entra-id",
    factory: MicrosoftEntraID as Factory,
    issuer: `https://login.microsoftonline.com/${TENANT}/v2.0`,
    options: { issuer: `https://login.microsoftonline.com/${TENANT}/v2.0` },
    auth: "client_secret_basic",
    scope: "openid profile email User.Read",
    checks: ["pkce"],
    idToken: true,
    user: photoUser,
  },
  {
    id: "azure-ad",
    factory: AzureAD as Factory,
    issuer: `https://login.microsoftonline.com/${TENANT}/v2.0`,
    options: { issuer: `https://login.microsoftonline.com/${TENANT}/v2.0` },
    auth: "client_secret_basic",
    scope: "openid profile email User.Read",
    checks: ["pkce"],
    idToken: true,
    user: photoUser,
  },
]
const row = (id: string) => ROWS.find((r) => r.id === id)!
/** Descope's client id is its project id, which names the issuer. */
const clientIdOf = (r: Row) => (r.id === "descope" ? "P2fixedIssuerProject" : `${r.id}-client`)
const mountOf = (issuer: string) => new URL(issuer).pathname.replace(/\/$/, "")
const GRAPH = "https://graph.microsoft.com"

// ---------------------------------------------------------------------------------------------
// Routing: real https origins -> local OPs

/** Real origin -> the local OP now playing it (a test may swap it). */
const routes = new Map<string, OidcOp>()
/** Every URL the library fetched through customFetch (before routing). */
const serverCalls: string[] = []
let guard: FetchGuard
const blocked: string[] = []
const started: OidcOp[] = []

beforeEach(() => {
  guard = installFetchGuard(blocked)
  clearDiscoveryCache()
  // Every test's OPs have fresh keys behind the same jwks_uri (Gatehouse refetches for an unknown kid after 30 s only).
  clearJwksCache()
})
afterEach(async () => {
  guard.restore()
  await Promise.all(started.splice(0).map((op) => op.stop()))
  routes.clear()
  serverCalls.length = 0
  expect(blocked.splice(0), "no request left 127.0.0.1").toEqual([])
})

function local(op: OidcOp, url: URL): string {
  return `${op.url}${url.pathname}${url.search}`
}

/** What a reverse proxy in front of the OP adds: the URL and host the client meant. */
function forwarded(headers: Headers, url: URL): Headers {
  headers.set(ORIGINAL_URL_HEADER, url.href)
  headers.set("x-forwarded-proto", "https")
  headers.set("x-forwarded-host", url.host)
  return headers
}

const serverFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
  const url = new URL(input instanceof Request ? input.url : String(input))
  serverCalls.push(url.href)
  const headers = new Headers(input instanceof Request ? input.headers : undefined)
  for (const [k, v] of new Headers(init?.headers)) headers.set(k, v)
  if (url.origin === GRAPH) return graph(url, headers)
  const op = routes.get(url.origin)
  if (!op) throw new TypeError(`not routed: ${url.href}`)
  forwarded(headers, url)
  return globalThis.fetch(local(op, url), { ...init, headers })
}) as typeof fetch

/** Graph's photo endpoint: the bearer token must be one the OP issued (its userinfo accepts it). */
async function graph(url: URL, headers: Headers): Promise<Response> {
  const op = routes.get("https://login.microsoftonline.com")!
  const me = await globalThis.fetch(`${op.url}${mountOf(op.issuer)}/me`, {
    headers: { authorization: headers.get("authorization") ?? "" },
  })
  if (url.pathname !== "/v1.0/me/photos/48x48/$value" || me.status !== 200) return new Response(null, { status: 401 })
  return new Response(PHOTO, { headers: { "content-type": "image/png" } })
}

interface Front {
  /** Changes the authorization request before the OP sees it. */
  request?(url: URL): void
  /** Changes an OP redirect back to the app (query response mode). */
  location?(location: URL): void
  /** Changes an OP HTML page (form_post). */
  html?(html: string): string
}

/** Apple's behaviour that oidc-provider lacks (see the file header). */
const APPLE_FRONT: Front = {
  request(url) {
    if (url.pathname === "/auth") url.searchParams.set("scope", `openid ${url.searchParams.get("scope")}`)
  },
  html: (html) =>
    html.replace(
      /(<form[^>]*action="http:\/\/localhost:3000\/auth\/callback\/apple"[^>]*>)/,
      `$1<input type="hidden" name="user" value="${JSON.stringify(APPLE_USER).replace(/"/g, "&quot;")}"/>`,
    ),
}

/** The browser's view of https://<issuer host>: forwarded to whichever OP plays it now. */
function frontOf(origin: string, front: Front = {}) {
  return async (req: Request): Promise<Response> => {
    const op = routes.get(origin)
    if (!op) throw new Error(`browser: no OP plays ${origin}`)
    const url = new URL(req.url)
    front.request?.(url)
    const body = req.method === "GET" || req.method === "HEAD" ? undefined : await req.text()
    const res = await globalThis.fetch(local(op, url), {
      method: req.method,
      headers: forwarded(new Headers(req.headers), url),
      ...(body !== undefined ? { body } : {}),
      redirect: "manual",
    })
    const location = res.headers.get("location")
    if (front.location && location?.startsWith(`${ORIGIN}/`)) {
      const changed = new URL(location)
      front.location(changed)
      const headers = new Headers(res.headers)
      headers.set("location", changed.href)
      return new Response(null, { status: res.status, headers })
    }
    if (front.html && (res.headers.get("content-type") ?? "").includes("text/html")) {
      const headers = new Headers(res.headers)
      headers.delete("content-length")
      return new Response(front.html(await res.text()), { status: res.status, headers })
    }
    return res
  }
}

// ---------------------------------------------------------------------------------------------
// OPs and the flow

function clientOf(r: Row, secret: string): OpExtraClient {
  return {
    client_id: clientIdOf(r),
    client_secret: secret,
    token_endpoint_auth_method: r.auth,
    ...(r.alg ? { id_token_signed_response_alg: r.alg } : {}),
    ...(r.userinfoAlg ? { userinfo_signed_response_alg: r.userinfoAlg } : {}),
  }
}

/** An OP playing `issuer` for `r`'s client, routed from `r`'s real origin. */
async function opFor(r: Row, issuer: string, secret: string): Promise<OidcOp> {
  const op = await startOidcProvider({
    issuer,
    providerIds: [r.id],
    users: [ADA],
    clients: [clientOf(r, secret)],
    ...(r.claims ? { claims: r.claims } : {}),
    ...(r.claimsParameter ? { claimsParameter: true } : {}),
  })
  started.push(op)
  return op
}

const SECRET_OF = (r: Row) => `${r.id}-secret-${"s".repeat(40)}`

function flowFor(r: Row, front: Front = r.id === "apple" ? APPLE_FRONT : {}) {
  const origin = new URL(r.issuer).origin
  const s = setup([
    r.factory({ ...r.options, clientId: clientIdOf(r), clientSecret: SECRET_OF(r), [customFetch]: serverFetch }),
  ])
  const browser = new Browser({
    apps: {
      [ORIGIN]: (req) =>
        new URL(req.url).pathname.startsWith("/auth") ? Auth(req, s.config) : new Response("app page"),
      [origin]: frontOf(origin, front),
    },
    user: { login: ADA.email, password: ADA.password },
  })
  /** csrf, then POST /signin/<id>: Gatehouse's answer (not followed). */
  async function signIn(): Promise<Response> {
    const csrf = ((await (await browser.request(`${ORIGIN}/auth/csrf`)).json()) as { csrfToken: string }).csrfToken
    return browser.request(
      new Request(`${ORIGIN}/auth/signin/${r.id}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken: csrf, callbackUrl: APP_PAGE }).toString(),
      }),
    )
  }
  /** The sign-in's redirect to the authorization endpoint. */
  async function start(): Promise<URL> {
    const res = await signIn()
    expect(res.status).toBe(302)
    return new URL(res.headers.get("location")!)
  }
  const go = (url: URL): Promise<FollowResult> => browser.follow(url.href, { initiator: ORIGIN })
  const sessionCookie = () => browser.cookies.get("localhost", "authjs.session-token")
  return { ...s, browser, signIn, start, go, sessionCookie }
}

function jwtPart(jwt: string, i: 0 | 1): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split(".")[i]!, "base64url").toString("utf8")) as Record<string, unknown>
}

/** The callback step's parameters (query, or the form_post body). */
function callbackParams(result: FollowResult, id: string): URLSearchParams {
  const step = result.steps.find((s) => s.url.startsWith(`${ORIGIN}/auth/callback/${id}`))
  expect(step, result.steps.map(formatStep).join("\n") + (result.html ?? "")).toBeDefined()
  return step!.form ? new URLSearchParams(step!.form) : new URL(step!.url).searchParams
}

// ---------------------------------------------------------------------------------------------

describe("full flow against oidc-provider as the provider's real issuer", () => {
  it.each(ROWS)("$id: $issuer, login + consent, back with the session user its profile() maps", async (r) => {
    const op = await opFor(r, r.issuer, SECRET_OF(r))
    const origin = new URL(r.issuer).origin
    const mount = mountOf(r.issuer)
    routes.set(origin, op)
    const flow = flowFor(r)

    const authUrl = await flow.start()
    // The authorization endpoint is the discovered one: the real issuer's https URL.
    expect(authUrl.origin + authUrl.pathname).toBe(`${origin}${mount}/auth`)
    const q = authUrl.searchParams
    expect(q.get("client_id")).toBe(clientIdOf(r))
    expect(q.get("scope")).toBe(r.scope)
    expect(q.get("redirect_uri")).toBe(`${ORIGIN}/auth/callback/${r.id}`)
    expect(q.get("response_mode")).toBe(r.id === "apple" ? "form_post" : null)
    expect({ pkce: q.get("code_challenge_method") === "S256", state: q.has("state"), nonce: q.has("nonce") }).toEqual({
      pkce: r.checks.includes("pkce"),
      state: r.checks.includes("state"),
      nonce: r.checks.includes("nonce"),
    })

    const result = await flow.go(authUrl)
    expect(flow.log.errors, logged(flow.log)).toEqual([])
    expect(result.url).toBe(APP_PAGE)
    expect(flow.sessionCookie(), "session cookie").toBeDefined()
    const session = (await (await flow.browser.request(`${ORIGIN}/auth/session`)).json()) as {
      user: Record<string, unknown>
    }
    expect({ name: null, email: null, image: null, ...session.user }).toEqual(r.user)

    // The OP answered as the real issuer: RFC 9207 `iss` on the response, `iss` in the ID token.
    expect(callbackParams(result, r.id).get("iss")).toBe(r.issuer)
    const call = flow.signInCall()
    expect(call.account).toMatchObject({ provider: r.id, type: "oidc", providerAccountId: ADA.sub })
    const idToken = String(call.account!.id_token)
    expect(jwtPart(idToken, 1)).toMatchObject({ iss: r.issuer, aud: clientIdOf(r), sub: ADA.sub })
    expect(jwtPart(idToken, 0).alg).toBe(r.alg ?? "RS256")

    // Client authentication on the token request, as the provider declares it.
    expect(op.tokenRequests.map((t) => t.status)).toEqual([200])
    const token = op.tokenRequests[0]!
    if (r.auth === "client_secret_basic") {
      expect(basicCredentials(token.authorization)).toEqual([clientIdOf(r), SECRET_OF(r)])
      expect(token.body.client_secret).toBeUndefined()
    } else {
      expect(token.authorization).toBeUndefined()
      expect(token.body).toMatchObject({ client_id: clientIdOf(r), client_secret: SECRET_OF(r) })
    }
    expect(token.body.code_verifier !== undefined).toBe(r.checks.includes("pkce"))

    // Server side, only the real https URLs from the metadata were used (then routed here).
    const base = `${origin}${mount}`
    const expected = [`${base}/.well-known/openid-configuration`, `${base}/token`]
    if (r.alg !== "HS256") expected.push(`${base}/jwks`)
    if (!r.idToken) expected.push(`${base}/me`)
    if (r.user === photoUser) expected.push(`${GRAPH}/v1.0/me/photos/48x48/$value`)
    expect([...new Set(serverCalls)].sort()).toEqual(expected.sort())
  })
})

// ---------------------------------------------------------------------------------------------
// Wrong issuer

const FAMILIES = ["google", "apple", "line", "salesforce", "twitch"].map(row)
/** The same path on another host: what an OP configured as a different issuer calls itself (served on the real host). */
const EVIL = "https://login.evil.example"
const otherIssuer = (r: Row) => r.issuer.replace(/^https:\/\/[^/]+/, EVIL)

describe("an OP configured as another issuer is refused (no session)", () => {
  it.each(FAMILIES)("$id: behind the real host from the start: discovery names the other issuer", async (r) => {
    routes.set(new URL(r.issuer).origin, await opFor(r, otherIssuer(r), SECRET_OF(r)))
    const flow = flowFor(r)
    const res = await flow.signIn()
    expect(res.status).toBe(302)
    // OAuthSignInError is not client-safe: the sign-in page with "Configuration" (as Auth.js does).
    expect(res.headers.get("location"), logged(flow.log)).toBe(SIGNIN_ERROR("Configuration"))
    expect(flow.sessionCookie()).toBeUndefined()
    expect(flow.log.types()).toEqual(["OAuthSignInError"])
  })

  it.each(FAMILIES)(
    "$id: swapped in after discovery (mix-up): the authorization response's iss is refused",
    async (r) => {
      const origin = new URL(r.issuer).origin
      routes.set(origin, await opFor(r, r.issuer, SECRET_OF(r)))
      const flow = flowFor(r)
      const authUrl = await flow.start()
      const imposter = await opFor(r, otherIssuer(r), SECRET_OF(r))
      routes.set(origin, imposter)
      const result = await flow.go(authUrl)
      expect(callbackParams(result, r.id).get("iss")).toBe(otherIssuer(r))
      // A failed check, not a client-safe error: the error page with "Configuration" (as Auth.js does).
      expect(result.url, logged(flow.log)).toBe(ERROR_PAGE("Configuration"))
      expect(flow.sessionCookie()).toBeUndefined()
      expect(flow.log.types()).toEqual(["InvalidCheck"])
      expect(logged(flow.log)).toContain('unexpected "iss" (issuer) response parameter value')
      expect(imposter.tokenRequests, "no code exchange").toEqual([])
    },
  )

  it.each(FAMILIES)(
    "$id: mix-up with the response iss forged to the real issuer: the ID token's iss is refused",
    async (r) => {
      const origin = new URL(r.issuer).origin
      routes.set(origin, await opFor(r, r.issuer, SECRET_OF(r)))
      const forge = (params: URLSearchParams) => params.has("iss") && params.set("iss", r.issuer)
      const front: Front = {
        ...(r.id === "apple" ? APPLE_FRONT : {}),
        location: (l) => void forge(l.searchParams),
        html: (html) =>
          (r.id === "apple" ? APPLE_FRONT.html!(html) : html).replace(
            /name="iss" value="[^"]*"/,
            `name="iss" value="${r.issuer}"`,
          ),
      }
      const flow = flowFor(r, front)
      const authUrl = await flow.start()
      const imposter = await opFor(r, otherIssuer(r), SECRET_OF(r))
      routes.set(origin, imposter)
      const result = await flow.go(authUrl)
      expect(callbackParams(result, r.id).get("iss")).toBe(r.issuer)
      expect(
        imposter.tokenRequests.map((t) => t.status),
        "the code was exchanged",
      ).toEqual([200])
      expect(result.url, logged(flow.log)).toBe(SIGNIN_ERROR("OAuthCallbackError"))
      expect(flow.sessionCookie()).toBeUndefined()
      expect(flow.log.types()).toEqual(["OAuthCallbackError"])
      expect(logged(flow.log)).toContain('unexpected JWT "iss" (issuer) claim value')
    },
  )
})
