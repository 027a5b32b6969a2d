// The built-in pages as pure functions: props (with the chosen locale) -> HTML and its Content-Security-Policy.
import type { Theme } from "../types.js"
import { documentShell, escapeHtml, type RenderedPage } from "./html.js"
import type { ErrorPageCode, PageLocale } from "./locales/index.js"

export { PASSKEY_SCRIPT, PASSKEY_SCRIPT_HASH } from "./passkey-script.js"
export { signInPage, signInPageHasScript, type SignInPageProps } from "./signin.js"
export { pageCsp, type RenderedPage } from "./html.js"
export { chooseLocale, en, PAGE_LOCALES } from "./locales/index.js"
export { pageHeaders } from "./headers.js"

export interface SignOutPageProps {
  action: string
  csrfToken: string
  callbackUrl?: string
  theme: Theme
  locale: PageLocale
}

/** The sign-out confirmation: a POST form (`form#signout-form`, `button#submitButton`) with the CSRF token. */
export function signOutPage(props: SignOutPageProps): RenderedPage {
  const t = props.locale.signOut
  const callback = props.callbackUrl === undefined ? "" : `<input type="hidden" name="callbackUrl" value="${escapeHtml(props.callbackUrl)}">`
  const content = `<h1>${escapeHtml(t.heading)}</h1><p>${escapeHtml(t.message)}</p><form id="signout-form" action="${escapeHtml(props.action)}" method="POST"><input type="hidden" name="csrfToken" value="${escapeHtml(props.csrfToken)}">${callback}<button id="submitButton" class="button" type="submit">${escapeHtml(t.button)}</button></form>`
  return documentShell({ title: t.title, content, theme: props.theme, locale: props.locale })
}

/** HTTP status per error-page code; every other code is a 200 generic page. */
const errorStatus: Record<ErrorPageCode, number> = {
  Configuration: 500,
  AccessDenied: 403,
  Verification: 403,
  EmailSignin: 200,
  RateLimited: 429,
  // Where a refused passkey lands (as in Auth.js, an error-page code).
  WebAuthnVerificationError: 200,
}

export interface ErrorPageProps {
  error: string | null
  /** The sign-in page: `${origin}${basePath}/signin`, or `pages.signIn` when configured. */
  signInUrl: string
  homeUrl: string
  theme: Theme
  locale: PageLocale
}

/**
 * The error page for a public error code; unknown codes get the generic page and are never reflected
 * (docs/security.md RD-09). Every page links to the sign-in page (`a#signin-link`) and home (`a#home-link`), except
 * Configuration, where signing in cannot work: it links home only.
 */
export function errorPage(props: ErrorPageProps): RenderedPage & { status: number } {
  const t = props.locale.error
  const code = props.error && Object.hasOwn(errorStatus, props.error) ? (props.error as ErrorPageCode) : undefined
  const page = code ? t.pages[code] : t.default
  const links = code === "Configuration"
    ? `<a id="home-link" class="button" href="${escapeHtml(props.homeUrl)}">${escapeHtml(t.home)}</a>`
    : `<a id="signin-link" class="button" href="${escapeHtml(props.signInUrl)}">${escapeHtml(t.signIn)}</a><a id="home-link" class="secondary" href="${escapeHtml(props.homeUrl)}">${escapeHtml(t.home)}</a>`
  const content = `<h1>${escapeHtml(page.heading)}</h1><p>${escapeHtml(page.message)}</p>${links}`
  return { status: code ? errorStatus[code] : 200, ...documentShell({ title: `${t.title}: ${page.heading}`, content, theme: props.theme, locale: props.locale }) }
}

/** "Check your e-mail", with a link home (`a#home-link`). */
export function verifyRequestPage(props: { homeUrl: string; theme: Theme; locale: PageLocale }): RenderedPage {
  const t = props.locale.verifyRequest
  const content = `<h1>${escapeHtml(t.heading)}</h1><p>${escapeHtml(t.message)}</p><a id="home-link" class="button" href="${escapeHtml(props.homeUrl)}">${escapeHtml(props.locale.error.home)}</a>`
  return documentShell({ title: t.title, content, theme: props.theme, locale: props.locale })
}
