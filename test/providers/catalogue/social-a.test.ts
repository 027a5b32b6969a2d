// Provider catalogue, batch social-a: discord, gitlab, twitch, spotify, reddit, dropbox, bitbucket, atlassian,
// slack, linkedin.
// - Shape: each provider's id, type, checks, endpoints, scope, client auth and button style against the documented
//   values below, plus its `./providers/<id>` entry in package.json's exports map.
// - Sign-in through Auth(): the OAuth 2 providers with their real hosts routed to the catalogue player
//   (test/support/catalogue-kit.ts: routingFetch as [customFetch], the browser's visit to the authorize page mapped there
//   too) that replays the documented token and profile answers, checking code, PKCE, client authentication and the
//   access token; a profile without an id fails with OAuthProfileParseError. The OIDC ones (twitch, slack, linkedin)
//   against the mock OP (test/support/mock-op.ts) through an `issuer` override, with their client auth.
// - AUTH_<ID>_ID / _SECRET through setEnvDefaults.
import { describe, expect, it } from "vitest"
import Atlassian from "../../../src/providers/atlassian.js"
import Bitbucket from "../../../src/providers/bitbucket.js"
import Discord from "../../../src/providers/discord.js"
import Dropbox from "../../../src/providers/dropbox.js"
import GitLab from "../../../src/providers/gitlab.js"
import LinkedIn from "../../../src/providers/linkedin.js"
import Reddit from "../../../src/providers/reddit.js"
import Slack from "../../../src/providers/slack.js"
import Spotify from "../../../src/providers/spotify.js"
import Twitch from "../../../src/providers/twitch.js"
import type { MockOp } from "../../support/mock-op.js"
import { SIGNIN_ERROR, expectRejected, expectSignedIn, setup, signInThrough } from "../../support/provider-kit.js"
import {
  type Factory,
  type MappedUser,
  type OAuthShape,
  type Replay,
  afterEnvDefaults,
  clientEnv,
  endpointBase,
  expectAuthorizeRequest,
  expectEnvFills,
  expectExported,
  expectOAuthShape,
  expectPlayedSignIn,
  expectProfileParseError,
  expectSessionUser,
  omit,
  paramsOf,
  signInReplayed,
  useMockOp,
  usePlayer,
} from "../../support/catalogue-kit.js"

// ---------------------------------------------------------------------------------------------
// The documented values

interface Shape extends Omit<OAuthShape, "id"> {
  factory: Factory
  name: string
  type: "oauth" | "oidc"
  scope: string
}

const SHAPES: Record<string, Shape> = {
  discord: {
    factory: Discord as Factory,
    name: "Discord",
    type: "oauth",
    authorization: "https://discord.com/api/oauth2/authorize",
    scope: "identify email",
    token: "https://discord.com/api/oauth2/token",
    userinfo: "https://discord.com/api/users/@me",
    bg: "#5865F2",
    text: "#fff",
  },
  gitlab: {
    factory: GitLab as Factory,
    name: "GitLab",
    type: "oauth",
    authorization: "https://gitlab.com/oauth/authorize",
    scope: "read_user",
    token: "https://gitlab.com/oauth/token",
    userinfo: "https://gitlab.com/api/v4/user",
    bg: "#FC6D26",
    text: "#171321",
  },
  twitch: {
    factory: Twitch as Factory,
    name: "Twitch",
    type: "oidc",
    issuer: "https://id.twitch.tv/oauth2",
    scope: "openid user:read:email",
    auth: "client_secret_post",
    bg: "#65459B",
    text: "#fff",
  },
  spotify: {
    factory: Spotify as Factory,
    name: "Spotify",
    type: "oauth",
    authorization: "https://accounts.spotify.com/authorize",
    scope: "user-read-email",
    token: "https://accounts.spotify.com/api/token",
    userinfo: "https://api.spotify.com/v1/me",
    bg: "#1DB954",
    text: "#000",
  },
  reddit: {
    factory: Reddit as Factory,
    name: "Reddit",
    type: "oauth",
    checks: ["state"],
    authorization: "https://www.reddit.com/api/v1/authorize",
    scope: "identity",
    token: "https://www.reddit.com/api/v1/access_token",
    userinfo: "https://oauth.reddit.com/api/v1/me",
    bg: "#FF4500",
    text: "#000",
  },
  dropbox: {
    factory: Dropbox as Factory,
    name: "Dropbox",
    type: "oauth",
    authorization: "https://www.dropbox.com/oauth2/authorize",
    scope: "account_info.read",
    params: { token_access_type: "offline" },
    token: "https://api.dropboxapi.com/oauth2/token",
    userinfo: "https://api.dropboxapi.com/2/users/get_current_account",
    bg: "#0061FE",
    text: "#fff",
  },
  bitbucket: {
    factory: Bitbucket as Factory,
    name: "Bitbucket",
    type: "oauth",
    authorization: "https://bitbucket.org/site/oauth2/authorize",
    scope: "account",
    token: "https://bitbucket.org/site/oauth2/access_token",
    userinfo: "https://api.bitbucket.org/2.0/user",
    bg: "#205081",
    text: "#fff",
  },
  atlassian: {
    factory: Atlassian as Factory,
    name: "Atlassian",
    type: "oauth",
    checks: ["state"],
    authorization: "https://auth.atlassian.com/authorize",
    scope: "read:me",
    params: { audience: "api.atlassian.com" },
    token: "https://auth.atlassian.com/oauth/token",
    userinfo: "https://api.atlassian.com/me",
    bg: "#fff",
    text: "#0052CC",
  },
  slack: {
    factory: Slack as Factory,
    name: "Slack",
    type: "oidc",
    checks: ["nonce"],
    issuer: "https://slack.com",
    scope: "openid profile email",
    bg: "#611F69",
    text: "#fff",
  },
  linkedin: {
    factory: LinkedIn as Factory,
    name: "LinkedIn",
    type: "oidc",
    checks: ["state"],
    issuer: "https://www.linkedin.com/oauth",
    scope: "openid profile email",
    auth: "client_secret_post",
    bg: "#006699",
    text: "#fff",
  },
}
const IDS = Object.keys(SHAPES)

describe("shape", () => {
  it.each(IDS)("%s: id, type, checks, endpoints, scope, client auth and style as documented", (id) => {
    const want = SHAPES[id]!
    expectOAuthShape(want.factory(), { id, ...want }, "base")
    // The user's options are kept for the merge.
    expect(want.factory({ clientId: "cid" }).options).toMatchObject({ clientId: "cid" })
  })

  it.each(IDS)("%s: src/providers/<id>.ts exists and package.json exports ./providers/<id> from dist", (id) => {
    expectExported(id)
  })

  it("gitlab: baseUrl (Auth.js's option for self-managed GitLab) moves every endpoint, with or without a trailing slash", () => {
    for (const baseUrl of [
      "https://gitlab.example.com",
      "https://gitlab.example.com/",
      new URL("https://gitlab.example.com"),
    ]) {
      const p = GitLab({ baseUrl })
      expect(endpointBase(p.authorization)).toBe("https://gitlab.example.com/oauth/authorize")
      expect(endpointBase(p.token)).toBe("https://gitlab.example.com/oauth/token")
      expect(endpointBase(p.userinfo)).toBe("https://gitlab.example.com/api/v4/user")
      expect(p.options).not.toHaveProperty("baseUrl")
    }
    expect(endpointBase(GitLab({ baseUrl: "https://example.com/gitlab" }).token)).toBe(
      "https://example.com/gitlab/oauth/token",
    )
  })

  it("twitch: asks for the e-mail and picture claims; its token conform joins an array scope and leaves the rest", async () => {
    const p = Twitch()
    const params = paramsOf(p.authorization) as Record<string, string>
    expect(JSON.parse(params.claims!)).toEqual({
      id_token: { email: null, email_verified: null, picture: null, preferred_username: null },
    })
    const conform = (p.token as { conform: (r: Response) => Promise<Response | undefined> }).conform
    const fixed = await conform(
      Response.json({ access_token: "a", token_type: "bearer", scope: ["openid", "user:read:email"] }),
    )
    expect(await fixed!.json()).toMatchObject({ access_token: "a", scope: "openid user:read:email" })
    expect(await conform(Response.json({ access_token: "a", token_type: "bearer", scope: "openid" }))).toBeUndefined()
    expect(await conform(Response.json({ error: "invalid_grant" }, { status: 400 }))).toBeUndefined()
  })

  it("discord: the default avatar when none is set (new usernames: (id >> 22) % 6; legacy: discriminator % 5), gif for animated", async () => {
    const map = (p: Record<string, unknown>) => Discord().profile!(p as never, {} as never)
    expect(
      await map({ id: "80351110224678912", username: "n", discriminator: "0", global_name: null, avatar: null }),
    ).toMatchObject({
      name: "n",
      image: `https://cdn.discordapp.com/embed/avatars/${Number((80351110224678912n >> 22n) % 6n)}.png`,
    })
    expect(await map({ id: "1", username: "n", discriminator: "1337", global_name: "G", avatar: null })).toMatchObject({
      name: "G",
      image: "https://cdn.discordapp.com/embed/avatars/2.png",
    })
    expect(await map({ id: "1", username: "n", discriminator: "0", global_name: null, avatar: "a_abc" })).toMatchObject(
      { image: "https://cdn.discordapp.com/avatars/1/a_abc.gif" },
    )
  })
})

// ---------------------------------------------------------------------------------------------
// OAuth 2 sign-in against the replayed documented answers

const REPLAYS: Record<string, Replay> = {
  discord: {
    // Discord's authorization-server metadata advertises RFC 9207: its callback carries iss.
    quirks: { callbackParams: { iss: "https://discord.com" } },
    token: {
      access_token: "6qrZcUqja7812RVdnEKjpzOL4CvHBFG",
      token_type: "Bearer",
      expires_in: 604800,
      refresh_token: "D43f5y0ahjqew82jZ4NViEr2YafMKhue",
      scope: "identify email",
    },
    profile: {
      id: "80351110224678912",
      username: "nelly",
      discriminator: "0",
      global_name: "Nelly",
      avatar: "8342729096ea3675442027381ff50dfe",
      verified: true,
      email: "nelly@discord.example",
      flags: 64,
    },
    idField: "id",
    user: {
      name: "Nelly",
      email: "nelly@discord.example",
      image: "https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png",
    },
    providerAccountId: "80351110224678912",
  },
  gitlab: {
    token: {
      access_token: "de6780bc506a0446309bd9362820ba8aed28aa506c71eedbe1c5c4f9dd350e54",
      token_type: "bearer",
      expires_in: 7200,
      refresh_token: "8257e65c97202ed1726cf9571600918f3bffb2544b26e00a61df9897668c33a1",
      created_at: 1607635748,
    },
    profile: {
      id: 1,
      username: "john_smith",
      name: "John Smith",
      email: "john@example.com",
      state: "active",
      avatar_url: "http://localhost:3000/uploads/user/avatar/1/index.jpg",
      web_url: "http://localhost:3000/john_smith",
    },
    idField: "id",
    user: {
      name: "John Smith",
      email: "john@example.com",
      image: "http://localhost:3000/uploads/user/avatar/1/index.jpg",
    },
    providerAccountId: "1",
  },
  spotify: {
    token: {
      access_token: "NgCXRKc...MzYjw",
      token_type: "Bearer",
      scope: "user-read-email",
      expires_in: 3600,
      refresh_token: "NgAagA...Um_SHo",
    },
    profile: {
      id: "wizzler",
      display_name: "JM Wizzler",
      email: "email@example.com",
      country: "SE",
      product: "premium",
      images: [{ url: "https://i.scdn.co/image/ab67616d00001e02ff9ca10b55ce82ae553c8228", height: 300, width: 300 }],
    },
    idField: "id",
    user: {
      name: "JM Wizzler",
      email: "email@example.com",
      image: "https://i.scdn.co/image/ab67616d00001e02ff9ca10b55ce82ae553c8228",
    },
    providerAccountId: "wizzler",
  },
  reddit: {
    token: {
      access_token:
        "eyJhbGciOiJSUzI1NiIsImtpZCI6IlNIQTI1NjpzS3dsMnlsV0VtMjVmcXhwTU40cWY4MXE2OWFFdWFyMnpLMUdhVGxjdWNZIiwidHlwIjoiSldUIn0",
      token_type: "bearer",
      expires_in: 86400,
      scope: "identity",
    },
    profile: {
      id: "1w72",
      name: "spez",
      icon_img:
        "https://styles.redditmedia.com/t5_3k30p/styles/profileIcon_snoo.png?width=256&amp;height=256&amp;s=d6d8d0f4",
      verified: true,
      total_karma: 100,
    },
    idField: "id",
    user: {
      name: "spez",
      email: null,
      image: "https://styles.redditmedia.com/t5_3k30p/styles/profileIcon_snoo.png?width=256&height=256&s=d6d8d0f4",
    },
    providerAccountId: "1w72",
  },
  dropbox: {
    token: {
      access_token:
        "sl.u.AbX9y6Fe3AuH5o66-gmJpR032jwAwQPIVVzWXZNkdzcYT02akC2de219dZi6gxYPVnYPrpvISRSf9lxKWJzYLjtMPH-d9fo",
      expires_in: 14400,
      token_type: "bearer",
      scope: "account_info.read",
      refresh_token: "nBiM85CZALsAAAAAAAAAAQXHBoNpNutK4ngsXHsqW4iGz9tisb3JyjGqikMJIYbd",
      account_id: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc",
      uid: "12345",
    },
    profile: {
      account_id: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc",
      name: {
        given_name: "Franz",
        surname: "Ferdinand",
        familiar_name: "Franz",
        display_name: "Franz Ferdinand (Personal)",
        abbreviated_name: "FF",
      },
      email: "franz@dropbox.com",
      email_verified: true,
      disabled: false,
      profile_photo_url:
        "https://dl-web.dropbox.com/account_photo/get/dbaphid%3AAAHWGmIXV3sUuOmBfTz0wPsiqHUpBWvv3ZA?vers=1556069330102&size=128x128",
    },
    idField: "account_id",
    quirks: { userinfoMethod: "POST" },
    user: {
      name: "Franz Ferdinand (Personal)",
      email: "franz@dropbox.com",
      image:
        "https://dl-web.dropbox.com/account_photo/get/dbaphid%3AAAHWGmIXV3sUuOmBfTz0wPsiqHUpBWvv3ZA?vers=1556069330102&size=128x128",
    },
    providerAccountId: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc",
  },
  bitbucket: {
    token: {
      access_token: "Iy3Vyq9tZwTBzE7F1JY_bNLYNk2UkQ",
      scopes: "account",
      token_type: "bearer",
      expires_in: 7200,
      state: "authorization_code",
      refresh_token: "Vn8qzpSfd9LPh6vJ4q",
    },
    profile: {
      account_id: "557058:c0b72ad0-1cb5-4018-9cdc-0cde8492c443",
      uuid: "{d301aafa-d676-4ee0-88be-962be7417567}",
      username: "evzijst",
      display_name: "Erik van Zijst",
      nickname: "evzijst",
      links: {
        avatar: { href: "https://bitbucket.org/account/evzijst/avatar/" },
        html: { href: "https://bitbucket.org/evzijst/" },
      },
    },
    idField: "account_id",
    user: { name: "Erik van Zijst", email: null, image: "https://bitbucket.org/account/evzijst/avatar/" },
    providerAccountId: "557058:c0b72ad0-1cb5-4018-9cdc-0cde8492c443",
  },
  atlassian: {
    token: {
      access_token: "eyJraWQiOiJhdXRoLmF0bGFzc2lhbi5jb20",
      expires_in: 3600,
      scope: "read:me",
      token_type: "Bearer",
    },
    profile: {
      account_type: "atlassian",
      account_id: "112233aa-bb11-cc22-33dd-445566abcabc",
      email: "mia@example.com",
      email_verified: true,
      name: "Mia Krystof",
      picture:
        "https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/112233aa/1234abcd-9876-54aa-33aa-1234dfsade9487ds",
      account_status: "active",
      nickname: "mkrystof",
      locale: "en-US",
    },
    idField: "account_id",
    user: {
      name: "Mia Krystof",
      email: "mia@example.com",
      image:
        "https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/112233aa/1234abcd-9876-54aa-33aa-1234dfsade9487ds",
    },
    providerAccountId: "112233aa-bb11-cc22-33dd-445566abcabc",
  },
}

const player = usePlayer()

const signIn = (id: string, profile?: Record<string, unknown>) =>
  signInReplayed(player, id, SHAPES[id]!, REPLAYS[id]!, profile)

describe("sign-in (OAuth 2, documented answers replayed on 127.0.0.1)", () => {
  it.each(Object.keys(REPLAYS))("%s: the mapped user is in the session", async (id) => {
    const replay = REPLAYS[id]!
    const r = await signIn(id)
    await expectPlayedSignIn(r, { id, ...SHAPES[id]!, user: replay.user, providerAccountId: replay.providerAccountId })
    if (id === "reddit")
      expect(r.pl.userinfoRequests[0]!.headers["user-agent"]).toBe("web:reddit-client:v1 (gatehouse)")
  })

  it.each(Object.keys(REPLAYS))("%s: a profile without an id is OAuthProfileParseError, no session", async (id) => {
    const { s, res } = await signIn(id, omit(REPLAYS[id]!.profile, REPLAYS[id]!.idField))
    expectProfileParseError(res, s.log)
  })

  it("gitlab: a self-managed instance through baseUrl", async () => {
    const base = "https://gitlab.example.com"
    const instance = {
      factory: GitLab as Factory,
      given: { baseUrl: base },
      authorization: `${base}/oauth/authorize`,
      token: `${base}/oauth/token`,
      userinfo: `${base}/api/v4/user`,
    }
    const { s, res, started, route } = await signInReplayed(player, "gitlab", instance, REPLAYS.gitlab!)
    expectSignedIn(res, s.log)
    expect(route.calls.map((c) => c.url)).toEqual([`${base}/oauth/token`, `${base}/api/v4/user`])
    await expectSessionUser(s.config, started.jar, REPLAYS.gitlab!.user)
  })
})

// ---------------------------------------------------------------------------------------------
// OIDC providers against the mock OP (issuer override)

describe("sign-in (OIDC, mock OP as the issuer)", () => {
  let op: MockOp
  useMockOp({ clientId: "social-a-oidc" }, (o) => void (op = o))
  const OIDC: Record<
    string,
    { auth: "client_secret_basic" | "client_secret_post"; claims: Record<string, unknown>; user: MappedUser }
  > = {
    twitch: {
      auth: "client_secret_post",
      claims: {
        preferred_username: "twitchdev",
        email: "dev@twitch.example",
        email_verified: true,
        picture: "https://static-cdn.jtvnw.net/u/twitchdev.png",
      },
      user: { name: "twitchdev", email: "dev@twitch.example", image: "https://static-cdn.jtvnw.net/u/twitchdev.png" },
    },
    slack: {
      auth: "client_secret_basic",
      claims: {
        name: "Ada Slack",
        email: "ada@slack.example",
        email_verified: true,
        picture: "https://secure.gravatar.com/avatar/ada.jpg",
        "https://slack.com/team_id": "T0R7GR",
      },
      user: { name: "Ada Slack", email: "ada@slack.example", image: "https://secure.gravatar.com/avatar/ada.jpg" },
    },
    linkedin: {
      auth: "client_secret_post",
      claims: {
        name: "Lin Ked",
        given_name: "Lin",
        family_name: "Ked",
        email: "lin@linkedin.example",
        email_verified: true,
        picture: "https://media.licdn.com/lin.jpg",
        locale: "en-US",
      },
      user: { name: "Lin Ked", email: "lin@linkedin.example", image: "https://media.licdn.com/lin.jpg" },
    },
  }
  /** The provider against the mock OP, which demands the provider's client authentication. */
  const provider = (id: string) => {
    op.tokenEndpointAuthMethod = OIDC[id]!.auth
    return SHAPES[id]!.factory({ clientId: op.clientId, clientSecret: op.clientSecret, issuer: op.issuer })
  }

  it.each(Object.keys(OIDC))(
    "%s: the ID token's claims mapped into the session, with the provider's client auth and checks",
    async (id) => {
      op.subject = `${id}-user-42`
      op.extraClaims = OIDC[id]!.claims
      const s = setup([provider(id)])
      const { started, res } = await signInThrough(s.config, id)
      expectAuthorizeRequest(started.location!, { id, scope: SHAPES[id]!.scope, checks: SHAPES[id]!.checks })
      expectSignedIn(res, s.log)
      expect(op.counts.token).toBe(1)
      expect(op.tokenRequests[0]!.body.has("client_secret")).toBe(OIDC[id]!.auth === "client_secret_post")
      expect(s.signInCall().account).toMatchObject({ provider: id, type: "oidc", providerAccountId: `${id}-user-42` })
      await expectSessionUser(s.config, started.jar, OIDC[id]!.user)
    },
  )

  it.each(Object.keys(OIDC))("%s: an ID token without sub is refused before any mapping, no session", async (id) => {
    const s = setup([provider(id)])
    op.idTokenFault = "missing-sub"
    const { res } = await signInThrough(s.config, id)
    expectRejected(res, s.log, SIGNIN_ERROR("OAuthCallbackError"), "OAuthCallbackError")
  })
})

// ---------------------------------------------------------------------------------------------
// Env

describe("env", () => {
  it.each(IDS)("%s: AUTH_<ID>_ID / _SECRET fill the provider (as a function or an object)", (id) => {
    for (const provider of [SHAPES[id]!.factory, SHAPES[id]!.factory()]) expectEnvFills(id, provider)
    // Given options win over env.
    expect(afterEnvDefaults(clientEnv(id), SHAPES[id]!.factory({ clientId: "given" }))).toMatchObject({
      clientSecret: `${id}-env-secret`,
      options: { clientId: "given" },
    })
  })
})
