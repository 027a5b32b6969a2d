// The Mailgun provider: magic-link e-mails sent through Mailgun's Messages API (POST https://api.mailgun.net/v3/<domain>/messages).
import { EmailSignInError } from "../errors.js"
import type { MailApiUserConfig } from "./email-message.js"
import { mailApiProvider } from "./mail-send.js"
import type { EmailConfig } from "./types.js"

export type { EmailConfig, EmailUserConfig } from "./types.js"

/** Mailgun's options: the mail-API ones plus the account's `region` and, optionally, the sending `domain`. */
export type MailgunUserConfig = MailApiUserConfig & {
  /** Where the Mailgun account lives: "US" (api.mailgun.net, the default) or "EU" (api.eu.mailgun.net). */
  region?: "US" | "EU"
  /** The sending domain as set up in Mailgun; default: the domain of the `from` address. */
  domain?: string
}

const HOSTS = { US: "api.mailgun.net", EU: "api.eu.mailgun.net" } as const

/** The domain part of `"Name <a@mg.example.com>"` or `a@mg.example.com`. */
function domainOf(from: string): string | undefined {
  const address = /<([^<>\s]+)>\s*$/.exec(from)?.[1] ?? from.trim()
  const at = address.lastIndexOf("@")
  return at > 0 && at < address.length - 1 ? address.slice(at + 1) : undefined
}

/**
 * Creates the Mailgun e-mail provider (id `mailgun`). Needs `apiKey` (or AUTH_MAILGUN_KEY) and a `from` address on a
 * domain verified with Mailgun (or `domain`); `region: "EU"` for an EU account.
 */
export default function Mailgun(config: MailgunUserConfig = {}): EmailConfig {
  const provider = mailApiProvider(
    {
      id: "mailgun",
      name: "Mailgun",
      buildRequest: ({ apiKey, from, to, subject, html, text }) => {
        const region = config.region ?? "US"
        const host = HOSTS[region]
        if (!host) throw new EmailSignInError(`Mailgun: unknown region "${String(region)}" (use "US" or "EU").`)
        const domain = config.domain ?? domainOf(from)
        if (!domain)
          throw new EmailSignInError(
            "Mailgun: no sending domain. Set `from` to an address on your Mailgun domain, or pass `domain`.",
          )
        return {
          url: `https://${host}/v3/${encodeURIComponent(domain)}/messages`,
          headers: {
            Authorization: `Basic ${btoa(`api:${apiKey}`)}`,
            "Content-Type": "application/x-www-form-urlencoded",
          },
          body: new URLSearchParams({ from, to, subject, html, text }).toString(),
        }
      },
    },
    config,
  )
  return provider
}
export { Mailgun }
