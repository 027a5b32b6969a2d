// A local Twitter / X on 127.0.0.1 answering as the real API does, for both protocol versions:
//
// OAuth 1.0a (RFC 5849, "3-legged"): POST /oauth/request_token, GET /oauth/authenticate, POST /oauth/access_token,
// GET /1.1/account/verify_credentials.json. Every signed request is verified here with an HMAC-SHA1
// implementation written for the tests (not Gatehouse's): the signature base string of RFC 5849 §3.4.1 over
// the Authorization header's oauth_* parameters, the query and a form body, keyed with the consumer secret and
// the token secret; the consumer key, signature method, version, timestamp window and nonce reuse are checked
// too. A failure answers 401 like Twitter ({"errors":[{"code":32,"message":"Could not authenticate you."}]}).
//
// OAuth 2 (version "2.0"): GET /i/oauth2/authorize (PKCE S256 and state required), POST /2/oauth2/token
// (confidential client: HTTP Basic), GET /2/users/me (Bearer) returning only the requested `user.fields` and,
// for `expansions=pinned_tweet_id`, the pinned post in `includes.tweets`.
//
// Signatures are checked against the URL the client signed: the request's own URL, or the x-test-original-url
// header when the request came through the routing customFetch (provider-kit.ts).
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { AuthConfig } from "../../src/index.js"
import Twitter, { type TwitterOptions } from "../../src/providers/twitter.js"
import { ORIGIN } from "./flow-kit.js"
import {
  type LocalServer,
  type Recorded,
  freshValue,
  sendJson,
  sendRedirect,
  sendText,
  startLocalServer,
} from "./provider-kit.js"

// ---------------------------------------------------------------------------------------------
// RFC 5849 written from the RFC for the tests

/** RFC 5849 §3.6: RFC 3986 unreserved characters stay, everything else is %XX of its UTF-8 bytes (uppercase). */
export function rfcEncode(value: string): string {
  let out = ""
  for (const byte of Buffer.from(value, "utf8")) {
    const c = String.fromCharCode(byte)
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`
  }
  return out
}

/** RFC 5849 §3.4.1.2 base string URI. */
export function rfcBaseUri(url: URL): string {
  const scheme = url.protocol.slice(0, -1).toLowerCase()
  const host = url.hostname.toLowerCase()
  const port =
    url.port && !((scheme === "http" && url.port === "80") || (scheme === "https" && url.port === "443"))
      ? `:${url.port}`
      : ""
  return `${scheme}://${host}${port}${url.pathname || "/"}`
}

/** RFC 5849 §3.4.1.3.2: encode, sort by name then value (byte order of the encoded strings), join. */
export function rfcNormalize(params: [string, string][]): string {
  const encoded = params.map(([k, v]) => [rfcEncode(k), rfcEncode(v)] as const)
  encoded.sort(
    (a, b) =>
      Buffer.compare(Buffer.from(a[0]), Buffer.from(b[0])) || Buffer.compare(Buffer.from(a[1]), Buffer.from(b[1])),
  )
  return encoded.map(([k, v]) => `${k}=${v}`).join("&")
}

export function rfcBaseString(method: string, url: URL, params: [string, string][]): string {
  return [method.toUpperCase(), rfcEncode(rfcBaseUri(url)), rfcEncode(rfcNormalize(params))].join("&")
}

export function rfcHmacSha1(base: string, consumerSecret: string, tokenSecret = ""): string {
  return createHmac("sha1", `${rfcEncode(consumerSecret)}&${rfcEncode(tokenSecret)}`)
    .update(base)
    .digest("base64")
}

/** RFC 5849 §3.5.1: `OAuth name="value", ...` with percent-encoded names and values; `realm` kept apart. */
export function parseOAuthHeader(header: string | undefined): Map<string, string> | undefined {
  if (!header || !/^OAuth\s/i.test(header)) return undefined
  const out = new Map<string, string>()
  const re = /\s*([^=\s,]+)="([^"]*)"\s*(,|$)/y
  const rest = header.replace(/^OAuth\s+/i, "")
  re.lastIndex = 0
  let m: RegExpExecArray | null
  let consumed = 0
  while ((m = re.exec(rest)) !== null) {
    const name = decodeURIComponent(m[1]!)
    if (out.has(name)) return undefined // a protocol parameter must not appear twice
    out.set(name, decodeURIComponent(m[2]!))
    consumed = re.lastIndex
    if (m[3] === "") break
  }
  return consumed === rest.length ? out : undefined
}

export interface VerifyInput {
  method: string
  /** The URL the client signed (scheme, host, port, path, query). */
  url: URL
  authorization: string | undefined
  contentType: string | undefined
  body: string
  consumers: Map<string, string>
  /** Returns the token secret for an oauth_token, or undefined when the token is unknown. */
  tokenSecret: (token: string) => string | undefined
  /** Token-less requests (request_token) use an empty token secret. */
  tokenRequired: boolean
  seenNonces: Set<string>
  now?: number
}

export type VerifyResult = { ok: true; oauth: Map<string, string> } | { ok: false; reason: string }

/** The server side of RFC 5849 §3.2: verify a signed request. */
export function verifyOAuth1(x: VerifyInput): VerifyResult {
  const oauth = parseOAuthHeader(x.authorization)
  if (!oauth) return { ok: false, reason: "no or malformed OAuth Authorization header" }
  const consumerKey = oauth.get("oauth_consumer_key")
  const consumerSecret = consumerKey === undefined ? undefined : x.consumers.get(consumerKey)
  if (consumerSecret === undefined) return { ok: false, reason: "unknown consumer key" }
  if (oauth.get("oauth_signature_method") !== "HMAC-SHA1") return { ok: false, reason: "signature method" }
  if (oauth.has("oauth_version") && oauth.get("oauth_version") !== "1.0") return { ok: false, reason: "version" }
  const timestamp = Number(oauth.get("oauth_timestamp"))
  const now = x.now ?? Math.floor(Date.now() / 1000)
  if (!Number.isInteger(timestamp) || Math.abs(now - timestamp) > 300)
    return { ok: false, reason: "timestamp out of window" }
  const nonce = oauth.get("oauth_nonce")
  if (!nonce) return { ok: false, reason: "no nonce" }
  const nonceKey = `${consumerKey}\u0000${timestamp}\u0000${nonce}\u0000${oauth.get("oauth_token") ?? ""}`
  if (x.seenNonces.has(nonceKey)) return { ok: false, reason: "nonce reused" }
  let tokenSecret = ""
  const token = oauth.get("oauth_token")
  if (x.tokenRequired || token !== undefined) {
    const secret = token === undefined ? undefined : x.tokenSecret(token)
    if (secret === undefined) return { ok: false, reason: "unknown token" }
    tokenSecret = secret
  }
  const signature = oauth.get("oauth_signature")
  if (!signature) return { ok: false, reason: "no signature" }
  const params: [string, string][] = [...x.url.searchParams]
  for (const [k, v] of oauth) if (k !== "oauth_signature" && k !== "realm") params.push([k, v])
  if ((x.contentType ?? "").split(";")[0]!.trim().toLowerCase() === "application/x-www-form-urlencoded")
    params.push(...new URLSearchParams(x.body))
  const expected = Buffer.from(rfcHmacSha1(rfcBaseString(x.method, x.url, params), consumerSecret, tokenSecret))
  const given = Buffer.from(signature)
  if (expected.length !== given.length || !timingSafeEqual(expected, given))
    return { ok: false, reason: "signature mismatch" }
  x.seenNonces.add(nonceKey)
  return { ok: true, oauth }
}

// ---------------------------------------------------------------------------------------------
// The server

export interface LegacyUser {
  /** Raw JSON of the numeric id (may exceed 2^53: id_str is the safe one). */
  idJson: string
  id_str: string
  name: string
  screen_name: string
  email: string
  profile_image_url_https: string
}

export interface V2User {
  id: string
  name: string
  username: string
  description: string
  location: string
  url: string
  verified: boolean
  protected: boolean
  created_at: string
  profile_image_url: string
  pinned_tweet_id: string
  pinnedText: string
}

export interface FakeTwitter extends LocalServer {
  consumerKey: string
  consumerSecret: string
  clientId: string
  clientSecret: string
  legacyUser: LegacyUser
  v2User: V2User
  /** What the simulated user does on the authorize page. */
  decision: "approve" | "deny"
  /** OAuth 1.0a: the "Request email address from users" app permission. */
  emailPermission: boolean
  /** OAuth 1.0a: what oauth_callback_confirmed the request-token answer carries ("missing" leaves it out). */
  callbackConfirmed: "true" | "false" | "missing"
  /** Why a signed request was refused, per path. */
  oauth1Failures: { path: string; reason: string }[]
  /** OAuth 1.0a: the issued request tokens (for fixation tests). */
  requestTokens: Map<string, { secret: string; callback: string; verifier?: string }>
  /** Every token, secret, verifier and code handed out (I5 checks). */
  issued: string[]
  reset(): void
}

const LEGACY: LegacyUser = {
  idJson: "1349149096909668363",
  id_str: "1349149096909668363",
  name: "Tess Tweeter",
  screen_name: "tess",
  email: "Tess@Example.COM",
  profile_image_url_https: "https://pbs.twimg.com/profile_images/1349149/tess_avatar_normal.jpg",
}

const V2: V2User = {
  id: "1349149096909668363",
  name: "Tess Tweeter",
  username: "tess",
  description: "Posting #tests",
  location: "Localhost",
  url: "https://t.co/tess",
  verified: false,
  protected: false,
  created_at: "2021-01-13T00:00:00.000Z",
  profile_image_url: "https://pbs.twimg.com/profile_images/1349149/tess_avatar_normal.png",
  pinned_tweet_id: "1610000000000000001",
  pinnedText: "my pinned post",
}

const V2_FIELDS = new Set([
  "created_at",
  "description",
  "entities",
  "id",
  "location",
  "name",
  "pinned_tweet_id",
  "profile_image_url",
  "protected",
  "url",
  "username",
  "verified",
])

function authFailure(res: ServerResponse, record: Recorded): void {
  sendJson(res, record, 401, { errors: [{ code: 32, message: "Could not authenticate you." }] })
}

export async function startFakeTwitter(): Promise<FakeTwitter> {
  const seenNonces = new Set<string>()
  const accessTokens = new Map<string, string>() // token -> secret
  const codes = new Map<string, { redirectUri: string; challenge: string; scope: string }>()
  const bearers = new Set<string>()
  const tw = {} as FakeTwitter
  const fresh = (prefix: string) => freshValue(tw.issued, prefix)
  const signedUrl = (req: IncomingMessage, record: Recorded): URL =>
    new URL(record.originalUrl ?? `http://${req.headers.host}${req.url}`)

  const server = await startLocalServer(async (req, res, record) => {
    const consumers = new Map([[tw.consumerKey, tw.consumerSecret]])
    const verify = (tokenSecret: (t: string) => string | undefined, tokenRequired: boolean) => {
      const result = verifyOAuth1({
        method: record.method,
        url: signedUrl(req, record),
        authorization: req.headers.authorization,
        contentType: req.headers["content-type"],
        body: record.body,
        consumers,
        tokenSecret,
        tokenRequired,
        seenNonces,
      })
      if (!result.ok) tw.oauth1Failures.push({ path: record.path, reason: result.reason })
      return result
    }

    // ----- OAuth 1.0a
    if (record.path === "/oauth/request_token" && record.method === "POST") {
      const v = verify(() => undefined, false)
      if (!v.ok) return authFailure(res, record)
      const callback = v.oauth.get("oauth_callback")
      if (!callback) return authFailure(res, record)
      const token = fresh("rt-")
      const secret = fresh("rts-")
      tw.requestTokens.set(token, { secret, callback })
      const answer = new URLSearchParams({ oauth_token: token, oauth_token_secret: secret })
      if (tw.callbackConfirmed !== "missing") answer.set("oauth_callback_confirmed", tw.callbackConfirmed)
      return sendText(res, record, 200, answer.toString())
    }
    if (record.path === "/oauth/authenticate" && record.method === "GET") {
      const token = record.query.get("oauth_token") ?? ""
      const entry = tw.requestTokens.get(token)
      if (!entry) return sendText(res, record, 400, "Whoa there! The request token for this page is invalid.")
      const back = new URL(entry.callback)
      if (tw.decision === "deny") {
        back.searchParams.set("denied", token)
      } else {
        entry.verifier = fresh("ver-")
        back.searchParams.set("oauth_token", token)
        back.searchParams.set("oauth_verifier", entry.verifier)
      }
      return sendRedirect(res, record, back.href)
    }
    if (record.path === "/oauth/access_token" && record.method === "POST") {
      const v = verify((t) => tw.requestTokens.get(t)?.secret, true)
      if (!v.ok) return authFailure(res, record)
      const token = v.oauth.get("oauth_token")!
      const entry = tw.requestTokens.get(token)!
      const verifier = v.oauth.get("oauth_verifier") ?? new URLSearchParams(record.body).get("oauth_verifier")
      if (!entry.verifier || verifier !== entry.verifier) {
        tw.oauth1Failures.push({ path: record.path, reason: "bad verifier" })
        return sendText(res, record, 401, "Error processing your OAuth request: Invalid oauth_verifier parameter")
      }
      tw.requestTokens.delete(token) // a request token is single use
      const accessToken = `${tw.legacyUser.id_str}-${fresh("")}`
      const accessSecret = fresh("ats-")
      accessTokens.set(accessToken, accessSecret)
      return sendText(
        res,
        record,
        200,
        new URLSearchParams({
          oauth_token: accessToken,
          oauth_token_secret: accessSecret,
          user_id: tw.legacyUser.id_str,
          screen_name: tw.legacyUser.screen_name,
        }).toString(),
      )
    }
    if (record.path === "/1.1/account/verify_credentials.json" && record.method === "GET") {
      const v = verify((t) => accessTokens.get(t), true)
      if (!v.ok) return authFailure(res, record)
      const u = tw.legacyUser
      const withEmail = tw.emailPermission && record.query.get("include_email") === "true"
      // Hand-written JSON: the numeric id is larger than 2^53, as Twitter's are.
      const raw =
        `{"id":${u.idJson},"id_str":${JSON.stringify(u.id_str)},"name":${JSON.stringify(u.name)},"screen_name":${JSON.stringify(u.screen_name)},` +
        `"profile_image_url_https":${JSON.stringify(u.profile_image_url_https)},"followers_count":12${withEmail ? `,"email":${JSON.stringify(u.email)}` : ""}}`
      return sendJson(res, record, 200, undefined, raw)
    }

    // ----- OAuth 2
    if (record.path === "/i/oauth2/authorize" && record.method === "GET") {
      const q = record.query
      const redirectUri = q.get("redirect_uri") ?? ""
      if (q.get("client_id") !== tw.clientId || redirectUri !== `${ORIGIN}/auth/callback/twitter`)
        return sendText(res, record, 400, "Something went wrong: invalid client or redirect_uri")
      if (
        q.get("response_type") !== "code" ||
        !q.get("state") ||
        !q.get("code_challenge") ||
        q.get("code_challenge_method") !== "S256" ||
        !q.get("scope")
      ) {
        return sendText(res, record, 400, "Something went wrong: missing parameters")
      }
      const back = new URL(redirectUri)
      if (tw.decision === "deny") {
        back.searchParams.set("error", "access_denied")
      } else {
        const code = fresh("code-")
        codes.set(code, { redirectUri, challenge: q.get("code_challenge")!, scope: q.get("scope")! })
        back.searchParams.set("code", code)
      }
      back.searchParams.set("state", q.get("state")!)
      return sendRedirect(res, record, back.href)
    }
    if (record.path === "/2/oauth2/token" && record.method === "POST") {
      const expected = `Basic ${Buffer.from(`${tw.clientId}:${tw.clientSecret}`).toString("base64")}`
      if (req.headers.authorization !== expected)
        return sendJson(res, record, 401, {
          error: "unauthorized_client",
          error_description: "Missing valid authorization header",
        })
      if (!(req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded"))
        return sendJson(res, record, 400, { error: "invalid_request" })
      const body = new URLSearchParams(record.body)
      const grant = codes.get(body.get("code") ?? "")
      codes.delete(body.get("code") ?? "")
      if (body.get("grant_type") !== "authorization_code" || !grant || grant.redirectUri !== body.get("redirect_uri")) {
        return sendJson(res, record, 400, {
          error: "invalid_request",
          error_description: "Value passed for the authorization code was invalid.",
        })
      }
      if (
        createHash("sha256")
          .update(body.get("code_verifier") ?? "")
          .digest("base64url") !== grant.challenge
      ) {
        return sendJson(res, record, 400, {
          error: "invalid_request",
          error_description: "Value passed for the code verifier did not match the code challenge.",
        })
      }
      const accessToken = fresh("at2-")
      bearers.add(accessToken)
      return sendJson(res, record, 200, {
        token_type: "bearer",
        expires_in: 7200,
        access_token: accessToken,
        scope: grant.scope,
        refresh_token: fresh("rt2-"),
      })
    }
    if (record.path === "/2/users/me" && record.method === "GET") {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1]
      if (!token || !bearers.has(token))
        return sendJson(res, record, 401, {
          title: "Unauthorized",
          type: "about:blank",
          status: 401,
          detail: "Unauthorized",
        })
      const fields = (record.query.get("user.fields") ?? "").split(",").filter(Boolean)
      const unknown = fields.filter((f) => !V2_FIELDS.has(f))
      if (unknown.length)
        return sendJson(res, record, 400, {
          errors: [
            {
              parameters: { "user.fields": unknown },
              message: `The \`user.fields\` query parameter value [${unknown[0]}] is not one of [...]`,
            },
          ],
          title: "Invalid Request",
        })
      const u = tw.v2User
      const data: Record<string, unknown> = { id: u.id, name: u.name, username: u.username }
      for (const f of fields) {
        if (f === "entities")
          data.entities = {
            description: { hashtags: [{ start: 8, end: 14, tag: "tests" }] },
            url: {
              urls: [
                { start: 0, end: 17, url: u.url, expanded_url: "https://tess.example", display_url: "tess.example" },
              ],
            },
          }
        else if (f in u) data[f] = u[f as keyof V2User]
      }
      const expansions = (record.query.get("expansions") ?? "").split(",").filter(Boolean)
      const body: Record<string, unknown> = { data }
      if (expansions.includes("pinned_tweet_id"))
        body.includes = { tweets: [{ id: u.pinned_tweet_id, text: u.pinnedText }] }
      return sendJson(res, record, 200, body)
    }
  })

  Object.assign(tw, server, {
    consumerKey: "tw-consumer-key",
    consumerSecret: `tw-consumer-secret-${randomBytes(6).toString("hex")}`,
    clientId: "tw-oauth2-client",
    clientSecret: `tw-oauth2-secret-${randomBytes(6).toString("hex")}`,
    issued: [],
    reset() {
      tw.legacyUser = { ...LEGACY }
      tw.v2User = { ...V2 }
      tw.decision = "approve"
      tw.emailPermission = true
      tw.callbackConfirmed = "true"
      tw.oauth1Failures = []
      tw.requestTokens = new Map()
      tw.requests.length = 0
    },
  })
  tw.reset()
  return tw
}

/** The real hosts the Twitter provider talks to (routed to the local server by routingFetch / localize). */
export const TWITTER_ORIGINS = ["https://api.x.com", "https://x.com"] as const

/** The built-in Twitter provider (OAuth 1.0a) pointed at the fake's four endpoints, e-mail requested. */
export function twitterOAuth1(tw: FakeTwitter, extra: TwitterOptions = {}): AuthConfig["providers"][number] {
  return Twitter({
    clientId: tw.consumerKey,
    clientSecret: tw.consumerSecret,
    requestTokenUrl: `${tw.url}/oauth/request_token`,
    authorizationUrl: `${tw.url}/oauth/authenticate`,
    accessTokenUrl: `${tw.url}/oauth/access_token`,
    profileUrl: `${tw.url}/1.1/account/verify_credentials.json?include_email=true`,
    ...extra,
  }) as AuthConfig["providers"][number]
}
