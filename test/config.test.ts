// Configuration: errors that name the offending field (docs/wire-format.md §1.2, docs/differences.md
// "Configuration"), validation once per config object, and the env/URL helpers setEnvDefaults
// (docs/wire-format.md §7.1), createActionURL (docs/wire-format.md §7.2) and isAuthAction (docs/wire-format.md §1.1).
import { afterAll, beforeEach, describe, expect, it } from "vitest"
import { Auth, createActionURL, isAuthAction, setEnvDefaults } from "../src/index.js"
import type { AuthConfig } from "../src/index.js"
import Credentials from "../src/providers/credentials.js"
import { SECRET, alice, get, makeConfig } from "./support/flow-kit.js"
import { isolateEnv } from "./support/env.js"
import { spyLogger } from "./support/logger.js"
import { expectConfigurationError } from "./support/responses.js"

let restoreEnv: () => void = () => {}
beforeEach(() => {
  restoreEnv()
  restoreEnv = isolateEnv()
})
afterAll(() => restoreEnv())

const authorize = async (c: Record<string, unknown>) =>
  c.username === "alice" && c.password === "password" ? { ...alice } : null
const credentials = (id?: string) =>
  Credentials({ ...(id ? { id } : {}), credentials: { username: {}, password: {} }, authorize: authorize as never })

type AnyConfig = AuthConfig & Record<string, unknown>

const badConfigs: { name: string; config: () => AnyConfig; type?: string; field: RegExp[] }[] = [
  {
    name: "missing secret",
    config: () => ({ ...makeConfig(), secret: undefined }) as AnyConfig,
    type: "MissingSecret",
    field: [/secret/i],
  },
  {
    name: "empty secret array",
    config: () => ({ ...makeConfig(), secret: [] }) as unknown as AnyConfig,
    type: "MissingSecret",
    field: [/secret/i],
  },
  {
    name: "secret shorter than 32 characters",
    config: () => ({ ...makeConfig(), secret: "a".repeat(31) }) as AnyConfig,
    type: "MissingSecret",
    field: [/secret/i],
  },
  {
    // A short secret after the first only reads what it sealed (a warning, not an error); first, it would seal.
    name: "a short first secret in an array",
    config: () => ({ ...makeConfig(), secret: ["short", SECRET] }) as AnyConfig,
    type: "MissingSecret",
    field: [/secret/i],
  },
  {
    name: "duplicate provider ids",
    config: () => makeConfig({ providers: [credentials(), credentials()] }) as AnyConfig,
    field: [/provider/i, /credentials/],
  },
  {
    name: "credentials provider without authorize",
    config: () =>
      makeConfig({
        providers: [{ id: "credentials", name: "Credentials", type: "credentials", credentials: {} } as never],
      }) as AnyConfig,
    type: "MissingAuthorize",
    field: [/authorize/],
  },
]

describe("configuration errors", () => {
  for (const bad of badConfigs) {
    it(`${bad.name}: GET /session is 500 with Auth.js's {message} body; the logged error names the field`, async () => {
      const log = spyLogger()
      const config = { ...bad.config(), logger: log.logger }
      const res = await Auth(get("/auth/session"), config)
      await expectConfigurationError(res)
      expect(res.headers.getSetCookie()).toEqual([])
      expect(log.errors).toHaveLength(1)
      if (bad.type) expect(log.types()).toEqual([bad.type])
      else expect(log.types()[0]).not.toBe("UntrustedHost")
      for (const re of bad.field) expect(log.messages()[0]).toMatch(re)
    })

    it(`${bad.name}: GET /signin is the 500 HTML error page`, async () => {
      const log = spyLogger()
      const config = { ...bad.config(), logger: log.logger }
      const res = await Auth(get("/auth/signin"), config)
      expect(res.status).toBe(500)
      expect(res.headers.get("content-type") ?? "").toMatch(/^text\/html/)
      expect(res.headers.get("location")).toBeNull()
      expect(res.headers.getSetCookie()).toEqual([])
      expect(await res.text()).toMatch(/<html/i)
      expect(log.errors).toHaveLength(1)
    })
  }

  it("a secret of exactly 32 characters, and an array of long secrets, are accepted", async () => {
    for (const secret of ["b".repeat(32), [SECRET, "c".repeat(40)]]) {
      const log = spyLogger()
      const res = await Auth(get("/auth/session"), makeConfig({ secret, logger: log.logger }))
      expect(res.status).toBe(200)
      expect(await res.json()).toBeNull()
      expect(log.errors).toEqual([])
    }
  })

  it("pages.error set: GET /signin with a config error redirects to it with ?error=Configuration", async () => {
    const res = await Auth(
      get("/auth/signin"),
      makeConfig({ secret: undefined, pages: { error: "/oops" }, logger: spyLogger().logger }),
    )
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe("http://localhost:3000/oops?error=Configuration")
  })

  it("pages.error with a query of its own, or as an absolute URL: a config error's redirect joins it with & and adds no origin to it", async () => {
    const config = (error: string) => makeConfig({ secret: undefined, pages: { error }, logger: spyLogger().logger })
    const withQuery = await Auth(get("/auth/signin"), config("/oops?lang=en"))
    expect(withQuery.headers.get("location")).toBe("http://localhost:3000/oops?lang=en&error=Configuration")
    const absolute = await Auth(get("/auth/signin"), config("https://help.example.test/oops"))
    expect(absolute.headers.get("location")).toBe("https://help.example.test/oops?error=Configuration")
  })

  it("an invalid config logs its error once per config object, not on every request", async () => {
    const log = spyLogger()
    const config = { ...makeConfig(), secret: "short", logger: log.logger }
    for (let i = 1; i <= 3; i++) {
      const res = await Auth(get(i === 2 ? "/auth/signin" : "/auth/session"), config)
      expect(res.status).toBe(500)
      expect(log.errors).toHaveLength(1)
    }
    expect(new Set(log.types())).toEqual(new Set(["MissingSecret"]))
  })

  it("a valid config is validated once per config object: no repeated warnings, provider factories run once", async () => {
    const log = spyLogger()
    let factoryCalls = 0
    const factory = () => {
      factoryCalls++
      return credentials()
    }
    const config = makeConfig({ debug: true, logger: log.logger, providers: [factory as never] })
    const r1 = await Auth(get("/auth/session"), config)
    expect(r1.status).toBe(200)
    const warnings1 = log.warnings.length
    const calls1 = factoryCalls
    expect(calls1).toBeGreaterThanOrEqual(1)
    expect(log.warnings.filter(([code]) => code === "debug-enabled").length).toBeLessThanOrEqual(1)
    for (const path of ["/auth/session", "/auth/providers", "/auth/csrf", "/auth/session"]) {
      const res = await Auth(get(path), config)
      expect(res.status, path).toBe(200)
    }
    expect(log.warnings.length).toBe(warnings1)
    expect(factoryCalls).toBe(calls1)
    expect(log.errors).toEqual([])
  })

  it("a short secret after the first (a retired one) is accepted with one warning naming its index, and reads its tokens", async () => {
    const { encode } = await import("../src/jwt/index.js")
    const retired = "short-secret"
    const token = await encode({
      token: { sub: alice.id, email: alice.email },
      secret: retired,
      salt: "authjs.session-token",
    })
    const log = spyLogger()
    const config = makeConfig({ secret: [SECRET, "x".repeat(40), retired], logger: log.logger })
    for (let i = 0; i < 2; i++) {
      const res = await Auth(get("/auth/session", { cookie: `authjs.session-token=${token}` }), config)
      expect(res.status).toBe(200)
      expect(await res.json()).toMatchObject({ user: { email: alice.email } })
    }
    expect(log.warnings).toEqual([["secret-2-short"]])
    expect(log.errors).toEqual([])
  })

  it("a new config object is validated on its own (the memo is per object, not global)", async () => {
    const good = makeConfig({ logger: spyLogger().logger })
    expect((await Auth(get("/auth/session"), good)).status).toBe(200)
    const bad = { ...good, secret: undefined } as AnyConfig
    expect((await Auth(get("/auth/session"), bad)).status).toBe(500)
    expect((await Auth(get("/auth/session"), good)).status).toBe(200)
  })
})

describe("setEnvDefaults (docs/wire-format.md §7.1)", () => {
  const base = (extra: Partial<AuthConfig> = {}): AuthConfig => ({ providers: [], ...extra }) as AuthConfig

  it("basePath: from AUTH_URL's path when unset; kept (with a warning) when set; '/auth' otherwise", () => {
    const c1 = base()
    setEnvDefaults({ AUTH_URL: "https://e.com/api/auth" }, c1)
    expect(c1.basePath).toBe("/api/auth")

    const log = spyLogger()
    const c2 = base({ basePath: "/custom", logger: log.logger })
    setEnvDefaults({ AUTH_URL: "https://e.com/api/auth" }, c2)
    expect(c2.basePath).toBe("/custom")
    expect(log.warnings.map(([code]) => code)).toEqual(["env-url-basepath-redundant"])

    const log3 = spyLogger()
    const c3 = base({ basePath: "/custom", logger: log3.logger })
    setEnvDefaults({ AUTH_URL: "https://e.com/api/auth" }, c3, true)
    expect(c3.basePath).toBe("/custom")
    expect(log3.warnings).toEqual([])

    const c4 = base()
    setEnvDefaults({}, c4)
    expect(c4.basePath).toBe("/auth")

    const c5 = base()
    setEnvDefaults({ AUTH_URL: "not a url" }, c5)
    expect(c5.basePath).toBe("/auth")

    const c6 = base()
    setEnvDefaults({ AUTH_URL: "https://e.com" }, c6)
    expect(c6.basePath).toBe("/") // the documented Auth.js quirk

    const log7 = spyLogger()
    const c7 = base({ basePath: "/custom", logger: log7.logger })
    setEnvDefaults({}, c7)
    expect(c7.basePath).toBe("/custom")
    expect(log7.warnings).toEqual([])
  })

  it("secret: AUTH_SECRET, then AUTH_SECRET_1..3 prepended; an existing secret is kept", () => {
    const c1 = base()
    setEnvDefaults({ AUTH_SECRET: "a", AUTH_SECRET_1: "b", AUTH_SECRET_2: "c" }, c1)
    expect(c1.secret).toEqual(["c", "b", "a"])

    const c2 = base()
    setEnvDefaults({ AUTH_SECRET: "a" }, c2)
    expect(c2.secret).toEqual(["a"])

    const c3 = base()
    setEnvDefaults({ AUTH_SECRET_1: "b", AUTH_SECRET_3: "d" }, c3)
    expect(c3.secret).toEqual(["d", "b"])

    const c4 = base({ secret: "mine" })
    setEnvDefaults({ AUTH_SECRET: "a", AUTH_SECRET_1: "b" }, c4)
    expect(c4.secret).toBe("mine")

    const c5 = base({ secret: "" })
    setEnvDefaults({ AUTH_SECRET: "a" }, c5)
    expect(c5.secret).toEqual(["a"])

    const c6 = base({ secret: [] })
    setEnvDefaults({ AUTH_SECRET: "a", AUTH_SECRET_1: "b", AUTH_SECRET_2: "c", AUTH_SECRET_3: "d" }, c6)
    expect(c6.secret).toEqual(["d", "c", "b", "a"])
  })

  it("redirectProxyUrl from AUTH_REDIRECT_PROXY_URL unless set", () => {
    const c1 = base()
    setEnvDefaults({ AUTH_REDIRECT_PROXY_URL: "https://proxy.example/api/auth" }, c1)
    expect(c1.redirectProxyUrl).toBe("https://proxy.example/api/auth")
    const c2 = base({ redirectProxyUrl: "https://mine.example/auth" })
    setEnvDefaults({ AUTH_REDIRECT_PROXY_URL: "https://proxy.example/api/auth" }, c2)
    expect(c2.redirectProxyUrl).toBe("https://mine.example/auth")
  })

  it("trustHost: AUTH_URL, AUTH_TRUST_HOST, VERCEL, CF_PAGES, non-production NODE_ENV; AUTH_TRUST_HOST=false means false", () => {
    const cases: [Record<string, string>, boolean][] = [
      [{ AUTH_URL: "https://e.com/auth", NODE_ENV: "production" }, true],
      [{ AUTH_TRUST_HOST: "true", NODE_ENV: "production" }, true],
      [{ AUTH_TRUST_HOST: "1", NODE_ENV: "production" }, true],
      [{ VERCEL: "1", NODE_ENV: "production" }, true],
      [{ CF_PAGES: "1", NODE_ENV: "production" }, true],
      [{ NODE_ENV: "production" }, false],
      [{ NODE_ENV: "development" }, true],
      [{}, true],
      // differences.md: an Auth.js bug fixed (Auth.js counts any defined value as "trust on").
      [{ AUTH_TRUST_HOST: "false" }, false],
      [{ AUTH_TRUST_HOST: "0" }, false],
      [{ AUTH_TRUST_HOST: "false", NODE_ENV: "production" }, false],
    ]
    for (const [env, expected] of cases) {
      const c = base()
      setEnvDefaults(env, c)
      expect(c.trustHost, JSON.stringify(env)).toBe(expected)
    }
    const explicit = base({ trustHost: false })
    setEnvDefaults({ AUTH_URL: "https://e.com/auth", AUTH_TRUST_HOST: "true" }, explicit)
    expect(explicit.trustHost).toBe(false)
    const explicitOn = base({ trustHost: true })
    setEnvDefaults({ AUTH_TRUST_HOST: "false", NODE_ENV: "production" }, explicitOn)
    expect(explicitOn.trustHost).toBe(true)
  })

  it("providers: AUTH_<ID>_ID/_SECRET/_ISSUER fill OAuth/OIDC fields only where unset; _KEY fills email apiKey; factories get the values", () => {
    const oidc = { id: "my-idp", name: "My IdP", type: "oidc", clientSecret: "keep-me" } as Record<string, unknown>
    const oauth = {
      id: "gh",
      name: "GH",
      type: "oauth",
      authorization: "https://gh.example/authorize",
      token: "https://gh.example/token",
      userinfo: "https://gh.example/user",
    } as Record<string, unknown>
    const email = { id: "email", name: "Email", type: "email" } as Record<string, unknown>
    const received: unknown[] = []
    const factory = (opts: Record<string, unknown>) => {
      received.push(opts)
      return { id: "fac-tory", name: "F", type: "oauth", issuer: "https://f.example", ...opts }
    }
    const cred = credentials()
    const c = base({ providers: [oidc, oauth, email, factory, cred] as never })
    setEnvDefaults(
      {
        AUTH_MY_IDP_ID: "idp-id",
        AUTH_MY_IDP_SECRET: "idp-secret",
        AUTH_MY_IDP_ISSUER: "https://idp.example",
        AUTH_GH_ID: "gh-id",
        AUTH_GH_SECRET: "gh-secret",
        AUTH_EMAIL_KEY: "mail-key",
        AUTH_EMAIL_ID: "not-for-email",
        AUTH_FAC_TORY_ID: "f-id",
        AUTH_FAC_TORY_SECRET: "f-secret",
        AUTH_FAC_TORY_ISSUER: "https://f2.example",
        AUTH_FAC_TORY_KEY: "f-key",
        AUTH_CREDENTIALS_ID: "cred-id",
      },
      c,
    )
    const ps = c.providers as unknown as Record<string, unknown>[]
    expect(ps).toHaveLength(5)
    expect(ps[0]).toMatchObject({
      id: "my-idp",
      clientId: "idp-id",
      clientSecret: "keep-me",
      issuer: "https://idp.example",
    })
    expect(ps[1]).toMatchObject({ id: "gh", clientId: "gh-id", clientSecret: "gh-secret" })
    expect(ps[1]!.issuer).toBeUndefined()
    expect(ps[2]).toMatchObject({ id: "email", apiKey: "mail-key" })
    expect(ps[2]!.clientId).toBeUndefined()
    expect(received.at(-1)).toEqual({
      clientId: "f-id",
      clientSecret: "f-secret",
      issuer: "https://f2.example",
      apiKey: "f-key",
    })
    expect(ps[3]).toMatchObject({
      id: "fac-tory",
      clientId: "f-id",
      clientSecret: "f-secret",
      issuer: "https://f2.example",
    })
    expect(ps[4]!.clientId).toBeUndefined()
    expect(ps[4]!.type).toBe("credentials")
  })
})

describe("createActionURL (docs/wire-format.md §7.2)", () => {
  const h = (init: Record<string, string>) => new Headers(init)

  it("verified examples", () => {
    expect(
      String(
        createActionURL(
          "signin",
          "https",
          h({ host: "h.com", "x-forwarded-proto": "http" }),
          {},
          { basePath: "/api/auth" },
        ),
      ),
    ).toBe("http://h.com/api/auth/signin")
    const log = spyLogger()
    expect(
      String(
        createActionURL(
          "signin",
          "https",
          h({ host: "ignored.example" }),
          { AUTH_URL: "https://e.com/x/api/auth" },
          { basePath: "/api/auth", logger: log.logger },
        ),
      ),
    ).toBe("https://e.com/api/auth/signin")
    expect(log.warnings.map(([code]) => code)).toEqual(["env-url-basepath-mismatch"])
  })

  it("returns a URL; AUTH_URL (or NEXTAUTH_URL) wins over headers; matching paths do not warn", () => {
    const log = spyLogger()
    const u = createActionURL(
      "session",
      "http",
      h({ host: "h.com" }),
      { AUTH_URL: "https://e.com/api/auth" },
      { basePath: "/api/auth", logger: log.logger },
    )
    expect(u).toBeInstanceOf(URL)
    expect(u.href).toBe("https://e.com/api/auth/session")
    expect(log.warnings).toEqual([])
    expect(
      String(
        createActionURL(
          "csrf",
          "http",
          h({ host: "h.com" }),
          { NEXTAUTH_URL: "https://n.com/api/auth" },
          { basePath: "/api/auth" },
        ),
      ),
    ).toBe("https://n.com/api/auth/csrf")
    expect(
      String(
        createActionURL(
          "csrf",
          "http",
          h({}),
          { AUTH_URL: "https://a.com/api/auth", NEXTAUTH_URL: "https://n.com/api/auth" },
          { basePath: "/api/auth" },
        ),
      ),
    ).toBe("https://a.com/api/auth/csrf")
    // Origin-only AUTH_URL + basePath.
    expect(
      String(createActionURL("signin", "http", h({}), { AUTH_URL: "https://e.com" }, { basePath: "/api/auth" })),
    ).toBe("https://e.com/api/auth/signin")
    // No basePath: the env path is kept, one trailing slash removed.
    expect(String(createActionURL("signout", "http", h({}), { AUTH_URL: "https://e.com/app/auth/" }, {}))).toBe(
      "https://e.com/app/auth/signout",
    )
    // basePath "/": the env path is kept and the action follows a double slash.
    expect(String(createActionURL("signin", "http", h({}), { AUTH_URL: "https://e.com/x" }, { basePath: "/" }))).toBe(
      "https://e.com/x//signin",
    )
  })

  it("headers: x-forwarded-host over host, x-forwarded-proto over protocol, https by default, ':' optional", () => {
    expect(
      String(
        createActionURL(
          "session",
          "https",
          h({ host: "internal:3000", "x-forwarded-host": "pub.example" }),
          {},
          { basePath: "/api/auth" },
        ),
      ),
    ).toBe("https://pub.example/api/auth/session")
    expect(String(createActionURL("session", "http:", h({ host: "h.com" }), {}, { basePath: "/api/auth/" }))).toBe(
      "http://h.com/api/auth/session",
    )
    expect(
      String(
        createActionURL("session", undefined as unknown as string, h({ host: "h.com" }), {}, { basePath: "/auth" }),
      ),
    ).toBe("https://h.com/auth/session")
    expect(String(createActionURL("providers", "http", h({ host: "h.com:8080" }), {}, {}))).toBe(
      "http://h.com:8080/providers",
    )
    expect(String(createActionURL("signin", "https", h({}), {}, { basePath: "/api/auth" }))).toBe(
      "https://null/api/auth/signin",
    )
  })
})

describe("isAuthAction", () => {
  it("true exactly for the nine actions", () => {
    for (const a of [
      "providers",
      "session",
      "csrf",
      "signin",
      "signout",
      "callback",
      "verify-request",
      "error",
      "webauthn-options",
    ]) {
      expect(isAuthAction(a), a).toBe(true)
    }
    for (const a of [
      "",
      "foo",
      "SESSION",
      "signIn",
      "sign-in",
      "verify_request",
      "__proto__",
      "constructor",
      "toString",
      "hasOwnProperty",
      "session ",
      "webauthn",
    ]) {
      expect(isAuthAction(a), a).toBe(false)
    }
  })
})

describe("Auth() never rejects (no input may reject out of a handler)", () => {
  it("a configured error page that is not a valid header value answers 500 instead of rejecting, and is logged", async () => {
    const errors: unknown[] = []
    const config = makeConfig({
      pages: { error: "/oops\r\nX-Injected: 1" },
      logger: { error: (e: Error) => void errors.push(e), warn() {}, debug() {} },
    })
    const res = await Auth(get("/auth/callback/nope"), config)
    expect(res.status).toBe(500)
    expect(res.headers.get("x-injected")).toBeNull()
    expect(errors.length).toBeGreaterThan(0)
  })
})

describe("e-mail provider keys from the environment", () => {
  it("AUTH_<ID>_KEY fills apiKey of an e-mail provider that has none, without setEnvDefaults; a given key wins", async () => {
    const { resolveConfig } = await import("../src/config/resolve.js")
    const { MemoryAdapter } = await import("../src/adapters/memory.js")
    const { default: Resend } = await import("../src/providers/resend.js")
    process.env.AUTH_RESEND_KEY = "re_from_env"
    process.env.AUTH_MAIL_2_KEY = "re_custom_id"
    try {
      const fromEnv = resolveConfig({
        ...makeConfig(),
        adapter: MemoryAdapter(),
        providers: [Resend({ from: "a@example.com" }), Resend({ id: "mail-2", from: "a@example.com" })],
      })
      expect(fromEnv.error).toBeUndefined()
      expect((fromEnv.providers.get("resend") as { apiKey?: string }).apiKey).toBe("re_from_env")
      expect((fromEnv.providers.get("mail-2") as { apiKey?: string }).apiKey).toBe("re_custom_id")
      // `apiKey: process.env.UNSET` (undefined) in the options: the key from the environment is the one sent.
      const unsetOption = resolveConfig({
        ...makeConfig(),
        adapter: MemoryAdapter(),
        providers: [Resend({ apiKey: undefined, from: "a@example.com" })],
      })
      const provider = unsetOption.providers.get("resend") as unknown as {
        apiKey?: string
        sendVerificationRequest: (p: unknown) => Promise<void>
      }
      expect(provider.apiKey).toBe("re_from_env")
      const seen: string[] = []
      const { customFetch } = await import("../src/symbols.js")
      const fake = async (_url: unknown, init?: RequestInit) => {
        seen.push(new Headers(init?.headers).get("authorization") ?? "")
        return new Response(JSON.stringify({ id: "1" }), {
          status: 200,
          headers: { "content-type": "application/json" },
        })
      }
      await provider.sendVerificationRequest({
        identifier: "b@example.com",
        url: "https://app.example/auth/callback/resend?token=t",
        expires: new Date(),
        token: "t",
        theme: {},
        provider: { ...provider, [customFetch]: fake },
        request: new Request("https://app.example/"),
      })
      expect(seen).toEqual(["Bearer re_from_env"])
      const given = resolveConfig({
        ...makeConfig(),
        adapter: MemoryAdapter(),
        providers: [Resend({ apiKey: "re_given", from: "a@example.com" })],
      })
      expect((given.providers.get("resend") as { apiKey?: string }).apiKey).toBe("re_given")
    } finally {
      delete process.env.AUTH_RESEND_KEY
      delete process.env.AUTH_MAIL_2_KEY
    }
  })
})
