// gatehouse/v4/middleware (next-auth 4's next-auth/middleware): withAuth, which lets a request on when it carries a
// session token that decodes (or the `authorized` callback says yes) and otherwise redirects it (307) to the sign-in
// page with the page asked for as a relative callbackUrl. Paths that never need a session pass untouched: the auth
// routes (NEXTAUTH_URL's path), /_next, /favicon.ico and the sign-in and error pages. Built for Next's Edge runtime:
// no node:* module and no run-time import of next (answers are plain web Responses, which Next takes from
// middleware as it takes NextResponse).
import type { NextFetchEvent, NextMiddleware, NextRequest } from "next/server.js"
import { readEnv, v4EnvSecret } from "../../lib/env.js"
import type { JWT } from "../../types.js"
import { getToken } from "./jwt.js"
import type { AuthOptions, Awaitable, JWTOptions } from "./types.js"

/** The `authorized` callback: true lets the request on; false sends it to the sign-in page. */
type AuthorizedCallback = (params: { token: JWT | null; req: NextRequest }) => Awaitable<boolean>

/** The options of withAuth (next-auth 4's). */
export interface NextAuthMiddlewareOptions {
  /** The sign-in and error pages, as in NextAuth's `pages` (default `/api/auth/signin`, `/api/auth/error`). */
  pages?: AuthOptions["pages"]
  /** The session cookie's name, when NextAuth's `cookies.sessionToken.name` changes it. */
  cookies?: Partial<Record<"sessionToken", { name: string }>>
  /** The same custom `jwt.decode` as NextAuth's, when it has one. */
  jwt?: Partial<Pick<JWTOptions, "decode">>
  callbacks?: {
    /** Default: whether the request carries a valid session token. */
    authorized?: AuthorizedCallback
  }
  /** Default: NEXTAUTH_SECRET, then AUTH_SECRET. A list (`[new, old]`) is tried in order, as getToken does. */
  secret?: string | string[]
}

/** What a middleware may return (nothing: Next goes on with the request). */
type NextMiddlewareResult = ReturnType<NextMiddleware> | void

/** The request a middleware wrapped by withAuth gets: the decoded token as `req.nextauth.token`. */
export interface NextRequestWithAuth extends NextRequest {
  nextauth: { token: JWT | null }
}

/** A middleware withAuth wraps. */
export type NextMiddlewareWithAuth = (
  request: NextRequestWithAuth,
  event: NextFetchEvent,
) => NextMiddlewareResult | Promise<NextMiddlewareResult>

/** The argument lists withAuth accepts. */
export type WithAuthArgs =
  | [NextRequestWithAuth]
  | [NextRequestWithAuth, NextFetchEvent]
  | [NextRequestWithAuth, NextAuthMiddlewareOptions]
  | [NextMiddlewareWithAuth]
  | [NextMiddlewareWithAuth, NextAuthMiddlewareOptions]
  | [NextAuthMiddlewareOptions]
  | []

const PUBLIC_PATHS = ["/_next", "/favicon.ico"]

/** NEXTAUTH_URL's path (a value without a scheme is https://), `/api/auth` when unset or `/`; no trailing slash. */
function authPathOf(nextAuthUrl: string | undefined): string {
  try {
    const url = new URL(nextAuthUrl ? (nextAuthUrl.startsWith("http") ? nextAuthUrl : `https://${nextAuthUrl}`) : "")
    return (url.pathname === "/" ? "/api/auth" : url.pathname).replace(/\/$/, "")
  } catch {
    return "/api/auth"
  }
}

/** The parts of the request URL withAuth reads: NextRequest's nextUrl (with Next's basePath), else the plain URL. */
function urlParts(req: Request): { pathname: string; search: string; origin: string; basePath: string } {
  const next = (req as Partial<NextRequest>).nextUrl
  if (next) return { pathname: next.pathname, search: next.search, origin: next.origin, basePath: next.basePath }
  const url = new URL(req.url)
  return { pathname: url.pathname, search: url.search, origin: url.origin, basePath: "" }
}

/** A redirect Next's middleware runner follows (NextResponse.redirect's default status, 307). */
function redirect(url: URL): Response {
  return new Response(null, { status: 307, headers: { Location: url.href } })
}

async function handleMiddleware(
  req: NextRequest,
  options: NextAuthMiddlewareOptions | undefined,
  onSuccess?: (token: JWT | null) => Promise<NextMiddlewareResult>,
): Promise<NextMiddlewareResult> {
  const { pathname, search, origin, basePath } = urlParts(req)
  const signInPage = options?.pages?.signIn ?? "/api/auth/signin"
  const errorPage = options?.pages?.error ?? "/api/auth/error"
  const authPath = authPathOf(readEnv("NEXTAUTH_URL"))
  // Paths that never need a session: redirecting them would loop or break the app's assets.
  if (
    `${basePath}${pathname}`.startsWith(authPath) ||
    pathname === signInPage ||
    pathname === errorPage ||
    PUBLIC_PATHS.some((path) => pathname.startsWith(path))
  )
    return undefined

  const secret = options?.secret ?? v4EnvSecret()
  if (!secret || secret.length === 0) {
    console.error("[gatehouse/v4] withAuth has no secret: set NEXTAUTH_SECRET (or pass `secret`).")
    const errorUrl = new URL(`${basePath}${errorPage}`, origin)
    errorUrl.searchParams.append("error", "Configuration")
    return redirect(errorUrl)
  }

  const token = await getToken({
    req,
    decode: options?.jwt?.decode,
    cookieName: options?.cookies?.sessionToken?.name,
    secret,
  })
  const authorized = (await options?.callbacks?.authorized?.({ req, token })) ?? !!token
  if (authorized) return await onSuccess?.(token)

  const signInUrl = new URL(`${basePath}${signInPage}`, origin)
  signInUrl.searchParams.append("callbackUrl", `${basePath}${pathname}${search}`)
  return redirect(signInUrl)
}

/** `export { default } from "gatehouse/v4/middleware"`: Next calls it with the request and the event. */
export function withAuth(): ReturnType<NextMiddlewareWithAuth>
export function withAuth(req: NextRequestWithAuth): ReturnType<NextMiddlewareWithAuth>
export function withAuth(req: NextRequestWithAuth, event: NextFetchEvent): ReturnType<NextMiddlewareWithAuth>
export function withAuth(
  req: NextRequestWithAuth,
  options: NextAuthMiddlewareOptions,
): ReturnType<NextMiddlewareWithAuth>
/** Wraps a middleware: it runs for authorized requests only, with the token as `req.nextauth.token`. */
export function withAuth(middleware: NextMiddlewareWithAuth, options: NextAuthMiddlewareOptions): NextMiddlewareWithAuth
export function withAuth(middleware: NextMiddlewareWithAuth): NextMiddlewareWithAuth
/** A middleware with these options. */
export function withAuth(options: NextAuthMiddlewareOptions): NextMiddlewareWithAuth
export function withAuth(...args: WithAuthArgs): ReturnType<NextMiddlewareWithAuth> | NextMiddlewareWithAuth {
  const [first, second] = args
  if (first === undefined) return Promise.reject(new TypeError("withAuth() was called without a request."))
  if (first instanceof Request) return handleMiddleware(first, second as NextAuthMiddlewareOptions | undefined)
  if (typeof first === "function") {
    const middleware = first
    const options = second as NextAuthMiddlewareOptions | undefined
    return async (req, event) =>
      handleMiddleware(req, options, async (token) => {
        req.nextauth = { token }
        return await middleware(req, event)
      })
  }
  const options = first
  return async (req) => handleMiddleware(req, options)
}

export default withAuth
