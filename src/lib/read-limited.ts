// Reads a web body (Request or Response) up to a byte limit: the one bounded reader for incoming and upstream bodies.

/**
 * The body's bytes, or undefined as soon as it is known to exceed `limit` (a declared Content-Length over the
 * limit, or the limit+1st byte read); the stream is then cancelled, so at most limit + one chunk is read.
 */
export async function readLimited(message: Request | Response, limit: number): Promise<Buffer | undefined> {
  const declared = message.headers.get("content-length")
  if (declared !== null && Number(declared) > limit) {
    await message.body?.cancel().catch(() => {})
    return undefined
  }
  if (!message.body) return Buffer.alloc(0)
  const reader = message.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => {})
      return undefined
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks, size)
}
