// GET /signin, /signout, /error, /verify-request: the built-in pages, or redirects to the configured `pages`.
import type { AuthRequest, ResolvedConfig } from "../domain.js"
import { HTML_HEADERS } from "../response/build.js"
import { ensureCsrfToken } from "../security/csrf.js"
import { resolveCallbackUrl } from "../security/redirect.js"
import { errorPage, PASSKEY_PAGE_CSP, signInPage, signInPageHasScript, signOutPage, verifyRequestPage } from "../pages/index.js"
import type { ResponseInternal } from "../types.js"

/** The sign-in page with the passkey script: its CSP allows that script (by hash) and no other. */
const PASSKEY_PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({ ...HTML_HEADERS, "Content-Security-Policy": PASSKEY_PAGE_CSP })

function withQuery(page: string, params: URLSearchParams): string {
  const query = params.toString()
  if (!query) return page
  return `${page}${page.includes("?") ? "&" : "?"}${query}`
}

export async function signInPageAction(req: AuthRequest, config: ResolvedConfig): Promise<ResponseInternal> {
  const callbackUrl = await resolveCallbackUrl(req, config)
  const error = req.query.get("error")
  if (config.pages.signIn) {
    const params = new URLSearchParams({ callbackUrl })
    if (error) params.set("error", error)
    return { redirect: withQuery(config.pages.signIn, params) }
  }
  const { token, cookie } = ensureCsrfToken(req, config)
  const html = signInPage({
    providers: config.providerList, basePath: config.basePath, origin: req.origin, csrfToken: token, callbackUrl, error, theme: config.theme,
  })
  const headers = signInPageHasScript(config.providerList) ? PASSKEY_PAGE_HEADERS : HTML_HEADERS
  return { status: 200, headers, body: html, cookies: cookie ? [cookie] : undefined }
}

export async function signOutPageAction(req: AuthRequest, config: ResolvedConfig): Promise<ResponseInternal> {
  if (config.pages.signOut) return { redirect: config.pages.signOut }
  const { token, cookie } = ensureCsrfToken(req, config)
  // A `?callbackUrl=` (validated like every other) rides along in the form, so confirming lands there.
  const callbackUrl = req.query.has("callbackUrl") ? await resolveCallbackUrl(req, config) : undefined
  const html = signOutPage({ action: `${req.origin}${config.basePath}/signout`, csrfToken: token, callbackUrl, theme: config.theme })
  return { status: 200, headers: HTML_HEADERS, body: html, cookies: cookie ? [cookie] : undefined }
}

export function errorPageAction(req: AuthRequest, config: ResolvedConfig): ResponseInternal {
  const error = req.query.get("error")
  if (config.pages.error) return { redirect: withQuery(config.pages.error, new URLSearchParams(error ? { error } : {})) }
  const { status, html } = errorPage({ error, signInUrl: `${req.origin}${config.basePath}/signin`, homeUrl: req.origin, theme: config.theme })
  return { status, headers: HTML_HEADERS, body: html }
}

export function verifyRequestPageAction(req: AuthRequest, config: ResolvedConfig): ResponseInternal {
  if (config.pages.verifyRequest) return { redirect: withQuery(config.pages.verifyRequest, req.query) }
  return { status: 200, headers: HTML_HEADERS, body: verifyRequestPage({ homeUrl: req.origin, theme: config.theme }) }
}
