// Redirect proxy (docs/wire-format.md §10, docs/guide.md "Redirect proxy"): two deployments with one secret, a "proxy"
// at https://proxy.example (the callback registered with the provider) and a "preview" at http://localhost:3000, both
// with `redirectProxyUrl: "https://proxy.example/auth"`. The provider is the mock OP on 127.0.0.1. Both deployments run
// in-process: their Requests are simply built on their own origins.
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { Auth } from "../src/index.js"
import type { AuthConfig } from "../src/index.js"
import { decode } from "../src/jwt/index.js"
import type { OAuthConfigBase } from "../src/providers/types.js"
import { clearDiscoveryCache } from "../src/protocols/oauth2.js"
import { CookieJar, ORIGIN, SECRET, fetchCsrf, get, postForm } from "./support/flow-kit.js"
import { startMockOp, type MockOp } from "./support/mock-op.js"

const PROXY = "https://proxy.example"
const PROXY_AUTH = `${PROXY}/auth`
const ID = "mock"
const PROXY_CALLBACK = `${PROXY_AUTH}/callback/${ID}`
const PREVIEW_CALLBACK = `${ORIGIN}/auth/callback/${ID}`
const APP_PAGE = `${ORIGIN}/dashboard`

let op: MockOp

beforeAll(async () => {
  op = await startMockOp({ clientId: "proxy-client" })
})
afterAll(async () => {
  await op?.stop()
})
beforeEach(() => {
  op.reset()
  clearDiscoveryCache()
})

function provider(extra: Partial<OAuthConfigBase> = {}): OAuthConfigBase {
  return {
    id: ID,
    name: "Mock OP",
    type: "oidc",
    issuer: op.issuer,
    clientId: op.clientId,
    clientSecret: op.clientSecret,
    // Only PKCE asked for: the proxy must force `state`.
    checks: ["pkce"],
    redirectProxyUrl: PROXY_AUTH,
    ...extra,
  }
}

function deployment(secret = SECRET, extra: Partial<OAuthConfigBase> = {}, trustedOrigins: string[] = [ORIGIN]) {
  const errors: Error[] = []
  const jwtAccounts: Record<string, unknown>[] = []
  const config = {
    secret,
    trustHost: true,
    // The proxy forwards only to this app's deployments (trustedOrigins); the preview runs on ORIGIN.
    trustedOrigins,
    basePath: "/auth",
    providers: [provider(extra)],
    logger: { error: (e: Error) => void errors.push(e), warn: () => {}, debug: () => {} },
    callbacks: {
      jwt: ({ token, account }: { token: Record<string, unknown>; account?: Record<string, unknown> | null }) => {
        if (account) jwtAccounts.push(account)
        return token
      },
    },
  } as unknown as AuthConfig
  return { config, errors, jwtAccounts }
}

/** POST /auth/signin/mock on a deployment; the authorization URL. */
async function startSignIn(config: AuthConfig, jar: CookieJar, origin = ORIGIN, callbackUrl = APP_PAGE): Promise<URL> {
  const csrfToken = await fetchCsrf(config, jar, origin)
  const res = await Auth(
    postForm(`/auth/signin/${ID}`, { csrfToken, callbackUrl }, { cookie: jar.header(), origin }),
    config,
  )
  jar.store(res)
  expect(res.status).toBe(302)
  return new URL(res.headers.get("location")!)
}

function types(errors: Error[]): string[] {
  return errors.map((e) => (e as { type?: string }).type ?? e.name)
}

describe("redirect proxy", () => {
  it("preview sign-in goes through the proxy and finishes on the preview deployment with its own cookies", async () => {
    const proxy = deployment()
    const preview = deployment()
    const jar = new CookieJar()

    // 1. Sign-in on the preview: redirect_uri is the proxy's callback, and state is present (forced).
    const authUrl = await startSignIn(preview.config, jar)
    expect(`${authUrl.origin}${authUrl.pathname}`).toBe(op.endpoints.authorization)
    expect(authUrl.searchParams.get("redirect_uri")).toBe(PROXY_CALLBACK)
    const state = authUrl.searchParams.get("state")
    expect(state, "state is forced by the redirect proxy").toBeTruthy()
    expect(authUrl.searchParams.get("code_challenge")).toBeTruthy()
    expect(jar.cookies.has("authjs.state")).toBe(true)
    expect(jar.cookies.has("authjs.pkce.code_verifier")).toBe(true)

    // 2. The OP answers to the proxy's callback.
    const answer = await op.authorize(authUrl)
    expect(answer.redirectUri).toBe(PROXY_CALLBACK)
    expect(answer.params.get("state")).toBe(state)

    // 3. The proxy forwards everything to the preview's callback, without touching cookies (it has none).
    const forward = await Auth(new Request(answer.url), proxy.config)
    expect(forward.status).toBe(302)
    expect(forward.headers.getSetCookie()).toEqual([])
    const target = new URL(forward.headers.get("location")!)
    expect(`${target.origin}${target.pathname}`).toBe(PREVIEW_CALLBACK)
    expect([...target.searchParams].sort()).toEqual([...answer.params].sort())
    expect(target.searchParams.get("iss")).toBe(op.issuer)
    expect(op.counts.token, "the proxy makes no token request").toBe(0)
    expect(proxy.errors).toEqual([])

    // 4. The preview finishes with its own cookies.
    const done = await Auth(get(`${target.pathname}${target.search}`, { cookie: jar.header() }), preview.config)
    jar.store(done)
    expect(preview.errors, types(preview.errors).join(", ")).toEqual([])
    expect(done.status).toBe(302)
    expect(done.headers.get("location")).toBe(APP_PAGE)
    expect(jar.cookies.has("authjs.session-token")).toBe(true)
    for (const name of ["authjs.state", "authjs.pkce.code_verifier"])
      expect(jar.cookies.has(name), `${name} cleared`).toBe(false)

    // The token request used the redirect_uri the authorization request was made with: the proxy's.
    expect(op.tokenRequests).toHaveLength(1)
    expect(op.tokenRequests[0]!.status).toBe(200)
    expect(op.tokenRequests[0]!.body.get("redirect_uri")).toBe(PROXY_CALLBACK)

    const session = await (await Auth(get("/auth/session", { cookie: jar.header() }), preview.config)).json()
    expect(session).toMatchObject({ user: { name: "Mock User", email: "mock.user@op.example" } })
    expect(preview.jwtAccounts).toHaveLength(1)
    expect(preview.jwtAccounts[0]).toMatchObject({ provider: ID, providerAccountId: "mock-user-1" })
    const token = await decode({
      token: decodeURIComponent(jar.cookies.get("authjs.session-token")!),
      secret: SECRET,
      salt: "authjs.session-token",
    })
    expect(token).toMatchObject({ sub: expect.any(String), email: "mock.user@op.example" })
  })

  it("the forwarded callback is checked against the preview's own cookies: another browser's cookies are refused", async () => {
    const proxy = deployment()
    const preview = deployment()
    const victim = new CookieJar()
    const attacker = new CookieJar()
    const answer = await op.authorize(await startSignIn(preview.config, attacker))
    await startSignIn(preview.config, victim)
    const forward = await Auth(new Request(answer.url), proxy.config)
    const target = new URL(forward.headers.get("location")!)
    const res = await Auth(get(`${target.pathname}${target.search}`, { cookie: victim.header() }), preview.config)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`)
    expect(types(preview.errors)).toEqual(["InvalidCheck"])
    expect(op.counts.token).toBe(0)
  })

  it("an upstream error (access_denied) is forwarded as well and reported by the preview", async () => {
    const proxy = deployment()
    const preview = deployment()
    const jar = new CookieJar()
    const authUrl = await startSignIn(preview.config, jar)
    const denied = new URL(PROXY_CALLBACK)
    denied.searchParams.set("error", "access_denied")
    denied.searchParams.set("state", authUrl.searchParams.get("state")!)
    const forward = await Auth(new Request(denied), proxy.config)
    expect(forward.status).toBe(302)
    expect(forward.headers.getSetCookie()).toEqual([])
    const target = new URL(forward.headers.get("location")!)
    expect(`${target.origin}${target.pathname}`).toBe(PREVIEW_CALLBACK)
    expect(target.searchParams.get("error")).toBe("access_denied")
    const res = await Auth(get(`${target.pathname}${target.search}`, { cookie: jar.header() }), preview.config)
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=AccessDenied&code=access_denied`)
    expect(proxy.errors).toEqual([])
  })

  it("the config-level redirectProxyUrl works like the provider option", async () => {
    const make = () => {
      const d = deployment(SECRET, { redirectProxyUrl: undefined })
      ;(d.config as { redirectProxyUrl?: string }).redirectProxyUrl = PROXY_AUTH
      return d
    }
    const proxy = make()
    const preview = make()
    const jar = new CookieJar()
    const authUrl = await startSignIn(preview.config, jar)
    expect(authUrl.searchParams.get("redirect_uri")).toBe(PROXY_CALLBACK)
    const forward = await Auth(new Request((await op.authorize(authUrl)).url), proxy.config)
    const target = new URL(forward.headers.get("location")!)
    expect(`${target.origin}${target.pathname}`).toBe(PREVIEW_CALLBACK)
    const done = await Auth(get(`${target.pathname}${target.search}`, { cookie: jar.header() }), preview.config)
    expect(preview.errors, types(preview.errors).join(", ")).toEqual([])
    expect(done.headers.get("location")).toBe(APP_PAGE)
  })

  it("a sign-in started on the proxy itself uses its own callback and is handled there (state without an origin)", async () => {
    const proxy = deployment()
    const jar = new CookieJar()
    const authUrl = await startSignIn(proxy.config, jar, PROXY, `${PROXY}/home`)
    expect(authUrl.searchParams.get("redirect_uri")).toBe(PROXY_CALLBACK)
    expect(authUrl.searchParams.get("state")).toBeTruthy()
    const answer = await op.authorize(authUrl)
    const res = await Auth(new Request(answer.url, { headers: { cookie: jar.header() } }), proxy.config)
    jar.store(res)
    expect(proxy.errors, types(proxy.errors).join(", ")).toEqual([])
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(`${PROXY}/home`)
    expect(jar.cookies.has("__Secure-authjs.session-token")).toBe(true)
    expect(op.tokenRequests[0]!.body.get("redirect_uri")).toBe(PROXY_CALLBACK)
  })

  it("a forged or undecryptable state at the proxy: /auth/error?error=Configuration (InvalidCheck), nothing forwarded, no token request", async () => {
    const proxy = deployment()
    const other = deployment(`another-secret-${randomBytes(16).toString("hex")}`)
    // A well-formed state sealed with another secret (a deployment that does not share the proxy's secret).
    const foreignAuthUrl = await startSignIn(other.config, new CookieJar())
    const foreignState = foreignAuthUrl.searchParams.get("state")!
    expect(foreignState).toBeTruthy()

    for (const state of ["forged", foreignState, `${foreignState.slice(0, -4)}AAAA`]) {
      proxy.errors.length = 0
      const url = new URL(PROXY_CALLBACK)
      url.searchParams.set("code", "some-code")
      url.searchParams.set("state", state)
      url.searchParams.set("iss", op.issuer)
      const res = await Auth(new Request(url), proxy.config)
      expect(res.status).toBe(302)
      expect(res.headers.get("location")).toBe(`${PROXY_AUTH}/error?error=Configuration`)
      expect(types(proxy.errors)).toEqual(["InvalidCheck"])
    }
    expect(op.counts.token).toBe(0)
  })

  describe("code theft through the proxy", () => {
    /** A sign-in started on `origin` (its Host or X-Forwarded-Host chosen by whoever sent the request), answered by the OP. */
    async function answerFor(origin: string): Promise<{ answer: Awaited<ReturnType<MockOp["authorize"]>> }> {
      const attackerDeployment = deployment()
      const authUrl = await startSignIn(attackerDeployment.config, new CookieJar(), origin)
      return { answer: await op.authorize(authUrl) }
    }

    it("RD-07 a state naming an origin outside trustedOrigins is refused at the proxy: nothing forwarded, no token request", async () => {
      const proxy = deployment()
      // trustHost deployments take the origin from Host: an attacker makes the victim's flow name evil.example.
      const { answer } = await answerFor("https://evil.example")
      const res = await Auth(new Request(answer.url), proxy.config)
      expect(res.status).toBe(302)
      expect(res.headers.get("location")).toBe(`${PROXY_AUTH}/error?error=Configuration`)
      expect(res.headers.get("location")).not.toContain("evil.example")
      expect(types(proxy.errors)).toEqual(["InvalidCheck"])
      expect(proxy.errors[0]!.message).toMatch(/https:\/\/evil\.example.*trustedOrigins/)
      expect(op.counts.token).toBe(0)
    })

    it("RD-07 without trustedOrigins the proxy forwards nowhere but to itself", async () => {
      const proxy = deployment(SECRET, {}, [])
      const { answer } = await answerFor(ORIGIN)
      const res = await Auth(new Request(answer.url), proxy.config)
      expect(res.headers.get("location")).toBe(`${PROXY_AUTH}/error?error=Configuration`)
      expect(types(proxy.errors)).toEqual(["InvalidCheck"])
    })

    it("RD-07 a wildcard pattern forwards to one subdomain label and refuses look-alikes", async () => {
      const proxy = deployment(SECRET, {}, ["https://*.preview.example"])
      const good = await answerFor("https://pr-7.preview.example")
      const forwarded = await Auth(new Request(good.answer.url), proxy.config)
      expect(new URL(forwarded.headers.get("location")!).origin).toBe("https://pr-7.preview.example")
      for (const origin of [
        "https://preview.example.evil.example",
        "https://a.b.preview.example",
        "https://evilpreview.example",
      ]) {
        const bad = await answerFor(origin)
        const res = await Auth(new Request(bad.answer.url), proxy.config)
        expect(res.headers.get("location"), origin).toBe(`${PROXY_AUTH}/error?error=Configuration`)
      }
      expect(op.counts.token).toBe(0)
    })

    it("AUTH_TRUSTED_ORIGINS is read when the config has no trustedOrigins; a bad pattern is a configuration error", async () => {
      const previous = process.env.AUTH_TRUSTED_ORIGINS
      try {
        process.env.AUTH_TRUSTED_ORIGINS = "https://one.example, http://localhost:3000"
        const proxy = deployment(SECRET, {}, undefined as unknown as string[])
        delete (proxy.config as { trustedOrigins?: unknown }).trustedOrigins
        const { answer } = await answerFor(ORIGIN)
        const res = await Auth(new Request(answer.url), proxy.config)
        expect(new URL(res.headers.get("location")!).origin).toBe(ORIGIN)

        const broken = deployment(SECRET, {}, ["not an origin"])
        const answer2 = await answerFor(ORIGIN)
        const refused = await Auth(new Request(answer2.answer.url), broken.config)
        expect(refused.status).toBe(500)
        expect(refused.headers.get("location")).toBeNull()
        expect(types(broken.errors)).toEqual(["UntrustedHost"])
        expect(broken.errors[0]!.message).toMatch(/trustedOrigins\[0\] \("not an origin"\)/)
      } finally {
        if (previous === undefined) delete process.env.AUTH_TRUSTED_ORIGINS
        else process.env.AUTH_TRUSTED_ORIGINS = previous
      }
    })
  })
})
