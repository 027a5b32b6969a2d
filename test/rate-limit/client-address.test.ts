// RL-02 over real HTTP: which client address the sign-in rate limit counts. Proxy headers are trusted only through
// `rateLimit.clientAddress` or Express's `trust proxy`, never because of AUTH_URL or trustHost; the node and Express
// front doors; a header read from its right end; bad option values are configuration errors.
import { type IncomingMessage, type ServerResponse, createServer } from "node:http"
import { afterEach, describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import type { AuthConfig } from "../../src/index.js"
import { ExpressAuth } from "../../src/integrations/express.js"
import { createHandler } from "../../src/integrations/node.js"
import { CookieJar, fetchCsrf, postForm } from "../support/flow-kit.js"
import { type Listening, listenLocal } from "../support/listen.js"
import { EXPRESS_VERSIONS, serve } from "../integrations/express-kit.js"
import { credentialsConfig } from "../support/rate-limit-kit.js"

const CALLBACK = "/auth/callback/credentials"

/**
 * Tests can only connect from 127.0.0.1, a loopback peer. This stands in for an attacker who connects straight to
 * the app from a public address (no proxy in front): the socket reports that address, everything else is real HTTP.
 */
function fromPublicPeer(address: string, socket: IncomingMessage["socket"]): void {
  Object.defineProperty(socket, "remoteAddress", { value: address, configurable: true })
}

/** A fetch client with a CSRF token and cookie jar that posts credentials attempts with extra headers. */
async function attempter(origin: string) {
  const jar = new CookieJar()
  const csrfRes = await fetch(`${origin}/auth/csrf`)
  jar.store(csrfRes)
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string }
  return (form: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${origin}${CALLBACK}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.header(), ...headers },
      body: new URLSearchParams({ csrfToken, ...form }).toString(),
    })
}

const rateLimited = (origin: string) => `${origin}/auth/signin?error=RateLimited`
const wrongPassword = (origin: string) => `${origin}/auth/signin?error=CredentialsSignin&code=credentials`

/** 36 wrong passwords for 36 usernames, each with a new X-Forwarded-For; the answers' Location headers. */
async function rotateForwardedFor(
  attempt: Awaited<ReturnType<typeof attempter>>,
  extra: (i: number) => Record<string, string> = () => ({}),
) {
  const locations: (string | null)[] = []
  for (let i = 0; i < 36; i++) {
    const res = await attempt(
      { username: `user${i}`, password: "wrong" },
      { "x-forwarded-for": `198.51.${100 + (i >> 8)}.${i & 255}`, ...extra(i) },
    )
    locations.push(res.headers.get("location"))
  }
  return locations
}

let server: Listening | undefined
afterEach(async () => {
  await server?.stop()
  server = undefined
  vi.unstubAllEnvs()
})

describe("RL-02 node front door (createHandler)", () => {
  async function start(config: AuthConfig, peer?: string) {
    const handler = createHandler(config)
    server = await listenLocal(
      createServer((req: IncomingMessage, res: ServerResponse) => {
        if (peer) fromPublicPeer(peer, req.socket)
        void handler(req, res)
      }),
    )
    return server.origin
  }

  it("RL-02: with AUTH_URL set and trustHost unset, 36 failed attempts each with a new X-Forwarded-For are refused after maxPerAddress (30)", async () => {
    const { config, authorize } = credentialsConfig()
    const origin = await start(config, "203.0.113.50")
    vi.stubEnv("AUTH_URL", `${origin}/auth`)
    vi.stubEnv("AUTH_TRUST_HOST", undefined)
    const locations = await rotateForwardedFor(await attempter(origin))
    expect(locations.slice(0, 30)).toEqual(Array(30).fill(wrongPassword(origin)))
    expect(locations.slice(30)).toEqual(Array(6).fill(rateLimited(origin)))
    expect(authorize).toHaveBeenCalledTimes(30)
  })

  it("RL-02: the same with trustHost: true set explicitly: X-Forwarded-For never picks the bucket", async () => {
    const { config, authorize } = credentialsConfig({ trustHost: true })
    const origin = await start(config, "203.0.113.51")
    const locations = await rotateForwardedFor(await attempter(origin))
    expect(locations.slice(30)).toEqual(Array(6).fill(rateLimited(origin)))
    expect(authorize).toHaveBeenCalledTimes(30)
  })

  it("RL-02: a loopback peer that sends X-Forwarded-For is an undeclared proxy: its header picks no bucket, the identifier limit holds, one rate-limit-proxy-untrusted warning", async () => {
    const { config, authorize, log } = credentialsConfig({ rateLimit: { max: 3 } })
    const origin = await start(config)
    vi.stubEnv("AUTH_URL", `${origin}/auth`)
    const attempt = await attempter(origin)
    for (let i = 0; i < 3; i++) {
      const res = await attempt({ username: "alice", password: "wrong" }, { "x-forwarded-for": `198.51.100.${i + 1}` })
      expect(res.headers.get("location")).toBe(wrongPassword(origin))
    }
    const fourth = await attempt({ username: "alice", password: "password" }, { "x-forwarded-for": "198.51.100.99" })
    expect(fourth.headers.get("location")).toBe(rateLimited(origin))
    expect(authorize).toHaveBeenCalledTimes(3)
    expect(log.warnings).toEqual([["rate-limit-proxy-untrusted"]])
  })

  it('RL-02: clientAddress: "socket" counts the peer itself, loopback or not: a rotating X-Forwarded-For is refused after maxPerAddress', async () => {
    const { config, authorize, log } = credentialsConfig({ trustHost: true, rateLimit: { clientAddress: "socket" } })
    const origin = await start(config)
    const locations = await rotateForwardedFor(await attempter(origin))
    expect(locations.slice(30)).toEqual(Array(6).fill(rateLimited(origin)))
    expect(authorize).toHaveBeenCalledTimes(30)
    expect(log.warnings).toEqual([])
  })

  it('RL-02: { header: "x-forwarded-for", proxies: 1 }: the right-most entry is the bucket; values a client prepends do not escape', async () => {
    const { config, authorize } = credentialsConfig({
      trustHost: true,
      rateLimit: { maxPerAddress: 3, max: 100, clientAddress: { header: "x-forwarded-for", proxies: 1 } },
    })
    const origin = await start(config)
    const attempt = await attempter(origin)
    // The proxy appends the address it saw (198.51.100.7) to whatever the client sent.
    const spoofed = (i: number) => ({ "x-forwarded-for": `203.0.113.${i}, 10.9.8.${i}, 198.51.100.7` })
    for (let i = 0; i < 3; i++) await attempt({ username: `guess${i}`, password: "wrong" }, spoofed(i))
    expect((await attempt({ username: "guess3", password: "wrong" }, spoofed(3))).headers.get("location")).toBe(
      rateLimited(origin),
    )
    expect(authorize).toHaveBeenCalledTimes(3)
    // Another client, also with a forged left part: its own bucket.
    const user = await attempt(
      { username: "bob", password: "password" },
      { "x-forwarded-for": "198.51.100.7, 203.0.113.20" },
    )
    expect(user.headers.get("location")).toBe(origin)
    expect(user.headers.getSetCookie().some((c) => c.startsWith("authjs.session-token="))).toBe(true)
  })

  it('RL-02: { header: "x-forwarded-for", proxies: 2 }: the entry the outer proxy wrote, two from the right', async () => {
    const { config, authorize } = credentialsConfig({
      trustHost: true,
      rateLimit: { maxPerAddress: 2, max: 100, clientAddress: { header: "X-Forwarded-For", proxies: 2 } },
    })
    const origin = await start(config)
    const attempt = await attempter(origin)
    const via = (spoof: string) => ({ "x-forwarded-for": `${spoof}, 198.51.100.8, 10.0.0.5` })
    await attempt({ username: "g0", password: "wrong" }, via("203.0.113.1"))
    await attempt({ username: "g1", password: "wrong" }, via("203.0.113.2"))
    expect((await attempt({ username: "g2", password: "wrong" }, via("203.0.113.3"))).headers.get("location")).toBe(
      rateLimited(origin),
    )
    expect(authorize).toHaveBeenCalledTimes(2)
  })

  it('RL-02: { header: "x-real-ip" }: the one address the proxy sets is the bucket; X-Forwarded-For is ignored', async () => {
    const { config, authorize } = credentialsConfig({
      trustHost: true,
      rateLimit: { maxPerAddress: 30, max: 100, clientAddress: { header: "x-real-ip" } },
    })
    const origin = await start(config)
    const attacker = (i: number) => ({ "x-real-ip": "198.51.100.9", "x-forwarded-for": `203.0.113.${i}` })
    const attempt = await attempter(origin)
    const locations = await rotateForwardedFor(attempt, attacker)
    expect(locations.slice(30)).toEqual(Array(6).fill(rateLimited(origin)))
    expect(authorize).toHaveBeenCalledTimes(30)
    const user = await attempt({ username: "bob", password: "password" }, { "x-real-ip": "198.51.100.10" })
    expect(user.headers.get("location")).toBe(origin)
  })
})

describe.each(EXPRESS_VERSIONS)("RL-02 Express front door (%s)", (_name, express) => {
  let stop: (() => Promise<void>) | undefined
  afterEach(async () => {
    await stop?.()
    stop = undefined
  })

  async function start(config: AuthConfig, setup: (app: ReturnType<typeof express>) => void) {
    const app = express()
    setup(app)
    app.use("/auth", ExpressAuth(config))
    const served = await serve(app)
    stop = served.stop
    return served.origin
  }

  it("RL-02: without trust proxy, X-Forwarded-For is ignored: a client rotating it is refused after maxPerAddress (30)", async () => {
    const { config, authorize } = credentialsConfig()
    const origin = await start(config, (app) =>
      app.use((req, _res, next) => {
        fromPublicPeer("203.0.113.60", req.socket)
        next()
      }),
    )
    const locations = await rotateForwardedFor(await attempter(origin))
    expect(locations.slice(0, 30)).toEqual(Array(30).fill(wrongPassword(origin)))
    expect(locations.slice(30)).toEqual(Array(6).fill(rateLimited(origin)))
    expect(authorize).toHaveBeenCalledTimes(30)
  })

  for (const trust of [1, "loopback"] as const) {
    it(`RL-02: with app.set("trust proxy", ${JSON.stringify(trust)}), req.ip picks the bucket: a spoofed left-most X-Forwarded-For value does not`, async () => {
      const { config, authorize, log } = credentialsConfig({ rateLimit: { maxPerAddress: 3, max: 100 } })
      const origin = await start(config, (app) => app.set("trust proxy", trust))
      const attempt = await attempter(origin)
      const spoofed = (i: number) => ({ "x-forwarded-for": `203.0.113.${i}, 198.51.100.7` })
      for (let i = 0; i < 3; i++) {
        expect((await attempt({ username: `guess${i}`, password: "wrong" }, spoofed(i))).headers.get("location")).toBe(
          wrongPassword(origin),
        )
      }
      expect((await attempt({ username: "guess3", password: "wrong" }, spoofed(3))).headers.get("location")).toBe(
        rateLimited(origin),
      )
      expect(authorize).toHaveBeenCalledTimes(3)
      const user = await attempt(
        { username: "bob", password: "password" },
        { "x-forwarded-for": "198.51.100.7, 203.0.113.20" },
      )
      expect(user.headers.get("location")).toBe(origin)
      expect(log.warnings).toEqual([])
    })
  }

  it("RL-02: rateLimit.clientAddress given explicitly wins over trust proxy", async () => {
    const { config, authorize } = credentialsConfig({
      rateLimit: { maxPerAddress: 2, max: 100, clientAddress: { header: "x-real-ip" } },
    })
    const origin = await start(config, (app) => app.set("trust proxy", true))
    const attempt = await attempter(origin)
    // X-Forwarded-For (what req.ip follows) changes every time; X-Real-IP does not.
    for (let i = 0; i < 2; i++)
      await attempt(
        { username: `g${i}`, password: "wrong" },
        { "x-real-ip": "198.51.100.11", "x-forwarded-for": `203.0.113.${i}` },
      )
    const third = await attempt(
      { username: "g2", password: "wrong" },
      { "x-real-ip": "198.51.100.11", "x-forwarded-for": "203.0.113.99" },
    )
    expect(third.headers.get("location")).toBe(rateLimited(origin))
    expect(authorize).toHaveBeenCalledTimes(2)
  })
})

describe("RL-02 option checks", () => {
  const bad: [unknown, RegExp][] = [
    ["x-forwarded-for", /rateLimit\.clientAddress`/],
    [true, /rateLimit\.clientAddress`/],
    [{ header: "" }, /rateLimit\.clientAddress\.header/],
    [{ header: "x forwarded for" }, /rateLimit\.clientAddress\.header/],
    [{ header: 42 }, /rateLimit\.clientAddress\.header/],
    [{ header: "x-forwarded-for", proxies: 0 }, /rateLimit\.clientAddress\.proxies/],
    [{ header: "x-forwarded-for", proxies: 1.5 }, /rateLimit\.clientAddress\.proxies/],
    [{ header: "x-forwarded-for", proxy: 1 }, /rateLimit\.clientAddress` has unknown field/],
  ]
  it.each(bad)(
    "RL-02: clientAddress %j is a configuration error naming the field; authorize never runs",
    async (value, message) => {
      const { config, authorize, log } = credentialsConfig({
        trustHost: true,
        rateLimit: { clientAddress: value as never },
      })
      const jar = new CookieJar()
      const csrfToken = await fetchCsrf(config, jar)
      const res = await Auth(
        postForm(CALLBACK, { csrfToken, username: "alice", password: "password" }, { cookie: jar.header() }),
        config,
      )
      expect(res.headers.get("location")).toMatch(/\/auth\/error\?error=Configuration$/)
      expect(res.headers.getSetCookie().some((c) => c.includes("session-token"))).toBe(false)
      expect(authorize).not.toHaveBeenCalled()
      expect(log.text()).toMatch(message)
    },
  )
})
