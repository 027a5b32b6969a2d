// A real SMTP server (smtp-server) on 127.0.0.1 with an OS-chosen port that collects every message it receives, plus
// a small MIME reader for the tests: the text part, decoded, and the sign-in link in it. Not a test file.
import type { AddressInfo } from "node:net"
import { SMTPServer } from "smtp-server"

/** One message as the server received it. */
export interface ReceivedMail {
  from: string
  to: string[]
  raw: string
}

export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>` (no TLS, no auth): what Nodemailer({ server }) takes. */
  readonly url: string
  readonly port: number
  readonly messages: ReceivedMail[]
  /** Resolves with the n-th message (1-based) once it has arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail>
  /** Refuse recipients from now on (550), to test a failed send. */
  rejectRecipients: boolean
  stop(): Promise<void>
}

/** Starts the sink. Nothing leaves the machine: the server only collects. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: ReceivedMail[] = []
  const waiters: Array<() => void> = []
  const state = { rejectRecipients: false }
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (state.rejectRecipients)
        return callback(Object.assign(new Error("mailbox unavailable"), { responseCode: 550 }))
      callback()
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("end", () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        })
        for (const wake of waiters.splice(0)) wake()
        callback()
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve())
  })
  const port = (server.server.address() as AddressInfo).port
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    get rejectRecipients() {
      return state.rejectRecipients
    },
    set rejectRecipients(value: boolean) {
      state.rejectRecipients = value
    },
    async waitFor(count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs
      while (messages.length < count) {
        if (Date.now() > deadline) throw new Error(`SMTP sink: expected ${count} message(s), got ${messages.length}`)
        await new Promise<void>((resolve) => {
          waiters.push(resolve)
          setTimeout(resolve, 50)
        })
      }
      return messages[count - 1] as ReceivedMail
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** Decodes a quoted-printable body (RFC 2045 §6.7). */
function decodeQuotedPrintable(body: string): string {
  const bytes = body
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
  return Buffer.from(bytes, "latin1").toString("utf8")
}

/** The headers (unfolded, lower-case names) and body of one MIME entity. */
function splitEntity(entity: string): { headers: Map<string, string>; body: string } {
  const cut = entity.search(/\r?\n\r?\n/)
  const head = cut === -1 ? entity : entity.slice(0, cut)
  const body = cut === -1 ? "" : entity.slice(cut).replace(/^\r?\n\r?\n/, "")
  const headers = new Map<string, string>()
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":")
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim())
  }
  return { headers, body }
}

function decodeBody(headers: Map<string, string>, body: string): string {
  const encoding = (headers.get("content-transfer-encoding") ?? "7bit").toLowerCase()
  if (encoding === "quoted-printable") return decodeQuotedPrintable(body)
  if (encoding === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8")
  return body
}

/** The message's top-level headers (lower-case names). */
export function mailHeaders(mail: ReceivedMail): Map<string, string> {
  return splitEntity(mail.raw).headers
}

/** The decoded part of a content type (`text/plain` or `text/html`), searching multipart bodies. */
export function mailPart(mail: ReceivedMail, type: "text/plain" | "text/html"): string | undefined {
  const visit = (entity: string): string | undefined => {
    const { headers, body } = splitEntity(entity)
    const contentType = headers.get("content-type") ?? "text/plain"
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1]
    if (contentType.toLowerCase().startsWith("multipart/") && boundary) {
      for (const part of body.split(`--${boundary}`).slice(1)) {
        if (part.startsWith("--")) break
        const found = visit(part.replace(/^\r?\n/, ""))
        if (found !== undefined) return found
      }
      return undefined
    }
    return contentType.toLowerCase().startsWith(type) ? decodeBody(headers, body) : undefined
  }
  return visit(mail.raw)
}

/** The first link in the text part that points at `<origin>…/callback/`. */
export function signInLink(mail: ReceivedMail): URL {
  const text = mailPart(mail, "text/plain") ?? ""
  const match = /https?:\/\/\S+\/callback\/\S+/.exec(text)
  if (!match) throw new Error(`no sign-in link in the text part:\n${text}`)
  return new URL(match[0])
}
