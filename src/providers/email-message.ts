// The default sign-in e-mail (subject, HTML and text parts), and the one send path the HTTP mail-API providers share.
import { EmailSignInError } from "../errors.js"
import { cssColorOr } from "../lib/css-color.js"
import { readLimited } from "../lib/read-limited.js"
import { escapeHtml } from "../pages/html.js"
import type { Theme } from "../records.js"
import { customFetch } from "../symbols.js"
import type { EmailConfig, EmailProviderSendVerificationRequestParams, EmailUserConfig } from "./types.js"

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

// ---- The send path of the HTTP mail-API providers (resend, sendgrid, postmark, forwardemail) ----

/** Options of the mail-API providers: the e-mail provider options plus `[customFetch]` to replace `fetch`. */
export type MailApiUserConfig = EmailUserConfig & { [customFetch]?: typeof fetch }

/** Everything a mail-API provider needs to build its request: recipient, sender, key and the message parts. */
export interface MailApiMessage extends EmailMessage {
  to: string
  from: string
  apiKey: string
}

/** The HTTP request a mail API documents for sending one message (always a POST). */
export interface MailApiRequest {
  url: string
  headers: Record<string, string>
  body: string
}

/** A mail API as data: its provider id and name, and how a message becomes its request. */
export interface MailApiDefinition {
  id: string
  name: string
  buildRequest(message: MailApiMessage): MailApiRequest
}

/** How long a mail API may take to answer before the sign-in fails with EmailSignin. */
export const MAIL_API_TIMEOUT_MS = 10_000
const MAX_ERROR_BYTES = 64 * 1024
const MAX_DETAIL_CHARS = 500
const DEFAULT_FROM = "Auth.js <no-reply@authjs.dev>"

/** base64(`key:`), as an HTTP Basic header carries it; empty when the key is not Latin-1 (btoa refuses it). */
function basicCredentials(apiKey: string): string {
  try {
    return btoa(`${apiKey}:`)
  } catch {
    return ""
  }
}

type ProviderWithFetch = EmailConfig & { [customFetch]?: unknown }

/** The error text of a mail API's answer: its message fields when JSON, else the text, cut short, key removed. */
async function errorDetail(response: Response, secrets: string[]): Promise<string> {
  const bytes = await readLimited(response, MAX_ERROR_BYTES).catch(() => undefined)
  let text = bytes ? new TextDecoder().decode(bytes) : ""
  try {
    const body: unknown = JSON.parse(text)
    if (body && typeof body === "object") {
      const o = body as Record<string, unknown>
      const parts: string[] = []
      for (const key of ["name", "error", "ErrorCode", "message", "Message"]) {
        const v = o[key]
        if (typeof v === "string" || typeof v === "number")
          parts.push(key === "ErrorCode" ? `ErrorCode ${v}` : String(v))
      }
      if (Array.isArray(o.errors)) {
        for (const e of o.errors) {
          if (e && typeof e === "object" && typeof (e as { message?: unknown }).message === "string") {
            const field = (e as { field?: unknown }).field
            parts.push(`${typeof field === "string" ? `${field}: ` : ""}${(e as { message: string }).message}`)
          }
        }
      }
      if (parts.length) text = [...new Set(parts)].join(": ")
    }
  } catch {
    // not JSON: keep the text
  }
  for (const secret of secrets) if (secret) text = text.split(secret).join("[redacted]")
  text = text
    .replace(/[\u0000-\u001f\u007f]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
  return text.length > MAX_DETAIL_CHARS ? `${text.slice(0, MAX_DETAIL_CHARS)}…` : text
}

/** Sends one request to a mail API; a network failure, timeout or non-2xx answer throws EmailSignInError. */
export async function postToMailApi(
  service: string,
  request: MailApiRequest,
  fetchImpl: typeof fetch,
  secrets: string[],
): Promise<void> {
  const timeout = AbortSignal.timeout(MAIL_API_TIMEOUT_MS)
  let response: Response
  try {
    response = await fetchImpl(request.url, {
      method: "POST",
      headers: request.headers,
      body: request.body,
      redirect: "manual",
      signal: timeout,
    })
  } catch (cause) {
    const why = timeout.aborted ? `did not answer within ${MAIL_API_TIMEOUT_MS} ms` : "could not be reached"
    throw new EmailSignInError(`${service} ${why} (POST ${request.url}); the sign-in e-mail was not sent.`, { cause })
  }
  if (response.status >= 200 && response.status < 300) {
    await response.body?.cancel().catch(() => {})
    return
  }
  const detail = await errorDetail(response, secrets)
  const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ""}`
  throw new EmailSignInError(`${service} refused the sign-in e-mail with HTTP ${status}${detail ? `: ${detail}` : ""}`)
}

/**
 * Builds a mail-API provider object (the Auth.js shape: defaults, user options in `options`). Its default
 * `sendVerificationRequest` sends `defaultMessage` through `definition.buildRequest` and `postToMailApi`.
 */
export function mailApiProvider(definition: MailApiDefinition, config: MailApiUserConfig): EmailConfig {
  async function sendVerificationRequest(params: EmailProviderSendVerificationRequestParams): Promise<void> {
    // The resolved provider has the user's options merged in; a provider passed unresolved still has them in `options`.
    const given = params.provider as ProviderWithFetch | undefined
    const view: ProviderWithFetch = given?.options
      ? { ...given, ...given.options }
      : (given ?? ({} as ProviderWithFetch))
    const id = typeof view.id === "string" ? view.id : definition.id
    const rawKey = view.apiKey ?? config.apiKey
    const apiKey = typeof rawKey === "string" ? rawKey.trim() : ""
    if (apiKey === "") {
      throw new EmailSignInError(
        `${definition.name}: no API key. Pass \`apiKey\` to ${definition.name}({ apiKey }) or set AUTH_${id.toUpperCase().replace(/-/g, "_")}_KEY.`,
      )
    }
    // A header value with a line break makes fetch throw an error that quotes the value: refuse it before.
    if (/[\u0000-\u001f\u007f]/.test(apiKey))
      throw new EmailSignInError(
        `${definition.name}: the API key contains a control character (a line break?); check \`apiKey\`.`,
      )
    const fetchOption = view[customFetch] ?? config[customFetch]
    const fetchImpl: typeof fetch =
      typeof fetchOption === "function" ? (fetchOption as typeof fetch) : (input, init) => fetch(input, init)
    const { host } = new URL(params.url)
    const message = defaultMessage({ url: params.url, host, theme: params.theme, expires: params.expires })
    const request = definition.buildRequest({
      ...message,
      to: params.identifier,
      from: view.from ?? config.from ?? DEFAULT_FROM,
      apiKey,
    })
    await postToMailApi(definition.name, request, fetchImpl, [apiKey, basicCredentials(apiKey)])
  }
  return {
    id: definition.id,
    type: "email",
    name: definition.name,
    from: DEFAULT_FROM,
    maxAge: 24 * 60 * 60,
    sendVerificationRequest,
    options: config,
  }
}
