// auth(request) and auth(handler): the session of a web Request for middleware/proxy and wrapped route handlers.
// Runs callbacks.authorized (false: to the sign-in page; a Response: that answer) and forwards re-issued cookies.
import type { NextRequest } from "next/server.js"
import { InvalidRequest } from "../../errors.js"
import { resolveOrigin } from "../../request/host.js"
import type { Awaitable, Session } from "../../types.js"
import { readServerSession } from "../session-read.js"
import { type DerivedConfig, resolvedFor } from "./config.js"
import { nextServer, requestSource } from "./runtime.js"

/**
 * The request a wrapped handler or middleware gets: a NextRequest with the session as `auth` (null: signed out); `S`
 * is the config's `InferSession`.
 */
export type NextAuthRequest<S = Session> = NextRequest & { auth: S | null }

/** What a wrapped middleware or route handler may return; nothing means "continue" (NextResponse.next()). */
export type AuthHandlerResult = Response | null | undefined | void

/** A route handler or middleware that `auth(handler)` wraps. */
export type AuthHandler<Context, S = Session> = (
  request: NextAuthRequest<S>,
  context: Context,
) => Awaitable<AuthHandlerResult>

/** The answer with the session read's Set-Cookie values added; the answer is copied only when there are some. */
function withCookies(response: Response, setCookies: readonly string[]): Response {
  if (setCookies.length === 0) return response
  // Response.redirect() and fetch() answers have immutable headers: copy before adding.
  const copy = new Response(response.body, response)
  for (const value of setCookies) copy.headers.append("set-cookie", value)
  return copy
}

/** The sign-in page URL for an unauthorized request, with the page the user wanted as callbackUrl (next-auth's rule). */
function signInRedirectTarget(request: NextRequest, derived: DerivedConfig): URL | undefined {
  const resolved = resolvedFor(derived.config)
  const source = requestSource(request)
  const { origin } = resolveOrigin(source.url, source.header, resolved)
  const page = resolved.pages.signIn ?? `${resolved.basePath}/signin`
  const current = new URL(request.url)
  const target = new URL(page, origin)
  // Already on the sign-in page: let it through instead of redirecting it to itself.
  if (target.pathname === current.pathname) return undefined
  target.searchParams.set("callbackUrl", `${origin}${current.pathname}${current.search}`)
  return target
}

/**
 * One middleware/proxy or wrapped-handler call: reads the session from the request's cookies, runs
 * `callbacks.authorized({ auth, request })`, then answers with its Response, the handler's answer, a redirect to the
 * sign-in page (a falsy verdict without a handler), or NextResponse.next(). Re-issued session cookies go on the answer.
 */
export async function handleRequestAuth<Context>(
  derived: DerivedConfig,
  request: NextRequest,
  context: Context,
  handler?: AuthHandler<Context>,
): Promise<Response> {
  try {
    return await answer(derived, request, context, handler)
  } catch (error) {
    // A request Gatehouse refuses to read (e.g. an invalid X-Forwarded-Host behind trustHost): 4xx, as the handlers answer it.
    if (error instanceof InvalidRequest)
      return Response.json({ error: error.type, message: error.message }, { status: error.status })
    throw error
  }
}

async function answer<Context>(
  derived: DerivedConfig,
  request: NextRequest,
  context: Context,
  handler?: AuthHandler<Context>,
): Promise<Response> {
  const read = await readServerSession(requestSource(request), derived.config)
  const auth = read.session
  const authorized = derived.source.callbacks?.authorized
  const verdict = authorized ? await authorized({ request, auth }) : true
  const { NextResponse } = await nextServer()
  let response: Response
  if (verdict instanceof Response) {
    response = verdict
  } else if (handler) {
    const augmented = request as NextAuthRequest
    augmented.auth = auth
    response = (await handler(augmented, context)) ?? NextResponse.next()
  } else if (!verdict) {
    // Any falsy verdict (undefined included) sends the user to sign in, as next-auth v5 does.
    const target = signInRedirectTarget(request, derived)
    response = target ? NextResponse.redirect(target) : NextResponse.next()
  } else {
    response = NextResponse.next()
  }
  return withCookies(response, read.setCookies)
}
