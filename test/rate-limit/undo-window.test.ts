// RL-03: an undo takes back an attempt only in the window it was counted in, and never below zero, on every
// store (memory; Redis at REDIS_URL, both client call forms), and end to end through Auth() with a slow sign-in.
import { randomBytes } from "node:crypto"
import { afterAll, describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import type { AuthConfig } from "../../src/index.js"
import Credentials from "../../src/providers/credentials.js"
import { MemoryRateLimitStore, type RateLimitStore } from "../../src/rate-limit/index.js"
import { RedisRateLimitStore } from "../../src/rate-limit/redis.js"
import { CookieJar, ORIGIN, SECRET, alice, fetchCsrf, postForm } from "../support/flow-kit.js"
import { spyLogger } from "../support/logger.js"
import { REDIS_URL, ioredisShaped, redisKit } from "../support/rate-limit-kit.js"

const SKIP_REDIS = !REDIS_URL
const WHY = SKIP_REDIS ? " (SKIPPED: REDIS_URL is not set)" : ""
const redis = redisKit("rl3")
const PREFIX = redis.prefix
const connect = redis.connect

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
const freshKey = (label: string): string => `${label}:${randomBytes(6).toString("hex")}`

afterAll(() => redis.cleanUp())

interface StoreUnderTest {
  store: RateLimitStore
  /** The count the store holds for a key, read behind the store's back (null: no such key); absent for the memory store. */
  stored?: (key: string) => Promise<number | null>
  /** Whether the store holds anything under a key, read behind its back; absent for the memory store (its `size` is checked). */
  exists?: (key: string) => Promise<boolean>
}

/** The undo rule, held against one store: the same checks for every store. */
function undoRule(name: string, make: () => Promise<StoreUnderTest>, skip: boolean, why = ""): void {
  describe(`undo rule: ${name}${why}`, () => {
    it.skipIf(skip)(
      `RL-03: the undo of a window-1 hit that arrives in window 2 leaves window 2's count alone${why}`,
      async () => {
        const { store, stored } = await make()
        const key = freshKey("late")
        const first = await store.hit(key, 300)
        expect(first.count).toBe(1)
        await sleep(450) // window 1 is over
        expect((await store.hit(key, 300)).count).toBe(1)
        await store.undo(key, first)
        if (stored) expect(await stored(key)).toBe(1)
        expect((await store.hit(key, 300)).count).toBe(2)
      },
    )

    it.skipIf(skip)(`RL-03: repeated undos of one attempt never take the count below zero${why}`, async () => {
      const { store, stored } = await make()
      const key = freshKey("floor")
      const first = await store.hit(key, 30_000)
      const second = await store.hit(key, 30_000)
      await store.undo(key, first)
      if (stored) expect(await stored(key)).toBe(1)
      for (let i = 0; i < 4; i++) await store.undo(key, second)
      if (stored) expect(await stored(key)).toBe(0)
      await Promise.all(Array.from({ length: 5 }, () => store.undo(key, first)))
      if (stored) expect(await stored(key)).toBe(0)
      // The window is still the same one: the next attempt is the first that counts.
      expect((await store.hit(key, 30_000)).count).toBe(1)
      expect((await store.hit(key, 30_000)).count).toBe(2)
    })

    it.skipIf(skip)(
      `RL-03: an undo after its window expired creates nothing, and the next window starts from 1${why}`,
      async () => {
        const { store, exists } = await make()
        const key = freshKey("expired")
        const hit = await store.hit(key, 100)
        await sleep(250)
        const size = "size" in store ? store.size : undefined
        const never = freshKey("never-seen")
        await store.undo(key, hit)
        await store.undo(key, hit)
        await store.undo(never, hit)
        if ("size" in store) expect(store.size).toBe(size)
        if (exists) expect([await exists(key), await exists(never)]).toEqual([false, false])
        expect((await store.hit(key, 30_000)).count).toBe(1)
      },
    )

    it.skipIf(skip)(
      `an undo in its own window takes one attempt back; one in a later window of the same length does not${why}`,
      async () => {
        const { store } = await make()
        const key = freshKey("own")
        const a = await store.hit(key, 300)
        await store.hit(key, 300)
        await store.undo(key, a)
        expect((await store.hit(key, 300)).count).toBe(2)
        await sleep(450)
        const b = await store.hit(key, 300)
        await store.hit(key, 300)
        await store.undo(key, a) // window 1's attempt again: nothing in window 2 moves
        await store.undo(key, b)
        expect((await store.hit(key, 300)).count).toBe(2)
      },
    )
  })
}

undoRule("memory", async () => ({ store: MemoryRateLimitStore() }), false)

for (const form of ["node-redis", "ioredis call form"] as const) {
  undoRule(
    `redis (${form})`,
    async () => {
      const client = await connect()
      const prefix = `${PREFIX}${form === "node-redis" ? "n" : "i"}:`
      const store = RedisRateLimitStore(form === "node-redis" ? client : ioredisShaped(client), { prefix })
      const matches = async (key: string) => client.keys(`${prefix}*${key}`)
      return {
        store,
        stored: async (key) => {
          const [name] = await matches(key)
          if (name === undefined) return null
          const raw = (await client.type(name)) === "hash" ? await client.hGet(name, "c") : await client.get(name)
          return raw === null || raw === undefined ? null : Number(raw)
        },
        exists: async (key) => (await matches(key)).length > 0,
      }
    },
    SKIP_REDIS,
    WHY,
  )
}

describe(`RL-03 end to end: a slow successful sign-in across the window boundary`, () => {
  const stores: Array<[string, () => Promise<RateLimitStore>, boolean]> = [
    ["memory store", async () => MemoryRateLimitStore(), false],
    [`Redis store${WHY}`, async () => RedisRateLimitStore(await connect(), { prefix: `${PREFIX}e2e:` }), SKIP_REDIS],
  ]
  for (const [name, makeStore, skip] of stores) {
    it.skipIf(skip)(
      `RL-03: a success counted in window 1 and taken back in window 2 does not buy window 2 an extra guess (${name})`,
      async () => {
        const max = 2
        let release: () => void = () => {}
        const released = new Promise<void>((resolve) => (release = resolve))
        let entered: () => void = () => {}
        const slowEntered = new Promise<void>((resolve) => (entered = resolve))
        let calls = 0
        const authorize = async (c: Record<string, unknown>) => {
          calls++
          if (c.password === "slow-but-right") {
            entered()
            await released
            return { ...alice }
          }
          return null
        }
        const config: AuthConfig = {
          secret: SECRET,
          trustHost: true,
          basePath: "/auth",
          logger: spyLogger().logger,
          rateLimit: { window: 1, max, store: await makeStore() },
          providers: [
            Credentials({
              credentials: { username: {}, password: { type: "password" } },
              authorize: authorize as never,
            }),
          ],
        }
        const jar = new CookieJar()
        const csrfToken = await fetchCsrf(config, jar)
        const attempt = (password: string) =>
          Auth(
            postForm(
              "/auth/callback/credentials",
              { csrfToken, username: "alice", password },
              { cookie: jar.header() },
            ),
            config,
          )

        // Window 1: the slow sign-in is counted, then waits in authorize past the window's end.
        const slow = attempt("slow-but-right")
        await Promise.race([
          slowEntered,
          slow.then((res) =>
            expect.fail(`the slow sign-in answered ${res.headers.get("location")} before authorize ran`),
          ),
        ])
        await sleep(1_150)
        // Window 2: guesses go on while the slow sign-in is still running.
        for (let i = 0; i < max; i++) {
          expect((await attempt("wrong")).headers.get("location")).toBe(
            `${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials`,
          )
        }
        release()
        expect((await slow).headers.get("location")).toBe(ORIGIN) // the success takes back its own (window 1) attempt
        // Attempt max+1 of window 2 is refused: the late undo did not give window 2 its attempt back.
        const over = await attempt("wrong")
        expect(over.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=RateLimited`)
        expect(calls).toBe(1 + max)
      },
    )
  }
})
