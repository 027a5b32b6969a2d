// The Postmark provider: magic-link e-mails sent through Postmark's email API (POST https://api.postmarkapp.com/email).
import type { MailApiUserConfig } from "./email-message.js"
import { type MailApiDefinition, mailApiProvider } from "./mail-send.js"
import type { EmailConfig } from "./types.js"

export type { EmailConfig, EmailUserConfig } from "./types.js"
export type { MailApiUserConfig } from "./email-message.js"

/** Postmark's single-email call: the server token in X-Postmark-Server-Token, PascalCase JSON fields, the transactional stream. */
const postmarkApi: MailApiDefinition = {
  id: "postmark",
  name: "Postmark",
  buildRequest: ({ apiKey, from, to, subject, html, text }) => ({
    url: "https://api.postmarkapp.com/email",
    headers: { Accept: "application/json", "Content-Type": "application/json", "X-Postmark-Server-Token": apiKey },
    body: JSON.stringify({
      From: from,
      To: to,
      Subject: subject,
      TextBody: text,
      HtmlBody: html,
      MessageStream: "outbound",
    }),
  }),
}

/**
 * Creates the Postmark e-mail provider (id `postmark`). `apiKey` is the server API token (or AUTH_POSTMARK_KEY);
 * `from` must be a confirmed sender signature.
 */
export default function Postmark(config: MailApiUserConfig = {}): EmailConfig {
  return mailApiProvider(postmarkApi, config)
}
export { Postmark }
