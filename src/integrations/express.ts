// Express integration (gatehouse/express, the API of @auth/express): ExpressAuth mounts the pipeline on a path and
// reads Express's node request natively; getSession reads an app route's session straight from its Cookie header.
import type { IncomingMessage, ServerResponse } from "node:http"
import type { NextFunction, Request, Response } from "express"
import { resolveConfig } from "../config/resolve.js"
import { readEnv } from "../lib/env.js"
import type { ResolvedConfig } from "../pipeline-types.js"
import { InvalidEndpoints } from "../errors.js"
import { handle } from "../pipeline.js"
import type { InferSession } from "../infer.js"
import type { AuthConfig, Session } from "../types.js"
import { deriveFrontDoorConfig, PerConfig } from "./front-door.js"
import {
  appendSetCookies,
  nodeArrival,
  nodeHeaderReader,
  nodeHeaders,
  nodeInput,
  readNodeBody,
  writeNodeResponse,
} from "./node-io.js"
import { readServerSession } from "./session-read.js"

export { customFetch } from "../symbols.js"
export { AuthError, CredentialsSignin } from "../errors.js"
export type { Account, DefaultSession, Profile, Session, User } from "../types.js"
export type { InferJWT, InferSession } from "../infer.js"

/** The config ExpressAuth and getSession take: an AuthConfig without `raw` (Express writes the answer itself). */
export type ExpressAuthConfig = Omit<AuthConfig, "raw">

/** What getSession resolves to: the session (the config's `InferSession`), or null when signed out. */
export type GetSessionResult<S = Session> = Promise<S | null>

/** The basePath getSession uses when the config sets none (the path @auth/express documents mounting on). */
const DEFAULT_BASE_PATH = "/auth"

/** Distinct mount paths remembered per config; a mount with a path parameter (`/:tenant/auth`) cannot grow past it. */
const MAX_MOUNT_PATHS = 64

/** One resolved config per (user config, basePath): the user's object is never changed, and each is resolved once. */
const resolvedByMount = new PerConfig<ResolvedConfig>(MAX_MOUNT_PATHS)

function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path
}

/**
 * The resolved config for `basePath`, derived once. With `mismatch`, the config's basePath differs from where it is
 * mounted: that is answered as a configuration error (logged once per mount path by the pipeline).
 */
function resolvedFor(config: ExpressAuthConfig, basePath: string, mismatch?: string): ResolvedConfig {
  return resolvedByMount.get(config, basePath, () => {
    // The mount path is the basePath (AUTH_URL's path does not move it); each provider's AUTH_<ID>_* is filled on a
    // copy, as @auth/express does.
    const door = { env: readEnv, defaultBasePath: DEFAULT_BASE_PATH, basePath, fillProviders: true }
    const resolved = resolveConfig(deriveFrontDoorConfig<AuthConfig>(config, door))
    if (mismatch === undefined || resolved.error) return resolved
    return Object.freeze({ ...resolved, error: new InvalidEndpoints(mismatch) })
  })
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text)
  } catch {
    return undefined
  }
}

/**
 * The path ExpressAuth is mounted on. `app.use("/auth", …)` gives it as `req.baseUrl`; a wildcard mount
 * (`"/auth/*"` in Express 4, `"/auth/*splat"` in Express 5) also puts the matched rest in `baseUrl`, so the rest
 * the wildcard captured is cut off again. Undefined when the captured rest cannot be found in the raw path.
 */
function mountPathOf(req: Request): string | undefined {
  const base = req.baseUrl
  const params: Record<string, unknown> = req.params ?? {}
  let wildcard: string | readonly unknown[] | undefined
  for (const [key, value] of Object.entries(params)) {
    if (Array.isArray(value))
      wildcard = value // Express 5: one decoded value per segment
    else if (/^\d+$/.test(key) && typeof value === "string") wildcard = value // Express 4: the decoded rest
  }
  if (wildcard === undefined || wildcard.length === 0 || wildcard === "") return trimSlash(base)
  const segments = base.split("/")
  if (Array.isArray(wildcard)) {
    if (segments.length <= wildcard.length) return undefined
    return trimSlash(segments.slice(0, segments.length - wildcard.length).join("/"))
  }
  for (let k = 1; k < segments.length; k++) {
    if (safeDecode(segments.slice(-k).join("/")) === wildcard) return trimSlash(segments.slice(0, -k).join("/"))
  }
  return undefined
}

function isUnder(path: string, basePath: string): boolean {
  return (
    basePath === "/" ||
    path === basePath ||
    (path.startsWith(basePath) && path.charCodeAt(basePath.length) === 47) /* / */
  )
}

function mismatchMessage(mountPath: string, basePath: string): string {
  return (
    `ExpressAuth is mounted at "${mountPath}" but the config sets basePath "${basePath}". The mount path is the basePath: ` +
    `remove \`basePath\` from the config, or mount it with app.use("${basePath}", ExpressAuth(config)).`
  )
}

function contentTypeOf(req: IncomingMessage): string {
  return (req.headers["content-type"] ?? "").split(";", 1)[0]!.trim().toLowerCase()
}

/** Appends a parsed form field as `application/x-www-form-urlencoded` would carry it (nested keys as `a[b]`). */
function appendField(form: URLSearchParams, key: string, value: unknown): void {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
    form.append(key, String(value))
  else if (Array.isArray(value)) for (const item of value) appendField(form, key, item)
  else if (value !== null && typeof value === "object") {
    for (const [name, item] of Object.entries(value)) appendField(form, `${key}[${name}]`, item)
  }
}

/** A body a parser already turned into `req.body`, encoded back as its content type says. */
function encodeParsedBody(body: unknown, type: string): Buffer {
  if (Buffer.isBuffer(body)) return body // express.raw()
  if (typeof body === "string") return Buffer.from(body, "utf8") // express.text()
  if (type === "application/x-www-form-urlencoded") {
    const form = new URLSearchParams()
    if (body !== null && typeof body === "object")
      for (const [key, value] of Object.entries(body)) appendField(form, key, value)
    return Buffer.from(form.toString(), "utf8")
  }
  if (type === "application/json") return Buffer.from(JSON.stringify(body) ?? "", "utf8")
  return Buffer.alloc(0) // the pipeline reads no other type
}

/**
 * The body reader for an Express request. When a body parser (express.json(), express.urlencoded(), …) ran first,
 * the stream is consumed and `req.body` holds the fields: they are encoded back (never waited for). Otherwise the
 * stream is read, bounded by `limit`.
 */
function expressBodyReader(req: Request, res: ServerResponse): (limit: number) => Promise<Buffer | undefined> {
  return (limit) => {
    const parsed: unknown = req.body
    const consumed = req.readableEnded || (req as { _body?: unknown })._body === true
    if (consumed && parsed !== undefined) {
      const bytes = encodeParsedBody(parsed, contentTypeOf(req))
      return Promise.resolve(bytes.length > limit ? undefined : bytes)
    }
    return readNodeBody(req, res, limit)
  }
}

/** The protocol Express reports: it follows `app.set("trust proxy", …)` for X-Forwarded-Proto. */
function protocolOf(req: Request): "http:" | "https:" {
  return req.protocol === "https" ? "https:" : "http:"
}

/**
 * The client's address as Express computes it under the app's `trust proxy` setting (`req.ip`), when the app set
 * one; the sign-in rate limit uses it unless `rateLimit.clientAddress` says otherwise. Without the setting, none.
 */
function trustedAddressOf(req: Request): (() => string | undefined) | undefined {
  const trust: unknown = req.app?.get("trust proxy")
  return trust ? () => req.ip : undefined
}

/**
 * The Express middleware that answers every auth request under the path it is mounted on:
 * `app.use("/auth", ExpressAuth(config))` (Express 4 and 5; `"/auth/*"` also works in Express 4). The mount path is
 * the basePath. Mounted without a path, it takes `config.basePath` (default "/auth") and passes every other request on.
 * Its promise never rejects: the pipeline answers auth errors itself, anything else goes to `next(error)`.
 */
export function ExpressAuth(
  config: ExpressAuthConfig,
): (req: Request, res: Response, next: NextFunction) => Promise<void> {
  const configured = config.basePath === undefined ? undefined : trimSlash(config.basePath)
  return async (req, res, next) => {
    try {
      let basePath = mountPathOf(req)
      let mismatch: string | undefined
      if (basePath === undefined) return next()
      if (basePath === "" || basePath === "/") {
        basePath = configured ?? DEFAULT_BASE_PATH
        if (!isUnder(req.path, basePath)) return next()
      } else if (configured !== undefined && configured.toLowerCase() !== basePath.toLowerCase()) {
        // Case-insensitive: Express routes "/AUTH" to a "/auth" mount unless told otherwise; that is no mismatch.
        mismatch = mismatchMessage(basePath, configured)
      }
      const resolved = resolvedFor(config, basePath, mismatch)
      const input = nodeInput(req, {
        target: req.originalUrl,
        protocol: protocolOf(req),
        frameworkClientAddress: trustedAddressOf(req),
        readBody: expressBodyReader(req, res),
        res,
      })
      const internal = await handle(input, resolved)
      writeNodeResponse(res, internal, input)
    } catch (error) {
      // Not an auth answer (the pipeline answers those): a raw-mode throw, or a response Node could not write.
      next(error)
    }
  }
}

/**
 * The session of an app route's request (GET /session's rules, read from the Cookie header, no web Request built):
 * the session, or null when signed out. The basePath is `config.basePath`, else "/auth". A re-issued session cookie is
 * added to the route's response while its headers are not sent. Rejects only for a broken config. Typed as the
 * config's session (`InferSession`): a config typed `: ExpressAuthConfig` gives `Session`.
 */
export async function getSession<C extends ExpressAuthConfig = ExpressAuthConfig>(
  req: Request,
  config: C,
): GetSessionResult<InferSession<C>> {
  const basePath = config.basePath === undefined ? DEFAULT_BASE_PATH : trimSlash(config.basePath)
  const resolved = resolvedFor(config, basePath)
  const read = await readServerSession(
    { url: nodeArrival(req, protocolOf(req)), header: nodeHeaderReader(req), headers: () => nodeHeaders(req) },
    resolved,
  )
  const res = req.res
  if (read.setCookies.length && res && !res.headersSent) appendSetCookies(res, read.setCookies)
  return read.session as InferSession<C> | null
}
