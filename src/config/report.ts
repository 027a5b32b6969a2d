// A broken config is reported once per config object, not on every request (docs/wire-format.md §1.2).
import type { ResolvedConfig } from "../pipeline-types.js"

const reported = new WeakSet<ResolvedConfig>()

/** Logs the config's configuration error the first time it is met; later calls are silent. */
export function reportConfigError(config: ResolvedConfig): void {
  if (!config.error || reported.has(config)) return
  reported.add(config)
  config.logger.error(config.error)
}
