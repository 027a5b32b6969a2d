// Provider catalogue, batch social-c (issue 16): kakao, mailru, naver, netlify, notion, osu, patreon, pinterest, strava,
// todoist, zoom (OAuth 2) and line, roblox, salesforce (OpenID Connect with a fixed issuer).
// 1. Shape: each provider's documented id, type, checks, endpoints, scope, client auth and button style (text/bg contrast
//    >= 4.5:1, a small data:image/svg+xml logo), src/providers/<id>.ts and its ./providers/<id> exports-map entry.
// 2. Sign-in through Auth(): for OAuth 2, the provider's real hosts routed by a customFetch to one local server that
//    plays it (authorize -> code + state, token with the documented client authentication, userinfo replaying the
//    documented body); for OIDC, the mock OP as the issuer (LINE's ID token HS256 under the channel secret, Salesforce's
//    profile from userinfo). The mapped user is in the session; a profile without an id is OAuthProfileParseError.
// 3. Roblox and Salesforce against oidc-provider with only issuer, clientId and clientSecret.
// 4. AUTH_<ID>_ID / _SECRET through setEnvDefaults and the resolve path (Salesforce's issuer: the `issuer` option).
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest"
import { Auth, customFetch } from "../../../src/index.js"
import type { AuthConfig } from "../../../src/index.js"
import { setEnvDefaults } from "../../../src/config/env.js"
import { resolveOAuthProvider } from "../../../src/config/oauth.js"
import { clearDiscoveryCache } from "../../../src/protocols/oauth2.js"
import type { OAuthConfigBase } from "../../../src/providers/types.js"
import Kakao from "../../../src/providers/kakao.js"
import LINE from "../../../src/providers/line.js"
import Mailru from "../../../src/providers/mailru.js"
import Naver from "../../../src/providers/naver.js"
import Netlify from "../../../src/providers/netlify.js"
import Notion, { NOTION_API_VERSION } from "../../../src/providers/notion.js"
import Osu from "../../../src/providers/osu.js"
import Patreon from "../../../src/providers/patreon.js"
import Pinterest from "../../../src/providers/pinterest.js"
import Roblox from "../../../src/providers/roblox.js"
import Salesforce from "../../../src/providers/salesforce.js"
import Strava from "../../../src/providers/strava.js"
import Todoist from "../../../src/providers/todoist.js"
import Zoom from "../../../src/providers/zoom.js"
import { ORIGIN, SECRET } from "../../helpers.js"
import { Browser } from "../../support/browser.js"
import { OP_USERS, startOidcProvider, type OidcOp } from "../../support/oidc-op.js"
import { startMockOp, type MockOp } from "../../support/mock-op.js"
import {
  ERROR_PAGE, type LocalServer, type Recorded, callback, expectRejected, expectSignedIn, localize, logged, routingFetch, sendJson,
  sendRedirect, sessionOf, setup, signInThrough, startLocalServer, startSignIn, useFakeProvider, visitProvider, basicCredentials
} from "../../support/provider-kit.js"

const ROOT = fileURLToPath(new URL("../../../", import.meta.url))
type Factory = (options?: Record<string, unknown>) => OAuthConfigBase
type MappedUser = { name: string | null; email: string | null; image: string | null }

interface OAuthRow {
  id: string
  factory: Factory
  /** undefined: Gatehouse's default (pkce), as Auth.js's. */
  checks?: string[]
  authorization: string
  scope?: string
  token: string
  userinfo: string
  auth?: "client_secret_post"
  bg: string
  text: string
  /** The documented userinfo body, the user it maps to, and the same body without the id. */
  profile: Record<string, unknown>
  user: MappedUser
  withoutId: Record<string, unknown>
}

const OAUTH: OAuthRow[] = [
  {
    id: "kakao", factory: Kakao as Factory, authorization: "https://kauth.kakao.com/oauth/authorize", scope: "",
    token: "https://kauth.kakao.com/oauth/token", userinfo: "https://kapi.kakao.com/v2/user/me", auth: "client_secret_post", bg: "#fee500", text: "#191919",
    profile: { id: 123456789, connected_at: "2022-04-11T01:45:28Z", kakao_account: { profile_nickname_needs_agreement: false, profile: { nickname: "홍길동", thumbnail_image_url: "http://yyy.kakao.com/.../img_110x110.jpg", profile_image_url: "http://yyy.kakao.com/dn/.../img_640x640.jpg", is_default_image: false }, email: "sample@sample.com", is_email_valid: true, is_email_verified: true } },
    user: { name: "홍길동", email: "sample@sample.com", image: "http://yyy.kakao.com/dn/.../img_640x640.jpg" },
    withoutId: { connected_at: "2022-04-11T01:45:28Z", kakao_account: { email: "sample@sample.com" } },
  },
  {
    id: "mailru", factory: Mailru as Factory, authorization: "https://oauth.mail.ru/login", scope: "userinfo",
    token: "https://oauth.mail.ru/token", userinfo: "https://oauth.mail.ru/userinfo", bg: "#005ff9", text: "#fff",
    profile: { id: "1234567890", gender: "m", name: "Ivan Petrov", nickname: "ivan", locale: "ru_RU", first_name: "Ivan", email: "ivan@mail.ru", last_name: "Petrov", birthday: "01.01.1990", image: "https://filin.mail.ru/pic?email=ivan%40mail.ru" },
    user: { name: "Ivan Petrov", email: "ivan@mail.ru", image: "https://filin.mail.ru/pic?email=ivan%40mail.ru" },
    withoutId: { name: "Ivan Petrov", email: "ivan@mail.ru" },
  },
  {
    id: "naver", factory: Naver as Factory, authorization: "https://nid.naver.com/oauth2.0/authorize",
    token: "https://nid.naver.com/oauth2.0/token", userinfo: "https://openapi.naver.com/v1/nid/me", bg: "#03c75a", text: "#000",
    profile: { resultcode: "00", message: "success", response: { email: "openapi@naver.com", nickname: "OpenAPI", profile_image: "https://ssl.pstatic.net/static/pwe/address/nodata_33x33.gif", age: "40-49", gender: "F", id: "32742776", name: "오픈 API", birthday: "10-01" } },
    user: { name: "OpenAPI", email: "openapi@naver.com", image: "https://ssl.pstatic.net/static/pwe/address/nodata_33x33.gif" },
    withoutId: { resultcode: "00", message: "success", response: { email: "openapi@naver.com", nickname: "OpenAPI" } },
  },
  {
    id: "netlify", factory: Netlify as Factory, authorization: "https://app.netlify.com/authorize", scope: "",
    token: "https://api.netlify.com/oauth/token", userinfo: "https://api.netlify.com/api/v1/user", bg: "#32e6e2", text: "#014847",
    profile: { id: "5d3f6a7b8c9d0e1f2a3b4c5d", uid: null, full_name: "Ada Lovelace", avatar_url: "https://avatars.netlify.example/ada.png", email: "ada@example.com", slug: "ada" },
    user: { name: "Ada Lovelace", email: "ada@example.com", image: "https://avatars.netlify.example/ada.png" },
    withoutId: { full_name: "Ada Lovelace", email: "ada@example.com" },
  },
  {
    id: "notion", factory: Notion as Factory, authorization: "https://api.notion.com/v1/oauth/authorize",
    token: "https://api.notion.com/v1/oauth/token", userinfo: "https://api.notion.com/v1/users/me", bg: "#fff", text: "#000",
    profile: { object: "user", id: "16d84278-ab0e-484c-9bdd-b35da3bd8905", name: "pied piper", avatar_url: null, type: "bot", bot: { owner: { type: "user", user: { object: "user", id: "5389a034-eb5c-47b5-8a9e-f79c99ef166c", name: "christine makenotion", avatar_url: "https://s3.notion.example/christine.png", type: "person", person: { email: "christine@makenotion.com" } } }, workspace_name: "Pied Piper" } },
    user: { name: "christine makenotion", email: "christine@makenotion.com", image: "https://s3.notion.example/christine.png" },
    withoutId: { object: "user", id: "16d84278-ab0e-484c-9bdd-b35da3bd8905", type: "bot", bot: { owner: { type: "workspace", workspace: true } } },
  },
  {
    id: "osu", factory: Osu as Factory, authorization: "https://osu.ppy.sh/oauth/authorize", scope: "identify",
    token: "https://osu.ppy.sh/oauth/token", userinfo: "https://osu.ppy.sh/api/v2/me", bg: "#ff66aa", text: "#000",
    profile: { id: 2, username: "peppy", avatar_url: "https://a.ppy.sh/2", country_code: "AU", is_bot: false, is_supporter: true, playmode: "osu" },
    user: { name: "peppy", email: null, image: "https://a.ppy.sh/2" },
    withoutId: { username: "peppy", avatar_url: "https://a.ppy.sh/2" },
  },
  {
    id: "patreon", factory: Patreon as Factory, authorization: "https://www.patreon.com/oauth2/authorize", scope: "identity identity[email]",
    token: "https://www.patreon.com/api/oauth2/token", userinfo: "https://www.patreon.com/api/oauth2/v2/identity?fields%5Buser%5D=full_name,email,is_email_verified,image_url", bg: "#e85b46", text: "#000",
    profile: { data: { attributes: { email: "corgi@example.com", full_name: "Corgi The Dev", image_url: "https://c8.patreon.com/2/200/0000001", is_email_verified: true }, id: "0000001", type: "user" }, links: { self: "https://www.patreon.com/api/oauth2/v2/user/0000001" } },
    user: { name: "Corgi The Dev", email: "corgi@example.com", image: "https://c8.patreon.com/2/200/0000001" },
    withoutId: { data: { attributes: { email: "corgi@example.com", full_name: "Corgi The Dev" }, type: "user" } },
  },
  {
    id: "pinterest", factory: Pinterest as Factory, authorization: "https://www.pinterest.com/oauth", scope: "user_accounts:read",
    token: "https://api.pinterest.com/v5/oauth/token", userinfo: "https://api.pinterest.com/v5/user_account", bg: "#bd081c", text: "#fff",
    profile: { account_type: "PINNER", profile_image: "https://i.pinimg.com/75x75_RS/ada.jpg", website_url: "https://ada.example", username: "ada_pins" },
    user: { name: "ada_pins", email: null, image: "https://i.pinimg.com/75x75_RS/ada.jpg" },
    withoutId: { account_type: "PINNER", profile_image: "https://i.pinimg.com/75x75_RS/ada.jpg" },
  },
  {
    id: "strava", factory: Strava as Factory, authorization: "https://www.strava.com/api/v3/oauth/authorize", scope: "read",
    token: "https://www.strava.com/api/v3/oauth/token", userinfo: "https://www.strava.com/api/v3/athlete", auth: "client_secret_post", bg: "#fc4c02", text: "#000",
    profile: { id: 1234567890987654400, username: "marianne_t", resource_state: 3, firstname: "Marianne", lastname: "Teutenberg", city: "San Francisco", country: "US", profile_medium: "https://xxxxxx.cloudfront.net/pictures/athletes/123456789/123456789/2/medium.jpg", profile: "https://xxxxx.cloudfront.net/pictures/athletes/123456789/123456789/2/large.jpg" },
    user: { name: "Marianne Teutenberg", email: null, image: "https://xxxxx.cloudfront.net/pictures/athletes/123456789/123456789/2/large.jpg" },
    withoutId: { firstname: "Marianne", lastname: "Teutenberg" },
  },
  {
    id: "todoist", factory: Todoist as Factory, authorization: "https://todoist.com/oauth/authorize", scope: "data:read",
    token: "https://todoist.com/oauth/access_token", userinfo: "https://api.todoist.com/api/v1/user", auth: "client_secret_post", bg: "#e44332", text: "#000",
    profile: { id: "2671355", email: "me@example.com", full_name: "Fake User", avatar_big: "https://dcff1xvirvpfp.cloudfront.net/exampleimage_big.jpg", avatar_medium: "https://dcff1xvirvpfp.cloudfront.net/exampleimage_medium.jpg", lang: "en", is_premium: true },
    user: { name: "Fake User", email: "me@example.com", image: "https://dcff1xvirvpfp.cloudfront.net/exampleimage_big.jpg" },
    withoutId: { email: "me@example.com", full_name: "Fake User" },
  },
  {
    id: "zoom", factory: Zoom as Factory, authorization: "https://zoom.us/oauth/authorize", scope: "",
    token: "https://zoom.us/oauth/token", userinfo: "https://api.zoom.us/v2/users/me", bg: "#0b5cff", text: "#fff",
    profile: { id: "KDcuGIm1QgePTO8WbOqwIQ", first_name: "Jill", last_name: "Chill", display_name: "Jill Chill", email: "jchill@example.com", type: 1, pic_url: "https://example.com/photo.jpg", account_id: "q6gBJVO5TzexKYTb_I2rpg", verified: 1 },
    user: { name: "Jill Chill", email: "jchill@example.com", image: "https://example.com/photo.jpg" },
    withoutId: { first_name: "Jill", last_name: "Chill", email: "jchill@example.com" },
  },
]

interface OidcRow {
  id: string
  factory: Factory
  issuer: string
  checks: string[]
  scope?: string
  bg: string
  text: string
  idTokenAlg?: "HS256"
  /** Salesforce: the profile is userinfo (idToken: false). */
  fromUserinfo?: boolean
  claims: Record<string, unknown>
  user: MappedUser
}

const OIDC: OidcRow[] = [
  { id: "line", factory: LINE as Factory, issuer: "https://access.line.me", checks: ["state"], bg: "#007a33", text: "#fff", idTokenAlg: "HS256",
    claims: { name: "Taro Line", email: undefined, picture: "https://profile.line-scdn.net/taro", amr: ["pwd"] }, user: { name: "Taro Line", email: null, image: "https://profile.line-scdn.net/taro" } },
  { id: "roblox", factory: Roblox as Factory, issuer: "https://apis.roblox.com/oauth/", checks: ["pkce", "state"], scope: "openid profile", bg: "#232527", text: "#fff",
    claims: { name: "Builderman", nickname: "Builderman", preferred_username: "builderman", created_at: 1142353247, profile: "https://www.roblox.com/users/156/profile", picture: "https://tr.rbxcdn.com/156.png" },
    user: { name: "Builderman", email: null, image: "https://tr.rbxcdn.com/156.png" } },
  { id: "salesforce", factory: Salesforce as Factory, issuer: "https://login.salesforce.com", checks: ["pkce", "state", "nonce"], bg: "#0b5cab", text: "#fff", fromUserinfo: true,
    claims: { user_id: "005x0000001S1kQAAS", organization_id: "00Dx0000000BV7zEAG", preferred_username: "ada@acme.example", name: "Ada Admin", email: "Ada@Acme.Example", email_verified: true, picture: "https://acme.file.force.com/profilephoto/005/F" },
    user: { name: "Ada Admin", email: "ada@acme.example", image: "https://acme.file.force.com/profilephoto/005/F" } },
]

// ---------------------------------------------------------------------------------------------
// 1. Shape

function luminance(hex: string): number {
  let h = hex.replace("#", "")
  if (h.length === 3) h = [...h].map((c) => c + c).join("")
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
}
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (hi! + 0.05) / (lo! + 0.05)
}
const urlOf = (e: unknown) => (typeof e === "string" ? e : (e as { url?: string } | undefined)?.url?.toString())
const scopeOf = (e: unknown) => (typeof e === "string" ? new URL(e).searchParams.get("scope") ?? undefined : (e as { params?: { scope?: string } } | undefined)?.params?.scope)

describe("social-c shape", () => {
  const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, "utf8")) as { exports: Record<string, unknown> }
  const common = (p: OAuthConfigBase, row: { id: string; factory: Factory; bg: string; text: string }) => {
    expect(p.id).toBe(row.id)
    expect(p.style).toMatchObject({ bg: row.bg, text: row.text })
    expect(contrast(row.bg, row.text), "button text contrast").toBeGreaterThanOrEqual(4.5)
    expect(p.style?.logo).toMatch(/^data:image\/svg\+xml,%3Csvg xmlns='http:\/\/www.w3.org\/2000\/svg'/)
    expect(decodeURIComponent(p.style!.logo!).length, "a small logo").toBeLessThan(700)
    expect(row.factory({ clientId: "x" }).options).toEqual({ clientId: "x" })
    expect(existsSync(`${ROOT}src/providers/${row.id}.ts`)).toBe(true)
    expect(pkg.exports[`./providers/${row.id}`]).toEqual({ types: `./dist/providers/${row.id}.d.ts`, import: `./dist/providers/${row.id}.js` })
  }

  it.each(OAUTH)("$id (oauth)", (row) => {
    const p = row.factory()
    common(p, row)
    expect(p.type).toBe("oauth")
    expect(p.checks).toEqual(row.checks)
    expect(urlOf(p.authorization)?.split("?")[0]).toBe(row.authorization)
    expect(scopeOf(p.authorization)).toBe(row.scope)
    expect(urlOf(p.token)).toBe(row.token)
    expect(urlOf(p.userinfo)).toBe(row.userinfo)
    expect(p.client?.token_endpoint_auth_method).toBe(row.auth)
  })

  it.each(OIDC)("$id (oidc)", (row) => {
    const p = row.factory()
    common(p, row)
    expect(p.type).toBe("oidc")
    expect(p.issuer).toBe(row.issuer)
    expect(p.checks).toEqual(row.checks)
    expect(scopeOf(p.authorization)).toBe(row.scope)
    expect(p.idToken).toBe(row.fromUserinfo ? false : undefined)
    expect(p.client?.id_token_signed_response_alg).toBe(row.idTokenAlg)
  })

  it("notion asks for a user-owned integration; strava for approval_prompt=auto", () => {
    expect((Notion().authorization as { params: Record<string, string> }).params).toMatchObject({ owner: "user", response_type: "code" })
    expect((Strava().authorization as { params: Record<string, string> }).params).toMatchObject({ scope: "read", approval_prompt: "auto", response_type: "code" })
  })
})

// ---------------------------------------------------------------------------------------------
// 2. Sign-in, OAuth 2: one local server plays whichever provider is in play

const CLIENT_ID = "social-c-client"
const CLIENT_SECRET = "social-c-secret"

interface Play {
  row: OAuthRow
  profile: Record<string, unknown>
  accessToken: string
  codes: Map<string, string>
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
      pl.codes.set(code, redirectUri)
      const back = new URL(redirectUri)
      back.searchParams.set("code", code)
      if (r.query.has("state")) back.searchParams.set("state", r.query.get("state")!)
      return sendRedirect(res, r, back.href)
    }
    if (r.method === "POST" && r.originalUrl === row.token) {
      pl.tokenRequests.push(r)
      const body = new URLSearchParams(r.body)
      const [id, secret] = basicCredentials(r.headers.authorization) ?? [body.get("client_id"), body.get("client_secret")]
      if (id !== CLIENT_ID || secret !== CLIENT_SECRET) return sendJson(res, r, 401, { error: "invalid_client" })
      if (pl.codes.get(body.get("code") ?? "") !== body.get("redirect_uri")) return sendJson(res, r, 400, { error: "invalid_grant" })
      pl.codes.delete(body.get("code")!)
      return sendJson(res, r, 200, { access_token: pl.accessToken, token_type: "Bearer", expires_in: 3600, refresh_token: `rt-${row.id}` })
    }
    if (r.method === "GET" && r.originalUrl === row.userinfo) {
      pl.userinfoRequests.push(r)
      if (r.headers.authorization !== `Bearer ${pl.accessToken}`) return sendJson(res, r, 401, { error: "invalid_token" })
      return sendJson(res, r, 200, pl.profile)
    }
    sendJson(res, r, 404, { error: "not_found", url: r.originalUrl })
  })
  return { ...s, reset: () => void (play = undefined) }
}

useFakeProvider(startPlayer, (s) => void (server = s))

const originsOf = (row: OAuthRow) => [...new Set([row.authorization, row.token, row.userinfo].map((u) => new URL(u).origin))]

async function signIn(row: OAuthRow, profile: Record<string, unknown>) {
  play = { row, profile, accessToken: `at-${row.id}-${Math.random().toString(36).slice(2)}`, codes: new Map(), tokenRequests: [], userinfoRequests: [] }
  const origins = originsOf(row)
  const route = routingFetch(origins, server.url)
  const s = setup([row.factory({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, [customFetch]: route.fetch })])
  const started = await startSignIn(s.config, row.id)
  expect(started.location?.origin + started.location!.pathname).toBe(row.authorization)
  const back = await visitProvider(localize(started.location!, origins, server.url))
  const res = await callback(s.config, back, started.jar)
  return { s, started, res, pl: play }
}

describe("social-c OAuth 2 sign-in through Auth() (provider hosts routed to 127.0.0.1)", () => {
  it.each(OAUTH)("$id: the documented responses map to the session user", async (row) => {
    const { s, started, res, pl } = await signIn(row, row.profile)
    expectSignedIn(res, s.log)
    expect((await sessionOf(s.config, started.jar))?.user).toEqual({ ...row.user, ...(row.user.email ? { email: row.user.email.toLowerCase() } : {}) })
    const auth = started.location!.searchParams
    if (row.scope !== undefined) expect(auth.get("scope") ?? "").toBe(row.scope)
    expect(auth.get("code_challenge_method")).toBe("S256")
    const tokenBody = new URLSearchParams(pl.tokenRequests[0]!.body)
    expect(tokenBody.get("code_verifier")).toBeTruthy()
    if (row.auth === "client_secret_post") {
      expect(tokenBody.get("client_secret")).toBe(CLIENT_SECRET)
      expect(pl.tokenRequests[0]!.headers.authorization).toBeUndefined()
    } else {
      expect(basicCredentials(pl.tokenRequests[0]!.headers.authorization)).toEqual([CLIENT_ID, CLIENT_SECRET])
    }
    expect(pl.userinfoRequests).toHaveLength(1)
    const account = s.signInCall().account!
    expect(account).toMatchObject({ provider: row.id, type: "oauth" })
    expect(account.providerAccountId).toMatch(/^\S+$/)
  })

  it.each(OAUTH)("$id: a profile without an id is OAuthProfileParseError", async (row) => {
    const { s, res } = await signIn(row, row.withoutId)
    // Not a client-safe error (as in Auth.js): the error page says Configuration.
    expectRejected(res, s.log, ERROR_PAGE("Configuration"), "OAuthProfileParseError")
  })

  it("notion sends Notion-Version and maps the integration's owner; strava's id is a string; patreon asks for the user fields", async () => {
    const notion = OAUTH.find((r) => r.id === "notion")!
    const a = await signIn(notion, notion.profile)
    expect(a.pl.userinfoRequests[0]!.headers["notion-version"]).toBe(NOTION_API_VERSION)
    expect(a.s.signInCall().account!.providerAccountId).toBe("5389a034-eb5c-47b5-8a9e-f79c99ef166c")
    const strava = OAUTH.find((r) => r.id === "strava")!
    const b = await signIn(strava, { ...strava.profile, id: 134815 })
    expect(b.s.signInCall().account!.providerAccountId).toBe("134815")
    const patreon = new URL(urlOf(Patreon().userinfo)!)
    expect(patreon.searchParams.get("fields[user]")).toBe("full_name,email,is_email_verified,image_url")
  })
})

// ---------------------------------------------------------------------------------------------
// 2. Sign-in, OIDC: the mock OP as the issuer

describe("social-c OIDC sign-in through Auth() (mock OP as the issuer)", () => {
  let op: MockOp
  beforeAll(async () => {
    op = await startMockOp({ clientId: "social-c-oidc" })
  })
  afterAll(async () => op?.stop())
  beforeEach(() => {
    op.reset()
    clearDiscoveryCache()
  })

  function prepare(row: OidcRow, claims: Record<string, unknown>) {
    op.subject = `${row.id}-user-1`
    if (row.idTokenAlg) op.signingAlg = row.idTokenAlg
    if (row.fromUserinfo) op.userinfoClaims = claims
    else op.extraClaims = claims
    return row.factory({ clientId: op.clientId, clientSecret: op.clientSecret, issuer: op.issuer })
  }

  it.each(OIDC)("$id: the documented claims map to the session user", async (row) => {
    const { config, log, signInCall } = setup([prepare(row, row.claims)])
    const { started, res } = await signInThrough(config, row.id)
    expectSignedIn(res, log)
    const auth = started.location!.searchParams
    expect(auth.get("scope")).toBe(row.scope ?? "openid profile email")
    expect(auth.has("code_challenge")).toBe(row.checks.includes("pkce"))
    expect(auth.has("state")).toBe(row.checks.includes("state"))
    expect(auth.has("nonce")).toBe(row.checks.includes("nonce"))
    expect(op.counts.userinfo).toBe(row.fromUserinfo ? 1 : 0)
    expect(signInCall().account).toMatchObject({ provider: row.id, type: "oidc", providerAccountId: `${row.id}-user-1` })
    expect({ name: null, email: null, image: null, ...(await sessionOf(config, started.jar))?.user }).toEqual(row.user)
  })

  it("line: an ID token signed RS256 instead of HS256 is refused", async () => {
    const row = OIDC.find((r) => r.id === "line")!
    const p = prepare(row, row.claims)
    op.signingAlg = "RS256"
    const { config, log } = setup([p])
    const { res } = await signInThrough(config, "line")
    expect(res.headers.get("location")).not.toBe(`${ORIGIN}/dashboard`)
    expect(log.errors.length, logged(log)).toBe(1)
  })

  it.each(OIDC)("$id: a profile without an id is OAuthProfileParseError", async (row) => {
    const p = prepare(row, row.claims)
    // A profile (the app's userinfo hook here) that lacks `sub`: the mapping has no id.
    p.options!.idToken = false
    p.options!.userinfo = { request: () => ({ ...row.claims, sub: undefined }) }
    const { config, log } = setup([p])
    const { res } = await signInThrough(config, row.id)
    expectRejected(res, log, ERROR_PAGE("Configuration"), "OAuthProfileParseError")
  })
})

// ---------------------------------------------------------------------------------------------
// 3. A real OP (oidc-provider) as the issuer: Roblox and Salesforce with only issuer, clientId and clientSecret
//    (LINE's HS256 ID token is covered by the mock OP above).

describe("social-c full flow against oidc-provider", () => {
  let realOp: OidcOp
  const olivia = OP_USERS[0]!
  beforeAll(async () => {
    realOp = await startOidcProvider({ providerIds: ["roblox", "salesforce"] })
  })
  afterAll(async () => realOp?.stop())
  beforeEach(() => clearDiscoveryCache())

  const cases = [
    { id: "roblox", factory: Roblox as Factory, scope: "openid profile", user: { name: olivia.name, email: null, image: olivia.picture } },
    { id: "salesforce", factory: Salesforce as Factory, scope: "openid profile email", user: { name: olivia.name, email: olivia.email, image: olivia.picture } },
  ]
  it.each(cases)("$id: login + consent at the OP, back with a session", async (row) => {
    const client = realOp.clients.basic
    const errors: Error[] = []
    const config = {
      secret: SECRET,
      trustHost: true,
      basePath: "/auth",
      providers: [row.factory({ issuer: realOp.issuer, clientId: client.client_id, clientSecret: client.client_secret })],
      logger: { error: (e: Error) => errors.push(e), warn: () => {}, debug: () => {} },
    } as AuthConfig
    const browser = new Browser({
      apps: { [ORIGIN]: (req) => (new URL(req.url).pathname.startsWith("/auth") ? Auth(req, config) : new Response("app page")) },
      user: { login: olivia.email, password: olivia.password },
    })
    const csrf = ((await (await browser.request(`${ORIGIN}/auth/csrf`)).json()) as { csrfToken: string }).csrfToken
    const result = await browser.follow(new Request(`${ORIGIN}/auth/signin/${row.id}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken: csrf, callbackUrl: `${ORIGIN}/dashboard` }).toString(),
    }))
    expect(errors, errors.map((e) => e.message).join("\n")).toEqual([])
    expect(result.url).toBe(`${ORIGIN}/dashboard`)
    const session = (await (await browser.request(`${ORIGIN}/auth/session`)).json()) as { user: unknown }
    expect(session.user).toEqual(row.user)
    expect(realOp.authorizationRequests().at(-1)!.get("scope")).toBe(row.scope)
  })
})

// ---------------------------------------------------------------------------------------------
// 4. Env

describe("social-c env: AUTH_<ID>_ID / _SECRET", () => {
  afterEach(() => vi.unstubAllEnvs())
  const rows = [...OAUTH, ...OIDC].map((r) => ({ id: r.id, factory: r.factory }))

  it.each(rows)("$id: setEnvDefaults and the resolve path read them", (row) => {
    const key = `AUTH_${row.id.toUpperCase()}`
    const env: Record<string, string> = { [`${key}_ID`]: `${row.id}-env-id`, [`${key}_SECRET`]: `${row.id}-env-secret` }
    const config = { providers: [row.factory()] } as Parameters<typeof setEnvDefaults>[1]
    setEnvDefaults(env, config)
    expect(config.providers[0]).toMatchObject({ id: row.id, clientId: `${row.id}-env-id`, clientSecret: `${row.id}-env-secret` })
    for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v)
    const r = resolveOAuthProvider(row.factory(), undefined)
    expect({ clientId: r.clientId, clientSecret: r.clientSecret }).toEqual({ clientId: `${row.id}-env-id`, clientSecret: `${row.id}-env-secret` })
  })

  it("salesforce: the `issuer` option selects a sandbox or My Domain issuer (the fixed default wins over AUTH_SALESFORCE_ISSUER, as in Auth.js)", () => {
    expect(resolveOAuthProvider(Salesforce({ issuer: "https://test.salesforce.com" }), undefined).issuer).toBe("https://test.salesforce.com")
    vi.stubEnv("AUTH_SALESFORCE_ISSUER", "https://test.salesforce.com")
    expect(resolveOAuthProvider(Salesforce(), undefined).issuer).toBe("https://login.salesforce.com")
  })
})
