// Provider catalogue, batch social-b: facebook, instagram, 42-school, box, coinbase, dribbble, figma, foursquare,
// hubspot (OAuth 2) and apple, battlenet, huggingface (OIDC).
// - shape: each provider's documented id, type, checks, endpoints, scope, client auth and button style (contrast >= 4.5:1,
//   logo a small data:image/svg+xml URI), and its ./providers/<id> entry in package.json's exports map;
// - sign-in through Auth(): the provider's real hosts routed to the catalogue player (test/support/catalogue-kit.ts:
//   authorize -> code + state, token with the client authentication and PKCE checked, userinfo replaying the documented
//   responses; Foursquare's oauth_token + v= query and HubSpot's token-in-path as player options); the mapped user is in
//   the session, and a profile without an id ends in OAuthProfileParseError;
// - OIDC ones against the mock OP given as `issuer`; battlenet (issuer-based) also through a full flow against
//   oidc-provider (test/support/oidc-op.ts) with only issuer, clientId and clientSecret;
// - AUTH_<ID>_ID / _SECRET (/ _ISSUER) picked up by setEnvDefaults and the resolve path.
import { afterEach, describe, expect, it, vi } from "vitest"
import { Auth } from "../../../src/index.js"
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
import { ORIGIN, postForm } from "../../support/flow-kit.js"
import type { MockOp } from "../../support/mock-op.js"
import { OP_USERS, type OidcOp } from "../../support/oidc-op.js"
import { callback, expectSignedIn, sessionOf, setup, startSignIn } from "../../support/provider-kit.js"
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
  expectSessionUser,
  expectStyle,
  itSignsInAsDocumented,
  paramsOf,
  scopeOf,
  signInAtRealOp,
  useMockOp,
  usePlayer,
  useRealOp,
  withoutNulls,
} from "../../support/catalogue-kit.js"

/** The batch table's rows (what the player plays, with Foursquare's and HubSpot's quirks), with their type. */
interface Row extends OAuthRow {
  type: "oauth" | "oidc"
}

const OAUTH: Row[] = [
  {
    id: "facebook",
    factory: Facebook as Factory,
    type: "oauth",
    authorization: "https://www.facebook.com/dialog/oauth",
    scope: "email",
    token: "https://graph.facebook.com/oauth/access_token",
    userinfo: "https://graph.facebook.com/me?fields=id,name,email,picture",
    bg: "#006aff",
    text: "#fff",
    profile: {
      id: "10158000000000001",
      name: "Ada Lovelace",
      email: "ada@example.com",
      picture: {
        data: { height: 50, is_silhouette: false, url: "https://platform-lookaside.fbsbx.com/p/ada.jpg", width: 50 },
      },
    },
    user: { name: "Ada Lovelace", email: "ada@example.com", image: "https://platform-lookaside.fbsbx.com/p/ada.jpg" },
    withoutId: { name: "Ada Lovelace", email: "ada@example.com" },
  },
  {
    id: "instagram",
    factory: Instagram as Factory,
    type: "oauth",
    authorization: "https://api.instagram.com/oauth/authorize",
    scope: "instagram_business_basic",
    token: "https://api.instagram.com/oauth/access_token",
    userinfo: "https://graph.instagram.com/me?fields=id,user_id,username,name,account_type,profile_picture_url",
    auth: "client_secret_post",
    bg: "#fff",
    text: "#000",
    profile: {
      id: "17841400000000001",
      user_id: "17841400000000002",
      username: "ada.codes",
      name: "Ada",
      account_type: "BUSINESS",
      profile_picture_url: "https://scontent.cdninstagram.com/ada.jpg",
    },
    user: { name: "ada.codes", email: null, image: "https://scontent.cdninstagram.com/ada.jpg" },
    withoutId: { username: "ada.codes" },
  },
  {
    id: "42-school",
    factory: FortyTwo as Factory,
    type: "oauth",
    authorization: "https://api.intra.42.fr/oauth/authorize",
    scope: "public",
    token: "https://api.intra.42.fr/oauth/token",
    userinfo: "https://api.intra.42.fr/v2/me",
    bg: "#000",
    text: "#fff",
    profile: {
      id: 42042,
      email: "alovelac@student.42.fr",
      login: "alovelac",
      usual_full_name: "Ada Lovelace",
      displayname: "Ada Lovelace",
      image: { link: "https://cdn.intra.42.fr/users/alovelac.jpg", versions: {} },
    },
    user: {
      name: "Ada Lovelace",
      email: "alovelac@student.42.fr",
      image: "https://cdn.intra.42.fr/users/alovelac.jpg",
    },
    withoutId: { email: "alovelac@student.42.fr", login: "alovelac" },
  },
  {
    id: "box",
    factory: Box as Factory,
    type: "oauth",
    authorization: "https://account.box.com/api/oauth2/authorize",
    token: "https://api.box.com/oauth2/token",
    userinfo: "https://api.box.com/2.0/users/me",
    bg: "#0075C9",
    text: "#fff",
    profile: {
      type: "user",
      id: "11446498",
      name: "Aaron Levie",
      login: "ceo@example.com",
      avatar_url: "https://www.box.com/api/avatar/large/181216415",
    },
    user: { name: "Aaron Levie", email: "ceo@example.com", image: "https://www.box.com/api/avatar/large/181216415" },
    withoutId: { type: "user", name: "Aaron Levie", login: "ceo@example.com" },
  },
  {
    id: "coinbase",
    factory: Coinbase as Factory,
    type: "oauth",
    authorization: "https://login.coinbase.com/oauth2/auth",
    scope: "wallet:user:email wallet:user:read",
    token: "https://login.coinbase.com/oauth2/token",
    userinfo: "https://api.coinbase.com/v2/user",
    bg: "#0052ff",
    text: "#fff",
    profile: {
      data: {
        id: "9da7a204-544e-5fd1-9a12-61176c5d4cd8",
        name: "User One",
        username: "user1",
        email: "user1@example.com",
        avatar_url:
          "https://images.coinbase.com/avatar?h=vR%2FY8igBoPwuwGren5JMwvDNGpURAY%2F0nRIOgH%2FY2Qh%2BQ6nomR3qusA%2Bh6o2%0Af9rH&s=128",
      },
    },
    user: {
      name: "User One",
      email: "user1@example.com",
      image:
        "https://images.coinbase.com/avatar?h=vR%2FY8igBoPwuwGren5JMwvDNGpURAY%2F0nRIOgH%2FY2Qh%2BQ6nomR3qusA%2Bh6o2%0Af9rH&s=128",
    },
    withoutId: { data: { name: "User One", email: "user1@example.com" } },
  },
  {
    id: "dribbble",
    factory: Dribbble as Factory,
    type: "oauth",
    authorization: "https://dribbble.com/oauth/authorize",
    scope: "public",
    token: "https://dribbble.com/oauth/token",
    userinfo: "https://api.dribbble.com/v2/user",
    bg: "#000",
    text: "#fff",
    profile: {
      id: 1,
      name: "Dan Cederholm",
      login: "simplebits",
      email: "dan@example.com",
      avatar_url: "https://cdn.dribbble.com/users/1/avatars/normal/dc.jpg",
    },
    user: {
      name: "Dan Cederholm",
      email: "dan@example.com",
      image: "https://cdn.dribbble.com/users/1/avatars/normal/dc.jpg",
    },
    withoutId: { name: "Dan Cederholm", login: "simplebits" },
  },
  {
    id: "figma",
    factory: Figma as Factory,
    type: "oauth",
    checks: ["state"],
    authorization: "https://www.figma.com/oauth",
    scope: "current_user:read",
    token: "https://api.figma.com/v1/oauth/token",
    userinfo: "https://api.figma.com/v1/me",
    bg: "#ff7237",
    text: "#000",
    profile: {
      id: "1234567890",
      email: "ada@example.com",
      handle: "Ada",
      img_url: "https://s3-alpha.figma.com/profile/ada",
    },
    user: { name: "Ada", email: "ada@example.com", image: "https://s3-alpha.figma.com/profile/ada" },
    withoutId: { email: "ada@example.com", handle: "Ada" },
  },
  {
    id: "foursquare",
    factory: Foursquare as Factory,
    type: "oauth",
    authorization: "https://foursquare.com/oauth2/authenticate",
    token: "https://foursquare.com/oauth2/access_token",
    userinfo: "https://api.foursquare.com/v2/users/self?v=20230131",
    // The token as oauth_token beside the API version.
    userinfoMatch: "prefix",
    presents: { query: "oauth_token" },
    userinfoQuery: { v: "20230131" },
    bg: "#000",
    text: "#fff",
    profile: {
      meta: { code: 200, requestId: "5ac51d7e6a607143d811cecb" },
      response: {
        user: {
          id: "1234567",
          firstName: "Ada",
          lastName: "Lovelace",
          contact: { email: "ada@example.com" },
          photo: { prefix: "https://fastly.4sqi.net/img/user/", suffix: "/ada.jpg" },
        },
      },
    },
    user: {
      name: "Ada Lovelace",
      email: "ada@example.com",
      image: "https://fastly.4sqi.net/img/user/original/ada.jpg",
    },
    withoutId: { meta: { code: 200 }, response: { user: { firstName: "Ada" } } },
  },
  {
    id: "hubspot",
    factory: HubSpot as Factory,
    type: "oauth",
    authorization: "https://app.hubspot.com/oauth/authorize",
    scope: "oauth",
    token: "https://api.hubapi.com/oauth/v1/token",
    userinfo: "https://api.hubapi.com/oauth/v1/access-tokens",
    auth: "client_secret_post",
    // The token in the path: /oauth/v1/access-tokens/<token>.
    userinfoMatch: "prefix",
    presents: "path",
    bg: "#ff7a59",
    text: "#000",
    profile: {
      token: "CJSP5qf1KhICAQEYs-gDIIGOBii1hQIyGQAf3xBKmlwHjX7OIpuIFEavB2-qYAGQsF4",
      user: "test@hubspot.com",
      hub_domain: "demo.hubapi.com",
      scopes: ["oauth"],
      hub_id: 62515,
      app_id: 456,
      expires_in: 21588,
      user_id: 123,
      token_type: "access",
    },
    user: { name: "test@hubspot.com", email: "test@hubspot.com", image: null },
    withoutId: { user: "test@hubspot.com", hub_id: 62515 },
  },
]

// ---------------------------------------------------------------------------------------------
// Shape

describe("social-b shape: documented endpoints, checks, scope, client auth and style", () => {
  it.each(OAUTH)("$id", (row) => {
    expectOAuthShape(row.factory(), row)
    // The user's options are kept for the merge, the provider's own ones (apiVersion, scope) taken out.
    expect(row.factory({ clientId: "x" }).options).toEqual({ clientId: "x" })
    // Reachable as gatehouse/providers/<id>.
    expectExported(row.id)
  })

  it("dribbble's scope and foursquare's apiVersion options", () => {
    expect(scopeOf(Dribbble({ scope: "public upload" }).authorization)).toBe("public upload")
    expect(endpointUrl(Foursquare({ apiVersion: "20240601" }).userinfo)).toBe(
      "https://api.foursquare.com/v2/users/self?v=20240601",
    )
  })
})

// ---------------------------------------------------------------------------------------------
// Sign-in through Auth() against the catalogue player, playing whichever provider the test signs in with

const player = usePlayer()

describe("social-b sign-in through Auth() (provider hosts routed to 127.0.0.1)", () => {
  itSignsInAsDocumented(OAUTH, (row, profile) => player.signIn(row, row.factory, { profile }))

  it("foursquare sends the token as oauth_token with v=, hubspot in the path", async () => {
    const fsq = OAUTH.find((r) => r.id === "foursquare")!
    const a = await player.signIn(fsq, fsq.factory, { profile: fsq.profile })
    const fsqUrl = new URL(a.pl.userinfoRequests[0]!.originalUrl!)
    expect(fsqUrl.searchParams.get("v")).toBe("20230131")
    expect(fsqUrl.searchParams.get("oauth_token")).toBe(a.pl.accessToken)
    const hs = OAUTH.find((r) => r.id === "hubspot")!
    const b = await player.signIn(hs, hs.factory, { profile: hs.profile })
    expect(b.pl.userinfoRequests[0]!.originalUrl).toBe(
      `https://api.hubapi.com/oauth/v1/access-tokens/${b.pl.accessToken}`,
    )
  })
})

// ---------------------------------------------------------------------------------------------
// Env

describe("social-b env: AUTH_<ID>_ID / _SECRET", () => {
  it.each(OAUTH)("$id", (row) => {
    expectEnvFills(row.id, row.factory())
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
  user: MappedUser
}

const OIDC: OidcRow[] = [
  {
    id: "apple",
    factory: Apple as Factory,
    issuer: "https://appleid.apple.com",
    checks: ["nonce", "state"],
    scope: "name email",
    responseMode: "form_post",
    auth: "client_secret_post",
    bg: "#000",
    text: "#fff",
    // Apple: no name claim, booleans as strings.
    claims: {
      name: undefined,
      email: "x7k2p9@privaterelay.appleid.com",
      email_verified: "true",
      is_private_email: "true",
      real_user_status: 2,
    },
    user: { name: "x7k2p9@privaterelay.appleid.com", email: "x7k2p9@privaterelay.appleid.com", image: null },
  },
  {
    id: "battlenet",
    factory: BattleNet as Factory,
    checks: undefined,
    scope: "openid",
    bg: "#148eff",
    text: "#000",
    claims: { name: undefined, email: undefined, email_verified: undefined, battle_tag: "Ada#1815" },
    user: { name: "Ada#1815", email: null, image: null },
  },
  {
    id: "huggingface",
    factory: Huggingface as Factory,
    issuer: "https://huggingface.co",
    checks: ["state", "pkce"],
    scope: "openid profile email",
    bg: "#FFD21E",
    text: "#000",
    claims: {
      name: "Ada Lovelace",
      preferred_username: "ada",
      email: "ada@hf.example",
      email_verified: true,
      picture: "https://cdn-avatars.huggingface.co/ada.png",
      isPro: false,
    },
    user: { name: "Ada Lovelace", email: "ada@hf.example", image: "https://cdn-avatars.huggingface.co/ada.png" },
  },
]

describe("social-b OIDC shape", () => {
  it.each(OIDC)("$id", (row) => {
    const p = row.factory()
    expect(p).toMatchObject({ id: row.id, type: "oidc" })
    expect(p.issuer).toBe(row.issuer)
    expect(p.checks).toEqual(row.checks)
    expect(scopeOf(p.authorization)).toBe(row.scope)
    expect(paramsOf(p.authorization).response_mode).toBe(row.responseMode)
    expect(p.client?.token_endpoint_auth_method).toBe(row.auth)
    expectStyle(p, row.bg, row.text)
    expectExported(row.id)
  })
})

describe("social-b OIDC sign-in through Auth() (the mock OP as the issuer)", () => {
  let op: MockOp
  useMockOp({ clientId: "social-b-oidc", issuerPath: "/op" }, (o) => void (op = o))

  async function oidcSignIn(row: OidcRow, extra: Record<string, unknown> = {}) {
    op.tokenEndpointAuthMethod = row.auth ?? "client_secret_basic"
    op.subject = `${row.id}-sub-001`
    op.extraClaims = row.claims
    // Only issuer, clientId and clientSecret given.
    const s = setup([
      row.factory({ issuer: op.issuer, clientId: op.clientId, clientSecret: op.clientSecret, ...extra }),
    ])
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
      res = await Auth(
        postForm(`/auth/callback/${row.id}`, Object.fromEntries(back.params), { cookie: started.jar.header() }),
        s.config,
      )
      started.jar.store(res)
    } else {
      res = await callback(s.config, back.url, started.jar)
    }
    return { s, started, authUrl, res }
  }

  it.each(OIDC)("$id: the ID token's claims map to the session user", async (row) => {
    const { s, started, authUrl, res } = await oidcSignIn(row)
    expectSignedIn(res, s.log)
    expect((await sessionOf(s.config, started.jar))?.user).toEqual(withoutNulls(row.user))
    expectAuthorizeRequest(authUrl, {
      id: row.id,
      scope: row.scope,
      checks: row.checks,
      params: row.responseMode ? { response_mode: row.responseMode } : {},
    })
    expect(op.counts.userinfo, "the profile is the ID token").toBe(0)
    expect(op.tokenRequests).toHaveLength(1)
    if (row.auth === "client_secret_post") expect(op.tokenRequests[0]!.body.get("client_secret")).toBe(op.clientSecret)
    expect(s.signInCall().account).toMatchObject({
      provider: row.id,
      type: "oidc",
      providerAccountId: `${row.id}-sub-001`,
    })
  })

  it.each(OIDC)("$id: a profile callback that yields no id is OAuthProfileParseError", async (row) => {
    // An ID token always has a sub (one without fails validation first); a mapping that loses it is the parse error.
    const { s, res } = await oidcSignIn(row, { profile: () => ({ name: "no id" }) })
    expectProfileParseError(res, s.log)
  })

  it("apple: the name comes from a `user` object on the profile when present", async () => {
    const p = Apple()
    expect(
      await p.profile!(
        { sub: "s", email: "a@b.example", user: { name: { firstName: "Ada", lastName: "Lovelace" } } } as never,
        {} as never,
      ),
    ).toEqual({ id: "s", name: "Ada Lovelace", email: "a@b.example", image: null })
  })

  it("apple: the `user` JSON Apple posts on the first consent names the user (profileCallbackFields); it never sets the id or e-mail", async () => {
    const row = OIDC.find((r) => r.id === "apple")!
    op.tokenEndpointAuthMethod = row.auth ?? "client_secret_basic"
    op.subject = "apple-sub-001"
    op.extraClaims = row.claims
    const s = setup([Apple({ issuer: op.issuer, clientId: op.clientId, clientSecret: op.clientSecret })])
    const started = await startSignIn(s.config, "apple")
    const back = await op.authorize(started.location!)
    const form = {
      ...Object.fromEntries(back.params),
      user: JSON.stringify({ name: { firstName: "Ada", lastName: "Lovelace" }, email: "attacker@evil.example" }),
    }
    const res = await Auth(postForm("/auth/callback/apple", form, { cookie: started.jar.header() }), s.config)
    started.jar.store(res)
    expectSignedIn(res, s.log)
    await expectSessionUser(s.config, started.jar, {
      name: "Ada Lovelace",
      email: "x7k2p9@privaterelay.appleid.com",
      image: null,
    })
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
    const p = expectEnvFills(row.id, row.factory(), "https://oauth.battle.net")
    // The fixed issuer stays; battlenet takes the env one.
    expect(p.issuer).toBe(row.issuer ?? "https://oauth.battle.net")
  })
})

describe("battlenet (issuer-based): a full flow against oidc-provider with only issuer, clientId and clientSecret", () => {
  let realOp: OidcOp
  useRealOp(["battlenet"], (o) => void (realOp = o))

  it("login + consent at the OP, back with a session for the OP's sub", async () => {
    const olivia = OP_USERS[0]!
    const flow = await signInAtRealOp(realOp, BattleNet as Factory, "battlenet")
    expectBackAtApp(flow)
    expect(flow.authorization.get("scope")).toBe("openid")
    expect(flow.accounts).toEqual([
      expect.objectContaining({ provider: "battlenet", type: "oidc", providerAccountId: olivia.sub }),
    ])
    // scope openid: no battle_tag from this OP, and Battle.net shares no e-mail or picture.
    expect(flow.user, "a session").toBeDefined()
    expect(flow.user!.email ?? null).toBeNull()
    expect(flow.user!.image ?? null).toBeNull()
  })
})

describe("battlenet: AUTH_BATTLENET_* through the resolve path (process env)", () => {
  afterEach(() => vi.unstubAllEnvs())
  it("AUTH_BATTLENET_ID / _SECRET / _ISSUER", () => {
    expectResolvedFromEnv("battlenet", BattleNet as Factory, "https://oauth.battlenet.com.cn")
  })
})
