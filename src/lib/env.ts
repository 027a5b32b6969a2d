// The one reader of process environment variables, for every layer (config resolution, the OAuth normaliser, the
// e-mail kind's API key, the Next.js front door, the providers that read their own variables). The only place that
// touches `process`: workerd without nodejs_compat has none, and there every variable reads as unset.

/** The value of an environment variable; empty values count as unset. Undefined where there is no `process`. */
export function readEnv(name: string): string | undefined {
  return typeof process !== "undefined" ? process.env[name] || undefined : undefined
}

/** Reads one variable of an environment; empty values count as unset. */
export type EnvReader = (name: string) => string | undefined

/** next-auth 4's secret from the environment: NEXTAUTH_SECRET, else AUTH_SECRET (its handlers, getToken, withAuth). */
export function v4EnvSecret(env: EnvReader = readEnv): string | undefined {
  return env("NEXTAUTH_SECRET") ?? env("AUTH_SECRET")
}

const configEnvs = new WeakMap<object, EnvReader>()

/**
 * Names the environment of a config a front door derived, when it is not `process.env`: Hono's `env(c)` is the
 * Worker's bindings on Cloudflare. Config resolution then reads AUTH_URL, AUTH_TRUSTED_ORIGINS and the other
 * variables of that config there.
 */
export function setConfigEnv(config: object, reader: EnvReader): void {
  configEnvs.set(config, reader)
}

/** The environment config resolution reads for `config`: the one its front door named, else `process.env`. */
export function configEnv(config: object): EnvReader {
  return configEnvs.get(config) ?? readEnv
}
