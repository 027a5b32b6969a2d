// The NextAuth factory of gatehouse/next (next-auth v5's API): which of auth()'s call forms a call is, and the core
// (core.ts) loaded on first use. The same code runs on Node.js and on Next's Edge runtime.
import type { IncomingMessage, ServerResponse } from "node:http"
import type { NextRequest } from "next/server.js"
import { AuthError } from "../../errors.js"
import type { InferSession } from "../../infer.js"
import type { Awaitable, Session } from "../../types.js"
import type { AuthorizationParams, SignInOptions, SignOutOptions } from "./actions.js"
import type { NextAuthConfig, NextAuthConfigInput } from "./config.js"
import type { AuthHandler } from "./request-auth.js"

/** The core of gatehouse/next (imported on first use). */
export type Core = typeof import("./core.js")

/** A route handler of the auth endpoints: `export const { GET, POST } = handlers` in app/api/auth/[...nextauth]/route.ts. */
export type AuthRouteHandler = (request: NextRequest) => Promise<Response>

/**
 * `auth`: one function for server components, middleware/proxy, wrapped route handlers and the pages router. `S` is
 * the session type: NextAuth(config) gives the config's `InferSession`.
 */
export interface NextAuthAuth<S = Session> {
  /** The current session in a server component, route handler or server action (null: signed out). */
  (): Promise<S | null>
  /** Middleware/proxy (`export { auth as proxy }`): runs `callbacks.authorized` and answers or lets the request on. */
  (request: NextRequest, event?: unknown): Promise<Response>
  /** Wraps a middleware or route handler: it gets the session as `request.auth`. */
  <Context>(handler: AuthHandler<Context, S>): (request: NextRequest, context: Context) => Promise<Response>
  /** Pages router API route: the session; a re-issued cookie is added to `res`. */
  (req: IncomingMessage, res: ServerResponse): Promise<S | null>
  /** Pages router getServerSideProps context. */
  (context: { req: IncomingMessage; res: ServerResponse }): Promise<S | null>
}

/** NextAuth's signature: its results are typed with the config's `InferSession` (`Session` for a typed config). */
export interface NextAuthFactory {
  /** A function of the request (undefined outside one), called per use. */
  <C extends NextAuthConfig = NextAuthConfig>(
    config: (request: NextRequest | undefined) => Awaitable<C>,
  ): NextAuthResult<InferSession<C>>
  /** The config object, derived once. */
  <C extends NextAuthConfig = NextAuthConfig>(config: C): NextAuthResult<InferSession<C>>
}

/** What NextAuth returns (next-auth v5's shape); `S` is the session type its reads resolve to. */
export interface NextAuthResult<S = Session> {
  /** The auth endpoints' route handlers (basePath `/api/auth` by default). */
  handlers: { GET: AuthRouteHandler; POST: AuthRouteHandler }
  auth: NextAuthAuth<S>
  /**
   * Server action: signs in with `provider` (none or unknown: to the sign-in page). `options` may be the submitted
   * FormData (credentials fields, `redirectTo`). Redirects unless `redirect: false`, then resolves to the URL. A failed
   * sign-in throws its AuthError (e.g. CredentialsSignin).
   */
  signIn(provider?: string, options?: SignInOptions, authorizationParams?: AuthorizationParams): Promise<string>
  /** Server action: signs out and redirects unless `redirect: false`, then resolves to `{ redirect }`. */
  signOut(options?: SignOutOptions): Promise<{ redirect: string }>
  /** Server action or route handler: updates the session (the jwt callback gets trigger "update") and its cookie. */
  unstable_update(data: Partial<Session | { user: Partial<Session["user"]> }>): Promise<S | null>
}

/** A web Request (NextRequest included), told apart from a node request, whose `headers` is a plain object. */
function isWebRequest(value: unknown): value is NextRequest {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { url?: unknown }).url === "string" &&
    typeof (value as { headers?: { get?: unknown } }).headers?.get === "function"
  )
}

function isNodeRequest(value: unknown): value is IncomingMessage {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { headers?: unknown }).headers === "object" &&
    !isWebRequest(value)
  )
}

/** Builds next-auth v5's NextAuth on a loader of the core, which runs once, on the first call that needs it. */
export function makeNextAuth(importCore: () => Promise<Core>): NextAuthFactory {
  let core: Promise<Core> | undefined
  const loadCore = (): Promise<Core> => (core ??= importCore())
  // The session reads resolve to what the config's callbacks return: typed per config, the same object at run time.
  return ((config: NextAuthConfigInput) => nextAuth(config, loadCore)) as NextAuthFactory
}

function nextAuth(config: NextAuthConfigInput, loadCore: () => Promise<Core>): NextAuthResult {
  const route: AuthRouteHandler = async (request) => (await loadCore()).routeRequest(config, request)

  function auth(...args: unknown[]): unknown {
    const [first, second] = args
    if (args.length === 0) return loadCore().then((c) => c.sessionOfCurrentRequest(config))
    if (typeof first === "function") {
      const handler = first as AuthHandler<unknown>
      return async (request: NextRequest, context: unknown) =>
        (await loadCore()).requestAuth(config, request, context, handler)
    }
    if (isWebRequest(first)) return loadCore().then((c) => c.requestAuth(config, first, second))
    if (isNodeRequest(first))
      return loadCore().then((c) => c.sessionOfNodeRequest(config, first, second as ServerResponse | undefined))
    if (typeof first === "object" && first !== null && "req" in first) {
      const { req, res } = first as { req: IncomingMessage; res?: ServerResponse }
      return loadCore().then((c) => c.sessionOfNodeRequest(config, req, res))
    }
    return Promise.reject(
      new AuthError(
        "auth() takes no argument, a Request (middleware/proxy), a handler to wrap, or a pages-router (req, res) or { req, res }.",
      ),
    )
  }

  return {
    handlers: { GET: route, POST: route },
    auth: auth as NextAuthAuth,
    signIn: async (provider, options, authorizationParams) =>
      (await loadCore()).signIn(config, provider, options, authorizationParams),
    signOut: async (options) => (await loadCore()).signOut(config, options),
    unstable_update: async (data) => (await loadCore()).update(config, data),
  }
}
