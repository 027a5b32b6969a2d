// Provider catalogue, batch "misc": descope, frontegg, passage, beyondidentity, simplelogin, vipps, bankid-no (OIDC),
// boxyhq-saml (OAuth 2 in front of SAML), and the mail APIs mailgun and loops.
// 1. Shape: id, name, type, checks, scope, endpoints, style, exports-map entry.
// 2. OIDC sign-in through Auth() against the mock OP given as `issuer` (the fixed issuers are overridden); the claims each
//    provider documents are replayed and mapped; a profile without `sub` gives OAuthProfileParseError.
// 3. boxyhq-saml: a Jackson deployment's host routed to the catalogue player (test/support/catalogue-kit.ts) replaying
//    Jackson's authorize, token and userinfo answers; the generic-issuer ones (passage, beyondidentity, descope) against
//    oidc-provider with only issuer, clientId, clientSecret.
// 4. AUTH_<ID>_ID / _SECRET / _ISSUER (and AUTH_<ID>_KEY for the mail APIs) from env.
// 5. Mailgun and Loops against local fakes (test/support/mail-api-fake.ts) checking the documented request, and the link
//    mailed signs in.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Auth, setEnvDefaults } from "../../../src/index.js"
import type { AuthConfig } from "../../../src/index.js"
import { MemoryAdapter } from "../../../src/adapters/memory.js"
import { resolveOAuthProvider, withOptions } from "../../../src/config/oauth.js"
import { EmailSignInError } from "../../../src/errors.js"
import type { EmailConfig } from "../../../src/providers/types.js"
import { customFetch } from "../../../src/symbols.js"
import Descope from "../../../src/providers/descope.js"
import Frontegg from "../../../src/providers/frontegg.js"
import Passage from "../../../src/providers/passage.js"
import BeyondIdentity from "../../../src/providers/beyondidentity.js"
import SimpleLogin from "../../../src/providers/simplelogin.js"
import Vipps from "../../../src/providers/vipps.js"
import BankIDNorway from "../../../src/providers/bankid-no.js"
import SAMLJackson from "../../../src/providers/boxyhq-saml.js"
import Mailgun from "../../../src/providers/mailgun.js"
import Loops from "../../../src/providers/loops.js"
import { CookieJar, ORIGIN, SECRET, fetchCsrf, get, postForm } from "../../support/flow-kit.js"
import { spyLogger } from "../../support/logger.js"
import { FakeApi } from "../../support/mail-api-fake.js"
import type { MockOp } from "../../support/mock-op.js"
import { OP_USERS, type OidcOp } from "../../support/oidc-op.js"
import { expectSignedIn, setup, signInThrough } from "../../support/provider-kit.js"
import {
  type Factory,
  type IssuerRow,
  type PlayedProvider,
  expectAuthorizeRequest,
  expectBackAtApp,
  expectEnvIssuer,
  expectExported,
  expectIssuerShape,
  expectProfileParseError,
  expectSessionUserLoose,
  expectStyle,
  expectTokenRequest,
  omit,
  originAndPath,
  signInAtRealOp,
  useMockOp,
  usePlayer,
  useRealOp,
  withoutSub,
} from "../../support/catalogue-kit.js"

interface Row extends IssuerRow {
  /** The fixed issuer, or undefined when it comes from options / AUTH_<ID>_ISSUER. */
  issuer: string | undefined
  /** Fixed endpoints given an issuer of ISSUER (undefined: from discovery). */
  endpoints?: { authorization: string; token: string; userinfo: string; wellKnown?: string }
  extraParams?: Record<string, string>
  auth: "client_secret_basic" | "client_secret_post"
  /** The profile comes from userinfo (`idToken: false`). */
  userinfo: boolean
}

const ISSUER = "https://idp.example.com/tenant"
const ROWS: Row[] = [
  {
    id: "descope",
    name: "Descope",
    factory: Descope as Factory,
    checks: ["pkce", "state"],
    scope: "openid profile email",
    issuer: undefined,
    auth: "client_secret_basic",
    userinfo: false,
    bg: "#1c1c23",
    text: "#fff",
    claims: {
      name: "Ada Descope",
      email: "ada@example.com",
      email_verified: true,
      picture: "https://img.example/d.png",
    },
    user: { name: "Ada Descope", email: "ada@example.com", image: "https://img.example/d.png" },
  },
  {
    id: "frontegg",
    name: "Frontegg",
    factory: Frontegg as Factory,
    checks: ["pkce"],
    scope: "openid profile email",
    issuer: undefined,
    auth: "client_secret_basic",
    userinfo: false,
    endpoints: {
      authorization: `${ISSUER}/oauth/authorize`,
      token: `${ISSUER}/oauth/token`,
      userinfo: `${ISSUER}/identity/resources/users/v2/me`,
      wellKnown: `${ISSUER}/oauth/.well-known/openid-configuration`,
    },
    bg: "#1b2a4a",
    text: "#fff",
    claims: {
      name: "Ada Frontegg",
      email: "ada@example.com",
      picture: undefined,
      profilePictureUrl: "https://img.example/f.png",
      tenantId: "t1",
    },
    user: { name: "Ada Frontegg", email: "ada@example.com", image: "https://img.example/f.png" },
  },
  {
    id: "passage",
    name: "Passage",
    factory: Passage as Factory,
    checks: ["pkce"],
    scope: "openid profile email",
    issuer: undefined,
    auth: "client_secret_basic",
    userinfo: false,
    bg: "#3d53f6",
    text: "#fff",
    claims: { name: undefined, email: "ada@example.com", email_verified: true, phone_number: "+4712345678" },
    user: { name: null, email: "ada@example.com", image: null },
  },
  {
    id: "beyondidentity",
    name: "Beyond Identity",
    factory: BeyondIdentity as Factory,
    checks: ["pkce"],
    scope: "openid profile email",
    issuer: undefined,
    auth: "client_secret_basic",
    userinfo: false,
    bg: "#3b62b0",
    text: "#fff",
    claims: {
      name: undefined,
      preferred_username: "ada.bi",
      email: "ada@example.com",
      picture: "https://img.example/ignored.png",
    },
    user: { name: "ada.bi", email: "ada@example.com", image: null },
  },
  {
    id: "simplelogin",
    name: "SimpleLogin",
    factory: SimpleLogin as Factory,
    checks: ["pkce"],
    scope: "openid profile email",
    issuer: "https://app.simplelogin.io",
    auth: "client_secret_basic",
    userinfo: false,
    bg: "#c2105a",
    text: "#fff",
    claims: {
      name: "Ada SL",
      email: "ada@simplelogin.example",
      email_verified: true,
      avatar_url: "https://img.example/sl.png",
      client: "App",
    },
    user: { name: "Ada SL", email: "ada@simplelogin.example", image: "https://img.example/sl.png" },
  },
  {
    id: "vipps",
    name: "Vipps",
    factory: Vipps as Factory,
    checks: ["pkce", "state", "nonce"],
    scope: "openid name email",
    issuer: "https://api.vipps.no/access-management-1.0/access/",
    auth: "client_secret_basic",
    userinfo: true,
    bg: "#ff5b24",
    text: "#000",
    claims: {
      given_name: "Ada",
      family_name: "Nordmann",
      email: "ada@vipps.example",
      email_verified: true,
      phone_number: "4712345678",
      sid: "s-1",
    },
    user: { name: "Ada Nordmann", email: "ada@vipps.example", image: null },
  },
  {
    id: "bankid-no",
    name: "BankID Norge",
    factory: BankIDNorway as Factory,
    checks: ["pkce", "state", "nonce"],
    scope: "openid profile email",
    issuer: "https://auth.bankid.no/auth/realms/prod",
    auth: "client_secret_post",
    userinfo: true,
    extraParams: { ui_locales: "no", login_hint: "BIS" },
    bg: "#39134c",
    text: "#fff",
    claims: {
      name: "Ada Nordmann",
      given_name: "Ada",
      family_name: "Nordmann",
      birthdate: "1990-12-10",
      email: undefined,
      email_verified: undefined,
    },
    user: { name: "Ada Nordmann", email: null, image: null },
  },
]

const urlOf = originAndPath

// ---------------------------------------------------------------------------------------------
// 1. Shape

describe("shape", () => {
  it.each(ROWS)("$id: id, name, type, checks, scope, issuer, endpoints, client auth, style, exports map", (row) => {
    const { p, r } = expectIssuerShape(row, row.issuer ?? ISSUER, row.issuer ? {} : { issuer: ISSUER }, row.extraParams)
    expect(r.client.token_endpoint_auth_method).toBe(row.auth)
    expect(p.idToken ?? true).toBe(!row.userinfo)
    expect(urlOf(r.authorization.url)).toBe(row.endpoints?.authorization)
    expect(urlOf(r.token.url)).toBe(row.endpoints?.token)
    expect(urlOf(r.userinfo.url)).toBe(row.endpoints?.userinfo)
    expect(r.wellKnown?.href).toBe(row.endpoints?.wellKnown)
    expectExported(row.id)
  })

  it("descope: the issuer defaults to https://api.descope.com/<project id> (the client id); an explicit one wins", () => {
    expect(resolveOAuthProvider(Descope({ clientId: "P2abc" }), undefined).issuer).toBe("https://api.descope.com/P2abc")
    expect(
      resolveOAuthProvider(Descope({ clientId: "P2abc", issuer: "https://auth.example.com/P2abc" }), undefined).issuer,
    ).toBe("https://auth.example.com/P2abc")
  })

  it("the issuer-based ones refuse to resolve without an issuer; vipps and bankid-no take a test-environment issuer", () => {
    for (const f of [Frontegg, Passage, BeyondIdentity] as Factory[])
      expect(() => resolveOAuthProvider(f({ clientId: "x" }), undefined)).toThrow(/needs an `issuer`/)
    expect(
      resolveOAuthProvider(Vipps({ issuer: "https://apitest.vipps.no/access-management-1.0/access/" }), undefined)
        .issuer,
    ).toBe("https://apitest.vipps.no/access-management-1.0/access/")
    expect(Frontegg({ issuer: "https://app-x.frontegg.com/" }).issuer).toBe("https://app-x.frontegg.com")
  })

  it("boxyhq-saml: OAuth 2 endpoints under the Jackson URL, provider=saml, PKCE and state, style, exports map", () => {
    const p = SAMLJackson({ issuer: `${JACKSON}/`, clientId: "dummy", clientSecret: "dummy" })
    expect(p).toMatchObject({ id: "boxyhq-saml", name: "BoxyHQ SAML", type: "oauth", checks: ["pkce", "state"] })
    const r = resolveOAuthProvider(p, undefined)
    expect(urlOf(r.authorization.url)).toBe(JACKSON_PLAYED.authorization)
    expect(r.authorization.params.provider).toBe("saml")
    expect(urlOf(r.token.url)).toBe(JACKSON_PLAYED.token)
    expect(urlOf(r.userinfo.url)).toBe(JACKSON_PLAYED.userinfo)
    expectStyle(p, "#25c2a0", "#000")
    expectExported("boxyhq-saml")
    expect(() => resolveOAuthProvider(SAMLJackson({ clientId: "x" }), undefined)).toThrow(/set `issuer`/)
  })
})

// ---------------------------------------------------------------------------------------------
// 2. OIDC sign-in against the mock OP

describe("sign-in through Auth() (mock OP as the issuer)", () => {
  let op: MockOp
  useMockOp({ clientId: "misc-client" }, (o) => void (op = o))

  const provider = (row: Row, extra: Record<string, unknown> = {}) => {
    op.tokenEndpointAuthMethod = row.auth
    const overrides = row.endpoints
      ? {
          authorization: op.endpoints.authorization,
          token: op.endpoints.token,
          userinfo: op.endpoints.userinfo,
          wellKnown: op.endpoints.discovery,
        }
      : {}
    const p = row.factory({ clientId: op.clientId, clientSecret: op.clientSecret, issuer: op.issuer, ...extra })
    Object.assign(p.options!, overrides)
    return p
  }

  it.each(ROWS)("$id: the documented claims are the profile, mapped to the session user", async (row) => {
    op.subject = `${row.id}-user-1`
    if (row.userinfo) op.userinfoClaims = { ...row.claims }
    else op.extraClaims = row.claims
    // BankID registers signed UserInfo answers (client.userinfo_signed_response_alg RS256).
    op.signedUserinfo = row.id === "bankid-no"
    const { config, log, signInCall } = setup([provider(row)])
    const { started, back, res } = await signInThrough(config, row.id)
    expectSignedIn(res, log)
    expectAuthorizeRequest(started.location!, { ...row, params: row.extraParams })
    expect(back.searchParams.get("iss")).toBe(op.issuer)
    expect(op.counts.userinfo).toBe(row.userinfo ? 1 : 0)
    expect(signInCall().account).toMatchObject({
      provider: row.id,
      type: "oidc",
      providerAccountId: `${row.id}-user-1`,
    })
    await expectSessionUserLoose(config, started.jar, row.user)
  })

  it.each(ROWS)(
    "$id: a profile without an id gives OAuthProfileParseError (error page, Configuration)",
    async (row) => {
      const { config, log } = setup([withoutSub(provider(row), row.claims)])
      const { res } = await signInThrough(config, row.id)
      expectProfileParseError(res, log)
    },
  )
})

// ---------------------------------------------------------------------------------------------
// 3a. boxyhq-saml: a Jackson deployment (jackson.example.com) routed to the catalogue player

const JACKSON = "https://jackson.example.com"
const JACKSON_PLAYED: PlayedProvider = {
  id: "boxyhq-saml",
  authorization: `${JACKSON}/api/oauth/authorize`,
  token: `${JACKSON}/api/oauth/token`,
  userinfo: `${JACKSON}/api/oauth/userinfo`,
  tokenAnswer: (accessToken) => ({ access_token: accessToken, token_type: "bearer", expires_in: 300 }),
}

describe("boxyhq-saml sign-in against a Jackson played on 127.0.0.1 (authorize, token, userinfo replayed)", () => {
  const player = usePlayer()
  const profile = {
    id: "jackson-user-1",
    email: "ada@corp.example",
    firstName: "Ada",
    lastName: "Lovelace",
    requested: { tenant: "corp.example", product: "app" },
  }
  const signIn = (body: Record<string, unknown>, given: Record<string, unknown> = {}) =>
    player.signIn(JACKSON_PLAYED, SAMLJackson as Factory, {
      profile: body,
      clientId: "dummy",
      clientSecret: "dummy",
      given: { issuer: JACKSON, ...given },
    })

  it("maps id, first + last name and e-mail; tenant and product go as authorization params", async () => {
    const { s, started, authUrl, res, pl } = await signIn(profile, {
      authorization: { params: { tenant: "corp.example", product: "app" } },
    })
    expectSignedIn(res, s.log)
    expectAuthorizeRequest(authUrl, {
      id: "boxyhq-saml",
      checks: ["pkce", "state"],
      params: { provider: "saml", tenant: "corp.example", product: "app" },
    })
    expectTokenRequest(pl, { checks: ["pkce", "state"] })
    expect(s.signInCall().account).toMatchObject({
      provider: "boxyhq-saml",
      type: "oauth",
      providerAccountId: "jackson-user-1",
    })
    await expectSessionUserLoose(s.config, started.jar, {
      name: "Ada Lovelace",
      email: "ada@corp.example",
      image: null,
    })
  })

  it("a profile without an id gives OAuthProfileParseError", async () => {
    const { s, res } = await signIn(omit(profile, "id"))
    expectProfileParseError(res, s.log)
  })
})

// ---------------------------------------------------------------------------------------------
// 3b. Generic-issuer providers against oidc-provider, with only issuer, clientId and clientSecret

describe("full flow against oidc-provider", () => {
  let realOp: OidcOp
  const olivia = OP_USERS[0]!
  const GENERIC = ROWS.filter((r) => ["passage", "beyondidentity", "descope"].includes(r.id))
  useRealOp(
    GENERIC.map((r) => r.id),
    (o) => void (realOp = o),
  )

  it.each(GENERIC)("$id: login + consent at the OP, back with a session", async (row) => {
    const flow = await signInAtRealOp(realOp, row.factory, row.id)
    expectBackAtApp(flow)
    expect(flow.user?.email).toBe(olivia.email)
    expect(flow.authorization.get("scope")).toBe(row.scope)
  })
})

// ---------------------------------------------------------------------------------------------
// 4. Env

describe("AUTH_<ID>_ID / _SECRET / _ISSUER / _KEY", () => {
  const ALL = [
    ...ROWS.map((r) => ({ id: r.id, factory: r.factory, fixed: r.issuer !== undefined })),
    { id: "boxyhq-saml", factory: SAMLJackson as Factory, fixed: false },
  ]

  it.each(ALL)("$id: setEnvDefaults and the resolve path read them", ({ id, factory, fixed }) => {
    const issuer = `https://${id}.example.com`
    // Through process.env a fixed issuer (simplelogin, vipps, bankid-no) stays; the others take AUTH_<ID>_ISSUER.
    const p = expectEnvIssuer(id, factory, issuer, !fixed)
    if (id === "boxyhq-saml")
      expect(urlOf(resolveOAuthProvider(p, undefined).token.url)).toBe(`${issuer}/api/oauth/token`)
  })

  it.each([
    { id: "mailgun", factory: Mailgun },
    { id: "loops", factory: Loops },
  ])("$id: AUTH_<ID>_KEY becomes apiKey", ({ id, factory }) => {
    const config = { providers: [factory] } as unknown as AuthConfig
    setEnvDefaults({ [`AUTH_${id.toUpperCase()}_KEY`]: "env-key" }, config)
    expect((config.providers[0] as EmailConfig).apiKey).toBe("env-key")
  })
})

// ---------------------------------------------------------------------------------------------
// 5. The mail APIs: Mailgun and Loops against local fakes of their documented requests

const KEY = "key-0123456789abcdefSECRET"
const TO = "alice@example.test"
const LINK = `http://127.0.0.1:3000/auth/callback/x?${new URLSearchParams({ callbackUrl: "http://127.0.0.1:3000/dashboard", token: "f".repeat(64), email: TO })}`
// Mailgun: POST /v3/<domain>/messages, Basic api:<key>, form fields from, to, subject, text/html; 200 {id, message}.
const mailgun = new FakeApi((s) => {
  const m = /^\/v3\/([^/]+)\/messages$/.exec(s.path)
  if (s.method !== "POST" || !m) return { status: 404, body: { message: "Not Found" } }
  if (s.headers.authorization !== `Basic ${Buffer.from(`api:${KEY}`).toString("base64")}`)
    return { status: 401, body: { message: "Invalid private key" } }
  if (!/^application\/x-www-form-urlencoded|^multipart\/form-data/.test(s.headers["content-type"] ?? ""))
    return { status: 400, body: { message: "unsupported content type" } }
  const f = new URLSearchParams(s.body)
  for (const k of ["from", "to", "subject"])
    if (!f.get(k)) return { status: 400, body: { message: `${k} parameter is missing` } }
  if (!f.get("text") && !f.get("html"))
    return { status: 400, body: { message: "Need at least one of 'text' or 'html' parameters specified" } }
  return { status: 200, body: { id: `<20260101.1@${m[1]}>`, message: "Queued. Thank you." } }
})
// Loops: POST /api/v1/transactional, Bearer key, JSON {transactionalId, email, dataVariables}; 200 {success: true}.
const loops = new FakeApi((s) => {
  if (s.method !== "POST" || s.path !== "/api/v1/transactional")
    return { status: 404, body: { success: false, message: "Not found" } }
  if (s.headers.authorization !== `Bearer ${KEY}`)
    return { status: 401, body: { success: false, error: "Invalid API key" } }
  const b = /^application\/json/.test(s.headers["content-type"] ?? "")
    ? (JSON.parse(s.body) as Record<string, unknown>)
    : {}
  if (typeof b.transactionalId !== "string" || typeof b.email !== "string")
    return { status: 400, body: { success: false, message: "transactionalId and email are required" } }
  if (b.transactionalId !== "tx-login")
    return {
      status: 404,
      body: { success: false, error: { path: "transactionalId", message: "Transactional email not found" } },
    }
  return { status: 200, body: { success: true } }
})

describe("mail APIs", () => {
  beforeAll(async () => {
    await Promise.all([mailgun.start(), loops.start()])
  })
  afterAll(async () => {
    await Promise.all([mailgun.stop(), loops.stop()])
  })
  const params = (provider: EmailConfig, identifier = TO) => ({
    identifier,
    url: LINK,
    expires: new Date(Date.now() + 86400_000),
    provider,
    token: "f".repeat(64),
    theme: { brandColor: "#123456" },
    request: new Request("http://127.0.0.1:3000/auth/signin/x", { method: "POST" }),
  })
  const send = async (p: EmailConfig) => p.sendVerificationRequest(params(p))
  const error = async (p: EmailConfig) =>
    send(p).then(
      () => undefined,
      (e: unknown) => e,
    )

  it.each([
    ["mailgun", Mailgun, "Mailgun"],
    ["loops", Loops, "Loops"],
  ] as const)("%s: the Auth.js identity (id, name, type email, 24 h), exports map", (id, make, name) => {
    const p = make({ apiKey: KEY })
    expect({ id: p.id, name: p.name, type: p.type, maxAge: p.maxAge }).toEqual({
      id,
      name,
      type: "email",
      maxAge: 86400,
    })
    expect(p.options?.apiKey).toBe(KEY)
    expectExported(id)
  })

  it("mailgun: POST https://api.mailgun.net/v3/<from's domain>/messages, Basic api:<key>, form with from, to, subject, text, html", async () => {
    const p = withOptions(
      Mailgun({
        apiKey: KEY,
        from: "Example <login@mg.example.test>",
        [customFetch]: mailgun.fetchFor("https://api.mailgun.net"),
      }),
    )
    await send(p)
    const s = mailgun.last()
    expect(s.path).toBe("/v3/mg.example.test/messages")
    const f = new URLSearchParams(s.body)
    expect(f.get("from")).toBe("Example <login@mg.example.test>")
    expect(f.get("to")).toBe(TO)
    expect(f.get("subject")).toBe("Sign in to 127.0.0.1:3000")
    expect(f.get("text")).toContain(LINK)
    expect(f.get("html")).toContain(LINK.replace(/&/g, "&amp;"))
    expect(f.get("html")).toContain("#123456")
  })

  it("mailgun: region EU uses api.eu.mailgun.net; `domain` overrides the from address's domain", async () => {
    const p = withOptions(
      Mailgun({
        apiKey: KEY,
        from: "login@example.test",
        region: "EU",
        domain: "mg.example.test",
        [customFetch]: mailgun.fetchFor("https://api.eu.mailgun.net"),
      }),
    )
    await send(p)
    expect(mailgun.last().path).toBe("/v3/mg.example.test/messages")
  })

  it("mailgun: no domain in `from` and no `domain` is an EmailSignInError before any request; API errors name the status and text, not the key", async () => {
    const before = mailgun.seen.length
    const e1 = await error(
      withOptions(Mailgun({ apiKey: KEY, from: "nobody", [customFetch]: mailgun.fetchFor("https://api.mailgun.net") })),
    )
    expect(e1).toBeInstanceOf(EmailSignInError)
    expect(mailgun.seen.length).toBe(before)
    const e2 = await error(
      withOptions(
        Mailgun({
          apiKey: "wrong-key",
          from: "a@mg.example.test",
          [customFetch]: mailgun.fetchFor("https://api.mailgun.net"),
        }),
      ),
    )
    expect(e2).toBeInstanceOf(EmailSignInError)
    expect((e2 as Error).message).toMatch(/Mailgun refused the sign-in e-mail with HTTP 401.*Invalid private key/)
    expect((e2 as Error).message).not.toContain("wrong-key")
    const e3 = await error(withOptions(Mailgun({ from: "a@mg.example.test" })))
    expect((e3 as Error).message).toMatch(/apiKey.*AUTH_MAILGUN_KEY/)
  })

  it("loops: POST https://app.loops.so/api/v1/transactional, Bearer key, JSON transactionalId, email and dataVariables.url", async () => {
    const p = withOptions(
      Loops({ apiKey: KEY, transactionalId: "tx-login", [customFetch]: loops.fetchFor("https://app.loops.so") }),
    )
    expect(p.transactionalId).toBe("tx-login")
    await send(p)
    expect(JSON.parse(loops.last().body)).toEqual({
      transactionalId: "tx-login",
      email: TO,
      dataVariables: { url: LINK },
    })
  })

  it("loops: no key or no transactionalId throws before any request; an unknown transactional id is Loops's 404 text", async () => {
    const before = loops.seen.length
    expect(String(await error(withOptions(Loops({ transactionalId: "tx-login" }))))).toMatch(/apiKey.*AUTH_LOOPS_KEY/)
    expect(String(await error(withOptions(Loops({ apiKey: KEY }))))).toMatch(/transactionalId/)
    expect(loops.seen.length).toBe(before)
    const e = await error(
      withOptions(
        Loops({ apiKey: KEY, transactionalId: "tx-other", [customFetch]: loops.fetchFor("https://app.loops.so") }),
      ),
    )
    expect(e).toBeInstanceOf(EmailSignInError)
    expect((e as Error).message).toContain("HTTP 404")
    expect((e as Error).message).not.toContain(KEY)
  })

  const cases = [
    {
      id: "mailgun",
      make: () =>
        Mailgun({
          apiKey: KEY,
          from: "login@mg.example.test",
          [customFetch]: mailgun.fetchFor("https://api.mailgun.net"),
        }),
      link: () => /https?:\/\/\S+/.exec(new URLSearchParams(mailgun.last().body).get("text") ?? "")?.[0],
      to: () => new URLSearchParams(mailgun.last().body).get("to"),
    },
    {
      id: "loops",
      make: () =>
        Loops({ apiKey: KEY, transactionalId: "tx-login", [customFetch]: loops.fetchFor("https://app.loops.so") }),
      link: () => (JSON.parse(loops.last().body) as { dataVariables: { url: string } }).dataVariables.url,
      to: () => (JSON.parse(loops.last().body) as { email: string }).email,
    },
  ]
  it.each(cases)(
    "$id: through Auth() with the memory adapter, the link the API received signs the user in",
    async ({ id, make, link, to }) => {
      const cfg: AuthConfig = {
        secret: SECRET,
        logger: spyLogger().logger,
        trustHost: true,
        trustedOrigins: [ORIGIN],
        basePath: "/auth",
        adapter: MemoryAdapter(),
        providers: [make()],
      }
      const jar = new CookieJar()
      const csrfToken = await fetchCsrf(cfg, jar)
      const res = await Auth(
        postForm(
          `/auth/signin/${id}`,
          { csrfToken, email: `Bob@Example.test`, callbackUrl: `${ORIGIN}/dashboard` },
          { cookie: jar.header() },
        ),
        cfg,
      )
      jar.store(res)
      expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/verify-request?provider=${id}&type=email`)
      expect(to()).toBe("bob@example.test")
      const url = new URL(link()!)
      expect(url.href).toMatch(new RegExp(`^${ORIGIN}/auth/callback/${id}\\?`))
      const click = await Auth(get(url.pathname + url.search, { cookie: jar.header() }), cfg)
      jar.store(click)
      expect(click.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
      const session = (await (await Auth(get("/auth/session", { cookie: jar.header() }), cfg)).json()) as {
        user?: { email?: string }
      }
      expect(session.user?.email).toBe("bob@example.test")
    },
  )
})
