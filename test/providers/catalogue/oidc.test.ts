// Provider catalogue, batch "oidc": the generic issuer-based OIDC providers (keycloak, okta, auth0, authentik, zitadel,
// cognito, fusionauth, logto, kinde, asgardeo).
// 1. Shape: id, name, type, checks, scope, endpoints (none: discovery from `issuer`), style, exports-map entry.
// 2. Sign-in through Auth() against the mock OP (test/support/mock-op.ts) as the issuer: the ID token's claims are
//    replayed as each provider documents them and mapped to the session user; an ID token without `sub` is refused.
// 3. One full flow per provider against oidc-provider (test/support/oidc-op.ts) with only issuer, clientId, clientSecret.
// 4. AUTH_<ID>_ID / _SECRET / _ISSUER from env, through setEnvDefaults and through the resolve path.
// The shared pieces (style and exports checks, mock OP / oidc-provider hooks, the Browser flow, env helpers) are in
// test/support/catalogue-kit.ts.
import { describe, expect, it } from "vitest"
import { resolveOAuthProvider } from "../../../src/config/oauth.js"
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
import type { MockOp } from "../../support/mock-op.js"
import { OP_USERS, type OidcOp } from "../../support/oidc-op.js"
import { SIGNIN_ERROR, expectSignedIn, setup, signInThrough } from "../../support/provider-kit.js"
import {
  type Factory,
  type IssuerRow,
  expectAuthorizeRequest,
  expectBackAtApp,
  expectDiscoveryOnly,
  expectEnvIssuer,
  expectExported,
  expectIssuerShape,
  expectNoSession,
  expectProfileParseError,
  expectSessionUserLoose,
  signInAtRealOp,
  useMockOp,
  useRealOp,
  withoutSub,
} from "../../support/catalogue-kit.js"

type Row = IssuerRow

const std = { email: "ada@example.com", email_verified: true, picture: "https://img.example/ada.png" }
const ROWS: Row[] = [
  {
    id: "keycloak",
    name: "Keycloak",
    factory: Keycloak as Factory,
    checks: ["pkce"],
    scope: "openid profile email",
    bg: "#2a6496",
    text: "#fff",
    claims: { ...std, name: undefined, preferred_username: "ada" },
    user: { name: "ada", email: std.email, image: std.picture },
  },
  {
    id: "okta",
    name: "Okta",
    factory: Okta as Factory,
    checks: ["pkce", "state"],
    scope: "openid profile email",
    bg: "#000",
    text: "#fff",
    claims: { ...std, name: "Ada Okta", ver: 1, idp: "00o1" },
    user: { name: "Ada Okta", email: std.email, image: std.picture },
  },
  {
    id: "auth0",
    name: "Auth0",
    factory: Auth0 as Factory,
    checks: ["pkce"],
    scope: "openid profile email",
    bg: "#eb5424",
    text: "#000",
    claims: { ...std, name: undefined, nickname: "ada.l" },
    user: { name: "ada.l", email: std.email, image: std.picture },
  },
  {
    id: "authentik",
    name: "Authentik",
    factory: Authentik as Factory,
    checks: ["pkce"],
    scope: "openid profile email",
    bg: "#fd4b2d",
    text: "#000",
    claims: { ...std, name: "Ada Authentik", groups: ["admins"] },
    user: { name: "Ada Authentik", email: std.email, image: std.picture },
  },
  {
    id: "zitadel",
    name: "ZITADEL",
    factory: ZITADEL as Factory,
    checks: ["pkce"],
    scope: "openid profile email",
    bg: "#0f1013",
    text: "#fff",
    claims: { ...std, name: "Ada Zitadel", picture: undefined },
    user: { name: "Ada Zitadel", email: std.email, image: null },
  },
  {
    id: "cognito",
    name: "Cognito",
    factory: Cognito as Factory,
    checks: ["pkce"],
    scope: "openid profile email",
    bg: "#c17b9e",
    text: "#000",
    claims: { ...std, name: undefined, picture: undefined, "cognito:username": "ada-cognito", token_use: "id" },
    user: { name: "ada-cognito", email: std.email, image: null },
  },
  {
    id: "fusionauth",
    name: "FusionAuth",
    factory: FusionAuth as Factory,
    checks: ["pkce", "state"],
    scope: "openid offline_access email profile",
    bg: "#f58320",
    text: "#000",
    claims: { ...std, name: undefined, given_name: "Ada", middle_name: "K", family_name: "Lovelace" },
    user: { name: "Ada K Lovelace", email: std.email, image: std.picture },
  },
  {
    id: "logto",
    name: "Logto",
    factory: Logto as Factory,
    checks: ["pkce"],
    scope: "offline_access openid email profile",
    bg: "#5d34f2",
    text: "#fff",
    claims: { ...std, name: null, username: "ada_logto" },
    user: { name: "ada_logto", email: std.email, image: std.picture },
  },
  {
    id: "kinde",
    name: "Kinde",
    factory: Kinde as Factory,
    checks: ["state", "pkce"],
    scope: "openid profile email",
    bg: "#fff",
    text: "#0f0f0f",
    claims: { ...std, name: undefined, given_name: "Ada", family_name: "Kinde" },
    user: { name: "Ada Kinde", email: std.email, image: std.picture },
  },
  {
    id: "asgardeo",
    name: "Asgardeo",
    factory: Asgardeo as Factory,
    checks: ["pkce"],
    scope: "openid profile email",
    bg: "#000",
    text: "#fff",
    claims: { ...std, name: undefined, username: "ada@asgardeo", picture: undefined },
    user: { name: "ada@asgardeo", email: std.email, image: null },
  },
]

const ISSUER = "https://idp.example.com/realms/demo"

describe("shape", () => {
  it.each(ROWS)("$id: id, name, type, checks, scope, discovery from issuer, style, exports map", (row) => {
    const { r } = expectIssuerShape(row, ISSUER, { issuer: ISSUER })
    expectDiscoveryOnly(r)
    expectExported(row.id)
  })

  it("an OIDC provider without issuer (option or env) is refused when resolved", () => {
    for (const row of ROWS)
      expect(() => resolveOAuthProvider(row.factory({ clientId: "x" }), undefined)).toThrow(/needs an `issuer`/)
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
    expect(Asgardeo({ issuer: "https://api.asgardeo.io/t/acme" }).options?.issuer).toBe(
      "https://api.asgardeo.io/t/acme/oauth2/token",
    )
    expect(Asgardeo({ issuer: "https://api.asgardeo.io/t/acme/" }).options?.issuer).toBe(
      "https://api.asgardeo.io/t/acme/oauth2/token",
    )
    expect(Asgardeo({ issuer: "https://api.asgardeo.io/t/acme/oauth2/token" }).options?.issuer).toBe(
      "https://api.asgardeo.io/t/acme/oauth2/token",
    )
    expect(Asgardeo().wellKnown).toBeUndefined()
  })
})

// ---------------------------------------------------------------------------------------------
// 2. Sign-in against the mock OP

describe("sign-in through Auth() (mock OP as the issuer)", () => {
  let op: MockOp
  useMockOp({ clientId: "catalogue-client" }, (o) => void (op = o))

  const provider = (row: Row) =>
    row.factory({ clientId: op.clientId, clientSecret: op.clientSecret, issuer: op.issuer })

  it.each(ROWS)("$id: the ID token's claims are the profile, mapped to the session user", async (row) => {
    op.subject = `${row.id}-user-1`
    op.extraClaims = row.claims
    const { config, log, signInCall } = setup([provider(row)])
    const { started, back, res } = await signInThrough(config, row.id)
    expectSignedIn(res, log)
    expectAuthorizeRequest(started.location!, row)
    expect(back.searchParams.get("iss")).toBe(op.issuer)
    expect(op.counts.discovery).toBe(1)
    expect(op.counts.userinfo).toBe(0)
    expect(signInCall().account).toMatchObject({
      provider: row.id,
      type: "oidc",
      providerAccountId: `${row.id}-user-1`,
    })
    await expectSessionUserLoose(config, started.jar, row.user)
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
    expectNoSession(res, log, SIGNIN_ERROR("OAuthCallbackError"), "OAuthCallbackError")
  })

  it.each(ROWS)(
    "$id: a profile without an id (userinfo profile, `idToken: false`) gives OAuthProfileParseError",
    async (row) => {
      op.extraClaims = row.claims
      // The default mapping reads `sub`; a profile that lacks it (the app's own userinfo hook here) has no id.
      const { config, log } = setup([withoutSub(provider(row), row.claims)])
      const { res } = await signInThrough(config, row.id)
      expectProfileParseError(res, log)
    },
  )
})

// ---------------------------------------------------------------------------------------------
// 3. A full flow against oidc-provider, with only issuer, clientId and clientSecret

describe("full flow against oidc-provider", () => {
  let realOp: OidcOp
  const olivia = OP_USERS[0]!
  useRealOp(
    ROWS.map((r) => r.id),
    (o) => void (realOp = o),
  )

  it.each(ROWS)("$id: login + consent at the OP, back with a session", async (row) => {
    const flow = await signInAtRealOp(realOp, row.factory, row.id)
    expectBackAtApp(flow)
    expect(flow.user).toEqual({ name: olivia.name, email: olivia.email, image: olivia.picture })
    expect(flow.authorization.get("scope")).toBe(row.scope)
  })
})

// ---------------------------------------------------------------------------------------------
// 4. Env

describe("AUTH_<ID>_ID / _SECRET / _ISSUER", () => {
  it.each(ROWS)("$id: setEnvDefaults and the resolve path read them", (row) => {
    const issuer = `https://${row.id}.example.com`
    expect(expectEnvIssuer(row.id, row.factory, issuer)).toMatchObject({ issuer })
  })
})
