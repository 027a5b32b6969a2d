// Counts the node:crypto work the library does, so a test can show that hostile input is refused before any
// key is used (no HMAC, no decipher), or that two paths do the same work, instead of bounding their time.
// A test file installs it with
//   vi.mock("node:crypto", async (importOriginal) => (await import("../support/crypto-calls.js")).counting(await importOriginal()))
// This module must not import node:crypto itself: it is loaded from inside that mock's factory.

/** Calls so far: hashes, HMACs computed and ciphers opened for decryption. */
const cryptoCalls = { hash: 0, hmac: 0, decipher: 0 }

export type CryptoWork = typeof cryptoCalls

/** Runs `fn` and returns what it did in node:crypto (hashes, HMACs, deciphers) besides its result. */
export async function countCrypto<T>(fn: () => Promise<T>): Promise<CryptoWork & { result: T }> {
  const before = { ...cryptoCalls }
  const result = await fn()
  return {
    result,
    hash: cryptoCalls.hash - before.hash,
    hmac: cryptoCalls.hmac - before.hmac,
    decipher: cryptoCalls.decipher - before.decipher,
  }
}

type CryptoModule = typeof import("node:crypto")

/** node:crypto with createHash (and the one-shot hash), createHmac and createDecipheriv counted (everything else untouched). */
export function counting(real: CryptoModule): CryptoModule {
  const createHash = ((...args: Parameters<CryptoModule["createHash"]>) => {
    cryptoCalls.hash++
    return real.createHash(...args)
  }) as CryptoModule["createHash"]
  const createHmac = ((...args: Parameters<CryptoModule["createHmac"]>) => {
    cryptoCalls.hmac++
    return real.createHmac(...args)
  }) as CryptoModule["createHmac"]
  const createDecipheriv = ((...args: Parameters<CryptoModule["createDecipheriv"]>) => {
    cryptoCalls.decipher++
    return (real.createDecipheriv as (...a: unknown[]) => unknown)(...args)
  }) as CryptoModule["createDecipheriv"]
  // The one-shot hash (Node.js 20.12+), which the node backend's digest takes where it exists, counts as a hash too.
  const realHash = real.hash
  const hash = (
    realHash
      ? (...args: Parameters<CryptoModule["hash"]>) => {
          cryptoCalls.hash++
          return realHash(...args)
        }
      : realHash
  ) as CryptoModule["hash"]
  const wrapped = { ...real, createHash, createHmac, createDecipheriv, hash }
  return { ...wrapped, default: wrapped } as unknown as CryptoModule
}
