// The Edge-runtime check of gatehouse/next. It imports nothing that needs Node.js, so it can run (and explain the
// fix) in the Edge runtime before the rest of Gatehouse, which needs node:crypto, is loaded.
import { AuthError } from "../../errors.js"

/** Whether this code runs in Next's Edge runtime, which has no node:crypto. */
function isEdgeRuntime(): boolean {
  if (typeof (globalThis as { EdgeRuntime?: unknown }).EdgeRuntime === "string") return true
  return typeof process !== "undefined" && process.env.NEXT_RUNTIME === "edge"
}

/**
 * Throws a configuration error naming the fix when called in the Edge runtime: Gatehouse encrypts and decrypts
 * sessions with node:crypto, which Edge lacks, and would otherwise fail deep inside with an unrelated message.
 */
export function assertNodeRuntime(): void {
  if (isEdgeRuntime()) throw edgeRuntimeError()
}

/** The error for gatehouse/next running in the Edge runtime; its message names the fix. */
export function edgeRuntimeError(): AuthError {
  return new AuthError(
    "gatehouse/next needs the Node.js runtime (it uses node:crypto), but this code runs in the Edge runtime. " +
      "Next 16: use proxy.ts instead of middleware.ts (proxy runs on Node.js). Next 15: add " +
      '`export const config = { runtime: "nodejs", matcher: [...] }` to middleware.ts. Route handlers and pages: ' +
      'remove `export const runtime = "edge"`.',
  )
}
