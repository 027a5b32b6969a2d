// gatehouse/providers/nodemailer off Node.js (package.json "exports": edge-light, workerd, worker, browser): importing
// it throws an AuthError that names the HTTP mail API providers. Same export names as providers/nodemailer.ts, whose
// types the entry keeps.
import { refuseOffNode } from "./refuse.js"

const unavailable: never = refuseOffNode(
  "gatehouse/providers/nodemailer",
  "Nodemailer sends over SMTP with node:net and node:tls",
  "Send the sign-in e-mail through an HTTP mail API provider: gatehouse/providers/resend, sendgrid, postmark, mailgun, forwardemail or loops; or give Email({ sendVerificationRequest }) from gatehouse/providers/email your own fetch.",
)

export { unavailable as Nodemailer, unavailable as default }
