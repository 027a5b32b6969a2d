// The one derivation of a front door's config (express, hono, next, sveltekit, solid-start, qwik): a copy of the user's
// config with what the framework's Auth.js package takes from the environment, named with its environment for config
// resolution, and memoised per user config object. Each front door says only what differs: where its variables come
// from, its default (or imposed) basePath, and the fields it sets itself.
import { basePathFromEnv, deriveConfig } from "../config/env.js"
import { type EnvReader, setConfigEnv } from "../lib/env.js"
import type { AuthConfig } from "../types.js"

/** How one framework's Auth.js package derives its config. */
export interface FrontDoor {
  /**
   * Reads one variable of the front door's environment: `process.env` (lib/env.ts readEnv), Hono's `env(c)`, SvelteKit's
   * `$env/dynamic/private`. An empty value must read as unset.
   */
  readonly env: EnvReader
  /** The basePath when the config sets none and AUTH_URL has no path: the framework package's documented default. */
  readonly defaultBasePath: string
  /** A basePath the framework imposes whatever the config says (@auth/sveltekit's `${base}/auth`, @auth/qwik's `/auth`). */
  readonly basePath?: string
  /** Fill each provider's AUTH_<ID>_* on copies of the providers (as @auth/express does); else config resolution reads them. */
  readonly fillProviders?: boolean
  /** A `secret` the config sets, even empty, is kept (next-auth's `??=`); else an empty one is filled from AUTH_SECRET. */
  readonly keepSecret?: boolean
}

/**
 * A reader over an environment given as a record (Hono's `env(c)`, SvelteKit's `$env/dynamic/private`): a value that is
 * not a non-empty string (a Worker's binding of another kind, an empty variable) reads as unset.
 */
export function envReader(record: Readonly<Record<string, unknown>>): EnvReader {
  return (name) => {
    const value = record[name]
    return typeof value === "string" && value !== "" ? value : undefined
  }
}

/** The environment as the record setEnvDefaults reads, over a reader (no copy of `process.env` is made). */
function envRecord(env: EnvReader): Record<string, string | undefined> {
  return new Proxy({}, { get: (_, name) => (typeof name === "string" ? env(name) : undefined) })
}

/**
 * The config a front door runs for `config`: basePath (imposed, else the config's, else AUTH_URL's path, else the
 * default), the secrets (AUTH_SECRET_1..3, AUTH_SECRET) where the config has none (see `keepSecret`), the redirect proxy URL, the trust-host rule with Auth.js's platform defaults, and `overrides` on top.
 * Config resolution then reads AUTH_URL, AUTH_TRUSTED_ORIGINS and the providers' variables from the same environment.
 * The user's object is never changed.
 */
export function deriveFrontDoorConfig<C extends AuthConfig>(config: C, door: FrontDoor, overrides?: Partial<C>): C {
  const basePath = door.basePath ?? basePathFromEnv(config.basePath, door.env("AUTH_URL"), door.defaultBasePath)
  const derived = deriveConfig<C>(config, envRecord(door.env), basePath, door.fillProviders ?? false)
  const made: C = { ...derived, ...(door.keepSecret ? { secret: config.secret ?? derived.secret } : {}), ...overrides }
  setConfigEnv(made, door.env)
  return made
}

/**
 * A memo of what a front door derives from each user config object, under up to `maxKeys` keys each (a mount path, an
 * origin): derived once, dropped with the config object. Past `maxKeys` the oldest key of that config is forgotten, so
 * a key taken from requests (a path parameter) cannot grow it without bound.
 */
export class PerConfig<V> {
  readonly #byConfig = new WeakMap<object, Map<string, V>>()

  constructor(private readonly maxKeys = 64) {}

  get(config: object, key: string, make: () => V): V {
    let byKey = this.#byConfig.get(config)
    if (!byKey) this.#byConfig.set(config, (byKey = new Map()))
    let value = byKey.get(key)
    if (value === undefined) {
      value = make()
      if (byKey.size >= this.maxKeys) byKey.delete(byKey.keys().next().value as string)
      byKey.set(key, value)
    }
    return value
  }
}
