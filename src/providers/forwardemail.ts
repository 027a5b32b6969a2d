// The Forward Email provider: magic-link e-mails sent through Forward Email's API (POST https://api.forwardemail.net/v1/emails).
import type { MailApiUserConfig } from "./email-message.js"
import { type MailApiDefinition, mailApiProvider } from "./mail-send.js"
import type { EmailConfig } from "./types.js"

export type { EmailConfig, EmailUserConfig } from "./types.js"
export type { MailApiUserConfig } from "./email-message.js"

/** Forward Email's send call: HTTP Basic auth with the API key as user name and no password; a JSON body. */
const forwardEmailApi: MailApiDefinition = {
  id: "forwardemail",
  name: "Forward Email",
  buildRequest: ({ apiKey, from, to, subject, html, text }) => ({
    url: "https://api.forwardemail.net/v1/emails",
    headers: { Authorization: `Basic ${btoa(`${apiKey}:`)}`, "Content-Type": "application/json" },
    body: JSON.stringify({ from, to, subject, html, text }),
  }),
}

/**
 * Creates the Forward Email e-mail provider (id `forwardemail`). Needs `apiKey` (or AUTH_FORWARDEMAIL_KEY) and a
 * `from` address on a domain set up with Forward Email.
 */
export default function ForwardEmail(config: MailApiUserConfig = {}): EmailConfig {
  return mailApiProvider(forwardEmailApi, config)
}
export { ForwardEmail }
