// HTML helpers for the built-in pages: escaping, the image-URL check, the document shell and its CSP.
import { contrastRatio, cssColor } from "../lib/css-color.js"
import type { Theme } from "../types.js"
import type { PageLocale } from "./locales/index.js"
import { FORM_SCRIPT, FORM_SCRIPT_HASH, PASSKEY_SCRIPT, PASSKEY_SCRIPT_HASH } from "./scripts.generated.js"
import { BASE_CSS, BASE_CSS_HASH, themeCssHash } from "./styles.js"

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(value: unknown): string {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ESCAPES[c] as string)
}

/**
 * An image URL the pages may put in `<img src>`: http(s), a root-relative path, or a `data:image/…` URI; anything
 * else (`javascript:`, `data:text/html`, a protocol-relative `//host`) is dropped. The page CSP's img-src still
 * limits where images load from ('self', https:, data:).
 */
export function safeImageUrl(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined
  const v = value.trim()
  if (/^data:image\/(?:svg\+xml|png|gif|jpeg|webp|avif)[;,]/i.test(v)) return v
  if (/^\/(?![/\\])/.test(v)) return v
  if (/^https?:\/\/[^\s/\\]/i.test(v)) return v
  return undefined
}

/** A rendered page: its HTML and the Content-Security-Policy that allows exactly its inline style and script. */
export interface RenderedPage {
  html: string
  csp: string
}

/** Button colours of one provider, checked: CSS colours only, and a hex pair below 4.5:1 contrast is not used. */
export function buttonColors(bg: unknown, text: unknown): { bg: string; text: string } | undefined {
  const b = cssColor(bg)
  const t = cssColor(text)
  if (!b || !t) return undefined
  const ratio = contrastRatio(b, t)
  return ratio === undefined || ratio >= 4.5 ? { bg: b, text: t } : undefined
}

/** The theme part of the page CSS: `brandColor` and `buttonText` when they are CSS colours, plus any extra rules. */
function themeCss(theme: Theme, extra: string): string {
  const brand = cssColor(theme.brandColor)
  const buttonText = cssColor(theme.buttonText)
  const vars = `${brand ? `--brand:${brand};` : ""}${buttonText ? `--button-text:${buttonText};` : ""}`
  return `${vars ? `:root{${vars}}` : ""}${extra}`
}

/**
 * The policy of a built-in page: nothing loads by default; the inline style(s) and script(s) by hash; images from
 * the app, https: and data:; the passkey script may call the app's own routes; no framing, no <base>.
 * No form-action: an OAuth sign-in form's answer redirects to the provider, which form-action would block.
 */
export function pageCsp(styleHashes: readonly string[], scriptHashes: readonly string[], connect: boolean): string {
  return [
    "default-src 'none'",
    `script-src ${scriptHashes.length ? scriptHashes.join(" ") : "'none'"}`,
    `style-src ${styleHashes.join(" ")}`,
    "img-src 'self' https: data:",
    ...(connect ? ["connect-src 'self'"] : []),
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ")
}

/** Longest `theme.brandName` shown; a longer one (or one that is not a string) is not used. */
const MAX_BRAND_NAME = 100

/** The app's name from `theme.brandName`: a non-empty string of at most 100 characters, trimmed; else undefined. */
export function brandNameOf(theme: Theme): string | undefined {
  const name = typeof theme.brandName === "string" ? theme.brandName.trim() : ""
  return name && name.length <= MAX_BRAND_NAME ? name : undefined
}

/** A page title with the app's name after it when the theme names one: "Sign out · Acme". */
export function titleWithBrand(title: string, theme: Theme): string {
  const brand = brandNameOf(theme)
  return brand ? `${title} · ${brand}` : title
}

export interface ShellProps {
  title: string
  /** The page's content inside the card (a single <h1> first). */
  content: string
  theme: Theme
  locale: PageLocale
  /** Extra theme rules (provider button colours), built only from checked values. */
  extraCss?: string
  /** `form`: adds the sign-in page's form script (busy buttons, show/hide password) after the content. */
  script?: "form"
  /** Adds the passkey script too (and lets it call the app's routes). */
  passkeyScript?: boolean
}

/**
 * The pages' icon: an empty `data:` URL, so the browser neither asks the app for `/favicon.ico` (a 404 and a console
 * error in an app without one) nor loads anything; img-src allows `data:`. The theme logo is not used: it is often
 * wide and off-site, and would cost a request per page.
 */
const ICON = `<link rel="icon" href="data:,">`

/** Wraps page content in a full document (lang from the locale, <main> landmark, centred card) and builds its CSP. */
export function documentShell(props: ShellProps): RenderedPage {
  const { theme, locale } = props
  const scheme = theme.colorScheme === "dark" || theme.colorScheme === "light" ? theme.colorScheme : "auto"
  const themeSheet = themeCss(theme, props.extraCss ?? "")
  const styles = `<style>${BASE_CSS}</style>${themeSheet ? `<style>${themeSheet}</style>` : ""}`
  const hashes = themeSheet ? [BASE_CSS_HASH, themeCssHash(themeSheet)] : [BASE_CSS_HASH]
  const logoUrl = safeImageUrl(theme.logo)
  const logo = logoUrl ? `<img class="brand-logo" src="${escapeHtml(logoUrl)}" alt="">` : ""
  const scripts = [...(props.script === "form" ? [FORM_SCRIPT] : []), ...(props.passkeyScript ? [PASSKEY_SCRIPT] : [])]
  const scriptHashes = [
    ...(props.script === "form" ? [FORM_SCRIPT_HASH] : []),
    ...(props.passkeyScript ? [PASSKEY_SCRIPT_HASH] : []),
  ]
  const script = scripts.map((text) => `<script>${text}</script>`).join("")
  const html = `<!DOCTYPE html><html lang="${escapeHtml(locale.lang)}"><head><meta charset="UTF-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="same-origin">${ICON}<title>${escapeHtml(props.title)}</title>${styles}</head><body class="__next-auth-theme-${scheme}"><main>${logo}<div class="card">${props.content}</div></main>${script}</body></html>`
  return { html, csp: pageCsp(hashes, scriptHashes, props.passkeyScript === true) }
}
