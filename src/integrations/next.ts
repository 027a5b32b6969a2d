// gatehouse/next: next-auth v5's API for Next.js 15 and 16 (NextAuth → handlers, auth, signIn, signOut, unstable_update)
// as a front door to the one pipeline. This file loads nothing that needs Node.js: the core (node:crypto) is imported
// on first use, after the Edge-runtime check, so a wrong runtime gets an error naming the fix, not a crash in a chunk.
import type { IncomingMessage, ServerResponse } from "node:http"
import type { NextRequest } from "next/server.js"
import { AuthError } from "../errors.js"
import type { Session } from "../types.js"
import type { AuthorizationParams, SignInOptions, SignOutOptions } from "./next/actions.js"
import type { NextAuthConfigInput } from "./next/config.js"
import { assertNodeRuntime } from "./next/edge.js"
import type { AuthHandler } from "./next/request-auth.js"

export type { AuthorizedCallback, NextAuthConfig, NextAuthConfigInput } from "./next/config.js"
export type { AuthorizationParams, SignInOptions, SignOutOptions } from "./next/actions.js"
export type { AuthHandler, AuthHandlerResult, NextAuthRequest } from "./next/request-auth.js"
export { AuthError, CredentialsSignin } from "../errors.js"
export { customFetch } from "../symbols.js"
export type { Account, DefaultSession, JWT, Profile, Session, User } from "../types.js"

type Core = typeof import("./next/core.js")
let core: Promise<Core> | undefined

/** The Node.js core, after the runtime check: in the Edge runtime this throws the AuthError that names the fix. */
function loadCore(): Promise<Core> {
  try {
    assertNodeRuntime()
  } catch (error) {
    return Promise.reject(error)
  }
  return (core ??= import("./next/core.js"))
}

/** A route handler of the auth endpoints: `export const { GET, POST } = handlers` in app/api/auth/[...nextauth]/route.ts. */
export type AuthRouteHandler = (request: NextRequest) => Promise<Response>

/** `auth`: one function for server components, middleware/proxy, wrapped route handlers and the pages router. */
export interface NextAuthAuth {
  /** The current session in a server component, route handler or server action (null: signed out). */
  (): Promise<Session | null>
  /** Middleware/proxy (`export { auth as proxy }`): runs `callbacks.authorized` and answers or lets the request on. */
  (request: NextRequest, event?: unknown): Promise<Response>
  /** Wraps a middleware or route handler: it gets the session as `request.auth`. */
  <Context>(handler: AuthHandler<Context>): (request: NextRequest, context: Context) => Promise<Response>
  /** Pages router API route: the session; a re-issued cookie is added to `res`. */
  (req: IncomingMessage, res: ServerResponse): Promise<Session | null>
  /** Pages router getServerSideProps context. */
  (context: { req: IncomingMessage; res: ServerResponse }): Promise<Session | null>
}

/** What NextAuth returns (next-auth v5's shape). */
export interface NextAuthResult {
  /** The auth endpoints' route handlers (basePath `/api/auth` by default). */
  handlers: { GET: AuthRouteHandler; POST: AuthRouteHandler }
  auth: NextAuthAuth
  /**
   * Server action: signs in with `provider` (none or unknown: to the sign-in page). `options` may be the submitted
   * FormData (credentials fields, `redirectTo`). Redirects unless `redirect: false`, then resolves to the URL. A failed
   * sign-in throws its AuthError (e.g. CredentialsSignin).
   */
  signIn(provider?: string, options?: SignInOptions, authorizationParams?: AuthorizationParams): Promise<string>
  /** Server action: signs out and redirects unless `redirect: false`, then resolves to `{ redirect }`. */
  signOut(options?: SignOutOptions): Promise<{ redirect: string }>
  /** Server action or route handler: updates the session (the jwt callback gets trigger "update") and its cookie. */
  unstable_update(data: Partial<Session | { user: Partial<Session["user"]> }>): Promise<Session | null>
}

/** A web Request (NextRequest included), told apart from a node request, whose `headers` is a plain object. */
function isWebRequest(value: unknown): value is NextRequest {
  return typeof value === "object" && value !== null && typeof (value as { url?: unknown }).url === "string" &&
    typeof (value as { headers?: { get?: unknown } }).headers?.get === "function"
}

function isNodeRequest(value: unknown): value is IncomingMessage {
  return typeof value === "object" && value !== null && typeof (value as { headers?: unknown }).headers === "object" &&
    !isWebRequest(value)
}

/**
 * Sets up Gatehouse for a Next.js app, as next-auth v5's NextAuth does. `config` may be a function of the request
 * (undefined outside one: server components, server actions), called per use. The config object is never changed:
 * environment defaults (AUTH_SECRET, AUTH_URL's path, trustHost) go into a copy made once per object.
 */
export function NextAuth(config: NextAuthConfigInput): NextAuthResult {
  const route: AuthRouteHandler = async (request) => (await loadCore()).routeRequest(config, request)

  function auth(...args: unknown[]): unknown {
    const [first, second] = args
    if (args.length === 0) return loadCore().then((c) => c.sessionOfCurrentRequest(config))
    if (typeof first === "function") {
      // Checked now too, so `export default auth(fn)` in an Edge middleware fails when it loads, naming the fix.
      assertNodeRuntime()
      const handler = first as AuthHandler<unknown>
      return async (request: NextRequest, context: unknown) => (await loadCore()).requestAuth(config, request, context, handler)
    }
    if (isWebRequest(first)) return loadCore().then((c) => c.requestAuth(config, first, second))
    if (isNodeRequest(first)) return loadCore().then((c) => c.sessionOfNodeRequest(config, first, second as ServerResponse | undefined))
    if (typeof first === "object" && first !== null && "req" in first) {
      const { req, res } = first as { req: IncomingMessage; res?: ServerResponse }
      return loadCore().then((c) => c.sessionOfNodeRequest(config, req, res))
    }
    return Promise.reject(new AuthError("auth() takes no argument, a Request (middleware/proxy), a handler to wrap, or a pages-router (req, res) or { req, res }."))
  }

  return {
    handlers: { GET: route, POST: route },
    auth: auth as NextAuthAuth,
    signIn: async (provider, options, authorizationParams) => (await loadCore()).signIn(config, provider, options, authorizationParams),
    signOut: async (options) => (await loadCore()).signOut(config, options),
    unstable_update: async (data) => (await loadCore()).update(config, data),
  }
}

export default NextAuth
