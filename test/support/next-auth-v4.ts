// next-auth 4.24.15 (a dev dependency), the oracle of the v4 entry points, loaded without its type declarations:
// they import `next`, whose global.d.ts makes NODE_ENV a required key of every ProcessEnv in the program. Each
// loader states the small part of next-auth's API a test calls. `next-auth/core` is not in the package's exports map,
// so AuthHandler is loaded by file path.
import { createRequire } from "node:module"
import { dirname, join } from "node:path"

const require = createRequire(import.meta.url)
// The package root: next-auth/jwt resolves to <root>/jwt/index.js.
const packageDir = dirname(dirname(require.resolve("next-auth/jwt")))

export interface V4JwtModule {
  encode(params: { token?: Record<string, unknown>; secret: string; maxAge?: number; salt?: string }): Promise<string>
  decode(params: { token?: string; secret: string; salt?: string }): Promise<Record<string, unknown> | null>
  getToken(params: {
    req: unknown
    secret?: string
    raw?: boolean
    secureCookie?: boolean
    cookieName?: string
  }): Promise<Record<string, unknown> | string | null>
}

/** `next-auth/jwt` of next-auth 4.24.15. */
export function nextAuthV4Jwt(): V4JwtModule {
  return require("next-auth/jwt") as V4JwtModule
}

/** The internal request next-auth 4's AuthHandler takes (RequestInternal). */
export interface V4RequestInternal {
  action: string
  method?: string
  providerId?: string
  error?: string
  body?: Record<string, unknown>
  query?: Record<string, unknown>
  cookies?: Record<string, string>
  headers?: Record<string, string>
}

/** What AuthHandler answers (ResponseInternal); cookies carry next-auth's own option objects. */
export interface V4ResponseInternal {
  status?: number
  headers?: { key: string; value: string }[]
  body?: unknown
  redirect?: string
  cookies?: { name: string; value: string; options: Record<string, unknown> }[]
}

/** next-auth 4.24.15's AuthHandler (node_modules/next-auth/core/index.js), called in-process. */
export function nextAuthV4Handler(): (params: {
  req: V4RequestInternal
  options: Record<string, unknown>
}) => Promise<V4ResponseInternal> {
  return (require(join(packageDir, "core/index.js")) as { AuthHandler: never }).AuthHandler
}

/** A default export of a next-auth 4 module (`next-auth/providers/<id>`, `next-auth/next`, …) by its subpath. */
export function nextAuthV4Module<T>(subpath: string): T {
  const mod = require(`next-auth/${subpath}`) as { default?: T }
  return (mod.default ?? mod) as T
}

/** `serialize` of the `cookie` package next-auth 4 writes its Set-Cookie headers with (resolved from next-auth). */
export function nextAuthV4SerializeCookie(): (
  name: string,
  value: string,
  options?: Record<string, unknown>,
) => string {
  const fromNextAuth = createRequire(join(packageDir, "package.json"))
  return (fromNextAuth("cookie") as { serialize: never }).serialize
}
