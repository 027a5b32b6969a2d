// `v4Cookies: "accept"` with database sessions: next-auth 4.24.15 signs a user in by e-mail on the same adapter (the
// memory adapter and the postgres adapter on PGlite), writing the session row and its next-auth.session-token cookie;
// Auth() then finds that row through the v4 cookie, answers the session, re-issues the same token as
// authjs.session-token and expires the v4 cookie. No row is added; sign-out deletes the row.
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest"
import { Auth, type Adapter, type AuthConfig } from "../../src/index.js"
import Credentials from "../../src/providers/credentials.js"
import { setCookies } from "../support/cookies.js"
import { allBackends } from "../support/db-harness.js"
import { isolateEnv } from "../support/env.js"
import { CookieJar, fetchCsrf, get, postForm } from "../support/flow-kit.js"
import { spyLogger } from "../support/logger.js"
import { cookieHeader, V4_SECRET, V4_SESSION, v4EmailSignIn } from "./v4-kit.js"

const backends = await allBackends()
afterAll(async () => {
  for (const b of backends) await b.close()
})
let restoreEnv: () => void
beforeEach(() => {
  restoreEnv = isolateEnv()
})
afterEach(() => restoreEnv())

const SESSION = "authjs.session-token"
const EMAIL = "carol@example.com"

function dbConfig(adapter: Adapter, overrides: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: V4_SECRET,
    trustHost: true,
    basePath: "/auth",
    adapter,
    session: { strategy: "database" },
    v4Cookies: "accept",
    logger: spyLogger().logger,
    providers: [Credentials({ credentials: {}, authorize: () => null })],
    ...overrides,
  }
}

describe.each(backends.map((b) => [b.name, b] as const))("database sessions of next-auth 4 (%s)", (_name, backend) => {
  it("the v4 cookie's row is the session: the same token re-issued as authjs.session-token, the v4 cookie expired", async () => {
    const adapter = await backend.fresh()
    const v4 = await v4EmailSignIn(adapter, EMAIL)
    const token = v4[V4_SESSION] as string
    const rows = await backend.sessions()
    expect(rows.map((r) => r.sessionToken)).toEqual([token])
    const config = dbConfig(adapter)
    const res = await Auth(get("/auth/session", { cookie: cookieHeader(v4) }), config)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ user: { email: EMAIL } })
    const set = setCookies(res)
    expect(set.get(SESSION)?.value).toBe(token)
    expect(set.get(SESSION)?.attrs).toMatchObject({ path: "/", httponly: true, samesite: "Lax" })
    // The cookie keeps the row's expiry: nothing was extended (updateAge had not passed).
    const expires = Date.parse(set.get(SESSION)?.attrs.expires as string)
    expect(Math.abs(expires - (rows[0]?.expires as Date).valueOf())).toBeLessThan(1000)
    expect(set.get(V4_SESSION)).toMatchObject({ value: "", attrs: { "max-age": "0", path: "/" } })
    expect((await backend.sessions()).map((r) => r.sessionToken)).toEqual([token])
    // The browser now holds only the v5 cookie, and it opens the same row.
    const jar = new CookieJar()
    jar.store(res)
    expect([...jar.cookies.keys()]).toEqual([SESSION])
    const again = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    expect(await again.json()).toMatchObject({ user: { email: EMAIL } })
    expect(again.headers.getSetCookie()).toEqual([])
  })

  it("an unknown or expired row: signed out, the v4 cookie expired (an expired row deleted)", async () => {
    const adapter = await backend.fresh()
    const v4 = await v4EmailSignIn(adapter, EMAIL)
    const token = v4[V4_SESSION] as string
    const unknown = await Auth(get("/auth/session", { cookie: `${V4_SESSION}=not-a-row` }), dbConfig(adapter))
    expect(await unknown.json()).toBeNull()
    expect(setCookies(unknown).get(V4_SESSION)).toMatchObject({ value: "", attrs: { "max-age": "0" } })
    await backend.setSessionExpires(token, new Date(Date.now() - 60_000))
    const expired = await Auth(get("/auth/session", { cookie: cookieHeader(v4) }), dbConfig(adapter))
    expect(await expired.json()).toBeNull()
    expect(setCookies(expired).get(V4_SESSION)).toMatchObject({ value: "", attrs: { "max-age": "0" } })
    expect(setCookies(expired).get(SESSION)?.value ?? "").toBe("")
    expect(await backend.sessions()).toEqual([])
  })

  it("without the option the v4 cookie opens nothing and is left alone", async () => {
    const adapter = await backend.fresh()
    const v4 = await v4EmailSignIn(adapter, EMAIL)
    const res = await Auth(
      get("/auth/session", { cookie: cookieHeader(v4) }),
      dbConfig(adapter, { v4Cookies: undefined }),
    )
    expect(await res.json()).toBeNull()
    expect(res.headers.getSetCookie()).toEqual([])
    expect(await backend.sessions()).toHaveLength(1)
  })

  it("sign-out with only the v4 cookie deletes its row and expires it", async () => {
    const adapter = await backend.fresh()
    const v4 = await v4EmailSignIn(adapter, EMAIL)
    const config = dbConfig(adapter)
    const jar = new CookieJar()
    const csrfToken = await fetchCsrf(config, jar)
    const res = await Auth(
      postForm("/auth/signout", { csrfToken }, { cookie: `${jar.header()}; ${cookieHeader(v4)}` }),
      config,
    )
    expect(res.status).toBe(302)
    expect(setCookies(res).get(V4_SESSION)).toMatchObject({ value: "", attrs: { "max-age": "0" } })
    expect(await backend.sessions()).toEqual([])
  })
})
