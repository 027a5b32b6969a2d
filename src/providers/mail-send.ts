// The send path the e-mail providers share (internal: no package.json subpath exports this file): the POST to an
// HTTP mail API (resend, sendgrid, postmark, forwardemail, mailgun, loops) with the default message of
// email-message.ts, and the generic Email() provider, handed its SMTP send by the entry that builds it. Nothing here
// loads nodemailer: the SMTP send is smtp-send.ts, which only the Node.js entries (nodemailer.ts, email.ts) import.
import { AuthError, EmailSignInError } from "../errors.js"
import { readLimited } from "../lib/read-limited.js"
import { customFetch } from "../symbols.js"
import { defaultMessage, type EmailMessage, type MailApiUserConfig } from "./email-message.js"
import type { EmailConfig, EmailProviderSendVerificationRequestParams, EmailUserConfig } from "./types.js"

/** Auth.js's default sender; set `from` to an address the mail service or SMTP server may send as. */
export const DEFAULT_FROM = "Auth.js <no-reply@authjs.dev>"

// ---- The HTTP mail APIs ----

/** Everything a mail-API provider needs to build its request: recipient, sender, key and the message parts. */
interface MailApiMessage extends EmailMessage {
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
const MAIL_API_TIMEOUT_MS = 10_000
const MAX_ERROR_BYTES = 64 * 1024
const MAX_DETAIL_CHARS = 500

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

// ---- The generic e-mail provider ----

/**
 * Where Nodemailer sends: an SMTP URL (`smtp://user:pass@smtp.example.com:587`, `smtps://…`) or a transport options
 * object (`{ host, port, secure, auth }`, or any other Nodemailer transport). Kept structural so that nodemailer's
 * types are needed only by apps that use them.
 */
export type NodemailerServer = string | object

type SendVerificationRequest = EmailConfig["sendVerificationRequest"]

/**
 * `Email(config)` of gatehouse/providers/email (id `email`): `sendVerificationRequest` delivers the link, else a
 * `server` sends the default mail over SMTP with what `smtp` returns (Node.js: the Nodemailer send; elsewhere it
 * throws, naming what to use instead).
 */
export function genericEmailProvider(
  config: Omit<EmailUserConfig, "server"> & { server?: NodemailerServer },
  smtp: () => SendVerificationRequest,
): EmailConfig {
  const send = config?.sendVerificationRequest ?? (config?.server ? smtp() : undefined)
  if (!send) {
    throw new AuthError(
      "Email() needs `sendVerificationRequest({ identifier, url, ... })` to deliver the sign-in link, or use Nodemailer({ server, from }) from gatehouse/providers/nodemailer to send over SMTP.",
    )
  }
  return {
    id: "email",
    type: "email",
    name: "Email",
    from: DEFAULT_FROM,
    maxAge: 24 * 60 * 60,
    ...(config.server ? { server: config.server } : {}),
    sendVerificationRequest: send,
    options: config as EmailUserConfig,
  }
}
