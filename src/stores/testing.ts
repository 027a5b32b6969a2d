// `gatehouse/stores/testing`: the SharedStore conformance suite for vitest; every built-in store runs it, and so can yours.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { SharedStore } from "./index.js"
import { storeKey } from "./keys.js"

/** Options of {@link runStoreConformanceSuite}. */
export interface StoreConformanceOptions {
  /** Shown in the describe title, e.g. "redis (node-redis)". */
  name: string
  /** Creates the store under test, once, before the first check; it may hold other keys. */
  store: () => SharedStore | Promise<SharedStore>
  /** Runs once after the last check: close the client, drop the schema. */
  cleanup?: () => void | Promise<void>
  /** Callers racing to claim one key (default 20). */
  concurrency?: number
  /**
   * A second store object on the same backend (its own client or pool), made once after `store`. The notification
   * checks publish on one and subscribe on the other, as two app processes do. Without it both ends are the store
   * under test.
   */
  otherStore?: () => SharedStore | Promise<SharedStore>
}

interface CheckContext {
  concurrency: number
  /** The store messages are published from; subscribers are on the store under test. */
  other: SharedStore
  /** Marks the check skipped (the store has no publish/subscribe). */
  skip: (reason: string) => void
}

interface Check {
  title: string
  run: (store: SharedStore, context: CheckContext) => Promise<void>
}

/** How long a notification may take to arrive before a check fails. */
const DELIVERY_TIMEOUT_MS = 5_000

/** The messages one subscription got, and a wait for the next. */
interface Inbox {
  messages: string[]
  /** Resolves once `count` messages in all have arrived; fails the check after DELIVERY_TIMEOUT_MS. */
  received(count: number): Promise<void>
  end: () => Promise<void>
}

async function subscribeInbox(store: SharedStore, channel: string): Promise<Inbox> {
  const messages: string[] = []
  let wake = () => {}
  const end = await (store.subscribe as NonNullable<SharedStore["subscribe"]>)(channel, (message) => {
    messages.push(message)
    wake()
  })
  expect(typeof end).toBe("function")
  return {
    messages,
    end,
    received: async (count) => {
      const deadline = Date.now() + DELIVERY_TIMEOUT_MS
      while (messages.length < count) {
        const left = deadline - Date.now()
        if (left <= 0) {
          expect.fail(
            `${count} message(s) expected on ${channel} within ${DELIVERY_TIMEOUT_MS} ms, got ${messages.length}`,
          )
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left)
          wake = () => {
            clearTimeout(timer)
            resolve()
          }
        })
      }
    },
  }
}

/** Skips a notification check for a store without them; a store with one of the two methods fails it. */
function notificationsOf(
  store: SharedStore,
  context: CheckContext,
): SharedStore & Required<Pick<SharedStore, "publish" | "subscribe">> {
  if (typeof store.publish !== typeof store.subscribe)
    expect.fail("A store has both publish and subscribe, or neither.")
  if (typeof store.publish !== "function") context.skip("the store has no publish/subscribe (they are optional)")
  const { other } = context
  if (typeof other.publish !== "function" || typeof other.subscribe !== "function") {
    expect.fail("otherStore made a store without publish/subscribe, unlike the store under test.")
  }
  return other as SharedStore & Required<Pick<SharedStore, "publish" | "subscribe">>
}
/** A channel no other check or run uses. */
const freshChannel = (label: string): string => storeKey("conformance", label, crypto.randomUUID().slice(0, 18))

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
/** A key no other check or run uses, shaped like the keys Gatehouse writes. */
const freshKey = (label: string): string => storeKey("conformance", label, crypto.randomUUID())

const checks: Check[] = [
  {
    title: "get of a key never set is null",
    run: async (store) => {
      expect(await store.get(freshKey("absent"))).toBeNull()
    },
  },
  {
    title: "set then get returns the value; a second set replaces it",
    run: async (store) => {
      const key = freshKey("set")
      await store.set(key, "first", 60)
      expect(await store.get(key)).toBe("first")
      await store.set(key, "second", 60)
      expect(await store.get(key)).toBe("second")
    },
  },
  {
    title: "values round-trip unchanged: empty, unicode, quotes and 16 KiB",
    run: async (store) => {
      const values = ["", "ünïcødé ✓ 🔑", `'"\\;-- %_?`, "x".repeat(16 * 1024), "eyJhbGciOiJkaXIifQ..aXY.Y3Q.dGFn"]
      const keys = values.map((_, i) => freshKey(`value-${i}`))
      await Promise.all(values.map((value, i) => store.set(keys[i] as string, value, 60)))
      expect(await Promise.all(keys.map((key) => store.get(key)))).toEqual(values)
    },
  },
  {
    title: "keys are independent: a key and its prefix or extension hold their own values",
    run: async (store) => {
      const base = freshKey("prefix")
      await store.set(base, "base", 60)
      await store.set(`${base}:x`, "extended", 60)
      expect(await store.claim(base.slice(0, -1), "shorter", 60)).toBe(true)
      expect([await store.get(base), await store.get(`${base}:x`), await store.get(base.slice(0, -1))]).toEqual([
        "base",
        "extended",
        "shorter",
      ])
    },
  },
  {
    title: "claim of an absent key sets it and answers true; a second claim answers false and leaves the value",
    run: async (store) => {
      const key = freshKey("claim")
      expect(await store.claim(key, "winner", 60)).toBe(true)
      expect(await store.get(key)).toBe("winner")
      expect(await store.claim(key, "loser", 60)).toBe(false)
      expect(await store.get(key)).toBe("winner")
    },
  },
  {
    title: "claim of a key that set() wrote answers false",
    run: async (store) => {
      const key = freshKey("claim-after-set")
      await store.set(key, "held", 60)
      expect(await store.claim(key, "other", 60)).toBe(false)
      expect(await store.get(key)).toBe("held")
    },
  },
  {
    title: "racing claims of one key: exactly one answers true, and its value is the one stored",
    run: async (store, { concurrency }) => {
      const key = freshKey("race")
      const results = await Promise.all(
        Array.from({ length: concurrency }, (_, i) => store.claim(key, `caller-${i}`, 60)),
      )
      expect(results.filter(Boolean)).toHaveLength(1)
      expect(await store.get(key)).toBe(`caller-${results.indexOf(true)}`)
    },
  },
  {
    title: "delete removes a key, which can then be claimed again; deleting an absent key is not an error",
    run: async (store) => {
      const key = freshKey("delete")
      expect(await store.claim(key, "first", 60)).toBe(true)
      await store.delete(key)
      expect(await store.get(key)).toBeNull()
      expect(await store.claim(key, "second", 60)).toBe(true)
      expect(await store.get(key)).toBe("second")
      await store.delete(freshKey("never-set"))
    },
  },
  {
    title: "an entry past its TTL reads as absent and can be claimed again; set() gives a claimed key a new TTL",
    run: async (store) => {
      const claimed = freshKey("ttl-claim")
      const written = freshKey("ttl-set")
      const extended = freshKey("ttl-extended")
      expect(await store.claim(claimed, "old", 1)).toBe(true)
      await store.set(written, "old", 1)
      expect(await store.claim(extended, "short", 1)).toBe(true)
      await store.set(extended, "long", 60)
      expect(await store.get(claimed)).toBe("old") // not expired early
      await sleep(1_300)
      expect(await store.get(claimed)).toBeNull()
      expect(await store.get(written)).toBeNull()
      expect(await store.get(extended)).toBe("long")
      expect(await store.claim(claimed, "new", 60)).toBe(true)
      expect(await store.get(claimed)).toBe("new")
      expect(await store.claim(written, "new", 60)).toBe(true)
    },
  },
  {
    title:
      "notifications: a message published on one store object reaches a subscriber on another, unchanged and in order",
    run: async (store, context) => {
      const publisher = notificationsOf(store, context)
      const channel = freshChannel("notify")
      const inbox = await subscribeInbox(store, channel)
      try {
        const sent = ["first", "ünïcødé ✓ 🔑", `'"\\;-- %_?`, crypto.randomUUID()]
        for (const message of sent) await publisher.publish(channel, message)
        await inbox.received(sent.length)
        expect(inbox.messages).toEqual(sent)
      } finally {
        await inbox.end()
      }
    },
  },
  {
    title:
      "notifications: every subscriber of a channel gets each message once; a subscriber of another channel gets none",
    run: async (store, context) => {
      const publisher = notificationsOf(store, context)
      const channel = freshChannel("fanout")
      const elsewhere = freshChannel("elsewhere")
      const [a, b, c] = await Promise.all([
        subscribeInbox(store, channel),
        subscribeInbox(store, channel),
        subscribeInbox(store, elsewhere),
      ])
      try {
        await publisher.publish(channel, "to-channel")
        await publisher.publish(elsewhere, "marker")
        // The marker went out after the message: once it is in, the message has been delivered everywhere it will be.
        await Promise.all([a.received(1), b.received(1), c.received(1)])
        expect([a.messages, b.messages, c.messages]).toEqual([["to-channel"], ["to-channel"], ["marker"]])
      } finally {
        await Promise.all([a.end(), b.end(), c.end()])
      }
    },
  },
  {
    title: "notifications: unsubscribe stops delivery to that listener only; calling it twice is not an error",
    run: async (store, context) => {
      const publisher = notificationsOf(store, context)
      const channel = freshChannel("unsubscribe")
      const ended = await subscribeInbox(store, channel)
      const kept = await subscribeInbox(store, channel)
      await ended.end()
      await ended.end()
      await publisher.publish(channel, "after-one-ended")
      await kept.received(1)
      expect(kept.messages).toEqual(["after-one-ended"])
      expect(ended.messages).toEqual([])
      // With no listener left the store stops listening; a message then reaches only a new subscriber (on the
      // publishing store object, so another connection where there is one).
      await kept.end()
      const witness = await subscribeInbox(publisher, channel)
      try {
        await publisher.publish(channel, "after-all-ended")
        await witness.received(1)
        await sleep(200)
        expect([ended.messages, kept.messages]).toEqual([[], ["after-one-ended"]])
      } finally {
        await witness.end()
      }
      // Subscribing again after the last one ended works as the first time did.
      const again = await subscribeInbox(store, channel)
      try {
        await publisher.publish(channel, "resubscribed")
        await again.received(1)
        expect(again.messages).toEqual(["resubscribed"])
      } finally {
        await again.end()
      }
    },
  },
]

/** The title of every check, in order. */
export const storeConformanceChecks: readonly string[] = checks.map((c) => c.title)

/**
 * Registers the conformance suite for one SharedStore with vitest (call it at the top level of a test file).
 * Checks use fresh keys and never assume an empty store, so they may run against a live database or Redis.
 */
export function runStoreConformanceSuite(options: StoreConformanceOptions): void {
  const concurrency = options.concurrency ?? 20
  let store: SharedStore | undefined
  let other: SharedStore | undefined
  describe(`store conformance: ${options.name}`, () => {
    beforeAll(async () => {
      store = await options.store()
      other = options.otherStore ? await options.otherStore() : store
    })
    afterAll(async () => {
      await options.cleanup?.()
    })
    for (const check of checks) {
      it(check.title, async (test) => {
        if (!store || !other) expect.fail("The store factory did not produce a store.")
        await check.run(store, { concurrency, other, skip: (reason) => test.skip(reason) })
      })
    }
  })
}
