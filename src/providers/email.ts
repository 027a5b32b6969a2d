// The generic e-mail (magic link) provider: you deliver the link in `sendVerificationRequest`; id `email`.
import { AuthError } from "../errors.js"
import { DEFAULT_FROM, type NodemailerServer, sendWithNodemailer } from "./mail-send.js"
import type { EmailConfig, EmailUserConfig } from "./types.js"

export type {
  EmailConfig,
  EmailProviderId,
  EmailProviderSendVerificationRequestParams,
  EmailProviderType,
  EmailUserConfig,
} from "./types.js"
export { normalizeEmailAddress } from "../lib/email-address.js"

/** Options of `Email()`: `sendVerificationRequest` delivers the link (or `server`, to send over SMTP as Nodemailer does). */
export interface EmailProviderUserConfig extends Omit<EmailUserConfig, "server"> {
  server?: NodemailerServer
}

/**
 * Creates an e-mail provider (id `email`) that signs users in with a one-time link. Give `sendVerificationRequest`
 * to deliver the link yourself; an Auth.js config that passes `server` instead sends the default mail over SMTP.
 */
export default function Email(config: EmailProviderUserConfig): EmailConfig {
  const send = config?.sendVerificationRequest ?? (config?.server ? sendWithNodemailer : undefined)
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
export { Email }
