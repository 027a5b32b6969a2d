// The Nodemailer send over SMTP (internal), for gatehouse/providers/nodemailer and Email({ server }) of
// gatehouse/providers/email: Node.js only, since nodemailer opens sockets with node:net and node:tls. The entries that
// run elsewhere (off-node/) never import this file, so no bundle for Edge or workerd reaches nodemailer.
import { EmailSignInError } from "../errors.js"
import { DEFAULT_FROM, type NodemailerServer } from "./mail-send.js"
import { defaultMessage } from "./email-message.js"
import type { EmailConfig, EmailProviderSendVerificationRequestParams } from "./types.js"

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
