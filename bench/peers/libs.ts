// The three libraries of `npm run bench -- --peers`, each set up the way its documentation sets it up, on the same
// user: Gatehouse (from ../../src), @auth/core 0.41.3 (the root's test oracle) and better-auth (pinned in
// bench/peers/package.json, installed into bench/peers/node_modules). Imported by bench/peers/run.ts (in-process cases)
// and bench/peers/http-server.ts (the Express servers). Which setting is a documented default and which a production
// recommendation is said beside each config and in docs/performance.md ("Against @auth/core and better-auth").
import { Auth as AuthJs } from "@auth/core"
import AuthJsCredentials from "@auth/core/providers/credentials"
import PgAdapterAuthJs from "@auth/pg-adapter"
import { betterAuth } from "better-auth"
import { memoryAdapter } from "better-auth/adapters/memory"
import { hashPassword, verifyPassword } from "better-auth/crypto"
import { getMigrations } from "better-auth/db/migration"
import { Auth as GatehouseAuth, type AuthConfig } from "../../src/index.js"
import { PostgresAdapter } from "../../src/adapters/postgres.js"
import Credentials from "../../src/providers/credentials.js"

export const ORIGIN = "http://localhost:3000"
/** 32 characters of a random-looking secret (better-auth warns about a low-entropy one such as "x".repeat(32)). */
export const SECRET = "k3Q9vZ2mT8rW5yB1nH6pL4xC7fD0sJaE"
export const USER = { name: "Bench User", email: "bench@example.com" }
/** better-auth refuses passwords under 8 characters; the same one for every library. */
export const PASSWORD = "bench-password-1"
export const PASSWORD_HASH = await hashPassword(PASSWORD) // better-auth's default: node:crypto scrypt, N=16384 r=16 p=1

export type Handler = (request: Request) => Promise<Response>

/**
 * The password check of a credentials `authorize`: `scrypt` is better-auth's own default verifyPassword (node:crypto
 * scrypt on the libuv pool) on the hash better-auth's signUp stores, so the three sign-ins hash the same way; `plain`
 * compares the password as given, and better-auth gets the same through `emailAndPassword.password`.
 */
export type PasswordCheck = "scrypt" | "plain"
const passwordOk = async (mode: PasswordCheck, given: unknown) =>
  typeof given === "string" && (mode === "scrypt" ? verifyPassword({ hash: PASSWORD_HASH, password: given }) : given === PASSWORD)
const authorizeWith =
  (mode: PasswordCheck) =>
  async (c: Partial<Record<string, unknown>>): Promise<{ id: string; name: string; email: string } | null> =>
    c.email === USER.email && (await passwordOk(mode, c.password)) ? { id: "user-1", ...USER } : null

// ---------------------------------------------------------------- Gatehouse
/**
 * Gatehouse's documented setup: JWT session strategy (its default without an adapter), updateAge left at its default
 * (the cookie is re-issued once a day, not on each read). Production needs nothing more (no `trustHost` behind a
 * configured AUTH_URL); `rateLimit: false` because neither other library limits these routes in this bench.
 */
export function gatehouse(mode: PasswordCheck = "plain", extra: Partial<AuthConfig> = {}): Handler {
  const config = gatehouseConfig(mode, extra)
  return (r) => GatehouseAuth(r, config)
}
function gatehouseConfig(mode: PasswordCheck, extra: Partial<AuthConfig>): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    rateLimit: false,
    providers: [Credentials({ authorize: authorizeWith(mode) })],
    ...extra,
  }
}

// ---------------------------------------------------------------- @auth/core
/** @auth/core 0.41.3's documented setup: JWT strategy without an adapter; the same Credentials authorize. */
export function authjs(mode: PasswordCheck = "plain", extra: Record<string, unknown> = {}): Handler {
  const config = {
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    providers: [AuthJsCredentials({ authorize: authorizeWith(mode) as never })],
    ...extra,
  }
  return (r) => AuthJs(r, config)
}

// ---------------------------------------------------------------- better-auth
/** The tables better-auth's memory adapter keeps (its documented in-memory database, for tests and this bench). */
export const memoryDb = () => ({ user: [], session: [], account: [], verification: [] }) as Record<string, unknown[]>

/**
 * better-auth's setup as its docs give it: email and password enabled, database sessions (its only session store), the
 * cookie cache off by default (`cookieCache: true` turns on its documented production optimisation: a 5-minute signed
 * session_data cookie, "compact" strategy, HMAC-SHA256, read before the database). `rateLimit: { enabled: false }`:
 * better-auth limits sign-in in production (NODE_ENV=production); this bench measures the work, not the limiter.
 */
export function betterAuthInstance(opts: {
  database: unknown
  cookieCache?: boolean
  password?: PasswordCheck
}) {
  return betterAuth({
    secret: SECRET,
    baseURL: ORIGIN,
    trustedOrigins: [ORIGIN],
    database: opts.database as never,
    emailAndPassword: {
      enabled: true,
      ...(opts.password === "plain"
        ? { password: { hash: async (p: string) => p, verify: async ({ hash, password }) => hash === password } }
        : {}),
    },
    session: opts.cookieCache ? { cookieCache: { enabled: true, maxAge: 5 * 60 } } : {},
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
  })
}
export type BetterAuth = ReturnType<typeof betterAuthInstance>

/** Creates better-auth's tables on a Kysely-capable database (its documented `migrate`, run programmatically). */
export async function migrateBetterAuth(database: unknown): Promise<void> {
  const { runMigrations } = await getMigrations({ database: database as never, emailAndPassword: { enabled: true } })
  await runMigrations()
}

/** Signs the user up once (so the stored password hash is better-auth's own) and in; returns the cookie header. */
export async function betterAuthSignIn(auth: BetterAuth): Promise<{ cookie: string; signInRequest: () => Request }> {
  const post = (path: string, body: unknown) =>
    new Request(`${ORIGIN}/api/auth${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: ORIGIN },
      body: JSON.stringify(body),
    })
  const up = await auth.handler(post("/sign-up/email", { ...USER, password: PASSWORD }))
  if (up.status !== 200 && up.status !== 422) throw new Error(`better-auth sign-up ${up.status}: ${await up.text()}`)
  await up.text()
  const signInRequest = () => post("/sign-in/email", { email: USER.email, password: PASSWORD })
  const res = await auth.handler(signInRequest())
  if (res.status !== 200) throw new Error(`better-auth sign-in ${res.status}: ${await res.text()}`)
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";", 1)[0])
    .join("; ")
  if (!cookie.includes("better-auth.session_token=")) throw new Error("better-auth sign-in set no session cookie")
  return { cookie, signInRequest }
}

// ---------------------------------------------------------------- database strategy (Gatehouse, @auth/core)
/** A pg Pool, or a pg-Pool-shaped wrapper of PGlite (@auth/pg-adapter and Kysely's PostgresDialect take a Pool). */
export interface PoolLike {
  query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[]; rowCount: number | null }>
  connect(): Promise<unknown>
  end(): Promise<void>
}

/** PGlite behind the pg Pool surface: query, connect/release (one connection: PGlite is single-session), end. */
export function pglitePool(db: {
  query: (t: string, p?: unknown[]) => Promise<{ rows: unknown[]; affectedRows?: number }>
}): PoolLike {
  const query = async (text: string, params?: unknown[]) => {
    const r = await db.query(text, params)
    const command = (/^\s*(\w+)/.exec(text)?.[1] ?? "").toUpperCase()
    return {
      rows: r.rows as Record<string, unknown>[],
      rowCount: command === "SELECT" ? r.rows.length : (r.affectedRows ?? 0),
      command,
    }
  }
  return { query, connect: async () => ({ query, release() {} }), end: async () => {} }
}

/** Gatehouse on the database strategy through gatehouse/adapters/postgres (a pg Pool or PGlite, as documented). */
export function gatehouseDb(queryable: unknown): Handler {
  const config = gatehouseDbConfig(queryable)
  return (r) => GatehouseAuth(r, config)
}
/** gatehouseDb's config, for the server-side read (getSession in a route) on the same adapter. */
export function gatehouseDbConfig(queryable: unknown): AuthConfig {
  return gatehouseConfig("plain", { adapter: PostgresAdapter(queryable as never) })
}
/** @auth/core with its own documented PostgreSQL adapter (@auth/pg-adapter) on the same pool and tables. */
export function authjsDb(pool: PoolLike): Handler {
  return authjs("plain", { adapter: PgAdapterAuthJs(pool as never) })
}

// ---------------------------------------------------------------- requests
const get = (path: string, cookie?: string) =>
  new Request(`${ORIGIN}${path}`, cookie ? { headers: { cookie } } : undefined)
const pairs = (res: Response) => res.headers.getSetCookie().map((c) => c.split(";", 1)[0] as string)

/** Auth.js-style browser flow (GET /auth/csrf, POST /auth/callback/credentials): requests for sign-in and sign-out. */
export async function authJsStyleFlow(handle: Handler) {
  const csrf = await handle(get("/auth/csrf"))
  const csrfCookies = pairs(csrf).join("; ")
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const form = (extra: Record<string, string>) =>
    new URLSearchParams({ csrfToken, callbackUrl: ORIGIN, ...extra }).toString()
  const post = (path: string, body: string, cookie: string) =>
    new Request(`${ORIGIN}/auth${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: ORIGIN },
      body,
    })
  const signInRequest = () => post("/callback/credentials", form({ email: USER.email, password: PASSWORD }), csrfCookies)
  const res = await handle(signInRequest())
  if (res.status !== 302) throw new Error(`sign-in status ${res.status}`)
  const session = pairs(res).find((p) => p.startsWith("authjs.session-token="))
  if (!session) throw new Error("sign-in set no session cookie")
  const cookie = `${csrfCookies}; ${session}`
  const signOutRequest = () => post("/signout", form({}), cookie)
  return { signInRequest, signOutRequest, sessionCookie: session }
}

