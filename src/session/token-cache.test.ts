// Unit tests of the decrypted-token cache: a hit is what decrypting gives, callers cannot change it, expiry still applies.
import { afterEach, describe, expect, it, vi } from "vitest"
import { JWTSessionError } from "../errors.js"
import { DecodedTokenCache } from "./token-cache.js"

afterEach(() => vi.useRealTimers())

describe("DecodedTokenCache", () => {
  it("returns a fresh copy of the payload on each hit, so a callback changing its token cannot change the next read", () => {
    const cache = new DecodedTokenCache()
    const exp = Math.floor(Date.now() / 1000) + 60
    cache.set("t1", { sub: "alice", exp, account: { scope: "a" } }, 1)
    const first = cache.get("t1")!
    expect(first).toEqual({ payload: { sub: "alice", exp, account: { scope: "a" } }, secretIndex: 1 })
    first.payload.sub = "mallory"
    ;(first.payload.account as { scope: string }).scope = "admin"
    expect(cache.get("t1")!.payload).toEqual({ sub: "alice", exp, account: { scope: "a" } })
    expect(cache.get("unknown")).toBeUndefined()
  })

  it("checks the time claims on every hit: an expired token throws JWTSessionError and is forgotten", () => {
    vi.useFakeTimers()
    const cache = new DecodedTokenCache()
    const exp = Math.floor(Date.now() / 1000) + 60
    cache.set("t1", { sub: "alice", exp }, 0)
    expect(cache.get("t1")?.payload.sub).toBe("alice")
    vi.setSystemTime(Date.now() + 3_600_000)
    expect(() => cache.get("t1")).toThrow(JWTSessionError)
    expect(cache.get("t1")).toBeUndefined()
  })

  it("holds at most 4096 tokens, dropping the oldest first", () => {
    const cache = new DecodedTokenCache()
    const exp = Math.floor(Date.now() / 1000) + 60
    for (let i = 0; i <= 4096; i++) cache.set(`t${i}`, { sub: String(i), exp }, 0)
    expect(cache.get("t0")).toBeUndefined()
    expect(cache.get("t1")?.payload.sub).toBe("1")
    expect(cache.get("t4096")?.payload.sub).toBe("4096")
  })
})
