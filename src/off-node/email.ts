// gatehouse/providers/email off Node.js (package.json "exports": edge-light, workerd, worker, browser): the same Email()
// as providers/email.ts, whose types the entry keeps, without the SMTP send (nodemailer needs node:net and node:tls).
// `server` without `sendVerificationRequest` throws an AuthError that names the HTTP mail API providers.
import { AuthError } from "../errors.js"
import type { EmailProviderUserConfig } from "../providers/email.js"
import { genericEmailProvider } from "../providers/mail-send.js"
import type { EmailConfig } from "../providers/types.js"

export { normalizeEmailAddress } from "../lib/email-address.js"

function smtpNeedsNode(): never {
  throw new AuthError(
    "Email({ server }) sends over SMTP with Nodemailer, which needs Node.js (node:net, node:tls), so it cannot send on this runtime (the Next.js Edge runtime, Cloudflare Workers, a browser). Pass `sendVerificationRequest` to deliver the link yourself, or use an HTTP mail API provider: gatehouse/providers/resend, sendgrid, postmark, mailgun, forwardemail or loops.",
  )
}

/** Email() off Node.js: `sendVerificationRequest` delivers the link; `server` alone throws (no SMTP here). */
export default function Email(config: EmailProviderUserConfig): EmailConfig {
  return genericEmailProvider(config, smtpNeedsNode)
}
export { Email }
