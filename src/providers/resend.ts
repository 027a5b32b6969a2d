// The Resend provider: magic-link e-mails sent through Resend's HTTP API (POST https://api.resend.com/emails).
import type { MailApiUserConfig } from "./email-message.js"
import { type MailApiDefinition, mailApiProvider } from "./mail-send.js"
import type { EmailConfig } from "./types.js"

export type { EmailConfig, EmailUserConfig } from "./types.js"
export type { MailApiUserConfig } from "./email-message.js"

/** Resend's send-email call: a Bearer API key and a JSON body with from, to, subject, html and text. */
const resendApi: MailApiDefinition = {
  id: "resend",
  name: "Resend",
  buildRequest: ({ apiKey, from, to, subject, html, text }) => ({
    url: "https://api.resend.com/emails",
    headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
    body: JSON.stringify({ from, to, subject, html, text }),
  }),
}

/**
 * Creates the Resend e-mail provider (id `resend`). Needs `apiKey` (or AUTH_RESEND_KEY) and a `from` address on a
 * domain verified with Resend; pass `sendVerificationRequest` to send your own message instead.
 */
export default function Resend(config: MailApiUserConfig = {}): EmailConfig {
  return mailApiProvider(resendApi, config)
}
export { Resend }
