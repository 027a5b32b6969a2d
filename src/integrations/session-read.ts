// The server-side session read of every integration (getSession, auth(), verifyAuth): straight from the request's
// Cookie header to the session strategy's read, with no web Request or Response built (docs/contributing.md#rule-7).
// Same rules as GET /session: the jwt and session callbacks run, the cookie is re-issued when due, the database
// strategy goes through the adapter.
import type { AdapterUser } from "../adapters/index.js"
import { resolveConfig } from "../config/resolve.js"
import { serializeCookie } from "../cookies/policy.js"
import type { AuthRequest, ResolvedConfig } from "../pipeline-types.js"
import { reportConfigError } from "../config/report.js"
import { parseCookieHeader } from "../cookies/parse.js"
import { resolveOrigin } from "../request/host.js"
import type { ArrivalOrigin, HeaderReader } from "../request/input.js"
import { MAX_COOKIE_HEADER } from "../request/parse.js"
import type { AuthConfig, Cookie, JWT, Session } from "../types.js"

/** What a server-side read needs of a request: the origin it arrived on and its headers (Cookie, X-Forwarded-*). */
export interface SessionSource {
  readonly url: ArrivalOrigin
  readonly header: HeaderReader
  /** All headers, for the rare hook that needs them; built only then. */
  headers?(): Headers
}

/** A server-side session read. */
export interface ServerSession {
  /** What GET /session would answer: the session, or null when signed out. */
  session: Session | null
  /** The token after the `jwt` callback (JWT strategy, signed in). */
  token?: JWT
  /** The adapter user (database strategy, signed in). */
  user?: AdapterUser
  /** Set-Cookie values the integration should send: a re-issued session cookie, or one that clears a bad cookie. */
  setCookies: string[]
  /** The same cookies unserialised, for a framework that sets cookies through its own API (SvelteKit's `cookies.set`). */
  cookies: Cookie[]
}

const EMPTY_QUERY: URLSearchParams = new URLSearchParams()
const EMPTY_BODY: Readonly<Record<string, unknown>> = Object.freeze({})

const NO_FIELDS: readonly string[] = Object.freeze([])

/** The request a server-side read hands the strategy: a class, so the lazy members live on its prototype (cheap to make). */
class SessionReadRequest implements AuthRequest {
  readonly action = "session" as const
  readonly providerId = undefined
  readonly head = false
  readonly query = EMPTY_QUERY
  readonly body = EMPTY_BODY
  readonly form = undefined
  readonly repeatedFields: readonly string[] = NO_FIELDS
  readonly returnRedirect = false
  readonly method: string
  readonly header: HeaderReader
  readonly cookies: Record<string, string>
  #headers: Headers | undefined

  constructor(
    readonly origin: string,
    readonly secure: boolean,
    private readonly basePath: string,
    isUpdate: boolean,
    private readonly source: SessionSource,
    private readonly cookieHeader: string,
  ) {
    this.method = isUpdate ? "POST" : "GET"
    this.header = source.header
    this.cookies = parseCookieHeader(cookieHeader)
  }

  get url(): URL {
    return new URL(`${this.origin}${this.basePath}/session`)
  }

  get headers(): Headers {
    return (this.#headers ??= this.source.headers?.() ?? new Headers({ cookie: this.cookieHeader }))
  }
}

/** The request a strategy reads for `source`, or undefined when it carries no cookies (or too many to read). */
export function sessionRequestOf(
  source: SessionSource,
  resolved: ResolvedConfig,
  isUpdate = false,
): AuthRequest | undefined {
  const cookieHeader = source.header.get("cookie")
  if (cookieHeader === null || cookieHeader === "" || cookieHeader.length > MAX_COOKIE_HEADER) return undefined
  const { origin, secure } = resolveOrigin(source.url, source.header, resolved)
  return new SessionReadRequest(origin, secure, resolved.basePath, isUpdate, source, cookieHeader)
}

/** The config, resolved once; a broken config is logged once and thrown, with its message naming the fix. */
export function resolvedOrThrow(config: AuthConfig | ResolvedConfig): ResolvedConfig {
  const resolved = "sessionStrategy" in config ? config : resolveConfig(config)
  if (resolved.error) {
    reportConfigError(resolved)
    throw resolved.error
  }
  return resolved
}

/**
 * Reads the session of the request `source` describes. With `update`, changes it as POST /session does (trigger
 * "update"). Throws only for a broken config; a bad or expired cookie reads as signed out.
 */
export function readServerSession(
  source: SessionSource,
  config: AuthConfig | ResolvedConfig,
  update?: { data: unknown },
): Promise<ServerSession> {
  return readServerSessionAs(source, config, update, asIs)
}

const asIs = (read: ServerSession): ServerSession => read

/**
 * {@link readServerSession}, answering what `finish` makes of the read: an integration's own last step runs in the
 * read's one `then` instead of a second promise of its own. Not an async function: the strategy's promise and that
 * `then` are the whole read (a route reads a session on every request). A broken config, or a throw from `finish`,
 * still rejects, as from an async function.
 */
export function readServerSessionAs<T>(
  source: SessionSource,
  config: AuthConfig | ResolvedConfig,
  update: { data: unknown } | undefined,
  finish: (read: ServerSession) => T,
): Promise<T> {
  let resolved: ResolvedConfig
  let req: AuthRequest | undefined
  try {
    resolved = resolvedOrThrow(config)
    req = sessionRequestOf(source, resolved, update !== undefined)
    if (!req) return Promise.resolve(finish({ session: null, setCookies: NO_SET_COOKIES, cookies: NO_COOKIES }))
  } catch (error) {
    return Promise.reject(error)
  }
  return resolved.sessionStrategy.read(req, resolved, update).then((answer) => finish(toServerSession(answer)))
}

/** The empty lists of a read that sets no cookie (most reads), shared and frozen. */
const NO_SET_COOKIES: string[] = Object.freeze([]) as unknown as string[]
const NO_COOKIES: Cookie[] = Object.freeze([]) as unknown as Cookie[]

function toServerSession(answer: Awaited<ReturnType<ResolvedConfig["sessionStrategy"]["read"]>>): ServerSession {
  const cookies = answer.cookies?.length ? answer.cookies : undefined
  const result: ServerSession = cookies
    ? { session: answer.session, setCookies: cookies.map(serializeCookie), cookies }
    : { session: answer.session, setCookies: NO_SET_COOKIES, cookies: NO_COOKIES }
  if (answer.token) result.token = answer.token
  if (answer.user) result.user = answer.user
  return result
}
