// The error page: the page for a public `?error=` code, its status taken from the error's class (errors.ts). Pure:
// props (with the chosen locale) in, HTML and its CSP out.
import {
  AccessDenied,
  AuthError,
  EmailSignInError,
  RateLimited,
  Verification,
  WebAuthnVerificationError,
} from "../errors.js"
import type { Theme } from "../types.js"
import { documentShell, escapeHtml, titleWithBrand, type RenderedPage } from "./html.js"
import type { ErrorPageCode, PageLocale } from "./locales/index.js"

/**
 * The error classes whose `?error=` code has a page of its own (the locale's `error.pages`: AuthError's is
 * `Configuration`; a refused passkey lands here too, as in Auth.js). Each page answers with its class's `status`;
 * every other code gets the generic page with 200.
 */
const OWN_PAGE = [AuthError, AccessDenied, Verification, EmailSignInError, RateLimited, WebAuthnVerificationError]
const errorStatus: ReadonlyMap<string, number> = new Map(OWN_PAGE.map((c) => [c.pageCode, c.status]))

export interface ErrorPageProps {
  error: string | null
  /** `?code=`: with `AccessDenied`, `access_denied` says the user cancelled at the provider (response/error.ts). */
  code?: string | null
  /** The sign-in page: `${origin}${basePath}/signin`, or `pages.signIn` when configured. */
  signInUrl: string
  homeUrl: string
  /** Set when this browser is signed in: where "Continue" goes (a used sign-in link then needs no new sign-in). */
  continueUrl?: string
  theme: Theme
  locale: PageLocale
}

/**
 * The error page for a public error code; unknown codes get the generic page and are never reflected
 * (docs/security.md RD-09). Every page links to the sign-in page (`a#signin-link`) and home (`a#home-link`), except
 * Configuration, where signing in cannot work: it links home only. Two codes have a kinder page:
 * - `AccessDenied` with `code=access_denied` (the user pressed Cancel at the provider): "Sign-in was cancelled", 200,
 *   with "Try again" (`a#signin-link`); a signIn callback's refusal stays "Access denied".
 * - `Verification` while signed in (a used sign-in link opened again): "You're already signed in", 200, with
 *   "Continue" (`a#continue-link`) to `continueUrl`.
 */
export function errorPage(props: ErrorPageProps): RenderedPage & { status: number } {
  const t = props.locale.error
  const code = props.error && errorStatus.has(props.error) ? (props.error as ErrorPageCode) : undefined
  const cancelled = code === AccessDenied.pageCode && props.code === "access_denied"
  const signedIn = code === Verification.pageCode && props.continueUrl !== undefined
  const page = cancelled ? t.cancelled : signedIn ? t.alreadySignedIn : code ? t.pages[code] : t.default
  const home = (cls: string) =>
    `<a id="home-link" class="${cls}" href="${escapeHtml(props.homeUrl)}">${escapeHtml(t.home)}</a>`
  const links =
    code === AuthError.pageCode
      ? home("button primary")
      : signedIn
        ? `<a id="continue-link" class="button primary" href="${escapeHtml(props.continueUrl)}">${escapeHtml(t.continue)}</a>`
        : `<a id="signin-link" class="button primary" href="${escapeHtml(props.signInUrl)}">${escapeHtml(cancelled ? t.tryAgain : t.signIn)}</a>${home("secondary")}`
  const content = `<h1>${escapeHtml(page.heading)}</h1><p>${escapeHtml(page.message)}</p>${links}`
  const status = cancelled || signedIn ? 200 : code ? errorStatus.get(code)! : 200
  return {
    status,
    ...documentShell({
      title: titleWithBrand(`${t.title}: ${page.heading}`, props.theme),
      content,
      theme: props.theme,
      locale: props.locale,
    }),
  }
}
