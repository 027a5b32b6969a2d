// The default sign-in e-mail (subject, HTML and text parts), and the options type of the HTTP mail-API providers.
// Their shared send path is in mail-send.ts (internal).
import { cssColorOr } from "../lib/css-color.js"
import { escapeHtml } from "../pages/html.js"
import type { Theme } from "../records.js"
import { customFetch } from "../symbols.js"
import type { EmailUserConfig } from "./types.js"

/** What the default sign-in e-mail is built from: the link, the host it signs into, the page theme. */
export interface DefaultMessageParams {
  url: string
  host: string
  theme?: Theme
  /** When the link stops working; adds a "This link expires in …" line. */
  expires?: Date
}

/** A ready-to-send e-mail: subject plus an HTML and a plain-text part. */
export interface EmailMessage {
  subject: string
  html: string
  text: string
}

const DEFAULT_BRAND = "#346df1"
const DEFAULT_BUTTON_TEXT = "#ffffff"
const FONT = "Helvetica,Arial,sans-serif"

/** "24 hours", "15 minutes", "7 days": the time left until `expires`, or nothing when it has passed. */
function timeLeft(expires: Date | undefined): string | undefined {
  if (!(expires instanceof Date)) return undefined
  const minutes = Math.round((expires.getTime() - Date.now()) / 60_000)
  if (!Number.isFinite(minutes) || minutes <= 0) return undefined
  if (minutes >= 2 * 24 * 60) return `${Math.round(minutes / (24 * 60))} days`
  if (minutes >= 120) return `${Math.round(minutes / 60)} hours`
  return minutes === 1 ? "1 minute" : `${minutes} minutes`
}

/**
 * Builds the default sign-in e-mail: subject `Sign in to <host>`, a button in the theme's `brandColor`/`buttonText`,
 * and a text part with the link. Host and URL are HTML-escaped; no remote images, scripts or tracking.
 */
export function defaultMessage(params: DefaultMessageParams): EmailMessage {
  const host = String(params.host).replace(/[\r\n\u2028\u2029]/g, "")
  const url = String(params.url)
  const brand = cssColorOr(params.theme?.brandColor, DEFAULT_BRAND)
  const buttonText = cssColorOr(params.theme?.buttonText, DEFAULT_BUTTON_TEXT)
  // A zero-width space after each dot stops mail clients from turning the host into a link of their own.
  const hostHtml = escapeHtml(host).replace(/\./g, "&#8203;.")
  const urlHtml = escapeHtml(url)
  const left = timeLeft(params.expires)
  const expiryLine = left ? `This link expires in ${left} and works once.` : "This link works once."
  const ignoreLine = "If you did not ask to sign in, you can ignore this e-mail."
  const cell = (size: number, color: string): string =>
    `font-family:${FONT};font-size:${size}px;line-height:1.5;color:${color}`

  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Sign in to ${escapeHtml(host)}</title></head>
<body style="margin:0;padding:0;background:#f6f8fa">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="background:#f6f8fa"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="max-width:520px;background:#ffffff;border:1px solid #d0d7de;border-radius:10px">
<tr><td align="center" style="padding:28px 24px 8px;${cell(20, "#1f2328")}">Sign in to <strong>${hostHtml}</strong></td></tr>
<tr><td align="center" style="padding:16px 24px">
<table role="presentation" cellspacing="0" cellpadding="0" border="0"><tr><td align="center" bgcolor="${brand}" style="border-radius:6px;background:${brand}">
<a href="${urlHtml}" target="_blank" style="display:inline-block;padding:12px 24px;border:1px solid ${brand};border-radius:6px;font-family:${FONT};font-size:16px;font-weight:bold;color:${buttonText};text-decoration:none">Sign in</a>
</td></tr></table>
</td></tr>
<tr><td align="center" style="padding:4px 24px 8px;${cell(14, "#57606a")}">${expiryLine}</td></tr>
<tr><td align="center" style="padding:0 24px 8px;${cell(12, "#6e7781")};word-break:break-all">If the button does not work, open this link: <a href="${urlHtml}" target="_blank" style="color:${brand}">${urlHtml}</a></td></tr>
<tr><td align="center" style="padding:0 24px 28px;${cell(13, "#6e7781")}">${ignoreLine}</td></tr>
</table>
</td></tr></table>
</body></html>
`
  const text = `Sign in to ${host}\n\n${url}\n\n${expiryLine}\n${ignoreLine}\n`
  return { subject: `Sign in to ${host}`, html, text }
}

/** Options of the mail-API providers: the e-mail provider options plus `[customFetch]` to replace `fetch`. */
export type MailApiUserConfig = EmailUserConfig & { [customFetch]?: typeof fetch }
