// Provider catalogue, batch social-e: bungie, click-up, concept2, eventbrite, eveonline, faceit, freshbooks,
// mailchimp, medium, pipedrive, netsuite, wechat (OAuth 2).
// 1. Shape: each provider's documented id, type, checks, endpoints, scope, client auth and button style (text/bg contrast
//    >= 4.5:1, a small data:image/svg+xml logo), src/providers/<id>.ts and its ./providers/<id> exports-map entry.
// 2. Sign-in through Auth(): the provider's real hosts routed to the catalogue player (test/support/catalogue-kit.ts:
//    authorize -> code + state, token with the documented client authentication and PKCE, userinfo replaying the
//    documented body; the quirks as player options: Bungie's X-API-Key, Mailchimp's `Authorization: OAuth`, WeChat's
//    appid/secret and errcode-with-200 answers, EVE's JWT access token checked against the JWKS). The mapped user is in
//    the session; a profile without an id is OAuthProfileParseError.
// 3. AUTH_<ID>_ID / _SECRET through setEnvDefaults and the resolve path.
import { generateKeyPairSync, sign } from "node:crypto"
import { afterEach, describe, expect, it, vi } from "vitest"
import { resolveOAuthProvider } from "../../../src/config/oauth.js"
import { getAuthorizationServer, refreshTokens } from "../../../src/protocols/oauth2.js"
import { customFetch } from "../../../src/symbols.js"
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
import { ORIGIN } from "../../support/flow-kit.js"
import { logged } from "../../support/provider-kit.js"
import {
  type Factory,
  type OAuthRow,
  endpointUrl,
  expectEnvFills,
  expectExported,
  expectOAuthShape,
  expectResolvedFromEnv,
  itSignsInAsDocumented,
  paramsOf,
  scopeOf,
  usePlayer,
} from "../../support/catalogue-kit.js"

// EVE's SSO v2 access token is a JWT: signed here with EVE_KEY, checked by the provider against EVE_JWKS, which the
// player serves at EVE's JWKS URL (the row's "userinfo").
const EVE_KEY = generateKeyPairSync("rsa", { modulusLength: 2048 })
const EVE_JWKS = {
  keys: [{ ...EVE_KEY.publicKey.export({ format: "jwk" }), kid: "JWT-Signature-Key", alg: "RS256", use: "sig" }],
}
function eveJwt(claims: Record<string, unknown>, key = EVE_KEY.privateKey): string {
  const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url")
  const input = `${part({ alg: "RS256", kid: "JWT-Signature-Key", typ: "JWT" })}.${part(claims)}`
  return `${input}.${sign("RSA-SHA256", Buffer.from(input), key).toString("base64url")}`
}

const BUNGIE_KEY = "bungie-api-key-1"
const NETSUITE_RESTLET = "https://1234567-sb1.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=101&deploy=1"
const NetSuiteSandbox: Factory = (o = {}) => NetSuite({ accountID: "1234567_SB1", userinfo: NETSUITE_RESTLET, ...o })
const BungieWithKey: Factory = (o = {}) => Bungie({ apiKey: BUNGIE_KEY, ...o })

// The rows (test/support/catalogue-kit.ts OAuthRow) carry the quirks the player plays: Bungie's X-API-Key, Mailchimp's
// `Authorization: OAuth`, WeChat's appid/secret, token answer and openid query, EVE's JWKS at "userinfo".
const OAUTH: OAuthRow[] = [
  {
    id: "bungie",
    factory: BungieWithKey,
    authorization: "https://www.bungie.net/en/OAuth/Authorize",
    token: "https://www.bungie.net/platform/app/oauth/token/",
    userinfo: "https://www.bungie.net/Platform/User/GetMembershipsForCurrentUser/",
    userinfoHeaders: { "x-api-key": BUNGIE_KEY },
    bg: "#000",
    text: "#fff",
    profile: {
      Response: {
        destinyMemberships: [{ membershipType: 3, membershipId: "4611686018467284386", displayName: "Guardian" }],
        bungieNetUser: {
          membershipId: "14363287",
          uniqueName: "Guardian#1234",
          displayName: "Guardian",
          profilePicturePath: "/img/profile/avatars/default_avatar.gif",
          locale: "en",
        },
      },
      ErrorCode: 1,
      ThrottleSeconds: 0,
      ErrorStatus: "Success",
      Message: "Ok",
      MessageData: {},
    },
    user: { name: "Guardian", email: null, image: "https://www.bungie.net/img/profile/avatars/default_avatar.gif" },
    withoutId: { Response: { bungieNetUser: { displayName: "Guardian" } }, ErrorCode: 1, ErrorStatus: "Success" },
  },
  {
    id: "click-up",
    factory: ClickUp as Factory,
    checks: ["state"],
    authorization: "https://app.clickup.com/api",
    token: "https://api.clickup.com/api/v2/oauth/token",
    userinfo: "https://api.clickup.com/api/v2/user",
    auth: "client_secret_post",
    bg: "#24292f",
    text: "#fff",
    profile: {
      user: {
        id: 123,
        username: "John Doe",
        email: "johndoe@gmail.com",
        color: "#000000",
        profilePicture: "https://attachments.clickup.com/profilePictures/123_abc.jpg",
        initials: "JD",
        week_start_day: 0,
        global_font_support: false,
        timezone: "America/Los_Angeles",
      },
    },
    user: {
      name: "John Doe",
      email: "johndoe@gmail.com",
      image: "https://attachments.clickup.com/profilePictures/123_abc.jpg",
    },
    withoutId: { user: { username: "John Doe", email: "johndoe@gmail.com" } },
  },
  {
    id: "concept2",
    factory: Concept2 as Factory,
    authorization: "https://log.concept2.com/oauth/authorize",
    scope: "user:read,results:write",
    token: "https://log.concept2.com/oauth/access_token",
    userinfo: "https://log.concept2.com/api/users/me",
    bg: "#003a70",
    text: "#fff",
    profile: {
      data: {
        id: 1,
        username: "johnsmith",
        first_name: "John",
        last_name: "Smith",
        gender: "M",
        dob: "1970-01-01",
        email: "john@example.com",
        country: "USA",
        profile_image: "https://log.concept2.com/images/profile/1.jpg",
        age_restricted: false,
        email_permission: null,
        max_heart_rate: null,
        weight: 7950,
        logbook_privacy: "partners",
      },
    },
    user: { name: "johnsmith", email: "john@example.com", image: "https://log.concept2.com/images/profile/1.jpg" },
    withoutId: { data: { username: "johnsmith", email: "john@example.com" } },
  },
  {
    id: "eventbrite",
    factory: Eventbrite as Factory,
    authorization: "https://www.eventbrite.com/oauth/authorize",
    scope: "user.profile",
    token: "https://www.eventbrite.com/oauth/token",
    userinfo: "https://www.eventbriteapi.com/v3/users/me/",
    auth: "client_secret_post",
    bg: "#f05537",
    text: "#000",
    profile: {
      emails: [
        { email: "old@example.com", verified: true, primary: false },
        { email: "ada@example.com", verified: true, primary: true },
      ],
      id: "1234567890",
      name: "Ada Lovelace",
      first_name: "Ada",
      last_name: "Lovelace",
      is_public: false,
      image_id: "4567",
    },
    user: {
      name: "Ada Lovelace",
      email: "ada@example.com",
      image: "https://img.evbuc.com/https%3A%2F%2Fcdn.evbuc.com%2Fimages%2F4567%2F1%2Foriginal.jpg",
    },
    withoutId: { emails: [], name: "Ada Lovelace" },
  },
  {
    id: "eveonline",
    factory: EVEOnline as Factory,
    checks: ["state"],
    authorization: "https://login.eveonline.com/v2/oauth/authorize",
    scope: "publicData",
    token: "https://login.eveonline.com/v2/oauth/token",
    userinfo: "https://login.eveonline.com/oauth/jwks",
    publicUserinfo: EVE_JWKS,
    bg: "#000",
    text: "#fff",
    // The claims of an SSO v2 access token (ESI docs, "Validating JWT tokens").
    profile: {
      scp: ["publicData"],
      jti: "998e12c7-3241-43c5-8355-2c48822e0a1b",
      kid: "JWT-Signature-Key",
      sub: "CHARACTER:EVE:95465499",
      azp: "social-e-client",
      tenant: "tranquility",
      tier: "live",
      region: "world",
      aud: ["social-e-client", "EVE Online"],
      name: "CCP Bartender",
      owner: "lots_of_letters_and_numbers=",
      exp: 4102444800,
      iat: 1700000000,
      iss: "https://login.eveonline.com",
    },
    user: {
      name: "CCP Bartender",
      email: null,
      image: "https://images.evetech.net/characters/95465499/portrait?size=128",
    },
    withoutId: {
      scp: "publicData",
      kid: "JWT-Signature-Key",
      azp: "social-e-client",
      aud: ["social-e-client", "EVE Online"],
      name: "CCP Bartender",
      exp: 4102444800,
      iss: "login.eveonline.com",
    },
  },
  {
    id: "faceit",
    factory: FACEIT as Factory,
    authorization: "https://accounts.faceit.com/accounts",
    token: "https://api.faceit.com/auth/v1/oauth/token",
    userinfo: "https://api.faceit.com/auth/v1/resources/userinfo",
    bg: "#ff5500",
    text: "#000",
    profile: {
      guid: "0f7c4d0c-2a6b-4a0e-9a53-8a4d2f3b1c11",
      nickname: "s1mple_fan",
      name: "Sasha",
      email: "sasha@example.com",
      picture: "https://assets.faceit-cdn.net/avatars/sasha.jpg",
      locale: "en",
      membership: "free",
    },
    user: { name: "Sasha", email: "sasha@example.com", image: "https://assets.faceit-cdn.net/avatars/sasha.jpg" },
    withoutId: { nickname: "s1mple_fan", email: "sasha@example.com" },
  },
  {
    id: "freshbooks",
    factory: Freshbooks as Factory,
    authorization: "https://auth.freshbooks.com/service/auth/oauth/authorize",
    token: "https://api.freshbooks.com/auth/oauth/token",
    userinfo: "https://api.freshbooks.com/auth/api/v1/users/me",
    bg: "#0075dd",
    text: "#fff",
    profile: {
      response: {
        id: 2192788,
        identity_id: 2192788,
        first_name: "Bruce",
        last_name: "Wayne",
        email: "bruce@example.com",
        language: "en",
        confirmed_at: "2017-05-16T15:25:01Z",
        created_at: "2017-05-16T15:24:25Z",
      },
    },
    user: { name: "Bruce Wayne", email: "bruce@example.com", image: null },
    withoutId: { response: { first_name: "Bruce", last_name: "Wayne", email: "bruce@example.com" } },
  },
  {
    id: "mailchimp",
    factory: Mailchimp as Factory,
    authorization: "https://login.mailchimp.com/oauth2/authorize",
    token: "https://login.mailchimp.com/oauth2/token",
    userinfo: "https://login.mailchimp.com/oauth2/metadata",
    presents: { scheme: "OAuth" },
    bg: "#000",
    text: "#fff",
    profile: {
      dc: "us1",
      role: "owner",
      accountname: "Freddie's Jokes",
      user_id: 8675309,
      login: {
        email: "freddie@example.com",
        avatar: null,
        login_id: 8675309,
        login_name: "freddie",
        login_email: "freddie@example.com",
      },
      login_url: "https://login.mailchimp.com",
      api_endpoint: "https://us1.api.mailchimp.com",
    },
    user: { name: "Freddie's Jokes", email: "freddie@example.com", image: null },
    withoutId: { dc: "us1", accountname: "Freddie's Jokes", login: { email: "freddie@example.com" } },
  },
  {
    id: "medium",
    factory: Medium as Factory,
    authorization: "https://medium.com/m/oauth/authorize",
    scope: "basicProfile",
    token: "https://api.medium.com/v1/tokens",
    userinfo: "https://api.medium.com/v1/me",
    auth: "client_secret_post",
    bg: "#000",
    text: "#fff",
    profile: {
      data: {
        id: "5303d74c64f66366f00cb9b2a94f3251bf5",
        username: "majelbstoat",
        name: "Jamie Talbot",
        url: "https://medium.com/@majelbstoat",
        imageUrl: "https://images.medium.com/0*fkfQiTzT7TlUGGyI.png",
      },
    },
    user: { name: "Jamie Talbot", email: null, image: "https://images.medium.com/0*fkfQiTzT7TlUGGyI.png" },
    withoutId: { data: { username: "majelbstoat", name: "Jamie Talbot" } },
  },
  {
    id: "pipedrive",
    factory: Pipedrive as Factory,
    authorization: "https://oauth.pipedrive.com/oauth/authorize",
    token: "https://oauth.pipedrive.com/oauth/token",
    userinfo: "https://api.pipedrive.com/v1/users/me",
    bg: "#017737",
    text: "#fff",
    profile: {
      success: true,
      data: {
        id: 123,
        name: "Pipe Driver",
        default_currency: "EUR",
        locale: "et_EE",
        lang: 1,
        email: "pipe@example.com",
        phone: null,
        activated: true,
        icon_url: "https://pipedrive-profile-pics.s3.example/123.jpg",
        company_id: 456,
        company_name: "Acme",
        company_domain: "acme",
      },
    },
    user: {
      name: "Pipe Driver",
      email: "pipe@example.com",
      image: "https://pipedrive-profile-pics.s3.example/123.jpg",
    },
    withoutId: { success: true, data: { name: "Pipe Driver", email: "pipe@example.com" } },
  },
  {
    id: "netsuite",
    factory: NetSuiteSandbox,
    checks: ["state"],
    authorization: "https://1234567-sb1.app.netsuite.com/app/login/oauth2/authorize.nl",
    scope: "restlets rest_webservices",
    token: "https://1234567-sb1.suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token",
    userinfo: NETSUITE_RESTLET,
    bg: "#181a1b",
    text: "#fbfbfb",
    profile: {
      id: 3,
      name: "Nia Suite",
      email: "nia@example.com",
      location: 1,
      role: 3,
      roleId: "administrator",
      roleCenter: "BASIC",
      contact: 0,
      subsidiary: 1,
      department: 0,
    },
    user: { name: "Nia Suite", email: "nia@example.com", image: null },
    withoutId: { name: "Nia Suite", email: "nia@example.com" },
  },
  {
    id: "wechat",
    factory: WeChat as Factory,
    checks: ["state"],
    authorization: "https://open.weixin.qq.com/connect/oauth2/authorize",
    scope: "snsapi_userinfo",
    token: "https://api.weixin.qq.com/sns/oauth2/access_token",
    userinfo: "https://api.weixin.qq.com/sns/userinfo",
    auth: "query",
    bg: "#07c160",
    text: "#000",
    // WeChat's documented answer: no token_type; openid (and unionid) beside the token; userinfo by query.
    dialect: "wechat",
    userinfoMatch: "prefix",
    presents: { query: "access_token" },
    userinfoQuery: { openid: "OPENID-1" },
    tokenAnswer: (accessToken) => ({
      access_token: accessToken,
      expires_in: 7200,
      refresh_token: "rt-wechat",
      openid: "OPENID-1",
      scope: "snsapi_userinfo",
      unionid: "o6_bmasdasdsad6_2sgVt7hMZOPfL",
    }),
    profile: {
      openid: "OPENID-1",
      nickname: "小明",
      sex: 1,
      province: "Guangdong",
      city: "Shenzhen",
      country: "CN",
      headimgurl:
        "https://thirdwx.qlogo.cn/mmopen/g3MonUZtNHkdmzicIlibx6iaFqAc56vxLSUfpb6n5WKSYVY0ChQKkiaJSgQ1dZuTOgvLLrhJbERQQ4eMsv84eavHiaiceqxibJxCfHe/46",
      privilege: ["PRIVILEGE1"],
      unionid: "o6_bmasdasdsad6_2sgVt7hMZOPfL",
    },
    user: {
      name: "小明",
      email: null,
      image:
        "https://thirdwx.qlogo.cn/mmopen/g3MonUZtNHkdmzicIlibx6iaFqAc56vxLSUfpb6n5WKSYVY0ChQKkiaJSgQ1dZuTOgvLLrhJbERQQ4eMsv84eavHiaiceqxibJxCfHe/46",
    },
    withoutId: { openid: "OPENID-1", nickname: "小明", headimgurl: "https://thirdwx.qlogo.cn/x/46" },
  },
]

// ---------------------------------------------------------------------------------------------
// 1. Shape

describe("social-e shape", () => {
  it.each(OAUTH)("$id (oauth)", (row) => {
    // NetSuite has no fixed userinfo endpoint: the app gives its RESTlet in the options.
    const p = row.factory()
    expectOAuthShape(row.id === "netsuite" ? { ...p, userinfo: p.options?.userinfo } : p, row)
    expect(row.factory({ clientId: "x" }).options).toMatchObject({ clientId: "x" })
    expectExported(row.id)
  })

  it("netsuite: accountID picks the account's hosts (an underscore becomes a hyphen), prompt and scope pass through; bungie keeps apiKey out of the options", () => {
    const p = NetSuite({ accountID: "TSTDRV123", prompt: "login", scope: "restlets" })
    expect(endpointUrl(p.authorization)).toBe("https://tstdrv123.app.netsuite.com/app/login/oauth2/authorize.nl")
    expect(paramsOf(p.authorization)).toEqual({ scope: "restlets", prompt: "login" })
    expect(endpointUrl(p.token)).toBe("https://tstdrv123.suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token")
    expect(p.options).toEqual({})
    expect(() => resolveOAuthProvider(NetSuite({ userinfo: NETSUITE_RESTLET }), undefined)).toThrow(
      /netsuite.*authorization/,
    )
    expect(Bungie({ apiKey: "k", clientId: "c" }).options).toEqual({ clientId: "c" })
    expect(paramsOf(Bungie().authorization)).toEqual({ reauth: "true" })
    expect(paramsOf(FACEIT().authorization)).toEqual({ redirect_popup: "true" })
  })
})

// ---------------------------------------------------------------------------------------------
// 2. Sign-in, OAuth 2: the catalogue player plays whichever provider is in play

const player = usePlayer()

/**
 * A played sign-in as the client social-e-client (the azp / aud of EVE's documented token); EVE's access token is a JWT
 * of the profile signed with EVE_KEY unless `accessToken` is given.
 */
function signIn(row: OAuthRow, profile: Record<string, unknown>, accessToken?: string, factory: Factory = row.factory) {
  return player.signIn(row, factory, {
    profile,
    clientId: "social-e-client",
    accessToken: accessToken ?? (row.publicUserinfo ? eveJwt(profile) : undefined),
  })
}

describe("social-e OAuth 2 sign-in through Auth() (provider hosts routed to 127.0.0.1)", () => {
  itSignsInAsDocumented(OAUTH, (row, profile) => signIn(row, profile))

  it("numeric ids become strings; bungie without its API key is refused by Bungie.net and the sign-in fails", async () => {
    const concept2 = OAUTH.find((r) => r.id === "concept2")!
    expect((await signIn(concept2, concept2.profile)).s.signInCall().account!.providerAccountId).toBe("1")
    const eve = OAUTH.find((r) => r.id === "eveonline")!
    expect((await signIn(eve, eve.profile)).s.signInCall().account!.providerAccountId).toBe("95465499")
    expect(
      (await signIn(eve, { ...eve.profile, sub: "CHARACTER:EVE:2112625428" })).s.signInCall().account!
        .providerAccountId,
    ).toBe("2112625428")
    const bungie = OAUTH.find((r) => r.id === "bungie")!
    const { s, res, pl } = await signIn(bungie, bungie.profile, undefined, Bungie as Factory)
    expect(res.headers.get("location")).not.toBe(`${ORIGIN}/dashboard`)
    expect(s.log.errors.length).toBe(1)
    expect(pl.userinfoRequests[0]!.status).toBe(401)
  })
})

describe("social-e wechat", () => {
  const wechat = OAUTH.find((r) => r.id === "wechat")!
  it("asks with appid (and the website QR login with snsapi_login)", async () => {
    const { authUrl, pl } = await signIn(wechat, wechat.profile)
    expect(authUrl.searchParams.get("appid")).toBe(pl.clientId)
    const web = WeChat({ platformType: "WebsiteApp" })
    expect(endpointUrl(web.authorization)).toBe("https://open.weixin.qq.com/connect/qrconnect")
    expect(scopeOf(web.authorization)).toBe("snsapi_login")
    expect(web.options).toEqual({})
  })
  it("the secret parameter comes from AUTH_WECHAT_SECRET when clientSecret is not given", async () => {
    vi.stubEnv("AUTH_WECHAT_SECRET", "wechat-secret")
    try {
      const { s, res, pl } = await signIn(wechat, wechat.profile, undefined, (o = {}) =>
        WeChat({ ...o, clientSecret: undefined }),
      )
      expect(res.headers.get("location"), logged(s.log)).toBe(`${ORIGIN}/dashboard`)
      expect(s.signInCall().account).toBeTruthy()
      expect(new URL(pl.tokenRequests[0]!.originalUrl!).searchParams.get("secret")).toBe(pl.clientSecret)
    } finally {
      vi.unstubAllEnvs()
    }
  })
  it("an errcode answered with HTTP 200 fails the sign-in", async () => {
    const { s, res, pl } = await signIn(wechat, wechat.profile, undefined, (o = {}) =>
      WeChat({ ...o, clientSecret: "wrong" }),
    )
    expect(res.headers.get("location")).not.toBe(`${ORIGIN}/dashboard`)
    expect(pl.tokenRequests[0]!.status).toBe(200)
    expect(s.log.errors.length).toBe(1)
    expect(logged(s.log)).toContain("errcode 40125")
  })
  it("refresh: GET …/sns/oauth2/refresh_token with appid, grant_type and refresh_token (no secret); an errcode fails it", async () => {
    const seen: string[] = []
    let answer: Record<string, unknown> = {
      access_token: "at-2",
      expires_in: 7200,
      refresh_token: "rt-2",
      openid: "OPENID-1",
      scope: "snsapi_userinfo",
    }
    const fetchStub = (async (input: RequestInfo | URL) => {
      seen.push(String(input instanceof Request ? input.url : input))
      return Response.json(answer)
    }) as typeof fetch
    const p = resolveOAuthProvider(
      WeChat({ clientId: "wx-app", clientSecret: "wx-secret", [customFetch]: fetchStub }),
      undefined,
    )
    const tokens = await refreshTokens(await getAuthorizationServer(p), p, "rt-1")
    expect(tokens).toMatchObject({ access_token: "at-2", refresh_token: "rt-2", token_type: "bearer" })
    const u = new URL(seen[0]!)
    expect(`${u.origin}${u.pathname}`).toBe("https://api.weixin.qq.com/sns/oauth2/refresh_token")
    expect(Object.fromEntries(u.searchParams)).toEqual({
      appid: "wx-app",
      grant_type: "refresh_token",
      refresh_token: "rt-1",
    })
    answer = { errcode: 40030, errmsg: "invalid refresh_token" }
    await expect(refreshTokens(await getAuthorizationServer(p), p, "rt-1")).rejects.toThrow(/errcode 40030/)
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
    expectEnvFills(row.id, row.factory())
    expectResolvedFromEnv(row.id, row.factory)
  })
})
