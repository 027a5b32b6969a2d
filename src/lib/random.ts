// CSPRNG bytes cut from a pool refilled 4 KiB at a time: one randomFillSync call per 128 tokens instead of one each
// (each call into OpenSSL costs microseconds on the hot path). No byte is ever handed out twice.
import { randomFillSync } from "node:crypto"

const POOL_SIZE = 4096
let pool = Buffer.alloc(0)
let offset = POOL_SIZE

/** `size` fresh random bytes (at most the pool size), as a view that stays valid: the pool is replaced, never rewritten. */
export function randomBytesPooled(size: number): Buffer {
  if (size > POOL_SIZE) return randomFillSync(Buffer.allocUnsafe(size))
  if (offset + size > POOL_SIZE) {
    pool = randomFillSync(Buffer.allocUnsafe(POOL_SIZE))
    offset = 0
  }
  const bytes = pool.subarray(offset, offset + size)
  offset += size
  return bytes
}
