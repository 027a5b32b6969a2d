// A fake HTTP mail API on 127.0.0.1 for the e-mail provider tests (test/providers/mail-apis.test.ts, the mail APIs of
// test/providers/catalogue/misc.test.ts): records each request and answers what its `answer` decides (the API's
// documented request shapes, success and error bodies); `fetchFor` is the provider's customFetch.
import { createServer, type IncomingMessage } from "node:http"
import { listenLocal, readBody, type Listening } from "./listen.js"

export interface Seen {
  method: string
  /** The request target (path and query). */
  path: string
  headers: IncomingMessage["headers"]
  body: string
}

/** The fake's verdict: status and JSON body (undefined: empty body). */
export type Answer = { status: number; body?: unknown }

export class FakeApi {
  seen: Seen[] = []
  /** Set to force the next answer (401/422/500 tests); otherwise `answer` checks the request. */
  forced: Answer | undefined
  private listening: Listening | undefined
  base = ""
  constructor(private readonly answer: (req: Seen) => Answer) {}
  async start(): Promise<void> {
    const server = createServer((req, res) => {
      readBody(req).then(
        (body) => {
          const seen = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body }
          this.seen.push(seen)
          const a = this.forced ?? this.answer(seen)
          this.forced = undefined
          res.writeHead(a.status, a.body === undefined ? {} : { "content-type": "application/json; charset=utf-8" })
          res.end(a.body === undefined ? "" : JSON.stringify(a.body))
        },
        () => res.destroy(),
      )
    })
    this.listening = await listenLocal(server)
    this.base = this.listening.origin
  }
  async stop(): Promise<void> {
    await this.listening?.stop()
  }
  /** A fetch that sends what the provider addresses to `origin` to this fake instead (same path), and refuses anything else. */
  fetchFor(origin: string): typeof fetch {
    return async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input))
      if (url.origin !== origin) throw new Error(`unexpected origin ${url.origin}`)
      return fetch(`${this.base}${url.pathname}${url.search}`, init)
    }
  }
  last(): Seen {
    const s = this.seen.at(-1)
    if (!s) throw new Error("no request reached the fake")
    return s
  }
}
