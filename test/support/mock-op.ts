// A small, fully controllable OpenID Provider for negative OAuth 2 / OIDC tests (docs/security.md §1.A).
//
// node:http on 127.0.0.1 with an OS-chosen port; issuer `http://127.0.0.1:<port>/op` (a path avoids the
// trailing-slash question). Everything the relying party can meet is a switch on the instance:
//
// - `idTokenFault`: the ID token fault, named after the OpenID conformance-suite RP modules
//   (`oidcc-client-test-invalid-iss`, `…-missing-aud`, `…-invalid-sig-rs256`, …; see IdTokenFault).
// - `tokenFault`: token-endpoint faults (500, non-JSON, 200 + {error}, 50 MB, no access_token, no id_token,
//   3xx, token_type "BEARER", hanging forever, invalid_grant).
// - `userinfoFault`: a UserInfo `sub` other than the ID token's.
// - Keys: RSA `rsa-1`, `rsa-2` and EC P-256 `ec-1`; `jwksKids` says which are published, `signingKid` which
//   one signs (key rotation), `kidMode` whether the JWS header carries the kid, an unknown one, or none.
// - Metadata: `issParameterSupported` (RFC 9207 `authorization_response_iss_parameter_supported`), `sendIss`
//   (whether the authorization response carries `iss`), `signingAlgValues`.
//
// The token endpoint is strict like a real AS: client authentication (basic/post/none per config), the code
// single use and bound to client_id + redirect_uri, PKCE S256 checked (a verifier without a challenge is
// refused, RFC 9700 §4.8). `counts` records every request per endpoint, so tests can assert I3 (no token,
// userinfo or JWKS call after a failed pre-check); `issued` holds every code, token and verifier seen, so
// tests can assert I5 (none of them in a response body or a log).
import { createHash, createHmac, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { type Listening, listenLocal, readBody, writeJson } from "./listen.js"

/** ID token faults; each name follows the conformance module it reproduces (`oidcc-client-test-<name>`). */
export type IdTokenFault =
  | "invalid-iss" // iss = another issuer
  | "missing-iss"
  | "invalid-aud" // aud = another client
  | "missing-aud"
  | "invalid-secondary-aud" // aud = [client_id, untrusted], no azp
  | "invalid-secondary-aud-with-azp" // aud = [client_id, untrusted], azp = client_id (OIDC Core 3.1.3.7 step 3: still untrusted)
  | "invalid-azp" // aud = [client_id, other], azp = other
  | "valid-aud-as-array" // aud = [client_id] (must be accepted)
  | "invalid-sig-rs256" // RS256, signature bytes altered
  | "invalid-sig-es256" // ES256, signature bytes altered
  | "invalid-sig-hs256" // HS256 keyed with the wrong secret
  | "idtoken-sig-none" // alg "none", empty signature
  | "invalid-null-alg" // alg JSON null, empty signature
  | "hs256-rsa-public-key" // HS256 whose HMAC key is the RSA public key PEM (key confusion)
  | "alternate-alg-es256" // validly ES256-signed while RS256 is registered
  | "invalid-expired-exp" // exp two minutes ago (beyond 30 s tolerance)
  | "invalid-missing-exp"
  | "missing-iat"
  | "iat-is-week-in-past"
  | "nbf-in-future" // nbf ten minutes ahead
  | "nonce-invalid"
  | "invalid-missing-nonce"
  | "missing-sub"

/** Token endpoint faults. */
export type TokenFault =
  | "status-500"
  | "non-json" // 200 text/html
  | "error-in-200" // 200 {"error":"invalid_grant"}
  | "huge-body" // 50 MB, chunked (no Content-Length)
  | "huge-body-declared" // 50 MB with Content-Length
  | "no-access-token"
  | "no-id-token"
  | "redirect" // 302 to a URL that would answer good tokens
  | "token-type-uppercase" // token_type "BEARER" (must be accepted)
  | "hang" // never answers
  | "invalid-grant" // 400 invalid_grant whatever was sent

export type UserinfoFault = "invalid-sub"

/** Which `kid` the JWS header carries. */
export type KidMode = "signing" | "absent" | "unknown"

export type KeyId = "rsa-1" | "rsa-2" | "ec-1"

export interface MockOpOptions {
  clientId?: string
  clientSecret?: string
  tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post" | "none"
  /** The issuer's path on the server. Default "/op". */
  issuerPath?: string
}

export interface IssuedCode {
  code: string
  clientId: string
  redirectUri: string
  codeChallenge: string | undefined
  codeChallengeMethod: string | undefined
  nonce: string | undefined
  scope: string
  sub: string
  used: boolean
}

export interface TokenRequestRecord {
  authorization: string | undefined
  body: URLSearchParams
  status: number
  error?: string
}

export interface Counts {
  discovery: number
  authorize: number
  token: number
  /** Hits on the target of the "redirect" token fault (must stay 0: redirects are not followed). */
  tokenRedirectTarget: number
  userinfo: number
  jwks: number
}

/** The authorization response as the browser would carry it back to the RP. */
export interface AuthorizationResponse {
  /** The redirect_uri the OP answered to. */
  redirectUri: string
  params: URLSearchParams
  responseMode: "query" | "form_post"
  /** The callback URL with the params in the query (query mode), for convenience. */
  url: URL
}

const DEFAULT_SUB = "mock-user-1"

function b64u(input: Buffer | string): string {
  return Buffer.from(input).toString("base64url")
}

function formDecode(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, " "))
}

function html(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

export class MockOp {
  readonly clientId: string
  readonly clientSecret: string
  /** The client authentication the token endpoint demands (reset() restores the constructor's choice). */
  tokenEndpointAuthMethod: "client_secret_basic" | "client_secret_post" | "none"
  private readonly initialAuthMethod: "client_secret_basic" | "client_secret_post" | "none"
  readonly issuerPath: string
  origin = ""
  issuer = ""

  // --- switches (reset() restores the defaults) ---
  idTokenFault: IdTokenFault | undefined
  tokenFault: TokenFault | undefined
  userinfoFault: UserinfoFault | undefined
  /** RFC 9207 metadata flag. */
  issParameterSupported = true
  /** Whether the authorization response carries `iss`. */
  sendIss = true
  /** Keys published in the JWKS. */
  jwksKids: KeyId[] = ["rsa-1"]
  /** The key that signs RS256/ES256 ID tokens (must match the alg: rsa-* for RS256, ec-1 for ES256). */
  signingKid: KeyId = "rsa-1"
  kidMode: KidMode = "signing"
  /** The algorithm ID tokens are signed with (RS256, ES256, HS256 keyed by the client secret). */
  signingAlg: "RS256" | "ES256" | "HS256" = "RS256"
  /** `id_token_signing_alg_values_supported` in the metadata. */
  signingAlgValues: string[] = ["RS256", "ES256", "HS256"]
  /** Extra claims merged into (or, with `undefined` values, removed from) every ID token. */
  extraClaims: Record<string, unknown> = {}
  /** The subject the next authorization is for. */
  subject = DEFAULT_SUB
  /** The UserInfo response's claims (besides `sub`). */
  userinfoClaims: Record<string, unknown> = {
    name: "Userinfo Name",
    email: "userinfo@op.example",
    email_verified: true,
  }
  /** UserInfo answered as an RS256 JWT (application/jwt) with iss and aud, signed by `rsa-1` (OIDC Core §5.3.2). */
  signedUserinfo = false

  // --- records ---
  counts: Counts = MockOp.zeroCounts()
  readonly authorizationRequests: URLSearchParams[] = []
  readonly tokenRequests: TokenRequestRecord[] = []
  readonly codes = new Map<string, IssuedCode>()
  /** Every code, token and PKCE verifier the OP issued or received: none may appear in RP output (I5). */
  readonly issued = new Set<string>()
  /** Bytes of the huge token answers handed to the socket (the RP must stop reading long before 50 MB). */
  hugeBytesWritten = 0
  /** Hanging token requests the client gave up on (closed before any answer): the RP's timeout at work. */
  abandonedHangs = 0

  private readonly accessTokens = new Map<string, string>()
  private readonly keys: Record<KeyId, { privateKey: KeyObject; publicKey: KeyObject; alg: "RS256" | "ES256" }>
  private listening: Listening | undefined
  private readonly hanging = new Set<ServerResponse>()

  constructor(options: MockOpOptions = {}) {
    this.clientId = options.clientId ?? "mock-client"
    this.clientSecret = options.clientSecret ?? `mock-secret-${randomBytes(12).toString("hex")}`
    this.tokenEndpointAuthMethod = options.tokenEndpointAuthMethod ?? "client_secret_basic"
    this.initialAuthMethod = this.tokenEndpointAuthMethod
    this.issuerPath = options.issuerPath ?? "/op"
    const rsa = () => generateKeyPairSync("rsa", { modulusLength: 2048 })
    this.keys = {
      "rsa-1": { ...rsa(), alg: "RS256" },
      "rsa-2": { ...rsa(), alg: "RS256" },
      "ec-1": { ...generateKeyPairSync("ec", { namedCurve: "P-256" }), alg: "ES256" },
    }
  }

  static zeroCounts(): Counts {
    return { discovery: 0, authorize: 0, token: 0, tokenRedirectTarget: 0, userinfo: 0, jwks: 0 }
  }

  /** Starts the server on 127.0.0.1 with an OS-chosen port. */
  async start(): Promise<this> {
    const server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) writeJson(res, 500, { error: "server_error", error_description: String(error) })
        else res.destroy()
      })
    })
    this.listening = await listenLocal(server)
    this.origin = this.listening.origin
    this.issuer = `${this.origin}${this.issuerPath}`
    return this
  }

  async stop(): Promise<void> {
    this.dropHanging()
    await this.listening?.stop()
  }

  /** Restores every switch and clears the records (keys stay). */
  reset(): void {
    this.idTokenFault = undefined
    this.tokenFault = undefined
    this.userinfoFault = undefined
    this.issParameterSupported = true
    this.sendIss = true
    this.jwksKids = ["rsa-1"]
    this.signingKid = "rsa-1"
    this.kidMode = "signing"
    this.signingAlg = "RS256"
    this.signingAlgValues = ["RS256", "ES256", "HS256"]
    this.extraClaims = {}
    this.subject = DEFAULT_SUB
    this.tokenEndpointAuthMethod = this.initialAuthMethod
    this.userinfoClaims = { name: "Userinfo Name", email: "userinfo@op.example", email_verified: true }
    this.signedUserinfo = false
    this.counts = MockOp.zeroCounts()
    this.authorizationRequests.length = 0
    this.tokenRequests.length = 0
    this.hugeBytesWritten = 0
    this.abandonedHangs = 0
    this.dropHanging()
  }

  /** Closes the hanging answers from this side (not counted as abandoned by the client). */
  private dropHanging(): void {
    const open = [...this.hanging]
    this.hanging.clear()
    for (const res of open) res.destroy()
  }

  get endpoints(): { authorization: string; token: string; userinfo: string; jwks: string; discovery: string } {
    return {
      authorization: `${this.issuer}/authorize`,
      token: `${this.issuer}/token`,
      userinfo: `${this.issuer}/userinfo`,
      jwks: `${this.issuer}/jwks`,
      discovery: `${this.issuer}/.well-known/openid-configuration`,
    }
  }

  metadata(): Record<string, unknown> {
    const e = this.endpoints
    return {
      issuer: this.issuer,
      authorization_endpoint: e.authorization,
      token_endpoint: e.token,
      userinfo_endpoint: e.userinfo,
      jwks_uri: e.jwks,
      response_types_supported: ["code"],
      response_modes_supported: ["query", "form_post"],
      grant_types_supported: ["authorization_code"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: this.signingAlgValues,
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
      code_challenge_methods_supported: ["S256"],
      scopes_supported: ["openid", "profile", "email"],
      authorization_response_iss_parameter_supported: this.issParameterSupported,
    }
  }

  jwks(): { keys: Record<string, unknown>[] } {
    return {
      keys: this.jwksKids.map((kid) => {
        const k = this.keys[kid]
        return { ...k.publicKey.export({ format: "jwk" }), kid, use: "sig", alg: k.alg }
      }),
    }
  }

  /** The RSA public key as PEM (the HS256 key-confusion attack uses it as an HMAC secret). */
  publicKeyPem(kid: KeyId = "rsa-1"): string {
    return this.keys[kid].publicKey.export({ format: "pem", type: "spki" }).toString()
  }

  /** Issues a code for an authorization request's query (redirect_uri, PKCE challenge, nonce, scope), as the endpoint does. */
  issueCodeFor(query: URLSearchParams): string {
    return this.issueCode({
      redirectUri: query.get("redirect_uri") ?? "",
      codeChallenge: query.get("code_challenge") ?? undefined,
      codeChallengeMethod: query.get("code_challenge_method") ?? undefined,
      nonce: query.get("nonce") ?? undefined,
      scope: query.get("scope") ?? "",
    })
  }

  /**
   * Mints a code as the authorization endpoint would, without an HTTP round trip: e.g. the attacker's own
   * valid code for the code-injection case (OA-08).
   */
  issueCode(input: {
    redirectUri: string
    codeChallenge?: string
    codeChallengeMethod?: string
    nonce?: string
    scope?: string
    sub?: string
    clientId?: string
  }): string {
    const code = `code-${randomBytes(18).toString("base64url")}`
    this.codes.set(code, {
      code,
      clientId: input.clientId ?? this.clientId,
      redirectUri: input.redirectUri,
      codeChallenge: input.codeChallenge,
      codeChallengeMethod: input.codeChallengeMethod,
      nonce: input.nonce,
      scope: input.scope ?? "openid profile email",
      sub: input.sub ?? this.subject,
      used: false,
    })
    this.issued.add(code)
    return code
  }

  /** Follows an authorization URL the RP produced (one real HTTP request) and returns the OP's answer. */
  async authorize(authorizationUrl: string | URL): Promise<AuthorizationResponse> {
    const res = await fetch(authorizationUrl, { redirect: "manual" })
    if (res.status === 302) {
      const location = new URL(res.headers.get("location") as string)
      const params = new URLSearchParams(location.search)
      const redirectUri = `${location.origin}${location.pathname}`
      return { redirectUri, params, responseMode: "query", url: location }
    }
    const text = await res.text()
    if (res.status !== 200) throw new Error(`mock OP authorize answered ${res.status}: ${text}`)
    const action = /action="([^"]+)"/.exec(text)?.[1]
    if (!action) throw new Error("mock OP authorize: no form_post form")
    const params = new URLSearchParams()
    for (const m of text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
      params.append(
        m[1] as string,
        (m[2] as string).replace(/&#(\d+);/g, (_, d: string) => String.fromCharCode(Number(d))),
      )
    }
    const redirectUri = action.replace(/&#(\d+);/g, (_, d: string) => String.fromCharCode(Number(d)))
    const url = new URL(redirectUri)
    url.search = params.toString()
    return { redirectUri, params, responseMode: "form_post", url }
  }

  // ------------------------------------------------------------------------------------------------
  // Request handling

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", this.origin)
    const path = url.pathname.startsWith(this.issuerPath)
      ? url.pathname.slice(this.issuerPath.length)
      : `!${url.pathname}`
    switch (`${req.method} ${path}`) {
      case "GET /.well-known/openid-configuration":
        this.counts.discovery++
        return writeJson(res, 200, this.metadata())
      case "GET /jwks":
        this.counts.jwks++
        return writeJson(res, 200, this.jwks(), { "Content-Type": "application/jwk-set+json" })
      case "GET /authorize":
        this.counts.authorize++
        return this.authorizeEndpoint(url.searchParams, res)
      case "POST /token":
        this.counts.token++
        return this.tokenEndpoint(req, res)
      case "POST /token-redirect-target":
      case "GET /token-redirect-target":
        this.counts.tokenRedirectTarget++
        return writeJson(res, 200, { access_token: "redirected-at", token_type: "Bearer", id_token: "x.y.z" })
      case "GET /userinfo":
      case "POST /userinfo":
        this.counts.userinfo++
        return this.userinfoEndpoint(req, res)
      default:
        return writeJson(res, 404, { error: "not_found" })
    }
  }

  private authorizeEndpoint(query: URLSearchParams, res: ServerResponse): void {
    this.authorizationRequests.push(new URLSearchParams(query))
    const redirectUri = query.get("redirect_uri")
    if (!redirectUri || query.get("client_id") !== this.clientId || query.get("response_type") !== "code") {
      return writeJson(res, 400, { error: "invalid_request" })
    }
    const code = this.issueCodeFor(query)
    const params = new URLSearchParams({ code })
    const state = query.get("state")
    if (state !== null) params.set("state", state)
    if (this.sendIss) params.set("iss", this.issuer)
    if (query.get("response_mode") === "form_post") {
      const inputs = [...params].map(([k, v]) => `<input type="hidden" name="${html(k)}" value="${html(v)}">`).join("")
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" })
      res.end(
        `<!DOCTYPE html><html><body onload="document.forms[0].submit()"><form method="post" action="${html(redirectUri)}">${inputs}</form></body></html>`,
      )
      return
    }
    const target = new URL(redirectUri)
    for (const [k, v] of params) target.searchParams.append(k, v)
    res.writeHead(302, { Location: target.href, "Cache-Control": "no-store" })
    res.end()
  }

  private authenticateClient(req: IncomingMessage, body: URLSearchParams): string | undefined {
    const header = req.headers.authorization
    switch (this.tokenEndpointAuthMethod) {
      case "client_secret_basic": {
        if (!header?.startsWith("Basic ")) return undefined
        const decoded = Buffer.from(header.slice(6), "base64").toString("utf8")
        const i = decoded.indexOf(":")
        if (i < 0) return undefined
        const id = formDecode(decoded.slice(0, i))
        const secret = formDecode(decoded.slice(i + 1))
        return id === this.clientId && secret === this.clientSecret && !body.has("client_secret") ? id : undefined
      }
      case "client_secret_post":
        return !header && body.get("client_id") === this.clientId && body.get("client_secret") === this.clientSecret
          ? this.clientId
          : undefined
      case "none":
        return !header && body.get("client_id") === this.clientId && !body.has("client_secret")
          ? this.clientId
          : undefined
    }
  }

  private async tokenEndpoint(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = new URLSearchParams(await readBody(req))
    const record: TokenRequestRecord = { authorization: req.headers.authorization, body, status: 0 }
    this.tokenRequests.push(record)
    for (const key of ["code", "code_verifier"]) {
      const v = body.get(key)
      if (v) this.issued.add(v)
    }
    const fail = (status: number, error: string): void => {
      record.status = status
      record.error = error
      writeJson(res, status, { error }, status === 401 ? { "WWW-Authenticate": 'Basic realm="mock"' } : {})
    }
    // Faults that do not depend on the request.
    switch (this.tokenFault) {
      case "hang":
        this.hanging.add(res)
        res.on("close", () => {
          if (this.hanging.delete(res)) this.abandonedHangs++
        })
        return
      case "status-500":
        record.status = 500
        res.writeHead(500, { "Content-Type": "text/plain" })
        res.end("internal error")
        return
      case "redirect":
        record.status = 302
        res.writeHead(302, { Location: `${this.issuer}/token-redirect-target` })
        res.end()
        return
      case "huge-body":
      case "huge-body-declared":
        record.status = 200
        await streamHugeJson(
          res,
          {
            total: 50 * 1024 * 1024,
            declared: this.tokenFault === "huge-body-declared",
            head: '{"access_token":"',
            tail: '"}',
          },
          (n) => {
            this.hugeBytesWritten += n
          },
        )
        return
      case "invalid-grant":
        return fail(400, "invalid_grant")
      default:
        break
    }
    if (!this.authenticateClient(req, body)) return fail(401, "invalid_client")
    if (body.get("grant_type") !== "authorization_code") return fail(400, "unsupported_grant_type")
    const codeValue = body.getAll("code")
    const entry = codeValue.length === 1 ? this.codes.get(codeValue[0] as string) : undefined
    if (!entry) return fail(400, "invalid_grant")
    if (entry.used) return fail(400, "invalid_grant") // single use
    entry.used = true
    if (entry.clientId !== this.clientId || body.get("redirect_uri") !== entry.redirectUri)
      return fail(400, "invalid_grant")
    const verifier = body.get("code_verifier")
    if (entry.codeChallenge !== undefined) {
      if (entry.codeChallengeMethod !== "S256" || !verifier || !/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier))
        return fail(400, "invalid_grant")
      if (b64u(createHash("sha256").update(verifier).digest()) !== entry.codeChallenge)
        return fail(400, "invalid_grant")
    } else if (verifier !== null) {
      return fail(400, "invalid_grant") // RFC 9700 §4.8: no challenge, no verifier
    }
    const accessToken = `at-${randomBytes(24).toString("base64url")}`
    const refreshToken = `rt-${randomBytes(24).toString("base64url")}`
    this.issued.add(accessToken)
    this.issued.add(refreshToken)
    this.accessTokens.set(accessToken, entry.sub)
    const idToken = this.idToken(entry)
    this.issued.add(idToken)
    const tokens: Record<string, unknown> = {
      access_token: accessToken,
      token_type: this.tokenFault === "token-type-uppercase" ? "BEARER" : "Bearer",
      expires_in: 3600,
      refresh_token: refreshToken,
      scope: entry.scope,
      id_token: idToken,
    }
    switch (this.tokenFault) {
      case "non-json":
        record.status = 200
        res.writeHead(200, { "Content-Type": "text/html" })
        res.end(`<html><body>${accessToken}</body></html>`)
        return
      case "error-in-200":
        record.status = 200
        return writeJson(res, 200, { error: "invalid_grant", error_description: "looks like success" })
      case "no-access-token":
        delete tokens.access_token
        break
      case "no-id-token":
        delete tokens.id_token
        break
      default:
        break
    }
    record.status = 200
    writeJson(res, 200, tokens)
  }

  private async userinfoEndpoint(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const header = req.headers.authorization ?? ""
    const token = /^Bearer (.+)$/i.exec(header)?.[1]
    const sub = token ? this.accessTokens.get(token) : undefined
    if (!sub) {
      res.writeHead(401, { "WWW-Authenticate": 'Bearer error="invalid_token"' })
      res.end()
      return
    }
    const claims = { ...this.userinfoClaims, sub: this.userinfoFault === "invalid-sub" ? `${sub}-other` : sub }
    if (!this.signedUserinfo) return writeJson(res, 200, claims)
    const input = `${b64u(JSON.stringify({ alg: "RS256", typ: "JWT", kid: "rsa-1" }))}.${b64u(JSON.stringify({ ...claims, iss: this.issuer, aud: this.clientId }))}`
    res.writeHead(200, { "content-type": "application/jwt" })
    res.end(`${input}.${b64u(sign("sha256", Buffer.from(input), this.keys["rsa-1"].privateKey))}`)
  }

  // ------------------------------------------------------------------------------------------------
  // ID tokens

  /** The claims of a correct ID token for a code, then the fault applied. */
  idTokenClaims(entry: Pick<IssuedCode, "sub" | "nonce">): Record<string, unknown> {
    const now = Math.floor(Date.now() / 1000)
    const claims: Record<string, unknown> = {
      iss: this.issuer,
      sub: entry.sub,
      aud: this.clientId,
      exp: now + 300,
      iat: now,
      auth_time: now,
      ...(entry.nonce !== undefined ? { nonce: entry.nonce } : {}),
      name: "Mock User",
      email: "mock.user@op.example",
      email_verified: true,
    }
    switch (this.idTokenFault) {
      case "invalid-iss":
        claims.iss = "https://attacker.example/op"
        break
      case "missing-iss":
        delete claims.iss
        break
      case "invalid-aud":
        claims.aud = "another-client"
        break
      case "missing-aud":
        delete claims.aud
        break
      case "invalid-secondary-aud":
        claims.aud = [this.clientId, "untrusted-client"]
        break
      case "invalid-secondary-aud-with-azp":
        claims.aud = [this.clientId, "untrusted-client"]
        claims.azp = this.clientId
        break
      case "invalid-azp":
        claims.aud = [this.clientId, "another-client"]
        claims.azp = "another-client"
        break
      case "valid-aud-as-array":
        claims.aud = [this.clientId]
        break
      case "invalid-expired-exp":
        claims.exp = now - 120
        claims.iat = now - 420
        claims.auth_time = now - 420
        break
      case "invalid-missing-exp":
        delete claims.exp
        break
      case "missing-iat":
        delete claims.iat
        break
      case "iat-is-week-in-past":
        claims.iat = now - 7 * 24 * 3600
        claims.auth_time = now - 7 * 24 * 3600
        break
      case "nbf-in-future":
        claims.nbf = now + 600
        break
      case "nonce-invalid":
        claims.nonce = `${entry.nonce ?? ""}x`
        break
      case "invalid-missing-nonce":
        delete claims.nonce
        break
      case "missing-sub":
        delete claims.sub
        break
      default:
        break
    }
    for (const [k, v] of Object.entries(this.extraClaims)) {
      if (v === undefined) delete claims[k]
      else claims[k] = v
    }
    return claims
  }

  /** Signs an ID token for a code, with the configured key, alg, kid mode and fault. */
  idToken(entry: Pick<IssuedCode, "sub" | "nonce">): string {
    const claims = this.idTokenClaims(entry)
    const fault = this.idTokenFault
    let alg: string | null = this.signingAlg
    let kid: KeyId = this.signingKid
    if (fault === "invalid-sig-es256" || fault === "alternate-alg-es256") {
      alg = "ES256"
      kid = "ec-1"
    } else if (fault === "invalid-sig-hs256" || fault === "hs256-rsa-public-key") {
      alg = "HS256"
    } else if (fault === "idtoken-sig-none") {
      alg = "none"
    } else if (fault === "invalid-null-alg") {
      alg = null
    }
    const header: Record<string, unknown> = { alg, typ: "JWT" }
    if (alg !== "HS256" && alg !== "none" && alg !== null) {
      if (this.kidMode === "signing") header.kid = kid
      else if (this.kidMode === "unknown") header.kid = `unknown-${randomBytes(6).toString("hex")}`
    }
    const input = `${b64u(JSON.stringify(header))}.${b64u(JSON.stringify(claims))}`
    let signature: Buffer
    if (alg === "none" || alg === null) {
      signature = Buffer.alloc(0)
    } else if (alg === "HS256") {
      const key =
        fault === "hs256-rsa-public-key"
          ? this.publicKeyPem("rsa-1")
          : fault === "invalid-sig-hs256"
            ? `${this.clientSecret}-wrong`
            : this.clientSecret
      signature = createHmac("sha256", key).update(input).digest()
    } else if (alg === "ES256") {
      signature = sign("sha256", Buffer.from(input), { key: this.keys[kid].privateKey, dsaEncoding: "ieee-p1363" })
    } else {
      signature = sign("sha256", Buffer.from(input), this.keys[kid].privateKey)
    }
    if (fault === "invalid-sig-rs256" || fault === "invalid-sig-es256") {
      signature = Buffer.from(signature)
      signature[signature.length - 5]! ^= 0x01
    }
    return `${input}.${b64u(signature)}`
  }
}

/**
 * Streams `total` bytes of valid-looking JSON (`head`, spaces, `tail`), with or without Content-Length, honouring
 * back-pressure and stopping when the client leaves; `onBytes` hears of every write handed to the socket.
 */
export async function streamHugeJson(
  res: ServerResponse,
  o: { total: number; declared: boolean; head: string; tail: string },
  onBytes: (n: number) => void = () => {},
): Promise<void> {
  const chunk = Buffer.alloc(64 * 1024, 0x20)
  res.writeHead(200, {
    "Content-Type": "application/json",
    ...(o.declared ? { "Content-Length": String(o.total) } : {}),
  })
  let closed = false
  res.once("close", () => {
    closed = true
  })
  res.write(o.head)
  onBytes(o.head.length)
  let sent = o.head.length
  while (!closed && sent + chunk.length + o.tail.length <= o.total) {
    sent += chunk.length
    onBytes(chunk.length)
    if (!res.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off("drain", done)
          res.off("close", done)
          resolve()
        }
        res.on("drain", done)
        res.on("close", done)
      })
    }
  }
  if (!closed) res.end(`${" ".repeat(o.total - sent - o.tail.length)}${o.tail}`)
}

/** Creates and starts a mock OP. */
export async function startMockOp(options: MockOpOptions = {}): Promise<MockOp> {
  return new MockOp(options).start()
}
