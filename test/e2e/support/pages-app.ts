// The built-in pages' e2e app: Gatehouse's node:http handler with one provider of every kind (GitHub with a fake
// client, e-mail with a recording sendVerificationRequest, credentials with two fields, Passkey on the memory
// adapter), mounted once per theme under its own base path. Served on 127.0.0.1, reached as http://localhost:<port>
// (a secure context whose host is a valid WebAuthn rpId, so the passkey script runs as in production).
import { createServer } from "node:http"
import type { IncomingMessage, ServerResponse } from "node:http"
import { MemoryAdapter } from "../../../src/adapters/memory.js"
import { createHandler } from "../../../src/integrations/node.js"
import Credentials from "../../../src/providers/credentials.js"
import Email from "../../../src/providers/email.js"
import GitHub from "../../../src/providers/github.js"
import Passkey from "../../../src/providers/passkey.js"
import type { AuthConfig, Theme } from "../../../src/types.js"
import { listenLocal } from "../../support/listen.js"

export const PAGES_SECRET = "e2e-secret-of-the-pages-tests-0123456789abcdef0"

/** The credentials account. */
export const ACCOUNT = { username: "ada", password: "lovelace-1815" } as const

/** What the app records. */
export interface PagesAppState {
  /** Every request: `METHOD /path?query`. */
  requests: string[]
  /** Every sign-in e-mail the e-mail provider was asked to send: address and link. */
  mails: { identifier: string; url: string }[]
  /** Errors Gatehouse logged. */
  errors: string[]
}

/** One mount: the base path it answers under and its config. */
export interface Mount {
  basePath: string
  config: AuthConfig
}

export interface PagesApp {
  /** http://localhost:<port> */
  origin: string
  state: PagesAppState
  stop(): Promise<void>
}

/**
 * A config with every provider kind. `overrides` replaces fields (a hostile theme, providers); `providers` is
 * built from the state so the e-mail provider records into it.
 */
export function everyProviderConfig(
  state: PagesAppState,
  basePath: string,
  theme: Theme,
  overrides: Partial<AuthConfig> = {},
): AuthConfig {
  return {
    secret: PAGES_SECRET,
    trustHost: true,
    basePath,
    theme,
    locale: "en",
    adapter: MemoryAdapter(),
    session: { strategy: "jwt" },
    experimental: { enableWebAuthn: true },
    logger: {
      error: (error: Error) => void state.errors.push(`${error.name}: ${error.message}`),
      warn: () => {},
      debug: () => {},
    },
    providers: [
      GitHub({ clientId: "fake-client-id", clientSecret: "fake-client-secret" }),
      Email({ sendVerificationRequest: async ({ identifier, url }) => void state.mails.push({ identifier, url }) }),
      Credentials({
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        authorize: (credentials) => {
          if (credentials.username !== ACCOUNT.username || credentials.password !== ACCOUNT.password) return null
          return { id: "user-ada", name: "Ada Lovelace", email: "ada@example.com" }
        },
      }),
      Passkey(),
    ],
    ...overrides,
  }
}

/** Starts the app with these mounts (each under its own base path; `/` answers a plain home page). */
export async function startPagesApp(mounts: (state: PagesAppState) => Mount[]): Promise<PagesApp> {
  const state: PagesAppState = { requests: [], mails: [], errors: [] }
  const handlers = mounts(state).map((m) => ({ prefix: `${m.basePath}/`, handle: createHandler(m.config) }))
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? "/"
    state.requests.push(`${req.method ?? "GET"} ${url}`)
    const path = url.split("?")[0] ?? "/"
    const mount = handlers.find((h) => path.startsWith(h.prefix))
    if (mount) return void mount.handle(req, res)
    // The built-in pages carry an inline data: icon and ask for none; other pages here (the framer) may, as an app's would.
    if (path === "/favicon.ico") return void res.writeHead(204).end()
    if (path === "/framer") {
      // Another site's page that frames ours: reached as http://127.0.0.1:<port>, a different origin from localhost.
      const src = new URL(url, "http://x").searchParams.get("src") ?? ""
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
      return void res.end(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Framer</title></head><body><iframe id="framed" title="framed" src="${src.replace(/[&<>"']/g, "")}" width="600" height="600"></iframe></body></html>`,
      )
    }
    if (path === "/") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
      return void res.end(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Home</title></head><body><main><h1>Home</h1></main></body></html>`,
      )
    }
    res.writeHead(404, { "content-type": "text/plain" })
    res.end("not found")
  })
  const listening = await listenLocal(server)
  const port = new URL(listening.origin).port
  return { origin: `http://localhost:${port}`, state, stop: listening.stop }
}
