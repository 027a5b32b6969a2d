// A spy logger for the tests: records what Gatehouse logs, and flattens it to text so a test can assert that
// no secret, code or token reaches the logs (docs/security.md#how-to-read-this-list, I5) and which internal error types
// were logged.
import type { AuthConfig } from "../../src/index.js"

export interface LoggerSpy {
  logger: NonNullable<AuthConfig["logger"]>
  /** What logger.error received, in order (the argument, or the argument list when there were several). */
  errors: unknown[]
  warnings: unknown[][]
  debugs: unknown[][]
  /** `.type` (or name) of every error passed to logger.error, in order. */
  types(): string[]
  /** Messages of the logged errors, in order. */
  messages(): string[]
  /** Everything that was logged, flattened to text: names, types, messages, causes and metadata. */
  text(): string
}

/** The text of a logged value: an Error with its type and cause chain, arrays and plain objects member by member. */
export function flatten(value: unknown, seen = new Set<unknown>()): string {
  if (value === null || value === undefined) return String(value)
  if (typeof value !== "object" && typeof value !== "function") return String(value)
  if (seen.has(value)) return ""
  seen.add(value)
  if (value instanceof Error) {
    const e = value as Error & { type?: string; cause?: unknown }
    return [e.name, e.type ?? "", e.message, flatten(e.cause, seen)].join(" ")
  }
  if (Array.isArray(value)) return value.map((v) => flatten(v, seen)).join(" ")
  const parts: string[] = []
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) parts.push(`${k}=${flatten(v, seen)}`)
  return parts.join(" ")
}

export function spyLogger(): LoggerSpy {
  const errors: unknown[] = []
  const warnings: unknown[][] = []
  const debugs: unknown[][] = []
  const logger = {
    error: (...args: unknown[]) => void errors.push(args.length === 1 ? args[0] : args),
    warn: (...args: unknown[]) => void warnings.push(args),
    debug: (...args: unknown[]) => void debugs.push(args),
  } as unknown as NonNullable<AuthConfig["logger"]>
  return {
    logger,
    errors,
    warnings,
    debugs,
    types: () =>
      errors.map((e) => {
        const x = e as { type?: unknown; name?: unknown } | undefined
        return typeof x?.type === "string" ? x.type : typeof x?.name === "string" ? x.name : String(e)
      }),
    messages: () => errors.map((e) => (e instanceof Error ? e.message : String(e))),
    text: () => [flatten(errors), flatten(warnings), flatten(debugs)].join("\n"),
  }
}
