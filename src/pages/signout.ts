// The sign-out confirmation page: a POST form carrying the CSRF token. Pure: props (with the chosen locale) in, HTML
// and its CSP out.
import type { Theme } from "../types.js"
import { documentShell, escapeHtml, titleWithBrand, type RenderedPage } from "./html.js"
import type { PageLocale } from "./locales/index.js"

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
  const callback =
    props.callbackUrl === undefined
      ? ""
      : `<input type="hidden" name="callbackUrl" value="${escapeHtml(props.callbackUrl)}">`
  const content = `<h1>${escapeHtml(t.heading)}</h1><p>${escapeHtml(t.message)}</p><form id="signout-form" action="${escapeHtml(props.action)}" method="POST"><input type="hidden" name="csrfToken" value="${escapeHtml(props.csrfToken)}">${callback}<button id="submitButton" class="button primary" type="submit">${escapeHtml(t.button)}</button></form>`
  return documentShell({
    title: titleWithBrand(t.title, props.theme),
    content,
    theme: props.theme,
    locale: props.locale,
  })
}
