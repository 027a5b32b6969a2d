// Provider catalogue, batch social-b (issue 16): facebook, instagram, 42-school, box, coinbase, dribbble, figma, foursquare,
// hubspot (OAuth 2) and apple, battlenet, huggingface (OIDC).
// - shape: each provider's documented id, type, checks, endpoints, scope, client auth and button style (contrast >= 4.5:1,
//   logo a data:image/svg+xml URI), and its ./providers/<id> entry in package.json's exports map;
// - sign-in through Auth(): the provider's real hosts routed (customFetch) to one local server that plays the provider
//   (authorize -> code + state, token, userinfo replaying the documented responses); the mapped user is in the session,
//   and a profile without an id ends in OAuthProfileParseError;
// - OIDC ones against the mock OP given as `issuer`; battlenet (issuer-based) also through a full flow against
//   oidc-provider (test/support/oidc-op.ts) with only issuer, clientId and clientSecret;
// - AUTH_<ID>_ID / _SECRET (/ _ISSUER) picked up by setEnvDefaults and the resolve path.
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest"
import { Auth, customFetch } from "../../../src/index.js"
import type { AuthConfig } from "../../../src/index.js"
import { resolveOAuthProvider } from "../../../src/config/oauth.js"
import { setEnvDefaults } from "../../../src/config/env.js"
import type { OAuthConfigBase } from "../../../src/providers/types.js"
import FortyTwo from "../../../src/providers/42-school.js"
import Box from "../../../src/providers/box.js"
import Coinbase from "../../../src/providers/coinbase.js"
import Dribbble from "../../../src/providers/dribbble.js"
import Facebook from "../../../src/providers/facebook.js"
import Figma from "../../../src/providers/figma.js"
import Foursquare from "../../../src/providers/foursquare.js"
import HubSpot from "../../../src/providers/hubspot.js"
import Instagram from "../../../src/providers/instagram.js"
import Apple from "../../../src/providers/apple.js"
import BattleNet from "../../../src/providers/battlenet.js"
import Huggingface from "../../../src/providers/huggingface.js"
import { clearDiscoveryCache } from "../../../src/protocols/oauth2.js"
import { ORIGIN, SECRET, postForm } from "../../helpers.js"
import { Browser } from "../../support/browser.js"
import { OP_USERS, startOidcProvider, type OidcOp } from "../../support/oidc-op.js"
import { startMockOp, type MockOp } from "../../support/mock-op.js"
import {
  APP_PAGE, ERROR_PAGE, type LocalServer, type Recorded, callback, expectRejected, expectSignedIn, localize, routingFetch, sendJson, sendRedirect,
  sessionOf, setup, startLocalServer, startSignIn, useFakeProvider, visitProvider, basicCredentials
} from "../../support/provider-kit.js"

const ROOT = fileURLToPath(new URL("../../../", import.meta.url))
type Factory = (options?: Record<string, unknown>) => OAuthConfigBase

interface Row {
  id: string
  factory: Factory
  type: "oauth" | "oidc"
  /** undefined: Gatehouse's default (pkce). */
  checks?: string[]
  authorization: string
  scope?: string
  token: string
  userinfo: string
  auth?: "client_secret_post"
  bg: string
  text: string
  /** The documented userinfo response, and the user it maps to. */
  profile: Record<string, unknown>
  user: { name: string | null; email: string | null; image: string | null }
  /** The profile with its id removed. */
  withoutId: Record<string, unknown>
}

const OAUTH: Row[] = [
  {
    id: "facebook", factory: Facebook as Factory, type: "oauth",
    authorization: "https://www.facebook.com/dialog/oauth", scope: "email",
    token: "https://graph.facebook.com/oauth/access_token", userinfo: "https://graph.facebook.com/me?fields=id,name,email,picture",
    bg: "#006aff", text: "#fff",
    profile: { id: "10158000000000001", name: "Ada Lovelace", email: "ada@example.com", picture: { data: { height: 50, is_silhouette: false, url: "https://platform-lookaside.fbsbx.com/p/ada.jpg", width: 50 } } },
    user: { name: "Ada Lovelace", email: "ada@example.com", image: "https://platform-lookaside.fbsbx.com/p/ada.jpg" },
    withoutId: { name: "Ada Lovelace", email: "ada@example.com" },
  },
  {
    id: "instagram", factory: Instagram as Factory, type: "oauth",
    authorization: "https://api.instagram.com/oauth/authorize", scope: "instagram_business_basic",
    token: "https://api.instagram.com/oauth/access_token",
    userinfo: "https://graph.instagram.com/me?fields=id,user_id,username,name,account_type,profile_picture_url", auth: "client_secret_post",
    bg: "#fff", text: "#000",
    profile: { id: "17841400000000001", user_id: "17841400000000002", username: "ada.codes", name: "Ada", account_type: "BUSINESS", profile_picture_url: "https://scontent.cdninstagram.com/ada.jpg" },
    user: { name: "ada.codes", email: null, image: "https://scontent.cdninstagram.com/ada.jpg" },
    withoutId: { username: "ada.codes" },
  },
  {
    id: "42-school", factory: FortyTwo as Factory, type: "oauth",
    authorization: "https://api.intra.42.fr/oauth/authorize", scope: "public",
    token: "https://api.intra.42.fr/oauth/token", userinfo: "https://api.intra.42.fr/v2/me",
    bg: "#000", text: "#fff",
    profile: { id: 42042, email: "alovelac@student.42.fr", login: "alovelac", usual_full_name: "Ada Lovelace", displayname: "Ada Lovelace", image: { link: "https://cdn.intra.42.fr/users/alovelac.jpg", versions: {} } },
    user: { name: "Ada Lovelace", email: "alovelac@student.42.fr", image: "https://cdn.intra.42.fr/users/alovelac.jpg" },
    withoutId: { email: "alovelac@student.42.fr", login: "alovelac" },
  },
  {
    id: "box", factory: Box as Factory, type: "oauth",
    authorization: "https://account.box.com/api/oauth2/authorize",
    token: "https://api.box.com/oauth2/token", userinfo: "https://api.box.com/2.0/users/me",
    bg: "#0075C9", text: "#fff",
    profile: { type: "user", id: "11446498", name: "Aaron Levie", login: "ceo@example.com", avatar_url: "https://www.box.com/api/avatar/large/181216415" },
    user: { name: "Aaron Levie", email: "ceo@example.com", image: "https://www.box.com/api/avatar/large/181216415" },
    withoutId: { type: "user", name: "Aaron Levie", login: "ceo@example.com" },
  },
  {
    id: "coinbase", factory: Coinbase as Factory, type: "oauth",
    authorization: "https://login.coinbase.com/oauth2/auth", scope: "wallet:user:email wallet:user:read",
    token: "https://login.coinbase.com/oauth2/token", userinfo: "https://api.coinbase.com/v2/user",
    bg: "#0052ff", text: "#fff",
    profile: { data: { id: "9da7a204-544e-5fd1-9a12-61176c5d4cd8", name: "User One", username: "user1", email: "user1@example.com", avatar_url: "https://images.coinbase.com/avatar?h=vR%2FY8igBoPwuwGren5JMwvDNGpURAY%2F0nRIOgH%2FY2Qh%2BQ6nomR3qusA%2Bh6o2%0Af9rH&s=128" } },
    user: { name: "User One", email: "user1@example.com", image: "https://images.coinbase.com/avatar?h=vR%2FY8igBoPwuwGren5JMwvDNGpURAY%2F0nRIOgH%2FY2Qh%2BQ6nomR3qusA%2Bh6o2%0Af9rH&s=128" },
    withoutId: { data: { name: "User One", email: "user1@example.com" } },
  },
  {
    id: "dribbble", factory: Dribbble as Factory, type: "oauth",
    authorization: "https://dribbble.com/oauth/authorize", scope: "public",
    token: "https://dribbble.com/oauth/token", userinfo: "https://api.dribbble.com/v2/user",
    bg: "#000", text: "#fff",
    profile: { id: 1, name: "Dan Cederholm", login: "simplebits", email: "dan@example.com", avatar_url: "https://cdn.dribbble.com/users/1/avatars/normal/dc.jpg" },
    user: { name: "Dan Cederholm", email: "dan@example.com", image: "https://cdn.dribbble.com/users/1/avatars/normal/dc.jpg" },
    withoutId: { name: "Dan Cederholm", login: "simplebits" },
  },
  {
    id: "figma", factory: Figma as Factory, type: "oauth", checks: ["state"],
    authorization: "https://www.figma.com/oauth", scope: "current_user:read",
    token: "https://api.figma.com/v1/oauth/token", userinfo: "https://api.figma.com/v1/me",
    bg: "#ff7237", text: "#000",
    profile: { id: "1234567890", email: "ada@example.com", handle: "Ada", img_url: "https://s3-alpha.figma.com/profile/ada" },
    user: { name: "Ada", email: "ada@example.com", image: "https://s3-alpha.figma.com/profile/ada" },
    withoutId: { email: "ada@example.com", handle: "Ada" },
  },
  {
    id: "foursquare", factory: Foursquare as Factory, type: "oauth",
    authorization: "https://foursquare.com/oauth2/authenticate",
    token: "https://foursquare.com/oauth2/access_token", userinfo: "https://api.foursquare.com/v2/users/self?v=20230131",
    bg: "#000", text: "#fff",
    profile: { meta: { code: 200, requestId: "5ac51d7e6a607143d811cecb" }, response: { user: { id: "1234567", firstName: "Ada", lastName: "Lovelace", contact: { email: "ada@example.com" }, photo: { prefix: "https://fastly.4sqi.net/img/user/", suffix: "/ada.jpg" } } } },
    user: { name: "Ada Lovelace", email: "ada@example.com", image: "https://fastly.4sqi.net/img/user/original/ada.jpg" },
    withoutId: { meta: { code: 200 }, response: { user: { firstName: "Ada" } } },
  },
  {
    id: "hubspot", factory: HubSpot as Factory, type: "oauth",
    authorization: "https://app.hubspot.com/oauth/authorize", scope: "oauth",
    token: "https://api.hubapi.com/oauth/v1/token", userinfo: "https://api.hubapi.com/oauth/v1/access-tokens", auth: "client_secret_post",
    bg: "#ff7a59", text: "#000",
    profile: { token: "CJSP5qf1KhICAQEYs-gDIIGOBii1hQIyGQAf3xBKmlwHjX7OIpuIFEavB2-qYAGQsF4", user: "test@hubspot.com", hub_domain: "demo.hubapi.com", scopes: ["oauth"], hub_id: 62515, app_id: 456, expires_in: 21588, user_id: 123, token_type: "access" },
    user: { name: "test@hubspot.com", email: "test@hubspot.com", image: null },
    withoutId: { user: "test@hubspot.com", hub_id: 62515 },
  },
]

// ---------------------------------------------------------------------------------------------
// Shape

/** WCAG relative luminance of #rgb / #rrggbb. */
function luminance(hex: string): number {
  const h = hex.replace("#", "")
  const full = h.length === 3 ? [...h].map((c) => c + c).join("") : h
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
}
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (hi! + 0.05) / (lo! + 0.05)
}

function urlOf(endpoint: unknown): string | undefined {
  return typeof endpoint === "string" ? endpoint : ((endpoint as { url?: string } | undefined)?.url?.toString())
}
function scopeOf(endpoint: unknown): string | undefined {
  if (typeof endpoint === "string") return new URL(endpoint).searchParams.get("scope") ?? undefined
  return (endpoint as { params?: { scope?: string } } | undefined)?.params?.scope
}

describe("social-b shape: documented endpoints, checks, scope, client auth and style", () => {
  const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, "utf8")) as { exports: Record<string, { import?: string; types?: string }> }

  it.each(OAUTH)("$id", (row) => {
    const p = row.factory()
    expect(p.id).toBe(row.id)
    expect(p.type).toBe(row.type)
    expect(p.checks).toEqual(row.checks)
    expect(urlOf(p.authorization)?.split("?")[0]).toBe(row.authorization)
    expect(scopeOf(p.authorization)).toBe(row.scope)
    expect(urlOf(p.token)).toBe(row.token)
    expect(urlOf(p.userinfo)).toBe(row.userinfo)
    expect(p.client?.token_endpoint_auth_method).toBe(row.auth)
    expect(p.style).toMatchObject({ bg: row.bg, text: row.text })
    expect(contrast(row.bg, row.text), "button text contrast").toBeGreaterThanOrEqual(4.5)
    expect(p.style?.logo).toMatch(/^data:image\/svg\+xml,%3Csvg /)
    expect(decodeURIComponent(p.style!.logo!).length, "a small logo").toBeLessThan(700)
    // The user's options are kept for the merge, the provider's own ones (apiVersion, scope) taken out.
    expect(row.factory({ clientId: "x" }).options).toEqual({ clientId: "x" })
    // Reachable as gatehouse/providers/<id>.
    expect(existsSync(`${ROOT}src/providers/${row.id}.ts`)).toBe(true)
    expect(pkg.exports[`./providers/${row.id}`]).toEqual({ types: `./dist/providers/${row.id}.d.ts`, import: `./dist/providers/${row.id}.js` })
  })

  it("dribbble's scope and foursquare's apiVersion options", () => {
    expect(scopeOf(Dribbble({ scope: "public upload" }).authorization)).toBe("public upload")
    expect(urlOf(Foursquare({ apiVersion: "20240601" }).userinfo)).toBe("https://api.foursquare.com/v2/users/self?v=20240601")
  })
})

// ---------------------------------------------------------------------------------------------
// Sign-in through Auth() against one local server playing whichever provider the test signs in with

const CLIENT_ID = "social-b-client"
const CLIENT_SECRET = "social-b-secret"

interface Play {
  row: Row
  /** The userinfo body served. */
  profile: Record<string, unknown>
  accessToken: string
  codes: Map<string, { redirectUri: string; challenge: string | null }>
  tokenRequests: Recorded[]
  userinfoRequests: Recorded[]
}

let server: LocalServer
let play: Play | undefined

async function startPlayer(): Promise<LocalServer & { reset(): void }> {
  const s = await startLocalServer((_req, res, r) => {
    const pl = play
    if (!pl) return sendJson(res, r, 500, { error: "no provider in play" })
    const { row } = pl
    if (r.method === "GET" && r.path === new URL(row.authorization).pathname && r.query.has("redirect_uri")) {
      const redirectUri = r.query.get("redirect_uri")!
      if (r.query.get("client_id") !== CLIENT_ID || redirectUri !== `${ORIGIN}/auth/callback/${row.id}`) return sendJson(res, r, 400, { error: "redirect_uri_mismatch" })
      const code = `code-${Math.random().toString(36).slice(2)}`
      pl.codes.set(code, { redirectUri, challenge: r.query.get("code_challenge") })
      const back = new URL(redirectUri)
      back.searchParams.set("code", code)
      if (r.query.has("state")) back.searchParams.set("state", r.query.get("state")!)
      return sendRedirect(res, r, back.href)
    }
    if (r.method === "POST" && r.originalUrl === row.token) {
      pl.tokenRequests.push(r)
      const body = new URLSearchParams(r.body)
      const [id, secret] = basicCredentials(r.headers.authorization) ?? [body.get("client_id"), body.get("client_secret")]
      const grant = pl.codes.get(body.get("code") ?? "")
      if (id !== CLIENT_ID || secret !== CLIENT_SECRET) return sendJson(res, r, 401, { error: "invalid_client" })
      if (!grant || grant.redirectUri !== body.get("redirect_uri")) return sendJson(res, r, 400, { error: "invalid_grant" })
      pl.codes.delete(body.get("code")!)
      return sendJson(res, r, 200, { access_token: pl.accessToken, token_type: "bearer", expires_in: 3600 })
    }
    if (r.method === "GET" && r.originalUrl?.startsWith(row.userinfo.split("?")[0]!)) {
      pl.userinfoRequests.push(r)
      const url = new URL(r.originalUrl)
      // Bearer header, Foursquare's oauth_token parameter or HubSpot's token in the path.
      const presented = /^Bearer (.+)$/i.exec(r.headers.authorization ?? "")?.[1] ?? url.searchParams.get("oauth_token") ?? url.pathname.split("/").pop()
      if (presented !== pl.accessToken) return sendJson(res, r, 401, { error: "invalid_token" })
      return sendJson(res, r, 200, pl.profile)
    }
  })
  return { ...s, reset: () => void (play = undefined) }
}

useFakeProvider(startPlayer, (s) => void (server = s))

const originsOf = (row: Row) => [...new Set([row.authorization, row.token, row.userinfo].map((u) => new URL(u).origin))]

async function signIn(row: Row, profile: Record<string, unknown>) {
  play = { row, profile, accessToken: `at-${row.id}-${Math.random().toString(36).slice(2)}`, codes: new Map(), tokenRequests: [], userinfoRequests: [] }
  const origins = originsOf(row)
  const route = routingFetch(origins, server.url)
  const s = setup([row.factory({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, [customFetch]: route.fetch })])
  const started = await startSignIn(s.config, row.id)
  expect(`${started.location!.origin}${started.location!.pathname}`).toBe(row.authorization)
  if (row.scope) expect(started.location?.searchParams.get("scope")).toBe(row.scope)
  const back = await visitProvider(localize(started.location!, origins, server.url))
  const res = await callback(s.config, back, started.jar)
  return { s, started, res, pl: play }
}

describe("social-b sign-in through Auth() (provider hosts routed to 127.0.0.1)", () => {
  it.each(OAUTH)("$id: the documented responses map to the session user", async (row) => {
    const { s, started, res, pl } = await signIn(row, row.profile)
    expectSignedIn(res, s.log)
    const session = await sessionOf(s.config, started.jar)
    expect(session?.user).toEqual({ ...row.user, ...(row.user.email ? { email: row.user.email.toLowerCase() } : {}) })
    // Checks and client authentication on the wire.
    const auth = started.location!.searchParams
    expect(auth.has("code_challenge")).toBe(row.checks === undefined)
    expect(auth.has("state")).toBe(row.checks?.includes("state") ?? false)
    const tokenBody = new URLSearchParams(pl.tokenRequests[0]!.body)
    expect(tokenBody.has("code_verifier")).toBe(row.checks === undefined)
    if (row.auth === "client_secret_post") {
      expect(tokenBody.get("client_secret")).toBe(CLIENT_SECRET)
      expect(pl.tokenRequests[0]!.headers.authorization).toBeUndefined()
    }
    expect(pl.userinfoRequests).toHaveLength(1)
    const account = s.signInCall().account!
    expect(account).toMatchObject({ provider: row.id, type: "oauth" })
    expect(account.providerAccountId).toMatch(/^\S+$/)
  })

  it.each(OAUTH)("$id: a profile without an id is OAuthProfileParseError", async (row) => {
    const { s, res } = await signIn(row, row.withoutId)
    // As in Auth.js: OAuthProfileParseError is not client-safe, so the error page says Configuration.
    expectRejected(res, s.log, ERROR_PAGE("Configuration"), "OAuthProfileParseError")
  })

  it("foursquare sends the token as oauth_token with v=, hubspot in the path", async () => {
    const fsq = OAUTH.find((r) => r.id === "foursquare")!
    const a = await signIn(fsq, fsq.profile)
    const fsqUrl = new URL(a.pl.userinfoRequests[0]!.originalUrl!)
    expect(fsqUrl.searchParams.get("v")).toBe("20230131")
    expect(fsqUrl.searchParams.get("oauth_token")).toBe(a.pl.accessToken)
    const hs = OAUTH.find((r) => r.id === "hubspot")!
    const b = await signIn(hs, hs.profile)
    expect(b.pl.userinfoRequests[0]!.originalUrl).toBe(`https://api.hubapi.com/oauth/v1/access-tokens/${b.pl.accessToken}`)
  })
})

// ---------------------------------------------------------------------------------------------
// Env

describe("social-b env: AUTH_<ID>_ID / _SECRET", () => {
  it.each(OAUTH)("$id", (row) => {
    const key = `AUTH_${row.id.toUpperCase().replace(/-/g, "_")}`
    const config = { providers: [row.factory()] } as Parameters<typeof setEnvDefaults>[1]
    setEnvDefaults({ [`${key}_ID`]: `${row.id}-env-id`, [`${key}_SECRET`]: `${row.id}-env-secret` }, config)
    expect(config.providers[0]).toMatchObject({ id: row.id, clientId: `${row.id}-env-id`, clientSecret: `${row.id}-env-secret` })
  })
})


// ---------------------------------------------------------------------------------------------
// OIDC: apple, battlenet, huggingface against the mock OP (test/support/mock-op.ts) given as `issuer`

interface OidcRow {
  id: string
  factory: Factory
  /** The fixed issuer; undefined: required from options / AUTH_<ID>_ISSUER. */
  issuer?: string
  checks: string[] | undefined
  scope: string
  responseMode?: string
  auth?: "client_secret_post"
  bg: string
  text: string
  /** ID token claims (over the mock OP's defaults; undefined removes one) and the user they map to. */
  claims: Record<string, unknown>
  user: { name: string | null; email: string | null; image: string | null }
}

const OIDC: OidcRow[] = [
  {
    id: "apple", factory: Apple as Factory, issuer: "https://appleid.apple.com", checks: ["nonce", "state"], scope: "name email", responseMode: "form_post",
    auth: "client_secret_post", bg: "#000", text: "#fff",
    // Apple: no name claim, booleans as strings.
    claims: { name: undefined, email: "x7k2p9@privaterelay.appleid.com", email_verified: "true", is_private_email: "true", real_user_status: 2 },
    user: { name: "x7k2p9@privaterelay.appleid.com", email: "x7k2p9@privaterelay.appleid.com", image: null },
  },
  {
    id: "battlenet", factory: BattleNet as Factory, checks: undefined, scope: "openid", bg: "#148eff", text: "#000",
    claims: { name: undefined, email: undefined, email_verified: undefined, battle_tag: "Ada#1815" },
    user: { name: "Ada#1815", email: null, image: null },
  },
  {
    id: "huggingface", factory: Huggingface as Factory, issuer: "https://huggingface.co", checks: ["state", "pkce"], scope: "openid profile email",
    bg: "#FFD21E", text: "#000",
    claims: { name: "Ada Lovelace", preferred_username: "ada", email: "ada@hf.example", email_verified: true, picture: "https://cdn-avatars.huggingface.co/ada.png", isPro: false },
    user: { name: "Ada Lovelace", email: "ada@hf.example", image: "https://cdn-avatars.huggingface.co/ada.png" },
  },
]

describe("social-b OIDC shape", () => {
  const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, "utf8")) as { exports: Record<string, unknown> }
  it.each(OIDC)("$id", (row) => {
    const p = row.factory()
    expect(p).toMatchObject({ id: row.id, type: "oidc" })
    expect(p.issuer).toBe(row.issuer)
    expect(p.checks).toEqual(row.checks)
    expect(scopeOf(p.authorization)).toBe(row.scope)
    expect((p.authorization as { params?: Record<string, unknown> }).params?.response_mode).toBe(row.responseMode)
    expect(p.client?.token_endpoint_auth_method).toBe(row.auth)
    expect(p.style).toMatchObject({ bg: row.bg, text: row.text })
    expect(contrast(row.bg, row.text), "button text contrast").toBeGreaterThanOrEqual(4.5)
    expect(p.style?.logo).toMatch(/^data:image\/svg\+xml,%3Csvg /)
    expect(decodeURIComponent(p.style!.logo!).length, "a small logo").toBeLessThan(700)
    expect(existsSync(`${ROOT}src/providers/${row.id}.ts`)).toBe(true)
    expect(pkg.exports[`./providers/${row.id}`]).toEqual({ types: `./dist/providers/${row.id}.d.ts`, import: `./dist/providers/${row.id}.js` })
  })
})

describe("social-b OIDC sign-in through Auth() (the mock OP as the issuer)", () => {
  let op: MockOp
  beforeAll(async () => void (op = await startMockOp({ clientId: "social-b-oidc", issuerPath: "/op" })))
  afterAll(async () => await op.stop())
  beforeEach(() => {
    op.reset()
    clearDiscoveryCache()
  })

  async function oidcSignIn(row: OidcRow, extra: Record<string, unknown> = {}) {
    op.tokenEndpointAuthMethod = row.auth ?? "client_secret_basic"
    op.subject = `${row.id}-sub-001`
    op.extraClaims = row.claims
    // Only issuer, clientId and clientSecret given.
    const s = setup([row.factory({ issuer: op.issuer, clientId: op.clientId, clientSecret: op.clientSecret, ...extra })])
    const started = await startSignIn(s.config, row.id)
    const authUrl = started.location!
    expect(`${authUrl.origin}${authUrl.pathname}`).toBe(op.endpoints.authorization)
    expect(authUrl.searchParams.get("scope")).toBe(row.scope)
    const back = await op.authorize(authUrl)
    expect(back.responseMode).toBe(row.responseMode ?? "query")
    expect(back.redirectUri).toBe(`${ORIGIN}/auth/callback/${row.id}`)
    let res: Response
    if (back.responseMode === "form_post") {
      // The browser's cross-site POST of Apple's auto-submitting form.
      res = await Auth(postForm(`/auth/callback/${row.id}`, Object.fromEntries(back.params), { cookie: started.jar.header() }), s.config)
      started.jar.store(res)
    } else {
      res = await callback(s.config, back.url, started.jar)
    }
    return { s, started, authUrl, res }
  }

  it.each(OIDC)("$id: the ID token's claims map to the session user", async (row) => {
    const { s, started, authUrl, res } = await oidcSignIn(row)
    expectSignedIn(res, s.log)
    expect((await sessionOf(s.config, started.jar))?.user).toEqual(row.user)
    const checks = row.checks ?? ["pkce"]
    expect(authUrl.searchParams.has("nonce")).toBe(checks.includes("nonce"))
    expect(authUrl.searchParams.has("state")).toBe(checks.includes("state"))
    expect(authUrl.searchParams.has("code_challenge")).toBe(checks.includes("pkce"))
    expect(op.counts.userinfo, "the profile is the ID token").toBe(0)
    expect(op.tokenRequests).toHaveLength(1)
    if (row.auth === "client_secret_post") expect(op.tokenRequests[0]!.body.get("client_secret")).toBe(op.clientSecret)
    expect(s.signInCall().account).toMatchObject({ provider: row.id, type: "oidc", providerAccountId: `${row.id}-sub-001` })
  })

  it.each(OIDC)("$id: a profile callback that yields no id is OAuthProfileParseError", async (row) => {
    // An ID token always has a sub (one without fails validation first); a mapping that loses it is the parse error.
    const { s, res } = await oidcSignIn(row, { profile: () => ({ name: "no id" }) })
    expectRejected(res, s.log, ERROR_PAGE("Configuration"), "OAuthProfileParseError")
  })

  it("apple: the name comes from a `user` object on the profile when present", async () => {
    const p = Apple()
    expect(await p.profile!({ sub: "s", email: "a@b.example", user: { name: { firstName: "Ada", lastName: "Lovelace" } } } as never, {} as never))
      .toEqual({ id: "s", name: "Ada Lovelace", email: "a@b.example", image: null })
  })

  it("apple: the `user` JSON Apple posts on the first consent names the user (profileCallbackFields); it never sets the id or e-mail", async () => {
    const row = OIDC.find((r) => r.id === "apple")!
    op.tokenEndpointAuthMethod = row.auth ?? "client_secret_basic"
    op.subject = "apple-sub-001"
    op.extraClaims = row.claims
    const s = setup([Apple({ issuer: op.issuer, clientId: op.clientId, clientSecret: op.clientSecret })])
    const started = await startSignIn(s.config, "apple")
    const back = await op.authorize(started.location!)
    const form = { ...Object.fromEntries(back.params), user: JSON.stringify({ name: { firstName: "Ada", lastName: "Lovelace" }, email: "attacker@evil.example" }) }
    const res = await Auth(postForm("/auth/callback/apple", form, { cookie: started.jar.header() }), s.config)
    started.jar.store(res)
    expectSignedIn(res, s.log)
    expect((await sessionOf(s.config, started.jar))?.user).toEqual({ name: "Ada Lovelace", email: "x7k2p9@privaterelay.appleid.com", image: null })
    expect(s.signInCall().account).toMatchObject({ providerAccountId: "apple-sub-001" })
  })

  it("battlenet without an issuer is a configuration error", async () => {
    const s = setup([BattleNet({ clientId: "x", clientSecret: "y" }) as OAuthConfigBase])
    const started = await startSignIn(s.config, "battlenet")
    expect(started.res.status).toBe(500)
    expect(s.log.types()).toEqual(["InvalidEndpoints"])
    expect(s.log.text()).toContain("needs an `issuer`")
  })
})

describe("social-b OIDC env: AUTH_<ID>_ID / _SECRET / _ISSUER", () => {
  it.each(OIDC)("$id", (row) => {
    const key = `AUTH_${row.id.toUpperCase()}`
    const config = { providers: [row.factory()] } as Parameters<typeof setEnvDefaults>[1]
    setEnvDefaults({ [`${key}_ID`]: "env-id", [`${key}_SECRET`]: "env-secret", [`${key}_ISSUER`]: "https://oauth.battle.net" }, config)
    // The fixed issuer stays; battlenet takes the env one.
    expect(config.providers[0]).toMatchObject({ clientId: "env-id", clientSecret: "env-secret", issuer: row.issuer ?? "https://oauth.battle.net" })
  })
})

describe("battlenet (issuer-based): a full flow against oidc-provider with only issuer, clientId and clientSecret", () => {
  let realOp: OidcOp
  beforeAll(async () => void (realOp = await startOidcProvider({ providerIds: ["battlenet"] })))
  afterAll(async () => realOp?.stop())
  beforeEach(() => clearDiscoveryCache())

  it("login + consent at the OP, back with a session for the OP's sub", async () => {
    const olivia = OP_USERS[0]!
    const client = realOp.clients.basic
    const errors: Error[] = []
    const accounts: Record<string, unknown>[] = []
    const config = {
      secret: SECRET,
      trustHost: true,
      basePath: "/auth",
      providers: [BattleNet({ issuer: realOp.issuer, clientId: client.client_id, clientSecret: client.client_secret })],
      logger: { error: (e: Error) => errors.push(e), warn: () => {}, debug: () => {} },
      callbacks: { jwt: ({ token, account }: { token: Record<string, unknown>; account?: Record<string, unknown> | null }) => (account && accounts.push(account), token) },
    } as unknown as AuthConfig
    const browser = new Browser({
      apps: { [ORIGIN]: (req) => (new URL(req.url).pathname.startsWith("/auth") ? Auth(req, config) : new Response("app page")) },
      user: { login: olivia.email, password: olivia.password },
    })
    const csrf = ((await (await browser.request(`${ORIGIN}/auth/csrf`)).json()) as { csrfToken: string }).csrfToken
    const result = await browser.follow(new Request(`${ORIGIN}/auth/signin/battlenet`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken: csrf, callbackUrl: APP_PAGE }).toString(),
    }))
    expect(errors, errors.map((e) => e.message).join("\n")).toEqual([])
    expect(result.url).toBe(APP_PAGE)
    expect(realOp.authorizationRequests().at(-1)!.get("scope")).toBe("openid")
    expect(accounts).toEqual([expect.objectContaining({ provider: "battlenet", type: "oidc", providerAccountId: olivia.sub })])
    // scope openid: no battle_tag from this OP, and Battle.net shares no e-mail or picture.
    const session = (await (await browser.request(`${ORIGIN}/auth/session`)).json()) as { user: Record<string, unknown> }
    expect(session.user.email ?? null).toBeNull()
    expect(session.user.image ?? null).toBeNull()
  })
})

describe("battlenet: AUTH_BATTLENET_* through the resolve path (process env)", () => {
  afterEach(() => vi.unstubAllEnvs())
  it("AUTH_BATTLENET_ID / _SECRET / _ISSUER", () => {
    vi.stubEnv("AUTH_BATTLENET_ID", "bn-id")
    vi.stubEnv("AUTH_BATTLENET_SECRET", "bn-secret")
    vi.stubEnv("AUTH_BATTLENET_ISSUER", "https://oauth.battlenet.com.cn")
    const r = resolveOAuthProvider(BattleNet(), undefined)
    expect({ clientId: r.clientId, clientSecret: r.clientSecret, issuer: r.issuer }).toEqual({ clientId: "bn-id", clientSecret: "bn-secret", issuer: "https://oauth.battlenet.com.cn" })
  })
})
