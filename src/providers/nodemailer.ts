// The Nodemailer provider: magic-link e-mails sent over SMTP (or any Nodemailer transport); nodemailer loads on first send.
// Node.js only: off it (edge-light, workerd, worker, browser) package.json resolves this entry to off-node/nodemailer.ts,
// which throws on import and names the HTTP mail API providers.
import { AuthError } from "../errors.js"
import { DEFAULT_FROM, type NodemailerServer } from "./mail-send.js"
import { sendWithNodemailer } from "./smtp-send.js"
import type { EmailConfig, EmailUserConfig } from "./types.js"

export type { EmailConfig, EmailUserConfig } from "./types.js"
export type { NodemailerServer } from "./mail-send.js"

/** Options of `Nodemailer()`: the e-mail provider options, with `server` required. */
export interface NodemailerUserConfig extends Omit<EmailUserConfig, "server"> {
  server?: NodemailerServer
}

/** The Nodemailer provider as configured (id `nodemailer` unless set). */
export interface NodemailerConfig extends EmailConfig {
  server: NodemailerServer
  options: NodemailerUserConfig
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
