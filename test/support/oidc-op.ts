// A real OpenID Provider for flow tests: `oidc-provider` v9 on 127.0.0.1 with an OS-chosen port.
//
// - Three clients: `client-basic` (client_secret_basic), `client-post` (client_secret_post) and the public
//   `client-public` (token_endpoint_auth_method "none", PKCE required by oidc-provider for such clients).
//   Each registers `<rpOrigin><basePath>/callback/<id>` for every id in `providerIds`.
// - Code flow only; response modes query and form_post (oidc-provider's defaults). The authorization
//   response always carries `iss` (RFC 9207, built into oidc-provider v9 for non-JWT response modes).
// - ID tokens are RS256-signed with a key generated per OP and carry the scope's claims
//   (`conformIdTokenClaims: false`), so `openid email profile` yields sub, email, email_verified, name, picture.
// - Login and consent are our own interaction pages (devInteractions disabled): small, stable HTML forms
//   marked with `data-interaction="login" | "consent" | "abort"` that test/support/browser.ts fills in.
//   Login needs a known user's `login` (sub or e-mail) and `password`.
// - Every token-endpoint call is recorded in `tokenRequests` (Authorization header, form body, outcome),
//   every HTTP request in `requests`, so tests can check client authentication and PKCE on the wire.
// - Optionally (`issuer`) the OP plays a real issuer, e.g. https://accounts.google.com: oidc-provider runs with that
//   issuer (discovery, ID token `iss`, authorization response `iss`, every endpoint URL on the issuer's https origin)
//   while still listening on 127.0.0.1. Requests that reach the local server are treated as requests to the
//   issuer's origin (`proxy` on; X-Forwarded-Proto/Host default to the issuer's, a routing front may send the host
//   it routed from) and the issuer's path (e.g. /oauth2 of https://id.twitch.tv/oauth2) is its mount path. Tests route the real origin to `url` (customFetch, Browser apps).
//   Extra clients (`clients`), claims per scope (`claims`), the claims request parameter (`claimsParameter`) and extra
//   user claims (any further OpUser property) let such an OP look like the provider it plays.
import { generateKeyPairSync, randomBytes } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import Provider from "oidc-provider"

export const RP_ORIGIN = "http://localhost:3000"
export const RP_BASE_PATH = "/auth"

/** Provider ids whose callback URL every client registers unless `providerIds` says otherwise. */
export const DEFAULT_PROVIDER_IDS = [
  "op",
  "op-basic",
  "op-post",
  "op-jwt",
  "op-public",
  "op-nonce",
  "op-form-post",
  "op-state",
]

export interface OpUser {
  sub: string
  password: string
  name: string
  email: string
  email_verified: boolean
  picture: string
  given_name?: string
  family_name?: string
  /** Any further claim the OP releases (when `claims` maps a scope to it or the claims parameter asks for it). */
  [claim: string]: unknown
}

export const OP_USERS: readonly OpUser[] = [
  {
    sub: "op-user-1",
    password: "correct horse",
    name: "Olivia Provider",
    given_name: "Olivia",
    family_name: "Provider",
    email: "olivia@op.example",
    email_verified: true,
    picture: "https://img.op.example/olivia.png",
  },
  {
    sub: "op-user-2",
    password: "battery staple",
    name: "Mixed Case",
    email: "Mixed.Case@OP.Example",
    email_verified: false,
    picture: "https://img.op.example/mixed.png",
  },
]

export interface OpClient {
  client_id: string
  client_secret?: string
  token_endpoint_auth_method: "client_secret_basic" | "client_secret_post" | "client_secret_jwt" | "none"
  redirect_uris: string[]
}

export interface TokenRequestRecord {
  /** The raw Authorization header, if any. */
  authorization?: string
  /** The form body as oidc-provider parsed it (code, redirect_uri, code_verifier, client_id, ...). */
  body: Record<string, unknown>
  status: number
  /** `error` of a failed token response. */
  error?: string
}

export interface OpRequestRecord {
  method: string
  path: string
  query: URLSearchParams
  headers: IncomingMessage["headers"]
}

/** A further client (`clients` option); redirect_uris default to the callback URLs of `providerIds`. */
export interface OpExtraClient {
  client_id: string
  client_secret?: string
  token_endpoint_auth_method: OpClient["token_endpoint_auth_method"]
  id_token_signed_response_alg?: string
  /** Signed UserInfo answers (application/jwt) for this client; turns on oidc-provider's jwtUserinfo feature. */
  userinfo_signed_response_alg?: string
  redirect_uris?: string[]
}

export interface OidcOp {
  /** The issuer: `url` unless the `issuer` option names another. */
  issuer: string
  /** Where the OP listens (http://127.0.0.1:<port>). */
  url: string
  clients: { basic: OpClient; post: OpClient; jwt: OpClient; public: OpClient }
  users: readonly OpUser[]
  tokenRequests: TokenRequestRecord[]
  requests: OpRequestRecord[]
  /** The authorization requests the OP received (query parameters of GET /auth). */
  authorizationRequests(): URLSearchParams[]
  stop(): Promise<void>
}

export interface StartOidcProviderOptions {
  /** Provider ids to register callback URLs for. Default DEFAULT_PROVIDER_IDS. */
  providerIds?: string[]
  /** The relying party's origin and base path. Default http://localhost:3000 and /auth. */
  rpOrigin?: string
  basePath?: string
  users?: readonly OpUser[]
  /** The issuer to play (e.g. "https://accounts.google.com"). Default: the local URL. */
  issuer?: string
  /** Clients registered besides the four built-in ones. */
  clients?: OpExtraClient[]
  /** Entries merged over the default `claims` configuration: scope -> claims, or a claim -> null (requestable alone). */
  claims?: Record<string, string[] | null>
  /** Enables oidc-provider's claims request parameter (OIDC Core §5.5). Default false. */
  claimsParameter?: boolean
}

function html(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

function page(title: string, body: string): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${html(title)}</title></head><body>${body}</body></html>`
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"))
}

function send(res: ServerResponse, status: number, body: string, type = "text/html; charset=utf-8"): void {
  res.statusCode = status
  res.setHeader("Content-Type", type)
  res.setHeader("Cache-Control", "no-store")
  res.end(body)
}

function loginPage(uid: string, error?: string): string {
  return page(
    "Sign in",
    `${error ? `<p class="error" data-error>${html(error)}</p>` : ""}
<form method="post" action="/interaction/${html(uid)}/login" data-interaction="login">
  <input type="text" name="login" value="">
  <input type="password" name="password" value="">
  <button type="submit">Sign in</button>
</form>
<form method="post" action="/interaction/${html(uid)}/abort" data-interaction="abort">
  <button type="submit">Cancel</button>
</form>`,
  )
}

function consentPage(uid: string, clientId: string, scope: string): string {
  return page(
    "Authorize",
    `<p>${html(clientId)} asks for: ${html(scope)}</p>
<form method="post" action="/interaction/${html(uid)}/confirm" data-interaction="consent">
  <button type="submit">Allow</button>
</form>
<form method="post" action="/interaction/${html(uid)}/abort" data-interaction="abort">
  <button type="submit">Deny</button>
</form>`,
  )
}

/** Starts the OP on 127.0.0.1:<random port>. Call `stop()` in afterAll. */
export async function startOidcProvider(options: StartOidcProviderOptions = {}): Promise<OidcOp> {
  const rpOrigin = options.rpOrigin ?? RP_ORIGIN
  const basePath = options.basePath ?? RP_BASE_PATH
  const providerIds = options.providerIds ?? DEFAULT_PROVIDER_IDS
  const users = options.users ?? OP_USERS
  const redirect_uris = providerIds.map((id) => `${rpOrigin}${basePath}/callback/${id}`)

  const clients = {
    basic: {
      client_id: "client-basic",
      client_secret: `secret-basic-${randomBytes(12).toString("hex")}`,
      token_endpoint_auth_method: "client_secret_basic",
      redirect_uris,
    },
    post: {
      client_id: "client-post",
      client_secret: `secret-post-${randomBytes(12).toString("hex")}`,
      token_endpoint_auth_method: "client_secret_post",
      redirect_uris,
    },
    jwt: {
      client_id: "client-jwt",
      client_secret: `secret-jwt-${randomBytes(24).toString("hex")}`,
      token_endpoint_auth_method: "client_secret_jwt",
      redirect_uris,
    },
    public: { client_id: "client-public", token_endpoint_auth_method: "none", redirect_uris },
  } satisfies OidcOp["clients"]

  // The issuer needs the port, so listen first and attach the provider afterwards.
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined
  const requests: OpRequestRecord[] = []
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1")
    requests.push({ method: req.method ?? "GET", path: url.pathname, query: url.searchParams, headers: req.headers })
    if (!handler) return send(res, 503, "starting")
    handler(req, res)
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${port}`
  const issuer = options.issuer ?? url
  // The issuer's path is where the OP is mounted: "/oauth2" for https://id.twitch.tv/oauth2, "" for a bare origin.
  const issuerUrl = new URL(issuer)
  const mountPath = options.issuer ? issuerUrl.pathname.replace(/\/$/, "") : ""
  const extraClients = (options.clients ?? []).map((c) => ({ ...c, redirect_uris: c.redirect_uris ?? redirect_uris }))
  const algs = [
    "RS256",
    ...new Set(
      extraClients.flatMap((c) =>
        c.id_token_signed_response_alg && c.id_token_signed_response_alg !== "RS256"
          ? [c.id_token_signed_response_alg]
          : [],
      ),
    ),
  ]

  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
  const jwk = {
    ...privateKey.export({ format: "jwk" }),
    kid: `k-${randomBytes(6).toString("hex")}`,
    use: "sig",
    alg: "RS256",
  }

  const provider = new Provider(issuer, {
    clients: [...Object.values(clients), ...extraClients].map((c) => ({
      ...c,
      response_types: ["code"],
      grant_types: ["authorization_code"],
    })),
    jwks: { keys: [jwk] },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    features: {
      devInteractions: { enabled: false },
      ...(options.claimsParameter ? { claimsParameter: { enabled: true } } : {}),
      ...(extraClients.some((c) => c.userinfo_signed_response_alg) ? { jwtUserinfo: { enabled: true } } : {}),
    },
    ...(algs.length > 1 ? { enabledJWA: { idTokenSigningAlgValues: algs } } : {}),
    // Put the scope's claims into the ID token (Auth.js takes the OIDC profile from the ID token).
    conformIdTokenClaims: false,
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["name", "given_name", "family_name", "picture"],
      ...options.claims,
    },
    async findAccount(_ctx: unknown, sub: string) {
      const user = users.find((u) => u.sub === sub)
      if (!user) return undefined
      return {
        accountId: sub,
        claims: () => {
          const { password: _password, ...claims } = user
          return claims
        },
      }
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    ttl: { AccessToken: 3600, AuthorizationCode: 60, IdToken: 3600, Interaction: 600, Session: 3600, Grant: 3600 },
    async renderError(ctx: { type: string; body: unknown }, out: Record<string, string>) {
      ctx.type = "html"
      ctx.body = page(
        "OP error",
        `<p data-op-error="${html(out.error ?? "")}">${html(out.error ?? "")}: ${html(out.error_description ?? "")}</p>`,
      )
    },
  })

  const tokenRequests: TokenRequestRecord[] = []
  provider.use(async (ctx, next) => {
    await next()
    if (ctx.path === "/token" && ctx.method === "POST") {
      const body = ctx.body as { error?: string } | undefined
      const authorization = ctx.headers.authorization
      tokenRequests.push({
        ...(typeof authorization === "string" ? { authorization } : {}),
        body: { ...(ctx.oidc?.body ?? {}) },
        status: ctx.status,
        ...(body?.error ? { error: body.error } : {}),
      })
    }
  })

  // Playing a real issuer: every request is one for the issuer's https origin (Koa reads X-Forwarded-* with proxy on).
  if (options.issuer) provider.proxy = true
  const koa = provider.callback()

  async function interaction(
    req: IncomingMessage,
    res: ServerResponse,
    uid: string,
    action: string | undefined,
  ): Promise<void> {
    const details = await provider.interactionDetails(req, res)
    if (details.uid !== uid)
      return send(res, 400, page("OP error", '<p data-op-error="interaction_mismatch">interaction mismatch</p>'))
    if (req.method === "GET" && action === undefined) {
      if (details.prompt.name === "login") return send(res, 200, loginPage(uid))
      if (details.prompt.name === "consent")
        return send(res, 200, consentPage(uid, String(details.params.client_id), String(details.params.scope ?? "")))
      return send(res, 501, page("OP error", `<p data-op-error="unsupported_prompt">${html(details.prompt.name)}</p>`))
    }
    if (req.method !== "POST") return send(res, 405, "method not allowed", "text/plain")
    const form = await readForm(req)
    switch (action) {
      case "login": {
        if (details.prompt.name !== "login")
          return send(res, 400, page("OP error", '<p data-op-error="not_login">not a login prompt</p>'))
        const login = form.get("login") ?? ""
        const user = users.find((u) => u.sub === login || u.email.toLowerCase() === login.toLowerCase())
        if (!user || user.password !== form.get("password"))
          return send(res, 200, loginPage(uid, "Invalid login or password."))
        return provider.interactionFinished(
          req,
          res,
          { login: { accountId: user.sub } },
          { mergeWithLastSubmission: false },
        )
      }
      case "confirm": {
        if (details.prompt.name !== "consent")
          return send(res, 400, page("OP error", '<p data-op-error="not_consent">not a consent prompt</p>'))
        const accountId = details.session?.accountId
        if (!accountId) return send(res, 400, page("OP error", '<p data-op-error="no_session">no session</p>'))
        const grant = details.grantId
          ? await provider.Grant.find(details.grantId)
          : new provider.Grant({ accountId, clientId: String(details.params.client_id) })
        if (!grant) return send(res, 400, page("OP error", '<p data-op-error="no_grant">grant not found</p>'))
        const missing = details.prompt.details as {
          missingOIDCScope?: string[]
          missingOIDCClaims?: string[]
          missingResourceScopes?: Record<string, string[]>
        }
        if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "))
        if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims)
        for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
          grant.addResourceScope(indicator, scopes.join(" "))
        const grantId = await grant.save()
        return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true })
      }
      case "abort":
        return provider.interactionFinished(
          req,
          res,
          { error: "access_denied", error_description: "End-User aborted interaction" },
          { mergeWithLastSubmission: false },
        )
      default:
        return send(res, 404, "not found", "text/plain")
    }
  }

  handler = (req, res) => {
    if (options.issuer) {
      if (!req.headers["x-forwarded-host"]) {
        req.headers["x-forwarded-proto"] = issuerUrl.protocol.slice(0, -1)
        req.headers["x-forwarded-host"] = issuerUrl.host
      }
    }
    const path = new URL(req.url ?? "/", url).pathname
    const m = /^\/interaction\/([^/]+)(?:\/([a-z]+))?$/.exec(path)
    if (!m && mountPath) {
      // Mounted under the issuer's path, as express or koa-mount would do it: oidc-provider reads the mount path
      // from req.originalUrl minus req.url when it builds endpoint URLs.
      const raw = req.url ?? "/"
      if (raw !== mountPath && !raw.startsWith(`${mountPath}/`) && !raw.startsWith(`${mountPath}?`))
        return send(res, 404, "not found", "text/plain")
      ;(req as IncomingMessage & { originalUrl?: string }).originalUrl = raw
      req.url = raw.slice(mountPath.length) || "/"
    }
    if (!m) return koa(req, res)
    interaction(req, res, m[1] ?? "", m[2]).catch((error: unknown) => {
      if (!res.headersSent)
        send(
          res,
          400,
          page(
            "OP error",
            `<p data-op-error="interaction_failed">${html(String((error as Error)?.message ?? error))}</p>`,
          ),
        )
      else res.end()
    })
  }

  return {
    issuer,
    url,
    clients,
    users,
    tokenRequests,
    requests,
    authorizationRequests: () =>
      requests.filter((r) => r.method === "GET" && r.path === `${mountPath}/auth`).map((r) => r.query),
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()))
        server.closeAllConnections()
      }),
  }
}
