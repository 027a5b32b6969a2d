// The one reader of process environment variables, for every layer (config resolution, the OAuth normaliser, the
// e-mail kind's API key, the Next.js front door, the providers that read their own variables). The only place that
// touches `process`: workerd without nodejs_compat has none, and there every variable reads as unset.

/** The value of an environment variable; empty values count as unset. Undefined where there is no `process`. */
export function readEnv(name: string): string | undefined {
  return typeof process !== "undefined" ? process.env[name] || undefined : undefined
}
