// Escape-hatch markers: unique symbols, never boolean config keys (docs/contributing.md#rule-4).

/** Put `[raw]: raw` in the config to get the internal response object instead of a `Response`. For framework authors. */
export const raw: unique symbol = Symbol("gatehouse.raw")
/** Put `[skipCSRFCheck]: skipCSRFCheck` in the config when the framework already protects against CSRF. */
export const skipCSRFCheck: unique symbol = Symbol("gatehouse.skipCSRFCheck")
/** Set `[customFetch]` on a provider to replace `fetch` for direct requests to that provider. */
export const customFetch: unique symbol = Symbol("gatehouse.customFetch")
/**
 * Internal (no public entry exports it): the v4 entry points (`gatehouse/v4`) put `[nextAuthV4]: nextAuthV4` in the
 * config they hand to the pipeline, which then speaks next-auth 4's wire format (docs/wire-format.md).
 */
export const nextAuthV4: unique symbol = Symbol("gatehouse.nextAuthV4")
