// Shared harness of the route flow tests (test/routes/*.test.ts): a config with a spy logger, the session and
// CSRF cookie names, and checks of the session Set-Cookie, the no-cache JSON headers and cleared cookies.
import { expect, vi, type Mock } from "vitest"
import type { AuthConfig, JWT } from "../../src/index.js"
import { decode } from "../../src/jwt/index.js"
import { type CookieJar, SECRET, makeConfig } from "./flow-kit.js"

export const SESSION = "authjs.session-token"
export const CSRF = "authjs.csrf-token"
export const MAX_AGE = 30 * 24 * 60 * 60
export const S1 = "rotation-secret-one-at-least-32-characters"
export const S2 = "rotation-secret-two-at-least-32-characters"

export type Logger = {
  error: Mock<(error: Error) => void>
  warn: Mock<(code: string) => void>
  debug: Mock<(message: string, metadata?: unknown) => void>
}

export function spyLogger(): Logger {
  return {
    error: vi.fn<(error: Error) => void>(),
    warn: vi.fn<(code: string) => void>(),
    debug: vi.fn<(message: string, metadata?: unknown) => void>(),
  }
}

/** A fresh config (so the per-object memo is fresh) with a spy logger that keeps the console quiet. */
export function setup(overrides: Partial<AuthConfig> = {}): { config: AuthConfig; logger: Logger } {
  const logger = spyLogger()
  return { config: makeConfig({ logger, ...overrides }), logger }
}

export function loggedTypes(logger: Logger): string[] {
  return logger.error.mock.calls.map(([e]) => (e as { type?: string }).type ?? (e as Error).name)
}

export function loggedOf(logger: Logger, type: string): Error & { type: string; cause?: unknown } {
  const hit = logger.error.mock.calls.map(([e]) => e).find((e) => (e as { type?: string }).type === type)
  expect(hit, `an error of type ${type} was logged`).toBeDefined()
  return hit as Error & { type: string; cause?: unknown }
}

export function expectNoCacheJson(res: Response): void {
  expect(res.headers.get("content-type")).toBe("application/json")
  expect(res.headers.get("cache-control")).toBe("private, no-cache, no-store")
  expect(res.headers.get("expires")).toBe("0")
  expect(res.headers.get("pragma")).toBe("no-cache")
}

export function sessionToken(jar: CookieJar, name = SESSION): string {
  const v = jar.cookies.get(name)
  expect(v, `jar holds ${name}`).toBeDefined()
  return decodeURIComponent(v as string)
}

export async function claims(token: string, secret: string | string[] = SECRET, salt = SESSION): Promise<JWT> {
  const out = await decode({ token, secret, salt })
  expect(out).not.toBeNull()
  return out as JWT
}

/** The one Set-Cookie that clears `name`: empty value, Max-Age=0, the default attributes. */
export function expectCleared(res: Response, name: string): void {
  const raw = res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`))
  expect(raw, `Set-Cookie clears ${name}`).toBe(`${name}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax`)
}

const SESSION_COOKIE = new RegExp(
  `^${SESSION.replace(/\./g, "\\.")}=([^;]+); Max-Age=(\\d+); Path=/; Expires=([^;]+); HttpOnly; SameSite=Lax$`,
)

/** Checks the session Set-Cookie: attribute order, Max-Age and an Expires about now + maxAge. */
export function expectSessionCookie(res: Response, maxAge = MAX_AGE): string {
  const raw = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION}=`))
  expect(raw, "a session Set-Cookie").toBeDefined()
  const m = SESSION_COOKIE.exec(raw as string)
  expect(m, raw).not.toBeNull()
  expect(Number(m![2])).toBe(maxAge)
  expect(Math.abs(Date.parse(m![3] as string) - (Date.now() + maxAge * 1000))).toBeLessThan(3000)
  return decodeURIComponent((raw as string).slice(SESSION.length + 1).split(";")[0] as string)
}

/** Runs `fn` with Date.now shifted `secondsAgo` into the past. */
export async function inThePast<T>(secondsAgo: number, fn: () => Promise<T>): Promise<T> {
  const real = Date.now()
  const spy = vi.spyOn(Date, "now").mockReturnValue(real - secondsAgo * 1000)
  try {
    return await fn()
  } finally {
    spy.mockRestore()
  }
}

/** Flips one ciphertext byte of a compact JWE (a real change, not a base64 padding bit). */
export function tamper(token: string): string {
  const parts = token.split(".")
  const ct = Buffer.from(parts[3] as string, "base64url")
  ct[0] = (ct[0] as number) ^ 0xff
  parts[3] = ct.toString("base64url")
  return parts.join(".")
}
