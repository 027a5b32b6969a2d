// gatehouse/solid-start: the API of @auth/solid-start (SolidAuth's GET and POST for the catch-all API route, and
// getSession) as a front door to the one pipeline. It imports nothing of SolidStart's: a handler reads the two fields
// of the APIEvent it needs, so the entry also runs where SolidStart deploys off Node.js.
import { resolveConfig } from "../config/resolve.js"
import { readEnv } from "../lib/env.js"
import type { ResolvedConfig } from "../pipeline-types.js"
import { handle } from "../pipeline.js"
import { targetOf, webInput } from "../request/input.js"
import { toResponse } from "../response/build.js"
import type { InferSession } from "../infer.js"
import type { AuthConfig, Session } from "../types.js"
import { deriveFrontDoorConfig, type FrontDoor, PerConfig } from "./front-door.js"
import { readServerSession } from "./session-read.js"

export { customFetch } from "../symbols.js"
export { AuthError, CredentialsSignin } from "../errors.js"
export type { Account, DefaultSession, Profile, Session, User } from "../types.js"
export type { InferJWT, InferSession } from "../infer.js"

/** The config SolidAuth and getSession take: Gatehouse's (without `raw`: the route returns a Response) and `prefix`. */
export interface SolidAuthConfig extends Omit<AuthConfig, "raw"> {
  /**
   * Where the catch-all route file sits (`src/routes/api/auth/[...solidauth].ts` → `/api/auth`, the default): the
   * handlers answer the requests under it, and it is the basePath every auth URL is built on. Set it when the route
   * file lives elsewhere; without it, `basePath` or AUTH_URL's path may name the place instead.
   */
  prefix?: string
}

/** The part of SolidStart's APIEvent the handlers read. */
export interface SolidAuthEvent {
  readonly request: Request
  /** The peer's address as SolidStart reports it (the sign-in rate limit's key when no client-address rule is set). */
  readonly clientAddress?: string | undefined
}

/** A route handler of the catch-all route: a Response for an auth request, undefined for any other path. */
export type SolidAuthHandler = (event: SolidAuthEvent) => Promise<Response | undefined>

/** What getSession resolves to: the session (the config's `InferSession`), or null when signed out. */
export type GetSessionResult<S = Session> = Promise<S | null>

/** @auth/solid-start's default prefix, the folder of its documented route file. */
const DEFAULT_PREFIX = "/api/auth"

/** The resolved config of each user config object, derived from `process.env` once (keyed by the prefix it names). */
const resolvedByConfig = new PerConfig<ResolvedConfig>(4)

function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path
}

/**
 * The resolved copy of `config`: its basePath is the prefix when one is given (the route file's place wins over a
 * `basePath` that disagrees, as no request can reach another place), else the config's basePath, AUTH_URL's path or
 * `/api/auth`. @auth/solid-start leaves basePath to @auth/core's `/auth` whatever the prefix, so its documented
 * config answers every request with 400; here the prefix and the basePath are one. Secrets, the trust rule (Auth.js's
 * platform defaults) and the redirect proxy come from `process.env`, as in every front door.
 */
function resolvedFor(config: SolidAuthConfig): ResolvedConfig {
  const { prefix, ...authConfig } = config
  return resolvedByConfig.get(config, prefix ?? "", () => {
    const door: FrontDoor = {
      env: readEnv,
      defaultBasePath: DEFAULT_PREFIX,
      // @auth/solid-start fills only an unset secret (`??=`).
      keepSecret: true,
      ...(prefix !== undefined ? { basePath: trimSlash(prefix) } : {}),
    }
    return resolveConfig(deriveFrontDoorConfig<AuthConfig>(authConfig, door, { raw: undefined }))
  })
}

function isUnder(path: string, basePath: string): boolean {
  return (
    basePath === "/" || path === basePath || (path.startsWith(basePath) && path.charCodeAt(basePath.length) === 47) // "/"
  )
}

async function answer(event: SolidAuthEvent, config: SolidAuthConfig): Promise<Response | undefined> {
  const resolved = resolvedFor(config)
  const request = event.request
  const address = event.clientAddress
  const input = webInput(request, { clientAddress: typeof address === "string" ? address : undefined })
  // A path outside the auth routes is not this route's (SolidStart then renders a page of the same path, if any).
  if (!isUnder(targetOf(input).pathname, resolved.basePath)) return undefined
  const internal = await handle(input, resolved)
  try {
    return toResponse(internal, () => request.headers.has("x-auth-return-redirect"), request.method === "HEAD")
  } catch (failure) {
    // A header value the Response constructor refuses (e.g. a configured page URL with a newline).
    resolved.logger.error(failure instanceof Error ? failure : new Error(String(failure)))
    return new Response(null, { status: 500 })
  }
}

/**
 * The handlers of the catch-all API route:
 *
 * ```ts
 * // src/routes/api/auth/[...solidauth].ts
 * export const { GET, POST } = SolidAuth(authConfig)
 * ```
 *
 * Every auth route under the prefix goes through Gatehouse's pipeline (the CSRF check included). The config is derived
 * and checked on the first request, once; a broken config answers every request with the configuration error.
 */
export function SolidAuth(config: SolidAuthConfig): { GET: SolidAuthHandler; POST: SolidAuthHandler } {
  const handler: SolidAuthHandler = (event) => answer(event, config)
  return { GET: handler, POST: handler }
}

/**
 * The session of `request` (a server function's `getRequestEvent().request`, a middleware's `event.request`), or null
 * when signed out: read straight from its Cookie header under GET /session's rules, with the same derived config as
 * SolidAuth (pass the same object). A cookie due for re-issue is not re-issued here (the route's /session does that),
 * as with @auth/solid-start. A broken config throws its AuthError (logged once). Typed as the config's session
 * (`InferSession`): a config typed `: SolidAuthConfig` gives `Session`.
 */
export async function getSession<C extends SolidAuthConfig = SolidAuthConfig>(
  request: Request,
  config: C,
): GetSessionResult<InferSession<C>> {
  const resolved = resolvedFor(config)
  const url = new URL(request.url)
  const read = await readServerSession(
    {
      url: { protocol: url.protocol, host: url.host, origin: url.origin },
      header: request.headers,
      headers: () => request.headers,
    },
    resolved,
  )
  return read.session as InferSession<C> | null
}
