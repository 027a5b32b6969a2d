// Provider catalogue, batch "oidc": the generic issuer-based OIDC providers (keycloak, okta, auth0, authentik, zitadel,
// cognito, fusionauth, logto, kinde, asgardeo).
// 1. Shape: id, name, type, checks, scope, endpoints (none: discovery from `issuer`), style, exports-map entry.
// 2. Sign-in through Auth() against the mock OP (test/support/mock-op.ts) as the issuer: the ID token's claims are
//    replayed as each provider documents them and mapped to the session user; an ID token without `sub` is refused.
// 3. One full flow per provider against oidc-provider (test/support/oidc-op.ts) with only issuer, clientId, clientSecret.
// 4. AUTH_<ID>_ID / _SECRET / _ISSUER from env, through setEnvDefaults and through the resolve path.
import { existsSync, readFileSync } from "node:fs"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest"
import { Auth, setEnvDefaults } from "../../../src/index.js"
import type { AuthConfig } from "../../../src/index.js"
import { resolveOAuthProvider } from "../../../src/config/oauth.js"
import { clearDiscoveryCache } from "../../../src/protocols/oauth2.js"
import type { OAuthConfigBase } from "../../../src/providers/types.js"
import { customFetch } from "../../../src/symbols.js"
import Keycloak from "../../../src/providers/keycloak.js"
import Okta from "../../../src/providers/okta.js"
import Auth0 from "../../../src/providers/auth0.js"
import Authentik from "../../../src/providers/authentik.js"
import ZITADEL from "../../../src/providers/zitadel.js"
import Cognito from "../../../src/providers/cognito.js"
import FusionAuth from "../../../src/providers/fusionauth.js"
import Logto from "../../../src/providers/logto.js"
import Kinde from "../../../src/providers/kinde.js"
import Asgardeo from "../../../src/providers/asgardeo.js"
import { ORIGIN, SECRET } from "../../helpers.js"
import { Browser } from "../../support/browser.js"
import { startMockOp, type MockOp } from "../../support/mock-op.js"
import { OP_USERS, startOidcProvider, type OidcOp } from "../../support/oidc-op.js"
import { APP_PAGE, ERROR_PAGE, SIGNIN_ERROR, expectSignedIn, logged, sessionOf, setup, signInThrough } from "../../support/provider-kit.js"

type Factory = (options?: Record<string, unknown>) => OAuthConfigBase
interface Row {
  id: string
  name: string
  factory: Factory
  checks: string[]
  scope: string
  bg: string
  text: string
  /** ID token claims the provider documents, and the user the default mapping makes of them. */
  claims: Record<string, unknown>
  user: { name: string | null; email: string | null; image: string | null }
}

const std = { email: "ada@example.com", email_verified: true, picture: "https://img.example/ada.png" }
const ROWS: Row[] = [
  { id: "keycloak", name: "Keycloak", factory: Keycloak as Factory, checks: ["pkce"], scope: "openid profile email", bg: "#2a6496", text: "#fff",
    claims: { ...std, name: undefined, preferred_username: "ada" }, user: { name: "ada", email: std.email, image: std.picture } },
  { id: "okta", name: "Okta", factory: Okta as Factory, checks: ["pkce", "state"], scope: "openid profile email", bg: "#000", text: "#fff",
    claims: { ...std, name: "Ada Okta", ver: 1, idp: "00o1" }, user: { name: "Ada Okta", email: std.email, image: std.picture } },
  { id: "auth0", name: "Auth0", factory: Auth0 as Factory, checks: ["pkce"], scope: "openid profile email", bg: "#eb5424", text: "#000",
    claims: { ...std, name: undefined, nickname: "ada.l" }, user: { name: "ada.l", email: std.email, image: std.picture } },
  { id: "authentik", name: "Authentik", factory: Authentik as Factory, checks: ["pkce"], scope: "openid profile email", bg: "#fd4b2d", text: "#000",
    claims: { ...std, name: "Ada Authentik", groups: ["admins"] }, user: { name: "Ada Authentik", email: std.email, image: std.picture } },
  { id: "zitadel", name: "ZITADEL", factory: ZITADEL as Factory, checks: ["pkce"], scope: "openid profile email", bg: "#0f1013", text: "#fff",
    claims: { ...std, name: "Ada Zitadel", picture: undefined }, user: { name: "Ada Zitadel", email: std.email, image: null } },
  { id: "cognito", name: "Cognito", factory: Cognito as Factory, checks: ["pkce"], scope: "openid profile email", bg: "#c17b9e", text: "#000",
    claims: { ...std, name: undefined, picture: undefined, "cognito:username": "ada-cognito", token_use: "id" }, user: { name: "ada-cognito", email: std.email, image: null } },
  { id: "fusionauth", name: "FusionAuth", factory: FusionAuth as Factory, checks: ["pkce", "state"], scope: "openid offline_access email profile", bg: "#f58320", text: "#000",
    claims: { ...std, name: undefined, given_name: "Ada", middle_name: "K", family_name: "Lovelace" }, user: { name: "Ada K Lovelace", email: std.email, image: std.picture } },
  { id: "logto", name: "Logto", factory: Logto as Factory, checks: ["pkce"], scope: "offline_access openid email profile", bg: "#5d34f2", text: "#fff",
    claims: { ...std, name: null, username: "ada_logto" }, user: { name: "ada_logto", email: std.email, image: std.picture } },
  { id: "kinde", name: "Kinde", factory: Kinde as Factory, checks: ["state", "pkce"], scope: "openid profile email", bg: "#fff", text: "#0f0f0f",
    claims: { ...std, name: undefined, given_name: "Ada", family_name: "Kinde" }, user: { name: "Ada Kinde", email: std.email, image: std.picture } },
  { id: "asgardeo", name: "Asgardeo", factory: Asgardeo as Factory, checks: ["pkce"], scope: "openid profile email", bg: "#000", text: "#fff",
    claims: { ...std, name: undefined, username: "ada@asgardeo", picture: undefined }, user: { name: "ada@asgardeo", email: std.email, image: null } },
]

function luminance(hex: string): number {
  let h = hex.replace("#", "")
  if (h.length === 3) h = [...h].map((c) => c + c).join("")
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
}
function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)]
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05)
}

const ISSUER = "https://idp.example.com/realms/demo"
const pkg = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { exports: Record<string, { import?: string; types?: string }> }

describe("shape", () => {
  it.each(ROWS)("$id: id, name, type, checks, scope, discovery from issuer, style, exports map", (row) => {
    const p = row.factory({ clientId: "cid", clientSecret: "csecret", issuer: ISSUER })
    expect(p).toMatchObject({ id: row.id, name: row.name, type: "oidc", checks: row.checks })
    const r = resolveOAuthProvider(p, undefined)
    expect(r.issuer).toBe(ISSUER)
    expect(r.clientId).toBe("cid")
    expect(r.authorization.params.scope).toBe(row.scope)
    expect([...r.checks].sort()).toEqual([...row.checks].sort())
    // No fixed endpoint: all of them come from <issuer>/.well-known/openid-configuration.
    expect(r.authorization.url).toBeUndefined()
    expect(r.token.url).toBeUndefined()
    expect(r.userinfo.url).toBeUndefined()
    expect(p.style).toMatchObject({ bg: row.bg, text: row.text })
    expect(p.style!.logo).toMatch(/^data:image\/svg\+xml,%3Csvg /)
    expect(decodeURIComponent(p.style!.logo!)).toContain("</svg>")
    expect(p.style!.logo!.length).toBeLessThan(600)
    expect(contrast(row.bg, row.text)).toBeGreaterThanOrEqual(4.5)
    expect(existsSync(new URL(`../../../src/providers/${row.id}.ts`, import.meta.url))).toBe(true)
    expect(pkg.exports[`./providers/${row.id}`]).toEqual({ types: `./dist/providers/${row.id}.d.ts`, import: `./dist/providers/${row.id}.js` })
  })

  it("an OIDC provider without issuer (option or env) is refused when resolved", () => {
    for (const row of ROWS) expect(() => resolveOAuthProvider(row.factory({ clientId: "x" }), undefined)).toThrow(/needs an `issuer`/)
  })

  it("fusionauth: tenantId selects the tenant's discovery document and is sent on the authorization request", () => {
    const p = FusionAuth({ issuer: "https://auth.example.com/", tenantId: "t-1", clientId: "c" })
    expect(p.wellKnown).toBe("https://auth.example.com/.well-known/openid-configuration?tenantId=t-1")
    expect(p.tenantId).toBeUndefined()
    const r = resolveOAuthProvider(p, undefined)
    expect(r.authorization.params).toMatchObject({ tenantId: "t-1", scope: "openid offline_access email profile" })
    expect(FusionAuth({ issuer: "https://auth.example.com" }).wellKnown).toBeUndefined()
  })

  it("asgardeo: the organisation URL is completed to the issuer Asgardeo publishes (<org>/oauth2/token)", () => {
    expect(Asgardeo({ issuer: "https://api.asgardeo.io/t/acme" }).options?.issuer).toBe("https://api.asgardeo.io/t/acme/oauth2/token")
    expect(Asgardeo({ issuer: "https://api.asgardeo.io/t/acme/" }).options?.issuer).toBe("https://api.asgardeo.io/t/acme/oauth2/token")
    expect(Asgardeo({ issuer: "https://api.asgardeo.io/t/acme/oauth2/token" }).options?.issuer).toBe("https://api.asgardeo.io/t/acme/oauth2/token")
    expect(Asgardeo().wellKnown).toBeUndefined()
  })
})

// ---------------------------------------------------------------------------------------------
// 2. Sign-in against the mock OP

describe("sign-in through Auth() (mock OP as the issuer)", () => {
  let op: MockOp
  beforeAll(async () => {
    op = await startMockOp({ clientId: "catalogue-client" })
  })
  afterAll(async () => op?.stop())
  beforeEach(() => {
    op.reset()
    clearDiscoveryCache()
  })

  const provider = (row: Row) => row.factory({ clientId: op.clientId, clientSecret: op.clientSecret, issuer: op.issuer })

  it.each(ROWS)("$id: the ID token's claims are the profile, mapped to the session user", async (row) => {
    op.subject = `${row.id}-user-1`
    op.extraClaims = row.claims
    const { config, log, signInCall } = setup([provider(row)])
    const { started, back, res } = await signInThrough(config, row.id)
    expectSignedIn(res, log)
    const auth = started.location!
    expect(auth.searchParams.get("scope")).toBe(row.scope)
    expect(auth.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/auth/callback/${row.id}`)
    expect(auth.searchParams.get("code_challenge_method")).toBe("S256")
    expect(auth.searchParams.has("state")).toBe(row.checks.includes("state"))
    expect(back.searchParams.get("iss")).toBe(op.issuer)
    expect(op.counts.discovery).toBe(1)
    expect(op.counts.userinfo).toBe(0)
    const call = signInCall()
    expect(call.account).toMatchObject({ provider: row.id, type: "oidc", providerAccountId: `${row.id}-user-1` })
    const session = await sessionOf(config, started.jar)
    expect({ name: null, image: null, ...session?.user }).toEqual(row.user)
  })

  it("fusionauth: a 200 token answer with WWW-Authenticate (FusionAuth sends one with Basic auth) still signs in", async () => {
    const seen: string[] = []
    const p = FusionAuth({ clientId: op.clientId, clientSecret: op.clientSecret, issuer: op.issuer })
    p[customFetch] = async (input: RequestInfo | URL, init?: RequestInit) => {
      const res = await fetch(input, init)
      const url = input instanceof Request ? input.url : String(input)
      if (new URL(url).pathname !== new URL(op.endpoints.token).pathname) return res
      seen.push(url)
      const headers = new Headers(res.headers)
      headers.set("www-authenticate", 'Basic realm="FusionAuth"')
      return new Response(await res.text(), { status: res.status, headers })
    }
    const { config, log } = setup([p])
    const { res } = await signInThrough(config, "fusionauth")
    expectSignedIn(res, log)
    expect(seen).toHaveLength(1)
  })

  it.each(ROWS)("$id: an ID token without `sub` is refused (no session)", async (row) => {
    op.idTokenFault = "missing-sub"
    const { config, log } = setup([provider(row)])
    const { res } = await signInThrough(config, row.id)
    expect(res.status).toBe(302)
    expect(res.headers.get("set-cookie") ?? "").not.toContain("authjs.session-token=ey")
    expect(res.headers.get("location"), logged(log)).toBe(SIGNIN_ERROR("OAuthCallbackError"))
    expect(log.types()).toEqual(["OAuthCallbackError"])
  })

  it.each(ROWS)("$id: a profile without an id (userinfo profile, `idToken: false`) gives OAuthProfileParseError", async (row) => {
    op.extraClaims = row.claims
    const p = row.factory({ clientId: op.clientId, clientSecret: op.clientSecret, issuer: op.issuer, idToken: false })
    // The default mapping reads `sub`; a profile that lacks it (the app's own userinfo hook here) has no id.
    p.options!.userinfo = { request: () => ({ ...row.claims, sub: undefined }) }
    const { config, log } = setup([p])
    const { res } = await signInThrough(config, row.id)
    expect(res.status).toBe(302)
    // As in Auth.js: not a client-safe error, so the error page with "Configuration".
    expect(res.headers.get("location"), logged(log)).toBe(ERROR_PAGE("Configuration"))
    expect(res.headers.get("set-cookie") ?? "").not.toContain("authjs.session-token=ey")
    expect(log.types()).toEqual(["OAuthProfileParseError"])
  })
})

// ---------------------------------------------------------------------------------------------
// 3. A full flow against oidc-provider, with only issuer, clientId and clientSecret

describe("full flow against oidc-provider", () => {
  let realOp: OidcOp
  const olivia = OP_USERS[0]!
  beforeAll(async () => {
    realOp = await startOidcProvider({ providerIds: ROWS.map((r) => r.id) })
  })
  afterAll(async () => realOp?.stop())
  beforeEach(() => clearDiscoveryCache())

  it.each(ROWS)("$id: login + consent at the OP, back with a session", async (row) => {
    const client = realOp.clients.basic
    const config = {
      secret: SECRET,
      trustHost: true,
      basePath: "/auth",
      providers: [row.factory({ issuer: realOp.issuer, clientId: client.client_id, clientSecret: client.client_secret })],
      logger: { error: (e: Error) => errors.push(e), warn: () => {}, debug: () => {} },
    } as AuthConfig
    const errors: Error[] = []
    const browser = new Browser({
      apps: { [ORIGIN]: (req) => (new URL(req.url).pathname.startsWith("/auth") ? Auth(req, config) : new Response("app page")) },
      user: { login: olivia.email, password: olivia.password },
    })
    const csrf = ((await (await browser.request(`${ORIGIN}/auth/csrf`)).json()) as { csrfToken: string }).csrfToken
    const result = await browser.follow(new Request(`${ORIGIN}/auth/signin/${row.id}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken: csrf, callbackUrl: APP_PAGE }).toString(),
    }))
    expect(errors, errors.map((e) => e.message).join("\n")).toEqual([])
    expect(result.url).toBe(APP_PAGE)
    const session = (await (await browser.request(`${ORIGIN}/auth/session`)).json()) as { user: unknown }
    expect(session.user).toEqual({ name: olivia.name, email: olivia.email, image: olivia.picture })
    const auth = realOp.authorizationRequests().at(-1)!
    expect(auth.get("scope")).toBe(row.scope)
  })
})

// ---------------------------------------------------------------------------------------------
// 4. Env

describe("AUTH_<ID>_ID / _SECRET / _ISSUER", () => {
  afterEach(() => vi.unstubAllEnvs())

  it.each(ROWS)("$id: setEnvDefaults and the resolve path read them", (row) => {
    const ID = row.id.toUpperCase()
    const env = { [`AUTH_${ID}_ID`]: `${row.id}-id`, [`AUTH_${ID}_SECRET`]: `${row.id}-secret`, [`AUTH_${ID}_ISSUER`]: `https://${row.id}.example.com` }
    const config = { providers: [row.factory] } as unknown as AuthConfig
    setEnvDefaults(env, config)
    expect(config.providers[0]).toMatchObject({ clientId: `${row.id}-id`, clientSecret: `${row.id}-secret`, issuer: `https://${row.id}.example.com` })
    for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v)
    const r = resolveOAuthProvider(row.factory(), undefined)
    expect({ clientId: r.clientId, clientSecret: r.clientSecret, issuer: r.issuer }).toEqual({ clientId: `${row.id}-id`, clientSecret: `${row.id}-secret`, issuer: `https://${row.id}.example.com` })
  })
})
