// The built-in TikTok provider end to end through Auth(), against a local TikTok (www.tiktok.com and
// open.tiktokapis.com on one 127.0.0.1 server) that behaves as Login Kit v2 does:
// - the authorize page identifies the app by `client_key` (not client_id);
// - POST /v2/oauth/token/ only takes application/x-www-form-urlencoded with client_key + client_secret in the body,
//   and answers errors with HTTP 200 `{ error, error_description, log_id }`;
// - GET /v2/user/info/?fields=... answers `{ data: { user }, error: { code: "ok", message, log_id } }`, and
//   failures as `{ data: {}, error: { code, message, log_id } }` (401, or 200 with a code other than "ok").
// Mapping checked: id = open_id, name = display_name, image = avatar_url, email = email ?? username ?? null.
// Env fallback: TikTok({}) and TikTok uncalled with AUTH_TIKTOK_ID / AUTH_TIKTOK_SECRET send the real client key.
import { createHash, randomBytes } from "node:crypto"
import { afterEach, describe, expect, it, vi } from "vitest"
import { customFetch } from "../../src/index.js"
import type { AuthConfig } from "../../src/index.js"
import TikTok, { type TikTokOptions, type TikTokProfile, type TikTokUser } from "../../src/providers/tiktok.js"
import { ORIGIN } from "../support/flow-kit.js"
import {
  ERROR_PAGE,
  SIGNIN_ERROR,
  type LocalServer,
  callback,
  freshValue,
  expectRejected,
  expectSignedIn,
  localize,
  logged,
  routingFetch,
  sendJson,
  sendRedirect,
  sessionOf,
  setup,
  signInThrough,
  startLocalServer,
  startSignIn,
  useFakeProvider,
  visitProvider,
} from "../support/provider-kit.js"

const CALLBACK = `${ORIGIN}/auth/callback/tiktok`
const TIKTOK_ORIGINS = ["https://www.tiktok.com", "https://open.tiktokapis.com"] as const
const AUTHORIZE = "/v2/auth/authorize"
const TOKEN = "/v2/oauth/token/"
const USER_INFO = "/v2/user/info/"

interface FakeTikTok extends LocalServer {
  clientKey: string
  clientSecret: string
  user: TikTokUser
  decision: "approve" | "deny"
  /** The token endpoint answers this TikTok error (HTTP 200) instead of tokens. */
  tokenError: { error: string; error_description: string } | undefined
  /** The user-info endpoint answers this status and error object instead of the user. */
  userInfoError: { status: number; code: string; message: string } | undefined
  /** log_id of every answer, in order. */
  logIds: string[]
  issued: string[]
  reset(): void
}

const CREATOR: TikTokUser = {
  open_id: "-000OXXGqPz0hiK5DmDxTQtlDbCXNiDJOcST",
  union_id: "c9c60f44-a68e-4f5d-84dd-ce22faeb0ba1",
  avatar_url: "https://p16-sign.tiktokcdn-us.com/tos-useast5-avt-0068-tx/creator~c5_168x168.jpeg",
  avatar_large_url: "https://p16-sign.tiktokcdn-us.com/tos-useast5-avt-0068-tx/creator~c5_1080x1080.jpeg",
  display_name: "Clip Creator",
  username: "clip.creator",
  is_verified: true,
  follower_count: 1200,
}

async function startFakeTikTok(): Promise<FakeTikTok> {
  const codes = new Map<string, { redirectUri: string; challenge?: string }>()
  const tokens = new Set<string>()
  const tt = {} as FakeTikTok
  const fresh = (prefix: string) => freshValue(tt.issued, prefix)
  const logId = () => {
    const id = `2024${randomBytes(13).toString("hex").toUpperCase()}`
    tt.logIds.push(id)
    return id
  }
  const server = await startLocalServer(async (req, res, r) => {
    if (r.path === AUTHORIZE && r.method === "GET") {
      const q = r.query
      const redirectUri = q.get("redirect_uri") ?? ""
      // TikTok reads client_key; a missing or wrong one is its "client_key" error page.
      if (q.get("client_key") !== tt.clientKey || redirectUri !== CALLBACK)
        return sendJson(res, r, 400, { error: "invalid_client_key" })
      const back = new URL(redirectUri)
      if (tt.decision === "deny") {
        back.searchParams.set("error", "access_denied")
        back.searchParams.set("error_description", "The user denied the authorization")
      } else {
        const code = fresh("code-")
        codes.set(code, { redirectUri, ...(q.get("code_challenge") ? { challenge: q.get("code_challenge")! } : {}) })
        back.searchParams.set("code", code)
        back.searchParams.set("scopes", q.get("scope") ?? "")
      }
      if (q.has("state")) back.searchParams.set("state", q.get("state")!)
      return sendRedirect(res, r, back.href)
    }
    if (r.path === TOKEN && r.method === "POST") {
      if (!(req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded")) {
        return sendJson(res, r, 200, {
          error: "invalid_request",
          error_description: "Content-Type must be application/x-www-form-urlencoded",
          log_id: logId(),
        })
      }
      const body = new URLSearchParams(r.body)
      if (tt.tokenError) return sendJson(res, r, 200, { ...tt.tokenError, log_id: logId() })
      if (body.get("client_key") !== tt.clientKey || body.get("client_secret") !== tt.clientSecret) {
        return sendJson(res, r, 200, {
          error: "invalid_client",
          error_description: "Client key or secret is incorrect.",
          log_id: logId(),
        })
      }
      const grant = codes.get(body.get("code") ?? "")
      codes.delete(body.get("code") ?? "")
      if (body.get("grant_type") !== "authorization_code" || !grant || grant.redirectUri !== body.get("redirect_uri")) {
        return sendJson(res, r, 200, {
          error: "invalid_grant",
          error_description: "Authorization code is expired.",
          log_id: logId(),
        })
      }
      if (
        grant.challenge &&
        createHash("sha256")
          .update(body.get("code_verifier") ?? "")
          .digest("base64url") !== grant.challenge
      ) {
        return sendJson(res, r, 200, {
          error: "invalid_grant",
          error_description: "Code verifier is invalid.",
          log_id: logId(),
        })
      }
      const accessToken = fresh("act.")
      tokens.add(accessToken)
      return sendJson(res, r, 200, {
        access_token: accessToken,
        expires_in: 86400,
        open_id: tt.user.open_id,
        refresh_expires_in: 31536000,
        refresh_token: fresh("rft."),
        scope: "user.info.basic,user.info.profile",
        token_type: "Bearer",
      })
    }
    if (r.path === USER_INFO && r.method === "GET") {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1]
      if (!token || !tokens.has(token))
        return sendJson(res, r, 401, {
          data: {},
          error: {
            code: "access_token_invalid",
            message: "The access token is invalid or not found in the request.",
            log_id: logId(),
          },
        })
      if (tt.userInfoError)
        return sendJson(res, r, tt.userInfoError.status, {
          data: {},
          error: { code: tt.userInfoError.code, message: tt.userInfoError.message, log_id: logId() },
        })
      const user: Record<string, unknown> = {}
      for (const f of (r.query.get("fields") ?? "").split(","))
        if (f in tt.user) user[f] = tt.user[f as keyof TikTokUser]
      return sendJson(res, r, 200, { data: { user }, error: { code: "ok", message: "", log_id: logId() } })
    }
  })
  Object.assign(tt, server, {
    clientKey: "aw1234tiktokclientkey",
    clientSecret: `tt-secret-${randomBytes(6).toString("hex")}`,
    issued: [],
    logIds: [],
    reset() {
      tt.user = { ...CREATOR }
      tt.decision = "approve"
      tt.tokenError = undefined
      tt.userInfoError = undefined
      tt.logIds = []
      tt.requests.length = 0
    },
  })
  tt.reset()
  return tt
}

let tt: FakeTikTok
const guard = useFakeProvider(startFakeTikTok, (server) => {
  tt = server
})
afterEach(() => {
  vi.unstubAllEnvs()
})

type P = AuthConfig["providers"][number]

/**
 * TikTok with the authorize and token URLs overridden through the options (deep-merged: the client_key
 * params and the token conform hook stay), and open.tiktokapis.com routed to the local server by a customFetch
 * for the user-info call, which keeps its default URL here (the userinfo override has its own test below).
 */
function tiktok(extra: TikTokOptions = {}): { provider: P; route: ReturnType<typeof routingFetch> } {
  const route = routingFetch(TIKTOK_ORIGINS, tt.url)
  const provider = TikTok({
    clientId: tt.clientKey,
    clientSecret: tt.clientSecret,
    authorization: { url: `${tt.url}${AUTHORIZE}` },
    token: { url: `${tt.url}${TOKEN}` },
    [customFetch]: route.fetch,
    ...extra,
  }) as P
  return { provider, route }
}

async function fullSignIn(provider: P) {
  const s = setup([provider])
  const started = await startSignIn(s.config, "tiktok")
  expect(started.res.status).toBe(302)
  const back = await visitProvider(localize(started.location!, TIKTOK_ORIGINS, tt.url))
  const res = await callback(s.config, back, started.jar)
  return { s, started, back, res }
}

describe("TikTok", () => {
  it("signs in: client_key on the authorize URL, form-encoded token POST with client_key + client_secret_post, user info with fields and the {data,error} envelope", async () => {
    const { provider } = tiktok()
    const { s, started, res } = await fullSignIn(provider)
    const auth = started.location!
    expect(auth.origin + auth.pathname).toBe(`${tt.url}${AUTHORIZE}`)
    expect(Object.fromEntries(auth.searchParams)).toMatchObject({
      client_key: tt.clientKey,
      client_id: tt.clientKey,
      scope: "user.info.profile",
      response_type: "code",
      redirect_uri: CALLBACK,
      code_challenge_method: "S256",
    })
    expect(auth.searchParams.get("state")).toBeTruthy()
    expectSignedIn(res, s.log)

    const [token] = tt.to(TOKEN)
    expect(token?.method).toBe("POST")
    expect(token?.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded/)
    expect(token?.headers.authorization).toBeUndefined()
    const body = new URLSearchParams(token?.body)
    expect(Object.fromEntries(body)).toMatchObject({
      client_key: tt.clientKey,
      client_secret: tt.clientSecret,
      grant_type: "authorization_code",
      redirect_uri: CALLBACK,
    })
    expect(body.get("code")).toMatch(/^code-/)
    expect(body.get("code_verifier")).toMatch(/^[A-Za-z0-9._~-]{43,128}$/)
    const [info] = tt.to(USER_INFO)
    expect(info?.originalUrl).toBe(
      "https://open.tiktokapis.com/v2/user/info/?fields=open_id%2Cavatar_url%2Cdisplay_name%2Cusername",
    )
    expect(info?.query.get("fields")).toBe("open_id,avatar_url,display_name,username")
    expect(info?.headers.authorization).toMatch(/^Bearer act\./)

    expect((await sessionOf(s.config, started.jar))?.user).toEqual({
      name: "Clip Creator",
      // TikTok has no e-mail: the username stands in.
      email: "clip.creator",
      image: CREATOR.avatar_url,
    })
    const call = s.signInCall()
    expect(call.account).toMatchObject({
      provider: "tiktok",
      type: "oauth",
      providerAccountId: CREATOR.open_id,
      open_id: CREATOR.open_id,
      token_type: "bearer",
    })
    expect(call.account?.access_token).toMatch(/^act\./)
    expect(call.account?.refresh_token).toMatch(/^rft\./)
    expect(call.profile).toMatchObject({
      data: { user: { open_id: CREATOR.open_id, display_name: "Clip Creator", username: "clip.creator" } },
      error: { code: "ok" },
    })
  })

  it("signs in with every URL overridden through the options (authorization, token and userinfo: { url })", async () => {
    const s = setup([
      TikTok({
        clientId: tt.clientKey,
        clientSecret: tt.clientSecret,
        authorization: { url: `${tt.url}${AUTHORIZE}` },
        token: { url: `${tt.url}${TOKEN}` },
        userinfo: { url: `${tt.url}${USER_INFO}?fields=open_id,avatar_url,display_name,username` },
      }) as P,
    ])
    const { res } = await signInThrough(s.config, "tiktok")
    const blocked = [...guard.blocked]
    guard.blocked.length = 0
    expect(blocked, "the user-info request ignored userinfo.url and went to open.tiktokapis.com").toEqual([])
    expectSignedIn(res, s.log)
    expect(tt.to(USER_INFO)).toHaveLength(1)
  })

  it("the defaults with every request through [customFetch]: the `fields` option extends the user-info fields", async () => {
    const route = routingFetch(TIKTOK_ORIGINS, tt.url)
    const { s, started, res } = await fullSignIn(
      TikTok({
        clientId: tt.clientKey,
        clientSecret: tt.clientSecret,
        fields: ["avatar_large_url", "is_verified", "union_id"],
        [customFetch]: route.fetch,
      }) as P,
    )
    expect(started.location?.origin + started.location!.pathname).toBe("https://www.tiktok.com/v2/auth/authorize")
    expectSignedIn(res, s.log)
    expect(route.calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      "POST https://open.tiktokapis.com/v2/oauth/token/",
      "GET https://open.tiktokapis.com/v2/user/info/?fields=open_id%2Cavatar_url%2Cdisplay_name%2Cusername%2Cavatar_large_url%2Cis_verified%2Cunion_id",
    ])
    expect(s.signInCall().profile).toMatchObject({
      data: { user: { is_verified: true, union_id: CREATOR.union_id, avatar_large_url: CREATOR.avatar_large_url } },
    })
  })

  describe("AUTH_TIKTOK_ID / AUTH_TIKTOK_SECRET", () => {
    const ENV_KEY = "aw9876envclientkey"

    for (const [label, make] of [
      ["TikTok({})", () => TikTok({})],
      ["TikTok uncalled", () => TikTok],
    ] as const) {
      it(`${label} sends the env client key as client_key (and client_id)`, async () => {
        vi.stubEnv("AUTH_TIKTOK_ID", ENV_KEY)
        vi.stubEnv("AUTH_TIKTOK_SECRET", "env-secret")
        const s = setup([make() as P])
        const started = await startSignIn(s.config, "tiktok")
        expect(s.log.errors).toEqual([])
        expect(started.location?.origin + started.location!.pathname).toBe("https://www.tiktok.com/v2/auth/authorize")
        expect(started.location?.searchParams.get("client_key")).toBe(ENV_KEY)
        expect(started.location?.searchParams.get("client_id")).toBe(ENV_KEY)
        // A fresh config after the env changed: the new key.
        vi.stubEnv("AUTH_TIKTOK_ID", "aw-rotated-key")
        const again = await startSignIn(setup([make() as P]).config, "tiktok")
        expect(again.location?.searchParams.get("client_key")).toBe("aw-rotated-key")
      })
    }

    it("the env key and secret reach the token request body (client_key, client_secret)", async () => {
      tt.clientKey = ENV_KEY
      const saved = tt.clientSecret
      tt.clientSecret = "env-secret-value"
      try {
        vi.stubEnv("AUTH_TIKTOK_ID", ENV_KEY)
        vi.stubEnv("AUTH_TIKTOK_SECRET", "env-secret-value")
        const route = routingFetch(TIKTOK_ORIGINS, tt.url)
        const { s, res } = await fullSignIn(TikTok({ [customFetch]: route.fetch }) as P)
        expectSignedIn(res, s.log)
        expect(Object.fromEntries(new URLSearchParams(tt.to(TOKEN)[0]?.body))).toMatchObject({
          client_key: ENV_KEY,
          client_id: ENV_KEY,
          client_secret: "env-secret-value",
        })
      } finally {
        tt.clientKey = "aw1234tiktokclientkey"
        tt.clientSecret = saved
      }
    })
  })

  it("maps email = email ?? username ?? null", () => {
    const profile = TikTok().profile!
    const envelope = (user: Partial<TikTokUser>): TikTokProfile => ({
      data: { user: user as TikTokUser },
      error: { code: "ok", log_id: "x", message: "" },
    })
    const base = { open_id: "oid", display_name: "D", avatar_url: "https://a/img.jpg" }
    expect(profile(envelope({ ...base, username: "u", email: "e@x.example" }), {})).toEqual({
      id: "oid",
      name: "D",
      email: "e@x.example",
      image: "https://a/img.jpg",
    })
    expect(profile(envelope({ ...base, username: "u" }), {})).toEqual({
      id: "oid",
      name: "D",
      email: "u",
      image: "https://a/img.jpg",
    })
    expect(profile(envelope({ ...base }), {})).toEqual({
      id: "oid",
      name: "D",
      email: null,
      image: "https://a/img.jpg",
    })
  })

  describe("failures", () => {
    it("a token error answered with HTTP 200 ({error, error_description, log_id}) -> OAuthCallbackError; the log names the error and the log_id", async () => {
      tt.tokenError = { error: "invalid_grant", error_description: "Authorization code is expired." }
      const { s, res } = await fullSignIn(tiktok().provider)
      expectRejected(res, s.log, SIGNIN_ERROR("OAuthCallbackError"), "OAuthCallbackError")
      expect(tt.to(USER_INFO)).toHaveLength(0)
      // The logged error's own message (not only a cause) names TikTok's error and log_id.
      const text = s.log.errors[0]!.message
      expect(text).toContain("invalid_grant")
      expect(text).toContain(tt.logIds[0])
      for (const secret of [...tt.issued, tt.clientSecret]) expect(logged(s.log)).not.toContain(secret)
    })

    it("user info 401 {error:{code,log_id,message}} -> OAuthCallbackError; the log carries code and log_id", async () => {
      tt.userInfoError = {
        status: 401,
        code: "access_token_invalid",
        message: "The access token is invalid or not found in the request.",
      }
      const { s, res } = await fullSignIn(tiktok().provider)
      expectRejected(res, s.log, SIGNIN_ERROR("OAuthCallbackError"), "OAuthCallbackError")
      const text = s.log.errors[0]!.message
      expect(text).toContain("access_token_invalid")
      expect(text).toContain(tt.logIds.at(-1))
      for (const secret of [...tt.issued, tt.clientSecret]) expect(logged(s.log)).not.toContain(secret)
    })

    it('user info HTTP 200 with a code other than "ok" -> OAuthCallbackError; the log carries code and log_id', async () => {
      tt.userInfoError = {
        status: 200,
        code: "scope_not_authorized",
        message: "The user did not authorize the scope required for completing this request.",
      }
      const { s, res } = await fullSignIn(tiktok().provider)
      expectRejected(res, s.log, SIGNIN_ERROR("OAuthCallbackError"), "OAuthCallbackError")
      expect(tt.to(USER_INFO).map((r) => r.status)).toEqual([200])
      const text = s.log.errors[0]!.message
      expect(text).toContain("scope_not_authorized")
      expect(text).toContain(tt.logIds.at(-1))
    })

    it("a wrong client secret (200 invalid_client) -> OAuthCallbackError", async () => {
      const { s, res } = await fullSignIn(tiktok({ clientSecret: "wrong-secret" }).provider)
      expectRejected(res, s.log, SIGNIN_ERROR("OAuthCallbackError"), "OAuthCallbackError")
      expect(logged(s.log)).toContain("invalid_client")
      expect(logged(s.log)).not.toContain("wrong-secret")
    })

    it("a denied authorization (error=access_denied) ends at /auth/error?error=AccessDenied without a token request", async () => {
      tt.decision = "deny"
      const { s, back, res } = await fullSignIn(tiktok().provider)
      expect(back.searchParams.get("error")).toBe("access_denied")
      expectRejected(res, s.log, ERROR_PAGE("AccessDenied&code=access_denied"), "AccessDenied")
      expect(tt.to(TOKEN)).toHaveLength(0)
    })
  })
})
