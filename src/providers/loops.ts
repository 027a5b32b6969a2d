// The Loops provider: magic-link e-mails sent as a Loops transactional e-mail (POST https://app.loops.so/api/v1/transactional).
import { EmailSignInError } from "../errors.js"
import { customFetch } from "../symbols.js"
import type { MailApiUserConfig } from "./email-message.js"
import { DEFAULT_FROM, postToMailApi } from "./mail-send.js"
import type { EmailConfig, EmailProviderSendVerificationRequestParams } from "./types.js"

export type { EmailConfig, EmailUserConfig } from "./types.js"

/** Loops's options: the mail-API ones plus the id of the transactional e-mail (made in Loops, with a `url` data variable). */
export type LoopsUserConfig = MailApiUserConfig & { transactionalId?: string }
/** What `Loops()` returns: an e-mail provider plus the Loops template id. */
export type LoopsConfig = EmailConfig & { transactionalId: string }

type View = EmailConfig & { transactionalId?: unknown; [customFetch]?: unknown }

/**
 * Creates the Loops e-mail provider (id `loops`). Needs `apiKey` (or AUTH_LOOPS_KEY) and `transactionalId`: the
 * transactional e-mail designed in Loops, which receives the sign-in link as the data variable `url`. The message
 * text is Loops's template; `from` is set in Loops, not here.
 */
export default function Loops(config: LoopsUserConfig = {}): EmailConfig & { transactionalId: string } {
  async function sendVerificationRequest(params: EmailProviderSendVerificationRequestParams): Promise<void> {
    const given = params.provider as View | undefined
    const view: View = given?.options ? { ...given, ...given.options } : (given ?? ({} as View))
    const rawKey = view.apiKey ?? config.apiKey
    const apiKey = typeof rawKey === "string" ? rawKey.trim() : ""
    const transactionalId =
      typeof view.transactionalId === "string" && view.transactionalId
        ? view.transactionalId
        : (config.transactionalId ?? "")
    if (apiKey === "")
      throw new EmailSignInError("Loops: no API key. Pass `apiKey` to Loops({ apiKey }) or set AUTH_LOOPS_KEY.")
    if (/[\u0000-\u001f\u007f]/.test(apiKey))
      throw new EmailSignInError("Loops: the API key contains a control character (a line break?); check `apiKey`.")
    if (transactionalId === "")
      throw new EmailSignInError("Loops: no `transactionalId`. Pass the id of the transactional e-mail made in Loops.")
    const fetchOption = view[customFetch] ?? config[customFetch]
    const fetchImpl: typeof fetch =
      typeof fetchOption === "function" ? (fetchOption as typeof fetch) : (input, init) => fetch(input, init)
    const request = {
      url: "https://app.loops.so/api/v1/transactional",
      headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ transactionalId, email: params.identifier, dataVariables: { url: params.url } }),
    }
    await postToMailApi("Loops", request, fetchImpl, [apiKey])
  }
  return {
    id: "loops",
    type: "email",
    name: "Loops",
    from: DEFAULT_FROM,
    maxAge: 24 * 60 * 60,
    transactionalId: config.transactionalId ?? "",
    sendVerificationRequest,
    options: config,
  }
}
export { Loops }
