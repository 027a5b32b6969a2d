// HN-01 over real HTTP: a form field Gatehouse acts on, sent twice, is refused with 400 before anything runs. Through
// the Hono front door (a middleware allow-list reading `parseBody`, which keeps the last value) and the node one.
import { type Server, createServer } from "node:http"
import { createAdaptorServer } from "@hono/node-server"
import { Hono } from "hono"
import { afterEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import type { AuthConfig as CoreAuthConfig } from "../../src/index.js"
import { type AuthConfig, authHandler, initAuthConfig } from "../../src/integrations/hono.js"
import { createHandler } from "../../src/integrations/node.js"
import Credentials from "../../src/providers/credentials.js"
import type { RateLimitStore } from "../../src/rate-limit/index.js"
import { SECRET, alice } from "../support/flow-kit.js"
import { CookieJar } from "../support/cookies.js"
import { type Listening, listenLocal } from "../support/listen.js"
import { spyLogger } from "../support/logger.js"

const running: Listening[] = []
const restoreEnv: Array<() => void> = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()))
  for (const restore of restoreEnv.splice(0)) restore()
})

/** Sets AUTH_URL for this test (mailed links come from a configured origin), restored after it. */
function setAuthUrl(value: string): void {
  const before = process.env.AUTH_URL
  process.env.AUTH_URL = value
  restoreEnv.push(() => {
    if (before === undefined) delete process.env.AUTH_URL
    else process.env.AUTH_URL = before
  })
}

/** A store that counts every hit, so a refused request can be shown to have used up nothing. */
function countingStore(): RateLimitStore & { hits: number } {
  const counts = new Map<string, number>()
  const store = {
    hits: 0,
    async hit(key: string, windowMs: number) {
      store.hits++
      counts.set(key, (counts.get(key) ?? 0) + 1)
      return { count: counts.get(key)!, resetAt: Date.now() + windowMs }
    },
    async undo() {},
  }
  return store
}

async function csrf(origin: string, basePath: string, jar: CookieJar): Promise<string> {
  const res = await fetch(`${origin}${basePath}/csrf`)
  jar.store(res)
  return ((await res.json()) as { csrfToken: string }).csrfToken
}

function postRaw(origin: string, path: string, body: string, jar: CookieJar): Promise<Response> {
  return fetch(`${origin}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.header() },
    body,
  })
}

/** 400 InvalidRequest as JSON, with nothing of the request in it, and no cookie set. */
async function expectRefused(res: Response, ...secrets: string[]): Promise<void> {
  expect(res.status).toBe(400)
  expect(res.headers.get("content-type") ?? "").toMatch(/^application\/json/)
  const text = await res.text()
  expect(JSON.parse(text)).toMatchObject({ error: "InvalidRequest" })
  for (const secret of secrets) expect(text).not.toContain(secret)
  expect(res.headers.getSetCookie()).toEqual([])
}

describe("HN-01 a repeated form field through the Hono front door", () => {
  it("HN-01: email=attacker&email=boss passes a parseBody allow-list but is refused with 400: no mail, no token row, no rate-limit hit", async () => {
    const sendVerificationRequest = vi.fn(async (_params: { identifier: string }) => {})
    const adapter = MemoryAdapter()
    const store = countingStore()
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      basePath: "/api/auth",
      adapter,
      logger: spyLogger().logger,
      rateLimit: { store },
      providers: [{ id: "email", type: "email", name: "Email", from: "auth@corp.test", sendVerificationRequest }],
    }
    const app = new Hono()
    app.use(
      "*",
      initAuthConfig(() => config),
    )
    // The app's allow-list: only corp.test addresses may ask for a sign-in link.
    app.use("/api/auth/signin/*", async (c, next) => {
      const body = await c.req.parseBody()
      if (typeof body.email !== "string" || !body.email.endsWith("@corp.test"))
        return c.json({ error: "not allowed" }, 403)
      await next()
    })
    app.use("/api/auth/*", authHandler())
    const listening = await listenLocal(createAdaptorServer({ fetch: app.fetch }) as Server)
    running.push(listening)
    const origin = listening.origin
    setAuthUrl(`${origin}/api/auth`)
    const jar = new CookieJar()
    const token = await csrf(origin, "/api/auth", jar)
    const signin = (body: string) => postRaw(origin, "/api/auth/signin/email", `csrfToken=${token}&${body}`, jar)

    // The allow-list works for single values.
    expect((await signin("email=attacker%40evil.test")).status).toBe(403)
    const allowed = await signin("email=boss%40corp.test")
    expect(allowed.status).toBe(302)
    expect(allowed.headers.get("location")).toContain("/api/auth/verify-request")
    expect(sendVerificationRequest).toHaveBeenCalledTimes(1)
    expect(adapter.verificationTokens.size).toBe(1)
    const hitsBefore = store.hits

    // The attack: Hono reads the last value (allowed), Gatehouse must not act on either.
    await expectRefused(
      await signin("email=attacker%40evil.test&email=boss%40corp.test"),
      "attacker",
      "evil",
      "boss",
      "corp",
    )
    // A repeated csrfToken or callbackUrl next to a single e-mail is refused too.
    await expectRefused(await signin(`email=boss%40corp.test&csrfToken=${token}`), token)
    await expectRefused(
      await signin("email=boss%40corp.test&callbackUrl=%2Fa&callbackUrl=https%3A%2F%2Fevil.test%2F"),
      "evil",
    )
    expect(sendVerificationRequest).toHaveBeenCalledTimes(1)
    expect(sendVerificationRequest.mock.calls.map((call) => call[0].identifier)).toEqual(["boss@corp.test"])
    expect(adapter.verificationTokens.size).toBe(1)
    expect(store.hits).toBe(hitsBefore)
  })
})

describe("HN-01 a repeated form field through the node front door", () => {
  async function start(extra: Partial<CoreAuthConfig> = {}) {
    const authorize = vi.fn(async (c: Record<string, unknown>) =>
      c.email === "alice@example.com" && c.password === "right" ? { ...alice } : null,
    )
    const store = countingStore()
    const config: CoreAuthConfig = {
      secret: SECRET,
      trustHost: true,
      basePath: "/auth",
      logger: spyLogger().logger,
      rateLimit: { store },
      providers: [
        Credentials({
          credentials: { email: { type: "email" }, password: { type: "password" }, otp: {} },
          authorize: authorize as never,
        }),
      ],
      ...extra,
    }
    const listening = await listenLocal(createServer(createHandler(config)))
    running.push(listening)
    const jar = new CookieJar()
    const token = await csrf(listening.origin, "/auth", jar)
    const callback = (body: string) =>
      postRaw(listening.origin, "/auth/callback/credentials", `csrfToken=${token}&${body}`, jar)
    return { origin: listening.origin, authorize, store, callback, token, jar }
  }

  it("HN-01: a credentials callback with a repeated password (or email, csrfToken, callbackUrl, username, a declared field) is 400 and authorize is never called", async () => {
    const { authorize, store, callback, token } = await start()
    const repeated = [
      "email=alice%40example.com&password=wrong&password=right",
      "email=alice%40example.com&email=bob%40example.com&password=right",
      `email=alice%40example.com&password=right&csrfToken=${token}`,
      "email=alice%40example.com&password=right&callbackUrl=%2Fa&callbackUrl=%2Fb",
      "email=alice%40example.com&password=right&username=a&username=b",
      "email=alice%40example.com&password=right&otp=1&otp=2",
    ]
    for (const body of repeated) await expectRefused(await callback(body), "alice", "right", "wrong")
    expect(authorize).not.toHaveBeenCalled()
    expect(store.hits).toBe(0)
  })

  it("other repeated fields (a checkbox group in a custom form) stay allowed", async () => {
    const { origin, authorize, callback } = await start()
    const res = await callback("email=alice%40example.com&password=right&topics=a&topics=b")
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(origin)
    expect(res.headers.getSetCookie().some((c) => c.startsWith("authjs.session-token="))).toBe(true)
    expect(authorize).toHaveBeenCalledTimes(1)
  })

  it("HN-01: a repeated csrfToken on sign-out is refused too: the session stays", async () => {
    const { origin, callback, jar, token } = await start()
    const signedIn = await callback("email=alice%40example.com&password=right")
    jar.store(signedIn)
    const res = await postRaw(origin, "/auth/signout", `csrfToken=${token}&csrfToken=${token}`, jar)
    await expectRefused(res, token)
    const session = await fetch(`${origin}/auth/session`, { headers: { cookie: jar.header() } })
    expect(await session.json()).toMatchObject({ user: { email: "alice@example.com" } })
  })
})
