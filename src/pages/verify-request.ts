// The verify-request page ("Check your e-mail"), shown after an e-mail sign-in link was sent. Pure: props (with the
// chosen locale) in, HTML and its CSP out.
import type { Theme } from "../types.js"
import { documentShell, escapeHtml, titleWithBrand, type RenderedPage } from "./html.js"
import type { PageLocale } from "./locales/index.js"

/** "Check your e-mail", with a link home (`a#home-link`). */
export function verifyRequestPage(props: { homeUrl: string; theme: Theme; locale: PageLocale }): RenderedPage {
  const t = props.locale.verifyRequest
  const content = `<h1>${escapeHtml(t.heading)}</h1><p>${escapeHtml(t.message)}</p><a id="home-link" class="button primary" href="${escapeHtml(props.homeUrl)}">${escapeHtml(props.locale.error.home)}</a>`
  return documentShell({
    title: titleWithBrand(t.title, props.theme),
    content,
    theme: props.theme,
    locale: props.locale,
  })
}
