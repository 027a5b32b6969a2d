// Microsoft Entra ID with a multi-tenant issuer (`common`, `organizations`), end to end through Auth() against a local
// login.microsoftonline.com on 127.0.0.1 that answers as Microsoft's v2.0 endpoints do:
// - the discovery document of `/common/v2.0` and `/organizations/v2.0` names the template issuer
//   `https://login.microsoftonline.com/{tenantid}/v2.0`; a tenant's own document names its concrete issuer;
// - each RS256 ID token carries the user's tenant id in `tid` and `iss` = the template with that tid filled in;
// - keys from one JWKS for every tenant.
// The provider declares `issuerTemplate: { placeholder: "{tenantid}", claim: "tid" }`; the checks are that a token's
// `iss` must be exactly its own tenant's issuer, that a discovery template must give back the configured issuer, and
// that a tenant-specific issuer still accepts only its own tenant.
import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { customFetch } from "../../src/index.js"
import type { AuthConfig } from "../../src/index.js"
import { clearDiscoveryCache } from "../../src/protocols/oauth2.js"
import MicrosoftEntraID from "../../src/providers/microsoft-entra-id.js"
import { ORIGIN } from "../support/flow-kit.js"
import {
  ERROR_PAGE,
  SIGNIN_ERROR,
  type LocalServer,
  callback,
  expectRejected,
  expectSignedIn,
  installFetchGuard,
  localize,
  routingFetch,
  sendJson,
  sendRedirect,
  sessionOf,
  setup,
  startLocalServer,
  startSignIn,
  visitProvider,
  type FetchGuard,
} from "../support/provider-kit.js"

const LOGIN = "https://login.microsoftonline.com"
const ORIGINS = [LOGIN, "https://graph.microsoft.com"] as const
const CALLBACK = `${ORIGIN}/auth/callback/microsoft-entra-id`
const TEMPLATE = `${LOGIN}/{tenantid}/v2.0`
const CLIENT_ID = "6731de76-14a6-49ae-97bc-6eba6914391e"
const CLIENT_SECRET = "entra-secret"
const TENANT_A = "72f988bf-86f1-41af-91ab-2d7cd011db47"
const TENANT_B = "9188040d-6c67-4c5b-b112-36a304b66dad"

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
const JWK = { ...publicKey.export({ format: "jwk" }), kid: "entra-key-1", use: "sig", alg: "RS256" }

function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url")
}
function idToken(claims: Record<string, unknown>): string {
  const head = `${b64({ alg: "RS256", typ: "JWT", kid: JWK.kid })}.${b64(claims)}`
  return `${head}.${sign("sha256", Buffer.from(head), privateKey).toString("base64url")}`
}

interface FakeEntra extends LocalServer {
  /** The `issuer` each discovery path answers (default: the template for common/organizations, else concrete). */
  discoveryIssuer: (tenantSegment: string) => string
  /** Claims of the next ID token (tid and iss derived from `tid` unless set). */
  claims: Record<string, unknown>
  /** Added to the authorization response (RFC 9207 `iss`), when set. */
  authorizationIss: string | undefined
}

let entra: FakeEntra
let guard: FetchGuard

async function startFakeEntra(): Promise<FakeEntra> {
  const codes = new Map<string, string | undefined>()
  const e = {} as FakeEntra
  const server = await startLocalServer(async (_req, res, r) => {
    const discovery = /^\/([^/]+)\/v2\.0\/\.well-known\/openid-configuration$/.exec(r.path)
    if (discovery) {
      const t = discovery[1]!
      return sendJson(res, r, 200, {
        issuer: e.discoveryIssuer(t),
        authorization_endpoint: `${LOGIN}/${t}/oauth2/v2.0/authorize`,
        token_endpoint: `${LOGIN}/${t}/oauth2/v2.0/token`,
        userinfo_endpoint: "https://graph.microsoft.com/oidc/userinfo",
        jwks_uri: `${LOGIN}/${t}/discovery/v2.0/keys`,
        response_types_supported: ["code", "id_token", "code id_token"],
        subject_types_supported: ["pairwise"],
        id_token_signing_alg_values_supported: ["RS256"],
        token_endpoint_auth_methods_supported: ["client_secret_post", "private_key_jwt", "client_secret_basic"],
      })
    }
    if (/^\/[^/]+\/discovery\/v2\.0\/keys$/.test(r.path)) return sendJson(res, r, 200, { keys: [JWK] })
    if (/^\/[^/]+\/oauth2\/v2\.0\/authorize$/.test(r.path)) {
      const code = `code-${randomBytes(8).toString("hex")}`
      codes.set(code, r.query.get("code_challenge") ?? undefined)
      const back = new URL(r.query.get("redirect_uri")!)
      back.searchParams.set("code", code)
      if (r.query.has("state")) back.searchParams.set("state", r.query.get("state")!)
      if (e.authorizationIss) back.searchParams.set("iss", e.authorizationIss)
      return sendRedirect(res, r, back.href)
    }
    if (/^\/[^/]+\/oauth2\/v2\.0\/token$/.test(r.path)) {
      const body = new URLSearchParams(r.body)
      const code = body.get("code") ?? ""
      const challenge = codes.get(code)
      if (
        !codes.delete(code) ||
        createHash("sha256")
          .update(body.get("code_verifier") ?? "")
          .digest("base64url") !== challenge
      ) {
        return sendJson(res, r, 400, { error: "invalid_grant" })
      }
      const now = Math.floor(Date.now() / 1000)
      const tid = e.claims.tid
      const claims = {
        ver: "2.0",
        aud: CLIENT_ID,
        iat: now,
        nbf: now,
        exp: now + 3600,
        sub: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
        oid: "00000000-0000-0000-66f3-3332eca7ea81",
        name: "Ada Entra",
        preferred_username: "ada@contoso.com",
        email: "ada@contoso.com",
        ...(typeof tid === "string" ? { iss: `${LOGIN}/${tid}/v2.0` } : {}),
        ...e.claims,
      }
      return sendJson(res, r, 200, {
        token_type: "Bearer",
        scope: "openid profile email User.Read",
        expires_in: 3599,
        access_token: `at-${randomBytes(8).toString("hex")}`,
        id_token: idToken(claims),
      })
    }
    if (r.path.startsWith("/v1.0/me/photos/")) return sendJson(res, r, 404, { error: { code: "ImageNotFound" } })
  })
  return Object.assign(e, server, { discoveryIssuer: () => TEMPLATE, claims: {}, authorizationIss: undefined })
}

beforeAll(async () => {
  entra = await startFakeEntra()
})
afterAll(async () => {
  await entra.stop()
})
beforeEach(() => {
  guard = installFetchGuard()
  clearDiscoveryCache()
  entra.requests.length = 0
  entra.discoveryIssuer = (t) => (t === "common" || t === "organizations" ? TEMPLATE : `${LOGIN}/${t}/v2.0`)
  entra.claims = { tid: TENANT_A }
  entra.authorizationIss = undefined
})
afterEach(() => {
  guard.restore()
  expect(guard.blocked, "no request left 127.0.0.1").toEqual([])
})

type P = AuthConfig["providers"][number]

function provider(issuer?: string): P {
  return MicrosoftEntraID({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    ...(issuer ? { issuer } : {}),
    [customFetch]: routingFetch(ORIGINS, entra.url).fetch,
  }) as P
}

async function signIn(p: P) {
  const s = setup([p])
  const started = await startSignIn(s.config, "microsoft-entra-id")
  if (started.res.status !== 302 || !started.location || started.location.origin === ORIGIN)
    return { s, started, res: started.res }
  const back = await visitProvider(localize(started.location, ORIGINS, entra.url))
  return { s, started, res: await callback(s.config, back, started.jar) }
}

describe("Microsoft Entra ID, multi-tenant issuers", () => {
  it.each([
    ["common (the default)", undefined],
    ["organizations", `${LOGIN}/organizations/v2.0`],
  ])("%s: a user of any tenant signs in; the ID token's iss is checked for its own tid", async (_name, issuer) => {
    for (const tid of [TENANT_A, TENANT_B]) {
      entra.claims = { tid }
      const { s, started, res } = await signIn(provider(issuer))
      expectSignedIn(res, s.log)
      expect(
        started.location!.href.startsWith(`${LOGIN}/${issuer ? "organizations" : "common"}/oauth2/v2.0/authorize?`),
      ).toBe(true)
      expect((await sessionOf(s.config, started.jar))?.user).toEqual({ name: "Ada Entra", email: "ada@contoso.com" })
      // The tenant reaches the callbacks, so an app can limit which tenants may sign in.
      expect(s.signInCall().profile).toMatchObject({ tid, iss: `${LOGIN}/${tid}/v2.0` })
    }
  })

  it.each([
    ["an iss naming another tenant than its tid", { tid: TENANT_A, iss: `${LOGIN}/${TENANT_B}/v2.0` }],
    ["an iss on another host", { tid: TENANT_A, iss: `https://evil.example/${TENANT_A}/v2.0` }],
    ["the template itself as iss", { tid: TENANT_A, iss: TEMPLATE }],
    ["no tid", { tid: undefined, iss: `${LOGIN}/${TENANT_A}/v2.0` }],
    ["a tid that is not a plain segment", { tid: `${TENANT_A}/v2.0/x`, iss: `${LOGIN}/${TENANT_A}/v2.0/x/v2.0` }],
  ])("%s: refused, no session", async (_name, claims) => {
    entra.claims = claims
    const { s, res } = await signIn(provider())
    expectRejected(res, s.log, SIGNIN_ERROR("OAuthCallbackError"), "OAuthCallbackError")
  })

  it("a discovery template that does not give back the configured issuer is refused before the user leaves", async () => {
    entra.discoveryIssuer = () => "https://evil.example/{tenantid}/v2.0"
    const { s, res } = await signIn(provider())
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(SIGNIN_ERROR("Configuration"))
    expect(s.log.types()).toEqual(["OAuthSignInError"])
    expect(s.log.text()).toMatch(/issuer/)
    expect(entra.requests.some((r) => r.path.includes("/authorize"))).toBe(false)
  })

  it("an authorization-response iss must fit the template", async () => {
    entra.authorizationIss = `${LOGIN}/${TENANT_A}/v2.0`
    const ok = await signIn(provider())
    expectSignedIn(ok.res, ok.s.log)
    entra.authorizationIss = `https://evil.example/${TENANT_A}/v2.0`
    const bad = await signIn(provider())
    expect(bad.res.headers.get("location")).toBe(ERROR_PAGE("Configuration"))
    expect(entra.requests.filter((r) => r.path.endsWith("/token"))).toHaveLength(1)
  })

  it("a tenant-specific issuer accepts its own tenant only", async () => {
    const issuer = `${LOGIN}/${TENANT_A}/v2.0`
    entra.claims = { tid: TENANT_A }
    const ok = await signIn(provider(issuer))
    expectSignedIn(ok.res, ok.s.log)
    entra.claims = { tid: TENANT_B }
    const other = await signIn(provider(issuer))
    expectRejected(other.res, other.s.log, SIGNIN_ERROR("OAuthCallbackError"), "OAuthCallbackError")
  })
})
