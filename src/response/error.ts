// AnyAuthError -> internal response: 4xx JSON for requests we refuse, else the sign-in/error page redirect Auth.js clients expect.
// What a browser is told (the `?error=` code) and the statuses come from the error's class (errors.ts).
import {
  AccessDenied,
  AuthError,
  CallbackRouteError,
  CredentialsSignin,
  EmailSignInError,
  InvalidCheck,
  InvalidRequest,
  MissingCSRF,
  OAuthAccountNotLinked,
  OAuthCallbackError,
  OAuthProfileParseError,
  OAuthSignInError,
  RateLimited,
  UnknownAction,
  UntrustedHost,
  Verification,
} from "../errors.js"
import { actionRule } from "../actions/table.js"
import type { AuthRequest, ResolvedConfig } from "../pipeline-types.js"
import { parseActionPath } from "../request/parse.js"
import type { ResponseInternal } from "../types.js"
import type { RequestInput } from "../request/input.js"
import { JSON_HEADERS } from "./build.js"
import { errorPage } from "../pages/error.js"
import { pageHeaders } from "../pages/headers.js"
import { chooseLocale } from "../pages/locales/index.js"
import { clearChecks } from "../security/check-cookies.js"
import { sentCallbackUrl, sentCallbackUrlParam } from "../security/redirect.js"
import { merged } from "../lib/merged.js"
import { onOrigin, withQuery } from "../lib/page-url.js"

const CONFIGURATION_MESSAGE =
  "There was a problem with the server configuration. Check the server logs for more information."

/** An error's policy: the static fields of its class, or AuthError's (`Configuration`, 500) for anything else thrown. */
function policyOf(error: unknown): Pick<typeof AuthError, "pageCode" | "status"> {
  return error instanceof AuthError ? (error.constructor as typeof AuthError) : AuthError
}

function requestError(error: AuthError, status: number, allow?: readonly string[]): ResponseInternal {
  const headers: Record<string, string> = { ...JSON_HEADERS }
  if (allow) headers.Allow = allow.join(", ")
  return { status, headers, body: { error: error.type, message: error.message } }
}

/** Whether a client reads JSON rather than following redirects: Accept, X-Auth-Return-Redirect or a JSON body. */
function wantsJson(req: AuthRequest): boolean {
  if (req.returnRedirect) return true
  if ((req.header.get("accept") ?? "").toLowerCase().includes("application/json")) return true
  return (req.header.get("content-type") ?? "").split(";", 1)[0]!.trim().toLowerCase() === "application/json"
}

/**
 * Over the sign-in rate limit: JSON clients get 429 with Retry-After (and the sign-in page URL with the error, which
 * the `{url}` clients of Auth.js read); forms go back to the sign-in page with `?error=RateLimited`.
 */
function rateLimitedResponse(error: RateLimited, req: AuthRequest | undefined, signInUrl: string): ResponseInternal {
  const retryAfter = { "Retry-After": String(error.retryAfter) }
  if (req && wantsJson(req))
    return {
      status: RateLimited.status,
      headers: merged(JSON_HEADERS, retryAfter),
      body: { error: RateLimited.pageCode, url: signInUrl },
    }
  return { redirect: signInUrl, headers: retryAfter }
}

/** A sign-in the user tries again on the same form: wrong credentials, or a rate limit waited out. */
function retriedAtTheForm(error: unknown): boolean {
  return error instanceof CredentialsSignin || error instanceof RateLimited
}

/** The response for a request that failed; `req` is undefined when the request could not be parsed. */
export function errorResponse(
  error: unknown,
  req: AuthRequest | undefined,
  input: RequestInput,
  config: ResolvedConfig,
): ResponseInternal {
  if (error instanceof UnknownAction) return requestError(error, error.allow ? 405 : UnknownAction.status, error.allow)
  if (error instanceof InvalidRequest) return requestError(error, error.status)
  if (req?.method === "POST" && req.action === "session")
    return { status: 400, headers: JSON_HEADERS, body: config.wire === "next-auth-v4" ? {} : null }
  if (config.wire === "next-auth-v4") return v4ErrorResponse(error, req, input, config)
  const kind = error instanceof AuthError ? error.kind : "error"
  const params = new URLSearchParams({ error: policyOf(error).pageCode })
  if (error instanceof CredentialsSignin) params.set("code", error.code)
  // Tells the error page a Cancel from a refusal, both AccessDenied (Auth.js's code, which apps may check, stays).
  if (error instanceof AccessDenied && error.code) params.set("code", error.code)
  const page =
    (kind === "signIn" ? config.pages.signIn : config.pages.error) ??
    `${config.basePath}/${kind === "signIn" ? "signin" : "error"}`
  const origin = req?.origin ?? input.url.origin
  // Wrong credentials or too many tries: back on the sign-in page, the retry goes where this try was going (a failure
  // writes no callback-url cookie, which is where Auth.js keeps it).
  const back = req && retriedAtTheForm(error) ? sentCallbackUrl(req) : undefined
  if (back !== undefined) params.set("callbackUrl", back)
  // A failure sets no cookie of its own: the sign-in page's script keeps what the user typed (pages/browser/form.ts).
  // A configured page may hold a query of its own (`/login?lang=en`): the error's parameters join it.
  const target = withQuery(onOrigin(origin, page), params)
  if (error instanceof RateLimited) return rateLimitedResponse(error, req, target)
  // A failed callback still expires the check cookies it carried: they are single-use.
  const cookies = req?.action === "callback" ? clearChecks(req, config) : undefined
  return { redirect: target, ...(cookies?.length ? { cookies } : {}) }
}

/** next-auth 4's `?error=` code for a failure it names by a fixed code (the others: see v4ErrorResponse). */
function v4Code(error: unknown, req: AuthRequest | undefined): string {
  if (error instanceof OAuthSignInError) return "OAuthSignin"
  if (error instanceof OAuthCallbackError || error instanceof InvalidCheck || error instanceof OAuthProfileParseError)
    return "OAuthCallback"
  if (error instanceof OAuthAccountNotLinked) return "OAuthAccountNotLinked"
  if (error instanceof EmailSignInError) return "EmailSignin"
  if (error instanceof Verification) return "Verification"
  // next-auth 4 reports a user's Cancel at the provider, and any other failure of a callback, as `Callback`.
  if (error instanceof AccessDenied && error.code === "access_denied") return "Callback"
  if (error instanceof AccessDenied) return "AccessDenied"
  if (req?.action === "callback") return "Callback"
  return policyOf(error).pageCode
}

/** The message an app's own code threw (authorize, the signIn callback): next-auth 4 puts it in `?error=` as it is. */
function thrownMessage(error: AuthError): string | undefined {
  const cause = error.cause
  if (cause === undefined) return undefined
  return cause instanceof Error ? cause.message : String(cause)
}

/**
 * A failed request in next-auth 4's wire format: every failure goes to `<base>/error?error=<code>` (whose route sends
 * the sign-in codes on to the sign-in page, actions/pages.ts), as next-auth 4 does. Wrong credentials carry
 * `&provider=<id>` and status 401, a message thrown by `authorize` or the signIn callback is the code itself (never a
 * stack), a refused credentials sign-in is 403; the status reaches the client only in a `{ url }` answer (json=true),
 * a redirect is always 302 (response/build.ts v4Answer). A missing CSRF token goes back to the page with `?csrf=true`.
 */
function v4ErrorResponse(
  error: unknown,
  req: AuthRequest | undefined,
  input: RequestInput,
  config: ResolvedConfig,
): ResponseInternal {
  const base = `${req?.origin ?? config.canonicalUrl?.origin ?? input.url.origin}${config.basePath}`
  // As in Auth.js mode: where the sign-in was going rides along (the error route passes it on to the sign-in page).
  const back = req && retriedAtTheForm(error) ? sentCallbackUrlParam(req) : ""
  if (error instanceof MissingCSRF)
    return { redirect: `${base}/${req?.action === "signout" ? "signout" : "signin"}?csrf=true` }
  if (error instanceof RateLimited) return rateLimitedResponse(error, req, `${base}/signin?error=RateLimited${back}`)
  const credentialsPost = req?.action === "callback" && req.method === "POST"
  let status: number | undefined
  let query: string
  if (error instanceof CredentialsSignin) {
    status = 401
    query = `${new URLSearchParams({ error: CredentialsSignin.pageCode, provider: req?.providerId ?? "" })}${back}`
  } else if (error instanceof CallbackRouteError && credentialsPost && thrownMessage(error) !== undefined) {
    status = 401
    query = `error=${encodeURIComponent(thrownMessage(error) as string)}`
  } else if (error instanceof AccessDenied && error.code === undefined && thrownMessage(error) !== undefined) {
    query = `error=${encodeURIComponent(thrownMessage(error) as string)}`
  } else {
    const code = v4Code(error, req)
    if (error instanceof AccessDenied && code === "AccessDenied" && credentialsPost) status = 403
    query = `error=${encodeURIComponent(code)}`
  }
  const cookies = req?.action === "callback" ? clearChecks(req, config) : undefined
  return {
    redirect: `${base}/error?${query}`,
    ...(status !== undefined ? { status } : {}),
    ...(cookies?.length ? { cookies } : {}),
  }
}

/**
 * The response when the config itself is broken: pages get the error page (or a redirect to `pages.error`),
 * everything else a 500 JSON that points to the server logs (docs/wire-format.md §1.2).
 */
export function configurationErrorResponse(input: RequestInput, config: ResolvedConfig): ResponseInternal {
  let action: ReturnType<typeof parseActionPath>["action"] | undefined
  // With an untrusted Host no absolute URL is built from it (docs/security.md HT-01); links and redirects stay relative.
  const origin = config.error instanceof UntrustedHost ? "" : input.url.origin
  try {
    action = parseActionPath(input.url.pathname, config.basePath).action
  } catch {
    action = undefined
  }
  const isPage = (input.method === "GET" || input.method === "HEAD") && action !== undefined && actionRule(action).page
  if (isPage) {
    if (config.pages.error)
      return { redirect: withQuery(onOrigin(origin, config.pages.error), `error=${AuthError.pageCode}`) }
    const { locale, fromRequest } = chooseLocale(config.source.locale, input.header.get("accept-language"))
    const page = errorPage({
      error: AuthError.pageCode,
      signInUrl: `${origin}${config.basePath}/signin`,
      homeUrl: origin || "/",
      theme: config.theme,
      locale,
    })
    return { status: page.status, headers: pageHeaders(page.csp, fromRequest), body: page.html }
  }
  // Exactly Auth.js's body: clients that parse it see the same object.
  return { status: AuthError.status, headers: JSON_HEADERS, body: { message: CONFIGURATION_MESSAGE } }
}
