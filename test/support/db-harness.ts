// Support for the database-session flow tests (test/database-sessions.test.ts) and the adapter fault / race tests
// (test/security/database.test.ts). Not a test file. Uses only the public API of src/ plus the adapters.
//
// - An in-process plain OAuth 2 "IdP": the provider's `customFetch` answers the token and userinfo requests
//   (PKCE S256 checked, single-use codes); the test plays the browser's trip to the authorize endpoint.
// - Backends: the memory adapter, and the postgres adapter on PGlite when src/adapters/postgres.ts exists
//   (plus a real PostgreSQL when DATABASE_URL is set); each can count and inspect its rows.
// - A fault-injecting adapter wrapper (throw / hang / slow per method) that records every call.
import { createHash, randomBytes } from "node:crypto"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { expect } from "vitest"
import { Auth, customFetch } from "../../src/index.js"
import type { Adapter, AdapterSession, AdapterUser, AuthConfig } from "../../src/index.js"
import type { OAuthConfigBase } from "../../src/providers/types.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { CookieJar, ORIGIN, SECRET, fetchCsrf, get, postForm, setCookies } from "./flow-kit.js"

export const SESSION_COOKIE = "authjs.session-token"
export const ERROR_CONFIGURATION = `${ORIGIN}/auth/error?error=Configuration`
export const NOT_LINKED = `${ORIGIN}/auth/signin?error=OAuthAccountNotLinked`

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

// ---------------------------------------------------------------------------------------------------------
// The in-process OAuth 2 IdP

export interface IdpProfile {
  id: string
  name?: string
  email?: string | null
  avatar?: string
  /** As the IdP sends it: some send strings ("true"/"false"), which linking must read strictly. */
  email_verified?: unknown
  [key: string]: unknown
}

export interface Idp {
  readonly id: string
  /** The profile handed out for codes minted from now on. */
  profile: IdpProfile
  readonly tokenRequests: number
  readonly userinfoRequests: number
  /** The in-process fetch that answers the token and userinfo endpoints. */
  readonly fetch: typeof fetch
  /** The provider config (pass `extra` to override fields, e.g. allowDangerousEmailAccountLinking). */
  provider(extra?: Partial<OAuthConfigBase>): OAuthConfigBase
  /** The browser's visit to the authorize endpoint: mints a code for `profile` bound to the PKCE challenge. */
  authorize(query: URLSearchParams, profile?: IdpProfile): string
}

export function createIdp(id: string, profile: IdpProfile): Idp {
  const clientId = `${id}-client`
  const clientSecret = `${id}-secret-${randomBytes(6).toString("hex")}`
  const base = `https://${id}.idp.test`
  const codes = new Map<string, { redirectUri: string; challenge: string | null; profile: IdpProfile }>()
  const tokens = new Map<string, IdpProfile>()
  let tokenRequests = 0
  let userinfoRequests = 0
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { "content-type": "application/json", "cache-control": "no-store" },
    })
  const fetcher = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const req = new Request(input, init)
    const url = new URL(req.url)
    if (url.origin !== base) return json(404, { error: "not_found" })
    if (req.method === "POST" && url.pathname === "/token") {
      tokenRequests++
      const body = new URLSearchParams(await req.text())
      const expected = `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString("base64")}`
      if (req.headers.get("authorization") !== expected) return json(401, { error: "invalid_client" })
      const grant = codes.get(body.get("code") ?? "")
      codes.delete(body.get("code") ?? "")
      if (body.get("grant_type") !== "authorization_code" || !grant || grant.redirectUri !== body.get("redirect_uri"))
        return json(400, { error: "invalid_grant" })
      if (
        grant.challenge !== null &&
        createHash("sha256")
          .update(body.get("code_verifier") ?? "")
          .digest("base64url") !== grant.challenge
      ) {
        return json(400, { error: "invalid_grant", error_description: "PKCE" })
      }
      const accessToken = randomBytes(16).toString("base64url")
      tokens.set(accessToken, grant.profile)
      return json(200, {
        access_token: accessToken,
        token_type: "bearer",
        expires_in: 3600,
        scope: "read:user",
        refresh_token: `rt-${accessToken}`,
      })
    }
    if (req.method === "GET" && url.pathname === "/userinfo") {
      userinfoRequests++
      const token = /^Bearer (.+)$/.exec(req.headers.get("authorization") ?? "")?.[1]
      const profile = token ? tokens.get(token) : undefined
      if (!profile) return json(401, { error: "invalid_token" })
      return json(200, profile)
    }
    return json(404, { error: "not_found" })
  }
  const idp: Idp = {
    id,
    profile,
    fetch: fetcher as typeof fetch,
    get tokenRequests() {
      return tokenRequests
    },
    get userinfoRequests() {
      return userinfoRequests
    },
    provider: (extra = {}) =>
      ({
        id,
        name: `IdP ${id}`,
        type: "oauth",
        clientId,
        clientSecret,
        authorization: `${base}/authorize`,
        token: `${base}/token`,
        userinfo: `${base}/userinfo`,
        profile: (p: Record<string, unknown>) => ({
          id: p.id as string,
          name: p.name as string,
          email: p.email as string,
          image: p.avatar as string,
        }),
        [customFetch]: fetcher as typeof fetch,
        ...extra,
      }) as OAuthConfigBase,
    authorize(query, p) {
      const redirectUri = query.get("redirect_uri") ?? ""
      expect(query.get("client_id")).toBe(clientId)
      const code = randomBytes(12).toString("base64url")
      codes.set(code, {
        redirectUri,
        challenge: query.get("code_challenge"),
        profile: structuredClone(p ?? idp.profile),
      })
      return code
    },
  }
  return idp
}

/**
 * Starts an OAuth sign-in in `jar`'s browser: GET /csrf, POST /signin/<id>, then the IdP's authorize step.
 * Returns the callback path (with code and state) the IdP redirects back to.
 */
export async function startFlow(
  config: AuthConfig,
  idp: Idp,
  jar: CookieJar,
  opts: { callbackUrl?: string; profile?: IdpProfile } = {},
): Promise<string> {
  const csrfToken = await fetchCsrf(config, jar)
  const res = await Auth(
    postForm(
      `/auth/signin/${idp.id}`,
      { csrfToken, ...(opts.callbackUrl ? { callbackUrl: opts.callbackUrl } : {}) },
      { cookie: jar.header() },
    ),
    config,
  )
  jar.store(res)
  expect(res.status, "POST /signin answers with a redirect to the IdP").toBe(302)
  const location = new URL(res.headers.get("location") ?? "")
  expect(location.pathname).toBe("/authorize")
  const q = location.searchParams
  const code = idp.authorize(q, opts.profile)
  const back = new URL(q.get("redirect_uri") ?? "")
  back.searchParams.set("code", code)
  if (q.has("state")) back.searchParams.set("state", q.get("state") ?? "")
  expect(back.origin).toBe(ORIGIN)
  return back.pathname + back.search
}

/** The IdP's redirect back: GET the callback with the jar's cookies; stores the response cookies in the jar. */
export async function finishFlow(config: AuthConfig, jar: CookieJar, callbackPath: string): Promise<Response> {
  const res = await Auth(get(callbackPath, { cookie: jar.header() }), config)
  jar.store(res)
  return res
}

/** A whole OAuth sign-in in `jar` (a fresh browser when omitted). */
export async function oauthSignIn(
  config: AuthConfig,
  idp: Idp,
  jar = new CookieJar(),
  opts: { callbackUrl?: string; profile?: IdpProfile } = {},
): Promise<{ jar: CookieJar; res: Response; location: string }> {
  const path = await startFlow(config, idp, jar, opts)
  const res = await finishFlow(config, jar, path)
  return { jar, res, location: res.headers.get("location") ?? "" }
}

/** The session-token Set-Cookie of a response, if any. */
export function sessionSetCookie(
  res: Response,
): { value: string; raw: string; attrs: Record<string, string | true> } | undefined {
  return setCookies(res).get(SESSION_COOKIE)
}

/** Whether the response expires the session cookie (Max-Age=0 / empty value). */
export function clearsSession(res: Response): boolean {
  const c = sessionSetCookie(res)
  return c !== undefined && (c.attrs["max-age"] === "0" || c.value === "")
}

/** Whether the response sets a (non-deleting) session cookie. */
export function setsSession(res: Response): boolean {
  const c = sessionSetCookie(res)
  return c !== undefined && c.value !== "" && c.attrs["max-age"] !== "0"
}

export async function getSession(
  config: AuthConfig,
  jar: CookieJar,
): Promise<{ res: Response; body: Record<string, unknown> | null }> {
  const res = await Auth(get("/auth/session", { cookie: jar.header() }), config)
  const body = (await res.json()) as Record<string, unknown> | null
  jar.store(res)
  return { res, body }
}

export async function signOutReq(config: AuthConfig, jar: CookieJar): Promise<Response> {
  const csrfToken = await fetchCsrf(config, jar)
  const res = await Auth(postForm("/auth/signout", { csrfToken }, { cookie: jar.header() }), config)
  jar.store(res)
  return res
}

// ---------------------------------------------------------------------------------------------------------
// Config with spies

export interface Recorded {
  errors: unknown[]
  events: { name: string; message: Record<string, unknown> }[]
  jwt: Record<string, unknown>[]
  /** Event messages of one kind, in order. */
  of(name: string): Record<string, unknown>[]
  /** `type` (or name) of every logged error. */
  errorTypes(): string[]
}

export function dbConfig(
  adapter: Adapter | undefined,
  providers: AuthConfig["providers"],
  overrides: Partial<AuthConfig> = {},
): { config: AuthConfig; rec: Recorded } {
  const errors: unknown[] = []
  const events: Recorded["events"] = []
  const jwt: Record<string, unknown>[] = []
  const ev = (name: string) => (message: Record<string, unknown>) => void events.push({ name, message })
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    providers,
    ...(adapter ? { adapter } : {}),
    logger: { error: (e: Error) => void errors.push(e), warn: () => {}, debug: () => {} },
    events: {
      createUser: ev("createUser"),
      linkAccount: ev("linkAccount"),
      signIn: ev("signIn"),
      signOut: ev("signOut"),
      session: ev("session"),
      updateUser: ev("updateUser"),
    } as AuthConfig["events"],
    ...overrides,
  }
  const rec: Recorded = {
    errors,
    events,
    jwt,
    of: (name) => events.filter((e) => e.name === name).map((e) => e.message),
    errorTypes: () => errors.map((e) => (e as { type?: string })?.type ?? (e as Error)?.name ?? String(e)),
  }
  return { config, rec }
}

// ---------------------------------------------------------------------------------------------------------
// Backends

export interface Rows {
  users: number
  accounts: number
  sessions: number
}

export interface Backend {
  readonly name: string
  /** A fresh, empty adapter for one test. */
  fresh(): Promise<Adapter>
  counts(): Promise<Rows>
  users(): Promise<AdapterUser[]>
  sessions(): Promise<AdapterSession[]>
  accounts(): Promise<{ provider: string; providerAccountId: string; userId: string; type?: string }[]>
  /** Rewrites a session row's expiry directly in the store. */
  setSessionExpires(sessionToken: string, expires: Date): Promise<void>
  close(): Promise<void>
}

export function memoryBackend(): Backend {
  let current = MemoryAdapter()
  return {
    name: "memory",
    async fresh() {
      current = MemoryAdapter()
      return current
    },
    async counts() {
      return { users: current.users.size, accounts: current.accounts.size, sessions: current.sessions.size }
    },
    async users() {
      return [...current.users.values()]
    },
    async sessions() {
      return [...current.sessions.values()]
    },
    async accounts() {
      return [...current.accounts.values()]
    },
    async setSessionExpires(sessionToken, expires) {
      const s = current.sessions.get(sessionToken)
      if (s) s.expires = expires
    },
    async close() {},
  }
}

const POSTGRES_SRC = fileURLToPath(new URL("../../src/adapters/postgres.ts", import.meta.url))

interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>
}

interface PostgresModule {
  PostgresAdapter: (db: unknown) => Adapter
  migrate: (db: unknown) => Promise<unknown>
}

/** Whether the postgres adapter exists yet (another helper writes it). */
export const hasPostgresAdapter = existsSync(POSTGRES_SRC)

async function loadPostgres(): Promise<PostgresModule | undefined> {
  if (!hasPostgresAdapter) return undefined
  const spec = "../../src/adapters/postgres.js"
  return (await import(/* @vite-ignore */ spec)) as PostgresModule
}

/** The table names of the postgres adapter (Auth.js pg-adapter schema, plus Gatehouse's WebAuthn authenticators). */
const TABLES = {
  users: "users",
  accounts: "accounts",
  sessions: "sessions",
  verification: "verification_token",
  authenticators: "authenticators",
}

function pgBackend(name: string, db: Queryable, mod: PostgresModule, close: () => Promise<void>): Backend {
  const count = async (table: string) =>
    Number((await db.query<{ n: string | number }>(`select count(*) as n from ${table}`)).rows[0]?.n ?? 0)
  return {
    name,
    async fresh() {
      await db.query(
        `truncate ${TABLES.authenticators}, ${TABLES.sessions}, ${TABLES.accounts}, ${TABLES.verification}, ${TABLES.users} cascade`,
      )
      return mod.PostgresAdapter(db)
    },
    async counts() {
      return {
        users: await count(TABLES.users),
        accounts: await count(TABLES.accounts),
        sessions: await count(TABLES.sessions),
      }
    },
    async users() {
      return (await db.query<AdapterUser>(`select * from ${TABLES.users}`)).rows.map((u) => ({
        ...u,
        id: String(u.id),
      }))
    },
    async sessions() {
      return (await db.query<AdapterSession & { userId: unknown }>(`select * from ${TABLES.sessions}`)).rows.map(
        (s) => ({ ...s, userId: String(s.userId) }),
      )
    },
    async accounts() {
      return (
        await db.query<{ provider: string; providerAccountId: string; userId: unknown }>(
          `select * from ${TABLES.accounts}`,
        )
      ).rows.map((a) => ({ ...a, userId: String(a.userId) }))
    },
    async setSessionExpires(sessionToken, expires) {
      await db.query(`update ${TABLES.sessions} set expires = $1 where "sessionToken" = $2`, [expires, sessionToken])
    },
    close,
  }
}

/** The postgres adapter on an in-memory PGlite (migrated), or undefined while the adapter does not exist. */
export async function pgliteBackend(): Promise<Backend | undefined> {
  const mod = await loadPostgres()
  if (!mod) return undefined
  const { PGlite } = await import("@electric-sql/pglite")
  const db = new PGlite()
  await mod.migrate(db)
  return pgBackend("postgres (PGlite)", db as unknown as Queryable, mod, () => db.close())
}

/** The postgres adapter on a real server when DATABASE_URL is set (a scratch schema, dropped on close). */
export async function realPostgresBackend(): Promise<Backend | undefined> {
  const url = process.env.DATABASE_URL
  if (!url) return undefined
  const mod = await loadPostgres()
  if (!mod) return undefined
  const pg = await import("pg")
  const schema = `gatehouse_test_${randomBytes(4).toString("hex")}`
  const pool = new pg.default.Pool({ connectionString: url, max: 10, options: `-c search_path=${schema}` })
  await pool.query(`create schema ${schema}`)
  await mod.migrate(pool)
  return pgBackend("postgres (DATABASE_URL)", pool as unknown as Queryable, mod, async () => {
    await pool.query(`drop schema ${schema} cascade`)
    await pool.end()
  })
}

/** Every available backend: memory always, PGlite once the adapter exists, real PostgreSQL with DATABASE_URL. */
export async function allBackends(): Promise<Backend[]> {
  const out: Backend[] = [memoryBackend()]
  const lite = await pgliteBackend()
  if (lite) out.push(lite)
  const real = await realPostgresBackend()
  if (real) out.push(real)
  return out
}

// ---------------------------------------------------------------------------------------------------------
// Fault-injecting adapter wrapper

export type Fault =
  | { kind: "throw"; error?: unknown }
  | { kind: "hang" }
  /** Runs the real call, then answers only after `ms` (a write that lands after a timeout). */
  | { kind: "slow"; ms: number }
  /** Replaces the result. */
  | { kind: "result"; value: (real: unknown) => unknown }

export interface FaultyAdapter extends Adapter {
  readonly inner: Adapter
  readonly faults: Map<string, Fault>
  readonly calls: { method: string; args: unknown[] }[]
  /** Methods called, in order. */
  methods(): string[]
  /** Removes every fault. */
  heal(): void
  /** Answers waiting "hang" calls never; counts them. */
  readonly hanging: number
}

const ADAPTER_METHODS = [
  "createUser",
  "getUser",
  "getUserByEmail",
  "getUserByAccount",
  "updateUser",
  "deleteUser",
  "linkAccount",
  "unlinkAccount",
  "createSession",
  "getSessionAndUser",
  "updateSession",
  "deleteSession",
  "createVerificationToken",
  "useVerificationToken",
  "getAccount",
  "getAuthenticator",
  "createAuthenticator",
  "listAuthenticatorsByUserId",
  "updateAuthenticatorCounter",
  "deleteAuthenticator",
] as const

export function faulty(
  inner: Adapter,
  shared?: { faults: Map<string, Fault>; calls: { method: string; args: unknown[] }[]; hanging: { n: number } },
): FaultyAdapter {
  const state = shared ?? { faults: new Map<string, Fault>(), calls: [], hanging: { n: 0 } }
  const out: Record<string, unknown> = {
    inner,
    faults: state.faults,
    calls: state.calls,
    methods: () => state.calls.map((c) => c.method),
    heal: () => state.faults.clear(),
  }
  Object.defineProperty(out, "hanging", { get: () => state.hanging.n })
  for (const method of ADAPTER_METHODS) {
    const fn = (inner as Record<string, unknown>)[method]
    if (typeof fn !== "function") continue
    out[method] = async (...args: unknown[]) => {
      state.calls.push({ method, args })
      const fault = state.faults.get(method)
      if (fault?.kind === "throw") throw fault.error ?? new Error(`injected fault in ${method}`)
      if (fault?.kind === "hang") {
        state.hanging.n++
        return new Promise(() => {})
      }
      const result = await (fn as (...a: unknown[]) => unknown).apply(inner, args)
      if (fault?.kind === "slow") await sleep(fault.ms)
      if (fault?.kind === "result") return fault.value(result)
      return result
    }
  }
  const tx = (inner as { transaction?: <T>(fn: (tx: Adapter) => Promise<T>) => Promise<T> }).transaction
  if (typeof tx === "function") {
    out.transaction = <T>(fn: (tx: Adapter) => Promise<T>) =>
      tx.call(inner, (innerTx: Adapter) => fn(faulty(innerTx, state)))
  }
  return out as unknown as FaultyAdapter
}
