// EM-11 over real HTTP: the README's node server (createHandler) with Nodemailer and a real SMTP server; an attacker's
// Host or X-Forwarded-Host must never decide where the mailed sign-in link points.
import { type IncomingMessage, type OutgoingHttpHeaders, createServer, request as httpRequest } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { AuthConfig } from "../../src/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { resolveConfig } from "../../src/config/resolve.js"
import { createHandler } from "../../src/integrations/node.js"
import Nodemailer from "../../src/providers/nodemailer.js"
import { withEnv } from "../support/env.js"
import { type Listening, listenLocal } from "../support/listen.js"
import { signInLink, startSmtpSink, type SmtpSink } from "../support/smtp.js"
import { NO_RATE_LIMIT, SECRET } from "./kit.js"

let sink: SmtpSink
beforeAll(async () => {
  sink = await startSmtpSink()
})
afterAll(async () => {
  await sink.stop()
})

interface Answer {
  status: number
  location: string | null
  cookies: string[]
  body: string
}

/** One HTTP/1.1 request to 127.0.0.1:`port` with exactly the headers given (Host included, which fetch cannot set). */
function send(
  port: number,
  method: string,
  path: string,
  headers: OutgoingHttpHeaders,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        headers: { ...headers, ...(body ? { "content-length": Buffer.byteLength(body) } : {}) },
      },
      (res: IncomingMessage) => {
        let text = ""
        res.setEncoding("utf8")
        res.on("data", (chunk: string) => (text += chunk))
        res.on("end", () => {
          const setCookie = res.headers["set-cookie"] ?? []
          resolve({
            status: res.statusCode ?? 0,
            location: res.headers.location ?? null,
            cookies: setCookie.map((c) => c.split(";", 1)[0]!),
            body: text,
          })
        })
      },
    )
    req.on("error", reject)
    req.end(body)
  })
}

/** The attacker's two requests, as curl would send them: GET /csrf, then POST /signin/nodemailer for the victim. */
async function requestLinkAs(
  port: number,
  headers: Record<string, string>,
  email = "victim@example.com",
): Promise<Answer> {
  const csrf = await send(port, "GET", "/auth/csrf", headers)
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string }
  const form = new URLSearchParams({ csrfToken, email }).toString()
  return send(
    port,
    "POST",
    "/auth/signin/nodemailer",
    { ...headers, "content-type": "application/x-www-form-urlencoded", cookie: csrf.cookies.join("; ") },
    form,
  )
}

/** The README's server: `trustHost: true`, Nodemailer to the local sink, memory adapter. */
async function readmeServer(extra: Partial<AuthConfig> = {}) {
  const adapter = MemoryAdapter()
  const errors: Error[] = []
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    providers: [Nodemailer({ server: sink.url, from: "App <login@app.test>" })],
    logger: { error: (e: Error) => void errors.push(e), warn: () => {}, debug: () => {} },
    ...NO_RATE_LIMIT,
    ...extra,
  }
  const auth = createHandler(config)
  const listening = await listenLocal(createServer((req, res) => void auth(req, res)))
  return { adapter, errors, config, listening, port: Number(new URL(listening.origin).port) }
}

/** A pass-through proxy that forwards the client's headers (X-Forwarded-Host included) to `target` as they came. */
async function passThroughProxy(target: number): Promise<Listening & { port: number }> {
  const server = createServer((req, res) => {
    const upstream = httpRequest(
      {
        host: "127.0.0.1",
        port: target,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: `127.0.0.1:${target}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      },
    )
    upstream.on("error", () => res.destroy())
    req.pipe(upstream)
  })
  const listening = await listenLocal(server)
  return { ...listening, port: Number(new URL(listening.origin).port) }
}

/** Gives a mail that should not come time to arrive, then says whether any did. */
async function mailsAfter(before: number): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 300))
  return sink.messages.length - before
}

function expectConfigurationRefusal(res: Answer): void {
  expect(res.status).toBe(302)
  expect(new URL(res.location ?? "", "http://placeholder").searchParams.get("error")).toBe("Configuration")
}

describe("EM-11: the mailed sign-in link is built only from a configured origin", () => {
  it("EM-11: Host: attacker.example without AUTH_URL or trustedOrigins sends no mail, stores nothing, answers error=Configuration", async () => {
    await withEnv({}, async () => {
      const app = await readmeServer()
      try {
        const before = sink.messages.length
        const res = await requestLinkAs(app.port, { host: "attacker.example" })
        expectConfigurationRefusal(res)
        expect(await mailsAfter(before)).toBe(0)
        expect(app.adapter.verificationTokens.size).toBe(0)
        const logged = app.errors.find((e) => (e as { type?: string }).type === "UntrustedHost")
        expect(logged?.message).toMatch(/AUTH_URL=https:\/\/your\.app\/auth/)
        expect(logged?.message).toMatch(/trustedOrigins/)
      } finally {
        await app.listening.stop()
      }
    })
  })

  it("EM-11: with AUTH_URL set, Host: attacker.example gets a link to AUTH_URL's origin, and that link signs in", async () => {
    await withEnv({ AUTH_URL: "http://app.example/auth" }, async () => {
      const app = await readmeServer()
      try {
        const before = sink.messages.length
        const res = await requestLinkAs(app.port, { host: "attacker.example" })
        expect(res.location).toBe("http://app.example/auth/verify-request?provider=nodemailer&type=email")
        const mail = await sink.waitFor(before + 1)
        expect(mail.raw).not.toContain("attacker.example")
        const link = signInLink(mail)
        expect(link.origin + link.pathname).toBe("http://app.example/auth/callback/nodemailer")
        // The victim clicks (app.example is this server): the link signs in.
        const back = await send(app.port, "GET", link.pathname + link.search, { host: "app.example" })
        expect(back.status).toBe(302)
        expect(back.cookies.some((c) => c.includes("session-token="))).toBe(true)
      } finally {
        await app.listening.stop()
      }
    })
  })

  it("EM-11: a request origin listed in trustedOrigins gets its own link; an unlisted Host on the same server is refused", async () => {
    await withEnv({}, async () => {
      const app = await readmeServer({ trustedOrigins: ["http://tenant-a.example", "http://*.tenants.example"] })
      try {
        for (const host of ["tenant-a.example", "b.tenants.example"]) {
          const before = sink.messages.length
          const res = await requestLinkAs(app.port, { host })
          expect(res.location).toBe(`http://${host}/auth/verify-request?provider=nodemailer&type=email`)
          const link = signInLink(await sink.waitFor(before + 1))
          expect(link.origin).toBe(`http://${host}`)
        }
        expect(app.adapter.verificationTokens.size).toBe(2)
        const before = sink.messages.length
        expectConfigurationRefusal(await requestLinkAs(app.port, { host: "attacker.example" }))
        expectConfigurationRefusal(await requestLinkAs(app.port, { host: "tenant-a.example.attacker.example" }))
        expect(await mailsAfter(before)).toBe(0)
        expect(app.adapter.verificationTokens.size).toBe(2)
      } finally {
        await app.listening.stop()
      }
    })
  })

  it("EM-11: X-Forwarded-Host: attacker.example through a pass-through proxy (trustHost: true) mails no attacker link", async () => {
    await withEnv({}, async () => {
      const app = await readmeServer()
      const proxy = await passThroughProxy(app.port)
      try {
        const before = sink.messages.length
        const res = await requestLinkAs(proxy.port, {
          host: `127.0.0.1:${proxy.port}`,
          "x-forwarded-host": "attacker.example",
          "x-forwarded-proto": "https",
        })
        expectConfigurationRefusal(res)
        expect(await mailsAfter(before)).toBe(0)
        expect(app.adapter.verificationTokens.size).toBe(0)
        expect(sink.messages.slice(before).some((m) => m.raw.includes("attacker.example"))).toBe(false)
      } finally {
        await proxy.stop()
        await app.listening.stop()
      }
    })
  })

  it("EM-11: an e-mail provider with neither AUTH_URL nor trustedOrigins logs email-link-origin-missing once, at config resolution", async () => {
    const warningsOf = (extra: Partial<AuthConfig>) => {
      const warnings: string[] = []
      const config: AuthConfig = {
        secret: SECRET,
        trustHost: true,
        adapter: MemoryAdapter(),
        providers: [Nodemailer({ server: sink.url })],
        logger: { error: () => {}, warn: (code: string) => void warnings.push(code), debug: () => {} },
        ...extra,
      }
      resolveConfig(config)
      resolveConfig(config)
      return warnings.filter((w) => w === "email-link-origin-missing")
    }
    await withEnv({}, async () => {
      expect(warningsOf({})).toEqual(["email-link-origin-missing"])
      expect(warningsOf({ trustedOrigins: ["https://app.example"] })).toEqual([])
    })
    await withEnv({ AUTH_URL: "https://app.example/auth" }, async () => {
      expect(warningsOf({})).toEqual([])
    })
    await withEnv({ AUTH_TRUSTED_ORIGINS: "https://app.example" }, async () => {
      expect(warningsOf({})).toEqual([])
    })
  })
})
