// Provider catalogue, batch social-a (issue 16): discord, gitlab, twitch, spotify, reddit, dropbox, bitbucket, atlassian,
// slack, linkedin.
// - Shape: each provider's id, type, checks, endpoints, scope, client auth and button style against the documented
//   values below, plus its `./providers/<id>` entry in package.json's exports map.
// - Sign-in through Auth(): the OAuth 2 providers with their real hosts routed to a local server (routingFetch as
//   [customFetch]; the browser's visit to the authorize page is mapped there too) that replays the documented token
//   and profile answers; a profile without an id fails with OAuthProfileParseError. The OIDC ones (twitch, slack,
//   linkedin) against the mock OP (test/support/mock-op.ts) through an `issuer` override, with their client auth.
// - AUTH_<ID>_ID / _SECRET through setEnvDefaults.
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { customFetch } from "../../../src/index.js"
import type { AuthConfig } from "../../../src/index.js"
import { setEnvDefaults } from "../../../src/config/env.js"
import { clearDiscoveryCache } from "../../../src/protocols/oauth2.js"
import type { OAuthConfigBase } from "../../../src/providers/types.js"
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
import { ORIGIN } from "../../helpers.js"
import { startMockOp, type MockOp } from "../../support/mock-op.js"
import {
  ERROR_PAGE, SIGNIN_ERROR, type LocalServer, type Recorded, callback, expectRejected, expectSignedIn, localize, logged, routingFetch, sendJson, sendRedirect, sessionOf, setup,
  startLocalServer, startSignIn, useFakeProvider, visitProvider,
} from "../../support/provider-kit.js"

const ROOT = join(__dirname, "..", "..", "..")
type Factory = (options?: Record<string, unknown>) => OAuthConfigBase

// ---------------------------------------------------------------------------------------------
// The documented values

interface Shape {
  factory: Factory
  name: string
  type: "oauth" | "oidc"
  /** undefined: the core default (["pkce"]). */
  checks?: string[]
  issuer?: string
  authorization?: string
  scope: string
  params?: Record<string, string>
  token?: string
  userinfo?: string
  auth?: string
  bg: string
  text: string
}

const SHAPES: Record<string, Shape> = {
  discord: { factory: Discord as Factory, name: "Discord", type: "oauth", authorization: "https://discord.com/api/oauth2/authorize", scope: "identify email", token: "https://discord.com/api/oauth2/token", userinfo: "https://discord.com/api/users/@me", bg: "#5865F2", text: "#fff" },
  gitlab: { factory: GitLab as Factory, name: "GitLab", type: "oauth", authorization: "https://gitlab.com/oauth/authorize", scope: "read_user", token: "https://gitlab.com/oauth/token", userinfo: "https://gitlab.com/api/v4/user", bg: "#FC6D26", text: "#171321" },
  twitch: { factory: Twitch as Factory, name: "Twitch", type: "oidc", issuer: "https://id.twitch.tv/oauth2", scope: "openid user:read:email", auth: "client_secret_post", bg: "#65459B", text: "#fff" },
  spotify: { factory: Spotify as Factory, name: "Spotify", type: "oauth", authorization: "https://accounts.spotify.com/authorize", scope: "user-read-email", token: "https://accounts.spotify.com/api/token", userinfo: "https://api.spotify.com/v1/me", bg: "#1DB954", text: "#000" },
  reddit: { factory: Reddit as Factory, name: "Reddit", type: "oauth", checks: ["state"], authorization: "https://www.reddit.com/api/v1/authorize", scope: "identity", token: "https://www.reddit.com/api/v1/access_token", userinfo: "https://oauth.reddit.com/api/v1/me", bg: "#FF4500", text: "#000" },
  dropbox: { factory: Dropbox as Factory, name: "Dropbox", type: "oauth", authorization: "https://www.dropbox.com/oauth2/authorize", scope: "account_info.read", params: { token_access_type: "offline" }, token: "https://api.dropboxapi.com/oauth2/token", userinfo: "https://api.dropboxapi.com/2/users/get_current_account", bg: "#0061FE", text: "#fff" },
  bitbucket: { factory: Bitbucket as Factory, name: "Bitbucket", type: "oauth", authorization: "https://bitbucket.org/site/oauth2/authorize", scope: "account", token: "https://bitbucket.org/site/oauth2/access_token", userinfo: "https://api.bitbucket.org/2.0/user", bg: "#205081", text: "#fff" },
  atlassian: { factory: Atlassian as Factory, name: "Atlassian", type: "oauth", checks: ["state"], authorization: "https://auth.atlassian.com/authorize", scope: "read:me", params: { audience: "api.atlassian.com" }, token: "https://auth.atlassian.com/oauth/token", userinfo: "https://api.atlassian.com/me", bg: "#fff", text: "#0052CC" },
  slack: { factory: Slack as Factory, name: "Slack", type: "oidc", checks: ["nonce"], issuer: "https://slack.com", scope: "openid profile email", bg: "#611F69", text: "#fff" },
  linkedin: { factory: LinkedIn as Factory, name: "LinkedIn", type: "oidc", checks: ["state"], issuer: "https://www.linkedin.com/oauth", scope: "openid profile email", auth: "client_secret_post", bg: "#006699", text: "#fff" },
}
const IDS = Object.keys(SHAPES)

/** WCAG 2 contrast ratio of two #rgb / #rrggbb colours. */
function contrast(a: string, b: string): number {
  const lum = (hex: string) => {
    const h = hex.slice(1)
    const full = h.length === 3 ? [...h].map((c) => c + c).join("") : h
    const [r, g, bl] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!
  }
  const [x, y] = [lum(a), lum(b)].sort((m, n) => n - m)
  return (x! + 0.05) / (y! + 0.05)
}

function urlOf(option: unknown): string | undefined {
  if (typeof option === "string") return option.split("?")[0]
  const url = (option as { url?: unknown } | undefined)?.url
  return url === undefined ? undefined : String(url)
}

describe("shape", () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { exports: Record<string, { import?: string; types?: string }> }

  it.each(IDS)("%s: id, type, checks, endpoints, scope, client auth and style as documented", (id) => {
    const want = SHAPES[id]!
    const p = want.factory()
    expect(p).toMatchObject({ id, name: want.name, type: want.type })
    expect(p.checks).toEqual(want.checks)
    expect(p.issuer).toBe(want.issuer)
    expect(urlOf(p.authorization)).toBe(want.authorization)
    expect(urlOf(p.token)).toBe(want.token)
    expect(urlOf(p.userinfo)).toBe(want.userinfo)
    const params = (p.authorization as { params?: Record<string, unknown> }).params ?? {}
    expect(params.scope).toBe(want.scope)
    expect(params).toMatchObject(want.params ?? {})
    expect(p.client?.token_endpoint_auth_method).toBe(want.auth)
    expect(p.style).toMatchObject({ bg: want.bg, text: want.text })
    expect(p.style!.logo).toMatch(/^data:image\/svg\+xml,%3Csvg xmlns='http:\/\/www\.w3\.org\/2000\/svg'/)
    expect(p.style!.logo!.length).toBeLessThan(1200)
    expect(contrast(want.bg, want.text), "text/bg contrast").toBeGreaterThanOrEqual(4.5)
    expect(typeof p.profile).toBe("function")
    // The user's options are kept for the merge.
    expect(want.factory({ clientId: "cid" }).options).toMatchObject({ clientId: "cid" })
  })

  it.each(IDS)("%s: src/providers/<id>.ts exists and package.json exports ./providers/<id> from dist", (id) => {
    expect(existsSync(join(ROOT, "src", "providers", `${id}.ts`))).toBe(true)
    expect(manifest.exports[`./providers/${id}`]).toEqual({ types: `./dist/providers/${id}.d.ts`, import: `./dist/providers/${id}.js` })
  })

  it("gitlab: baseUrl (Auth.js's option for self-managed GitLab) moves every endpoint, with or without a trailing slash", () => {
    for (const baseUrl of ["https://gitlab.example.com", "https://gitlab.example.com/", new URL("https://gitlab.example.com")]) {
      const p = GitLab({ baseUrl })
      expect(urlOf(p.authorization)).toBe("https://gitlab.example.com/oauth/authorize")
      expect(urlOf(p.token)).toBe("https://gitlab.example.com/oauth/token")
      expect(urlOf(p.userinfo)).toBe("https://gitlab.example.com/api/v4/user")
      expect(p.options).not.toHaveProperty("baseUrl")
    }
    expect(urlOf(GitLab({ baseUrl: "https://example.com/gitlab" }).token)).toBe("https://example.com/gitlab/oauth/token")
  })

  it("twitch: asks for the e-mail and picture claims; its token conform joins an array scope and leaves the rest", async () => {
    const p = Twitch()
    const params = (p.authorization as { params: Record<string, string> }).params
    expect(JSON.parse(params.claims!)).toEqual({ id_token: { email: null, email_verified: null, picture: null, preferred_username: null } })
    const conform = (p.token as { conform: (r: Response) => Promise<Response | undefined> }).conform
    const fixed = await conform(Response.json({ access_token: "a", token_type: "bearer", scope: ["openid", "user:read:email"] }))
    expect(await fixed!.json()).toMatchObject({ access_token: "a", scope: "openid user:read:email" })
    expect(await conform(Response.json({ access_token: "a", token_type: "bearer", scope: "openid" }))).toBeUndefined()
    expect(await conform(Response.json({ error: "invalid_grant" }, { status: 400 }))).toBeUndefined()
  })

  it("discord: the default avatar when none is set (new usernames: (id >> 22) % 6; legacy: discriminator % 5), gif for animated", async () => {
    const map = (p: Record<string, unknown>) => Discord().profile!(p as never, {} as never)
    expect(await map({ id: "80351110224678912", username: "n", discriminator: "0", global_name: null, avatar: null })).toMatchObject({ name: "n", image: `https://cdn.discordapp.com/embed/avatars/${Number((80351110224678912n >> 22n) % 6n)}.png` })
    expect(await map({ id: "1", username: "n", discriminator: "1337", global_name: "G", avatar: null })).toMatchObject({ name: "G", image: "https://cdn.discordapp.com/embed/avatars/2.png" })
    expect(await map({ id: "1", username: "n", discriminator: "0", global_name: null, avatar: "a_abc" })).toMatchObject({ image: "https://cdn.discordapp.com/avatars/1/a_abc.gif" })
  })
})

// ---------------------------------------------------------------------------------------------
// OAuth 2 sign-in against the replayed documented answers

interface Replay {
  /** The real origins to route to the local server. */
  origins: string[]
  token: Record<string, unknown>
  /** The profile body, as the provider documents it. */
  profile: Record<string, unknown>
  /** The profile field carrying the id (removed for the OAuthProfileParseError case). */
  idField: string
  userinfoMethod?: string
  user: { name: string | null; email: string | null; image: string | null }
  providerAccountId: string
  provider?: () => OAuthConfigBase
}

const REPLAYS: Record<string, Replay> = {
  discord: {
    origins: ["https://discord.com"],
    token: { access_token: "6qrZcUqja7812RVdnEKjpzOL4CvHBFG", token_type: "Bearer", expires_in: 604800, refresh_token: "D43f5y0ahjqew82jZ4NViEr2YafMKhue", scope: "identify email" },
    profile: { id: "80351110224678912", username: "nelly", discriminator: "0", global_name: "Nelly", avatar: "8342729096ea3675442027381ff50dfe", verified: true, email: "nelly@discord.example", flags: 64 },
    idField: "id",
    user: { name: "Nelly", email: "nelly@discord.example", image: "https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png" },
    providerAccountId: "80351110224678912",
  },
  gitlab: {
    origins: ["https://gitlab.com"],
    token: { access_token: "de6780bc506a0446309bd9362820ba8aed28aa506c71eedbe1c5c4f9dd350e54", token_type: "bearer", expires_in: 7200, refresh_token: "8257e65c97202ed1726cf9571600918f3bffb2544b26e00a61df9897668c33a1", created_at: 1607635748 },
    profile: { id: 1, username: "john_smith", name: "John Smith", email: "john@example.com", state: "active", avatar_url: "http://localhost:3000/uploads/user/avatar/1/index.jpg", web_url: "http://localhost:3000/john_smith" },
    idField: "id",
    user: { name: "John Smith", email: "john@example.com", image: "http://localhost:3000/uploads/user/avatar/1/index.jpg" },
    providerAccountId: "1",
  },
  spotify: {
    origins: ["https://accounts.spotify.com", "https://api.spotify.com"],
    token: { access_token: "NgCXRKc...MzYjw", token_type: "Bearer", scope: "user-read-email", expires_in: 3600, refresh_token: "NgAagA...Um_SHo" },
    profile: { id: "wizzler", display_name: "JM Wizzler", email: "email@example.com", country: "SE", product: "premium", images: [{ url: "https://i.scdn.co/image/ab67616d00001e02ff9ca10b55ce82ae553c8228", height: 300, width: 300 }] },
    idField: "id",
    user: { name: "JM Wizzler", email: "email@example.com", image: "https://i.scdn.co/image/ab67616d00001e02ff9ca10b55ce82ae553c8228" },
    providerAccountId: "wizzler",
  },
  reddit: {
    origins: ["https://www.reddit.com", "https://oauth.reddit.com"],
    token: { access_token: "eyJhbGciOiJSUzI1NiIsImtpZCI6IlNIQTI1NjpzS3dsMnlsV0VtMjVmcXhwTU40cWY4MXE2OWFFdWFyMnpLMUdhVGxjdWNZIiwidHlwIjoiSldUIn0", token_type: "bearer", expires_in: 86400, scope: "identity" },
    profile: { id: "1w72", name: "spez", icon_img: "https://styles.redditmedia.com/t5_3k30p/styles/profileIcon_snoo.png?width=256&amp;height=256&amp;s=d6d8d0f4", verified: true, total_karma: 100 },
    idField: "id",
    user: { name: "spez", email: null, image: "https://styles.redditmedia.com/t5_3k30p/styles/profileIcon_snoo.png?width=256&height=256&s=d6d8d0f4" },
    providerAccountId: "1w72",
  },
  dropbox: {
    origins: ["https://www.dropbox.com", "https://api.dropboxapi.com"],
    token: { access_token: "sl.u.AbX9y6Fe3AuH5o66-gmJpR032jwAwQPIVVzWXZNkdzcYT02akC2de219dZi6gxYPVnYPrpvISRSf9lxKWJzYLjtMPH-d9fo", expires_in: 14400, token_type: "bearer", scope: "account_info.read", refresh_token: "nBiM85CZALsAAAAAAAAAAQXHBoNpNutK4ngsXHsqW4iGz9tisb3JyjGqikMJIYbd", account_id: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc", uid: "12345" },
    profile: { account_id: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc", name: { given_name: "Franz", surname: "Ferdinand", familiar_name: "Franz", display_name: "Franz Ferdinand (Personal)", abbreviated_name: "FF" }, email: "franz@dropbox.com", email_verified: true, disabled: false, profile_photo_url: "https://dl-web.dropbox.com/account_photo/get/dbaphid%3AAAHWGmIXV3sUuOmBfTz0wPsiqHUpBWvv3ZA?vers=1556069330102&size=128x128" },
    idField: "account_id",
    userinfoMethod: "POST",
    user: { name: "Franz Ferdinand (Personal)", email: "franz@dropbox.com", image: "https://dl-web.dropbox.com/account_photo/get/dbaphid%3AAAHWGmIXV3sUuOmBfTz0wPsiqHUpBWvv3ZA?vers=1556069330102&size=128x128" },
    providerAccountId: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc",
  },
  bitbucket: {
    origins: ["https://bitbucket.org", "https://api.bitbucket.org"],
    token: { access_token: "Iy3Vyq9tZwTBzE7F1JY_bNLYNk2UkQ", scopes: "account", token_type: "bearer", expires_in: 7200, state: "authorization_code", refresh_token: "Vn8qzpSfd9LPh6vJ4q" },
    profile: { account_id: "557058:c0b72ad0-1cb5-4018-9cdc-0cde8492c443", uuid: "{d301aafa-d676-4ee0-88be-962be7417567}", username: "evzijst", display_name: "Erik van Zijst", nickname: "evzijst", links: { avatar: { href: "https://bitbucket.org/account/evzijst/avatar/" }, html: { href: "https://bitbucket.org/evzijst/" } } },
    idField: "account_id",
    user: { name: "Erik van Zijst", email: null, image: "https://bitbucket.org/account/evzijst/avatar/" },
    providerAccountId: "557058:c0b72ad0-1cb5-4018-9cdc-0cde8492c443",
  },
  atlassian: {
    origins: ["https://auth.atlassian.com", "https://api.atlassian.com"],
    token: { access_token: "eyJraWQiOiJhdXRoLmF0bGFzc2lhbi5jb20", expires_in: 3600, scope: "read:me", token_type: "Bearer" },
    profile: { account_type: "atlassian", account_id: "112233aa-bb11-cc22-33dd-445566abcabc", email: "mia@example.com", email_verified: true, name: "Mia Krystof", picture: "https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/112233aa/1234abcd-9876-54aa-33aa-1234dfsade9487ds", account_status: "active", nickname: "mkrystof", locale: "en-US" },
    idField: "account_id",
    user: { name: "Mia Krystof", email: "mia@example.com", image: "https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/112233aa/1234abcd-9876-54aa-33aa-1234dfsade9487ds" },
    providerAccountId: "112233aa-bb11-cc22-33dd-445566abcabc",
  },
}

interface Fake {
  server: LocalServer
  /** The provider the server plays now. */
  current: string
  /** When set, the profile is sent without its id field. */
  dropId: boolean
  reset(): void
  stop(): Promise<void>
}

async function startFake(): Promise<Fake> {
  const fake = {} as Fake
  const server = await startLocalServer((_req, res, r: Recorded) => {
    const shape = SHAPES[fake.current]!
    const replay = REPLAYS[fake.current]!
    const meant = r.originalUrl?.split("?")[0]
    // The browser at the authorize page (no customFetch header): the user approves.
    if (r.originalUrl === undefined && r.path.endsWith("/authorize")) {
      const back = new URL(r.query.get("redirect_uri")!)
      back.searchParams.set("code", "code-" + fake.current)
      if (r.query.has("state")) back.searchParams.set("state", r.query.get("state")!)
      // Discord's authorization-server metadata advertises RFC 9207: its callback carries iss.
      if (fake.current === "discord") back.searchParams.set("iss", "https://discord.com")
      return sendRedirect(res, r, back.href)
    }
    if (r.method === "POST" && meant === urlOf(replay.provider?.().token ?? shape.token)) return sendJson(res, r, 200, replay.token)
    if (meant === urlOf(replay.provider?.().userinfo ?? shape.userinfo) && r.method === (replay.userinfoMethod ?? "GET")) {
      if (!/^Bearer \S+$/.test(r.headers.authorization ?? "")) return sendJson(res, r, 401, { error: "unauthorized" })
      const profile: Record<string, unknown> = { ...replay.profile }
      if (fake.dropId) delete profile[replay.idField]
      return sendJson(res, r, 200, profile)
    }
  })
  fake.server = server
  fake.current = ""
  fake.dropId = false
  fake.reset = () => {
    server.requests.length = 0
    fake.dropId = false
  }
  fake.stop = server.stop
  return fake
}

let fake: Fake
useFakeProvider(startFake, (f) => void (fake = f))

function providerFor(id: string): { provider: OAuthConfigBase; origins: string[] } {
  const replay = REPLAYS[id]!
  const route = routingFetch(replay.origins, fake.server.url)
  const base = replay.provider?.() ?? SHAPES[id]!.factory()
  const provider = { ...base, clientId: `${id}-client`, clientSecret: `${id}-secret`, [customFetch]: route.fetch } as OAuthConfigBase
  return { provider, origins: replay.origins }
}

async function signIn(config: AuthConfig, id: string, origins: string[]) {
  const started = await startSignIn(config, id)
  expect(started.res.status).toBe(302)
  const authUrl = started.location!
  const back = await visitProvider(localize(authUrl, origins, fake.server.url))
  const res = await callback(config, back, started.jar)
  return { started, authUrl, res }
}

describe("sign-in (OAuth 2, documented answers replayed on 127.0.0.1)", () => {
  it.each(Object.keys(REPLAYS))("%s: the mapped user is in the session", async (id) => {
    fake.current = id
    const replay = REPLAYS[id]!
    const { provider, origins } = providerFor(id)
    const s = setup([provider])
    const { res, authUrl, started } = await signIn(s.config, id, origins)
    expectSignedIn(res, s.log)
    expect(`${authUrl.origin}${authUrl.pathname}`).toBe(urlOf(provider.authorization))
    expect(authUrl.searchParams.get("scope")).toBe(SHAPES[id]!.scope)
    expect(authUrl.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/auth/callback/${id}`)
    const checks = SHAPES[id]!.checks ?? ["pkce"]
    expect(authUrl.searchParams.has("code_challenge")).toBe(checks.includes("pkce"))
    expect(authUrl.searchParams.has("state")).toBe(checks.includes("state"))
    for (const [k, v] of Object.entries(SHAPES[id]!.params ?? {})) expect(authUrl.searchParams.get(k)).toBe(v)
    if (id === "reddit") expect(fake.server.requests.find((r) => r.originalUrl === "https://oauth.reddit.com/api/v1/me")!.headers["user-agent"]).toBe("web:reddit-client:v1 (gatehouse)")
    const call = s.signInCall()
    expect(call.account).toMatchObject({ provider: id, type: "oauth", providerAccountId: replay.providerAccountId, access_token: replay.token.access_token })
    const session = await sessionOf(s.config, started.jar)
    const want = replay.user
    expect(session?.user?.name ?? null).toBe(want.name)
    expect(session?.user?.email ?? null).toBe(want.email)
    expect(session?.user?.image ?? null).toBe(want.image)
  })

  it.each(Object.keys(REPLAYS))("%s: a profile without an id is OAuthProfileParseError, no session", async (id) => {
    fake.current = id
    fake.dropId = true
    const { provider, origins } = providerFor(id)
    const s = setup([provider])
    const { res } = await signIn(s.config, id, origins)
    // As in Auth.js: not a client-safe error, so the error page says Configuration; the log has the real type.
    expectRejected(res, s.log, ERROR_PAGE("Configuration"), "OAuthProfileParseError")
  })

  it("gitlab: a self-managed instance through baseUrl", async () => {
    fake.current = "gitlab"
    REPLAYS.gitlab!.provider = () => GitLab({ baseUrl: "https://gitlab.example.com" })
    try {
      const route = routingFetch(["https://gitlab.example.com"], fake.server.url)
      const p = { ...GitLab({ baseUrl: "https://gitlab.example.com", clientId: "gl", clientSecret: "gls" }), [customFetch]: route.fetch } as OAuthConfigBase
      const s = setup([p])
      const { res, authUrl, started } = await signIn(s.config, "gitlab", ["https://gitlab.example.com"])
      expectSignedIn(res, s.log)
      expect(`${authUrl.origin}${authUrl.pathname}`).toBe("https://gitlab.example.com/oauth/authorize")
      expect(route.calls.map((c) => c.url)).toEqual(["https://gitlab.example.com/oauth/token", "https://gitlab.example.com/api/v4/user"])
      expect((await sessionOf(s.config, started.jar))?.user).toMatchObject({ name: "John Smith" })
    } finally {
      delete REPLAYS.gitlab!.provider
    }
  })
})

// ---------------------------------------------------------------------------------------------
// OIDC providers against the mock OP (issuer override)

describe("sign-in (OIDC, mock OP as the issuer)", () => {
  const ops: Record<string, MockOp> = {}
  const OIDC: Record<string, { auth: "client_secret_basic" | "client_secret_post"; claims: Record<string, unknown>; user: Record<string, unknown> }> = {
    twitch: { auth: "client_secret_post", claims: { preferred_username: "twitchdev", email: "dev@twitch.example", email_verified: true, picture: "https://static-cdn.jtvnw.net/u/twitchdev.png" }, user: { name: "twitchdev", email: "dev@twitch.example", image: "https://static-cdn.jtvnw.net/u/twitchdev.png" } },
    slack: { auth: "client_secret_basic", claims: { name: "Ada Slack", email: "ada@slack.example", email_verified: true, picture: "https://secure.gravatar.com/avatar/ada.jpg", "https://slack.com/team_id": "T0R7GR" }, user: { name: "Ada Slack", email: "ada@slack.example", image: "https://secure.gravatar.com/avatar/ada.jpg" } },
    linkedin: { auth: "client_secret_post", claims: { name: "Lin Ked", given_name: "Lin", family_name: "Ked", email: "lin@linkedin.example", email_verified: true, picture: "https://media.licdn.com/lin.jpg", locale: "en-US" }, user: { name: "Lin Ked", email: "lin@linkedin.example", image: "https://media.licdn.com/lin.jpg" } },
  }
  beforeAll(async () => {
    for (const id of Object.keys(OIDC)) ops[id] = await startMockOp({ clientId: `${id}-client`, tokenEndpointAuthMethod: OIDC[id]!.auth })
  })
  afterAll(async () => {
    await Promise.all(Object.values(ops).map((op) => op.stop()))
  })
  beforeEach(() => {
    for (const op of Object.values(ops)) op.reset()
    clearDiscoveryCache()
  })

  it.each(Object.keys(OIDC))("%s: the ID token's claims mapped into the session, with the provider's client auth and checks", async (id) => {
    const op = ops[id]!
    op.subject = `${id}-user-42`
    op.extraClaims = OIDC[id]!.claims
    const s = setup([SHAPES[id]!.factory({ clientId: op.clientId, clientSecret: op.clientSecret, issuer: op.issuer })])
    const started = await startSignIn(s.config, id)
    const authUrl = started.location!
    const checks = SHAPES[id]!.checks ?? ["pkce"]
    expect(authUrl.searchParams.get("scope")).toBe(SHAPES[id]!.scope)
    expect(authUrl.searchParams.has("code_challenge")).toBe(checks.includes("pkce"))
    expect(authUrl.searchParams.has("state")).toBe(checks.includes("state"))
    expect(authUrl.searchParams.has("nonce")).toBe(checks.includes("nonce"))
    const back = await visitProvider(authUrl)
    const res = await callback(s.config, back, started.jar)
    expectSignedIn(res, s.log)
    expect(op.counts.token).toBe(1)
    expect(s.signInCall().account).toMatchObject({ provider: id, type: "oidc", providerAccountId: `${id}-user-42` })
    expect((await sessionOf(s.config, started.jar))?.user).toMatchObject(OIDC[id]!.user)
  })

  it.each(Object.keys(OIDC))("%s: an ID token without sub is refused before any mapping, no session", async (id) => {
    const op = ops[id]!
    op.idTokenFault = "missing-sub"
    const s = setup([SHAPES[id]!.factory({ clientId: op.clientId, clientSecret: op.clientSecret, issuer: op.issuer })])
    const started = await startSignIn(s.config, id)
    const res = await callback(s.config, await visitProvider(started.location!), started.jar)
    expectRejected(res, s.log, SIGNIN_ERROR("OAuthCallbackError"), "OAuthCallbackError")
  })
})

// ---------------------------------------------------------------------------------------------
// Env

describe("env", () => {
  it.each(IDS)("%s: AUTH_<ID>_ID / _SECRET fill the provider (as a function or an object)", (id) => {
    const ID = id.toUpperCase()
    const env = { [`AUTH_${ID}_ID`]: `${id}-env-id`, [`AUTH_${ID}_SECRET`]: `${id}-env-secret` }
    for (const provider of [SHAPES[id]!.factory, SHAPES[id]!.factory()]) {
      const config = { providers: [provider] } as unknown as AuthConfig
      setEnvDefaults(env, config)
      expect(config.providers[0]).toMatchObject({ id, clientId: `${id}-env-id`, clientSecret: `${id}-env-secret` })
    }
    // Given options win over env.
    const config = { providers: [SHAPES[id]!.factory({ clientId: "given" })] } as unknown as AuthConfig
    setEnvDefaults(env, config)
    expect(config.providers[0]).toMatchObject({ clientSecret: `${id}-env-secret` })
  })
})
