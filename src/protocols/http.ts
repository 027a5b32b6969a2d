// Outbound HTTP for provider calls: a timeout, no automatic redirects, and a cap on the response size.
import { OAuthCallbackError } from "../errors.js"
import { readLimited } from "../lib/read-limited.js"
import { merged } from "../lib/merged.js"

/** Provider responses larger than this are refused (docs/security.md OA-18, docs/security.md DS-03). */
export const MAX_RESPONSE_BYTES = 1024 * 1024

/** Thrown when a provider call times out, is too large, or cannot connect; `cause` has the detail. */
class ProviderRequestError extends OAuthCallbackError {}

async function readBounded(response: Response, limit: number): Promise<Uint8Array> {
  const bytes = await readLimited(response, limit)
  if (!bytes) throw new ProviderRequestError(`The provider's response is larger than ${limit} bytes.`)
  return bytes
}

/**
 * Wraps a fetch (the provider's `customFetch`, or the global one) so that every call times out after
 * `timeoutMs`, never follows redirects (RFC 9700 §4.12 / docs/security.md OA-18) and reads at most MAX_RESPONSE_BYTES.
 */
export function boundedFetch(base: typeof fetch, timeoutMs: number, maxBytes = MAX_RESPONSE_BYTES): typeof fetch {
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const timeout = AbortSignal.timeout(timeoutMs)
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout
    let response: Response
    try {
      response = await base(input, merged(init ?? {}, { redirect: "manual" as const, signal }))
    } catch (cause) {
      const timedOut = timeout.aborted
      throw new ProviderRequestError(
        timedOut ? `The provider did not answer within ${timeoutMs} ms.` : "The provider could not be reached.",
        { cause },
      )
    }
    let body: Uint8Array
    try {
      body = await readBounded(response, maxBytes)
    } catch (error) {
      if (error instanceof ProviderRequestError) throw error
      throw new ProviderRequestError(
        timeout.aborted
          ? `The provider did not answer within ${timeoutMs} ms.`
          : "The provider's response could not be read.",
        { cause: error },
      )
    }
    const status = response.status >= 200 && response.status <= 599 ? response.status : 502
    return new Response(status === 204 || status === 304 ? null : (body as unknown as BodyInit), {
      status,
      statusText: response.statusText,
      headers: response.headers,
    })
  }
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"])

/** Whether a URL may be used for provider calls: https, or http on a loopback host (development and tests). */
export function isAllowedEndpoint(url: URL): boolean {
  if (url.protocol === "https:") return true
  return url.protocol === "http:" && (LOOPBACK.has(url.hostname) || url.hostname.endsWith(".localhost"))
}
