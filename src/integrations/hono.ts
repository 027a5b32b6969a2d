// gatehouse/hono: the @hono/auth-js API (initAuthConfig, authHandler, verifyAuth, getAuthUser, and its two env helpers) as a front door to the one pipeline.
import type { Context, Env, MiddlewareHandler } from "hono"
import { env } from "hono/adapter"
import { HTTPException } from "hono/http-exception"
import type { AdapterUser } from "../adapters/index.js"
import { setEnvDefaults as applyEnvDefaults } from "../config/env.js"
import { reportConfigError } from "../config/report.js"
import { resolveConfig } from "../config/resolve.js"
import type { ResolvedConfig } from "../pipeline-types.js"
import { InvalidEndpoints } from "../errors.js"
import { readLimited } from "../lib/read-limited.js"
import { handle } from "../pipeline.js"
import { type ArrivalOrigin, type RequestInput, serializedTarget, webInput } from "../request/input.js"
import { toResponse } from "../response/build.js"
import { configurationErrorResponse } from "../response/error.js"
import type { InferJWT, InferSession } from "../infer.js"
import type { AuthConfig as CoreAuthConfig, JWT, Session } from "../types.js"
import { deriveFrontDoorConfig, envReader, PerConfig } from "./front-door.js"
import { readServerSession } from "./session-read.js"

export type { InferJWT, InferSession } from "../infer.js"

/** The config `initAuthConfig` returns: Gatehouse's, without the `raw` marker; `basePath` defaults to `/api/auth`. */
export interface AuthConfig extends Omit<CoreAuthConfig, "raw"> {}

/**
 * The signed-in user of a request: the session (as GET /session answers it), the JWT or the adapter user. `S` and `T`
 * are the config's `InferSession` and `InferJWT` where the app's Hono env says so (`AuthVariables`).
 */
export interface AuthUser<S = Session, T = JWT> {
  session: S
  /** The token after the `jwt` callback (JWT strategy). */
  token?: T
  /** The adapter user (database strategy). */
  user?: AdapterUser
}

/** The environment variables read through Hono's `env(c)` (process.env on Node.js). */
export type AuthEnv = {
  AUTH_URL?: string
  AUTH_SECRET?: string
  AUTH_REDIRECT_PROXY_URL?: string
  [key: string]: string | undefined
}

/** Builds the config for a request. Return the same object each time (build it once) so it is resolved once. */
export type ConfigHandler<C extends AuthConfig = AuthConfig> = (c: Context) => C | Promise<C>

/**
 * The context variables these middlewares set, typed from the config: `c.get("authUser").session` is
 * `InferSession<C>`. initAuthConfig() returns middleware typed with them (routes chained after it get them), or
 * declare them on the app: `new Hono<{ Variables: AuthVariables<typeof config> }>()`.
 */
export type AuthVariables<C extends AuthConfig = AuthConfig> = {
  authUser: AuthUser<InferSession<C>, InferJWT<C>>
  authConfig: AuthConfig
}

/** The `authUser` of a Hono env: the typed one of `AuthVariables`, else `AuthUser`. */
export type AuthUserOf<E extends Env> = 0 extends 1 & E
  ? AuthUser
  : E extends { Variables: { authUser: infer U } }
    ? U
    : AuthUser

declare module "hono" {
  interface ContextVariableMap {
    authUser: AuthUser
    authConfig: AuthConfig
  }
}

/**
 * @hono/auth-js's helper, kept for apps that call it themselves: fills `config` in place from `envObject`, `secret`
 * from AUTH_SECRET first, then the rest as `setEnvDefaults` from `gatehouse` does (basePath from AUTH_URL, else
 * `/auth`; AUTH_SECRET_1..3; trustHost; AUTH_<PROVIDER>_*). The middlewares below never call it: they derive a copy.
 */
export function setEnvDefaults(envObject: AuthEnv, config: AuthConfig): void {
  config.secret ??= envObject.AUTH_SECRET
  applyEnvDefaults(envObject, config)
}

/** The URL parts AUTH_URL overrides, in @hono/auth-js's order; a part AUTH_URL leaves empty (no port) stays. */
const ENV_URL_PARTS = ["hostname", "protocol", "port", "password", "username"] as const

/**
 * @hono/auth-js's helper: a copy of `req` whose URL takes its origin from `authUrl` (the path stays the request's),
 * or, without `authUrl`, from X-Forwarded-Proto and X-Forwarded-Host (else Host), which then becomes the Host header.
 * It trusts those headers as they come, as @hono/auth-js does; the middlewares below do not use it (they apply
 * `trustHost` and AUTH_URL themselves).
 */
export function reqWithEnvUrl(req: Request, authUrl?: string): Request {
  const url = new URL(req.url)
  if (authUrl) {
    const envUrl = new URL(authUrl)
    for (const part of ENV_URL_PARTS) if (envUrl[part]) url[part] = envUrl[part]
    return new Request(url.href, req)
  }
  const copy = new Request(url.href, req)
  const proto = copy.headers.get("x-forwarded-proto")
  const host = copy.headers.get("x-forwarded-host") ?? copy.headers.get("host")
  if (proto !== null) url.protocol = proto.endsWith(":") ? proto : `${proto}:`
  if (host !== null) {
    url.host = host
    // The host setter keeps the old port when the new host has none: clear it unless the header names one.
    url.port = /:(\d+)$/.exec(host)?.[1] ?? ""
    copy.headers.delete("x-forwarded-host")
    copy.headers.set("host", host)
  }
  return new Request(url.href, copy)
}

/** @hono/auth-js's documented default; AUTH_URL's path replaces it when the config sets no basePath. */
const DEFAULT_BASE_PATH = "/api/auth"

/** The resolved config of each config object a ConfigHandler returned (derived from env once, never mutated). */
const resolvedByConfig = new PerConfig<ResolvedConfig>()

/**
 * The resolved copy of the user's config with what @hono/auth-js takes from the environment: basePath (AUTH_URL's
 * path, else `/api/auth`), secret (AUTH_SECRET, AUTH_SECRET_1..3), trustHost (Auth.js's platform defaults), the
 * redirect proxy URL and the providers' AUTH_<ID>_* (on copies). Config resolution reads the rest (AUTH_URL as the
 * origin, AUTH_TRUSTED_ORIGINS) from the same `env(c)`: on Cloudflare Workers that is the bindings, not `process.env`.
 */
function resolveFromEnv(c: Context, config: AuthConfig): ResolvedConfig {
  const door = { env: envReader(env<AuthEnv>(c)), defaultBasePath: DEFAULT_BASE_PATH, fillProviders: true }
  return resolveConfig(deriveFrontDoorConfig<CoreAuthConfig>(config, door, { raw: undefined }))
}

/** The memoized resolution (also for a config an app stored with `c.set("authConfig", …)` itself). */
function resolveFor(c: Context, config: AuthConfig): ResolvedConfig {
  return resolvedByConfig.get(config, "", () => resolveFromEnv(c, config))
}

function sameError(a: Error | undefined, b: Error | undefined): boolean {
  return a !== undefined && b !== undefined && a.constructor === b.constructor && a.message === b.message
}

/**
 * Stores the config for each request (`c.get("authConfig")`). The config is resolved once per object the callback
 * returns; a callback that builds a new object per request still works, but pays a resolve per request. The
 * middleware's env carries `AuthVariables<C>`, so routes chained after it read a session typed from the config.
 */
export function initAuthConfig<C extends AuthConfig = AuthConfig>(
  cb: ConfigHandler<C>,
): MiddlewareHandler<{ Variables: AuthVariables<C> }> {
  // A callback building a fresh, equally broken config per request would log the same error each time: reuse the
  // first broken resolution (already reported) for the later ones, so the error is logged once.
  let lastBroken: ResolvedConfig | undefined
  return async (c, next) => {
    const config = await cb(c)
    c.set("authConfig", config)
    resolvedByConfig.get(config, "", () => {
      const resolved = resolveFromEnv(c, config)
      if (!resolved.error) return resolved
      if (lastBroken && sameError(lastBroken.error, resolved.error)) return lastBroken
      return (lastBroken = resolved)
    })
    await next()
  }
}

function configOf(c: Context): ResolvedConfig {
  const config = c.get("authConfig") as AuthConfig | undefined
  if (!config) {
    throw new InvalidEndpoints(
      'gatehouse/hono: this request has no auth config. Add `app.use("*", initAuthConfig((c) => config))` before authHandler(), verifyAuth() and getAuthUser().',
    )
  }
  return resolveFor(c, config)
}

function isUnder(path: string, base: string): boolean {
  return base === "/" || path === base || (path.startsWith(base) && path.charCodeAt(base.length) === 47) /* "/" */
}

/** The fixed prefix of a mount such as `app.use("/auth/*", …)`; undefined for `*` or a pattern with parameters. */
function mountPrefix(routePath: string): string | undefined {
  if (!routePath.endsWith("/*")) return undefined
  const prefix = routePath.slice(0, -2)
  return prefix === "" || /[:*{}()?]/.test(prefix) ? undefined : prefix
}

const mismatchesReported = new WeakMap<ResolvedConfig, Set<string>>()

/** authHandler() mounted where no auth route can be: one clear error (logged once), answered as a config error. */
function mountMismatch(resolved: ResolvedConfig, mount: string, input: RequestInput): Response {
  let seen = mismatchesReported.get(resolved)
  if (!seen) mismatchesReported.set(resolved, (seen = new Set()))
  if (!seen.has(mount)) {
    seen.add(mount)
    resolved.logger.error(
      new InvalidEndpoints(
        `authHandler() is mounted at "${mount}/*" but the auth config's basePath is "${resolved.basePath}": set \`basePath: "${mount}"\` ` +
          `in the config initAuthConfig returns (or AUTH_URL to <origin>${mount}), or mount it with app.use("${resolved.basePath}/*", authHandler()).`,
      ),
    )
  }
  return toResponse(configurationErrorResponse(input, resolved), false, input.method === "HEAD")
}

/** The peer address on @hono/node-server, whose `c.env.incoming` is the node request; unknown elsewhere. */
function socketAddressOf(bindings: unknown): string | undefined {
  if (!bindings || typeof bindings !== "object") return undefined
  const incoming = (bindings as { incoming?: { socket?: { remoteAddress?: unknown } } }).incoming
  const address = incoming?.socket?.remoteAddress
  return typeof address === "string" ? address : undefined
}

/** The pipeline input of a Hono request; a body an earlier middleware already read comes from Hono's cached copy. */
function honoInput(c: Context): RequestInput {
  const request = c.req.raw
  return webInput(request, {
    clientAddress: socketAddressOf(c.env),
    readBody: async (limit) => {
      if (!request.bodyUsed) return readLimited(request, limit)
      const bytes = new Uint8Array(await c.req.arrayBuffer())
      return bytes.byteLength > limit ? undefined : bytes
    },
  })
}

/**
 * Answers the requests under the config's basePath (sign-in, callbacks, session, sign-out, pages) through the
 * pipeline; every other request goes on to the next handler untouched. Mount it with `app.use("/api/auth/*", …)`.
 */
export function authHandler(): MiddlewareHandler {
  return async (c, next) => {
    const resolved = configOf(c)
    if (!isUnder(c.req.path, resolved.basePath)) {
      const mount = mountPrefix(c.req.routePath)
      if (mount !== undefined && !isUnder(resolved.basePath, mount))
        return mountMismatch(resolved, mount, webInput(c.req.raw))
      return next()
    }
    const request = c.req.raw
    const internal = await handle(honoInput(c), resolved)
    try {
      return toResponse(
        internal,
        () => request.headers.get("x-auth-return-redirect") !== null,
        request.method === "HEAD",
      )
    } catch (failure) {
      // A header value the Response constructor refuses (e.g. a configured page URL with a newline).
      resolved.logger.error(failure instanceof Error ? failure : new Error(String(failure)))
      return new Response(null, { status: 500 })
    }
  }
}

/** The origin parts of a web Request's URL: read from its string when it has the plain serialized form, else parsed. */
function arrivalOf(url: string): ArrivalOrigin {
  return serializedTarget(url) ?? new URL(url)
}

/** A broken config, as an HTTPException: the handler's 500 configuration answer, the AuthError as its cause. */
function configException(c: Context, resolved: ResolvedConfig, error: Error): HTTPException {
  const res = toResponse(configurationErrorResponse(webInput(c.req.raw), resolved), false)
  return new HTTPException(500, { res, message: error.message, cause: error })
}

async function readAuthUser(c: Context): Promise<AuthUser | null> {
  const resolved = configOf(c)
  if (resolved.error) {
    reportConfigError(resolved)
    throw configException(c, resolved, resolved.error)
  }
  const request = c.req.raw
  const read = await readServerSession(
    { url: arrivalOf(request.url), header: request.headers, headers: () => request.headers },
    resolved,
  )
  for (const cookie of read.setCookies) c.header("Set-Cookie", cookie, { append: true })
  if (read.session === null) return null
  const authUser: AuthUser = { session: read.session }
  if (read.token) authUser.token = read.token
  if (read.user) authUser.user = read.user
  return authUser
}

const readsByContext = new WeakMap<Context, Promise<AuthUser | null>>()

/**
 * The signed-in user of this request, or null: read from the Cookie header under GET /session's rules (a cookie
 * due for re-issue is re-issued on the Hono response). Read once per request. A broken config throws an
 * HTTPException(500) whose cause is the AuthError (logged once). Typed as the context's `authUser` (`AuthVariables`).
 */
export function getAuthUser<E extends Env>(c: Context<E>): Promise<AuthUserOf<E> | null> {
  let read = readsByContext.get(c)
  if (!read) {
    read = readAuthUser(c)
    readsByContext.set(c, read)
  }
  return read as Promise<AuthUserOf<E> | null>
}

/** Lets signed-in requests through with `c.get("authUser")` set; others get 401 `Unauthorized` (an HTTPException). */
export function verifyAuth(): MiddlewareHandler {
  return async (c, next) => {
    const authUser = await getAuthUser(c)
    if (!authUser) throw new HTTPException(401, { res: new Response("Unauthorized", { status: 401 }) })
    c.set("authUser", authUser)
    await next()
  }
}
