// Provider catalogue, batch social-e (issue 16): bungie, click-up, concept2, eventbrite, eveonline, faceit, freshbooks,
// mailchimp, medium, pipedrive, netsuite (OAuth 2).
// 1. Shape: each provider's documented id, type, checks, endpoints, scope, client auth and button style (text/bg contrast
//    >= 4.5:1, a small data:image/svg+xml logo), src/providers/<id>.ts and its ./providers/<id> exports-map entry.
// 2. Sign-in through Auth(): the provider's real hosts routed by a customFetch to one local server that plays it
//    (authorize -> code + state, token with the documented client authentication, userinfo replaying the documented
//    body). The mapped user is in the session; a profile without an id is OAuthProfileParseError.
// 3. AUTH_<ID>_ID / _SECRET through setEnvDefaults and the resolve path.
import { generateKeyPairSync, sign } from "node:crypto"
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { afterEach, describe, expect, it, vi } from "vitest"
import { customFetch } from "../../../src/index.js"
import { setEnvDefaults } from "../../../src/config/env.js"
import { resolveOAuthProvider } from "../../../src/config/oauth.js"
import type { OAuthConfigBase } from "../../../src/providers/types.js"
import Bungie from "../../../src/providers/bungie.js"
import ClickUp from "../../../src/providers/click-up.js"
import Concept2 from "../../../src/providers/concept2.js"
import Eventbrite from "../../../src/providers/eventbrite.js"
import EVEOnline from "../../../src/providers/eveonline.js"
import FACEIT from "../../../src/providers/faceit.js"
import Freshbooks from "../../../src/providers/freshbooks.js"
import Mailchimp from "../../../src/providers/mailchimp.js"
import Medium from "../../../src/providers/medium.js"
import Pipedrive from "../../../src/providers/pipedrive.js"
import NetSuite from "../../../src/providers/netsuite.js"
import WeChat from "../../../src/providers/wechat.js"
import { ORIGIN } from "../../helpers.js"
import {
  ERROR_PAGE, type LocalServer, type Recorded, callback, expectRejected, expectSignedIn, localize, logged, routingFetch, sendJson,
  sendRedirect, sessionOf, setup, startLocalServer, startSignIn, useFakeProvider, visitProvider, basicCredentials
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
  /** EVE: the access token is a JWT of `profile` signed by the server, and "userinfo" is the JWKS it is checked against. */
  jwt?: boolean
  /** WeChat: a token answer without token_type plus openid/unionid; userinfo takes access_token and openid as query. */
  wechat?: boolean
  /** The userinfo Authorization scheme (default Bearer). */
  userinfoScheme?: string
  /** Headers the userinfo request must carry besides the bearer token. */
  userinfoHeaders?: Record<string, string>
  bg: string
  text: string
  /** The documented userinfo body, the user it maps to, and the same body without the id. */
  profile: Record<string, unknown>
  user: MappedUser
  withoutId: Record<string, unknown>
}

const BUNGIE_KEY = "bungie-api-key-1"
const NETSUITE_RESTLET = "https://1234567-sb1.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=101&deploy=1"
const NetSuiteSandbox: Factory = (o = {}) => NetSuite({ accountID: "1234567_SB1", userinfo: NETSUITE_RESTLET, ...o })
const BungieWithKey: Factory = (o = {}) => Bungie({ apiKey: BUNGIE_KEY, ...o })

const OAUTH: OAuthRow[] = [
  {
    id: "bungie", factory: BungieWithKey, authorization: "https://www.bungie.net/en/OAuth/Authorize",
    token: "https://www.bungie.net/platform/app/oauth/token/", userinfo: "https://www.bungie.net/Platform/User/GetMembershipsForCurrentUser/",
    userinfoHeaders: { "x-api-key": BUNGIE_KEY }, bg: "#000", text: "#fff",
    profile: { Response: { destinyMemberships: [{ membershipType: 3, membershipId: "4611686018467284386", displayName: "Guardian" }], bungieNetUser: { membershipId: "14363287", uniqueName: "Guardian#1234", displayName: "Guardian", profilePicturePath: "/img/profile/avatars/default_avatar.gif", locale: "en" } }, ErrorCode: 1, ThrottleSeconds: 0, ErrorStatus: "Success", Message: "Ok", MessageData: {} },
    user: { name: "Guardian", email: null, image: "https://www.bungie.net/img/profile/avatars/default_avatar.gif" },
    withoutId: { Response: { bungieNetUser: { displayName: "Guardian" } }, ErrorCode: 1, ErrorStatus: "Success" },
  },
  {
    id: "click-up", factory: ClickUp as Factory, checks: ["state"], authorization: "https://app.clickup.com/api",
    token: "https://api.clickup.com/api/v2/oauth/token", userinfo: "https://api.clickup.com/api/v2/user", auth: "client_secret_post", bg: "#24292f", text: "#fff",
    profile: { user: { id: 123, username: "John Doe", email: "johndoe@gmail.com", color: "#000000", profilePicture: "https://attachments.clickup.com/profilePictures/123_abc.jpg", initials: "JD", week_start_day: 0, global_font_support: false, timezone: "America/Los_Angeles" } },
    user: { name: "John Doe", email: "johndoe@gmail.com", image: "https://attachments.clickup.com/profilePictures/123_abc.jpg" },
    withoutId: { user: { username: "John Doe", email: "johndoe@gmail.com" } },
  },
  {
    id: "concept2", factory: Concept2 as Factory, authorization: "https://log.concept2.com/oauth/authorize", scope: "user:read,results:write",
    token: "https://log.concept2.com/oauth/access_token", userinfo: "https://log.concept2.com/api/users/me", bg: "#003a70", text: "#fff",
    profile: { data: { id: 1, username: "johnsmith", first_name: "John", last_name: "Smith", gender: "M", dob: "1970-01-01", email: "john@example.com", country: "USA", profile_image: "https://log.concept2.com/images/profile/1.jpg", age_restricted: false, email_permission: null, max_heart_rate: null, weight: 7950, logbook_privacy: "partners" } },
    user: { name: "johnsmith", email: "john@example.com", image: "https://log.concept2.com/images/profile/1.jpg" },
    withoutId: { data: { username: "johnsmith", email: "john@example.com" } },
  },
  {
    id: "eventbrite", factory: Eventbrite as Factory, authorization: "https://www.eventbrite.com/oauth/authorize", scope: "user.profile",
    token: "https://www.eventbrite.com/oauth/token", userinfo: "https://www.eventbriteapi.com/v3/users/me/", auth: "client_secret_post", bg: "#f05537", text: "#000",
    profile: { emails: [{ email: "old@example.com", verified: true, primary: false }, { email: "ada@example.com", verified: true, primary: true }], id: "1234567890", name: "Ada Lovelace", first_name: "Ada", last_name: "Lovelace", is_public: false, image_id: "4567" },
    user: { name: "Ada Lovelace", email: "ada@example.com", image: "https://img.evbuc.com/https%3A%2F%2Fcdn.evbuc.com%2Fimages%2F4567%2F1%2Foriginal.jpg" },
    withoutId: { emails: [], name: "Ada Lovelace" },
  },
  {
    id: "eveonline", factory: EVEOnline as Factory, checks: ["state"], authorization: "https://login.eveonline.com/v2/oauth/authorize", scope: "publicData",
    token: "https://login.eveonline.com/v2/oauth/token", userinfo: "https://login.eveonline.com/oauth/jwks", jwt: true, bg: "#000", text: "#fff",
    // The claims of an SSO v2 access token (ESI docs, "Validating JWT tokens").
    profile: { scp: ["publicData"], jti: "998e12c7-3241-43c5-8355-2c48822e0a1b", kid: "JWT-Signature-Key", sub: "CHARACTER:EVE:95465499", azp: "social-e-client", tenant: "tranquility", tier: "live", region: "world", aud: ["social-e-client", "EVE Online"], name: "CCP Bartender", owner: "lots_of_letters_and_numbers=", exp: 4102444800, iat: 1700000000, iss: "https://login.eveonline.com" },
    user: { name: "CCP Bartender", email: null, image: "https://images.evetech.net/characters/95465499/portrait?size=128" },
    withoutId: { scp: "publicData", kid: "JWT-Signature-Key", azp: "social-e-client", aud: ["social-e-client", "EVE Online"], name: "CCP Bartender", exp: 4102444800, iss: "login.eveonline.com" },
  },
  {
    id: "faceit", factory: FACEIT as Factory, authorization: "https://accounts.faceit.com/accounts",
    token: "https://api.faceit.com/auth/v1/oauth/token", userinfo: "https://api.faceit.com/auth/v1/resources/userinfo", bg: "#ff5500", text: "#000",
    profile: { guid: "0f7c4d0c-2a6b-4a0e-9a53-8a4d2f3b1c11", nickname: "s1mple_fan", name: "Sasha", email: "sasha@example.com", picture: "https://assets.faceit-cdn.net/avatars/sasha.jpg", locale: "en", membership: "free" },
    user: { name: "Sasha", email: "sasha@example.com", image: "https://assets.faceit-cdn.net/avatars/sasha.jpg" },
    withoutId: { nickname: "s1mple_fan", email: "sasha@example.com" },
  },
  {
    id: "freshbooks", factory: Freshbooks as Factory, authorization: "https://auth.freshbooks.com/service/auth/oauth/authorize",
    token: "https://api.freshbooks.com/auth/oauth/token", userinfo: "https://api.freshbooks.com/auth/api/v1/users/me", bg: "#0075dd", text: "#fff",
    profile: { response: { id: 2192788, identity_id: 2192788, first_name: "Bruce", last_name: "Wayne", email: "bruce@example.com", language: "en", confirmed_at: "2017-05-16T15:25:01Z", created_at: "2017-05-16T15:24:25Z" } },
    user: { name: "Bruce Wayne", email: "bruce@example.com", image: null },
    withoutId: { response: { first_name: "Bruce", last_name: "Wayne", email: "bruce@example.com" } },
  },
  {
    id: "mailchimp", factory: Mailchimp as Factory, authorization: "https://login.mailchimp.com/oauth2/authorize",
    token: "https://login.mailchimp.com/oauth2/token", userinfo: "https://login.mailchimp.com/oauth2/metadata", userinfoScheme: "OAuth", bg: "#000", text: "#fff",
    profile: { dc: "us1", role: "owner", accountname: "Freddie's Jokes", user_id: 8675309, login: { email: "freddie@example.com", avatar: null, login_id: 8675309, login_name: "freddie", login_email: "freddie@example.com" }, login_url: "https://login.mailchimp.com", api_endpoint: "https://us1.api.mailchimp.com" },
    user: { name: "Freddie's Jokes", email: "freddie@example.com", image: null },
    withoutId: { dc: "us1", accountname: "Freddie's Jokes", login: { email: "freddie@example.com" } },
  },
  {
    id: "medium", factory: Medium as Factory, authorization: "https://medium.com/m/oauth/authorize", scope: "basicProfile",
    token: "https://api.medium.com/v1/tokens", userinfo: "https://api.medium.com/v1/me", auth: "client_secret_post", bg: "#000", text: "#fff",
    profile: { data: { id: "5303d74c64f66366f00cb9b2a94f3251bf5", username: "majelbstoat", name: "Jamie Talbot", url: "https://medium.com/@majelbstoat", imageUrl: "https://images.medium.com/0*fkfQiTzT7TlUGGyI.png" } },
    user: { name: "Jamie Talbot", email: null, image: "https://images.medium.com/0*fkfQiTzT7TlUGGyI.png" },
    withoutId: { data: { username: "majelbstoat", name: "Jamie Talbot" } },
  },
  {
    id: "pipedrive", factory: Pipedrive as Factory, authorization: "https://oauth.pipedrive.com/oauth/authorize",
    token: "https://oauth.pipedrive.com/oauth/token", userinfo: "https://api.pipedrive.com/v1/users/me", bg: "#017737", text: "#fff",
    profile: { success: true, data: { id: 123, name: "Pipe Driver", default_currency: "EUR", locale: "et_EE", lang: 1, email: "pipe@example.com", phone: null, activated: true, icon_url: "https://pipedrive-profile-pics.s3.example/123.jpg", company_id: 456, company_name: "Acme", company_domain: "acme" } },
    user: { name: "Pipe Driver", email: "pipe@example.com", image: "https://pipedrive-profile-pics.s3.example/123.jpg" },
    withoutId: { success: true, data: { name: "Pipe Driver", email: "pipe@example.com" } },
  },
  {
    id: "netsuite", factory: NetSuiteSandbox, checks: ["state"], authorization: "https://1234567-sb1.app.netsuite.com/app/login/oauth2/authorize.nl", scope: "restlets rest_webservices",
    token: "https://1234567-sb1.suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token", userinfo: NETSUITE_RESTLET, bg: "#181a1b", text: "#fbfbfb",
    profile: { id: 3, name: "Nia Suite", email: "nia@example.com", location: 1, role: 3, roleId: "administrator", roleCenter: "BASIC", contact: 0, subsidiary: 1, department: 0 },
    user: { name: "Nia Suite", email: "nia@example.com", image: null },
    withoutId: { name: "Nia Suite", email: "nia@example.com" },
  },
  {
    id: "wechat", factory: WeChat as Factory, checks: ["state"], authorization: "https://open.weixin.qq.com/connect/oauth2/authorize", scope: "snsapi_userinfo",
    token: "https://api.weixin.qq.com/sns/oauth2/access_token", userinfo: "https://api.weixin.qq.com/sns/userinfo", auth: "client_secret_post", wechat: true, bg: "#07c160", text: "#000",
    profile: { openid: "OPENID-1", nickname: "小明", sex: 1, province: "Guangdong", city: "Shenzhen", country: "CN", headimgurl: "https://thirdwx.qlogo.cn/mmopen/g3MonUZtNHkdmzicIlibx6iaFqAc56vxLSUfpb6n5WKSYVY0ChQKkiaJSgQ1dZuTOgvLLrhJbERQQ4eMsv84eavHiaiceqxibJxCfHe/46", privilege: ["PRIVILEGE1"], unionid: "o6_bmasdasdsad6_2sgVt7hMZOPfL" },
    user: { name: "小明", email: null, image: "https://thirdwx.qlogo.cn/mmopen/g3MonUZtNHkdmzicIlibx6iaFqAc56vxLSUfpb6n5WKSYVY0ChQKkiaJSgQ1dZuTOgvLLrhJbERQQ4eMsv84eavHiaiceqxibJxCfHe/46" },
    withoutId: { openid: "OPENID-1", nickname: "小明", headimgurl: "https://thirdwx.qlogo.cn/x/46" },
  },
]

const EVE_KEY = generateKeyPairSync("rsa", { modulusLength: 2048 })
const EVE_JWKS = { keys: [{ ...EVE_KEY.publicKey.export({ format: "jwk" }), kid: "JWT-Signature-Key", alg: "RS256", use: "sig" }] }
function eveJwt(claims: Record<string, unknown>, key = EVE_KEY.privateKey): string {
  const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url")
  const input = `${part({ alg: "RS256", kid: "JWT-Signature-Key", typ: "JWT" })}.${part(claims)}`
  return `${input}.${sign("RSA-SHA256", Buffer.from(input), key).toString("base64url")}`
}

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

describe("social-e shape", () => {
  const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, "utf8")) as { exports: Record<string, unknown> }
  const common = (p: OAuthConfigBase, row: { id: string; factory: Factory; bg: string; text: string }) => {
    expect(p.id).toBe(row.id)
    expect(p.style).toMatchObject({ bg: row.bg, text: row.text })
    expect(contrast(row.bg, row.text), "button text contrast").toBeGreaterThanOrEqual(4.5)
    expect(p.style?.logo).toMatch(/^data:image\/svg\+xml,%3Csvg xmlns='http:\/\/www.w3.org\/2000\/svg'/)
    expect(decodeURIComponent(p.style!.logo!).length, "a small logo").toBeLessThan(700)
    expect(row.factory({ clientId: "x" }).options).toMatchObject({ clientId: "x" })
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
    // NetSuite has no fixed userinfo endpoint: the app gives its RESTlet in the options.
    expect(urlOf(p.userinfo ?? p.options?.userinfo)).toBe(row.userinfo)
    expect(p.client?.token_endpoint_auth_method).toBe(row.auth)
  })

  it("netsuite: accountID picks the account's hosts (an underscore becomes a hyphen), prompt and scope pass through; bungie keeps apiKey out of the options", () => {
    const p = NetSuite({ accountID: "TSTDRV123", prompt: "login", scope: "restlets" })
    expect(urlOf(p.authorization)).toBe("https://tstdrv123.app.netsuite.com/app/login/oauth2/authorize.nl")
    expect((p.authorization as { params: Record<string, string> }).params).toEqual({ scope: "restlets", prompt: "login" })
    expect(urlOf(p.token)).toBe("https://tstdrv123.suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token")
    expect(p.options).toEqual({})
    expect(() => resolveOAuthProvider(NetSuite({ userinfo: NETSUITE_RESTLET }), undefined)).toThrow(/netsuite.*authorization/)
    expect(Bungie({ apiKey: "k", clientId: "c" }).options).toEqual({ clientId: "c" })
    expect((Bungie().authorization as { params: Record<string, string> }).params).toEqual({ reauth: "true" })
    expect((FACEIT().authorization as { params: Record<string, string> }).params).toEqual({ redirect_popup: "true" })
  })
})

// ---------------------------------------------------------------------------------------------
// 2. Sign-in, OAuth 2: one local server plays whichever provider is in play

const CLIENT_ID = "social-e-client"
const CLIENT_SECRET = "social-e-secret"

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
      if (row.wechat) {
        // WeChat's documented answer: no token_type; openid (and unionid) beside the token.
        if (pl.codes.get(body.get("code") ?? "") !== body.get("redirect_uri")) return sendJson(res, r, 200, { errcode: 40029, errmsg: "invalid code" })
        if (body.get("appid") !== CLIENT_ID || body.get("secret") !== CLIENT_SECRET) return sendJson(res, r, 200, { errcode: 40125, errmsg: "invalid appsecret" })
        return sendJson(res, r, 200, { access_token: pl.accessToken, expires_in: 7200, refresh_token: "rt-wechat", openid: "OPENID-1", scope: "snsapi_userinfo", unionid: "o6_bmasdasdsad6_2sgVt7hMZOPfL" })
      }
      const [id, secret] = basicCredentials(r.headers.authorization) ?? [body.get("client_id"), body.get("client_secret")]
      if (id !== CLIENT_ID || secret !== CLIENT_SECRET) return sendJson(res, r, 401, { error: "invalid_client" })
      if (pl.codes.get(body.get("code") ?? "") !== body.get("redirect_uri")) return sendJson(res, r, 400, { error: "invalid_grant" })
      pl.codes.delete(body.get("code")!)
      return sendJson(res, r, 200, { access_token: pl.accessToken, token_type: "Bearer", expires_in: 3600, refresh_token: `rt-${row.id}` })
    }
    if (row.wechat && r.method === "GET" && r.originalUrl?.split("?")[0] === row.userinfo) {
      pl.userinfoRequests.push(r)
      if (r.query.get("access_token") !== pl.accessToken || r.query.get("openid") !== "OPENID-1") return sendJson(res, r, 200, { errcode: 40003, errmsg: "invalid openid" })
      return sendJson(res, r, 200, pl.profile)
    }
    if (r.method === "GET" && r.originalUrl === row.userinfo) {
      pl.userinfoRequests.push(r)
      if (row.jwt) return sendJson(res, r, 200, EVE_JWKS)
      if (r.headers.authorization !== `${row.userinfoScheme ?? "Bearer"} ${pl.accessToken}`) return sendJson(res, r, 401, { error: "invalid_token" })
      for (const [h, v] of Object.entries(row.userinfoHeaders ?? {})) if (r.headers[h] !== v) return sendJson(res, r, 401, { error: `missing ${h}` })
      return sendJson(res, r, 200, pl.profile)
    }
    sendJson(res, r, 404, { error: "not_found", url: r.originalUrl })
  })
  return { ...s, reset: () => void (play = undefined) }
}

useFakeProvider(startPlayer, (s) => void (server = s))

const originsOf = (row: OAuthRow) => [...new Set([row.authorization, row.token, row.userinfo].map((u) => new URL(u).origin))]

async function signIn(row: OAuthRow, profile: Record<string, unknown>, accessToken?: string) {
  play = { row, profile, accessToken: accessToken ?? (row.jwt ? eveJwt(profile) : `at-${row.id}-${Math.random().toString(36).slice(2)}`), codes: new Map(), tokenRequests: [], userinfoRequests: [] }
  const origins = originsOf(row)
  const route = routingFetch(origins, server.url)
  const s = setup([row.factory({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, [customFetch]: route.fetch })])
  const started = await startSignIn(s.config, row.id)
  expect(started.location?.origin + started.location!.pathname).toBe(row.authorization)
  const back = await visitProvider(localize(started.location!, origins, server.url))
  const res = await callback(s.config, back, started.jar)
  return { s, started, res, pl: play }
}

describe("social-e OAuth 2 sign-in through Auth() (provider hosts routed to 127.0.0.1)", () => {
  it.each(OAUTH)("$id: the documented responses map to the session user", async (row) => {
    const { s, started, res, pl } = await signIn(row, row.profile)
    expectSignedIn(res, s.log)
    expect((await sessionOf(s.config, started.jar))?.user).toEqual({ ...row.user, ...(row.user.email ? { email: row.user.email.toLowerCase() } : {}) })
    const auth = started.location!.searchParams
    if (row.scope !== undefined) expect(auth.get("scope") ?? "").toBe(row.scope)
    const pkce = (row.checks ?? ["pkce"]).includes("pkce")
    expect(auth.get("code_challenge_method")).toBe(pkce ? "S256" : null)
    expect(auth.has("state")).toBe(!pkce || (row.checks ?? []).includes("state"))
    const tokenBody = new URLSearchParams(pl.tokenRequests[0]!.body)
    expect(Boolean(tokenBody.get("code_verifier"))).toBe(pkce)
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

  it("numeric ids become strings; bungie without its API key is refused by Bungie.net and the sign-in fails", async () => {
    const concept2 = OAUTH.find((r) => r.id === "concept2")!
    expect((await signIn(concept2, concept2.profile)).s.signInCall().account!.providerAccountId).toBe("1")
    const eve = OAUTH.find((r) => r.id === "eveonline")!
    expect((await signIn(eve, eve.profile)).s.signInCall().account!.providerAccountId).toBe("95465499")
    expect((await signIn(eve, { ...eve.profile, sub: "CHARACTER:EVE:2112625428" })).s.signInCall().account!.providerAccountId).toBe("2112625428")
    const bungie = OAUTH.find((r) => r.id === "bungie")!
    const { s, res } = await signIn({ ...bungie, factory: Bungie as Factory }, bungie.profile)
    expect(res.headers.get("location")).not.toBe(`${ORIGIN}/dashboard`)
    expect(s.log.errors.length).toBe(1)
  })
})

describe("social-e wechat", () => {
  const wechat = OAUTH.find((r) => r.id === "wechat")!
  it("asks with appid (and the website QR login with snsapi_login)", async () => {
    const { started } = await signIn(wechat, wechat.profile)
    expect(started.location!.searchParams.get("appid")).toBe(CLIENT_ID)
    const web = WeChat({ platformType: "WebsiteApp" })
    expect(urlOf(web.authorization)).toBe("https://open.weixin.qq.com/connect/qrconnect")
    expect(scopeOf(web.authorization)).toBe("snsapi_login")
    expect(web.options).toEqual({})
  })
  it("the secret parameter comes from AUTH_WECHAT_SECRET when clientSecret is not given", async () => {
    vi.stubEnv("AUTH_WECHAT_SECRET", CLIENT_SECRET)
    try {
      const { s, res } = await signIn({ ...wechat, factory: (o = {}) => WeChat({ ...o, clientSecret: undefined }) }, wechat.profile)
      expect(res.headers.get("location"), logged(s.log)).toBe(`${ORIGIN}/dashboard`)
      expect(new URLSearchParams(s.signInCall().account ? (play?.tokenRequests[0]?.body ?? "") : "").get("secret")).toBe(CLIENT_SECRET)
    } finally {
      vi.unstubAllEnvs()
    }
  })
  it("an errcode answered with HTTP 200 fails the sign-in", async () => {
    const { s, res } = await signIn({ ...wechat, factory: (o = {}) => WeChat({ ...o, clientSecret: "wrong" }) }, wechat.profile)
    expect(res.headers.get("location")).not.toBe(`${ORIGIN}/dashboard`)
    expect(s.log.errors.length).toBe(1)
    expect(logged(s.log)).toContain("errcode 40125")
  })
})

describe("social-e eveonline: the access token is checked against the JWKS", () => {
  const eve = OAUTH.find((r) => r.id === "eveonline")!
  const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey
  it.each([
    { why: "signed by another key", token: () => eveJwt(eve.profile, other) },
    { why: "issued to another client", token: () => eveJwt({ ...eve.profile, aud: ["someone-else", "EVE Online"] }) },
    { why: "from another issuer", token: () => eveJwt({ ...eve.profile, iss: "https://evil.example" }) },
    { why: "expired", token: () => eveJwt({ ...eve.profile, exp: 1700000000 }) },
  ])("a token $why signs no one in", async ({ token }) => {
    const { s, res } = await signIn(eve, eve.profile, token())
    expect(res.headers.get("location")).not.toBe(`${ORIGIN}/dashboard`)
    expect(s.log.errors.length).toBe(1)
  })
})

// ---------------------------------------------------------------------------------------------
// 3. Env

describe("social-e env: AUTH_<ID>_ID / _SECRET", () => {
  afterEach(() => vi.unstubAllEnvs())

  it.each(OAUTH)("$id: setEnvDefaults and the resolve path read them", (row) => {
    const key = `AUTH_${row.id.toUpperCase().replace(/-/g, "_")}`
    const env: Record<string, string> = { [`${key}_ID`]: `${row.id}-env-id`, [`${key}_SECRET`]: `${row.id}-env-secret` }
    const config = { providers: [row.factory()] } as Parameters<typeof setEnvDefaults>[1]
    setEnvDefaults(env, config)
    expect(config.providers[0]).toMatchObject({ id: row.id, clientId: `${row.id}-env-id`, clientSecret: `${row.id}-env-secret` })
    for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v)
    const r = resolveOAuthProvider(row.factory(), undefined)
    expect({ clientId: r.clientId, clientSecret: r.clientSecret }).toEqual({ clientId: `${row.id}-env-id`, clientSecret: `${row.id}-env-secret` })
  })
})
