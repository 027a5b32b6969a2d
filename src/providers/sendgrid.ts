// The SendGrid provider: magic-link e-mails sent through SendGrid's v3 Mail Send API (POST https://api.sendgrid.com/v3/mail/send).
import type { MailApiUserConfig } from "./email-message.js"
import { type MailApiDefinition, mailApiProvider } from "./mail-send.js"
import type { EmailConfig } from "./types.js"

export type { EmailConfig, EmailUserConfig } from "./types.js"
export type { MailApiUserConfig } from "./email-message.js"

/** `"Name <a@b.test>"` → `{ email, name }`, the address object SendGrid wants (a bare address has no name). */
function sendGridAddress(address: string): { email: string; name?: string } {
  const match = /^\s*"?([^"<]*?)"?\s*<([^<>\s]+)>\s*$/.exec(address)
  if (!match) return { email: address.trim() }
  const name = match[1]?.trim()
  return name ? { email: match[2] as string, name } : { email: match[2] as string }
}

/** SendGrid's Mail Send call: a Bearer API key; recipients in `personalizations`, text and HTML in `content`. */
const sendGridApi: MailApiDefinition = {
  id: "sendgrid",
  name: "SendGrid",
  buildRequest: ({ apiKey, from, to, subject, html, text }) => ({
    url: "https://api.sendgrid.com/v3/mail/send",
    headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      personalizations: [{ to: [{ email: to }] }],
      from: sendGridAddress(from),
      subject,
      // SendGrid requires text/plain before text/html.
      content: [
        { type: "text/plain", value: text },
        { type: "text/html", value: html },
      ],
    }),
  }),
}

/**
 * Creates the SendGrid e-mail provider (id `sendgrid`). Needs `apiKey` (or AUTH_SENDGRID_KEY) and a verified
 * sender as `from` (`"Name <a@b.test>"` is sent as SendGrid's `{ email, name }`).
 */
export default function SendGrid(config: MailApiUserConfig = {}): EmailConfig {
  return mailApiProvider(sendGridApi, config)
}
export { SendGrid }
