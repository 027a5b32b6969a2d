// gatehouse/next's config: the NextAuthConfig type, next-auth's environment defaults applied to a copy made once per
// config object (the user's object is never changed), and the copy server actions run with (raw, skipCSRFCheck).
import type { NextRequest } from "next/server.js"
import { readEnv } from "../../lib/env.js"
import { deriveFrontDoorConfig, type FrontDoor, PerConfig } from "../front-door.js"
import { resolvedOrThrow } from "../session-read.js"
import type { ResolvedConfig } from "../../pipeline-types.js"
import { raw, skipCSRFCheck } from "../../symbols.js"
import type { AuthConfig, Awaitable, CallbacksOptions, Session } from "../../types.js"

/** The `authorized` callback: decides in middleware/proxy whether a request may go on (next-auth v5's contract). */
export interface AuthorizedCallback {
  (params: { request: NextRequest; auth: Session | null }): Awaitable<boolean | Response | undefined | void>
}

/** next-auth v5's config: an AuthConfig whose callbacks may include `authorized`; basePath defaults to `/api/auth`. */
export interface NextAuthConfig extends Omit<AuthConfig, "raw" | "callbacks"> {
  callbacks?: CallbacksOptions & { authorized?: AuthorizedCallback }
}

/** One user config, derived once: for the handlers and session reads, and for in-process server-action requests. */
export interface DerivedConfig {
  readonly source: NextAuthConfig
  /** The config with the environment defaults filled in (what the route handlers run). */
  readonly config: AuthConfig
  /** The same with `raw` and `skipCSRFCheck`: server actions are CSRF-protected by Next and want the raw answer. */
  readonly actionConfig: AuthConfig
}

const derived = new PerConfig<DerivedConfig>()

/**
 * next-auth's environment, read through lib/env.ts (an empty variable counts as unset, and there may be no `process`):
 * AUTH_SECRET falls back to NEXTAUTH_SECRET and AUTH_URL to NEXTAUTH_URL, as next-auth v5 reads them, so an app that
 * kept next-auth v4's variables keeps its origin and basePath.
 */
function nextEnvRead(name: string): string | undefined {
  if (name === "AUTH_SECRET") return readEnv("AUTH_SECRET") ?? readEnv("NEXTAUTH_SECRET")
  if (name === "AUTH_URL") return readEnv("AUTH_URL") ?? readEnv("NEXTAUTH_URL")
  return readEnv(name)
}

/**
 * next-auth v5's config derivation: basePath `/api/auth` (or AUTH_URL's path), trustHost by the platform rule next-auth
 * uses (trusted outside production, on Vercel, or with AUTH_URL / AUTH_TRUST_HOST), and the secrets from the
 * environment when the config has no `secret` (a `secret` that is set, even empty, is kept, as next-auth's `??=` keeps
 * it). Providers' AUTH_<ID>_* are read by config resolution, from the same environment.
 */
const NEXT_DOOR: FrontDoor = { env: nextEnvRead, defaultBasePath: "/api/auth", keepSecret: true }

/** The derived configs of a user config, built on first use and cached. The user's object is copied, never changed. */
function derivedFor(config: NextAuthConfig): DerivedConfig {
  return derived.get(config, "", () =>
    Object.freeze({
      source: config,
      config: deriveFrontDoorConfig<AuthConfig>(config, NEXT_DOOR),
      actionConfig: deriveFrontDoorConfig<AuthConfig>(config, NEXT_DOOR, { raw, skipCSRFCheck }),
    }),
  )
}

/** What the user passed to NextAuth: a config, or a function of the request (undefined outside a request). */
export type NextAuthConfigInput = NextAuthConfig | ((request: NextRequest | undefined) => Awaitable<NextAuthConfig>)

/** The derived config for one call: the function form is called with the request each time, as next-auth does. */
export async function configFor(input: NextAuthConfigInput, request: NextRequest | undefined): Promise<DerivedConfig> {
  return derivedFor(typeof input === "function" ? await input(request) : input)
}

/** The resolved (checked, frozen) config; a broken config throws its error, logged once, naming the fix. */
export function resolvedFor(config: AuthConfig): ResolvedConfig {
  return resolvedOrThrow(config)
}
