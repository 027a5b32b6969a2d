// gatehouse/hono's reqWithEnvUrl and setEnvDefaults, checked side by side with @hono/auth-js's own (a dev dependency):
// the same inputs give the same request (URL, method, headers, body) and the same filled-in config.
import * as upstream from "@hono/auth-js"
import { describe, expect, it } from "vitest"
import { type AuthConfig, type AuthEnv, reqWithEnvUrl, setEnvDefaults } from "../../src/integrations/hono.js"

interface Shape {
  url: string
  method: string
  headers: [string, string][]
  body: string
}

async function shapeOf(request: Request): Promise<Shape> {
  return { url: request.url, method: request.method, headers: [...request.headers], body: await request.text() }
}

interface RequestCase {
  name: string
  url: string
  init?: RequestInit
  authUrl?: string
}

const requestCases: RequestCase[] = [
  {
    name: "AUTH_URL replaces the origin, the path stays",
    url: "http://request-base/request-path",
    authUrl: "https://auth-url-base/auth-url-path",
  },
  { name: "AUTH_URL with a port", url: "http://localhost/a?b=c", authUrl: "https://auth.example:8443/api/auth" },
  {
    name: "AUTH_URL without a port keeps the request's port",
    url: "http://localhost:3000/x",
    authUrl: "https://app.example.com",
  },
  { name: "AUTH_URL on the request's own origin", url: "http://localhost:3000/x", authUrl: "http://localhost:3000" },
  {
    name: "no AUTH_URL, no forwarded headers",
    url: "http://localhost:3000/x",
    init: { headers: { host: "localhost:3000" } },
  },
  {
    name: "X-Forwarded-Proto and X-Forwarded-Host",
    url: "http://localhost:3000/api/auth/signin",
    init: { headers: { "x-forwarded-proto": "https", "x-forwarded-host": "example.com", host: "localhost:3000" } },
  },
  {
    name: "X-Forwarded-Host with a port",
    url: "http://localhost/y",
    init: { headers: { "x-forwarded-host": "example.com:8080" } },
  },
  {
    name: "X-Forwarded-Proto with its colon",
    url: "http://localhost/y",
    init: { headers: { "x-forwarded-proto": "https:" } },
  },
  { name: "Host alone", url: "http://localhost:3000/z", init: { headers: { host: "other.example:4000" } } },
  {
    name: "a POST keeps its method, headers and body",
    url: "http://localhost/api/auth/callback/credentials",
    init: {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: "a=b" },
      body: "password=password",
    },
  },
  {
    name: "a POST with AUTH_URL",
    url: "http://localhost/api/auth/signout",
    init: { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "csrfToken=x" },
    authUrl: "https://app.example.com/api/auth",
  },
]

describe("gatehouse/hono reqWithEnvUrl", () => {
  it.each(requestCases)("$name: as @hono/auth-js's", async ({ url, init, authUrl }) => {
    const ours = await shapeOf(reqWithEnvUrl(new Request(url, init), authUrl))
    const theirs = await shapeOf(upstream.reqWithEnvUrl(new Request(url, init), authUrl))
    expect(ours).toEqual(theirs)
  })

  it("rewrites the origin as @hono/auth-js's test suite expects, leaving the given request as it was", () => {
    const request = new Request("http://request-base/request-path")
    expect(reqWithEnvUrl(request, "https://auth-url-base/auth-url-path").url).toBe("https://auth-url-base/request-path")
    expect(request.url).toBe("http://request-base/request-path")
  })

  it("refuses an AUTH_URL with credentials, as @hono/auth-js's does (a Request URL cannot carry them)", () => {
    const authUrl = "https://user:pw@auth.example/api/auth"
    expect(() => upstream.reqWithEnvUrl(new Request("http://localhost/a"), authUrl)).toThrow(TypeError)
    expect(() => reqWithEnvUrl(new Request("http://localhost/a"), authUrl)).toThrow(TypeError)
  })
})

/** A provider in the function form, as setEnvDefaults calls it: once bare for its id, once with the env values. */
function githubLike(options: Record<string, unknown>) {
  return { id: "github", name: "GitHub", type: "oauth" as const, ...options }
}

function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return {
    providers: [githubLike, { id: "mail", name: "Mail", type: "email", sendVerificationRequest: async () => {} }],
    ...overrides,
  } as AuthConfig
}

/** The fields setEnvDefaults fills, in a form two configs can be compared by. */
function filled(c: AuthConfig) {
  return {
    secret: c.secret,
    basePath: c.basePath,
    trustHost: c.trustHost,
    redirectProxyUrl: c.redirectProxyUrl,
    providers: c.providers.map((p) => {
      const { sendVerificationRequest: _, ...rest } = p as unknown as Record<string, unknown>
      return rest
    }),
  }
}

interface EnvCase {
  name: string
  env: AuthEnv
  overrides?: Partial<AuthConfig>
}

const envCases: EnvCase[] = [
  { name: "AUTH_SECRET alone", env: { AUTH_SECRET: "a-secret" } },
  {
    name: "AUTH_SECRET beside AUTH_SECRET_1 (AUTH_SECRET wins, as a string)",
    env: { AUTH_SECRET: "new", AUTH_SECRET_1: "old" },
  },
  { name: "only AUTH_SECRET_1..2", env: { AUTH_SECRET_1: "one", AUTH_SECRET_2: "two" } },
  { name: "a configured secret", env: { AUTH_SECRET: "env" }, overrides: { secret: "configured" } },
  {
    name: "AUTH_URL gives the basePath and trust",
    env: { AUTH_SECRET: "s", AUTH_URL: "https://app.example.com/api/auth", NODE_ENV: "production" },
  },
  { name: "no AUTH_URL: basePath /auth", env: { AUTH_SECRET: "s", NODE_ENV: "production" } },
  { name: "a configured basePath stays", env: { AUTH_SECRET: "s" }, overrides: { basePath: "/api/auth" } },
  { name: "AUTH_TRUST_HOST=true", env: { AUTH_SECRET: "s", AUTH_TRUST_HOST: "true", NODE_ENV: "production" } },
  { name: "Vercel", env: { AUTH_SECRET: "s", VERCEL: "1", NODE_ENV: "production" } },
  {
    name: "the redirect proxy and provider credentials",
    env: {
      AUTH_SECRET: "s",
      AUTH_REDIRECT_PROXY_URL: "https://proxy.example/api/auth",
      AUTH_GITHUB_ID: "id",
      AUTH_GITHUB_SECRET: "sec",
      AUTH_MAIL_KEY: "key",
    },
  },
  { name: "a configured trustHost: false", env: { AUTH_SECRET: "s" }, overrides: { trustHost: false } },
]

describe("gatehouse/hono setEnvDefaults", () => {
  it.each(envCases)("$name: fills the config as @hono/auth-js's does", ({ env, overrides }) => {
    const ours = config(overrides)
    const theirs = config(overrides)
    setEnvDefaults(env, ours)
    upstream.setEnvDefaults(env as upstream.AuthEnv, theirs as upstream.AuthConfig)
    expect(filled(ours)).toEqual(filled(theirs))
  })

  it("reads AUTH_TRUST_HOST=false as no (Auth.js reads any value as yes; a documented difference)", () => {
    const ours = config()
    setEnvDefaults({ AUTH_SECRET: "s", AUTH_TRUST_HOST: "false" }, ours)
    expect(ours.trustHost).toBe(false)
  })
})
