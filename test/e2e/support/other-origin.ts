// An attacker's server on another 127.0.0.1 port for the browser attack tests (CL-01, CL-02): it records every
// request and body, allows the app's origin with credentials (CORS), and answers like a Gatehouse mount would, so a
// client that was talked into using it would post credentials there.
import { createServer } from "node:http"
import { listenLocal, readBody, writeJson } from "../../support/listen.js"

export interface OtherOrigin {
  /** http://127.0.0.1:<port>, another origin than the app's. */
  origin: string
  /** Every request: `METHOD /path?query` and its body. */
  requests: { line: string; body: string }[]
  stop(): Promise<void>
}

/** Starts the recording server. */
export async function startOtherOrigin(): Promise<OtherOrigin> {
  const requests: OtherOrigin["requests"] = []
  let origin = ""
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req).catch(() => "(too large)")
      const url = req.url ?? "/"
      requests.push({ line: `${req.method ?? "GET"} ${url}`, body })
      const cors: Record<string, string> = {
        "access-control-allow-origin": req.headers.origin ?? "*",
        "access-control-allow-credentials": "true",
        "access-control-allow-headers": "content-type, x-auth-return-redirect, accept",
        "access-control-allow-methods": "GET, POST",
      }
      const path = url.split("?")[0] ?? "/"
      if (req.method === "OPTIONS") return void res.writeHead(204, cors).end()
      if (path.endsWith("/providers")) {
        const provider = {
          id: "credentials",
          name: "Credentials",
          type: "credentials",
          signinUrl: `${origin}/auth/signin/credentials`,
          callbackUrl: `${origin}/auth/callback/credentials`,
        }
        return writeJson(res, 200, { credentials: provider }, cors)
      }
      if (path.endsWith("/csrf")) return writeJson(res, 200, { csrfToken: "harvested" }, cors)
      if (path.endsWith("/session")) return writeJson(res, 200, {}, cors)
      if (req.method === "POST") return writeJson(res, 200, { url: `${origin}/landed` }, cors)
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", ...cors })
      res.end("<!doctype html><title>elsewhere</title><p>the attacker's page</p>")
    })()
  })
  const listening = await listenLocal(server)
  origin = listening.origin
  return { origin, requests, stop: listening.stop }
}
