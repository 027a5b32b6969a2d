// Signed UserInfo answers (OIDC Core §5.3.2), as BankID Norge sends them: a client that registered
// `userinfo_signed_response_alg: "RS256"` and takes its profile from userinfo (`idToken: false`) gets
// `application/jwt` answers whose signature must verify against the issuer's JWKS. oauth4webapi checks the claims
// (sub, iss, aud) but not the signature; Gatehouse checks the signature. Against a local auth.bankid.no on 127.0.0.1.
import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { customFetch } from "../../src/index.js"
import type { AuthConfig } from "../../src/index.js"
import { clearJwksCache } from "../../src/protocols/jws.js"
import { clearDiscoveryCache } from "../../src/protocols/oauth2.js"
import BankIDNorway from "../../src/providers/bankid-no.js"
import {
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
  sendText,
  sessionOf,
  setup,
  startLocalServer,
  startSignIn,
  visitProvider,
  type FetchGuard,
} from "../support/provider-kit.js"

const ISSUER = "https://auth.bankid.no/auth/realms/prod"
const ORIGINS = ["https://auth.bankid.no"] as const
const REALM = "/auth/realms/prod"
const CLIENT_ID = "bankid-client"
const CLIENT_SECRET = "bankid-secret"
const SUB = "9578-6000-4-365161"

const key = generateKeyPairSync("rsa", { modulusLength: 2048 })
const other = generateKeyPairSync("rsa", { modulusLength: 2048 })
const JWK = { ...key.publicKey.export({ format: "jwk" }), kid: "bid-1", use: "sig", alg: "RS256" }
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url")
function jwt(claims: Record<string, unknown>, opts: { alg?: string; signer?: typeof key.privateKey } = {}): string {
  const alg = opts.alg ?? "RS256"
  const head = `${b64({ alg, typ: "JWT", kid: JWK.kid })}.${b64(claims)}`
  return alg === "none"
    ? `${head}.`
    : `${head}.${sign("sha256", Buffer.from(head), opts.signer ?? key.privateKey).toString("base64url")}`
}

type UserinfoMode = "signed" | "json" | "wrong-key" | "alg-none" | "tampered" | "other-sub"
interface FakeBankId extends LocalServer {
  userinfo: UserinfoMode
}
let bid: FakeBankId
let guard: FetchGuard

async function startFakeBankId(): Promise<FakeBankId> {
  const codes = new Map<string, { challenge?: string; nonce?: string }>()
  const f = {} as FakeBankId
  const server = await startLocalServer(async (_req, res, r) => {
    const base = `${ISSUER}/protocol/openid-connect`
    if (r.path === `${REALM}/.well-known/openid-configuration`) {
      return sendJson(res, r, 200, {
        issuer: ISSUER,
        authorization_endpoint: `${base}/auth`,
        token_endpoint: `${base}/token`,
        userinfo_endpoint: `${base}/userinfo`,
        jwks_uri: `${base}/certs`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
        userinfo_signing_alg_values_supported: ["RS256"],
      })
    }
    if (r.path === `${REALM}/protocol/openid-connect/certs`) return sendJson(res, r, 200, { keys: [JWK] })
    if (r.path === `${REALM}/protocol/openid-connect/auth`) {
      const code = `code-${randomBytes(8).toString("hex")}`
      codes.set(code, {
        challenge: r.query.get("code_challenge") ?? undefined,
        nonce: r.query.get("nonce") ?? undefined,
      })
      const back = new URL(r.query.get("redirect_uri")!)
      back.searchParams.set("code", code)
      back.searchParams.set("state", r.query.get("state") ?? "")
      return sendRedirect(res, r, back.href)
    }
    if (r.path === `${REALM}/protocol/openid-connect/token`) {
      const body = new URLSearchParams(r.body)
      const grant = codes.get(body.get("code") ?? "")
      if (
        !grant ||
        body.get("client_secret") !== CLIENT_SECRET ||
        createHash("sha256")
          .update(body.get("code_verifier") ?? "")
          .digest("base64url") !== grant.challenge
      ) {
        return sendJson(res, r, 400, { error: "invalid_grant" })
      }
      codes.delete(body.get("code")!)
      const now = Math.floor(Date.now() / 1000)
      const idToken = jwt({ iss: ISSUER, aud: CLIENT_ID, sub: SUB, iat: now, exp: now + 300, nonce: grant.nonce })
      return sendJson(res, r, 200, {
        access_token: `at-${randomBytes(6).toString("hex")}`,
        token_type: "Bearer",
        expires_in: 300,
        id_token: idToken,
      })
    }
    if (r.path === `${REALM}/protocol/openid-connect/userinfo`) {
      const claims = {
        iss: ISSUER,
        aud: CLIENT_ID,
        sub: f.userinfo === "other-sub" ? "someone-else" : SUB,
        name: "Kari Nordmann",
        email: "kari@example.no",
      }
      if (f.userinfo === "json") return sendJson(res, r, 200, claims)
      let body = jwt(claims, {
        alg: f.userinfo === "alg-none" ? "none" : "RS256",
        signer: f.userinfo === "wrong-key" ? other.privateKey : key.privateKey,
      })
      if (f.userinfo === "tampered") {
        const [h, , s] = body.split(".")
        body = `${h}.${b64({ ...claims, name: "Mallory" })}.${s}`
      }
      return sendText(res, r, 200, body, "application/jwt")
    }
  })
  return Object.assign(f, server, { userinfo: "signed" as UserinfoMode })
}

beforeAll(async () => {
  bid = await startFakeBankId()
})
afterAll(async () => {
  await bid.stop()
})
beforeEach(() => {
  guard = installFetchGuard()
  clearDiscoveryCache()
  clearJwksCache()
  bid.userinfo = "signed"
})
afterEach(() => {
  guard.restore()
  expect(guard.blocked).toEqual([])
})

async function signIn() {
  const s = setup([
    BankIDNorway({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      [customFetch]: routingFetch(ORIGINS, bid.url).fetch,
    }) as AuthConfig["providers"][number],
  ])
  const started = await startSignIn(s.config, "bankid-no")
  const back = await visitProvider(localize(started.location!, ORIGINS, bid.url))
  return { s, started, res: await callback(s.config, back, started.jar) }
}

describe("BankID Norge: signed UserInfo", () => {
  it("a signed answer signs in with its claims", async () => {
    const { s, started, res } = await signIn()
    expectSignedIn(res, s.log)
    expect((await sessionOf(s.config, started.jar))?.user).toEqual({ name: "Kari Nordmann", email: "kari@example.no" })
    expect(bid.to(`${REALM}/protocol/openid-connect/userinfo`)).toHaveLength(1)
  })

  it.each<[UserinfoMode, string]>([
    ["json", "a plain JSON answer where a signed one was registered"],
    ["wrong-key", "signed by a key not in the JWKS"],
    ["alg-none", "alg none"],
    ["tampered", "claims changed after signing"],
    ["other-sub", "a sub other than the ID token's"],
  ])("%s (%s): refused, no session", async (mode) => {
    bid.userinfo = mode
    const { s, res } = await signIn()
    expectRejected(res, s.log, SIGNIN_ERROR("OAuthCallbackError"), "OAuthCallbackError")
  })
})
