// Shared harness for the provider catalogue tests (test/providers/catalogue/*.test.ts), on top of provider-kit.ts:
// - shape checks: endpoint URL / scope readers, expectOAuthShape (a fixed-endpoint provider against its documented
//   shape), expectIssuerShape (an issuer-based OIDC provider, resolved), the button style (WCAG contrast, a small SVG
//   data: URI logo) and the src/providers/<file>.ts + package.json exports-map entry;
// - the player (usePlayer): one node:http server on 127.0.0.1 that plays whichever OAuth 2 provider a test signs in with
//   (the provider's real hosts routed to it by a customFetch, the browser's visit to its authorize page mapped there
//   too): authorize -> a one-time code bound to the client, the redirect_uri and the PKCE challenge, + state; token with
//   the grant type, code, PKCE verifier and client authentication checked; userinfo replaying the documented body for
//   the access token it issued. A provider's quirks are options of `PlayedProvider` (how the userinfo request presents
//   the token, required headers / query, WeChat's appid+secret and errcode-with-200 dialect, Discord's iss on the
//   callback, the token answer, a public document such as EVE's JWKS at the userinfo URL); `Replay` replays a
//   provider's documented token answer as is;
// - the checks after such a sign-in (expectPlayedSignIn: authorization request, token request, session user, account)
//   and the two cases every OAuth 2 row gets (itSignsInAsDocumented);
// - mock OP / oidc-provider hooks, a full Browser flow against oidc-provider, env helpers.
import { createHash } from "node:crypto"
import { existsSync, readFileSync } from "node:fs"
import type { ServerResponse } from "node:http"
import { afterAll, beforeAll, beforeEach, expect, it, vi } from "vitest"
import { Auth, customFetch } from "../../src/index.js"
import type { AuthConfig } from "../../src/index.js"
import { setEnvDefaults } from "../../src/config/env.js"
import { resolveOAuthProvider } from "../../src/config/oauth.js"
import { clearDiscoveryCache } from "../../src/protocols/oauth2.js"
import type { OAuthConfigBase } from "../../src/providers/types.js"
import type { CookieJar } from "./flow-kit.js"
import { ORIGIN, SECRET } from "./flow-kit.js"
import { Browser } from "./browser.js"
import { startMockOp, type MockOp, type MockOpOptions } from "./mock-op.js"
import { OP_USERS, startOidcProvider, type OidcOp } from "./oidc-op.js"
import {
  APP_PAGE,
  ERROR_PAGE,
  type LocalServer,
  type Recorded,
  type Setup,
  type Started,
  basicCredentials,
  callback,
  expectRejected,
  expectSignedIn,
  localize,
  routingFetch,
  sendJson,
  sendRedirect,
  sessionOf,
  setup,
  startLocalServer,
  startSignIn,
  useFakeProvider,
  visitProvider,
  type LogSpy,
} from "./provider-kit.js"

export type Factory = (options?: Record<string, unknown>) => OAuthConfigBase
export interface MappedUser {
  name: string | null
  email: string | null
  image: string | null
}

const ROOT = new URL("../../", import.meta.url)

// ---------------------------------------------------------------------------------------------
// Shape

/** WCAG 2 contrast ratio of two #rgb / #rrggbb colours. */
export function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const h = hex.replace("#", "")
    const full = h.length === 3 ? [...h].map((c) => c + c).join("") : h
    const [r, g, bl] = [0, 2, 4]
      .map((i) => parseInt(full.slice(i, i + 2), 16) / 255)
      .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!
  }
  const [x, y] = [luminance(a), luminance(b)]
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05)
}

/** The URL of an endpoint option (a string or `{ url }`), as given. */
export function endpointUrl(endpoint: unknown): string | undefined {
  if (typeof endpoint === "string") return endpoint
  const url = (endpoint as { url?: unknown } | undefined)?.url
  return url === undefined ? undefined : String(url)
}

/** The same without its query. */
export const endpointBase = (endpoint: unknown): string | undefined => endpointUrl(endpoint)?.split("?")[0]

/** A resolved URL's origin and path (no query), or undefined. */
export const originAndPath = (u: URL | undefined): string | undefined => (u ? `${u.origin}${u.pathname}` : undefined)

/** The authorization option's params (`{}` for a string URL or none). */
export function paramsOf(endpoint: unknown): Record<string, unknown> {
  return (
    (typeof endpoint === "object"
      ? (endpoint as { params?: Record<string, unknown> } | undefined)?.params
      : undefined) ?? {}
  )
}

/** The scope an authorization option asks for: its params' scope, or a string URL's ?scope=. */
export function scopeOf(endpoint: unknown): string | undefined {
  if (typeof endpoint === "string") return new URL(endpoint).searchParams.get("scope") ?? undefined
  return paramsOf(endpoint).scope as string | undefined
}

/**
 * The button style: bg/text as documented with a contrast of at least 4.5:1, the logo a small SVG data: URI
 * (`data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'...`, closed, under 600 characters, under 700 decoded).
 */
export function expectStyle(p: OAuthConfigBase, bg: string, text: string): void {
  expect(p.style).toMatchObject({ bg, text })
  expect(contrast(bg, text), "button text contrast").toBeGreaterThanOrEqual(4.5)
  const logo = p.style!.logo!
  expect(logo).toMatch(/^data:image\/svg\+xml,%3Csvg xmlns='http:\/\/www\.w3\.org\/2000\/svg'/)
  expect(decodeURIComponent(logo)).toContain("</svg>")
  expect(logo.length, "a small logo").toBeLessThan(600)
  expect(decodeURIComponent(logo).length, "a small logo").toBeLessThan(700)
}

/** The documented shape of an OAuth 2 (or fixed-endpoint) provider; undefined endpoints / issuer: none set. */
export interface OAuthShape {
  id: string
  /** Checked when given. */
  name?: string
  /** Default "oauth". */
  type?: "oauth" | "oidc"
  /** undefined: Gatehouse's default (pkce), as Auth.js's. */
  checks?: string[]
  issuer?: string
  authorization?: string
  scope?: string
  /** Further authorization params. */
  params?: Record<string, string>
  token?: string
  userinfo?: string
  /** The client authentication: a token_endpoint_auth_method, or "query" (WeChat: appid + secret in a GET's query, no method set). */
  auth?: string
  bg: string
  text: string
}

/**
 * A provider config against its documented shape: id (name), type, checks, issuer, endpoints (the authorization URL
 * without its query; token and userinfo as given, or without their query when `urls` is "base"), scope and params,
 * client auth, style and a profile mapping.
 */
export function expectOAuthShape(p: OAuthConfigBase, want: OAuthShape, urls: "exact" | "base" = "exact"): void {
  expect(p).toMatchObject({ id: want.id, type: want.type ?? "oauth", ...(want.name ? { name: want.name } : {}) })
  expect(p.checks).toEqual(want.checks)
  expect(p.issuer).toBe(want.issuer)
  expect(endpointBase(p.authorization)).toBe(want.authorization)
  const url = urls === "exact" ? endpointUrl : endpointBase
  expect(url(p.token)).toBe(want.token)
  expect(url(p.userinfo)).toBe(want.userinfo)
  expect(scopeOf(p.authorization)).toBe(want.scope)
  expect(paramsOf(p.authorization)).toMatchObject(want.params ?? {})
  expect(p.client?.token_endpoint_auth_method).toBe(want.auth === "query" ? undefined : want.auth)
  expectStyle(p, want.bg, want.text)
  expect(typeof p.profile).toBe("function")
}

/** A row of an issuer-based (discovery) OIDC batch table. */
export interface IssuerRow {
  id: string
  name: string
  factory: Factory
  checks: string[]
  scope: string
  bg: string
  text: string
  /** ID token claims the provider documents, and the user the default mapping makes of them. */
  claims: Record<string, unknown>
  user: MappedUser
}

/**
 * An issuer-based OIDC provider made with clientId "cid" (and `given`): id, name, type and checks, and once resolved
 * the issuer, the client id, the scope (and `params`) and the checks; its style. Returns the config and the resolved one.
 */
export function expectIssuerShape(
  row: IssuerRow,
  issuer: string,
  given: Record<string, unknown>,
  params: Record<string, string> = {},
) {
  const p = row.factory({ clientId: "cid", clientSecret: "csecret", ...given })
  expect(p).toMatchObject({ id: row.id, name: row.name, type: "oidc", checks: row.checks })
  const r = resolveOAuthProvider(p, undefined)
  expect(r.issuer).toBe(issuer)
  expect(r.clientId).toBe("cid")
  expect(r.authorization.params).toMatchObject({ scope: row.scope, ...params })
  expect([...r.checks].sort()).toEqual([...row.checks].sort())
  expectStyle(p, row.bg, row.text)
  return { p, r }
}

/** No fixed endpoint: all of them come from <issuer>/.well-known/openid-configuration. */
export function expectDiscoveryOnly(r: ReturnType<typeof resolveOAuthProvider>): void {
  expect([r.authorization.url, r.token.url, r.userinfo.url]).toEqual([undefined, undefined, undefined])
}

const manifest = JSON.parse(readFileSync(new URL("package.json", ROOT), "utf8")) as { exports: Record<string, unknown> }

/** src/providers/<file>.ts exists and package.json exports ./providers/<file> from dist. */
export function expectExported(file: string): void {
  expect(existsSync(new URL(`src/providers/${file}.ts`, ROOT)), `src/providers/${file}.ts`).toBe(true)
  expect(manifest.exports[`./providers/${file}`]).toEqual({
    types: `./dist/providers/${file}.d.ts`,
    import: `./dist/providers/${file}.js`,
  })
}

// ---------------------------------------------------------------------------------------------
// Env

/** AUTH_<ID> (dashes become underscores). */
export const envKey = (id: string): string => `AUTH_${id.toUpperCase().replace(/-/g, "_")}`

/** AUTH_<ID>_ID / _SECRET (values `<id>-env-id` / `<id>-env-secret`), and _ISSUER when `issuer` is given. */
export function clientEnv(id: string, issuer?: string): Record<string, string> {
  const key = envKey(id)
  return {
    [`${key}_ID`]: `${id}-env-id`,
    [`${key}_SECRET`]: `${id}-env-secret`,
    ...(issuer ? { [`${key}_ISSUER`]: issuer } : {}),
  }
}

/** The provider (a factory or a config object) after setEnvDefaults(env). */
export function afterEnvDefaults(env: Record<string, string>, provider: Factory | OAuthConfigBase): OAuthConfigBase {
  const config = { providers: [provider] } as unknown as AuthConfig
  setEnvDefaults(env, config)
  return config.providers[0] as OAuthConfigBase
}

/** clientId, clientSecret and issuer of resolveOAuthProvider(factory()) with `env` in process.env (unstubbed after). */
export function resolvedFromProcessEnv(
  env: Record<string, string>,
  factory: Factory,
): { clientId: unknown; clientSecret: unknown; issuer: unknown } {
  try {
    for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v)
    const r = resolveOAuthProvider(factory(), undefined)
    return { clientId: r.clientId, clientSecret: r.clientSecret, issuer: r.issuer }
  } finally {
    vi.unstubAllEnvs()
  }
}

/** setEnvDefaults(clientEnv(id, issuer)) fills the provider (a factory or a config object) with the env client; returns it. */
export function expectEnvFills(id: string, provider: Factory | OAuthConfigBase, issuer?: string): OAuthConfigBase {
  const p = afterEnvDefaults(clientEnv(id, issuer), provider)
  expect(p).toMatchObject({ id, clientId: `${id}-env-id`, clientSecret: `${id}-env-secret` })
  return p
}

/**
 * An issuer-based provider's env: setEnvDefaults (on the function form) fills the client and the issuer the resolve
 * path uses, and the resolve path reads the client from process.env, and the issuer too unless `processIssuer` is false
 * (a fixed issuer wins over AUTH_<ID>_ISSUER there). Returns the provider after setEnvDefaults.
 */
export function expectEnvIssuer(id: string, factory: Factory, issuer: string, processIssuer = true): OAuthConfigBase {
  const p = expectEnvFills(id, factory, issuer)
  expect(resolveOAuthProvider(p, undefined).issuer).toBe(issuer)
  expectResolvedFromEnv(id, factory, processIssuer ? issuer : undefined)
  return p
}

/** The resolve path reads clientEnv(id, issuer) from process.env: the env client (and issuer, when given). */
export function expectResolvedFromEnv(id: string, factory: Factory, issuer?: string): void {
  const r = resolvedFromProcessEnv(clientEnv(id, issuer), factory)
  expect(r).toMatchObject({ clientId: `${id}-env-id`, clientSecret: `${id}-env-secret`, ...(issuer ? { issuer } : {}) })
}

// ---------------------------------------------------------------------------------------------
// The player: one local server playing whichever OAuth 2 provider is in play

/** How the userinfo request presents the access token. */
export type TokenPresentation =
  /** `Authorization: <scheme> <token>` (Bearer by default; Mailchimp's OAuth). */
  | { scheme: string }
  /** A query parameter (Foursquare's oauth_token, WeChat's access_token). */
  | { query: string }
  /** The last path segment (HubSpot's /oauth/v1/access-tokens/<token>). */
  | "path"

/** The provider a player plays: its real endpoint URLs and its quirks. */
export interface PlayedProvider {
  id: string
  authorization: string
  token: string
  userinfo: string
  /** "prefix": any URL that starts with the userinfo URL's path (a token, id or extra query added); default exact. */
  userinfoMatch?: "exact" | "prefix"
  userinfoMethod?: "GET" | "POST"
  /** Default `{ scheme: "Bearer" }`. */
  presents?: TokenPresentation
  /** Headers the userinfo request must carry (names lower case). */
  userinfoHeaders?: Record<string, string>
  /** Query parameters the userinfo request must carry. */
  userinfoQuery?: Record<string, string>
  /** WeChat: client credentials as appid / secret, and errors as `{ errcode, errmsg }` with HTTP 200. */
  dialect?: "oauth" | "wechat"
  /** Extra parameters on the redirect back (Discord's RFC 9207 iss). */
  callbackParams?: Record<string, string>
  /** A public document served at the userinfo URL without any token (EVE's JWKS). */
  publicUserinfo?: unknown
  /** The token endpoint's answer for the access token (default: Bearer, 3600 s, a refresh token). */
  tokenAnswer?: (accessToken: string) => Record<string, unknown>
}

/** A row of an OAuth 2 batch table: what the player plays, the documented shape, and the replayed profile. */
export interface OAuthRow extends PlayedProvider {
  factory: Factory
  /** undefined: Gatehouse's default (pkce), as Auth.js's. */
  checks?: string[]
  scope?: string
  auth?: "client_secret_post" | "query"
  bg: string
  text: string
  /** The documented userinfo body, the user it maps to, and the same body without the id. */
  profile: Record<string, unknown>
  user: MappedUser
  withoutId: Record<string, unknown>
}

export interface Play {
  provider: PlayedProvider
  clientId: string
  clientSecret: string
  /** The userinfo body served. */
  profile: unknown
  accessToken: string
  /** The token endpoint's answer. */
  tokenAnswer: Record<string, unknown>
  codes: Map<string, { redirectUri: string; challenge: string | null }>
  tokenRequests: Recorded[]
  userinfoRequests: Recorded[]
}

export interface PlayOptions {
  /** The userinfo body to serve. */
  profile: unknown
  /** Options given to the factory besides clientId, clientSecret and the routing customFetch. */
  given?: Record<string, unknown>
  clientId?: string
  clientSecret?: string
  accessToken?: string
  /** The token endpoint's answer for the access token (default: the provider's, else Bearer, 3600 s, a refresh token). */
  tokenAnswer?: (accessToken: string) => Record<string, unknown>
}

export interface PlayedSignIn {
  s: Setup
  started: Started
  /** The authorization URL Gatehouse sent the browser to (the real host). */
  authUrl: URL
  res: Response
  pl: Play
  /** The routing customFetch's calls. */
  route: ReturnType<typeof routingFetch>
}

export interface Player {
  readonly server: LocalServer
  /** The play in progress (undefined between tests). */
  readonly play: Play | undefined
  /** The whole sign-in through Auth() with `factory` configured for the player; the authorization URL is checked. */
  signIn(provider: PlayedProvider, factory: Factory, options: PlayOptions): Promise<PlayedSignIn>
}

const S256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url")
const defaultTokenAnswer = (id: string) => (accessToken: string) => ({
  access_token: accessToken,
  token_type: "Bearer",
  expires_in: 3600,
  refresh_token: `rt-${id}`,
})

function presented(r: Recorded, how: TokenPresentation): string | undefined {
  const url = new URL(r.originalUrl!)
  if (how === "path") return url.pathname.split("/").pop()
  if ("query" in how) return url.searchParams.get(how.query) ?? undefined
  const prefix = `${how.scheme} `
  const header = r.headers.authorization ?? ""
  return header.startsWith(prefix) ? header.slice(prefix.length) : undefined
}

function handle(pl: Play, r: Recorded, res: ServerResponse): void {
  const p = pl.provider
  const wechat = p.dialect === "wechat"
  // The browser at the authorize page (no customFetch header): the user approves.
  if (r.method === "GET" && r.originalUrl === undefined && r.path === new URL(p.authorization).pathname) {
    const redirectUri = r.query.get("redirect_uri")
    if (r.query.get("client_id") !== pl.clientId || redirectUri !== `${ORIGIN}/auth/callback/${p.id}`)
      return sendJson(res, r, 400, { error: "redirect_uri_mismatch" })
    const code = `code-${Math.random().toString(36).slice(2)}`
    pl.codes.set(code, { redirectUri, challenge: r.query.get("code_challenge") })
    const back = new URL(redirectUri)
    back.searchParams.set("code", code)
    if (r.query.has("state")) back.searchParams.set("state", r.query.get("state")!)
    for (const [k, v] of Object.entries(p.callbackParams ?? {})) back.searchParams.set(k, v)
    return sendRedirect(res, r, back.href)
  }
  // WeChat's token request is a GET with everything in the query (its documented form); the others POST a form.
  const tokenCall = wechat
    ? r.method === "GET" && r.originalUrl?.split("?")[0] === p.token
    : r.method === "POST" && r.originalUrl === p.token
  if (tokenCall) {
    pl.tokenRequests.push(r)
    const body = wechat ? new URL(r.originalUrl!).searchParams : new URLSearchParams(r.body)
    const fail = (status: number, error: string, errcode: number) =>
      sendJson(res, r, wechat ? 200 : status, wechat ? { errcode, errmsg: error } : { error })
    const [id, secret] = wechat
      ? [body.get("appid"), body.get("secret")]
      : (basicCredentials(r.headers.authorization) ?? [body.get("client_id"), body.get("client_secret")])
    if (id !== pl.clientId || secret !== pl.clientSecret)
      return fail(401, wechat ? "invalid appsecret" : "invalid_client", 40125)
    const grant = pl.codes.get(body.get("code") ?? "")
    if (body.get("grant_type") !== "authorization_code") return fail(400, "unsupported_grant_type", 40029)
    // WeChat's token request carries no redirect_uri.
    if (!grant || (!wechat && grant.redirectUri !== body.get("redirect_uri")))
      return fail(400, wechat ? "invalid code" : "invalid_grant", 40029)
    // PKCE (RFC 7636): the verifier must match the challenge the authorization request carried.
    if (grant.challenge !== null && S256(body.get("code_verifier") ?? "") !== grant.challenge)
      return fail(400, "invalid_grant", 40029)
    pl.codes.delete(body.get("code")!)
    return sendJson(res, r, 200, pl.tokenAnswer)
  }
  const meant =
    p.userinfoMatch === "prefix" ? r.originalUrl?.startsWith(p.userinfo.split("?")[0]!) : r.originalUrl === p.userinfo
  if (meant && r.method === (p.userinfoMethod ?? "GET")) {
    pl.userinfoRequests.push(r)
    if (p.publicUserinfo !== undefined) return sendJson(res, r, 200, p.publicUserinfo)
    const fail = (error: string) =>
      sendJson(res, r, wechat ? 200 : 401, wechat ? { errcode: 40003, errmsg: error } : { error })
    if (presented(r, p.presents ?? { scheme: "Bearer" }) !== pl.accessToken) return fail("invalid_token")
    const query = new URL(r.originalUrl!).searchParams
    for (const [k, v] of Object.entries(p.userinfoQuery ?? {})) if (query.get(k) !== v) return fail(`invalid ${k}`)
    for (const [h, v] of Object.entries(p.userinfoHeaders ?? {})) if (r.headers[h] !== v) return fail(`missing ${h}`)
    return sendJson(res, r, 200, pl.profile)
  }
  sendJson(res, r, 404, { error: "not_found", url: r.originalUrl })
}

/** The real origins a provider's endpoints live on. */
export const originsOf = (p: PlayedProvider): string[] => [
  ...new Set([p.authorization, p.token, p.userinfo].map((u) => new URL(u).origin)),
]

/**
 * A player for this file: started behind the fetch guard before the file (useFakeProvider: no request may leave
 * 127.0.0.1), its play dropped before each test.
 */
export function usePlayer(): Player {
  let server: LocalServer | undefined
  let play: Play | undefined
  const start = async () => {
    const s = await startLocalServer((_req, res, r) =>
      play ? handle(play, r, res) : sendJson(res, r, 500, { error: "no provider in play" }),
    )
    return { ...s, reset: () => void (play = undefined) }
  }
  useFakeProvider(start, (s) => void (server = s))
  return {
    get server() {
      return server!
    },
    get play() {
      return play
    },
    async signIn(provider, factory, options) {
      const clientId = options.clientId ?? `${provider.id}-client`
      const accessToken = options.accessToken ?? `at-${provider.id}-${Math.random().toString(36).slice(2)}`
      const pl: Play = {
        provider,
        clientId,
        clientSecret: options.clientSecret ?? `${provider.id}-secret`,
        profile: options.profile,
        accessToken,
        tokenAnswer: (options.tokenAnswer ?? provider.tokenAnswer ?? defaultTokenAnswer(provider.id))(accessToken),
        codes: new Map(),
        tokenRequests: [],
        userinfoRequests: [],
      }
      play = pl
      const origins = originsOf(provider)
      const route = routingFetch(origins, server!.url)
      const s = setup([
        factory({ ...options.given, clientId, clientSecret: pl.clientSecret, [customFetch]: route.fetch }),
      ])
      const started = await startSignIn(s.config, provider.id)
      expect(started.res.status, "sign-in redirects to the provider").toBe(302)
      const authUrl = started.location!
      expect(`${authUrl.origin}${authUrl.pathname}`).toBe(provider.authorization.split("?")[0])
      const back = await visitProvider(localize(authUrl, origins, server!.url))
      const res = await callback(s.config, back, started.jar)
      return { s, started, authUrl, res, pl, route }
    },
  }
}

/** A provider's documented token answer and profile, replayed as they are by the player. */
export interface Replay {
  /** The documented token answer, served as is (its access_token is the one the player accepts). */
  token: Record<string, unknown>
  profile: Record<string, unknown>
  /** The profile field carrying the id (dropped for the OAuthProfileParseError case). */
  idField: string
  user: MappedUser
  providerAccountId: string
  /** What the player also checks or does for this provider. */
  quirks?: Omit<PlayedProvider, "id" | "authorization" | "token" | "userinfo" | "tokenAnswer">
  /** The answer's envelope (Nextcloud's OCS). */
  wrap?: (profile: Record<string, unknown>) => unknown
}

/** A played sign-in replaying `replay` (with `profile`, by default the documented one) for the provider `shape` documents. */
export function signInReplayed(
  player: Player,
  id: string,
  shape: {
    factory: Factory
    given?: Record<string, unknown>
    authorization?: string
    token?: string
    userinfo?: string
  },
  replay: Replay,
  profile: Record<string, unknown> = replay.profile,
): Promise<PlayedSignIn> {
  const played: PlayedProvider = {
    id,
    authorization: shape.authorization!,
    token: shape.token!,
    userinfo: shape.userinfo!,
    ...replay.quirks,
    tokenAnswer: () => replay.token,
  }
  return player.signIn(played, shape.factory, {
    profile: replay.wrap ? replay.wrap(profile) : profile,
    given: shape.given,
    accessToken: String(replay.token.access_token),
  })
}

/**
 * The two sign-in cases of an OAuth 2 batch table: the documented answers sign the user in as documented
 * (expectPlayedSignIn), and a profile without its id is OAuthProfileParseError.
 */
export function itSignsInAsDocumented<R extends OAuthRow>(
  rows: R[],
  signIn: (row: R, profile: Record<string, unknown>) => Promise<PlayedSignIn>,
): void {
  it.each(rows)("$id: the documented responses map to the session user", async (row) => {
    await expectPlayedSignIn(await signIn(row, row.profile), row)
  })
  it.each(rows)("$id: a profile without an id is OAuthProfileParseError", async (row) => {
    const { s, res } = await signIn(row, row.withoutId)
    expectProfileParseError(res, s.log)
  })
}

// ---------------------------------------------------------------------------------------------
// Checks after a sign-in

export interface AuthorizeWant {
  id: string
  /** undefined: not checked (the core's default). */
  scope?: string
  /** undefined: the core default ["pkce"]. */
  checks?: string[]
  /** Further parameters the authorization request must carry. */
  params?: Record<string, string>
}

/** The authorization request: redirect_uri, scope, one parameter per check (PKCE with S256) and the extra params. */
export function expectAuthorizeRequest(url: URL, want: AuthorizeWant): void {
  const q = url.searchParams
  const checks = want.checks ?? ["pkce"]
  expect(q.get("redirect_uri")).toBe(`${ORIGIN}/auth/callback/${want.id}`)
  if (want.scope !== undefined) expect(q.get("scope") ?? "").toBe(want.scope)
  expect(q.get("code_challenge_method")).toBe(checks.includes("pkce") ? "S256" : null)
  expect(q.has("code_challenge")).toBe(checks.includes("pkce"))
  expect(q.has("state")).toBe(checks.includes("state"))
  expect(q.has("nonce")).toBe(checks.includes("nonce"))
  for (const [k, v] of Object.entries(want.params ?? {})) expect(q.get(k), k).toBe(v)
}

/**
 * The one token request of a played sign-in: the code_verifier when PKCE is on, the client credentials in the body
 * (client_secret_post, no Authorization header) or in `Authorization: Basic` (the default).
 */
export function expectTokenRequest(pl: Play, want: { checks?: string[]; auth?: string }): void {
  expect(pl.tokenRequests).toHaveLength(1)
  const t = pl.tokenRequests[0]!
  if (want.auth === "query") {
    // WeChat: GET with appid, secret, code and grant_type in the query; no body, no Authorization header.
    const q = new URL(t.originalUrl!).searchParams
    expect([t.method, t.body, t.headers.authorization]).toEqual(["GET", "", undefined])
    expect([q.get("appid"), q.get("secret"), q.get("grant_type")]).toEqual([
      pl.clientId,
      pl.clientSecret,
      "authorization_code",
    ])
    expect(q.get("code")).toMatch(/^code-/)
    return
  }
  const body = new URLSearchParams(t.body)
  expect(body.has("code_verifier")).toBe((want.checks ?? ["pkce"]).includes("pkce"))
  if (want.auth === "client_secret_post") {
    expect([body.get("client_id"), body.get("client_secret"), t.headers.authorization]).toEqual([
      pl.clientId,
      pl.clientSecret,
      undefined,
    ])
  } else {
    expect(basicCredentials(t.headers.authorization)).toEqual([pl.clientId, pl.clientSecret])
    expect(body.has("client_secret")).toBe(false)
  }
}

/**
 * A played sign-in that succeeded as documented: signed in, the session's user, the authorization request, the token
 * request (PKCE, client authentication), one userinfo request, and the account (the player's access token, the
 * providerAccountId when given, else a non-empty one).
 */
export async function expectPlayedSignIn(
  r: PlayedSignIn,
  want: AuthorizeWant & { auth?: string; user: MappedUser; providerAccountId?: string },
): Promise<void> {
  expectSignedIn(r.res, r.s.log)
  await expectSessionUser(r.s.config, r.started.jar, want.user)
  expectAuthorizeRequest(r.authUrl, want)
  expectTokenRequest(r.pl, want)
  expect(r.pl.userinfoRequests).toHaveLength(1)
  const account = r.s.signInCall().account!
  expect(account).toMatchObject({ provider: want.id, type: "oauth", access_token: r.pl.accessToken })
  if (want.providerAccountId !== undefined) expect(account.providerAccountId).toBe(want.providerAccountId)
  else expect(account.providerAccountId).toMatch(/^\S+$/)
}

/** The session's user equals `want` (the e-mail lower-cased, as Gatehouse stores it; a null field is left out, as in Auth.js). */
export async function expectSessionUser(config: AuthConfig, jar: CookieJar, want: MappedUser): Promise<void> {
  const user = (await sessionOf(config, jar))?.user
  expect(user).toEqual(withoutNulls({ ...want, email: want.email?.toLowerCase() ?? null }))
}

/** A mapped user as the session carries it: the fields the provider gave no value for (null) are left out. */
export function withoutNulls(user: MappedUser): Partial<MappedUser> {
  return Object.fromEntries(Object.entries(user).filter(([, value]) => value !== null))
}

/** The session's user, absent fields read as null, equals `want` exactly (no other field). */
export async function expectSessionUserLoose(config: AuthConfig, jar: CookieJar, want: MappedUser): Promise<void> {
  const user = (await sessionOf(config, jar))?.user
  expect({ name: null, email: null, image: null, ...user }).toEqual(want)
}

/** A refused callback: 302 to `location`, no session cookie (none set, no token in Set-Cookie), `type` logged once. */
export function expectNoSession(res: Response, log: LogSpy, location: string, type: string): void {
  expectRejected(res, log, location, type)
  expect(res.headers.get("set-cookie") ?? "").not.toContain("authjs.session-token=ey")
}

/** A profile without an id: OAuthProfileParseError, not client-safe (as in Auth.js) so the error page says Configuration. */
export function expectProfileParseError(res: Response, log: LogSpy): void {
  expectNoSession(res, log, ERROR_PAGE("Configuration"), "OAuthProfileParseError")
}

/**
 * Makes an OIDC provider take its profile from an app userinfo hook that drops `sub` (`idToken: false`), so the
 * default mapping has no id.
 */
export function withoutSub(p: OAuthConfigBase, claims: Record<string, unknown>): OAuthConfigBase {
  p.options!.idToken = false
  p.options!.userinfo = { request: () => ({ ...claims, sub: undefined }) }
  return p
}

/** `body` without `field` (a profile without its id). */
export function omit(body: Record<string, unknown>, field: string): Record<string, unknown> {
  const { [field]: _dropped, ...rest } = body
  return rest
}

// ---------------------------------------------------------------------------------------------
// OPs

/** A mock OP for the enclosing describe: started before, stopped after, reset (and discovery forgotten) before each test. */
export function useMockOp(options: MockOpOptions, started: (op: MockOp) => void): void {
  let op: MockOp | undefined
  beforeAll(async () => {
    op = await startMockOp(options)
    started(op)
  })
  afterAll(async () => op?.stop())
  beforeEach(() => {
    op?.reset()
    clearDiscoveryCache()
  })
}

/** oidc-provider for the enclosing describe, registering the callbacks of `providerIds`; discovery forgotten before each test. */
export function useRealOp(providerIds: string[], started: (op: OidcOp) => void): void {
  let op: OidcOp | undefined
  beforeAll(async () => {
    op = await startOidcProvider({ providerIds })
    started(op)
  })
  afterAll(async () => op?.stop())
  beforeEach(() => clearDiscoveryCache())
}

export interface RealOpFlow {
  /** Errors Gatehouse logged. */
  errors: Error[]
  /** Where the browser ended. */
  url: string
  /** The session's user (undefined: no session). */
  user: Record<string, unknown> | undefined
  /** The accounts of the jwt callback's sign-in calls. */
  accounts: Record<string, unknown>[]
  /** The last authorization request the OP received. */
  authorization: URLSearchParams
}

/**
 * The whole flow in a Browser: csrf, POST /signin/<id>, login + consent at oidc-provider as its first user (Olivia),
 * back to the callback; the provider configured with only issuer, clientId and clientSecret.
 */
export async function signInAtRealOp(realOp: OidcOp, factory: Factory, id: string): Promise<RealOpFlow> {
  const olivia = OP_USERS[0]!
  const client = realOp.clients.basic
  const errors: Error[] = []
  const accounts: Record<string, unknown>[] = []
  const config = {
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    providers: [factory({ issuer: realOp.issuer, clientId: client.client_id, clientSecret: client.client_secret })],
    logger: { error: (e: Error) => errors.push(e), warn: () => {}, debug: () => {} },
    callbacks: {
      jwt: ({ token, account }: { token: Record<string, unknown>; account?: Record<string, unknown> | null }) => (
        account && accounts.push(account), token
      ),
    },
  } as unknown as AuthConfig
  const browser = new Browser({
    apps: {
      [ORIGIN]: (req) => (new URL(req.url).pathname.startsWith("/auth") ? Auth(req, config) : new Response("app page")),
    },
    user: { login: olivia.email, password: olivia.password },
  })
  const csrf = ((await (await browser.request(`${ORIGIN}/auth/csrf`)).json()) as { csrfToken: string }).csrfToken
  const result = await browser.follow(
    new Request(`${ORIGIN}/auth/signin/${id}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken: csrf, callbackUrl: APP_PAGE }).toString(),
    }),
  )
  const session = (await (await browser.request(`${ORIGIN}/auth/session`)).json()) as {
    user?: Record<string, unknown>
  } | null
  return {
    errors,
    url: result.url,
    user: session?.user,
    accounts,
    authorization: realOp.authorizationRequests().at(-1)!,
  }
}

/** Back at the app page with nothing logged. */
export function expectBackAtApp(flow: RealOpFlow): void {
  expect(flow.errors, flow.errors.map((e) => e.message).join("\n")).toEqual([])
  expect(flow.url).toBe(APP_PAGE)
}
