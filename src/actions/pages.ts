// GET /signin, /signout, /error, /verify-request: the built-in pages, or redirects to the configured `pages`.
import type { AuthRequest, ResolvedConfig } from "../pipeline-types.js"
import { Verification } from "../errors.js"
import { ensureCsrfToken } from "../security/csrf.js"
import { resolveCallbackUrl, sentCallbackUrlParam } from "../security/redirect.js"
import { errorPage } from "../pages/error.js"
import { pageHeaders } from "../pages/headers.js"
import { chooseLocale } from "../pages/locales/index.js"
import { signInPage } from "../pages/signin.js"
import { signOutPage } from "../pages/signout.js"
import { verifyRequestPage } from "../pages/verify-request.js"
import type { ResponseInternal } from "../types.js"
import { withQuery } from "../lib/page-url.js"

/** The page language: config `locale`, else the request's Accept-Language (then the response varies on it). */
function localeOf(req: AuthRequest, config: ResolvedConfig) {
  return chooseLocale(config.source.locale, req.header.get("accept-language"))
}

export async function signInPageAction(req: AuthRequest, config: ResolvedConfig): Promise<ResponseInternal> {
  const callbackUrl = await resolveCallbackUrl(req, config)
  const error = req.query.get("error")
  if (config.pages.signIn) {
    const params = new URLSearchParams({ callbackUrl })
    if (error) params.set("error", error)
    return { redirect: withQuery(config.pages.signIn, params) }
  }
  const { token, cookie } = await ensureCsrfToken(req, config)
  const { locale, fromRequest } = localeOf(req, config)
  const page = signInPage({
    providers: config.providerList,
    basePath: config.basePath,
    origin: req.origin,
    csrfToken: token,
    callbackUrl,
    error,
    theme: config.theme,
    locale,
    kindOf: config.kindOf,
  })
  return {
    status: 200,
    headers: pageHeaders(page.csp, fromRequest),
    body: page.html,
    cookies: cookie ? [cookie] : undefined,
  }
}

export async function signOutPageAction(req: AuthRequest, config: ResolvedConfig): Promise<ResponseInternal> {
  if (config.pages.signOut) return { redirect: config.pages.signOut }
  const { token, cookie } = await ensureCsrfToken(req, config)
  // A `?callbackUrl=` (validated like every other) rides along in the form, so confirming lands there.
  const callbackUrl = req.query.has("callbackUrl") ? await resolveCallbackUrl(req, config) : undefined
  const { locale, fromRequest } = localeOf(req, config)
  const page = signOutPage({
    action: `${req.origin}${config.basePath}/signout`,
    csrfToken: token,
    callbackUrl,
    theme: config.theme,
    locale,
  })
  return {
    status: 200,
    headers: pageHeaders(page.csp, fromRequest),
    body: page.html,
    cookies: cookie ? [cookie] : undefined,
  }
}

/**
 * Where "Continue" goes when a used sign-in link is opened on a browser that is signed in: the callbackUrl (query or
 * cookie, through the redirect callback); undefined when this browser has no session. Asked only for `Verification`.
 */
async function continueUrlIfSignedIn(req: AuthRequest, config: ResolvedConfig): Promise<string | undefined> {
  if (!config.adapter) return undefined
  try {
    if (!(await config.sessionStrategy.currentUser(req, config))) return undefined
  } catch (error) {
    config.logger.error(error instanceof Error ? error : new Error(String(error)))
    return undefined
  }
  return resolveCallbackUrl(req, config)
}

/** The `?error=` codes next-auth 4's error route sends on to the sign-in page, which shows them beside its form. */
const V4_SIGN_IN_PAGE_CODES: ReadonlySet<string> = new Set([
  "Signin",
  "OAuthSignin",
  "OAuthCallback",
  "OAuthCreateAccount",
  "EmailCreateAccount",
  "Callback",
  "OAuthAccountNotLinked",
  "EmailSignin",
  "CredentialsSignin",
  "SessionRequired",
])

export async function errorPageAction(req: AuthRequest, config: ResolvedConfig): Promise<ResponseInternal> {
  const error = req.query.get("error")
  if (config.wire === "next-auth-v4") {
    // next-auth 4: the sign-in codes go on to the sign-in page (which redirects to `pages.signIn` when configured);
    // the others to `pages.error` when configured, else this page.
    if (error !== null && V4_SIGN_IN_PAGE_CODES.has(error)) {
      // A failed sign-in's callbackUrl (response/error.ts) goes on with the code, so the retry lands there.
      return { redirect: `${req.origin}${config.basePath}/signin?error=${error}${sentCallbackUrlParam(req)}` }
    }
    if (config.pages.error && error !== null)
      return {
        redirect: withQuery(config.pages.error, `error=${encodeURIComponent(error)}`),
      }
  }
  if (config.pages.error)
    return { redirect: withQuery(config.pages.error, new URLSearchParams(error ? { error } : {})) }
  const { locale, fromRequest } = localeOf(req, config)
  // "Sign in" goes where signing in happens: the app's own page when configured, else ours under basePath.
  const signInUrl = config.pages.signIn ?? `${req.origin}${config.basePath}/signin`
  const continueUrl = error === Verification.pageCode ? await continueUrlIfSignedIn(req, config) : undefined
  const page = errorPage({
    error,
    code: req.query.get("code"),
    signInUrl,
    homeUrl: req.origin,
    continueUrl,
    theme: config.theme,
    locale,
  })
  return { status: page.status, headers: pageHeaders(page.csp, fromRequest), body: page.html }
}

export function verifyRequestPageAction(req: AuthRequest, config: ResolvedConfig): ResponseInternal {
  if (config.pages.verifyRequest) return { redirect: withQuery(config.pages.verifyRequest, req.query) }
  const { locale, fromRequest } = localeOf(req, config)
  const page = verifyRequestPage({ homeUrl: req.origin, theme: config.theme, locale })
  return { status: 200, headers: pageHeaders(page.csp, fromRequest), body: page.html }
}
