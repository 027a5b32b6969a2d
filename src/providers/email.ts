// The generic e-mail (magic link) provider: you deliver the link in `sendVerificationRequest`; id `email`. Off Node.js
// (edge-light, workerd, worker, browser) package.json resolves gatehouse/providers/email to off-node/email.ts instead:
// the same provider without the SMTP send.
import { genericEmailProvider, type NodemailerServer } from "./mail-send.js"
import { sendWithNodemailer } from "./smtp-send.js"
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
  return genericEmailProvider(config, () => sendWithNodemailer)
}
export { Email }
