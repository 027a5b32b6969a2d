// Unit tests of the sign-in rate limit's parts: the memory store (windows, reset, undo, bounded memory), the client
// address rule (socket by default, a header only through rateLimit.clientAddress, IPv6 per /64), identifier normalisation and the option checks.
import { afterEach, describe, expect, it, vi } from "vitest"
import { MemoryRateLimitStore, RATE_LIMIT_DEFAULTS, type RateLimitStore } from "../../src/rate-limit/index.js"
import { addressBucket, normalizeIdentifier, resolveRateLimit } from "../../src/rate-limit/sign-in-limit.js"
import { clientAddressOf } from "../../src/request/parse.js"

const headers = (h: Record<string, string> = {}) => new Headers(h)

afterEach(() => {
  vi.useRealTimers()
})

describe("MemoryRateLimitStore", () => {
  it("counts hits per key within a window and starts again from 1 after the window ends", async () => {
    vi.useFakeTimers({ now: 1_000_000 })
    const store = MemoryRateLimitStore()
    expect(await store.hit("a", 10_000)).toEqual({ count: 1, resetAt: 1_010_000 })
    vi.advanceTimersByTime(4_000)
    expect(await store.hit("a", 10_000)).toEqual({ count: 2, resetAt: 1_010_000 })
    expect(await store.hit("b", 10_000)).toEqual({ count: 1, resetAt: 1_014_000 })
    vi.advanceTimersByTime(6_000) // exactly at resetAt: the window is over
    expect(await store.hit("a", 10_000)).toEqual({ count: 1, resetAt: 1_020_000 })
    expect(await store.hit("b", 10_000)).toEqual({ count: 2, resetAt: 1_014_000 })
  })

  it("undo takes back one attempt of the hit's own window, never below zero, and does nothing for an unknown key", async () => {
    const store = MemoryRateLimitStore()
    const first = await store.hit("a", 60_000)
    await store.hit("a", 60_000)
    await store.undo("a", first)
    const again = await store.hit("a", 60_000)
    expect(again.count).toBe(2)
    await store.undo("a", again)
    await store.undo("a", again)
    await store.undo("a", again)
    expect((await store.hit("a", 60_000)).count).toBe(1)
    await store.undo("never-seen", first)
    expect(store.size).toBe(1)
    // A hit of another window (another resetAt) takes nothing back.
    await store.undo("a", { ...first, resetAt: first.resetAt + 1 })
    expect((await store.hit("a", 60_000)).count).toBe(2)
  })

  it("holds at most maxEntries keys: expired windows are dropped first, then the oldest", async () => {
    vi.useFakeTimers({ now: 5_000_000 })
    const store = MemoryRateLimitStore({ maxEntries: 3 })
    await store.hit("short", 1_000)
    await store.hit("b", 60_000)
    await store.hit("c", 60_000)
    vi.advanceTimersByTime(2_000)
    await store.hit("d", 60_000) // full: the expired "short" goes
    expect(store.size).toBe(3)
    expect((await store.hit("b", 60_000)).count).toBe(2)
    await store.hit("e", 60_000) // full, nothing expired: the oldest window ("b") goes
    expect(store.size).toBe(3)
    expect((await store.hit("b", 60_000)).count).toBe(1)
  })

  it("sweeps expired windows as attempts arrive, so memory does not grow with keys that are never seen again", async () => {
    vi.useFakeTimers({ now: 9_000_000 })
    const store = MemoryRateLimitStore()
    for (let i = 0; i < 1000; i++) await store.hit(`k${i}`, 1_000)
    expect(store.size).toBe(1000)
    vi.advanceTimersByTime(61_000)
    await store.hit("fresh", 1_000)
    expect(store.size).toBe(1)
  })

  it("refuses a maxEntries that is not a positive integer", () => {
    expect(() => MemoryRateLimitStore({ maxEntries: 0 })).toThrow(/maxEntries/)
  })
})

describe("client address", () => {
  const xff = { header: "x-forwarded-for", proxies: 1 } as const
  const address = (...args: Parameters<typeof clientAddressOf>) => clientAddressOf(...args).address

  it("is the socket's address by default, whatever X-Forwarded-For says; trustHost plays no part", () => {
    expect(address("203.0.113.7", headers({ "x-forwarded-for": "198.51.100.1" }), "default")).toBe("203.0.113.7")
    expect(address("203.0.113.7", headers(), "default")).toBe("203.0.113.7")
    expect(address("203.0.113.7", headers({ "x-forwarded-for": "198.51.100.1" }), "socket")).toBe("203.0.113.7")
  })

  it("is unknown by default for a private or loopback peer that sends proxy headers (an undeclared proxy: one bucket for all)", () => {
    for (const peer of ["127.0.0.1", "10.1.2.3", "172.20.0.1", "192.168.1.1", "::1", "fd00::1", "::ffff:10.0.0.1"]) {
      expect(clientAddressOf(peer, headers({ "x-forwarded-for": "198.51.100.1" }), "default"), peer).toEqual({
        address: undefined,
        undeclaredProxy: true,
      })
    }
    expect(clientAddressOf("10.0.0.2", headers({ "x-real-ip": "198.51.100.1" }), "default").undeclaredProxy).toBe(true)
    expect(clientAddressOf("10.0.0.2", headers({ forwarded: "for=198.51.100.1" }), "default").undeclaredProxy).toBe(
      true,
    )
    // Without proxy headers a private peer is a client; a public peer adding the header itself keeps its own address.
    expect(address("10.0.0.2", headers(), "default")).toBe("10.0.0.2")
    expect(clientAddressOf("203.0.113.7", headers({ "x-forwarded-for": "198.51.100.1" }), "default")).toEqual({
      address: "203.0.113.7",
      undeclaredProxy: false,
    })
    // "socket" set explicitly: the peer counts, private or not.
    expect(clientAddressOf("127.0.0.1", headers({ "x-forwarded-for": "198.51.100.1" }), "socket")).toEqual({
      address: "127.0.0.1",
      undeclaredProxy: false,
    })
  })

  it("uses the framework's trusted address (Express req.ip under trust proxy) only by default", () => {
    const framework = () => "198.51.100.4"
    expect(address("127.0.0.1", headers({ "x-forwarded-for": "198.51.100.4" }), "default", framework)).toBe(
      "198.51.100.4",
    )
    expect(address("127.0.0.1", headers({ "x-forwarded-for": "198.51.100.4" }), "socket", framework)).toBe("127.0.0.1")
    expect(
      address("127.0.0.1", headers({ "x-real-ip": "198.51.100.9" }), { header: "x-real-ip", proxies: 1 }, framework),
    ).toBe("198.51.100.9")
    expect(address("127.0.0.1", headers(), "default", () => undefined)).toBeUndefined()
  })

  it("with a header, is the entry `proxies` places from the right; the client's left part is never read", () => {
    expect(address("10.0.0.2", headers({ "x-forwarded-for": " 203.0.113.1 , 198.51.100.1" }), xff)).toBe("198.51.100.1")
    expect(
      address("10.0.0.2", headers({ "x-forwarded-for": "203.0.113.1, 198.51.100.1, 10.0.0.9" }), {
        header: "x-forwarded-for",
        proxies: 2,
      }),
    ).toBe("198.51.100.1")
    expect(address("10.0.0.2", headers({ "x-forwarded-for": "2001:db8::1" }), xff)).toBe("2001:db8::1")
    expect(address("10.0.0.2", headers({ "x-forwarded-for": "[2001:db8::1]:4431" }), xff)).toBe("2001:db8::1")
    expect(address("10.0.0.2", headers({ "x-forwarded-for": "198.51.100.1:4431" }), xff)).toBe("198.51.100.1")
    expect(address("10.0.0.2", headers({ "x-real-ip": "198.51.100.2" }), { header: "x-real-ip", proxies: 1 })).toBe(
      "198.51.100.2",
    )
  })

  it("with a header, is unknown when it is missing, too short for `proxies`, or not an IP (never the socket's, never a value further left)", () => {
    expect(address("203.0.113.7", headers(), xff)).toBeUndefined()
    expect(
      address("203.0.113.7", headers({ "x-forwarded-for": "198.51.100.1" }), { header: "x-forwarded-for", proxies: 2 }),
    ).toBeUndefined()
    expect(address("203.0.113.7", headers({ "x-forwarded-for": "198.51.100.1, not-an-ip" }), xff)).toBeUndefined()
    expect(address("203.0.113.7", headers({ "x-forwarded-for": "198.51.100.1," }), xff)).toBeUndefined()
    expect(address("203.0.113.7", headers({ "x-forwarded-for": "[198.51.100.1" }), xff)).toBeUndefined()
  })

  it("is unknown without a socket (a plain web Request) unless a header is configured", () => {
    expect(address(undefined, headers(), "default")).toBeUndefined()
    expect(address(undefined, headers({ "x-forwarded-for": "198.51.100.1" }), "default")).toBeUndefined()
    expect(address(undefined, headers({ "x-forwarded-for": "198.51.100.1" }), xff)).toBe("198.51.100.1")
  })

  it("buckets IPv6 per /64 and IPv4-mapped addresses as IPv4", () => {
    expect(addressBucket("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64")
    expect(addressBucket("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64")
    expect(addressBucket("2001:db8::1")).toBe("2001:db8:0:0::/64")
    expect(addressBucket("::1")).toBe("0:0:0:0::/64")
    expect(addressBucket("::ffff:192.0.2.1")).toBe("192.0.2.1")
    expect(addressBucket("192.0.2.1")).toBe("192.0.2.1")
  })
})

describe("identifier and options", () => {
  it("normalises identifiers so case, spaces and full-width forms share one count", () => {
    expect(normalizeIdentifier("  Bob@Example.TEST ")).toBe("bob@example.test")
    expect(normalizeIdentifier("bob＠example.test")).toBe("bob@example.test")
    expect(normalizeIdentifier("   ")).toBeUndefined()
    expect(normalizeIdentifier(["bob"])).toBeUndefined()
  })

  it("defaults to 5 per identifier and 30 per address in 15 minutes; false turns it off", () => {
    const { rateLimit } = resolveRateLimit(undefined, ["s".repeat(32)])
    expect(RATE_LIMIT_DEFAULTS).toEqual({ window: 900, max: 5, maxPerAddress: 30 })
    expect(rateLimit).toMatchObject({ windowMs: 900_000, max: 5, maxPerAddress: 30, clientAddress: "default" })
    expect(resolveRateLimit({ clientAddress: { header: "X-Real-IP" } }, []).rateLimit?.clientAddress).toEqual({
      header: "x-real-ip",
      proxies: 1,
    })
    expect(resolveRateLimit(false, [])).toEqual({})
  })

  it("names the bad field of a broken option", () => {
    expect(resolveRateLimit({ max: 0 }, []).error?.message).toMatch(/rateLimit\.max/)
    expect(resolveRateLimit({ maxPerAddress: 2.5 }, []).error?.message).toMatch(/rateLimit\.maxPerAddress/)
    expect(resolveRateLimit({ window: -1 }, []).error?.message).toMatch(/rateLimit\.window/)
    expect(
      resolveRateLimit({ store: { hit: async () => ({ count: 1, resetAt: 0 }) } as unknown as RateLimitStore }, [])
        .error?.message,
    ).toMatch(/undo/)
    expect(resolveRateLimit({ clientAddress: "xff" as never }, []).error?.message).toMatch(/rateLimit\.clientAddress/)
    expect(resolveRateLimit({ clientAddress: { header: "x-forwarded-for", proxies: -1 } }, []).error?.message).toMatch(
      /rateLimit\.clientAddress\.proxies/,
    )
  })
})
