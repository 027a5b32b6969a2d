// Shared harness for the Twitter / VK / TikTok provider tests and the OAuth 1.0a security tests:
// - a tiny node:http server on 127.0.0.1 (OS port) that records every request it answers;
// - a global fetch guard: any request to a host other than 127.0.0.1 / localhost is refused and recorded, so a
//   provider that ignores a URL override fails the test instead of reaching the real API;
// - a routing `customFetch` that sends the providers' real hosts (api.x.com, open.tiktokapis.com, ...) to a
//   local server, telling it the URL the client meant (header x-test-original-url, like a transparent proxy);
// - a config factory with a spy logger, a jwt-callback spy and optionally a memory adapter;
// - the sign-in steps through Auth(): csrf -> POST /signin/<id> -> the provider's authorize page -> callback.
import { randomBytes } from "node:crypto"
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http"
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest"
import { Auth } from "../../src/index.js"
import type { Adapter, AuthConfig } from "../../src/index.js"
import { decode } from "../../src/jwt/index.js"
import { CookieJar, ORIGIN, SECRET, fetchCsrf, get, postForm } from "./flow-kit.js"
import { sessionCookieNames } from "./cookies.js"
import { listenLocal, readBody, writeJson } from "./listen.js"

export const APP_PAGE = `${ORIGIN}/dashboard`
export const ORIGINAL_URL_HEADER = "x-test-original-url"

// ---------------------------------------------------------------------------------------------
// Local HTTP servers

export interface Recorded {
  method: string
  /** The path on the local server. */
  path: string
  query: URLSearchParams
  headers: IncomingHttpHeaders
  body: string
  /** The URL the client meant, when the request came through the routing customFetch. */
  originalUrl: string | undefined
  status: number
}

export interface LocalServer {
  url: string
  requests: Recorded[]
  /** Requests to one path (on the local server). */
  to(path: string): Recorded[]
  stop(): Promise<void>
}

export type Handler = (req: IncomingMessage, res: ServerResponse, record: Recorded) => Promise<void> | void

export function sendJson(res: ServerResponse, record: Recorded, status: number, body: unknown, raw?: string): void {
  record.status = status
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" })
  res.end(raw ?? JSON.stringify(body))
}

export function sendText(
  res: ServerResponse,
  record: Recorded,
  status: number,
  body: string,
  type = "text/html; charset=utf-8",
): void {
  record.status = status
  res.writeHead(status, { "content-type": type })
  res.end(body)
}

export function sendRedirect(res: ServerResponse, record: Recorded, location: string): void {
  record.status = 302
  res.writeHead(302, { location })
  res.end()
}

/** A fresh random value (a code, token or secret) with `prefix`, recorded in `issued` so a test can check it never leaks. */
export function freshValue(issued: string[], prefix: string): string {
  const value = `${prefix}${randomBytes(12).toString("hex")}`
  issued.push(value)
  return value
}

/** Starts a server; the handler gets the request (body already read into record.body). */
export async function startLocalServer(handler: Handler): Promise<LocalServer> {
  const requests: Recorded[] = []
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1")
      const original = req.headers[ORIGINAL_URL_HEADER]
      const record: Recorded = {
        method: req.method ?? "GET",
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: await readBody(req),
        originalUrl: typeof original === "string" ? original : undefined,
        status: 0,
      }
      requests.push(record)
      await handler(req, res, record)
      if (!res.headersSent) sendJson(res, record, 404, { error: "not_found" })
    })().catch((e: unknown) => {
      if (!res.headersSent) writeJson(res, 500, { error: String(e) })
    })
  })
  const listening = await listenLocal(server)
  return {
    url: listening.origin,
    requests,
    to: (path) => requests.filter((r) => r.path === path),
    stop: listening.stop,
  }
}

// ---------------------------------------------------------------------------------------------
// Network guard and routing fetch

const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"])

function urlOf(input: RequestInfo | URL): URL {
  return new URL(input instanceof Request ? input.url : String(input))
}

export interface FetchGuard {
  /** URLs a test tried to reach outside 127.0.0.1 (refused). */
  blocked: string[]
  restore(): void
}

/** Replaces globalThis.fetch: loopback requests pass, anything else is refused (TypeError) and recorded in `blocked`. */
export function installFetchGuard(blocked: string[] = []): FetchGuard {
  const original = globalThis.fetch
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = urlOf(input)
    if (!LOCAL_HOSTS.has(url.hostname)) {
      blocked.push(url.href)
      throw new TypeError(`test fetch guard: ${url.origin} is not reachable from the tests`)
    }
    return original(input, init)
  }) as typeof fetch
  return { blocked, restore: () => void (globalThis.fetch = original) }
}

/** A fake provider server: reset between tests, stopped at the end of the file. */
export interface FakeProviderServer {
  reset(): void
  stop(): Promise<void>
}

/**
 * Runs a file's tests against a fake provider behind the fetch guard: the guard is installed and the server
 * started (handed to `started`) before the file, the server reset before each test, and after each test no
 * request may have left 127.0.0.1. Returns the URLs the guard refused during the current test.
 */
export function useFakeProvider<T extends FakeProviderServer>(
  start: () => Promise<T>,
  started: (server: T) => void,
): { blocked: string[] } {
  const blocked: string[] = []
  let server: T | undefined
  let guard: FetchGuard | undefined
  beforeAll(async () => {
    guard = installFetchGuard(blocked)
    server = await start()
    started(server)
  })
  afterAll(async () => {
    await server?.stop()
    guard?.restore()
  })
  beforeEach(() => {
    server?.reset()
    blocked.length = 0
  })
  afterEach(() => {
    expect(blocked, "no request left 127.0.0.1").toEqual([])
  })
  return { blocked }
}

export interface RoutingFetch {
  fetch: typeof fetch
  /** Every URL the library asked the customFetch for (before rewriting). */
  calls: { url: string; method: string }[]
}

/**
 * A customFetch that rewrites requests for the given real origins (e.g. https://api.x.com) to `target`,
 * keeping path and query, and adds x-test-original-url so the local server can check signatures against
 * the URL the client signed.
 */
export function routingFetch(origins: readonly string[], target: string): RoutingFetch {
  const calls: RoutingFetch["calls"] = []
  const fn = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = urlOf(input)
    calls.push({ url: url.href, method: init?.method ?? (input instanceof Request ? input.method : "GET") })
    const headers = new Headers(input instanceof Request ? input.headers : undefined)
    for (const [k, v] of new Headers(init?.headers)) headers.set(k, v)
    headers.set(ORIGINAL_URL_HEADER, url.href)
    const routed = origins.includes(url.origin) ? `${target}${url.pathname}${url.search}` : url.href
    return globalThis.fetch(routed, { ...init, headers })
  }) as typeof fetch
  return { fetch: fn, calls }
}

/** Maps a browser navigation to a real provider page onto the local server (the test plays the browser). */
export function localize(url: URL, origins: readonly string[], target: string): URL {
  return origins.includes(url.origin) ? new URL(`${target}${url.pathname}${url.search}`) : url
}

// ---------------------------------------------------------------------------------------------
// Config, logger, spies

export interface LogSpy {
  errors: Error[]
  types(): string[]
  /** Type, message and causes of every logged error, plus warn/debug arguments. */
  text(): string
}

function chain(value: unknown, depth = 0): string {
  if (!(value instanceof Error) || depth > 8) return ""
  const e = value as Error & { type?: string }
  return [e.type ?? e.name, e.message, chain(e.cause, depth + 1)].filter(Boolean).join(" | ")
}

export interface JwtCall {
  token: Record<string, unknown>
  user?: Record<string, unknown>
  account?: Record<string, unknown> | null
  profile?: Record<string, unknown>
  trigger?: string
}

export interface Setup {
  config: AuthConfig
  log: LogSpy
  jwtCalls: JwtCall[]
  /** The sign-in jwt call (the one with an account). */
  signInCall(): JwtCall
}

/** A fresh config (Gatehouse memoises per config object) with a spy logger and a jwt-callback spy. */
export function setup(
  providers: AuthConfig["providers"],
  extra: Partial<AuthConfig> & { adapter?: Adapter } = {},
): Setup {
  const errors: Error[] = []
  const other: unknown[] = []
  const jwtCalls: JwtCall[] = []
  const config = {
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    providers,
    logger: {
      error: (e: Error) => void errors.push(e),
      warn: (...args: unknown[]) => void other.push(args),
      debug: (...args: unknown[]) => void other.push(args),
    },
    callbacks: {
      // A copy of each call: a later change to the token (a refresh, the next callback) does not rewrite it.
      jwt: (params: JwtCall) => {
        jwtCalls.push(structuredClone(params))
        return params.token
      },
    },
    ...extra,
  } as unknown as AuthConfig
  return {
    config,
    jwtCalls,
    log: {
      errors,
      types: () => errors.map((e) => (e as { type?: string }).type ?? e.name),
      text: () => [...errors.map((e) => chain(e)), JSON.stringify(other)].join("\n"),
    },
    signInCall() {
      const calls = jwtCalls.filter((c) => c.account)
      expect(calls, "exactly one sign-in jwt call").toHaveLength(1)
      return calls[0]!
    },
  }
}

export function logged(log: LogSpy): string {
  return log.errors.map((e) => chain(e)).join("\n")
}

// ---------------------------------------------------------------------------------------------
// Flow steps

export interface Started {
  jar: CookieJar
  res: Response
  /** Where Gatehouse sent the browser (the provider's authorization page), when it answered a redirect. */
  location: URL | undefined
}

/** GET /csrf then POST /signin/<id>. */
export async function startSignIn(
  config: AuthConfig,
  id: string,
  options: { callbackUrl?: string; jar?: CookieJar; query?: string } = {},
): Promise<Started> {
  const jar = options.jar ?? new CookieJar()
  const csrfToken = await fetchCsrf(config, jar)
  const res = await Auth(
    postForm(
      `/auth/signin/${id}${options.query ?? ""}`,
      { csrfToken, callbackUrl: options.callbackUrl ?? APP_PAGE },
      { cookie: jar.header() },
    ),
    config,
  )
  jar.store(res)
  const loc = res.headers.get("location")
  return { jar, res, location: loc ? new URL(loc) : undefined }
}

/** The provider's authorization page (on a local server): returns where it redirects the browser. */
export async function visitProvider(url: URL): Promise<URL> {
  const res = await fetch(url, { redirect: "manual" })
  expect(res.status, `authorize page ${url.pathname}: ${await res.clone().text()}`).toBe(302)
  return new URL(res.headers.get("location")!)
}

/**
 * The whole sign-in through the provider's page: start, the page's redirect back (changed by `edit` when given,
 * e.g. a forged parameter), and that callback through Auth().
 */
export async function signInThrough(
  config: AuthConfig,
  id: string,
  edit?: (back: URL) => void,
): Promise<{ started: Started; back: URL; res: Response }> {
  const started = await startSignIn(config, id)
  const back = await visitProvider(started.location!)
  edit?.(back)
  const res = await callback(config, back, started.jar)
  return { started, back, res }
}

/** GET the callback URL (on ORIGIN) through Auth() with the jar's cookies; stores the answer's cookies. */
export async function callback(config: AuthConfig, url: URL | string, jar: CookieJar): Promise<Response> {
  const u = new URL(url)
  expect(u.origin).toBe(ORIGIN)
  const res = await Auth(get(`${u.pathname}${u.search}`, { cookie: jar.header() }), config)
  jar.store(res)
  return res
}

export async function sessionOf(
  config: AuthConfig,
  jar: CookieJar,
): Promise<{ user?: Record<string, unknown>; expires?: string } | null> {
  const res = await Auth(get("/auth/session", { cookie: jar.header() }), config)
  expect(res.status).toBe(200)
  return (await res.json()) as { user?: Record<string, unknown>; expires?: string } | null
}

export async function sessionToken(jar: CookieJar): Promise<Record<string, unknown>> {
  const raw = jar.cookies.get("authjs.session-token")
  expect(raw, "session cookie").toBeDefined()
  return (await decode({ token: decodeURIComponent(raw!), secret: SECRET, salt: "authjs.session-token" })) as Record<
    string,
    unknown
  >
}

/** A successful callback: 302 to the app page with a session cookie and nothing logged. */
export function expectSignedIn(res: Response, log: LogSpy, landing = APP_PAGE): void {
  expect(log.errors, logged(log)).toEqual([])
  expect(res.status).toBe(302)
  expect(res.headers.get("location")).toBe(landing)
  expect(sessionCookieNames(res)).toEqual(["authjs.session-token"])
}

/** A rejected callback: 302 to `location`, no session cookie, the internal type logged once. */
export function expectRejected(res: Response, log: LogSpy, location: string, type: string): void {
  expect(res.status).toBe(302)
  expect(res.headers.get("location")).toBe(location)
  expect(sessionCookieNames(res), "no session cookie").toEqual([])
  expect(log.types(), logged(log)).toEqual([type])
}

export const SIGNIN_ERROR = (code: string) => `${ORIGIN}/auth/signin?error=${code}`
export const ERROR_PAGE = (code: string) => `${ORIGIN}/auth/error?error=${code}`

/** The client id and secret of an `Authorization: Basic` header (RFC 6749 §2.3.1: each part form-url-encoded), or undefined. */
export function basicCredentials(header: string | undefined): [string, string] | undefined {
  const encoded = /^Basic (.+)$/.exec(header ?? "")?.[1]
  if (!encoded) return undefined
  const [id, secret] = Buffer.from(encoded, "base64")
    .toString("utf8")
    .split(":")
    .map((s) => decodeURIComponent(s))
  return [id!, secret!]
}
