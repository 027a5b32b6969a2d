// RL-01 over real HTTP (createHandler on 127.0.0.1): the per-account limit keys on the provider's declared credential
// fields, so an extra form field (a fresh `username=junk-N` per guess) does not open a new count, guesses from many
// client addresses (separate sockets bound to 127.0.0.x) still stop at `max`, and `authorize` sees declared fields only.
import { type IncomingHttpHeaders, createServer, request as httpRequest } from "node:http"
import { afterEach, describe, expect, it, vi } from "vitest"
import type { AuthConfig } from "../../src/index.js"
import { createHandler } from "../../src/integrations/node.js"
import Credentials from "../../src/providers/credentials.js"
import { SECRET, alice } from "../support/flow-kit.js"
import { type Listening, listenLocal } from "../support/listen.js"
import { spyLogger } from "../support/logger.js"

const CALLBACK = "/auth/callback/credentials"

interface Answer {
  status: number
  headers: IncomingHttpHeaders
  body: string
}

/** One request on its own socket, from `localAddress` (any 127.0.0.x is the loopback interface on Linux). */
function send(
  origin: string,
  path: string,
  init: { method?: string; body?: string; headers?: Record<string, string>; from?: string },
): Promise<Answer> {
  const url = new URL(path, origin)
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: init.method ?? "GET",
        headers: init.headers,
        localAddress: init.from,
        agent: false,
      },
      (res) => {
        let body = ""
        res.setEncoding("utf8")
        res.on("data", (chunk: string) => (body += chunk))
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      },
    )
    req.on("error", reject)
    req.end(init.body)
  })
}

function sessionCookies(answer: Answer): string[] {
  return (answer.headers["set-cookie"] ?? []).filter((c) => c.includes("session-token="))
}

let server: Listening | undefined
afterEach(async () => {
  await server?.stop()
  server = undefined
})

/** Starts createHandler(config) and fetches a CSRF token; `attempt` posts a form to the credentials callback from an address. */
async function start(config: AuthConfig) {
  server = await listenLocal(createServer(createHandler(config)))
  const origin = server.origin
  const csrf = await send(origin, "/auth/csrf", {})
  const cookie = (csrf.headers["set-cookie"] ?? []).map((c) => c.split(";", 1)[0]!).join("; ")
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string }
  const attempt = (fields: [string, string][], from: string) =>
    send(origin, CALLBACK, {
      method: "POST",
      from,
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams([["csrfToken", csrfToken], ...fields]).toString(),
    })
  return { origin, attempt, csrfToken }
}

function baseConfig(provider: AuthConfig["providers"][number], rateLimit: AuthConfig["rateLimit"]): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    logger: spyLogger().logger,
    rateLimit,
    providers: [provider],
  }
}

describe("RL-01 the per-account limit keys on the declared credential fields", () => {
  it("RL-01: guesses for one account with a junk username field stop at max, from many client addresses", async () => {
    const authorize = vi.fn(async (c: Record<string, unknown>) =>
      c.email === "victim@corp.test" && c.password === "right" ? { ...alice } : null,
    )
    const provider = Credentials({
      credentials: { email: { type: "email" }, password: { type: "password" } },
      authorize: authorize as never,
    })
    const { origin, attempt } = await start(baseConfig(provider, { max: 3 }))
    const answers: Answer[] = []
    for (let i = 0; i < 10; i++) {
      // Each guess: a new address (its own socket) and a new junk `username`, the same account (`email`).
      answers.push(
        await attempt(
          [
            ["email", "victim@corp.test"],
            ["password", `guess-${i}`],
            ["username", `junk-${i}`],
          ],
          `127.0.0.${20 + i}`,
        ),
      )
    }
    for (const answer of answers.slice(0, 3))
      expect(answer.headers.location).toBe(`${origin}/auth/signin?error=CredentialsSignin&code=credentials`)
    for (const answer of answers.slice(3)) {
      expect(answer.status).toBe(302)
      expect(answer.headers.location).toBe(`${origin}/auth/signin?error=RateLimited`)
    }
    expect(authorize).toHaveBeenCalledTimes(3)
    // Even the right password, from yet another address and with another junk field, is refused until the window ends.
    const right = await attempt(
      [
        ["username", "junk-x"],
        ["email", "Victim@Corp.test "],
        ["password", "right"],
      ],
      "127.0.0.99",
    )
    expect(right.headers.location).toBe(`${origin}/auth/signin?error=RateLimited`)
    expect(sessionCookies(right)).toEqual([])
    expect(authorize).toHaveBeenCalledTimes(3)
  })

  it("RL-01: undeclared fields never reach authorize, nor the Request a two-parameter authorize gets", async () => {
    const seen: Record<string, unknown>[] = []
    const bodies: unknown[] = []
    // A plain two-parameter function (the Request is only built for an authorize that declares it).
    async function authorize(credentials: Record<string, unknown>, request: Request) {
      seen.push(credentials)
      bodies.push(await request.json())
      return credentials.email === "alice@example.com" && credentials.password === "right" ? { ...alice } : null
    }
    const provider = Credentials({
      credentials: { email: { type: "email" }, password: { type: "password" } },
      authorize: authorize as never,
    })
    const { attempt } = await start(baseConfig(provider, { max: 100 }))
    const extra: [string, string][] = [
      ["username", "junk"],
      ["callbackUrl", "/next"],
      ["role", "admin"],
      ["__proto__", "x"],
      ["constructor", "y"],
    ]
    await attempt([["email", "alice@example.com"], ["password", "wrong"], ...extra], "127.0.0.40")
    const ok = await attempt([...extra, ["email", "alice@example.com"], ["password", "right"]], "127.0.0.41")
    expect(sessionCookies(ok).length).toBeGreaterThan(0)
    // A declared field that is absent stays absent (never an empty string or undefined key).
    await attempt(
      [
        ["password", "wrong"],
        ["username", "alice@example.com"],
      ],
      "127.0.0.42",
    )
    expect(seen).toEqual([
      { email: "alice@example.com", password: "wrong" },
      { email: "alice@example.com", password: "right" },
      { password: "wrong" },
    ])
    expect(bodies).toEqual(seen)
  })

  it("RL-01: with no declared fields, email and username each count, so a junk value in one never frees the other", async () => {
    const authorize = vi.fn(async () => null)
    // As in the Next.js dashboard tutorial: no `credentials`, authorize parses the fields itself.
    const provider = Credentials({ authorize })
    const { origin, attempt } = await start(baseConfig(provider, { max: 2 }))
    const limited = `${origin}/auth/signin?error=RateLimited`
    const a = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        attempt(
          [
            ["email", "victim@corp.test"],
            ["password", "x"],
            ["username", `junk-${i}`],
          ],
          `127.0.0.${50 + i}`,
        ),
      ),
    )
    expect(a.filter((r) => r.headers.location === limited)).toHaveLength(2)
    const b = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        attempt(
          [
            ["username", "boss"],
            ["password", "x"],
            ["email", `junk-${i}@x.test`],
          ],
          `127.0.0.${60 + i}`,
        ),
      ),
    )
    expect(b.filter((r) => r.headers.location === limited)).toHaveLength(2)
    expect(authorize).toHaveBeenCalledTimes(4)
  })

  it("RL-01: the key is the first declared field that is not a password; other fields, declared or not, never open a new count", async () => {
    const authorize = vi.fn(async () => null)
    // Declared out of the usual order: the password first, then the account (`login`), then a one-time code.
    const provider = Credentials({
      credentials: { password: { type: "password" }, login: {}, otp: { type: "text" } },
      authorize,
    })
    const { origin, attempt } = await start(baseConfig(provider, { max: 2 }))
    for (let i = 0; i < 6; i++) {
      await attempt(
        [
          ["login", "alice"],
          ["password", `p${i}`],
          ["otp", `${100000 + i}`],
          ["username", `junk-${i}`],
          ["email", `junk-${i}@x.test`],
        ],
        `127.0.0.${70 + i}`,
      )
    }
    expect(authorize).toHaveBeenCalledTimes(2)
    // Another account is counted apart.
    expect(
      (
        await attempt(
          [
            ["login", "bob"],
            ["password", "p"],
            ["otp", "1"],
          ],
          "127.0.0.80",
        )
      ).headers.location,
    ).toBe(`${origin}/auth/signin?error=CredentialsSignin&code=credentials`)
    expect(authorize).toHaveBeenCalledTimes(3)
  })
})
