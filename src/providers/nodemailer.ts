// The Nodemailer provider: magic-link e-mails sent over SMTP (or any Nodemailer transport); nodemailer loads on first send.
import { AuthError, EmailSignInError } from "../errors.js"
import { defaultMessage } from "./email-message.js"
import type { EmailConfig, EmailProviderSendVerificationRequestParams, EmailUserConfig } from "./types.js"

export type { EmailConfig, EmailUserConfig } from "./types.js"

/**
 * Where Nodemailer sends: an SMTP URL (`smtp://user:pass@smtp.example.com:587`, `smtps://…`) or a transport options
 * object (`{ host, port, secure, auth }`, or any other Nodemailer transport). Kept structural so that nodemailer's
 * types are needed only by apps that use them.
 */
export type NodemailerServer = string | object

/** Options of `Nodemailer()`: the e-mail provider options, with `server` required. */
export interface NodemailerUserConfig extends Omit<EmailUserConfig, "server"> {
  server?: NodemailerServer
}

/** The Nodemailer provider as configured (id `nodemailer` unless set). */
export interface NodemailerConfig extends EmailConfig {
  server: NodemailerServer
  options: NodemailerUserConfig
}

/** Auth.js's default sender; set `from` to an address your SMTP server may send as. */
export const DEFAULT_FROM = "Auth.js <no-reply@authjs.dev>"

/** What this file uses of nodemailer, so the module loads lazily and typing needs no nodemailer types. */
interface MailAddress {
  address?: string
}
interface SentInfo {
  rejected?: Array<string | MailAddress>
  pending?: Array<string | MailAddress>
}
interface Transport {
  sendMail(message: { to: string; from: string; subject: string; text: string; html: string }): Promise<SentInfo>
  close?(): void
}
interface NodemailerModule {
  createTransport(server: NodemailerServer): Transport
}

let loading: Promise<NodemailerModule> | undefined

/** Imports nodemailer once, on the first send (an optional peer dependency: only apps that send over SMTP install it). */
function loadNodemailer(): Promise<NodemailerModule> {
  loading ??= import("nodemailer").then(
    (mod) => ((mod as { default?: NodemailerModule }).default ?? mod) as unknown as NodemailerModule,
    (cause: unknown) => {
      loading = undefined
      throw new EmailSignInError(
        "The Nodemailer provider needs the `nodemailer` package: run `npm install nodemailer`.",
        { cause },
      )
    },
  )
  return loading
}

function addressOf(entry: string | MailAddress): string {
  return typeof entry === "string" ? entry : String(entry.address ?? "")
}

/**
 * Sends the default sign-in e-mail (subject, HTML and text parts) through Nodemailer with the provider's `server` and
 * `from`. Throws when the transport refuses the message or leaves any recipient rejected or pending.
 */
export async function sendWithNodemailer(params: EmailProviderSendVerificationRequestParams): Promise<void> {
  const provider = params.provider as EmailConfig & { server?: NodemailerServer }
  const server = provider.server ?? provider.options?.server
  if (server === undefined || server === null || server === "")
    throw new EmailSignInError(`Provider "${provider.id}": no \`server\` to send with.`)
  const nodemailer = await loadNodemailer()
  const { host } = new URL(params.url)
  const message = defaultMessage({ url: params.url, host, theme: params.theme, expires: params.expires })
  const transport = nodemailer.createTransport(server as NodemailerServer)
  try {
    const info = await transport.sendMail({ to: params.identifier, from: provider.from ?? DEFAULT_FROM, ...message })
    const failed = [...(info.rejected ?? []), ...(info.pending ?? [])].map(addressOf).filter(Boolean)
    if (failed.length)
      throw new EmailSignInError(`The SMTP server did not accept the sign-in e-mail for ${failed.length} recipient(s).`)
  } finally {
    transport.close?.()
  }
}

/**
 * Creates the Nodemailer e-mail provider (id `nodemailer`): `Nodemailer({ server, from })`. A missing `server` throws
 * here, when the config is written; nodemailer itself is imported on the first send.
 */
export default function Nodemailer(config: NodemailerUserConfig): NodemailerConfig {
  if (!config?.server) {
    throw new AuthError(
      "Nodemailer needs a `server`: an SMTP URL such as `smtp://user:pass@smtp.example.com:587`, or transport options `{ host, port, auth }`.",
    )
  }
  return {
    id: "nodemailer",
    type: "email",
    name: "Nodemailer",
    server: config.server,
    from: DEFAULT_FROM,
    maxAge: 24 * 60 * 60,
    sendVerificationRequest: sendWithNodemailer,
    options: config,
  }
}
export { Nodemailer }
