// What the gatehouse/v4 tests share: a node:http server on 127.0.0.1 that runs pages-router API routes as Next.js
// does (req.query with the catch-all `nextauth` segments, req.body parsed by content type, req.cookies, and Next's
// res.status/json/send helpers), so Gatehouse's NextAuth and next-auth 4.24.15's own run under the same conditions;
// a fetch wrapper that keeps cookies; and the credentials options of both.
import { createRequire } from "node:module"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { parseCookieHeader } from "../../src/cookies/parse.js"
import Credentials from "../../src/providers/credentials.js"
import { nextAuthV4Module } from "../support/next-auth-v4.js"
import { type Listening, listenLocal, readBody } from "../support/listen.js"
import { parseSetCookie, type ParsedCookie } from "../support/set-cookie.js"
import { afterAll, beforeAll } from "vitest"
import { isolateEnv } from "../support/env.js"

export const V4_SECRET = "a-next-auth-v4-secret-of-at-least-32-characters"
export const PUBLIC_ORIGIN = "http://localhost:3000"
export const ALICE = { id: "user-1", name: "Alice", email: "alice@example.com" }

/**
 * The set-up of a test file whose routes run as an app at PUBLIC_ORIGIN: a copy of process.env with NEXTAUTH_URL set,
 * restored after the file, and the servers the file pushes on the list answered, stopped after it.
 */
export function appAtPublicOrigin(): Listening[] {
  const servers: Listening[] = []
  let restoreEnv = (): void => {}
  beforeAll(() => {
    restoreEnv = isolateEnv()
    process.env.NEXTAUTH_URL = PUBLIC_ORIGIN
  })
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()))
    restoreEnv()
  })
  return servers
}

/** A pages-router API route (the shape both NextAuth handlers and getServerSession routes have). */
export type ApiRoute = (req: any, res: any) => unknown

/** Next's API body parser: JSON, url-encoded (repeated keys as arrays) and text; "" for an empty GET. */
function parseNextBody(text: string, contentType: string | undefined): unknown {
  const type = (contentType ?? "text/plain").split(";", 1)[0]!.trim().toLowerCase()
  if (type === "application/json") return text === "" ? {} : JSON.parse(text)
  if (type === "application/x-www-form-urlencoded") {
    const out: Record<string, string | string[]> = {}
    for (const [key, value] of new URLSearchParams(text)) {
      const seen = out[key]
      out[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value]
    }
    return out
  }
  return text
}

/** Next's res helpers on a node response. */
function withNextHelpers(res: ServerResponse): ServerResponse & Record<string, any> {
  const api = res as ServerResponse & Record<string, any>
  api.status = (code: number) => {
    res.statusCode = code
    return api
  }
  api.json = (body: unknown) => {
    res.setHeader("content-type", "application/json; charset=utf-8")
    res.end(JSON.stringify(body))
    return api
  }
  api.send = (body: unknown) => {
    if (body === undefined || body === null) res.end()
    else if (typeof body === "string" || body instanceof Uint8Array) res.end(body)
    else api.json(body)
    return api
  }
  return api
}

/**
 * Serves `/api/auth/*` with `auth` (the catch-all route) and any other path in `routes`, as Next's pages router calls
 * them. The body is parsed before the route runs (bodyParser on), so the route finds the stream consumed.
 */
export async function serveApiRoutes(auth: ApiRoute, routes: Record<string, ApiRoute> = {}): Promise<Listening> {
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    try {
      const url = new URL(req.url ?? "/", "http://placeholder")
      const query: Record<string, string | string[]> = Object.fromEntries(url.searchParams)
      const r = req as IncomingMessage & Record<string, any>
      r.body = parseNextBody(await readBody(req), req.headers["content-type"])
      r.cookies = parseCookieHeader(req.headers.cookie ?? null)
      r.query = query
      const api = withNextHelpers(res)
      if (url.pathname.startsWith("/api/auth/")) {
        query.nextauth = url.pathname.slice("/api/auth/".length).split("/").map(decodeURIComponent)
        await auth(r, api)
      } else {
        const route = routes[url.pathname]
        if (!route) res.writeHead(404).end()
        else await route(r, api)
      }
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" })
      res.end(String(error))
    }
  })
  return listenLocal(server)
}

/** A browser stand-in: keeps cookies (a Max-Age=0 or empty one removes), follows no redirect. */
export class Client {
  readonly cookies = new Map<string, string>()
  constructor(readonly origin: string) {}

  async fetch(
    path: string,
    init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { ...init.headers }
    if (this.cookies.size) headers.cookie = this.cookieHeader()
    if (init.form) headers["content-type"] = "application/x-www-form-urlencoded"
    const res = await fetch(`${this.origin}${path}`, {
      method: init.method ?? (init.form ? "POST" : "GET"),
      headers,
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
      redirect: "manual",
    })
    const set = res.headers.getSetCookie().map(parseSetCookie)
    for (const c of set) {
      if (c.attrs["max-age"] === "0" || c.value === "") this.cookies.delete(c.name)
      else this.cookies.set(c.name, c.value)
    }
    const text = await res.text()
    let json: any
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    return { status: res.status, headers: res.headers, setCookies: set, text, json }
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("; ")
  }

  async csrf(): Promise<string> {
    return (await this.fetch("/api/auth/csrf")).json.csrfToken as string
  }
}

/** Set-Cookie names and the attributes that matter on the wire, sorted (for comparing the two libraries). */
export function cookieShape(set: ParsedCookie[]): string[] {
  return set
    .map((c) => {
      const attrs = ["path", "samesite", "httponly", "secure"]
        .filter((a) => c.attrs[a] !== undefined)
        .map((a) => `${a}=${String(c.attrs[a]).toLowerCase()}`)
      const cleared = c.attrs["max-age"] === "0" || c.value === "" ? " cleared" : ""
      return `${c.name} ${attrs.join(" ")}${cleared}`
    })
    .sort()
}

const authorize = (c: Record<string, unknown> | undefined) =>
  c?.username === "alice" && c?.password === "password" ? { ...ALICE } : null

/** Credentials options for Gatehouse's NextAuth (the JWT strategy). */
export function gatehouseOptions(extra: Record<string, unknown> = {}): any {
  return {
    secret: V4_SECRET,
    providers: [Credentials({ credentials: { username: {}, password: {} }, authorize })],
    ...extra,
  }
}

/** The same options for next-auth 4.24.15, with its own credentials provider. */
export function nextAuthOptions(extra: Record<string, unknown> = {}): any {
  const CredentialsV4 = nextAuthV4Module<(options: Record<string, unknown>) => unknown>("providers/credentials")
  return {
    secret: V4_SECRET,
    providers: [CredentialsV4({ credentials: { username: {}, password: {} }, authorize })],
    ...extra,
  }
}

/** next-auth 4.24.15's NextAuth and getServerSession (next-auth/next). */
export function nextAuthV4Next(): { NextAuth: (...args: any[]) => any; getServerSession: (...args: any[]) => any } {
  const mod = createRequire(import.meta.url)("next-auth/next") as Record<string, any>
  return { NextAuth: mod.default, getServerSession: mod.getServerSession }
}
