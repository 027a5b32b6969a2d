// Security group B (docs/security.md §1.B): OAuth 1.0a (RFC 5849), cases O1-01..O1-06, against the local Twitter of
// test/support/fake-twitter.ts (which verifies every signature with the tests' own RFC 5849 code) and against
// the RFC's published vectors.
//
// Every negative flow asserts the §1 conventions: REJECT(T) -> 302 to the page of T (OAuthCallbackError ->
// /auth/signin?error=OAuthCallbackError, AccessDenied -> /auth/error?error=AccessDenied, InvalidCheck (not
// client-safe) -> /auth/error?error=Configuration, OAuthSignInError at sign-in -> /auth/signin?error=Configuration),
// T logged once; I1 no session cookie; I2 no adapter write; I3 no access-token or profile request after a failed
// pre-check; I4 the temporary-credentials cookie (authjs.state) expired; I5 no token, verifier or secret in the
// body, the Location or the logs; I6 no unhandled rejection.
import fc from "fast-check"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import type { AuthConfig } from "../../src/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { CLOCK_TOLERANCE } from "../../src/jwt/jwe.js"
import {
  authorizationHeader,
  baseStringUri,
  hmacSha1Signature,
  makeNonce,
  normalizeParameters,
  percentEncode,
  signatureBaseString,
} from "../../src/protocols/oauth1.js"
import { FLOW_COOKIE_MAX_AGE as CHECK_MAX_AGE } from "../../src/cookies/policy.js"
import type { TwitterOptions } from "../../src/providers/twitter.js"
import { CookieJar, ORIGIN, SECRET, get, setCookies } from "../support/flow-kit.js"
import {
  type FakeTwitter,
  parseOAuthHeader,
  rfcBaseString,
  rfcBaseUri,
  rfcEncode,
  rfcHmacSha1,
  rfcNormalize,
  startFakeTwitter,
  twitterOAuth1,
  verifyOAuth1,
} from "../support/fake-twitter.js"
import {
  APP_PAGE,
  ERROR_PAGE,
  SIGNIN_ERROR,
  type Setup,
  callback,
  expectSignedIn,
  logged,
  setup,
  startSignIn,
  useFakeProvider,
  visitProvider,
} from "../support/provider-kit.js"
import { sessionCookieNames } from "../support/cookies.js"
import { recordingAdapter, trackUnhandledRejections } from "../support/oauth-flow.js"

const TEMP_COOKIE = "authjs.state"

let tw: FakeTwitter
useFakeProvider(startFakeTwitter, (server) => {
  tw = server
})
const unhandled = trackUnhandledRejections()
beforeEach(() => {
  unhandled.length = 0
})
afterEach(() => {
  vi.restoreAllMocks()
  expect(unhandled, "I6: no unhandled rejection").toEqual([])
})

function twitter(extra: TwitterOptions = {}): AuthConfig["providers"][number] {
  return twitterOAuth1(tw, extra)
}

/** A config with the Twitter provider(s), a spy logger and a spy adapter (JWT sessions, so I2 means zero writes). */
function secured(
  providers: AuthConfig["providers"] = [twitter()],
  extra: Partial<AuthConfig> = {},
): Setup & { writes: string[] } {
  const writes: string[] = []
  return { ...setup(providers, { adapter: recordingAdapter(writes), session: { strategy: "jwt" }, ...extra }), writes }
}

/** Sign-in started and authorized at the provider: the jar holds the temp cookie; `back` is the provider's redirect. */
async function authorized(s: Setup, id = "twitter", callbackUrl = APP_PAGE) {
  const started = await startSignIn(s.config, id, { callbackUrl })
  expect(started.location?.origin, "sign-in start redirects to the provider").toBe(tw.url)
  expect(started.jar.cookies.has(TEMP_COOKIE), "temp-credentials cookie set").toBe(true)
  const back = await visitProvider(started.location!)
  return { jar: started.jar, back, requestToken: started.location!.searchParams.get("oauth_token")! }
}

function calls(path: string): number {
  return tw.to(path).length
}

interface Reject {
  location: string
  type: string
  writes: string[]
  /** Counts of access-token/profile requests before the callback (I3). */
  before?: { access: number; profile: number }
  /** The request carried the temp cookie, so the answer must expire it (I4). */
  carriedTemp?: boolean
}

async function expectReject(s: Setup, res: Response, x: Reject): Promise<void> {
  expect(res.status).toBe(302)
  const location = res.headers.get("location") ?? ""
  expect(location).toBe(x.location)
  expect(s.log.types(), logged(s.log)).toEqual([x.type])
  expect(sessionCookieNames(res), "I1: no session cookie").toEqual([])
  expect(x.writes, "I2: no adapter write").toEqual([])
  if (x.before) {
    expect(calls("/oauth/access_token"), "I3: no access-token request").toBe(x.before.access)
    expect(calls("/1.1/account/verify_credentials.json"), "I3: no profile request").toBe(x.before.profile)
  }
  const temp = setCookies(res).get(TEMP_COOKIE)
  if (x.carriedTemp) expect(temp?.attrs["max-age"], "I4: temp cookie expired").toBe("0")
  if (temp) expect(temp.attrs["max-age"], "no temp cookie (re)issued on a failure").toBe("0")
  const body = await res.clone().text()
  const logs = logged(s.log)
  for (const secret of [...tw.issued, tw.consumerSecret, SECRET].filter((v) => v.length >= 8)) {
    expect(body.includes(secret), "I5: body").toBe(false)
    expect(location.includes(secret), "I5: Location").toBe(false)
    expect(logs.includes(secret), `I5: logs (${secret.slice(0, 10)}…)`).toBe(false)
  }
}

// ---------------------------------------------------------------------------------------------------------

describe("O1-01: callback without oauth_token or oauth_verifier", () => {
  for (const [label, drop] of [
    ["no oauth_verifier", ["oauth_verifier"]],
    ["no oauth_token", ["oauth_token"]],
    ["neither", ["oauth_token", "oauth_verifier"]],
  ] as const) {
    it(`O1-01 ${label} -> OAuthCallbackError, no access-token request`, async () => {
      const s = secured()
      const { jar, back } = await authorized(s)
      for (const name of drop) back.searchParams.delete(name)
      const before = { access: calls("/oauth/access_token"), profile: calls("/1.1/account/verify_credentials.json") }
      const res = await callback(s.config, back, jar)
      await expectReject(s, res, {
        location: SIGNIN_ERROR("OAuthCallbackError"),
        type: "OAuthCallbackError",
        writes: s.writes,
        before,
        carriedTemp: true,
      })
      expect(before.access).toBe(0)
    })
  }

  it("O1-01 an empty oauth_verifier counts as missing", async () => {
    const s = secured()
    const { jar, back } = await authorized(s)
    back.searchParams.set("oauth_verifier", "")
    const res = await callback(s.config, back, jar)
    await expectReject(s, res, {
      location: SIGNIN_ERROR("OAuthCallbackError"),
      type: "OAuthCallbackError",
      writes: s.writes,
      before: { access: 0, profile: 0 },
      carriedTemp: true,
    })
  })
})

describe("O1-02: oauth_token not the request token sealed in this browser's temp cookie", () => {
  it("O1-02 fixation: the attacker's own request token and verifier in the victim's browser -> InvalidCheck, attacker's token never exchanged", async () => {
    const s = secured()
    const attacker = await authorized(s)
    const victim = await authorized(s)
    const res = await callback(s.config, attacker.back, victim.jar)
    await expectReject(s, res, {
      location: ERROR_PAGE("Configuration"),
      type: "InvalidCheck",
      writes: s.writes,
      before: { access: 0, profile: 0 },
      carriedTemp: true,
    })
    // The attacker's request token is still unused at the provider.
    expect(tw.requestTokens.has(attacker.requestToken)).toBe(true)
  })

  it("O1-02 temp cookie missing (callback opened in another browser) -> InvalidCheck", async () => {
    const s = secured()
    const { back } = await authorized(s)
    const res = await callback(s.config, back, new CookieJar())
    await expectReject(s, res, {
      location: ERROR_PAGE("Configuration"),
      type: "InvalidCheck",
      writes: s.writes,
      before: { access: 0, profile: 0 },
    })
  })

  it("O1-02 temp cookie expired (older than 15 minutes) -> InvalidCheck", async () => {
    const s = secured()
    const { jar, back } = await authorized(s)
    const now = Date.now()
    vi.spyOn(Date, "now").mockReturnValue(now + (CHECK_MAX_AGE + CLOCK_TOLERANCE + 5) * 1000)
    const res = await callback(s.config, back, jar)
    await expectReject(s, res, {
      location: ERROR_PAGE("Configuration"),
      type: "InvalidCheck",
      writes: s.writes,
      before: { access: 0, profile: 0 },
      carriedTemp: true,
    })
  })

  it("O1-02 temp cookie still valid just before 15 minutes -> signs in", async () => {
    const s = secured()
    const { jar, back } = await authorized(s)
    const now = Date.now()
    vi.spyOn(Date, "now").mockReturnValue(now + (CHECK_MAX_AGE - 30) * 1000)
    const res = await callback(s.config, back, jar)
    expectSignedIn(res, s.log)
  })

  it("O1-02 temp cookie tampered (one character of the JWE changed) -> InvalidCheck", async () => {
    const s = secured()
    const { jar, back } = await authorized(s)
    const value = decodeURIComponent(jar.cookies.get(TEMP_COOKIE)!)
    const parts = value.split(".")
    const ct = parts[3]!
    parts[3] = (ct[0] === "A" ? "B" : "A") + ct.slice(1)
    jar.cookies.set(TEMP_COOKIE, encodeURIComponent(parts.join(".")))
    const res = await callback(s.config, back, jar)
    await expectReject(s, res, {
      location: ERROR_PAGE("Configuration"),
      type: "InvalidCheck",
      writes: s.writes,
      before: { access: 0, profile: 0 },
      carriedTemp: true,
    })
  })

  it("O1-02 temp cookie minted for another OAuth 1 provider -> InvalidCheck", async () => {
    // A second, hand-configured OAuth 1.0a provider on the same server (a custom provider rather than
    // Twitter({ id: "legacy-b" }), which the duplicate-id check refuses: see test/providers/twitter.test.ts).
    const legacy = {
      id: "legacy-b",
      name: "Legacy B",
      type: "oauth",
      version: "1.0A",
      clientId: tw.consumerKey,
      clientSecret: tw.consumerSecret,
      requestTokenUrl: `${tw.url}/oauth/request_token`,
      authorizationUrl: `${tw.url}/oauth/authenticate`,
      accessTokenUrl: `${tw.url}/oauth/access_token`,
      profileUrl: `${tw.url}/1.1/account/verify_credentials.json`,
      profile: (p: Record<string, unknown>) => ({ id: String(p.id_str), name: String(p.name) }),
    } as AuthConfig["providers"][number]
    const s = secured([twitter(), legacy])
    const other = await authorized(s, "legacy-b")
    expect(other.back.pathname).toBe("/auth/callback/legacy-b")
    const forged = new URL(other.back)
    forged.pathname = "/auth/callback/twitter"
    const res = await callback(s.config, forged, other.jar)
    await expectReject(s, res, {
      location: ERROR_PAGE("Configuration"),
      type: "InvalidCheck",
      writes: s.writes,
      before: { access: 0, profile: 0 },
      carriedTemp: true,
    })
  })

  it("O1-02 a callback replayed after it succeeded -> InvalidCheck (temp cookie spent), one account in total", async () => {
    const mem = MemoryAdapter()
    const s = setup([twitter()], { adapter: mem })
    const { jar, back } = await authorized(s)
    const replayJar = new CookieJar()
    for (const [k, v] of jar.cookies) replayJar.cookies.set(k, v)
    const first = await callback(s.config, back, jar)
    expectSignedIn(first, s.log)
    expect(setCookies(first).get(TEMP_COOKIE)?.attrs["max-age"], "temp cookie expired after use").toBe("0")
    // Same URL in a browser that still has the old cookie: the request token is spent at the provider.
    const replay = await callback(s.config, back, replayJar)
    expect(replay.headers.get("location")).toBe(SIGNIN_ERROR("OAuthCallbackError"))
    expect(sessionCookieNames(replay)).toEqual([])
    expect(mem.accounts.size).toBe(1)
  })
})

describe("O1-03: denied=<token>", () => {
  it("O1-03 denied -> AccessDenied, temp cookie cleared, no access-token request", async () => {
    tw.decision = "deny"
    const s = secured()
    const { jar, back, requestToken } = await authorized(s)
    expect(back.searchParams.get("denied")).toBe(requestToken)
    const res = await callback(s.config, back, jar)
    await expectReject(s, res, {
      location: ERROR_PAGE("AccessDenied&code=access_denied"),
      type: "AccessDenied",
      writes: s.writes,
      before: { access: 0, profile: 0 },
      carriedTemp: true,
    })
    expect(jar.cookies.has(TEMP_COOKIE), "browser no longer holds the temp cookie").toBe(false)
  })

  it("O1-03 denied wins even when oauth_token and oauth_verifier are present too", async () => {
    const s = secured()
    const { jar, back, requestToken } = await authorized(s)
    back.searchParams.set("denied", requestToken)
    const res = await callback(s.config, back, jar)
    await expectReject(s, res, {
      location: ERROR_PAGE("AccessDenied&code=access_denied"),
      type: "AccessDenied",
      writes: s.writes,
      before: { access: 0, profile: 0 },
      carriedTemp: true,
    })
  })
})

describe("O1-04: request-token answer without oauth_callback_confirmed=true", () => {
  for (const confirmed of ["missing", "false"] as const) {
    it(`O1-04 oauth_callback_confirmed ${confirmed} -> OAuthSignInError, no redirect to the provider, no temp cookie`, async () => {
      tw.callbackConfirmed = confirmed
      const s = secured()
      const started = await startSignIn(s.config, "twitter")
      expect(started.res.status).toBe(302)
      expect(started.location?.href).toBe(SIGNIN_ERROR("Configuration"))
      expect(started.location?.origin).toBe(ORIGIN)
      expect(s.log.types()).toEqual(["OAuthSignInError"])
      expect(setCookies(started.res).has(TEMP_COOKIE)).toBe(false)
      expect(calls("/oauth/request_token")).toBe(1)
      expect(calls("/oauth/authenticate")).toBe(0)
      for (const secret of tw.issued) {
        expect(started.location!.href.includes(secret)).toBe(false)
        expect(logged(s.log).includes(secret)).toBe(false)
      }
    })
  }
})

describe("O1-05: external callbackUrl with an OAuth 1 provider", () => {
  it("O1-05 callbackUrl=https://evil.example at sign-in -> the final redirect stays on the origin", async () => {
    const s = secured()
    const { jar, back } = await authorized(s, "twitter", "https://evil.example/steal")
    const res = await callback(s.config, back, jar)
    expect(res.status).toBe(302)
    expect(new URL(res.headers.get("location")!).origin).toBe(ORIGIN)
    expect(res.headers.get("location")).toBe(ORIGIN)
    expect(sessionCookieNames(res)).toEqual(["authjs.session-token"])
  })

  it("O1-05 callbackUrl added to the provider's callback query -> still the origin", async () => {
    const s = secured()
    const { jar, back } = await authorized(s)
    back.searchParams.set("callbackUrl", "https://evil.example/steal")
    const res = await callback(s.config, back, jar)
    expect(res.headers.get("location")).toBe(ORIGIN)
  })

  it("O1-05 the user's redirect callback is applied (sees the external URL and the base URL)", async () => {
    const seen: { url: string; baseUrl: string }[] = []
    const s = secured([twitter()], {
      callbacks: {
        jwt: ({ token }) => token,
        redirect: ({ url, baseUrl }) => {
          seen.push({ url, baseUrl })
          return url.startsWith(baseUrl) ? url : `${baseUrl}/blocked`
        },
      },
    })
    const { jar, back } = await authorized(s, "twitter", "https://evil.example/steal")
    const res = await callback(s.config, back, jar)
    expect(res.headers.get("location")).toBe(`${ORIGIN}/blocked`)
    expect(seen).toContainEqual({ url: "https://evil.example/steal", baseUrl: ORIGIN })
  })
})

// ---------------------------------------------------------------------------------------------------------

describe("O1-06: RFC 5849 signature vectors", () => {
  // RFC 5849 §3.4.1.1 (and §3.4.1.3.1/§3.4.1.3.2): the example request, its parameters and base string.
  const exampleUrl = new URL("http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b")
  const exampleBody = new URLSearchParams("c2&a3=2+q")
  const exampleOAuth: [string, string][] = [
    ["oauth_consumer_key", "9djdj82h48djs9d2"],
    ["oauth_token", "kkk9d7dh3k39sjv7"],
    ["oauth_signature_method", "HMAC-SHA1"],
    ["oauth_timestamp", "137131201"],
    ["oauth_nonce", "7d8f3e4a"],
  ]
  const exampleParams: [string, string][] = [...exampleUrl.searchParams, ...exampleOAuth, ...exampleBody]
  const EXAMPLE_NORMALIZED =
    "a2=r%20b&a3=2%20q&a3=a&b5=%3D%253D&c%40=&c2=&oauth_consumer_key=9djdj82h48djs9d2&oauth_nonce=7d8f3e4a&oauth_signature_method=HMAC-SHA1&oauth_timestamp=137131201&oauth_token=kkk9d7dh3k39sjv7"
  const EXAMPLE_BASE =
    "POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk9d7dh3k39sjv7"

  it('O1-06 §3.4.1.3.1 decoded parameters: b5 is "=%3D", c@ and c2 empty, a3 twice ("a" and "2 q")', () => {
    expect(exampleParams).toEqual(
      expect.arrayContaining([
        ["b5", "=%3D"],
        ["a3", "a"],
        ["c@", ""],
        ["a2", "r b"],
        ["c2", ""],
        ["a3", "2 q"],
      ]),
    )
  })

  it("O1-06 §3.4.1.3.2 normalized parameters (empty values, repeated keys sorted by value, reserved chars)", () => {
    expect(normalizeParameters(exampleParams)).toBe(EXAMPLE_NORMALIZED)
    expect(rfcNormalize(exampleParams)).toBe(EXAMPLE_NORMALIZED)
  })

  it("O1-06 §3.4.1.1 signature base string of the example request", async () => {
    expect(signatureBaseString("POST", exampleUrl, exampleParams)).toBe(EXAMPLE_BASE)
    expect(rfcBaseString("POST", exampleUrl, exampleParams)).toBe(EXAMPLE_BASE)
    // authorizationHeader signs query + oauth_* + form body: the same string plus its oauth_version.
    const header = await authorizationHeader(
      "POST",
      exampleUrl,
      {
        consumerKey: "9djdj82h48djs9d2",
        consumerSecret: "j49sk3j29djd",
        token: "kkk9d7dh3k39sjv7",
        tokenSecret: "dh893hdasih9",
      },
      {},
      exampleBody,
      137131201,
      "7d8f3e4a",
    )
    const oauth = parseOAuthHeader(header)!
    const expectedBase = rfcBaseString("POST", exampleUrl, [...exampleParams, ["oauth_version", "1.0"]])
    expect(oauth.get("oauth_signature")).toBe(rfcHmacSha1(expectedBase, "j49sk3j29djd", "dh893hdasih9"))
  })

  it("O1-06 §3.4.1.2 base string URI: scheme and host lowercased, default port dropped, other ports kept, no query", () => {
    expect(baseStringUri(new URL("HTTP://EXAMPLE.COM:80/r%20v/X?id=123"))).toBe("http://example.com/r%20v/X")
    expect(baseStringUri(new URL("https://www.example.net:8080/?q=1"))).toBe("https://www.example.net:8080/")
    expect(baseStringUri(new URL("https://api.x.com:443/oauth/request_token#frag"))).toBe(
      "https://api.x.com/oauth/request_token",
    )
    expect(rfcBaseUri(new URL("HTTP://EXAMPLE.COM:80/r%20v/X?id=123"))).toBe("http://example.com/r%20v/X")
  })

  it("O1-06 §1.2 example: the three signed requests of photos.example.net (consumer dpf43f3p2l4k3l03 / kd94hf93k423kf44)", async () => {
    const consumer = ["dpf43f3p2l4k3l03", "kd94hf93k423kf44"] as const
    // Temporary credentials: POST https://photos.example.net/initiate, no token secret.
    const initiate: [string, string][] = [
      ["oauth_consumer_key", consumer[0]],
      ["oauth_signature_method", "HMAC-SHA1"],
      ["oauth_timestamp", "137131200"],
      ["oauth_nonce", "wIjqoS"],
      ["oauth_callback", "http://printer.example.com/ready"],
    ]
    const initiateBase = signatureBaseString("POST", new URL("https://photos.example.net/initiate"), initiate)
    expect(initiateBase).toBe(
      "POST&https%3A%2F%2Fphotos.example.net%2Finitiate&oauth_callback%3Dhttp%253A%252F%252Fprinter.example.com%252Fready%26oauth_consumer_key%3Ddpf43f3p2l4k3l03%26oauth_nonce%3DwIjqoS%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131200",
    )
    expect(await hmacSha1Signature(initiateBase, consumer[1])).toBe("74KNZJeDHnMBp0EMJ9ZHt/XKycU=")
    // Token credentials: POST https://photos.example.net/token with the verifier, token secret hdhd0244k9j7ao03.
    const token: [string, string][] = [
      ["oauth_consumer_key", consumer[0]],
      ["oauth_token", "hh5s93j4hdidpola"],
      ["oauth_signature_method", "HMAC-SHA1"],
      ["oauth_timestamp", "137131201"],
      ["oauth_nonce", "walatlh"],
      ["oauth_verifier", "hfdp7dh39dks9884"],
    ]
    expect(
      await hmacSha1Signature(
        signatureBaseString("POST", new URL("https://photos.example.net/token"), token),
        consumer[1],
        "hdhd0244k9j7ao03",
      ),
    ).toBe("gKgrFCywp7rO0OXSjdot/IHF7IU=")
    // Protected resource: GET http://photos.example.net/photos?file=vacation.jpg&size=original, token nnch734d00sl2jdk / pfkkdhi9sl3r4s00.
    const photos = new URL("http://photos.example.net/photos?file=vacation.jpg&size=original")
    const resource: [string, string][] = [
      ...photos.searchParams,
      ["oauth_consumer_key", consumer[0]],
      ["oauth_token", "nnch734d00sl2jdk"],
      ["oauth_signature_method", "HMAC-SHA1"],
      ["oauth_timestamp", "137131202"],
      ["oauth_nonce", "chapoH"],
    ]
    expect(await hmacSha1Signature(signatureBaseString("GET", photos, resource), consumer[1], "pfkkdhi9sl3r4s00")).toBe(
      "MdpQcU8iPSUjWoN/UDMsK2sui9I=",
    )
  })

  it("O1-06 the photos.example.net resource request with oauth_version=1.0 (OAuth Core 1.0 Appendix A.5): tR3+Ty81lMeYAr/Fid0kMTYa/WM=", async () => {
    const photos = new URL("http://photos.example.net/photos?file=vacation.jpg&size=original")
    const header = await authorizationHeader(
      "GET",
      photos,
      {
        consumerKey: "dpf43f3p2l4k3l03",
        consumerSecret: "kd94hf93k423kf44",
        token: "nnch734d00sl2jdk",
        tokenSecret: "pfkkdhi9sl3r4s00",
      },
      {},
      undefined,
      1191242096,
      "kllo9940pd9333jh",
    )
    const oauth = parseOAuthHeader(header)!
    expect(oauth.get("oauth_signature")).toBe("tR3+Ty81lMeYAr/Fid0kMTYa/WM=")
    expect(header).toContain('oauth_signature="tR3%2BTy81lMeYAr%2FFid0kMTYa%2FWM%3D"')
    expect(Object.fromEntries(oauth)).toEqual({
      oauth_consumer_key: "dpf43f3p2l4k3l03",
      oauth_nonce: "kllo9940pd9333jh",
      oauth_signature_method: "HMAC-SHA1",
      oauth_timestamp: "1191242096",
      oauth_version: "1.0",
      oauth_token: "nnch734d00sl2jdk",
      oauth_signature: "tR3+Ty81lMeYAr/Fid0kMTYa/WM=",
    })
  })

  it("O1-06 §3.6 percent-encoding: unreserved kept, reserved and !*'() encoded, space %20, UTF-8 uppercase hex", () => {
    expect(percentEncode("AZaz09-._~")).toBe("AZaz09-._~")
    expect(percentEncode("!*'()")).toBe("%21%2A%27%28%29")
    expect(percentEncode(":/?#[]@$&+,;= %")).toBe("%3A%2F%3F%23%5B%5D%40%24%26%2B%2C%3B%3D%20%25")
    expect(percentEncode("é")).toBe("%C3%A9")
    expect(percentEncode("日本")).toBe("%E6%97%A5%E6%9C%AC")
    expect(percentEncode("😀")).toBe("%F0%9F%98%80")
    expect(percentEncode("")).toBe("")
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => percentEncode(s) === rfcEncode(s)),
      { numRuns: 500 },
    )
  })

  it("O1-06 normalization matches an independent implementation for Unicode, reserved characters, empty values and repeated keys", () => {
    const key = fc.oneof(
      fc.constantFrom("a", "a3", "A", "c@", "c2", "oauth_x", "é", "%", "z z", ""),
      fc.string({ unit: "binary", maxLength: 6 }),
    )
    const value = fc.oneof(
      fc.constantFrom("", "=", "%3D", "2 q", "+", "a&b", "日本", "😀"),
      fc.string({ unit: "binary", maxLength: 8 }),
    )
    fc.assert(
      fc.property(
        fc.array(fc.tuple(key, value), { maxLength: 12 }),
        (params) => normalizeParameters(params) === rfcNormalize(params),
      ),
      { numRuns: 500 },
    )
  })

  it("O1-06 signed requests with Unicode/reserved query and body values, empty values and repeated keys verify on an independent server", async () => {
    const text = fc.oneof(
      fc.constantFrom("", "a b", "r%20b", "=%3D", "+", "!*'()", "é", "😀"),
      fc.string({ unit: "binary", maxLength: 10 }),
    )
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom("q", "q", "é", "a b", "x!"), text), { maxLength: 5 }),
        fc.array(fc.tuple(fc.constantFrom("status", "status", "ü", "k*"), text), { maxLength: 5 }),
        fc.constantFrom("GET", "POST"),
        text,
        text,
        text,
        async (query, form, method, consumerSecret, tokenSecret, verifier) => {
          const url = new URL("https://API.Example.com:443/1.1/statuses/update.json")
          for (const [k, v] of query) url.searchParams.append(k, v)
          const body = method === "POST" ? new URLSearchParams(form) : undefined
          const header = await authorizationHeader(
            method,
            url,
            { consumerKey: "ck", consumerSecret, token: "tok", tokenSecret },
            { oauth_verifier: verifier },
            body,
          )
          const result = verifyOAuth1({
            method,
            url,
            authorization: header,
            contentType: body ? "application/x-www-form-urlencoded" : undefined,
            body: body?.toString() ?? "",
            consumers: new Map([["ck", consumerSecret]]),
            tokenSecret: (t) => (t === "tok" ? tokenSecret : undefined),
            tokenRequired: true,
            seenNonces: new Set(),
          })
          // A different secret must not verify.
          const wrong = verifyOAuth1({
            method,
            url,
            authorization: header,
            contentType: body ? "application/x-www-form-urlencoded" : undefined,
            body: body?.toString() ?? "",
            consumers: new Map([["ck", `${consumerSecret}x`]]),
            tokenSecret: () => tokenSecret,
            tokenRequired: true,
            seenNonces: new Set(),
          })
          return result.ok && !wrong.ok
        },
      ),
      { numRuns: 300 },
    )
  })

  it("O1-06 nonce unique over 10,000 requests (same timestamp), 128 random bits each", async () => {
    const url = new URL("https://api.x.com/oauth/request_token")
    const nonces = new Set<string>()
    for (let i = 0; i < 10_000; i++) {
      const oauth = parseOAuthHeader(
        await authorizationHeader(
          "POST",
          url,
          { consumerKey: "ck", consumerSecret: "cs" },
          { oauth_callback: "http://localhost:3000/auth/callback/twitter" },
          undefined,
          1_700_000_000,
        ),
      )!
      nonces.add(oauth.get("oauth_nonce")!)
    }
    expect(nonces.size).toBe(10_000)
    const direct = new Set(Array.from({ length: 10_000 }, () => makeNonce()))
    expect(direct.size).toBe(10_000)
    for (const n of [...direct].slice(0, 100)) expect(n).toMatch(/^[0-9a-f]{32}$/)
  })

  it("O1-06 a full sign-in: every signature the library sends verifies on the server, with unique nonces", async () => {
    const s = secured()
    const { jar, back } = await authorized(s)
    const res = await callback(s.config, back, jar)
    expectSignedIn(res, s.log)
    expect(tw.oauth1Failures).toEqual([])
    const signed = tw.requests.filter((r) => r.headers.authorization?.startsWith("OAuth "))
    expect(signed.map((r) => r.path)).toEqual([
      "/oauth/request_token",
      "/oauth/access_token",
      "/1.1/account/verify_credentials.json",
    ])
    const nonces = signed.map((r) => parseOAuthHeader(r.headers.authorization)!.get("oauth_nonce"))
    expect(new Set(nonces).size).toBe(3)
  })
})

// Session-route sanity for the suite: a plain GET never touches the provider.
it("O1 (harness) the session route makes no provider call", async () => {
  const s = secured()
  const res = await Auth(get("/auth/session"), s.config)
  expect(res.status).toBe(200)
  expect(tw.requests).toHaveLength(0)
})
