// Stress harness: a small keep-alive HTTP client with a per-user cookie jar, for the runs that follow flows
// (sign-in, sign-out, OAuth callbacks, rotation) and check every response, where autocannon's fixed requests do not fit.
import { Agent, request } from "node:http"
import { parseSetCookie as parseCookieHeader } from "../../test/support/set-cookie.js"

export interface HttpResponse {
  status: number
  location: string | undefined
  setCookies: string[]
  body: string
  ms: number
}

/** A Set-Cookie header with its Max-Age read out (parsing shared with the tests: test/support/set-cookie.ts). */
export interface ParsedSetCookie {
  name: string
  value: string
  maxAge: number | undefined
}

export function parseSetCookie(raw: string): ParsedSetCookie {
  const { name, value, attrs } = parseCookieHeader(raw)
  const maxAge = typeof attrs["max-age"] === "string" ? Number(attrs["max-age"]) : undefined
  return { name, value, maxAge }
}

const deletes = (c: ParsedSetCookie): boolean => c.value === "" || (c.maxAge !== undefined && c.maxAge <= 0)

/** A browser's cookie store for one origin: applies Set-Cookie in order, deletions included. */
export class Jar {
  readonly cookies = new Map<string, string>()
  store(setCookies: readonly string[]): void {
    for (const raw of setCookies) {
      const c = parseSetCookie(raw)
      if (deletes(c)) this.cookies.delete(c.name)
      else this.cookies.set(c.name, c.value)
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("; ")
  }
  get(name: string): string | undefined {
    return this.cookies.get(name)
  }
  clone(): Jar {
    const j = new Jar()
    for (const [k, v] of this.cookies) j.cookies.set(k, v)
    return j
  }
}

export class Client {
  private readonly agent: Agent
  private readonly host: string
  private readonly port: number

  constructor(
    readonly origin: string,
    maxSockets = 256,
    private readonly timeoutMs = 30_000,
  ) {
    const url = new URL(origin)
    this.host = url.hostname
    this.port = Number(url.port)
    this.agent = new Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets })
  }

  /** One request; rejects on a socket error or when no answer comes within the timeout. */
  send(
    method: "GET" | "POST",
    path: string,
    opts: { jar?: Jar; form?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<HttpResponse> {
    const body = opts.form ? new URLSearchParams(opts.form).toString() : undefined
    const headers: Record<string, string> = { ...opts.headers }
    const cookie = opts.jar?.header()
    if (cookie) headers.cookie = cookie
    if (body !== undefined) {
      headers["content-type"] = "application/x-www-form-urlencoded"
      headers["content-length"] = String(Buffer.byteLength(body))
    }
    const started = performance.now()
    return new Promise<HttpResponse>((resolve, reject) => {
      const req = request({ host: this.host, port: this.port, method, path, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = []
        res.on("data", (c: Buffer) => chunks.push(c))
        res.on("error", reject)
        res.on("end", () => {
          const setCookies = res.headers["set-cookie"] ?? []
          opts.jar?.store(setCookies)
          resolve({
            status: res.statusCode ?? 0,
            location: res.headers.location,
            setCookies,
            body: Buffer.concat(chunks).toString("utf8"),
            ms: performance.now() - started,
          })
        })
      })
      req.setTimeout(this.timeoutMs, () => req.destroy(new Error(`no answer within ${this.timeoutMs} ms`)))
      req.on("error", reject)
      req.end(body)
    })
  }

  close(): void {
    this.agent.destroy()
  }
}
