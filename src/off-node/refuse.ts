// Internal: the error every off-Node entry of this folder throws when it is imported.
import { AuthError } from "../errors.js"

/**
 * Throws at import: `entry` needs Node.js (`why`), and `instead` says what works on this runtime. Typed as returning
 * a value so an entry can export it under each name of the Node.js module (bundlers then find every import they look
 * for, and the import itself fails with this message rather than with a missing export).
 */
export function refuseOffNode(entry: string, why: string, instead: string): never {
  throw new AuthError(
    `${entry} needs Node.js (${why}), so it does not load on this runtime (the edge-light, workerd, worker or browser export condition: the Next.js Edge runtime, Cloudflare Workers, a browser). ${instead}`,
  )
}
