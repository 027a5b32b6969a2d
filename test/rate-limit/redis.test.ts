// The Redis rate-limit store on the real Redis at REDIS_URL (node-redis, and the ioredis call form), and two app
// processes (test/support/rate-limit-app.ts) sharing it: one global limit. Without REDIS_URL these tests are skipped.
import { type ChildProcess, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { RedisRateLimitStore } from "../../src/rate-limit/redis.js"
import { CookieJar } from "../support/cookies.js"
import { REDIS_URL, ioredisShaped, redisKit } from "../support/rate-limit-kit.js"

const SKIP = !REDIS_URL
const WHY = SKIP ? " (SKIPPED: REDIS_URL is not set)" : ""
const APP = fileURLToPath(new URL("../support/rate-limit-app.ts", import.meta.url))
const redis = redisKit("rl")
const PREFIX = redis.prefix
const connect = redis.connect

afterAll(() => redis.cleanUp())

describe.each(["node-redis", "ioredis call form"] as const)(`RedisRateLimitStore (%s)${WHY}`, (form) => {
  const make = async (prefix: string) => {
    const client = await connect()
    return { client, store: RedisRateLimitStore(form === "node-redis" ? client : ioredisShaped(client), { prefix }) }
  }

  it.skipIf(SKIP)(
    `counts per key in one window that Redis itself expires (PEXPIRE on the first attempt)${WHY}`,
    async () => {
      const prefix = `${PREFIX}${form === "node-redis" ? "n" : "i"}:`
      const { client, store } = await make(prefix)
      const before = Date.now()
      const first = await store.hit("a", 30_000)
      expect(first.count).toBe(1)
      expect(first.resetAt).toBeGreaterThanOrEqual(before + 29_000)
      expect(first.resetAt).toBeLessThanOrEqual(Date.now() + 30_000)
      expect((await store.hit("a", 30_000)).count).toBe(2)
      expect((await store.hit("b", 30_000)).count).toBe(1)
      const pttl = await client.pTTL(`${prefix}v2:a`)
      expect(pttl).toBeGreaterThan(29_000)
      expect(pttl).toBeLessThanOrEqual(30_000)
      // A later hit does not extend the window (a fixed window, not a sliding one).
      await new Promise((resolve) => setTimeout(resolve, 50))
      await store.hit("a", 30_000)
      expect(await client.pTTL(`${prefix}v2:a`)).toBeLessThanOrEqual(pttl)
    },
  )

  it.skipIf(SKIP)(
    `undo takes one attempt back without touching the expiry, and never creates a key${WHY}`,
    async () => {
      const prefix = `${PREFIX}${form === "node-redis" ? "n" : "i"}u:`
      const { client, store } = await make(prefix)
      const first = await store.hit("a", 30_000)
      await store.hit("a", 30_000)
      await store.undo("a", first)
      expect(await client.hGet(`${prefix}v2:a`, "c")).toBe("1")
      expect(await client.pTTL(`${prefix}v2:a`)).toBeGreaterThan(29_000)
      await store.undo("missing", first)
      expect(await client.exists(`${prefix}v2:missing`)).toBe(0)
      // A hit without the store's window id names no window.
      await store.undo("a", { count: 2, resetAt: first.resetAt })
      expect(await client.hGet(`${prefix}v2:a`, "c")).toBe("1")
    },
  )

  it.skipIf(SKIP)(
    `keys of the plain-counter layout (earlier versions, in a rolling deploy) are left alone${WHY}`,
    async () => {
      const prefix = `${PREFIX}${form === "node-redis" ? "n" : "i"}o:`
      const { client, store } = await make(prefix)
      await client.set(`${prefix}a`, "7", { PX: 30_000 })
      const hit = await store.hit("a", 30_000)
      expect(hit.count).toBe(1)
      await store.undo("a", hit)
      expect(await client.get(`${prefix}a`)).toBe("7")
      expect(await client.hGet(`${prefix}v2:a`, "c")).toBe("0")
    },
  )

  it.skipIf(SKIP)(
    `is atomic: 50 concurrent hits get the counts 1..50, each once; a short window expires${WHY}`,
    async () => {
      const prefix = `${PREFIX}${form === "node-redis" ? "n" : "i"}c:`
      const { store } = await make(prefix)
      const hits = await Promise.all(Array.from({ length: 50 }, () => store.hit("hot", 200)))
      expect(hits.map((h) => h.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1))
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect((await store.hit("hot", 200)).count).toBe(1)
    },
  )

  it.skipIf(SKIP)(
    `still works after Redis forgot its scripts (NOSCRIPT: the script is sent once with EVAL)${WHY}`,
    async () => {
      const prefix = `${PREFIX}${form === "node-redis" ? "n" : "i"}f:`
      const { client, store } = await make(prefix)
      await store.hit("a", 30_000)
      await client.scriptFlush()
      expect((await store.hit("a", 30_000)).count).toBe(2)
      const second = await store.hit("a", 30_000)
      await client.scriptFlush()
      await store.undo("a", second)
      expect(await client.hGet(`${prefix}v2:a`, "c")).toBe("2")
    },
  )
})

describe(`two app processes sharing one Redis${WHY}`, () => {
  const children: ChildProcess[] = []
  afterAll(() => {
    for (const child of children) child.stdin?.end()
  })

  async function startApp(env: Record<string, string>): Promise<string> {
    const child = spawn(process.execPath, ["--import", "tsx", APP], {
      env: { ...process.env, ...env },
      stdio: ["pipe", "pipe", "inherit"],
    })
    children.push(child)
    const port = await new Promise<number>((resolve, reject) => {
      let buf = ""
      const timer = setTimeout(() => reject(new Error("app process did not start within 15 s")), 15_000)
      child.stdout?.on("data", (chunk: Buffer) => {
        buf += chunk.toString("utf8")
        const line = buf.split("\n")[0]
        if (buf.includes("\n") && line) {
          clearTimeout(timer)
          resolve((JSON.parse(line) as { port: number }).port)
        }
      })
      child.once("exit", (code) => reject(new Error(`app process exited with ${code}`)))
    })
    return `http://127.0.0.1:${port}`
  }

  it.skipIf(SKIP)(
    `enforce one global limit: 3 wrong passwords spread over both, then both refuse and authorize is not called${WHY}`,
    async () => {
      const env = {
        REDIS_URL: REDIS_URL ?? "",
        RL_SECRET: `rl-secret-${randomBytes(16).toString("hex")}`,
        RL_MAX: "3",
        RL_PREFIX: `${PREFIX}apps:`,
      }
      const [a, b] = await Promise.all([startApp(env), startApp(env)])
      const attempt = async (origin: string, password: string) => {
        const jar = new CookieJar()
        const csrf = await fetch(`${origin}/auth/csrf`)
        jar.store(csrf)
        const { csrfToken } = (await csrf.json()) as { csrfToken: string }
        return fetch(`${origin}/auth/callback/credentials`, {
          method: "POST",
          redirect: "manual",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            cookie: jar.header(),
            "x-auth-return-redirect": "1",
          },
          body: new URLSearchParams({ csrfToken, username: "alice", password }).toString(),
        })
      }
      const calls = async (origin: string) =>
        ((await (await fetch(`${origin}/authorize-calls`)).json()) as { calls: number }).calls

      for (const origin of [a!, b!, a!]) expect((await attempt(origin, "wrong")).status).toBe(200) // {url} with CredentialsSignin
      for (const origin of [b!, a!]) {
        const refused = await attempt(origin, "password")
        expect(refused.status).toBe(429)
        expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
        expect(((await refused.json()) as { error: string }).error).toBe("RateLimited")
      }
      // Each process alone saw at most 2 attempts: only a shared count can have stopped the third and fourth.
      expect((await calls(a!)) + (await calls(b!))).toBe(3)
    },
    40_000,
  )
})
