// The built-in Twitter / X provider end to end through Auth(), both protocol versions, against a local Twitter
// (test/support/fake-twitter.ts) that verifies every OAuth 1.0a signature with its own RFC 5849 code.
// - OAuth 1.0a (default): request token -> authenticate -> access token -> verify_credentials; e-mail only with
//   the app permission; image full size (no `_normal`); id = id_str; account holds oauth_token(_secret).
// - OAuth 2 (`version: "2.0"`): PKCE + state, Basic client auth, users/me with user.fields and
//   expansions=pinned_tweet_id (includes.tweets); e-mail always null.
// - `[customFetch]` replaces fetch for every request of both versions (the default api.x.com URLs are routed to
//   the local server by the customFetch itself; the global fetch refuses anything but 127.0.0.1).
import { describe, expect, it } from "vitest"
import { Auth, customFetch } from "../../src/index.js"
import type { AuthConfig } from "../../src/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Twitter, { type TwitterOptions } from "../../src/providers/twitter.js"
import { ORIGIN, get } from "../support/flow-kit.js"
import {
  type FakeTwitter,
  TWITTER_ORIGINS,
  parseOAuthHeader,
  startFakeTwitter,
  twitterOAuth1,
} from "../support/fake-twitter.js"
import {
  ERROR_PAGE,
  SIGNIN_ERROR,
  callback,
  expectRejected,
  expectSignedIn,
  localize,
  logged,
  routingFetch,
  sessionOf,
  setup,
  signInThrough,
  startSignIn,
  useFakeProvider,
  visitProvider,
} from "../support/provider-kit.js"

const CALLBACK = `${ORIGIN}/auth/callback/twitter`
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

let tw: FakeTwitter
useFakeProvider(startFakeTwitter, (server) => {
  tw = server
})

function oauth1(extra: TwitterOptions = {}): AuthConfig["providers"][number] {
  return twitterOAuth1(tw, extra)
}

function oauth2(extra: TwitterOptions = {}): AuthConfig["providers"][number] {
  return Twitter({
    version: "2.0",
    clientId: tw.clientId,
    clientSecret: tw.clientSecret,
    authorization: { url: `${tw.url}/i/oauth2/authorize` },
    token: { url: `${tw.url}/2/oauth2/token` },
    // Overriding `userinfo` replaces the URL built from userFields/expansions: the query goes in the URL.
    userinfo: {
      url: `${tw.url}/2/users/me?user.fields=profile_image_url,description,pinned_tweet_id&expansions=pinned_tweet_id`,
    },
    ...extra,
  }) as AuthConfig["providers"][number]
}

function oauthParams(header: string | string[] | undefined): Map<string, string> {
  const parsed = parseOAuthHeader(typeof header === "string" ? header : undefined)
  expect(parsed, `an OAuth Authorization header: ${String(header)}`).toBeDefined()
  return parsed!
}

// ---------------------------------------------------------------------------------------------------------

describe("Twitter OAuth 1.0a (default)", () => {
  it("signs in: request token, authenticate, access token and verify_credentials, each signature verified by the server", async () => {
    const s = setup([oauth1()])
    const started = await startSignIn(s.config, "twitter")
    expect(started.res.status).toBe(302)
    expect(started.location?.origin + started.location!.pathname).toBe(`${tw.url}/oauth/authenticate`)
    const requestToken = started.location!.searchParams.get("oauth_token")!
    expect(tw.requestTokens.has(requestToken)).toBe(true)

    // Leg 1: POST, signed with the consumer secret only, carrying oauth_callback.
    const [leg1] = tw.to("/oauth/request_token")
    expect(leg1?.method).toBe("POST")
    expect(leg1?.status).toBe(200)
    const p1 = oauthParams(leg1?.headers.authorization)
    expect(Object.fromEntries(p1)).toMatchObject({
      oauth_consumer_key: tw.consumerKey,
      oauth_signature_method: "HMAC-SHA1",
      oauth_version: "1.0",
      oauth_callback: CALLBACK,
    })
    expect(p1.has("oauth_token")).toBe(false)
    expect(p1.get("oauth_nonce")).toMatch(/^[A-Za-z0-9]{16,}$/)
    expect(Math.abs(Number(p1.get("oauth_timestamp")) - Date.now() / 1000)).toBeLessThan(60)

    const back = await visitProvider(started.location!)
    expect(back.origin + back.pathname).toBe(CALLBACK)
    expect(back.searchParams.get("oauth_token")).toBe(requestToken)
    const res = await callback(s.config, back, started.jar)
    expectSignedIn(res, s.log)

    // Leg 3: POST with the request token and the verifier, signed with the request-token secret.
    const [leg3] = tw.to("/oauth/access_token")
    expect(leg3?.status).toBe(200)
    const p3 = oauthParams(leg3?.headers.authorization)
    expect(p3.get("oauth_token")).toBe(requestToken)
    expect(p3.get("oauth_verifier")).toBe(back.searchParams.get("oauth_verifier"))
    // The profile: GET with include_email=true in the signed query, signed with the access-token secret.
    const [profile] = tw.to("/1.1/account/verify_credentials.json")
    expect(profile?.method).toBe("GET")
    expect(profile?.status).toBe(200)
    expect(profile?.query.get("include_email")).toBe("true")
    expect(oauthParams(profile?.headers.authorization).get("oauth_token")).toMatch(
      new RegExp(`^${tw.legacyUser.id_str}-`),
    )
    expect(tw.oauth1Failures).toEqual([])

    const session = await sessionOf(s.config, started.jar)
    expect(session?.user).toEqual({
      name: "Tess Tweeter",
      email: "tess@example.com",
      // Full size: the `_normal` suffix removed.
      image: "https://pbs.twimg.com/profile_images/1349149/tess_avatar.jpg",
    })
    const call = s.signInCall()
    // id_str, not the numeric id (which exceeds 2^53 and would be corrupted).
    expect(call.account).toMatchObject({
      provider: "twitter",
      type: "oauth",
      providerAccountId: "1349149096909668363",
      user_id: "1349149096909668363",
      screen_name: "tess",
    })
    expect(call.account?.oauth_token).toEqual(expect.stringMatching(/^1349149096909668363-/))
    expect(call.account?.oauth_token_secret).toEqual(expect.stringMatching(/^ats-/))
    expect(call.account).not.toHaveProperty("access_token")
    expect(call.profile).toMatchObject({ id_str: "1349149096909668363", screen_name: "tess" })
    expect(call.user?.id).toMatch(UUID)
  })

  it('without the "Request email address from users" permission the e-mail is null', async () => {
    tw.emailPermission = false
    const s = setup([oauth1()])
    const { res, started } = await signInThrough(s.config, "twitter")
    expectSignedIn(res, s.log)
    expect(s.signInCall().user).toMatchObject({
      name: "Tess Tweeter",
      image: "https://pbs.twimg.com/profile_images/1349149/tess_avatar.jpg",
    })
    expect(s.signInCall().user).not.toHaveProperty("email")
    const session = await sessionOf(s.config, started.jar)
    expect(session?.user?.email ?? null).toBeNull()
    expect(session?.user?.name).toBe("Tess Tweeter")
  })

  it("stores oauth_token and oauth_token_secret on the account row (database adapter)", async () => {
    const mem = MemoryAdapter()
    const s = setup([oauth1()], { adapter: mem })
    const { res } = await signInThrough(s.config, "twitter")
    expectSignedIn(res, s.log)
    const rows = [...mem.accounts.values()]
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ provider: "twitter", type: "oauth", providerAccountId: "1349149096909668363" })
    expect(rows[0]?.oauth_token).toEqual(expect.stringMatching(/^1349149096909668363-/))
    expect(rows[0]?.oauth_token_secret).toEqual(expect.stringMatching(/^ats-/))
    expect(rows[0]).not.toHaveProperty("access_token")
    expect([...mem.users.values()][0]).toMatchObject({ name: "Tess Tweeter", email: "tess@example.com" })
  })

  it("a denied authorization (denied=<token>) ends at /auth/error?error=AccessDenied without an access-token request", async () => {
    tw.decision = "deny"
    const s = setup([oauth1()])
    const started = await startSignIn(s.config, "twitter")
    const back = await visitProvider(started.location!)
    expect(back.searchParams.get("denied")).toBe(started.location!.searchParams.get("oauth_token"))
    const res = await callback(s.config, back, started.jar)
    expectRejected(res, s.log, ERROR_PAGE("AccessDenied&code=access_denied"), "AccessDenied")
    expect(tw.to("/oauth/access_token")).toHaveLength(0)
  })

  it("a wrong oauth_verifier: the server answers 401 -> OAuthCallbackError", async () => {
    const s = setup([oauth1()])
    const { res } = await signInThrough(s.config, "twitter", (back) =>
      back.searchParams.set("oauth_verifier", "ver-forged"),
    )
    expectRejected(res, s.log, SIGNIN_ERROR("OAuthCallbackError"), "OAuthCallbackError")
    expect(tw.to("/oauth/access_token").map((r) => r.status)).toEqual([401])
    expect(tw.oauth1Failures).toEqual([{ path: "/oauth/access_token", reason: "bad verifier" }])
    expect(tw.to("/1.1/account/verify_credentials.json")).toHaveLength(0)
  })

  it("a bad signature (consumer secret changed between the legs): the server answers 401 -> OAuthCallbackError", async () => {
    const first = setup([oauth1()])
    const started = await startSignIn(first.config, "twitter")
    const back = await visitProvider(started.location!)
    // Same app, same session secret, but the consumer secret the callback signs with is no longer right.
    const second = setup([oauth1({ clientSecret: "rotated-consumer-secret" })])
    const res = await callback(second.config, back, started.jar)
    expectRejected(res, second.log, SIGNIN_ERROR("OAuthCallbackError"), "OAuthCallbackError")
    expect(tw.oauth1Failures).toEqual([{ path: "/oauth/access_token", reason: "signature mismatch" }])
    expect(logged(second.log)).toContain("401")
    expect(logged(second.log)).not.toContain("rotated-consumer-secret")
  })

  it("a request-token step the server refuses (bad consumer secret) aborts the sign-in before any redirect to Twitter", async () => {
    const s = setup([oauth1({ clientSecret: "not-the-secret" })])
    const started = await startSignIn(s.config, "twitter")
    expect(started.res.status).toBe(302)
    expect(started.location?.origin).toBe(ORIGIN)
    expect(started.location?.href).toBe(SIGNIN_ERROR("Configuration"))
    expect(s.log.types()).toEqual(["OAuthSignInError"])
    expect(tw.oauth1Failures).toEqual([{ path: "/oauth/request_token", reason: "signature mismatch" }])
    expect(started.jar.cookies.has("authjs.state")).toBe(false)
  })

  it("[customFetch] replaces fetch for request token, access token and profile (default api.x.com URLs)", async () => {
    const route = routingFetch(TWITTER_ORIGINS, tw.url)
    const s = setup([
      Twitter({
        clientId: tw.consumerKey,
        clientSecret: tw.consumerSecret,
        [customFetch]: route.fetch,
      }) as AuthConfig["providers"][number],
    ])
    const started = await startSignIn(s.config, "twitter")
    expect(started.location?.origin + started.location!.pathname).toBe("https://api.x.com/oauth/authenticate")
    const back = await visitProvider(localize(started.location!, TWITTER_ORIGINS, tw.url))
    const res = await callback(s.config, back, started.jar)
    expectSignedIn(res, s.log)
    expect(route.calls).toEqual([
      { url: "https://api.x.com/oauth/request_token", method: "POST" },
      { url: "https://api.x.com/oauth/access_token", method: "POST" },
      { url: "https://api.x.com/1.1/account/verify_credentials.json?include_email=true", method: "GET" },
    ])
    // Every API request reached the server through the customFetch, signed for the api.x.com URL.
    const api = tw.requests.filter((r) => r.path !== "/oauth/authenticate")
    expect(api.map((r) => r.originalUrl)).toEqual(route.calls.map((c) => c.url))
    expect(api.every((r) => r.status === 200)).toBe(true)
    expect(tw.oauth1Failures).toEqual([])
    expect((await sessionOf(s.config, started.jar))?.user?.email).toBe("tess@example.com")
  })
})

describe("Twitter with a user-chosen id", () => {
  it('both versions side by side (Twitter() and Twitter({ id: "twitter-v2", version: "2.0" })) are two providers, not a duplicate id', async () => {
    const s = setup([oauth1(), oauth2({ id: "twitter-v2" })])
    const res = await Auth(get("/auth/providers"), s.config)
    expect(s.log.errors.map((e) => e.message)).toEqual([])
    expect(res.status).toBe(200)
    const body = (await res.json()) as Record<string, { id: string; callbackUrl: string }>
    expect(Object.keys(body).sort()).toEqual(["twitter", "twitter-v2"])
    expect(body["twitter-v2"]?.callbackUrl).toBe(`${ORIGIN}/auth/callback/twitter-v2`)
  })
})

// ---------------------------------------------------------------------------------------------------------

describe('Twitter OAuth 2 (version: "2.0")', () => {
  it("signs in with PKCE + state, Basic client auth and users/me with user.fields and expansions=pinned_tweet_id", async () => {
    const s = setup([oauth2()])
    const started = await startSignIn(s.config, "twitter")
    const auth = started.location!
    expect(auth.origin + auth.pathname).toBe(`${tw.url}/i/oauth2/authorize`)
    expect(Object.fromEntries(auth.searchParams)).toMatchObject({
      response_type: "code",
      client_id: tw.clientId,
      redirect_uri: CALLBACK,
      scope: "users.read tweet.read offline.access",
      code_challenge_method: "S256",
    })
    expect(auth.searchParams.get("state")).toBeTruthy()
    expect(auth.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/)

    const res = await callback(s.config, await visitProvider(auth), started.jar)
    expectSignedIn(res, s.log)

    const [token] = tw.to("/2/oauth2/token")
    expect(token?.status).toBe(200)
    expect(token?.headers.authorization).toBe(
      `Basic ${Buffer.from(`${tw.clientId}:${tw.clientSecret}`).toString("base64")}`,
    )
    const body = new URLSearchParams(token?.body)
    expect(body.get("grant_type")).toBe("authorization_code")
    expect(body.get("redirect_uri")).toBe(CALLBACK)
    expect(body.get("code_verifier")).toMatch(/^[A-Za-z0-9._~-]{43,128}$/)
    expect(body.has("client_secret")).toBe(false)
    const [me] = tw.to("/2/users/me")
    expect(me?.status).toBe(200)
    expect(me?.headers.authorization).toMatch(/^Bearer at2-/)
    expect(me?.query.get("user.fields")?.split(",")).toEqual(
      expect.arrayContaining(["profile_image_url", "description", "pinned_tweet_id"]),
    )
    expect(me?.query.get("expansions")).toBe("pinned_tweet_id")

    expect((await sessionOf(s.config, started.jar))?.user).toEqual({
      name: "Tess Tweeter",
      image: "https://pbs.twimg.com/profile_images/1349149/tess_avatar.png",
      // OAuth 2 never yields an e-mail: the session has none.
    })
    const call = s.signInCall()
    expect(call.user).toMatchObject({ name: "Tess Tweeter" })
    expect(call.user).not.toHaveProperty("email")
    expect(call.account).toMatchObject({
      provider: "twitter",
      type: "oauth",
      providerAccountId: "1349149096909668363",
      token_type: "bearer",
      scope: "users.read tweet.read offline.access",
    })
    expect(call.account?.access_token).toMatch(/^at2-/)
    expect(call.account?.refresh_token).toMatch(/^rt2-/)
    expect(typeof call.account?.expires_at).toBe("number")
    // The raw profile: data with the requested fields, the pinned post expanded in includes.tweets.
    expect(call.profile).toEqual({
      data: {
        id: "1349149096909668363",
        name: "Tess Tweeter",
        username: "tess",
        description: "Posting #tests",
        pinned_tweet_id: "1610000000000000001",
        profile_image_url: "https://pbs.twimg.com/profile_images/1349149/tess_avatar_normal.png",
      },
      includes: { tweets: [{ id: "1610000000000000001", text: "my pinned post" }] },
    })
  })

  it("builds the default users/me URL from userFields and expansions (profile_image_url always included)", () => {
    const p = Twitter({
      version: "2.0",
      userFields: ["description", "location", "profile_image_url"],
      expansions: ["pinned_tweet_id"],
    })
    const url = new URL(String(p.userinfo))
    expect(url.origin + url.pathname).toBe("https://api.x.com/2/users/me")
    expect(url.searchParams.get("user.fields")).toBe("profile_image_url,description,location")
    expect(url.searchParams.get("expansions")).toBe("pinned_tweet_id")
    expect(new URL(String(Twitter({ version: "2.0" }).userinfo)).search).toBe("?user.fields=profile_image_url")
    expect(Twitter({ version: "2.0" }).checks).toEqual(["pkce", "state"])
    expect(Twitter().version).toBe("1.0A")
  })

  it("[customFetch] replaces fetch for the token and users/me requests (default URLs, userFields/expansions options)", async () => {
    const route = routingFetch(TWITTER_ORIGINS, tw.url)
    const s = setup([
      Twitter({
        version: "2.0",
        clientId: tw.clientId,
        clientSecret: tw.clientSecret,
        userFields: ["description", "location"],
        expansions: ["pinned_tweet_id"],
        [customFetch]: route.fetch,
      }) as AuthConfig["providers"][number],
    ])
    const started = await startSignIn(s.config, "twitter")
    expect(started.location?.origin + started.location!.pathname).toBe("https://x.com/i/oauth2/authorize")
    const res = await callback(
      s.config,
      await visitProvider(localize(started.location!, TWITTER_ORIGINS, tw.url)),
      started.jar,
    )
    expectSignedIn(res, s.log)
    expect(route.calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      "POST https://api.x.com/2/oauth2/token",
      "GET https://api.x.com/2/users/me?user.fields=profile_image_url%2Cdescription%2Clocation&expansions=pinned_tweet_id",
    ])
    const api = tw.requests.filter((r) => r.path !== "/i/oauth2/authorize")
    expect(api.map((r) => r.originalUrl)).toEqual(route.calls.map((c) => c.url))
    expect(s.signInCall().profile).toMatchObject({
      data: { location: "Localhost", description: "Posting #tests" },
      includes: { tweets: [{ text: "my pinned post" }] },
    })
  })

  it("a denied authorization (error=access_denied) ends at /auth/error?error=AccessDenied without a token request", async () => {
    tw.decision = "deny"
    const s = setup([oauth2()])
    const started = await startSignIn(s.config, "twitter")
    const back = await visitProvider(started.location!)
    expect(back.searchParams.get("error")).toBe("access_denied")
    const res = await callback(s.config, back, started.jar)
    expectRejected(res, s.log, ERROR_PAGE("AccessDenied&code=access_denied"), "AccessDenied")
    expect(tw.to("/2/oauth2/token")).toHaveLength(0)
  })

  it("a token endpoint error (wrong client secret: 401 unauthorized_client) -> OAuthCallbackError", async () => {
    const s = setup([oauth2({ clientSecret: "wrong" })])
    const { res } = await signInThrough(s.config, "twitter")
    expectRejected(res, s.log, SIGNIN_ERROR("OAuthCallbackError"), "OAuthCallbackError")
    expect(tw.to("/2/oauth2/token").map((r) => r.status)).toEqual([401])
    expect(tw.to("/2/users/me")).toHaveLength(0)
    expect(logged(s.log)).toContain("unauthorized_client")
  })
})
