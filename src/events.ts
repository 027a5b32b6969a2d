// Runs a user event handler: errors are logged as EventError and never change the response.
import { EventError } from "./errors.js"
import type { ResolvedConfig } from "./pipeline-types.js"
import type { EventCallbacks } from "./types.js"

export async function emitEvent<K extends keyof EventCallbacks>(
  config: ResolvedConfig,
  name: K,
  message: Parameters<NonNullable<EventCallbacks[K]>>[0],
): Promise<void> {
  const handler = config.events[name] as ((m: typeof message) => unknown) | undefined
  if (!handler) return
  try {
    await handler(message)
  } catch (cause) {
    config.logger.error(new EventError(`The "${name}" event handler threw.`, { cause }))
  }
}
