// The demo's local OpenID Provider: oidc-provider in this process on 127.0.0.1, one client (the demo app), one account.
import { generateKeyPairSync, randomBytes } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import type { KoaContextish, Provider } from "oidc-provider"
import { escapeHtml, layout, readForm } from "./html.js"

/** The one account of the local OP. Its login form comes filled in with these values. */
export const OIDC_ACCOUNT = {
  login: "alice",
  password: "alice",
  sub: "alice",
  name: "Alice Example",
  given_name: "Alice",
  family_name: "Example",
  email: "alice@example.com",
  email_verified: true,
} as const

export interface LocalOidc {
  /** `http://127.0.0.1:<port>`: what the app's provider config discovers from. */
  issuer: string
  clientId: string
  clientSecret: string
  stop(): Promise<void>
}

/**
 * oidc-provider's storage contract, kept in a Map per model: the same thing its built-in memory adapter does, without
 * the "development-only adapter" warning on every start. Entries expire with their `expiresIn`.
 */
class MapAdapter {
  private static readonly stores = new Map<string, Map<string, { payload: Record<string, unknown>; expires: number }>>()
  private readonly store: Map<string, { payload: Record<string, unknown>; expires: number }>

  constructor(name: string) {
    this.store = MapAdapter.stores.get(name) ?? new Map()
    MapAdapter.stores.set(name, this.store)
  }

  async upsert(id: string, payload: Record<string, unknown>, expiresIn?: number): Promise<void> {
    this.store.set(id, { payload, expires: expiresIn ? Date.now() + expiresIn * 1000 : Infinity })
  }

  async find(id: string): Promise<Record<string, unknown> | undefined> {
    const entry = this.store.get(id)
    if (!entry) return undefined
    if (entry.expires <= Date.now()) {
      this.store.delete(id)
      return undefined
    }
    return entry.payload
  }

  async findByUid(uid: string): Promise<Record<string, unknown> | undefined> {
    for (const [id, entry] of this.store) if (entry.payload.uid === uid) return this.find(id)
    return undefined
  }

  async findByUserCode(userCode: string): Promise<Record<string, unknown> | undefined> {
    for (const [id, entry] of this.store) if (entry.payload.userCode === userCode) return this.find(id)
    return undefined
  }

  async consume(id: string): Promise<void> {
    const entry = this.store.get(id)
    if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000)
  }

  async destroy(id: string): Promise<void> {
    this.store.delete(id)
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    for (const [id, entry] of this.store) if (entry.payload.grantId === grantId) this.store.delete(id)
  }
}

/**
 * Imports oidc-provider. It warns at import time that it wants Node.js 22; the demo runs on Node.js 20 as well (the
 * project's minimum), so that one line is left out of the demo's output. Every other warning still shows.
 */
async function loadProvider(): Promise<typeof Provider> {
  const warn = console.warn
  console.warn = (...args: unknown[]) => {
    if (!String(args[0]).includes("Unsupported runtime")) warn(...args)
  }
  try {
    return (await import("oidc-provider")).default
  } finally {
    console.warn = warn
  }
}

function loginPage(uid: string, issuer: string, error?: string): string {
  const a = OIDC_ACCOUNT
  return layout(
    "Local OIDC: sign in",
    `<main class="card">
  <p class="eyebrow">Local OIDC</p>
  <h1>Sign in to Local OIDC</h1>
  <p>This is the demo's own OpenID Provider (<code>${escapeHtml(issuer)}</code>), playing the part Google or Okta would.
  The demo account is filled in: user <strong><code>${a.login}</code></strong>, password <strong><code>${a.password}</code></strong>. Just press <em>Sign in</em>.</p>
  ${error ? `<p id="login-error" class="error" role="alert">${escapeHtml(error)}</p>` : ""}
  <form id="login-form" method="post" action="/interaction/${escapeHtml(uid)}/login" data-interaction="login">
    <label for="login">Username</label>
    <input id="login" name="login" type="text" autocomplete="username" value="${a.login}" required>
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" value="${a.password}" required>
    <button id="sign-in" type="submit">Sign in</button>
  </form>
  <form method="post" action="/interaction/${escapeHtml(uid)}/abort" data-interaction="abort">
    <button id="cancel" type="submit" class="secondary">Cancel</button>
  </form>
</main>`,
  )
}

function errorPage(message: string): string {
  return layout(
    "Local OIDC: error",
    `<main class="card"><p class="eyebrow">Local OIDC</p><h1>Something went wrong</h1><p id="op-error" class="error">${escapeHtml(message)}</p></main>`,
  )
}

function send(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }).end(html)
}

/**
 * Starts the OP on an OS-chosen port. `redirectUri` is the app's callback (`<app>/auth/callback/<provider id>`), the
 * only one the client may use. Consent is implied for this first-party client, so the login form is the only page.
 */
export async function startLocalOidc(redirectUri: string): Promise<LocalOidc> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined
  const server = createServer((req, res) => (handler ? handler(req, res) : send(res, 503, "starting")))
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve())
  })
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const client = { clientId: "gatehouse-demo", clientSecret: randomBytes(24).toString("base64url") }

  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
  const OidcProvider = await loadProvider()
  const provider = new OidcProvider(issuer, {
    adapter: MapAdapter,
    clients: [
      {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        redirect_uris: [redirectUri],
        response_types: ["code"],
        grant_types: ["authorization_code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: "jwk" }), kid: "demo-key", use: "sig", alg: "RS256" }] },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    // The ID token carries the granted scopes' claims, so the app has the name and e-mail without a userinfo call.
    conformIdTokenClaims: false,
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "given_name", "family_name"] },
    async findAccount(_ctx: unknown, sub: string) {
      if (sub !== OIDC_ACCOUNT.sub) return undefined
      const { login: _login, password: _password, ...claims } = OIDC_ACCOUNT
      return { accountId: sub, claims: () => claims }
    },
    // The demo app is first-party: every scope it asks for is granted without a consent page.
    async loadExistingGrant(ctx: {
      oidc: {
        client: { clientId: string }
        session: { accountId: string }
        params: { scope?: string }
        provider: Provider
      }
    }) {
      const grant = new ctx.oidc.provider.Grant({
        accountId: ctx.oidc.session.accountId,
        clientId: ctx.oidc.client.clientId,
      })
      grant.addOIDCScope(String(ctx.oidc.params.scope ?? "openid"))
      await grant.save()
      return grant
    },
    async renderError(ctx: KoaContextish, out: Record<string, string>) {
      ctx.type = "html"
      ctx.body = errorPage(`${out.error ?? "error"}: ${out.error_description ?? ""}`)
    },
    ttl: { AccessToken: 3600, AuthorizationCode: 60, IdToken: 3600, Interaction: 600, Session: 3600, Grant: 3600 },
  })

  async function interaction(
    req: IncomingMessage,
    res: ServerResponse,
    uid: string,
    action: string | undefined,
  ): Promise<void> {
    const details = await provider.interactionDetails(req, res)
    if (details.uid !== uid)
      return send(res, 400, errorPage("This sign-in has expired. Go back to the demo and start again."))
    if (action === undefined && req.method === "GET") return send(res, 200, loginPage(uid, issuer))
    if (req.method !== "POST") return send(res, 405, errorPage("Method not allowed."))
    if (action === "abort") {
      return provider.interactionFinished(
        req,
        res,
        { error: "access_denied", error_description: "The user cancelled the sign-in." },
        { mergeWithLastSubmission: false },
      )
    }
    if (action !== "login") return send(res, 404, errorPage("Not found."))
    const form = await readForm(req)
    if (form.get("login") !== OIDC_ACCOUNT.login || form.get("password") !== OIDC_ACCOUNT.password) {
      return send(
        res,
        200,
        loginPage(uid, issuer, `Unknown user or wrong password. Use ${OIDC_ACCOUNT.login} / ${OIDC_ACCOUNT.password}.`),
      )
    }
    return provider.interactionFinished(
      req,
      res,
      { login: { accountId: OIDC_ACCOUNT.sub } },
      { mergeWithLastSubmission: false },
    )
  }

  const koa = provider.callback()
  handler = (req, res) => {
    const match = /^\/interaction\/([\w-]+)(?:\/(login|abort))?$/.exec(new URL(req.url ?? "/", issuer).pathname)
    if (!match) return koa(req, res)
    interaction(req, res, match[1] ?? "", match[2]).catch(() => {
      if (!res.headersSent) send(res, 400, errorPage("This sign-in has expired. Go back to the demo and start again."))
      else res.end()
    })
  }

  return {
    issuer,
    ...client,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
