// Provider catalogue, batch social-d: yandex, zoho, workos, wordpress, wikimedia, webex, trakt, threads,
// mattermost, nextcloud, mastodon (all OAuth 2; the last three on a self-hosted instance given as `issuer`).
// - Shape: each provider's id, type, checks, endpoints, scope, client auth and button style against the documented
//   values below, plus its `./providers/<id>` entry in package.json's exports map.
// - Sign-in through Auth(): the real hosts (or the instance URL) routed to the catalogue player on 127.0.0.1
//   (test/support/catalogue-kit.ts: routingFetch as [customFetch], the browser's visit to the authorize page mapped there
//   too) that replays the documented token and profile answers, checking code, PKCE, client authentication, the access
//   token and the headers a provider requires (Trakt's API version and key, Nextcloud's OCS header); a profile without
//   an id fails with OAuthProfileParseError.
// - AUTH_<ID>_ID / _SECRET (and _ISSUER for the instance ones) through setEnvDefaults.
import { describe, expect, it } from "vitest"
import Mastodon from "../../../src/providers/mastodon.js"
import Mattermost from "../../../src/providers/mattermost.js"
import Nextcloud from "../../../src/providers/nextcloud.js"
import Threads from "../../../src/providers/threads.js"
import Trakt from "../../../src/providers/trakt.js"
import Webex from "../../../src/providers/webex.js"
import Wikimedia from "../../../src/providers/wikimedia.js"
import WordPress from "../../../src/providers/wordpress.js"
import WorkOS from "../../../src/providers/workos.js"
import Yandex from "../../../src/providers/yandex.js"
import Zoho from "../../../src/providers/zoho.js"
import { setup, startSignIn } from "../../support/provider-kit.js"
import {
  type Factory,
  type OAuthShape,
  type Replay,
  afterEnvDefaults,
  clientEnv,
  endpointBase,
  expectEnvFills,
  expectExported,
  expectOAuthShape,
  expectPlayedSignIn,
  expectProfileParseError,
  omit,
  paramsOf,
  signInReplayed,
  usePlayer,
} from "../../support/catalogue-kit.js"

// ---------------------------------------------------------------------------------------------
// The documented values

interface Shape extends Omit<OAuthShape, "id" | "type" | "issuer"> {
  factory: Factory
  /** Options the shape is read with (the instance URL for the self-hosted ones). */
  given?: Record<string, unknown>
  name: string
  authorization: string
  token: string
  userinfo: string
}

const SHAPES: Record<string, Shape> = {
  yandex: {
    factory: Yandex as Factory,
    name: "Yandex",
    authorization: "https://oauth.yandex.ru/authorize",
    scope: "login:info login:email login:avatar",
    token: "https://oauth.yandex.ru/token",
    userinfo: "https://login.yandex.ru/info",
    bg: "#ffcc00",
    text: "#000",
  },
  zoho: {
    factory: Zoho as Factory,
    name: "Zoho",
    authorization: "https://accounts.zoho.com/oauth/v2/auth",
    scope: "AaaServer.profile.Read",
    token: "https://accounts.zoho.com/oauth/v2/token",
    userinfo: "https://accounts.zoho.com/oauth/user/info",
    bg: "#226DB4",
    text: "#fff",
  },
  workos: {
    factory: WorkOS as Factory,
    given: { connection: "conn_01E4ZCR3C56J083X43JQXF3JK5" },
    name: "WorkOS",
    authorization: "https://api.workos.com/sso/authorize",
    params: { connection: "conn_01E4ZCR3C56J083X43JQXF3JK5" },
    token: "https://api.workos.com/sso/token",
    userinfo: "https://api.workos.com/sso/profile",
    auth: "client_secret_post",
    bg: "#6363f1",
    text: "#fff",
  },
  wordpress: {
    factory: WordPress as Factory,
    name: "WordPress.com",
    authorization: "https://public-api.wordpress.com/oauth2/authorize",
    scope: "auth",
    token: "https://public-api.wordpress.com/oauth2/token",
    userinfo: "https://public-api.wordpress.com/rest/v1/me",
    bg: "#21759B",
    text: "#fff",
  },
  wikimedia: {
    factory: Wikimedia as Factory,
    name: "Wikimedia",
    authorization: "https://meta.wikimedia.org/w/rest.php/oauth2/authorize",
    scope: "",
    token: "https://meta.wikimedia.org/w/rest.php/oauth2/access_token",
    userinfo: "https://meta.wikimedia.org/w/rest.php/oauth2/resource/profile",
    bg: "#000",
    text: "#fff",
  },
  webex: {
    factory: Webex as Factory,
    name: "Webex",
    authorization: "https://webexapis.com/v1/authorize",
    scope: "spark:kms spark:people_read",
    token: "https://webexapis.com/v1/access_token",
    userinfo: "https://webexapis.com/v1/people/me",
    bg: "#07C1E4",
    text: "#000",
  },
  trakt: {
    factory: Trakt as Factory,
    name: "Trakt",
    authorization: "https://trakt.tv/oauth/authorize",
    scope: "",
    token: "https://api.trakt.tv/oauth/token",
    userinfo: "https://api.trakt.tv/users/me",
    bg: "#D41F1F",
    text: "#fff",
  },
  threads: {
    factory: Threads as Factory,
    name: "Threads",
    checks: ["state"],
    authorization: "https://threads.net/oauth/authorize",
    scope: "threads_basic",
    token: "https://graph.threads.net/oauth/access_token",
    userinfo: "https://graph.threads.net/v1.0/me",
    auth: "client_secret_post",
    bg: "#000",
    text: "#fff",
  },
  mattermost: {
    factory: Mattermost as Factory,
    given: { issuer: "https://chat.example.org" },
    name: "Mattermost",
    authorization: "https://chat.example.org/oauth/authorize",
    token: "https://chat.example.org/oauth/access_token",
    userinfo: "https://chat.example.org/api/v4/users/me",
    auth: "client_secret_post",
    bg: "#000",
    text: "#fff",
  },
  nextcloud: {
    factory: Nextcloud as Factory,
    given: { issuer: "https://cloud.example.org/" },
    name: "Nextcloud",
    authorization: "https://cloud.example.org/apps/oauth2/authorize",
    token: "https://cloud.example.org/apps/oauth2/api/v1/token",
    userinfo: "https://cloud.example.org/ocs/v1.php/cloud/users",
    bg: "#fff",
    text: "#006BA6",
  },
  mastodon: {
    factory: Mastodon as Factory,
    given: { issuer: "https://social.example.org" },
    name: "Mastodon",
    authorization: "https://social.example.org/oauth/authorize",
    scope: "read",
    token: "https://social.example.org/oauth/token",
    userinfo: "https://social.example.org/api/v1/accounts/verify_credentials",
    bg: "#563ACC",
    text: "#fff",
  },
}
const IDS = Object.keys(SHAPES)
const INSTANCE = ["mattermost", "nextcloud", "mastodon"]

const make = (id: string, extra: Record<string, unknown> = {}) =>
  SHAPES[id]!.factory({ ...SHAPES[id]!.given, ...extra })

describe("shape", () => {
  it.each(IDS)("%s: id, type, checks, endpoints, scope, client auth and style as documented", (id) => {
    const want = SHAPES[id]!
    expectOAuthShape(make(id), { id, ...want }, "base")
    // The user's options are kept for the merge; the provider's own options (issuer, connection, apiBaseUrl) are not.
    const kept = make(id, { clientId: "cid" }).options
    expect(kept).toMatchObject({ clientId: "cid" })
    for (const own of ["issuer", "connection", "apiBaseUrl"]) expect(kept).not.toHaveProperty(own)
  })

  it.each(IDS)("%s: src/providers/<id>.ts exists and package.json exports ./providers/<id> from dist", (id) => {
    expectExported(id)
  })

  it.each(INSTANCE)(
    "%s: without an instance URL there are no endpoints, and Auth() says to set `issuer`",
    async (id) => {
      const p = SHAPES[id]!.factory({ clientId: "x", clientSecret: "y" })
      expect(endpointBase(p.token)).toBeUndefined()
      const s = setup([p])
      const started = await startSignIn(s.config, id)
      expect(started.res.status).toBe(500)
      expect(s.log.types()).toEqual(["InvalidEndpoints"])
      expect(s.log.text()).toContain("set `issuer`")
    },
  )

  it("workos: a custom API base (issuer) moves every endpoint; the connection defaults to empty", () => {
    const p = WorkOS({ issuer: "https://auth.example.org" })
    expect([endpointBase(p.authorization), endpointBase(p.token), endpointBase(p.userinfo)]).toEqual([
      "https://auth.example.org/sso/authorize",
      "https://auth.example.org/sso/token",
      "https://auth.example.org/sso/profile",
    ])
    expect(paramsOf(p.authorization).connection).toBe("")
  })

  it("webex: apiBaseUrl moves every endpoint", () => {
    const p = Webex({ apiBaseUrl: "https://webexapis.example.org/v1/" })
    expect([endpointBase(p.authorization), endpointBase(p.token), endpointBase(p.userinfo)]).toEqual([
      "https://webexapis.example.org/v1/authorize",
      "https://webexapis.example.org/v1/access_token",
      "https://webexapis.example.org/v1/people/me",
    ])
  })

  it("yandex: the avatar only when one is set; the name falls back through real_name, first_name, login", async () => {
    const map = (p: Record<string, unknown>) => Yandex().profile!(p as never, {} as never)
    expect(
      await map({
        id: 1,
        login: "ivan",
        default_avatar_id: "131652443",
        is_avatar_empty: true,
        emails: ["i@yandex.ru"],
      }),
    ).toEqual({ id: "1", name: "ivan", email: "i@yandex.ru", image: null })
    expect(
      await map({
        id: "1",
        login: "ivan",
        real_name: "Ivan Ivanov",
        default_avatar_id: "131652443",
        is_avatar_empty: false,
      }),
    ).toMatchObject({ name: "Ivan Ivanov", image: "https://avatars.yandex.net/get-yapic/131652443/islands-200" })
  })

  it("threads: reads the fields at the top (as the Graph API sends them) or under data (Auth.js's type)", async () => {
    const map = (p: Record<string, unknown>) => Threads().profile!(p as never, {} as never)
    const top = {
      id: "1234567",
      username: "threadsapitestuser",
      threads_profile_picture_url: "https://scontent.cdninstagram.com/t.jpg",
    }
    const want = {
      id: "1234567",
      name: "threadsapitestuser",
      email: null,
      image: "https://scontent.cdninstagram.com/t.jpg",
    }
    expect(await map(top)).toEqual(want)
    expect(await map({ data: top })).toEqual(want)
  })
})

// ---------------------------------------------------------------------------------------------
// Sign-in against the documented answers

const REPLAYS: Record<string, Replay> = {
  yandex: {
    quirks: { userinfoMatch: "prefix", userinfoQuery: { format: "json" } },
    token: {
      token_type: "bearer",
      access_token: "AQAAAACy1C6ZAAAAfa6vDLuItEy8pg-iIpnDxIs",
      expires_in: 124234123534,
      refresh_token: "1:GN686QVt0mmakDd9:A4pYuW9LGk0_UnlrMIWklkAuJkUWbq27loFekJVmSYrdfzdePBy7:A-2dHOmBxiXgajnD-kYOwQ",
    },
    profile: {
      first_name: "Иван",
      last_name: "Иванов",
      display_name: "Ivan",
      emails: ["test@yandex.ru", "other-test@yandex.ru"],
      default_email: "test@yandex.ru",
      real_name: "Иван Иванов",
      is_avatar_empty: false,
      default_avatar_id: "131652443",
      login: "ivan",
      old_social_login: "uid-mmzxrnry",
      sex: "male",
      id: "1000034426",
      client_id: "4760187d81bc4b7799476b42b5103713",
      psuid: "1.AAceCw.tbHgw5DtJ9_zeqPrk-Ba2w.qPWSRC5v2t2IaksPJgnge",
    },
    idField: "id",
    user: {
      name: "Ivan",
      email: "test@yandex.ru",
      image: "https://avatars.yandex.net/get-yapic/131652443/islands-200",
    },
    providerAccountId: "1000034426",
  },
  zoho: {
    token: {
      access_token: "1000.41d9xxxxxxxxxxxxxxxxxxxxxxxxc2d1.8fccxxxxxxxxxxxxxxxxxxxxxxxx125f",
      refresh_token: "1000.3ph66exxxxxxxxxxxxx6ce34.3c4xxxxxxxxxxxxxxxf78",
      api_domain: "https://www.zohoapis.com",
      token_type: "Bearer",
      expires_in: 3600,
    },
    profile: {
      First_Name: "Rebecca",
      Email: "rebecca@zylker.com",
      Last_Name: "Simmons",
      Display_Name: "rebecca.simmons",
      ZUID: 700567123,
    },
    idField: "ZUID",
    user: { name: "Rebecca Simmons", email: "rebecca@zylker.com", image: null },
    providerAccountId: "700567123",
  },
  workos: {
    token: {
      access_token: "01DMEK0J53CVMC32CK5SE0KZ8Q",
      token_type: "Bearer",
      profile: { id: "prof_01DMC79VCBZ0NY2099737PSVF1" },
    },
    profile: {
      object: "profile",
      id: "prof_01DMC79VCBZ0NY2099737PSVF1",
      organization_id: "org_01EHQMYV6MBK39QC5PZXHY59C3",
      connection_id: "conn_01E4ZCR3C56J083X43JQXF3JK5",
      connection_type: "okta",
      idp_id: "00u1a0ufowBJlzPlk357",
      email: "todd@example.com",
      first_name: "Todd",
      last_name: "Rundgren",
      raw_attributes: { picture: "https://example.com/todd.png" },
    },
    idField: "id",
    user: { name: "Todd Rundgren", email: "todd@example.com", image: "https://example.com/todd.png" },
    providerAccountId: "prof_01DMC79VCBZ0NY2099737PSVF1",
  },
  wordpress: {
    token: { access_token: "YOUR_API_TOKEN", blog_id: "blog ID", blog_url: "blog url", token_type: "bearer" },
    profile: {
      ID: 12345678,
      display_name: "Gutenberg",
      username: "gutenberg",
      email: "gutenberg@example.com",
      primary_blog: 87654321,
      avatar_URL: "https://0.gravatar.com/avatar/abc?s=96&d=identicon",
      profile_URL: "https://gravatar.com/gutenberg",
      email_verified: true,
    },
    idField: "ID",
    user: {
      name: "Gutenberg",
      email: "gutenberg@example.com",
      image: "https://0.gravatar.com/avatar/abc?s=96&d=identicon",
    },
    providerAccountId: "12345678",
  },
  wikimedia: {
    token: {
      token_type: "Bearer",
      expires_in: 14400,
      access_token: "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.wm",
      refresh_token: "def50200wm",
    },
    profile: {
      sub: "51029283",
      username: "Example User",
      editcount: 42,
      confirmed_email: true,
      blocked: false,
      registered: "20200101000000",
      groups: ["*", "user", "autoconfirmed"],
      rights: ["read", "edit"],
      grants: ["basic"],
      realname: "",
      email: "example@example.org",
    },
    idField: "sub",
    user: { name: "Example User", email: "example@example.org", image: null },
    providerAccountId: "51029283",
  },
  webex: {
    token: {
      access_token: "ZDI3MGEyYzQtNmFlNS00NDNhLWFlNzAtZGVjNjE0MGU1OGZmZWNmZDEwN2ItYTU3",
      expires_in: 1209600,
      refresh_token: "MDEyMzQ1Njc4OTAxMjM0NTY3ODkwMTIzNDU2Nzg5MDEyMzQ1Njc4OTEyMzQ1Njc4",
      refresh_token_expires_in: 7776000,
    },
    profile: {
      id: "Y2lzY29zcGFyazovL3VzL1BFT1BMRS9mNWIzNjE4Ny1jOGRkLTQ3MjctOGIyZi1mOWM0NDdmMjkwNDY",
      emails: ["john.andersen@example.com"],
      displayName: "John Andersen",
      firstName: "John",
      lastName: "Andersen",
      avatar:
        "https://1efa7a94ed21783e352-c62266528714497a17239ececf39e9e2.ssl.cf1.rackcdn.com/V1~54c844c89e678e5a7b16a306bc2897b9~wx29yGtlTpilEFlYzqPKag==~1600",
      orgId: "Y2lzY29zcGFyazovL3VzL09SR0FOSVpBVElPTi85NmFiYzJhYS0zZGNjLTExZTUtYTE1Mi1mZTM0ODE5Y2RjOWE",
    },
    idField: "id",
    user: {
      name: "John Andersen",
      email: "john.andersen@example.com",
      image:
        "https://1efa7a94ed21783e352-c62266528714497a17239ececf39e9e2.ssl.cf1.rackcdn.com/V1~54c844c89e678e5a7b16a306bc2897b9~wx29yGtlTpilEFlYzqPKag==~1600",
    },
    providerAccountId: "Y2lzY29zcGFyazovL3VzL1BFT1BMRS9mNWIzNjE4Ny1jOGRkLTQ3MjctOGIyZi1mOWM0NDdmMjkwNDY",
  },
  trakt: {
    quirks: {
      userinfoMatch: "prefix",
      userinfoQuery: { extended: "full" },
      userinfoHeaders: { "trakt-api-version": "2", "trakt-api-key": "trakt-client" },
    },
    token: {
      access_token: "dbaf9757982a9e738f05d249b7b5b4a266b3a139049317c4909f2f263572c781",
      token_type: "bearer",
      expires_in: 7200,
      refresh_token: "76ba4c5c75c96f6087f58a4de10be6c00b29ea1ddc3b2022ee2016d1363e3a7c",
      scope: "public",
      created_at: 1487889741,
    },
    profile: {
      username: "sean",
      private: false,
      name: "Sean Rudford",
      vip: true,
      vip_ep: false,
      ids: { slug: "sean", uuid: "b6589fc6ab0dc82cf12099d1c2d40ab994e8410c" },
      joined_at: "2010-09-25T17:49:25.000Z",
      location: "SF",
      about: "I have all your cassette tapes.",
      gender: "male",
      age: 35,
      images: { avatar: { full: "https://walter.trakt.tv/images/users/000/000/001/avatars/large/6a5d7e0a0a.jpg" } },
    },
    idField: "ids",
    user: {
      name: "Sean Rudford",
      email: null,
      image: "https://walter.trakt.tv/images/users/000/000/001/avatars/large/6a5d7e0a0a.jpg",
    },
    providerAccountId: "sean",
  },
  threads: {
    quirks: { userinfoMatch: "prefix", userinfoQuery: { fields: "id,username,threads_profile_picture_url" } },
    token: { access_token: "THQVJ...", user_id: "1234567" },
    profile: {
      id: "1234567",
      username: "threadsapitestuser",
      threads_profile_picture_url: "https://scontent-sjc3-1.cdninstagram.com/link/to/profile/picture/on/threads/",
    },
    idField: "id",
    user: {
      name: "threadsapitestuser",
      email: null,
      image: "https://scontent-sjc3-1.cdninstagram.com/link/to/profile/picture/on/threads/",
    },
    providerAccountId: "1234567",
  },
  mattermost: {
    token: {
      access_token: "ds8ztgx4q7dnbgtfzy1n57mm5h",
      token_type: "bearer",
      expires_in: 31535999,
      scope: "user",
      refresh_token: "ab7mnyo6d3fqjrn8wa3cmawgzo",
    },
    profile: {
      id: "9ck8nkqh1jfe5c3yxpw7s9tgpo",
      username: "mia",
      email: "mia@example.org",
      first_name: "Mia",
      last_name: "Ortiz",
      nickname: "",
      locale: "en",
    },
    idField: "id",
    user: { name: "mia", email: "mia@example.org", image: null },
    providerAccountId: "9ck8nkqh1jfe5c3yxpw7s9tgpo",
  },
  nextcloud: {
    token: {
      access_token: "ldA9CIbEXAMPLEkAcl1r2t",
      token_type: "Bearer",
      expires_in: 3600,
      refresh_token: "LCz5EXAMPLEAuv7Cxz",
      user_id: "frank",
    },
    profile: {
      enabled: true,
      id: "frank",
      displayname: "Frank K.",
      email: "frank@example.org",
      language: "en",
      locale: "",
    },
    idField: "id",
    // The user's id follows the userinfo URL: /ocs/v1.php/cloud/users/<id>; the OCS API wants its header.
    quirks: { userinfoMatch: "prefix", userinfoHeaders: { "ocs-apirequest": "true", accept: "application/json" } },
    wrap: (profile) => ({ ocs: { meta: { status: "ok", statuscode: 100, message: "OK" }, data: profile } }),
    user: { name: "Frank K.", email: "frank@example.org", image: "https://cloud.example.org/avatar/frank/512" },
    providerAccountId: "frank",
  },
  mastodon: {
    token: {
      access_token: "ZA-Yj3aBD8U8Cm7lKUp-lm9O9BmDgdhHzDeqsY8tlL0",
      token_type: "Bearer",
      scope: "read",
      created_at: 1573979017,
    },
    profile: {
      id: "14715",
      username: "trwnh",
      acct: "trwnh",
      display_name: "infinite love ⴳ",
      locked: false,
      bot: false,
      created_at: "2016-11-24T10:02:12.085Z",
      url: "https://mastodon.social/@trwnh",
      avatar: "https://files.mastodon.social/accounts/avatars/000/014/715/original/34aa222f4ae2e0a9.png",
      avatar_static: "https://files.mastodon.social/accounts/avatars/000/014/715/original/34aa222f4ae2e0a9.png",
    },
    idField: "id",
    user: {
      name: "trwnh",
      email: null,
      image: "https://files.mastodon.social/accounts/avatars/000/014/715/original/34aa222f4ae2e0a9.png",
    },
    providerAccountId: "14715",
  },
}

const player = usePlayer()

const signIn = (id: string, profile?: Record<string, unknown>) =>
  signInReplayed(player, id, SHAPES[id]!, REPLAYS[id]!, profile)

describe("sign-in (OAuth 2, documented answers replayed on 127.0.0.1)", () => {
  it.each(IDS)("%s: the mapped user is in the session", async (id) => {
    const replay = REPLAYS[id]!
    const r = await signIn(id)
    // Client auth: the secret in the body for client_secret_post, in the Authorization header otherwise.
    await expectPlayedSignIn(r, { id, ...SHAPES[id]!, user: replay.user, providerAccountId: replay.providerAccountId })
    const profileCall = r.pl.userinfoRequests[0]!
    for (const [k, v] of Object.entries(replay.quirks?.userinfoHeaders ?? {})) expect(profileCall.headers[k]).toBe(v)
    if (id === "nextcloud")
      expect(profileCall.originalUrl).toBe("https://cloud.example.org/ocs/v1.php/cloud/users/frank")
  })

  it.each(IDS)("%s: a profile without an id is OAuthProfileParseError, no session", async (id) => {
    const { s, res } = await signIn(id, omit(REPLAYS[id]!.profile, REPLAYS[id]!.idField))
    expectProfileParseError(res, s.log)
  })
})

// ---------------------------------------------------------------------------------------------
// Env

describe("env", () => {
  it.each(IDS)("%s: AUTH_<ID>_ID / _SECRET fill the provider (as a function or an object)", (id) => {
    for (const provider of [SHAPES[id]!.factory, make(id)]) expectEnvFills(id, provider)
    expect(afterEnvDefaults(clientEnv(id), make(id, { clientId: "given" }))).toMatchObject({
      clientSecret: `${id}-env-secret`,
      options: { clientId: "given" },
    })
  })

  it.each(INSTANCE)("%s: AUTH_<ID>_ISSUER reaches the function form as the instance URL", (id) => {
    const p = afterEnvDefaults(clientEnv(id, SHAPES[id]!.given!.issuer as string), SHAPES[id]!.factory)
    expect([endpointBase(p.authorization), endpointBase(p.token), endpointBase(p.userinfo)]).toEqual([
      SHAPES[id]!.authorization,
      SHAPES[id]!.token,
      SHAPES[id]!.userinfo,
    ])
  })
})
