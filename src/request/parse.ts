// The only code that reads a request (through RequestInput): path -> action and provider, origin, cookies, query and (for POST) a bounded body.
import { InvalidRequest, UnknownAction } from "../errors.js"
import type { AuthRequest, ClientAddress, ClientAddressRule, ResolvedConfig, WireFormat } from "../pipeline-types.js"
import { actionsWithProvider, isAuthAction } from "../actions/table.js"
import type { AuthAction } from "../types.js"
import { isIP } from "../lib/ip.js"
import { fromUtf8 } from "#crypto"
import { parseCookieHeader } from "../cookies/parse.js"
import { resolveOrigin } from "./host.js"
import { type HeaderReader, type RequestInput, targetOf } from "./input.js"
import { readFormFields, UNSAFE_FIELD_NAMES } from "./form.js"

/** Form bodies larger than this are refused with 413 (docs/security.md RQ-03). */
export const MAX_FORM_BYTES = 64 * 1024
/** JSON bodies larger than this are refused with 413 (docs/security.md RQ-03). */
const MAX_JSON_BYTES = 1024 * 1024

/** A Cookie header longer than this is refused with 431 (docs/security.md DS-01); browsers send at most ~180 cookies of 4 KiB per site. */
export const MAX_COOKIE_HEADER = 64 * 1024

const withProvider: ReadonlySet<string> = actionsWithProvider

/** Splits the path after basePath into an action and an optional provider id; 400 UnknownAction otherwise. */
export function parseActionPath(
  pathname: string,
  basePath: string,
): { action: AuthAction; providerId: string | undefined } {
  let rest: string
  if (basePath === "/" || basePath === "") rest = pathname
  else if (pathname.startsWith(basePath) && pathname.charCodeAt(basePath.length) === 47 /* / */)
    rest = pathname.slice(basePath.length)
  else throw new UnknownAction(`The path is not under the basePath "${basePath}".`)
  const [action, providerId, extra] = firstSegments(rest)
  if (action === undefined || extra !== undefined || !isAuthAction(action)) throw new UnknownAction("Unknown action.")
  if (providerId !== undefined && !withProvider.has(action))
    throw new UnknownAction(`The "${action}" action takes no provider id.`)
  return { action, providerId: providerId === "undefined" ? undefined : providerId }
}

/** The first three non-empty `/`-separated segments of a path (empty ones, as in `//`, are skipped). */
function firstSegments(path: string): string[] {
  const segments: string[] = []
  let at = 0
  while (at < path.length && segments.length < 3) {
    if (path.charCodeAt(at) === 47 /* / */) {
      at++
      continue
    }
    const end = path.indexOf("/", at)
    const stop = end === -1 ? path.length : end
    segments.push(path.slice(at, stop))
    at = stop
  }
  return segments
}

/** Whether the path is next-auth 4's client log route, `<basePath>/_log` (answered in its wire format only). */
export function isClientLogPath(pathname: string, basePath: string): boolean {
  return pathname === `${basePath === "/" ? "" : basePath}/_log`
}

/** Reads at most `limit` bytes of the body; 413 as soon as there is more (the rest is not read). */
async function readBody(input: RequestInput, limit: number): Promise<string> {
  const bytes = await input.readBody(limit)
  if (!bytes) throw new InvalidRequest(`Request body is larger than ${limit} bytes.`, 413)
  return fromUtf8(bytes)
}

function safeRecord(entries: Iterable<[string, unknown]>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of entries) {
    if (UNSAFE_FIELD_NAMES.has(key) || Object.hasOwn(out, key)) continue
    out[key] = value
  }
  return out
}

/** A POST body parsed by content type: the record, and for a form its text and the names it sends more than once. */
interface ParsedBody {
  body: Readonly<Record<string, unknown>>
  formText?: string
  repeatedFields?: readonly string[]
}

/** Parses a POST body by content type: JSON objects and url-encoded forms; other types are ignored (not parsed as anything). */
async function parseBody(input: RequestInput): Promise<ParsedBody> {
  const type = (input.header.get("content-type") ?? "").split(";", 1)[0]!.trim().toLowerCase()
  if (type === "application/x-www-form-urlencoded") {
    const formText = await readBody(input, MAX_FORM_BYTES)
    const { fields, repeated } = readFormFields(formText)
    return { body: fields, formText, repeatedFields: repeated }
  }
  if (type === "application/json") {
    const text = await readBody(input, MAX_JSON_BYTES)
    if (text.trim() === "") return { body: {} }
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      throw new InvalidRequest("Request body is not valid JSON.")
    }
    if (typeof value !== "object" || value === null || Array.isArray(value))
      throw new InvalidRequest("Request body must be a JSON object.")
    return { body: safeRecord(Object.entries(value)) }
  }
  return { body: {} }
}

const noBody: ParsedBody = Object.freeze({ body: Object.freeze({}) })
const noFields: readonly string[] = Object.freeze([])

/**
 * RequestInput -> AuthRequest. Throws UnknownAction (400) or InvalidRequest (400/413/431) for requests it cannot read.
 * A HEAD is read as the GET it mirrors (RFC 9110 §9.3.2), marked `head` so the body is left out of the answer.
 * Only a POST has a body to wait for: any other request is read synchronously (no promise to make and await).
 */
export function parseRequest(input: RequestInput, config: ResolvedConfig): AuthRequest | Promise<AuthRequest> {
  const target = targetOf(input)
  const { action, providerId } = parseActionPath(target.pathname, config.basePath)
  const header = input.header
  const { origin, secure } = resolveOrigin(target, header, config)
  const cookieHeader = header.get("cookie")
  if (cookieHeader !== null && cookieHeader.length > MAX_COOKIE_HEADER)
    throw new InvalidRequest("The Cookie header is too large.", 431)
  const head = input.method === "HEAD"
  const method = head ? "GET" : input.method
  const cookies = parseCookieHeader(cookieHeader)
  const parsed = (body: ParsedBody) =>
    new ParsedRequest(input, origin, secure, action, providerId, method, head, cookies, body, config.wire)
  if (method !== "POST") return parsed(noBody)
  return parseBody(input).then(parsed)
}

/** An AuthRequest: a class, so the lazily built `headers` lives on the prototype (object literals with accessors are slow to make). */
class ParsedRequest implements AuthRequest {
  readonly header: HeaderReader
  readonly body: Readonly<Record<string, unknown>>
  readonly repeatedFields: readonly string[]
  #formText: string | undefined
  #form: URLSearchParams | undefined
  #returnRedirect: boolean | undefined

  constructor(
    private readonly input: RequestInput,
    readonly origin: string,
    readonly secure: boolean,
    readonly action: AuthAction,
    readonly providerId: string | undefined,
    readonly method: string,
    readonly head: boolean,
    readonly cookies: Record<string, string>,
    parsedBody: ParsedBody,
    private readonly wire: WireFormat,
  ) {
    this.header = input.header
    this.body = parsedBody.body
    this.repeatedFields = parsedBody.repeatedFields ?? noFields
    this.#formText = parsedBody.formText
  }

  /** A form body as URLSearchParams, made on first use: only a form_post callback, OAuth 1 and e-mail ask. */
  get form(): URLSearchParams | undefined {
    if (this.#formText === undefined) return undefined
    this.#form ??= new URLSearchParams(this.#formText)
    return this.#form
  }

  /** The request URL, built on first use (a web Request's URL is parsed only when an action reads more than its path). */
  get url(): URL {
    return this.input.url
  }

  /** Read on first use (a redirect or an error answer asks; a JSON answer never does). */
  get returnRedirect(): boolean {
    // next-auth 4's clients ask for `{ url }` with a `json=true` field in the POST body.
    this.#returnRedirect ??=
      this.input.header.get("x-auth-return-redirect") !== null ||
      (this.wire === "next-auth-v4" && this.body.json === "true")
    return this.#returnRedirect
  }

  get headers(): Headers {
    return this.input.headers()
  }

  /** Read on first use: the URL makes its URLSearchParams (parsing the query) only then, and the session read never asks. */
  get query(): URLSearchParams {
    return this.url.searchParams
  }

  /** Called only by the sign-in rate limit, so other requests never pay for it. */
  clientAddress(rule: ClientAddressRule): ClientAddress {
    return clientAddressOf(this.input.clientAddress, this.header, rule, this.input.frameworkClientAddress)
  }
}

function isPrivateAddress(address: string): boolean {
  const kind = isIP(address)
  if (kind === 4) {
    const [a = 0, b = 0] = address.split(".").map(Number)
    return (
      a === 10 || a === 127 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254)
    )
  }
  if (kind === 6) {
    const lower = address.toLowerCase()
    if (lower.startsWith("::ffff:") && isIP(lower.slice(7)) === 4) return isPrivateAddress(lower.slice(7))
    return lower === "::1" || /^f[cd]/.test(lower) || /^fe[89ab]/.test(lower)
  }
  return false
}

/** Headers a proxy adds; from a private or loopback peer they mean a proxy is in front. */
const PROXY_HEADERS = ["x-forwarded-for", "forwarded", "x-real-ip"] as const

/** An IP address from one header entry: `ip`, `[ipv6]`, `[ipv6]:port` or `ipv4:port` (some load balancers add the port). */
function ipOf(entry: string): string | undefined {
  let value = entry.trim()
  if (value.startsWith("[")) {
    const end = value.indexOf("]")
    if (end === -1 || !/^(?::\d{1,5})?$/.test(value.slice(end + 1))) return undefined
    value = value.slice(1, end)
  } else if (/^[\d.]+:\d{1,5}$/.test(value)) value = value.slice(0, value.lastIndexOf(":"))
  return isIP(value) ? value : undefined
}

/**
 * The entry `proxies` places from the right of a comma list. Each proxy appends the address it saw, so the right end
 * is written by proxies you run and the left end by whoever sent the request: that part is never read.
 */
function entryFromRight(value: string | null, proxies: number): string | undefined {
  if (value === null) return undefined
  const entries = value.split(",")
  return entries.length < proxies ? undefined : ipOf(entries[entries.length - proxies]!)
}

const unknownAddress: ClientAddress = Object.freeze({ address: undefined, undeclaredProxy: false })
const undeclaredProxy: ClientAddress = Object.freeze({ address: undefined, undeclaredProxy: true })

function known(address: string | undefined): ClientAddress {
  return address !== undefined && isIP(address) !== 0 ? { address, undeclaredProxy: false } : unknownAddress
}

/**
 * The client's address for the sign-in rate limit (rate-limit/sign-in-limit.ts), by `rule` (the resolved
 * `rateLimit.clientAddress`). Headers count only when the rule names one; `trustHost` and AUTH_URL play no part.
 * - a header: its entry `proxies` places from the right; missing, too short or not an IP means unknown.
 * - "socket": the socket's address.
 * - "default": the framework's own trusted address when it has one (Express `req.ip` under `trust proxy`), else the
 *   socket's; but a private or loopback socket that sends proxy headers is a proxy nobody declared. Its address would
 *   put every user in one bucket, so the address is unknown (`undeclaredProxy`, for a warning).
 */
export function clientAddressOf(
  socketAddress: string | undefined,
  header: HeaderReader,
  rule: ClientAddressRule,
  frameworkAddress?: () => string | undefined,
): ClientAddress {
  if (typeof rule === "object") return known(entryFromRight(header.get(rule.header), rule.proxies))
  if (rule === "default" && frameworkAddress) return known(frameworkAddress())
  const socket = known(socketAddress)
  if (rule === "socket" || socket.address === undefined || !isPrivateAddress(socket.address)) return socket
  return PROXY_HEADERS.some((name) => header.get(name) !== null) ? undeclaredProxy : socket
}
