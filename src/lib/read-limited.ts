// Reads a web body (Request or Response) up to a byte limit: the one bounded reader for incoming and upstream bodies.

/**
 * The body's bytes, or undefined as soon as it is known to exceed `limit` (a declared Content-Length over the
 * limit, or the limit+1st byte read); the stream is then cancelled, so at most limit + one chunk is read.
 */
export async function readLimited(message: Request | Response, limit: number): Promise<Uint8Array | undefined> {
  const declared = message.headers.get("content-length")
  if (declared !== null && Number(declared) > limit) {
    await message.body?.cancel().catch(() => {})
    return undefined
  }
  if (!message.body) return new Uint8Array(0)
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
  if (chunks.length === 1) return chunks[0]!
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}
