// Support code for the security groups F (credentials), J (request parsing), K (host) and L (DoS),
// and for test/config.test.ts. Not a test file itself; uses only the public API of src/.
import { expect } from "vitest"
import type { AuthConfig } from "../../src/index.js"

// ---------------------------------------------------------------------------------------------
// Logger spy

export interface LoggerSpy {
  logger: NonNullable<AuthConfig["logger"]>
  errors: unknown[]
  warnings: unknown[][]
  /** `.type` (or name) of every error passed to logger.error, in order. */
  types(): string[]
  /** Messages of the logged errors, in order. */
  messages(): string[]
}

export function spyLogger(): LoggerSpy {
  const errors: unknown[] = []
  const warnings: unknown[][] = []
  const logger = {
    error: (...args: unknown[]) => void errors.push(args[0]),
    warn: (...args: unknown[]) => void warnings.push(args),
    debug: () => {},
  } as unknown as NonNullable<AuthConfig["logger"]>
  return {
    logger,
    errors,
    warnings,
    types: () =>
      errors.map((e) => {
        const x = e as { type?: unknown; name?: unknown } | undefined
        return typeof x?.type === "string" ? x.type : typeof x?.name === "string" ? x.name : String(e)
      }),
    messages: () => errors.map((e) => (e instanceof Error ? e.message : String(e))),
  }
}

// ---------------------------------------------------------------------------------------------
// Response helpers

export interface ParsedCookie {
  name: string
  value: string
  raw: string
  attrs: Record<string, string | true>
}

/** All Set-Cookie headers in order, parsed leniently (never throws on bad encoding). */
export function cookieList(res: Response): ParsedCookie[] {
  return res.headers.getSetCookie().map((raw) => {
    const [pair = "", ...rest] = raw.split(";")
    const eq = pair.indexOf("=")
    const name = pair.slice(0, eq).trim()
    let value = pair.slice(eq + 1).trim()
    try {
      value = decodeURIComponent(value)
    } catch {
      /* keep as sent */
    }
    const attrs: Record<string, string | true> = {}
    for (const part of rest) {
      const i = part.indexOf("=")
      if (i === -1) attrs[part.trim().toLowerCase()] = true
      else attrs[part.slice(0, i).trim().toLowerCase()] = part.slice(i + 1).trim()
    }
    return { name, value, raw, attrs }
  })
}

function isDeletion(c: ParsedCookie): boolean {
  if (c.value === "") return true
  const maxAge = c.attrs["max-age"]
  if (typeof maxAge === "string" && Number(maxAge) <= 0) return true
  const expires = c.attrs["expires"]
  return typeof expires === "string" && Date.parse(expires) <= Date.now()
}

export function isSessionCookieName(name: string): boolean {
  return /^(__Secure-)?authjs\.session-token(\.\d+)?$/.test(name)
}

/** Session cookies (or chunks) that the response leaves in the browser with a value. */
export function sessionCookiesSet(res: Response): ParsedCookie[] {
  const last = new Map<string, ParsedCookie>()
  for (const c of cookieList(res)) last.set(c.name, c)
  return [...last.values()].filter((c) => isSessionCookieName(c.name) && !isDeletion(c))
}

/** I1: a failed request never sets a session cookie. */
export function expectNoSessionCookie(res: Response): void {
  expect(sessionCookiesSet(res).map((c) => c.name)).toEqual([])
}

/** API error body `{"error": type}` with the given status (differences.md). */
export async function expectJsonError(res: Response, status: number, type: string): Promise<void> {
  expect(res.status).toBe(status)
  expect(res.headers.get("content-type") ?? "").toMatch(/^application\/json/)
  const body = (await res.clone().json()) as { error?: unknown }
  expect(body).toMatchObject({ error: type })
}

/** MissingCSRF: 302 to `<origin>/auth/signin?error=MissingCSRF` (wire.md 5), or 403 JSON `{"error":"MissingCSRF"}`. */
export async function expectMissingCsrf(res: Response): Promise<void> {
  if (res.status === 403) {
    await expectJsonError(res, 403, "MissingCSRF")
  } else {
    expect(res.status).toBe(302)
    const loc = new URL(res.headers.get("location") ?? "")
    expect(loc.pathname).toBe("/auth/signin")
    expect(loc.searchParams.get("error")).toBe("MissingCSRF")
  }
  expectNoSessionCookie(res)
}

/** The `Allow` header as an upper-cased, sorted list. */
export function allowOf(res: Response): string[] {
  return (res.headers.get("allow") ?? "")
    .split(",")
    .map((m) => m.trim().toUpperCase())
    .filter(Boolean)
    .sort()
}

// ---------------------------------------------------------------------------------------------
// Environment

const ENV_KEYS = [
  "AUTH_URL", "NEXTAUTH_URL", "AUTH_TRUST_HOST", "AUTH_SECRET", "AUTH_SECRET_1", "AUTH_SECRET_2", "AUTH_SECRET_3",
  "NEXTAUTH_SECRET", "AUTH_REDIRECT_PROXY_URL", "VERCEL", "CF_PAGES",
] as const

/** Removes the auth-related env vars and returns a function that restores them. */
export function isolateEnv(): () => void {
  const saved = new Map<string, string | undefined>()
  for (const k of ENV_KEYS) {
    saved.set(k, process.env[k])
    delete process.env[k]
  }
  return () => {
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k]
      else process.env[k] = v
    }
  }
}

/** Runs `fn` with the given env vars set (others from ENV_KEYS cleared), then restores the env. */
export async function withEnv<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const restore = isolateEnv()
  try {
    Object.assign(process.env, vars)
    return await fn()
  } finally {
    for (const k of Object.keys(vars)) delete process.env[k]
    restore()
  }
}
