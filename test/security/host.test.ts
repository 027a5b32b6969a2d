// Security group K (docs/security.md §1.K): Host header and trustHost, HT-01..HT-03.
// Gatehouse rule (docs/differences.md "Host and origin"): origin = AUTH_URL's origin when set; else, with trustHost,
// X-Forwarded-Host / X-Forwarded-Proto (first value of a list; a forwarded proto may upgrade to https, never downgrade);
// else the request URL. trustHost = config.trustHost, else AUTH_TRUST_HOST (true/1), else true when AUTH_URL is set,
// else UntrustedHost (500, {"message": …}, as Auth.js).
// Config resolution is memoised per config object, so every env change below uses a NEW config object.
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import type { AuthConfig } from "../../src/index.js"
import Credentials from "../../src/providers/credentials.js"
import { CookieJar, alice, fetchCsrf, get, makeConfig, postForm } from "../support/flow-kit.js"
import { expectNoSessionCookie, sessionCookiesSet, setCookieList } from "../support/cookies.js"
import { isolateEnv, withEnv } from "../support/env.js"
import { spyLogger } from "../support/logger.js"
import { expectConfigurationError } from "../support/responses.js"

const EVIL = "http://evil.example"
const APP = "https://app.example"

type Creds = Record<string, unknown>

function fresh(extra: Partial<AuthConfig> = {}) {
  const authorize = vi.fn(async (c: Creds) =>
    c.username === "alice" && c.password === "password" ? { ...alice } : null,
  )
  const config = makeConfig({
    providers: [
      Credentials({ credentials: { username: {}, password: { type: "password" } }, authorize: authorize as never }),
    ],
    ...extra,
  })
  return { config, authorize }
}

/** A config whose trustHost is not set at all. */
function untrustedByDefault(extra: Partial<AuthConfig> = {}) {
  const r = fresh(extra)
  delete (r.config as { trustHost?: boolean }).trustHost
  return r
}

/** GET /csrf then POST the credentials form, all against `origin` with extra request headers. */
async function signInAt(
  config: AuthConfig,
  origin: string,
  headers: Record<string, string> = {},
  form: Record<string, string> = {},
) {
  const jar = new CookieJar()
  const csrfRes = await Auth(new Request(`${origin}/auth/csrf`, { headers }), config)
  jar.store(csrfRes)
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string }
  const res = await Auth(
    postForm(
      "/auth/callback/credentials",
      { csrfToken, username: "alice", password: "password", ...form },
      { origin, cookie: jar.header(), headers },
    ),
    config,
  )
  return { csrfRes, res }
}

async function providersAt(config: AuthConfig, url: string, headers: Record<string, string> = {}) {
  const res = await Auth(new Request(url, { headers }), config)
  expect(res.status).toBe(200)
  return (await res.json()) as Record<string, { signinUrl: string; callbackUrl: string }>
}

let restoreEnv: () => void = () => {}
beforeEach(() => {
  restoreEnv()
  restoreEnv = isolateEnv()
})
afterAll(() => restoreEnv())

describe("K. host and trustHost", () => {
  it("HT-01 trustHost false and no AUTH_URL: 500 {message} (the configuration error), UntrustedHost logged once, no URL built", async () => {
    for (const make of [
      (l: AuthConfig["logger"]) => fresh({ trustHost: false, logger: l }),
      (l: AuthConfig["logger"]) => untrustedByDefault({ logger: l }),
    ]) {
      const log = spyLogger()
      const { config, authorize } = make(log.logger)
      const headers = { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" }
      const session = await Auth(new Request(`${EVIL}/auth/session`, { headers }), config)
      await expectConfigurationError(session)
      expect(session.headers.get("location")).toBeNull()
      expect(session.headers.getSetCookie()).toEqual([])
      expect(await session.text()).not.toContain("evil.example")
      expect(log.types()).toEqual(["UntrustedHost"])

      const providers = await Auth(new Request(`${EVIL}/auth/providers`, { headers }), config)
      await expectConfigurationError(providers)
      expect(await providers.text()).not.toContain("evil.example")

      // HTML routes: the built-in error page, status 500, no redirect, nothing of the host reflected.
      const page = await Auth(new Request(`${EVIL}/auth/signin`, { headers }), config)
      expect(page.status).toBe(500)
      expect(page.headers.get("content-type") ?? "").toMatch(/^text\/html/)
      expect(page.headers.get("location")).toBeNull()
      expect(page.headers.getSetCookie()).toEqual([])
      expect(await page.text()).not.toContain("evil.example")

      // A credentials POST never reaches authorize.
      const post = await Auth(
        postForm(
          "/auth/callback/credentials",
          { csrfToken: "x", username: "alice", password: "password" },
          { origin: EVIL, headers },
        ),
        config,
      )
      await expectConfigurationError(post)
      expectNoSessionCookie(post)
      expect(authorize).not.toHaveBeenCalled()
      expect(log.types().every((t) => t === "UntrustedHost")).toBe(true)
      expect(log.types()).toHaveLength(1) // once per config, not per request
    }
  })

  it("HT-01 AUTH_TRUST_HOST=false (or 0) keeps trust off; AUTH_TRUST_HOST=true turns it on", async () => {
    for (const value of ["false", "0"]) {
      await withEnv({ AUTH_TRUST_HOST: value }, async () => {
        const log = spyLogger()
        const { config } = untrustedByDefault({ logger: log.logger })
        const res = await Auth(get("/auth/session", { origin: EVIL }), config)
        await expectConfigurationError(res)
        expect(log.types()).toEqual(["UntrustedHost"])
      })
    }
    for (const value of ["true", "1"]) {
      await withEnv({ AUTH_TRUST_HOST: value }, async () => {
        const { config } = untrustedByDefault()
        const res = await Auth(get("/auth/session", { origin: EVIL }), config)
        expect(res.status).toBe(200)
        expect(await res.json()).toBeNull()
      })
    }
  })

  it("HT-02 with AUTH_URL set, Host and X-Forwarded-Host are ignored: URLs, Location and cookie Secure flag come from AUTH_URL", async () => {
    await withEnv({ AUTH_URL: `${APP}/auth` }, async () => {
      for (const variant of ["trustHost unset", "trustHost true"]) {
        const { config } = variant === "trustHost unset" ? untrustedByDefault() : fresh({ trustHost: true })
        const attacks: [string, Record<string, string>][] = [
          [EVIL, { host: "evil.example" }],
          ["http://localhost:3000", { "x-forwarded-host": "evil.example", "x-forwarded-proto": "http" }],
          ["http://localhost:3000", { "x-forwarded-host": "evil.example, app.example", "x-forwarded-proto": "https" }],
        ]
        for (const [origin, headers] of attacks) {
          const label = `${variant} ${origin} ${JSON.stringify(headers)}`
          const providers = await providersAt(config, `${origin}/auth/providers`, headers)
          expect(providers.credentials, label).toMatchObject({
            signinUrl: `${APP}/auth/signin/credentials`,
            callbackUrl: `${APP}/auth/callback/credentials`,
          })

          const { csrfRes, res } = await signInAt(config, origin, headers, { callbackUrl: "/dashboard" })
          const csrfCookie = setCookieList(csrfRes).find((c) => c.name.endsWith("authjs.csrf-token"))
          expect(csrfCookie?.name, label).toBe("__Host-authjs.csrf-token")
          expect(csrfCookie?.attrs.secure, label).toBe(true)
          expect(res.status, label).toBe(302)
          expect(res.headers.get("location"), label).toBe(`${APP}/dashboard`)
          const session = sessionCookiesSet(res)
          expect(
            session.map((c) => c.name),
            label,
          ).toEqual(["__Secure-authjs.session-token"])
          expect(session[0]!.attrs.secure, label).toBe(true)
          for (const c of setCookieList(res)) expect(c.attrs.domain, label).toBeUndefined()

          // A foreign callbackUrl falls back to AUTH_URL's origin, not the Host's.
          const foreign = await signInAt(config, origin, headers, { callbackUrl: `${EVIL}/steal` })
          expect(new URL(foreign.res.headers.get("location") ?? "").origin, label).toBe(APP)

          // Failed sign-in: the error redirect is on AUTH_URL too.
          const jar = new CookieJar()
          const token = await fetchCsrf(config, jar, origin)
          const bad = await Auth(
            postForm(
              "/auth/callback/credentials",
              { csrfToken: token, username: "alice", password: "nope" },
              { origin, cookie: jar.header(), headers },
            ),
            config,
          )
          expect(bad.headers.get("location"), label).toBe(`${APP}/auth/signin?error=CredentialsSignin&code=credentials`)

          // The sign-in page builds its form targets from AUTH_URL and reflects nothing of the Host.
          const page = await Auth(new Request(`${origin}/auth/signin`, { headers }), config)
          expect(page.status, label).toBe(200)
          const html = await page.text()
          expect(html, label).toContain(`${APP}/auth/callback/credentials`)
          expect(html, label).not.toContain("evil.example")
        }
      }
    })
  })

  it("HT-02 AUTH_URL with http keeps cookies plain even on an https request", async () => {
    await withEnv({ AUTH_URL: "http://plain.example/auth" }, async () => {
      const { config } = fresh()
      const { res } = await signInAt(config, "https://evil.example")
      expect(res.headers.get("location")).toMatch(/^http:\/\/plain\.example\/?$/)
      const session = sessionCookiesSet(res)
      expect(session.map((c) => c.name)).toEqual(["authjs.session-token"])
      expect(session[0]!.attrs.secure).toBeUndefined()
    })
  })

  it("HT-03 X-Forwarded-Host and X-Forwarded-Proto lists: the first value is used (trustHost, no AUTH_URL)", async () => {
    const { config } = fresh({ trustHost: true })
    const p1 = await providersAt(config, "http://localhost:3000/auth/providers", {
      "x-forwarded-host": "a.example, b.example",
      "x-forwarded-proto": "https, http",
    })
    expect(p1.credentials!.signinUrl).toBe("https://a.example/auth/signin/credentials")
    const p2 = await providersAt(config, "http://localhost:3000/auth/providers", {
      "x-forwarded-host": "a.example:8443,b.example",
      "x-forwarded-proto": "https",
    })
    expect(p2.credentials!.callbackUrl).toBe("https://a.example:8443/auth/callback/credentials")
    // A forwarded https upgrades a plain request: Secure cookies and https URLs.
    const { csrfRes, res } = await signInAt(config, "http://internal:3000", {
      "x-forwarded-host": "a.example, b.example",
      "x-forwarded-proto": "https, http",
    })
    expect(setCookieList(csrfRes).map((c) => c.name)).toContain("__Host-authjs.csrf-token")
    expect(res.headers.get("location")).toMatch(/^https:\/\/a\.example\/?$/)
    expect(sessionCookiesSet(res).map((c) => c.name)).toEqual(["__Secure-authjs.session-token"])
  })

  it("HT-03 X-Forwarded-Proto: http on an https request keeps Secure cookies and https URLs", async () => {
    const { config } = fresh({ trustHost: true })
    const variants: Record<string, string>[] = [
      { "x-forwarded-proto": "http" },
      { "x-forwarded-proto": "http", "x-forwarded-host": "app.example" },
      { "x-forwarded-proto": "http, https" },
    ]
    for (const headers of variants) {
      const label = JSON.stringify(headers)
      const { csrfRes, res } = await signInAt(config, APP, headers)
      const csrfCookie = setCookieList(csrfRes).find((c) => c.name.endsWith("authjs.csrf-token"))
      expect(csrfCookie?.name, label).toBe("__Host-authjs.csrf-token")
      expect(csrfCookie?.attrs.secure, label).toBe(true)
      expect(res.status, label).toBe(302)
      expect(res.headers.get("location"), label).toMatch(/^https:\/\/app\.example\/?$/)
      const session = sessionCookiesSet(res)
      expect(
        session.map((c) => c.name),
        label,
      ).toEqual(["__Secure-authjs.session-token"])
      expect(session[0]!.attrs.secure, label).toBe(true)
      const providers = await providersAt(config, `${APP}/auth/providers`, headers)
      expect(providers.credentials!.signinUrl, label).toBe(`${APP}/auth/signin/credentials`)
    }
  })

  it("HT-03 forwarded headers of one request never leak into the next (the origin is not cached per config)", async () => {
    const { config } = fresh({ trustHost: true })
    const a = await providersAt(config, "http://localhost:3000/auth/providers", {
      "x-forwarded-host": "a.example",
      "x-forwarded-proto": "https",
    })
    const b = await providersAt(config, "http://localhost:3000/auth/providers", {
      "x-forwarded-host": "b.example",
      "x-forwarded-proto": "https",
    })
    const c = await providersAt(config, "http://localhost:3000/auth/providers")
    expect(a.credentials!.signinUrl).toBe("https://a.example/auth/signin/credentials")
    expect(b.credentials!.signinUrl).toBe("https://b.example/auth/signin/credentials")
    expect(c.credentials!.signinUrl).toBe("http://localhost:3000/auth/signin/credentials")
  })

  it("HT-03 the config object is not changed by requests", async () => {
    /** A structural snapshot: primitives by value, functions by identity, objects recursively. */
    const fns: unknown[] = []
    const snap = (v: unknown, seen = new WeakSet<object>()): unknown => {
      if (typeof v === "function") {
        if (!fns.includes(v)) fns.push(v)
        return `fn#${fns.indexOf(v)}`
      }
      if (v === null || typeof v !== "object") return v
      if (seen.has(v)) return "[cycle]"
      seen.add(v)
      if (Array.isArray(v)) return v.map((x) => snap(x, seen))
      const out: Record<string, unknown> = {}
      for (const k of Reflect.ownKeys(v)) out[String(k)] = snap((v as Record<PropertyKey, unknown>)[k], seen)
      return out
    }
    // No basePath and no logger on purpose: Auth.js writes defaults for both into the user's object.
    const authorize = async (c: Creds) => (c.username === "alice" && c.password === "password" ? { ...alice } : null)
    const provider = Credentials({
      credentials: { username: {}, password: { type: "password" } },
      authorize: authorize as never,
    })
    const config: AuthConfig = {
      secret: "test-secret-that-is-at-least-32-characters-long",
      trustHost: true,
      providers: [provider],
      session: { maxAge: 3600 },
    }
    const providersArray = config.providers
    const before = snap(config)

    await signInAt(config, "http://localhost:3000")
    await signInAt(config, "http://localhost:3000", {
      "x-forwarded-host": "a.example, b.example",
      "x-forwarded-proto": "https",
    })
    await signInAt(config, "https://secure.example", { "x-forwarded-proto": "http" })
    await Auth(get("/auth/providers"), config)
    await Auth(get("/auth/signin"), config)
    await Auth(get("/auth/session", { cookie: "authjs.session-token=garbage" }), config)
    await Auth(get("/auth/nope"), config)

    expect(snap(config)).toEqual(before)
    expect(config.providers).toBe(providersArray)
    expect(config.providers[0]).toBe(provider)
    expect(Object.hasOwn(config, "basePath")).toBe(false)
    expect(Object.hasOwn(config, "logger")).toBe(false)
  })
})
