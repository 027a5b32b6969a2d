// Provider catalogue, batch social-c: kakao, mailru, naver, netlify, notion, osu, patreon, pinterest, strava,
// todoist, zoom (OAuth 2) and line, roblox, salesforce (OpenID Connect with a fixed issuer).
// 1. Shape: each provider's documented id, type, checks, endpoints, scope, client auth and button style (text/bg contrast
//    >= 4.5:1, a small data:image/svg+xml logo), src/providers/<id>.ts and its ./providers/<id> exports-map entry.
// 2. Sign-in through Auth(): for OAuth 2, the provider's real hosts routed to the catalogue player
//    (test/support/catalogue-kit.ts: authorize -> code + state, token with the documented client authentication and
//    PKCE, userinfo replaying the documented body; Notion's Notion-Version header required); for OIDC, the mock OP as
//    the issuer (LINE's ID token HS256 under the channel secret, Salesforce's profile from userinfo). The mapped user is
//    in the session; a profile without an id is OAuthProfileParseError.
// 3. Roblox and Salesforce against oidc-provider with only issuer, clientId and clientSecret.
// 4. AUTH_<ID>_ID / _SECRET through setEnvDefaults and the resolve path (Salesforce's issuer: the `issuer` option).
import { afterEach, describe, expect, it, vi } from "vitest"
import { resolveOAuthProvider } from "../../../src/config/oauth.js"
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
import { ORIGIN } from "../../support/flow-kit.js"
import type { MockOp } from "../../support/mock-op.js"
import { OP_USERS, type OidcOp } from "../../support/oidc-op.js"
import { expectSignedIn, logged, setup, signInThrough } from "../../support/provider-kit.js"
import {
  type Factory,
  type MappedUser,
  type OAuthRow,
  endpointUrl,
  expectAuthorizeRequest,
  expectBackAtApp,
  expectEnvFills,
  expectExported,
  expectOAuthShape,
  expectProfileParseError,
  expectResolvedFromEnv,
  expectSessionUserLoose,
  expectStyle,
  itSignsInAsDocumented,
  paramsOf,
  scopeOf,
  signInAtRealOp,
  useMockOp,
  usePlayer,
  useRealOp,
  withoutSub,
  withoutNulls,
} from "../../support/catalogue-kit.js"

const OAUTH: OAuthRow[] = [
  {
    id: "kakao",
    factory: Kakao as Factory,
    authorization: "https://kauth.kakao.com/oauth/authorize",
    scope: "",
    token: "https://kauth.kakao.com/oauth/token",
    userinfo: "https://kapi.kakao.com/v2/user/me",
    auth: "client_secret_post",
    bg: "#fee500",
    text: "#191919",
    profile: {
      id: 123456789,
      connected_at: "2022-04-11T01:45:28Z",
      kakao_account: {
        profile_nickname_needs_agreement: false,
        profile: {
          nickname: "홍길동",
          thumbnail_image_url: "http://yyy.kakao.com/.../img_110x110.jpg",
          profile_image_url: "http://yyy.kakao.com/dn/.../img_640x640.jpg",
          is_default_image: false,
        },
        email: "sample@sample.com",
        is_email_valid: true,
        is_email_verified: true,
      },
    },
    user: { name: "홍길동", email: "sample@sample.com", image: "http://yyy.kakao.com/dn/.../img_640x640.jpg" },
    withoutId: { connected_at: "2022-04-11T01:45:28Z", kakao_account: { email: "sample@sample.com" } },
  },
  {
    id: "mailru",
    factory: Mailru as Factory,
    authorization: "https://oauth.mail.ru/login",
    scope: "userinfo",
    token: "https://oauth.mail.ru/token",
    userinfo: "https://oauth.mail.ru/userinfo",
    bg: "#005ff9",
    text: "#fff",
    profile: {
      id: "1234567890",
      gender: "m",
      name: "Ivan Petrov",
      nickname: "ivan",
      locale: "ru_RU",
      first_name: "Ivan",
      email: "ivan@mail.ru",
      last_name: "Petrov",
      birthday: "01.01.1990",
      image: "https://filin.mail.ru/pic?email=ivan%40mail.ru",
    },
    user: { name: "Ivan Petrov", email: "ivan@mail.ru", image: "https://filin.mail.ru/pic?email=ivan%40mail.ru" },
    withoutId: { name: "Ivan Petrov", email: "ivan@mail.ru" },
  },
  {
    id: "naver",
    factory: Naver as Factory,
    authorization: "https://nid.naver.com/oauth2.0/authorize",
    token: "https://nid.naver.com/oauth2.0/token",
    userinfo: "https://openapi.naver.com/v1/nid/me",
    bg: "#03c75a",
    text: "#000",
    profile: {
      resultcode: "00",
      message: "success",
      response: {
        email: "openapi@naver.com",
        nickname: "OpenAPI",
        profile_image: "https://ssl.pstatic.net/static/pwe/address/nodata_33x33.gif",
        age: "40-49",
        gender: "F",
        id: "32742776",
        name: "오픈 API",
        birthday: "10-01",
      },
    },
    user: {
      name: "OpenAPI",
      email: "openapi@naver.com",
      image: "https://ssl.pstatic.net/static/pwe/address/nodata_33x33.gif",
    },
    withoutId: { resultcode: "00", message: "success", response: { email: "openapi@naver.com", nickname: "OpenAPI" } },
  },
  {
    id: "netlify",
    factory: Netlify as Factory,
    authorization: "https://app.netlify.com/authorize",
    scope: "",
    token: "https://api.netlify.com/oauth/token",
    userinfo: "https://api.netlify.com/api/v1/user",
    bg: "#32e6e2",
    text: "#014847",
    profile: {
      id: "5d3f6a7b8c9d0e1f2a3b4c5d",
      uid: null,
      full_name: "Ada Lovelace",
      avatar_url: "https://avatars.netlify.example/ada.png",
      email: "ada@example.com",
      slug: "ada",
    },
    user: { name: "Ada Lovelace", email: "ada@example.com", image: "https://avatars.netlify.example/ada.png" },
    withoutId: { full_name: "Ada Lovelace", email: "ada@example.com" },
  },
  {
    id: "notion",
    factory: Notion as Factory,
    authorization: "https://api.notion.com/v1/oauth/authorize",
    token: "https://api.notion.com/v1/oauth/token",
    userinfo: "https://api.notion.com/v1/users/me",
    userinfoHeaders: { "notion-version": NOTION_API_VERSION },
    bg: "#fff",
    text: "#000",
    profile: {
      object: "user",
      id: "16d84278-ab0e-484c-9bdd-b35da3bd8905",
      name: "pied piper",
      avatar_url: null,
      type: "bot",
      bot: {
        owner: {
          type: "user",
          user: {
            object: "user",
            id: "5389a034-eb5c-47b5-8a9e-f79c99ef166c",
            name: "christine makenotion",
            avatar_url: "https://s3.notion.example/christine.png",
            type: "person",
            person: { email: "christine@makenotion.com" },
          },
        },
        workspace_name: "Pied Piper",
      },
    },
    user: {
      name: "christine makenotion",
      email: "christine@makenotion.com",
      image: "https://s3.notion.example/christine.png",
    },
    withoutId: {
      object: "user",
      id: "16d84278-ab0e-484c-9bdd-b35da3bd8905",
      type: "bot",
      bot: { owner: { type: "workspace", workspace: true } },
    },
  },
  {
    id: "osu",
    factory: Osu as Factory,
    authorization: "https://osu.ppy.sh/oauth/authorize",
    scope: "identify",
    token: "https://osu.ppy.sh/oauth/token",
    userinfo: "https://osu.ppy.sh/api/v2/me",
    bg: "#ff66aa",
    text: "#000",
    profile: {
      id: 2,
      username: "peppy",
      avatar_url: "https://a.ppy.sh/2",
      country_code: "AU",
      is_bot: false,
      is_supporter: true,
      playmode: "osu",
    },
    user: { name: "peppy", email: null, image: "https://a.ppy.sh/2" },
    withoutId: { username: "peppy", avatar_url: "https://a.ppy.sh/2" },
  },
  {
    id: "patreon",
    factory: Patreon as Factory,
    authorization: "https://www.patreon.com/oauth2/authorize",
    scope: "identity identity[email]",
    token: "https://www.patreon.com/api/oauth2/token",
    userinfo:
      "https://www.patreon.com/api/oauth2/v2/identity?fields%5Buser%5D=full_name,email,is_email_verified,image_url",
    bg: "#e85b46",
    text: "#000",
    profile: {
      data: {
        attributes: {
          email: "corgi@example.com",
          full_name: "Corgi The Dev",
          image_url: "https://c8.patreon.com/2/200/0000001",
          is_email_verified: true,
        },
        id: "0000001",
        type: "user",
      },
      links: { self: "https://www.patreon.com/api/oauth2/v2/user/0000001" },
    },
    user: { name: "Corgi The Dev", email: "corgi@example.com", image: "https://c8.patreon.com/2/200/0000001" },
    withoutId: { data: { attributes: { email: "corgi@example.com", full_name: "Corgi The Dev" }, type: "user" } },
  },
  {
    id: "pinterest",
    factory: Pinterest as Factory,
    authorization: "https://www.pinterest.com/oauth",
    scope: "user_accounts:read",
    token: "https://api.pinterest.com/v5/oauth/token",
    userinfo: "https://api.pinterest.com/v5/user_account",
    bg: "#bd081c",
    text: "#fff",
    profile: {
      account_type: "PINNER",
      profile_image: "https://i.pinimg.com/75x75_RS/ada.jpg",
      website_url: "https://ada.example",
      username: "ada_pins",
    },
    user: { name: "ada_pins", email: null, image: "https://i.pinimg.com/75x75_RS/ada.jpg" },
    withoutId: { account_type: "PINNER", profile_image: "https://i.pinimg.com/75x75_RS/ada.jpg" },
  },
  {
    id: "strava",
    factory: Strava as Factory,
    authorization: "https://www.strava.com/api/v3/oauth/authorize",
    scope: "read",
    token: "https://www.strava.com/api/v3/oauth/token",
    userinfo: "https://www.strava.com/api/v3/athlete",
    auth: "client_secret_post",
    bg: "#fc4c02",
    text: "#000",
    profile: {
      id: 1234567890987654400,
      username: "marianne_t",
      resource_state: 3,
      firstname: "Marianne",
      lastname: "Teutenberg",
      city: "San Francisco",
      country: "US",
      profile_medium: "https://xxxxxx.cloudfront.net/pictures/athletes/123456789/123456789/2/medium.jpg",
      profile: "https://xxxxx.cloudfront.net/pictures/athletes/123456789/123456789/2/large.jpg",
    },
    user: {
      name: "Marianne Teutenberg",
      email: null,
      image: "https://xxxxx.cloudfront.net/pictures/athletes/123456789/123456789/2/large.jpg",
    },
    withoutId: { firstname: "Marianne", lastname: "Teutenberg" },
  },
  {
    id: "todoist",
    factory: Todoist as Factory,
    authorization: "https://todoist.com/oauth/authorize",
    scope: "data:read",
    token: "https://todoist.com/oauth/access_token",
    userinfo: "https://api.todoist.com/api/v1/user",
    auth: "client_secret_post",
    bg: "#e44332",
    text: "#000",
    profile: {
      id: "2671355",
      email: "me@example.com",
      full_name: "Fake User",
      avatar_big: "https://dcff1xvirvpfp.cloudfront.net/exampleimage_big.jpg",
      avatar_medium: "https://dcff1xvirvpfp.cloudfront.net/exampleimage_medium.jpg",
      lang: "en",
      is_premium: true,
    },
    user: {
      name: "Fake User",
      email: "me@example.com",
      image: "https://dcff1xvirvpfp.cloudfront.net/exampleimage_big.jpg",
    },
    withoutId: { email: "me@example.com", full_name: "Fake User" },
  },
  {
    id: "zoom",
    factory: Zoom as Factory,
    authorization: "https://zoom.us/oauth/authorize",
    scope: "",
    token: "https://zoom.us/oauth/token",
    userinfo: "https://api.zoom.us/v2/users/me",
    bg: "#0b5cff",
    text: "#fff",
    profile: {
      id: "KDcuGIm1QgePTO8WbOqwIQ",
      first_name: "Jill",
      last_name: "Chill",
      display_name: "Jill Chill",
      email: "jchill@example.com",
      type: 1,
      pic_url: "https://example.com/photo.jpg",
      account_id: "q6gBJVO5TzexKYTb_I2rpg",
      verified: 1,
    },
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
  {
    id: "line",
    factory: LINE as Factory,
    issuer: "https://access.line.me",
    checks: ["state"],
    bg: "#007a33",
    text: "#fff",
    idTokenAlg: "HS256",
    claims: { name: "Taro Line", email: undefined, picture: "https://profile.line-scdn.net/taro", amr: ["pwd"] },
    user: { name: "Taro Line", email: null, image: "https://profile.line-scdn.net/taro" },
  },
  {
    id: "roblox",
    factory: Roblox as Factory,
    issuer: "https://apis.roblox.com/oauth/",
    checks: ["pkce", "state"],
    scope: "openid profile",
    bg: "#232527",
    text: "#fff",
    claims: {
      name: "Builderman",
      nickname: "Builderman",
      preferred_username: "builderman",
      created_at: 1142353247,
      profile: "https://www.roblox.com/users/156/profile",
      picture: "https://tr.rbxcdn.com/156.png",
    },
    user: { name: "Builderman", email: null, image: "https://tr.rbxcdn.com/156.png" },
  },
  {
    id: "salesforce",
    factory: Salesforce as Factory,
    issuer: "https://login.salesforce.com",
    checks: ["pkce", "state", "nonce"],
    bg: "#0b5cab",
    text: "#fff",
    fromUserinfo: true,
    claims: {
      user_id: "005x0000001S1kQAAS",
      organization_id: "00Dx0000000BV7zEAG",
      preferred_username: "ada@acme.example",
      name: "Ada Admin",
      email: "Ada@Acme.Example",
      email_verified: true,
      picture: "https://acme.file.force.com/profilephoto/005/F",
    },
    user: { name: "Ada Admin", email: "ada@acme.example", image: "https://acme.file.force.com/profilephoto/005/F" },
  },
]

// ---------------------------------------------------------------------------------------------
// 1. Shape

describe("social-c shape", () => {
  const common = (p: OAuthConfigBase, row: { id: string; factory: Factory; bg: string; text: string }) => {
    expect(p.id).toBe(row.id)
    expectStyle(p, row.bg, row.text)
    expect(row.factory({ clientId: "x" }).options).toEqual({ clientId: "x" })
    expectExported(row.id)
  }

  it.each(OAUTH)("$id (oauth)", (row) => {
    expectOAuthShape(row.factory(), row)
    expect(row.factory({ clientId: "x" }).options).toEqual({ clientId: "x" })
    expectExported(row.id)
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
    expect(paramsOf(Notion().authorization)).toMatchObject({ owner: "user", response_type: "code" })
    expect(paramsOf(Strava().authorization)).toMatchObject({
      scope: "read",
      approval_prompt: "auto",
      response_type: "code",
    })
  })
})

// ---------------------------------------------------------------------------------------------
// 2. Sign-in, OAuth 2: the catalogue player plays whichever provider is in play

const player = usePlayer()

describe("social-c OAuth 2 sign-in through Auth() (provider hosts routed to 127.0.0.1)", () => {
  itSignsInAsDocumented(OAUTH, (row, profile) => player.signIn(row, row.factory, { profile }))

  it("notion sends Notion-Version and maps the integration's owner; strava's id is a string; patreon asks for the user fields", async () => {
    const notion = OAUTH.find((r) => r.id === "notion")!
    const a = await player.signIn(notion, notion.factory, { profile: notion.profile })
    expect(a.pl.userinfoRequests[0]!.headers["notion-version"]).toBe(NOTION_API_VERSION)
    expect(a.s.signInCall().account!.providerAccountId).toBe("5389a034-eb5c-47b5-8a9e-f79c99ef166c")
    const strava = OAUTH.find((r) => r.id === "strava")!
    const b = await player.signIn(strava, strava.factory, { profile: { ...strava.profile, id: 134815 } })
    expect(b.s.signInCall().account!.providerAccountId).toBe("134815")
    const patreon = new URL(endpointUrl(Patreon().userinfo)!)
    expect(patreon.searchParams.get("fields[user]")).toBe("full_name,email,is_email_verified,image_url")
  })
})

// ---------------------------------------------------------------------------------------------
// 2. Sign-in, OIDC: the mock OP as the issuer

describe("social-c OIDC sign-in through Auth() (mock OP as the issuer)", () => {
  let op: MockOp
  useMockOp({ clientId: "social-c-oidc" }, (o) => void (op = o))

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
    expectAuthorizeRequest(started.location!, {
      id: row.id,
      scope: row.scope ?? "openid profile email",
      checks: row.checks,
    })
    expect(op.counts.userinfo).toBe(row.fromUserinfo ? 1 : 0)
    expect(signInCall().account).toMatchObject({
      provider: row.id,
      type: "oidc",
      providerAccountId: `${row.id}-user-1`,
    })
    await expectSessionUserLoose(config, started.jar, row.user)
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
    // A profile (the app's userinfo hook here) that lacks `sub`: the mapping has no id.
    const { config, log } = setup([withoutSub(prepare(row, row.claims), row.claims)])
    const { res } = await signInThrough(config, row.id)
    expectProfileParseError(res, log)
  })
})

// ---------------------------------------------------------------------------------------------
// 3. A real OP (oidc-provider) as the issuer: Roblox and Salesforce with only issuer, clientId and clientSecret
//    (LINE's HS256 ID token is covered by the mock OP above).

describe("social-c full flow against oidc-provider", () => {
  let realOp: OidcOp
  useRealOp(["roblox", "salesforce"], (o) => void (realOp = o))
  const olivia = OP_USERS[0]!

  const cases = [
    {
      id: "roblox",
      factory: Roblox as Factory,
      scope: "openid profile",
      user: { name: olivia.name, email: null, image: olivia.picture },
    },
    {
      id: "salesforce",
      factory: Salesforce as Factory,
      scope: "openid profile email",
      user: { name: olivia.name, email: olivia.email, image: olivia.picture },
    },
  ]
  it.each(cases)("$id: login + consent at the OP, back with a session", async (row) => {
    const flow = await signInAtRealOp(realOp, row.factory, row.id)
    expectBackAtApp(flow)
    expect(flow.user).toEqual(withoutNulls(row.user))
    expect(flow.authorization.get("scope")).toBe(row.scope)
  })
})

// ---------------------------------------------------------------------------------------------
// 4. Env

describe("social-c env: AUTH_<ID>_ID / _SECRET", () => {
  afterEach(() => vi.unstubAllEnvs())
  const rows = [...OAUTH, ...OIDC].map((r) => ({ id: r.id, factory: r.factory }))

  it.each(rows)("$id: setEnvDefaults and the resolve path read them", (row) => {
    expectEnvFills(row.id, row.factory())
    expectResolvedFromEnv(row.id, row.factory)
  })

  it("salesforce: the `issuer` option selects a sandbox or My Domain issuer (the fixed default wins over AUTH_SALESFORCE_ISSUER, as in Auth.js)", () => {
    expect(resolveOAuthProvider(Salesforce({ issuer: "https://test.salesforce.com" }), undefined).issuer).toBe(
      "https://test.salesforce.com",
    )
    vi.stubEnv("AUTH_SALESFORCE_ISSUER", "https://test.salesforce.com")
    expect(resolveOAuthProvider(Salesforce(), undefined).issuer).toBe("https://login.salesforce.com")
  })
})
