// Shared flow-test kit: credentials config builders (plain, or with spies on every side), request builders and the
// credentials sign-in steps (the cookie jar and Set-Cookie parsing live in test/support/cookies.ts).
import { vi } from "vitest"
import { Auth } from "../../src/index.js"
import type { AuthConfig } from "../../src/index.js"
import Credentials from "../../src/providers/credentials.js"
import { CookieJar } from "./cookies.js"
import { spyLogger } from "./logger.js"

export { CookieJar, setCookies } from "./cookies.js"

export const ORIGIN = "http://localhost:3000"
export const SECRET = "test-secret-that-is-at-least-32-characters-long"

export interface TestUser {
  id: string
  name: string
  email: string
  image?: string
}
export const alice: TestUser = {
  id: "user-1",
  name: "Alice",
  email: "alice@example.com",
  image: "https://img.example/a.png",
}
export const bob: TestUser = { id: "user-2", name: "Bob", email: "bob@example.com" }

const credentialsFields = { username: { label: "Username" }, password: { label: "Password", type: "password" } }

/** A config with one credentials provider that accepts `alice` / `password`. */
export function makeConfig(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    providers: [
      Credentials({
        credentials: credentialsFields,
        authorize: async (c) => (c.username === "alice" && c.password === "password" ? { ...alice } : null),
      }),
    ],
    ...overrides,
  }
}

/**
 * makeConfig with spies on every side of a credentials sign-in: the logger, `authorize` (alice or bob with the
 * password "password"), the signOut event and the jwt callback (which returns the token unchanged).
 */
export function credentialsSetup(overrides: Partial<AuthConfig> = {}) {
  const log = spyLogger()
  const users: Record<string, TestUser> = { alice, bob }
  const authorize = vi.fn(async (c: Record<string, unknown>) => {
    const user = typeof c.username === "string" && Object.hasOwn(users, c.username) ? users[c.username] : undefined
    return user && c.password === "password" ? { ...user } : null
  })
  const signOut = vi.fn()
  const jwt = vi.fn(({ token }: { token: Record<string, unknown> }) => token)
  const config = makeConfig({
    providers: [Credentials({ credentials: credentialsFields, authorize: authorize as never })],
    logger: log.logger,
    events: { signOut: signOut as never },
    callbacks: { jwt: jwt as never },
    ...overrides,
  })
  return { config, log, authorize, signOut, jwt }
}

export type CredentialsSetup = ReturnType<typeof credentialsSetup>

export function get(
  path: string,
  init: { cookie?: string; headers?: Record<string, string>; origin?: string } = {},
): Request {
  const headers = new Headers(init.headers)
  if (init.cookie) headers.set("cookie", init.cookie)
  return new Request(`${init.origin ?? ORIGIN}${path}`, { headers })
}

export function postForm(
  path: string,
  form: Record<string, string>,
  init: { cookie?: string; headers?: Record<string, string>; origin?: string } = {},
): Request {
  const headers = new Headers(init.headers)
  headers.set("content-type", "application/x-www-form-urlencoded")
  if (init.cookie) headers.set("cookie", init.cookie)
  return new Request(`${init.origin ?? ORIGIN}${path}`, {
    method: "POST",
    headers,
    body: new URLSearchParams(form).toString(),
  })
}

export function postJson(
  path: string,
  body: unknown,
  init: { cookie?: string; headers?: Record<string, string>; origin?: string } = {},
): Request {
  const headers = new Headers(init.headers)
  headers.set("content-type", "application/json")
  if (init.cookie) headers.set("cookie", init.cookie)
  return new Request(`${init.origin ?? ORIGIN}${path}`, { method: "POST", headers, body: JSON.stringify(body) })
}

/** GET /csrf into the jar and return the token. */
export async function fetchCsrf(config: AuthConfig, jar: CookieJar, origin = ORIGIN): Promise<string> {
  const res = await Auth(get("/auth/csrf", { cookie: jar.header(), origin }), config)
  jar.store(res)
  const body = (await res.json()) as { csrfToken: string }
  return body.csrfToken
}

/** Full credentials sign-in; returns the jar holding the session cookie, the sign-in response and the CSRF token. */
export async function signIn(
  config: AuthConfig,
  creds: Record<string, string> = { username: "alice", password: "password" },
  origin = ORIGIN,
  jar = new CookieJar(),
): Promise<{ jar: CookieJar; res: Response; csrfToken: string }> {
  const csrfToken = await fetchCsrf(config, jar, origin)
  const res = await Auth(
    postForm("/auth/callback/credentials", { csrfToken, ...creds }, { cookie: jar.header(), origin }),
    config,
  )
  jar.store(res)
  return { jar, res, csrfToken }
}
