// Azure DevOps end to end through Auth(), against a local app.vssps.visualstudio.com on 127.0.0.1 that behaves as its
// OAuth guide documents:
// - /oauth2/authorize takes client_id, response_type=Assertion, state, scope and the registered redirect_uri;
// - POST /oauth2/token takes only the form client_assertion_type (jwt-bearer), client_assertion (the client secret),
//   grant_type (urn:ietf:params:oauth:grant-type:jwt-bearer, or refresh_token with the refresh token as assertion),
//   assertion (the code) and redirect_uri, and answers token_type "jwt-bearer" with expires_in as a string;
// - the profile API answers the signed-in user with coreAttributes.Avatar.
// Also the generic core parts this needs: a token `request` hook whose answer is checked like a token response, and a
// provider's own response_type that a sign-in query cannot change.
import { randomBytes } from "node:crypto"
import { afterEach, describe, expect, it, vi } from "vitest"
import { customFetch, setEnvDefaults } from "../../src/index.js"
import type { AuthConfig } from "../../src/index.js"
import { resolveOAuthProvider } from "../../src/config/oauth.js"
import { getAuthorizationServer, refreshTokens } from "../../src/protocols/oauth2.js"
import AzureDevOps, { type AzureDevOpsProfile } from "../../src/providers/azure-devops.js"
import { ORIGIN } from "../support/flow-kit.js"
import {
  ERROR_PAGE,
  SIGNIN_ERROR,
  type LocalServer,
  callback,
  expectRejected,
  expectSignedIn,
  freshValue,
  localize,
  logged,
  routingFetch,
  sendJson,
  sendRedirect,
  sessionOf,
  setup,
  startLocalServer,
  startSignIn,
  useFakeProvider,
  visitProvider,
} from "../support/provider-kit.js"

const CALLBACK = `${ORIGIN}/auth/callback/azure-devops`
const ORIGINS = ["https://app.vssps.visualstudio.com"] as const
const AUTHORIZE = "/oauth2/authorize"
const TOKEN = "/oauth2/token"
const PROFILE = "/_apis/profile/profiles/me"
const AVATAR = Buffer.from("fake-png-bytes").toString("base64")

const USER: AzureDevOpsProfile = {
  id: "6a1d6c7e-2f0b-4c39-9a54-1f0c2b6d8e41",
  displayName: "Dev Ops",
  emailAddress: "dev.ops@example.com",
  publicAlias: "6a1d6c7e-2f0b-4c39-9a54-1f0c2b6d8e41",
  coreRevision: 12,
  timeStamp: "2024-03-01T10:00:00.000Z",
  revision: 12,
  coreAttributes: { Avatar: { value: { value: AVATAR, contentType: "image/png" } } },
}

interface FakeDevOps extends LocalServer {
  appId: string
  secret: string
  user: Record<string, unknown>
  tokenAnswer: { status: number; body: unknown } | undefined
  issued: string[]
  refreshTokens: Set<string>
  reset(): void
}

async function startFakeDevOps(): Promise<FakeDevOps> {
  const codes = new Map<string, string>()
  const access = new Set<string>()
  const d = {} as FakeDevOps
  const fresh = (prefix: string) => freshValue(d.issued, prefix)
  const server = await startLocalServer(async (req, res, r) => {
    if (r.path === AUTHORIZE && r.method === "GET") {
      const q = r.query
      if (
        q.get("client_id") !== d.appId ||
        q.get("response_type") !== "Assertion" ||
        q.get("redirect_uri") !== CALLBACK
      ) {
        return sendJson(res, r, 400, { error: "invalid_request" })
      }
      const back = new URL(CALLBACK)
      const code = fresh("code-")
      codes.set(code, q.get("redirect_uri")!)
      back.searchParams.set("code", code)
      if (q.has("state")) back.searchParams.set("state", q.get("state")!)
      return sendRedirect(res, r, back.href)
    }
    if (r.path === TOKEN && r.method === "POST") {
      if (d.tokenAnswer) return sendJson(res, r, d.tokenAnswer.status, d.tokenAnswer.body)
      const body = new URLSearchParams(r.body)
      const keys = [...body.keys()].sort()
      if (keys.join() !== "assertion,client_assertion,client_assertion_type,grant_type,redirect_uri")
        return sendJson(res, r, 400, { Error: "InvalidRequest", ErrorDescription: `fields ${keys.join()}` })
      if (
        body.get("client_assertion_type") !== "urn:ietf:params:oauth:client-assertion-type:jwt-bearer" ||
        body.get("client_assertion") !== d.secret
      ) {
        return sendJson(res, r, 401, { Error: "invalid_client" })
      }
      if (body.get("redirect_uri") !== CALLBACK) return sendJson(res, r, 400, { Error: "invalid_redirect_uri" })
      const grant = body.get("grant_type")
      const assertion = body.get("assertion") ?? ""
      if (grant === "urn:ietf:params:oauth:grant-type:jwt-bearer") {
        if (!codes.delete(assertion)) return sendJson(res, r, 400, { Error: "invalid_grant" })
      } else if (grant === "refresh_token") {
        if (!d.refreshTokens.delete(assertion)) return sendJson(res, r, 400, { Error: "invalid_grant" })
      } else {
        return sendJson(res, r, 400, { Error: "unsupported_grant_type" })
      }
      const token = fresh("eyJ0eXAi.access.")
      const refresh = fresh("eyJ0eXAi.refresh.")
      access.add(token)
      d.refreshTokens.add(refresh)
      return sendJson(res, r, 200, {
        access_token: token,
        token_type: "jwt-bearer",
        expires_in: "3599",
        refresh_token: refresh,
        scope: "vso.profile",
      })
    }
    if (r.path === PROFILE && r.method === "GET") {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1]
      if (!token || !access.has(token))
        return sendJson(res, r, 401, { message: "TF400813: The user is not authorized" })
      return sendJson(res, r, 200, d.user)
    }
  })
  Object.assign(d, server, {
    appId: "0F6B3E9A-5D2C-4B9E-8E77-0A1B2C3D4E5F",
    secret: `eyJ0eXAiOiJKV1Qi.${randomBytes(12).toString("base64url")}`,
    issued: [],
    refreshTokens: new Set<string>(),
    reset() {
      d.user = structuredClone(USER)
      d.tokenAnswer = undefined
      d.requests.length = 0
    },
  })
  d.reset()
  return d
}

let d: FakeDevOps
useFakeProvider(startFakeDevOps, (server) => {
  d = server
})
afterEach(() => {
  vi.unstubAllEnvs()
})

type P = AuthConfig["providers"][number]

function devops(extra: Record<string, unknown> = {}): P {
  return AzureDevOps({
    clientId: d.appId,
    clientSecret: d.secret,
    [customFetch]: routingFetch(ORIGINS, d.url).fetch,
    ...extra,
  }) as P
}

async function fullSignIn(provider: P, query?: string) {
  const s = setup([provider])
  const started = await startSignIn(s.config, "azure-devops", { query })
  expect(started.res.status).toBe(302)
  const back = await visitProvider(localize(started.location!, ORIGINS, d.url))
  const res = await callback(s.config, back, started.jar)
  return { s, started, back, res }
}

describe("Azure DevOps", () => {
  it("has Auth.js's id, name, type, scope and endpoints, state check only (no PKCE), and a readable button", () => {
    const p = resolveOAuthProvider(AzureDevOps({ clientId: "a", clientSecret: "b" }), undefined)
    expect([p.id, p.name, p.type]).toEqual(["azure-devops", "Azure DevOps", "oauth"])
    expect([...p.checks]).toEqual(["state"])
    expect(p.authorization.url?.href).toBe("https://app.vssps.visualstudio.com/oauth2/authorize")
    expect(p.authorization.params).toEqual({ response_type: "Assertion", scope: "vso.profile" })
    // Auth.js 0.41.3 points its token URL at /oauth2/authorize; the guide's token endpoint is /oauth2/token.
    expect(p.token.url?.href).toBe("https://app.vssps.visualstudio.com/oauth2/token")
    expect(typeof p.token.request).toBe("function")
    expect(p.userinfo.url?.href).toBe(
      "https://app.vssps.visualstudio.com/_apis/profile/profiles/me?details=true&coreAttributes=Avatar&api-version=6.0",
    )
    expect(p.style).toMatchObject({ bg: "#0078d4", text: "#fff" })
    expect(p.style?.logo).toMatch(/^data:image\/svg\+xml,/)
    expect(
      resolveOAuthProvider(AzureDevOps({ clientId: "a", scope: "vso.profile vso.code" }), undefined).authorization
        .params.scope,
    ).toBe("vso.profile vso.code")
  })

  it("signs in: response_type=Assertion, the JWT-bearer grant with the secret as client assertion, the profile with its avatar", async () => {
    const { s, started, res } = await fullSignIn(devops())
    const auth = started.location!
    expect(auth.origin + auth.pathname).toBe(`https://app.vssps.visualstudio.com${AUTHORIZE}`)
    expect(Object.fromEntries(auth.searchParams)).toMatchObject({
      client_id: d.appId,
      response_type: "Assertion",
      scope: "vso.profile",
      redirect_uri: CALLBACK,
    })
    expect(auth.searchParams.get("state")).toBeTruthy()
    expect(auth.searchParams.has("code_challenge")).toBe(false)
    expectSignedIn(res, s.log)

    const [token] = d.to(TOKEN)
    expect(token?.status).toBe(200)
    expect(token?.originalUrl).toBe("https://app.vssps.visualstudio.com/oauth2/token")
    expect(token?.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded/)
    // No Basic header: the secret travels only as the client assertion.
    expect(token?.headers.authorization).toBeUndefined()
    const body = Object.fromEntries(new URLSearchParams(token?.body))
    expect(body).toEqual({
      client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
      client_assertion: d.secret,
      grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
      assertion: expect.stringMatching(/^code-/),
      redirect_uri: CALLBACK,
    })
    const [profile] = d.to(PROFILE)
    expect(profile?.headers.authorization).toMatch(/^Bearer eyJ0eXAi\.access\./)

    expect((await sessionOf(s.config, started.jar))?.user).toEqual({
      name: "Dev Ops",
      email: "dev.ops@example.com",
      image: `data:image/png;base64,${AVATAR}`,
    })
    const call = s.signInCall()
    expect(call.account).toMatchObject({
      provider: "azure-devops",
      type: "oauth",
      providerAccountId: USER.id,
      token_type: "bearer",
      scope: "vso.profile",
    })
    // expires_in came as the string "3599": stored as a number, and expires_at set from it.
    expect(call.account?.expires_in).toBe(3599)
    expect(call.account?.expires_at).toBeGreaterThan(Date.now() / 1000 + 3500)
  })

  it("a sign-in query cannot change response_type (nor can it for any provider)", async () => {
    const { started, s, res } = await fullSignIn(devops(), "?response_type=token")
    expect(started.location!.searchParams.getAll("response_type")).toEqual(["Assertion"])
    expectSignedIn(res, s.log)
  })

  it("a refused grant is OAuthCallbackError on the error page; nothing signed in", async () => {
    d.tokenAnswer = { status: 400, body: { Error: "invalid_grant", ErrorDescription: "The code has expired" } }
    const { s, res } = await fullSignIn(devops())
    expectRejected(res, s.log, SIGNIN_ERROR("OAuthCallbackError"), "OAuthCallbackError")
    expect(logged(s.log)).not.toContain(d.secret)
  })

  it("an answer without an access token (HTTP 200) is refused as a token response would be", async () => {
    d.tokenAnswer = { status: 200, body: { token_type: "jwt-bearer", expires_in: "3599" } }
    const { s, res } = await fullSignIn(devops())
    expectRejected(res, s.log, SIGNIN_ERROR("OAuthCallbackError"), "OAuthCallbackError")
    expect(d.to(PROFILE)).toEqual([])
  })

  it("a forged state is refused before any token request", async () => {
    const s = setup([devops()])
    const started = await startSignIn(s.config, "azure-devops")
    const back = await visitProvider(localize(started.location!, ORIGINS, d.url))
    back.searchParams.set("state", "forged")
    const res = await callback(s.config, back, started.jar)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(ERROR_PAGE("Configuration"))
    expect(s.log.types()).toEqual(["InvalidCheck"])
    expect(d.to(TOKEN)).toEqual([])
  })

  it("a profile without an id is OAuthProfileParseError", async () => {
    delete d.user.id
    const { s, res } = await fullSignIn(devops())
    // As in Auth.js: not a client-safe error, so the page says Configuration; the log has the real type.
    expectRejected(res, s.log, ERROR_PAGE("Configuration"), "OAuthProfileParseError")
  })

  it("no avatar: image null", async () => {
    delete d.user.coreAttributes
    const { s, started, res } = await fullSignIn(devops())
    expectSignedIn(res, s.log)
    expect((await sessionOf(s.config, started.jar))?.user).toEqual({ name: "Dev Ops", email: "dev.ops@example.com" })
  })

  it("refresh sends grant_type=refresh_token with the refresh token as the assertion and the callback URL", async () => {
    const p = resolveOAuthProvider(devops() as never, undefined)
    d.refreshTokens.add("rt-1")
    const as = await getAuthorizationServer(p)
    const tokens = await refreshTokens(as, p, "rt-1", CALLBACK)
    expect(tokens.access_token).toMatch(/^eyJ0eXAi\.access\./)
    expect(Object.fromEntries(new URLSearchParams(d.to(TOKEN)[0]?.body))).toEqual({
      client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
      client_assertion: d.secret,
      grant_type: "refresh_token",
      assertion: "rt-1",
      redirect_uri: CALLBACK,
    })
    // The same refresh token again: Azure DevOps refuses it, and so does the refresh.
    await expect(refreshTokens(as, p, "rt-1", CALLBACK)).rejects.toThrow()
  })

  it("reads AUTH_AZURE_DEVOPS_ID / _SECRET", async () => {
    vi.stubEnv("AUTH_AZURE_DEVOPS_ID", d.appId)
    vi.stubEnv("AUTH_AZURE_DEVOPS_SECRET", d.secret)
    const config = {
      providers: [AzureDevOps({ [customFetch]: routingFetch(ORIGINS, d.url).fetch } as never)],
    } as AuthConfig
    setEnvDefaults(process.env, config)
    const { s, res } = await fullSignIn(config.providers[0] as P)
    expectSignedIn(res, s.log)
    expect(new URLSearchParams(d.to(TOKEN)[0]?.body).get("client_assertion")).toBe(d.secret)
  })
})

describe("token.request on a custom provider", () => {
  const custom = (request: (ctx: never) => unknown) =>
    ({
      id: "custom",
      name: "Custom",
      type: "oauth",
      clientId: "cid",
      clientSecret: "csecret",
      checks: ["pkce", "state"],
      authorization: `${d.url}/custom/authorize`,
      token: { url: `${d.url}/custom/token`, request },
      userinfo: { url: `${d.url}/custom/me`, request: () => ({ id: "u1", name: "Hook User" }) },
    }) as unknown as P

  async function run(provider: P) {
    const s = setup([provider])
    const started = await startSignIn(s.config, "custom")
    const back = new URL(`${ORIGIN}/auth/callback/custom`)
    back.searchParams.set("code", "the-code")
    back.searchParams.set("state", started.location!.searchParams.get("state")!)
    const res = await callback(s.config, back, started.jar)
    return { s, started, res }
  }

  it("gets Auth.js's context (params, checks.code_verifier, provider with clientSecret and callbackUrl) and its tokens are used", async () => {
    const seen: Record<string, unknown>[] = []
    const { s, started, res } = await run(
      custom(((ctx: {
        params: Record<string, string>
        checks: { code_verifier?: string }
        provider: Record<string, unknown>
        grantType: string
        url: string
      }) => {
        seen.push({
          code: ctx.params.code,
          verifier: ctx.checks.code_verifier,
          secret: ctx.provider.clientSecret,
          callbackUrl: ctx.provider.callbackUrl,
          grantType: ctx.grantType,
          url: ctx.url,
        })
        return { tokens: { access_token: "at-hook", token_type: "bearer" } }
      }) as never),
    )
    expectSignedIn(res, s.log)
    expect(seen).toEqual([
      {
        code: "the-code",
        verifier: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        secret: "csecret",
        callbackUrl: `${ORIGIN}/auth/callback/custom`,
        grantType: "authorization_code",
        url: `${d.url}/custom/token`,
      },
    ])
    expect(started.location!.searchParams.get("response_type")).toBe("code")
    expect(s.signInCall().account).toMatchObject({ access_token: "at-hook", providerAccountId: "u1" })
  })

  it.each([
    ["no tokens object", () => ({})],
    ["no access_token", () => ({ tokens: { token_type: "bearer" } })],
    ["no token_type", () => ({ tokens: { access_token: "x" } })],
    [
      "a throw",
      () => {
        throw new Error("upstream down")
      },
    ],
  ])("%s: OAuthCallbackError, no session", async (_name, request) => {
    const { s, res } = await run(custom(request as never))
    expectRejected(res, s.log, SIGNIN_ERROR("OAuthCallbackError"), "OAuthCallbackError")
  })

  it("a sign-in query cannot set response_type on a provider that does not", async () => {
    const s = setup([custom((() => ({ tokens: { access_token: "a", token_type: "bearer" } })) as never)])
    const started = await startSignIn(s.config, "custom", { query: "?response_type=token%20id_token" })
    expect(started.location!.searchParams.getAll("response_type")).toEqual(["code"])
  })
})
