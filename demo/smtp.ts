// The demo's mail catcher: an SMTP server (smtp-server) on 127.0.0.1 that keeps every message in memory for /inbox.
import { randomUUID } from "node:crypto"
import type { AddressInfo } from "node:net"
import { SMTPServer } from "smtp-server"

/** One caught e-mail, decoded enough to show it: headers, the text part and the links in it. */
export interface CaughtMail {
  id: string
  receivedAt: string
  from: string
  to: string[]
  subject: string
  text: string
  /** Every http(s) link in the text part, in order (the sign-in link is the first). */
  links: string[]
}

export interface MailCatcher {
  host: string
  port: number
  /** Newest first; at most {@link MAX_MAILS}. */
  mails(): readonly CaughtMail[]
  stop(): Promise<void>
}

const MAX_MAILS = 50
/** Enough for any sign-in e-mail; a larger message is refused (552) rather than kept. */
const MAX_MESSAGE_BYTES = 256 * 1024

/** Starts the catcher on an OS-chosen port. Nothing is relayed: every message stays in this process. */
export async function startMailCatcher(): Promise<MailCatcher> {
  const mails: CaughtMail[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    size: MAX_MESSAGE_BYTES,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("end", () => {
        if ((stream as { sizeExceeded?: boolean }).sizeExceeded)
          return callback(Object.assign(new Error("message too large"), { responseCode: 552 }))
        const raw = Buffer.concat(chunks).toString("utf8")
        const envelopeFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : ""
        mails.unshift(
          readMail(
            raw,
            envelopeFrom,
            session.envelope.rcptTo.map((r) => r.address),
          ),
        )
        mails.length = Math.min(mails.length, MAX_MAILS)
        callback()
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve())
  })
  const { port } = server.server.address() as AddressInfo
  return {
    host: "127.0.0.1",
    port,
    mails: () => mails,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** The headers (unfolded, lower-case names) and the body of one MIME entity. */
function splitEntity(entity: string): { headers: Map<string, string>; body: string } {
  const match = /\r?\n\r?\n/.exec(entity)
  const head = match ? entity.slice(0, match.index) : entity
  const body = match ? entity.slice(match.index + match[0].length) : ""
  const headers = new Map<string, string>()
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":")
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim())
  }
  return { headers, body }
}

/** Quoted-printable (RFC 2045 §6.7) to UTF-8 text. */
function fromQuotedPrintable(text: string): string {
  const bytes: number[] = []
  const flat = text.replace(/=\r?\n/g, "")
  for (let i = 0; i < flat.length; i++) {
    const hex = flat[i] === "=" ? flat.slice(i + 1, i + 3) : ""
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16))
      i += 2
    } else bytes.push(flat.charCodeAt(i) & 0xff)
  }
  return Buffer.from(bytes).toString("utf8")
}

function decodeBody(headers: Map<string, string>, body: string): string {
  const encoding = (headers.get("content-transfer-encoding") ?? "7bit").toLowerCase()
  if (encoding === "quoted-printable") return fromQuotedPrintable(body)
  if (encoding === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8")
  return body
}

/** Encoded words in a header (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`, RFC 2047) to text. */
function decodeHeader(value: string): string {
  return value.replace(/=\?[^?]+\?([QqBb])\?([^?]*)\?=\s*/g, (_, kind: string, data: string) =>
    kind.toUpperCase() === "B"
      ? Buffer.from(data, "base64").toString("utf8")
      : fromQuotedPrintable(data.replace(/_/g, " ")),
  )
}

/** The first text/plain part, searching multipart bodies depth-first. */
function textPart(entity: string): string | undefined {
  const { headers, body } = splitEntity(entity)
  const type = (headers.get("content-type") ?? "text/plain").toLowerCase()
  const boundary = /boundary="?([^";]+)"?/i.exec(headers.get("content-type") ?? "")?.[1]
  if (type.startsWith("multipart/") && boundary) {
    for (const part of body.split(`--${boundary}`).slice(1)) {
      if (part.startsWith("--")) break
      const found = textPart(part.replace(/^\r?\n/, ""))
      if (found !== undefined) return found
    }
    return undefined
  }
  return type.startsWith("text/plain") ? decodeBody(headers, body) : undefined
}

function readMail(raw: string, envelopeFrom: string, to: string[]): CaughtMail {
  const { headers } = splitEntity(raw)
  const text = (textPart(raw) ?? "").replace(/\r\n/g, "\n").trim()
  return {
    id: randomUUID(),
    receivedAt: new Date().toISOString(),
    from: decodeHeader(headers.get("from") ?? envelopeFrom),
    to,
    subject: decodeHeader(headers.get("subject") ?? "(no subject)"),
    text,
    links: text.match(/https?:\/\/[^\s<>"]+/g) ?? [],
  }
}
