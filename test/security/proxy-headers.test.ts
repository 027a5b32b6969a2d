// Behind a TLS-terminating proxy that keeps Host and adds only X-Forwarded-Proto (nginx's usual set-up), over a real socket.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createAuthHandler } from "../../src/integrations/node.js"
import { makeConfig } from "../support/flow-kit.js"
import { type NodeServer, type RawResponse, rawRequest, startNodeServer } from "../support/raw-http.js"

let server: NodeServer
beforeAll(async () => {
  server = await startNodeServer(createAuthHandler(makeConfig({ logger: { error() {}, warn() {}, debug() {} } })))
})
afterAll(() => server.close())

function cookiePairs(res: RawResponse): Map<string, string> {
  const out = new Map<string, string>()
  for (const line of res.headers["set-cookie"] ?? []) {
    const pair = line.split(";", 1)[0]!
    out.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1))
  }
  return out
}

describe("HT-03 X-Forwarded-Proto without X-Forwarded-Host", () => {
  const proxied = "Host: app.example\r\nX-Forwarded-Proto: https\r\nX-Forwarded-For: 203.0.113.9"

  it("HT-03 URLs are https and cookies Secure with __Host-/__Secure- names, and credentials sign-in succeeds", async () => {
    const providers = await rawRequest(server.port, `GET /auth/providers HTTP/1.1\r\n${proxied}`)
    expect(JSON.parse(providers.body).credentials.callbackUrl).toBe("https://app.example/auth/callback/credentials")

    const csrf = await rawRequest(server.port, `GET /auth/csrf HTTP/1.1\r\n${proxied}`)
    expect(csrf.status).toBe(200)
    const csrfCookie = csrf.headers["set-cookie"]!.find((c) => c.startsWith("__Host-authjs.csrf-token="))
    expect(csrfCookie).toMatch(/; Secure/i)
    const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string }

    const form = new URLSearchParams({ csrfToken, username: "alice", password: "password" }).toString()
    const cookie = [...cookiePairs(csrf)].map(([k, v]) => `${k}=${v}`).join("; ")
    const signIn = await rawRequest(
      server.port,
      `POST /auth/callback/credentials HTTP/1.1\r\n${proxied}\r\nOrigin: https://app.example\r\nSec-Fetch-Site: same-origin\r\nCookie: ${cookie}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${form.length}`,
      form,
    )
    expect(signIn.status).toBe(302)
    expect(signIn.headers.location?.[0]).toMatch(/^https:\/\/app\.example(\/|$)/)
    const session = signIn.headers["set-cookie"]!.find((c) => c.startsWith("__Secure-authjs.session-token="))
    expect(session).toMatch(/; Secure/i)
  })

  it("HT-03 without trustHost the forwarded proto is ignored", async () => {
    const untrusted = await startNodeServer(
      createAuthHandler(makeConfig({ trustHost: undefined, logger: { error() {}, warn() {}, debug() {} } })),
    )
    try {
      const res = await rawRequest(untrusted.port, `GET /auth/providers HTTP/1.1\r\n${proxied}`)
      expect(res.status).toBe(500)
      expect(res.body).not.toContain("https://app.example")
    } finally {
      await untrusted.close()
    }
  })
})
