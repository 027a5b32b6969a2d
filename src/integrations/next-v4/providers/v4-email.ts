// next-auth 4's e-mail provider on Gatehouse's Email(): without `sendVerificationRequest` or `server`, next-auth 4
// sent over SMTP to localhost:25, so that is the server here too (Gatehouse's Email() would refuse the config).
import type { NodemailerServer } from "../../../providers/mail-send.js"
import type { EmailConfig, EmailUserConfig } from "../../../providers/types.js"
import { markTranslated } from "./marks.js"

/** What next-auth 4's `EmailProvider()` takes: `server` (an SMTP URL or transport options), `from`, `maxAge`, … */
export type V4EmailUserConfig = Omit<EmailUserConfig, "server"> & { server?: NodemailerServer }

/** next-auth 4's SMTP server when the config names none. */
const V4_DEFAULT_SERVER = { host: "localhost", port: 25, auth: { user: "", pass: "" } }

/** The default export of gatehouse/v4/providers/email, on the Email() of gatehouse/providers/email (or its off-Node build). */
export function v4Email(catalogue: (config: V4EmailUserConfig) => EmailConfig) {
  return (options: V4EmailUserConfig = {}): EmailConfig => {
    const needsServer = options.sendVerificationRequest === undefined && options.server === undefined
    return markTranslated(catalogue(needsServer ? { ...options, server: V4_DEFAULT_SERVER } : options))
  }
}
