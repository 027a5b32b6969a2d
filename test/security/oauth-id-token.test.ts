// Security group A (docs/security.md §1.A), the ID token: its signature and alg (OA-11), its claims (OA-12..OA-16) and
// the choice of key from the JWKS (OA-17), against the mock OP (test/support/mock-op.ts). Documented choices: the
// signature is verified even for token-endpoint ID tokens; an unknown kid causes at most one JWKS refetch per
// 30 s cooldown; no kid with several fitting keys is rejected.
import { describe, expect, it } from "vitest"
import { JWKS_COOLDOWN_MS } from "../../src/protocols/jws.js"
import type { IdTokenFault, MockOp } from "../support/mock-op.js"
import {
  CHECK_COOKIES,
  authorizedCallback,
  deltaCounts,
  expectReject,
  expectSignedIn,
  fullFlow,
  provider,
  setup,
  useShiftedClock,
  expectNoUnhandled,
  useMockOps,
} from "../support/oauth-flow.js"

let opA: MockOp
const harness = useMockOps(["client-a"], (ops) => {
  opA = ops[0] as MockOp
})

describe("A. OAuth 2 / OIDC callback — attacks (docs/security.md §1.A)", () => {
  describe("OA-11 ID token signature (checked even for token-endpoint ID tokens; alg must equal the registered one)", () => {
    const cases: { fault: IdTokenFault; alg?: string; why: string }[] = [
      { fault: "invalid-sig-rs256", why: "RS256 signature altered" },
      { fault: "invalid-sig-es256", alg: "ES256", why: "ES256 signature altered (client registered ES256)" },
      { fault: "invalid-sig-hs256", alg: "HS256", why: "HS256 keyed with the wrong secret (client registered HS256)" },
      { fault: "idtoken-sig-none", why: "alg none" },
      { fault: "invalid-null-alg", why: "alg null" },
      { fault: "hs256-rsa-public-key", why: "HS256 keyed with the RSA public key (key confusion)" },
      { fault: "alternate-alg-es256", why: "valid ES256 signature while RS256 is registered" },
    ]
    for (const c of cases) {
      it(`OA-11 ${c.fault}: ${c.why} -> REJECT(OAuthCallbackError), no userinfo call, no session`, async () => {
        if (c.alg === "ES256") opA.jwksKids = ["rsa-1", "ec-1"]
        if (c.fault === "alternate-alg-es256") opA.jwksKids = ["rsa-1", "ec-1"]
        if (c.fault === "idtoken-sig-none") opA.signingAlgValues = ["RS256", "none"]
        opA.idTokenFault = c.fault
        const { config, log } = setup([
          provider(
            opA,
            c.alg
              ? { client: { token_endpoint_auth_method: "client_secret_basic", id_token_signed_response_alg: c.alg } }
              : {},
          ),
        ])
        const { res, before } = await authorizedCallback(config, opA)
        await expectReject(res, { type: "OAuthCallbackError", log, op: opA, before, carried: CHECK_COOKIES })
        expect(deltaCounts(before, opA.counts)).toMatchObject({ token: 1, userinfo: 0 })
      })
    }

    it("OA-11 (controls) correctly signed ES256 and HS256 ID tokens are accepted when registered", async () => {
      opA.jwksKids = ["rsa-1", "ec-1"]
      opA.signingAlg = "ES256"
      opA.signingKid = "ec-1"
      let { config } = setup([
        provider(opA, {
          client: { token_endpoint_auth_method: "client_secret_basic", id_token_signed_response_alg: "ES256" },
        }),
      ])
      expectSignedIn((await fullFlow(config, opA)).res)
      opA.reset()
      opA.signingAlg = "HS256"
      ;({ config } = setup([
        provider(opA, {
          client: { token_endpoint_auth_method: "client_secret_basic", id_token_signed_response_alg: "HS256" },
        }),
      ]))
      expectSignedIn((await fullFlow(config, opA)).res)
    })
  })

  describe("OA-12 .. OA-16 ID token claims", () => {
    const cases: { id: string; fault: IdTokenFault; why: string }[] = [
      { id: "OA-12", fault: "invalid-iss", why: "iss of another issuer" },
      { id: "OA-12", fault: "missing-iss", why: "iss missing" },
      { id: "OA-13", fault: "invalid-aud", why: "aud of another client" },
      { id: "OA-13", fault: "missing-aud", why: "aud missing" },
      { id: "OA-13", fault: "invalid-secondary-aud", why: "aud [client_id, untrusted] without azp" },
      {
        id: "OA-13",
        fault: "invalid-secondary-aud-with-azp",
        why: "aud [client_id, untrusted] with azp=client_id (extra audience still untrusted, OIDC Core 3.1.3.7 step 3)",
      },
      { id: "OA-13", fault: "invalid-azp", why: "azp ≠ client_id" },
      { id: "OA-14", fault: "invalid-expired-exp", why: "exp two minutes ago" },
      { id: "OA-14", fault: "invalid-missing-exp", why: "exp missing" },
      { id: "OA-14", fault: "missing-iat", why: "iat missing" },
      { id: "OA-14", fault: "iat-is-week-in-past", why: "iat a week old" },
      { id: "OA-14", fault: "nbf-in-future", why: "nbf ten minutes ahead" },
      { id: "OA-15", fault: "nonce-invalid", why: "nonce different" },
      { id: "OA-15", fault: "invalid-missing-nonce", why: "nonce missing" },
      { id: "OA-16", fault: "missing-sub", why: "sub missing" },
    ]
    for (const c of cases) {
      it(`${c.id} ${c.fault}: ${c.why} -> REJECT(OAuthCallbackError), no userinfo call, no session`, async () => {
        opA.idTokenFault = c.fault
        const { config, log } = setup([provider(opA)])
        const { res, before } = await authorizedCallback(config, opA)
        await expectReject(res, { type: "OAuthCallbackError", log, op: opA, before, carried: CHECK_COOKIES })
        expect(deltaCounts(before, opA.counts)).toMatchObject({ token: 1, userinfo: 0 })
      })
    }

    it("OA-13 (control) valid-aud-as-array: aud [client_id] is accepted", async () => {
      opA.idTokenFault = "valid-aud-as-array"
      const { config } = setup([provider(opA)])
      expectSignedIn((await fullFlow(config, opA)).res)
    })

    it("OA-14 (control) exp/iat/nbf within the clock tolerance are accepted", async () => {
      const now = Math.floor(Date.now() / 1000)
      opA.extraClaims = { nbf: now + 10, iat: now + 10 }
      const { config } = setup([provider(opA)])
      expectSignedIn((await fullFlow(config, opA)).res)
    })

    it("OA-16 userinfo-invalid-sub: UserInfo sub ≠ ID token sub -> REJECT(OAuthCallbackError); UserInfo claims never stored", async () => {
      opA.userinfoFault = "invalid-sub"
      const { config, log } = setup([provider(opA, { idToken: false })], {
        callbacks: {
          jwt: ({ token, profile }) => ({ ...token, fromProfile: (profile as { name?: string } | undefined)?.name }),
        },
      })
      const { res, before } = await authorizedCallback(config, opA)
      await expectReject(res, {
        type: "OAuthCallbackError",
        log,
        op: opA,
        before,
        carried: CHECK_COOKIES,
        secrets: ["Userinfo Name", "userinfo@op.example"],
      })
      expect(deltaCounts(before, opA.counts)).toMatchObject({ token: 1, userinfo: 1 })
    })

    it("OA-16 (control) scope-userinfo-claims: UserInfo with the same sub is used when idToken is false", async () => {
      const seen: unknown[] = []
      const { config } = setup([provider(opA, { idToken: false })], {
        callbacks: { signIn: ({ profile }) => (seen.push(profile), true) },
      })
      expectSignedIn((await fullFlow(config, opA)).res)
      expect(seen).toEqual([expect.objectContaining({ sub: "mock-user-1", name: "Userinfo Name" })])
      expect(opA.tokenRequests).toHaveLength(1)
      expect(opA.counts.userinfo).toBe(1)
    })
  })

  describe("OA-17 kid handling and JWKS refetch", () => {
    it("OA-17 unknown kid twice within 1 s: rejected, no refetch inside the 30 s cooldown; after it, one refetch per cooldown; then a rotated key is accepted", async () => {
      const advance = useShiftedClock()
      const { config, log } = setup([provider(opA)])
      // t=0: a normal sign-in fills the JWKS cache (fetch #1).
      expectSignedIn((await fullFlow(config, opA)).res)
      expect(opA.counts.jwks).toBe(1)
      log.writes.length = 0
      /** Two sign-ins 400 ms apart whose ID tokens carry an unknown kid: both rejected. */
      const twoUnknownKids = async () => {
        for (let i = 0; i < 2; i++) {
          const { res, before } = await authorizedCallback(config, opA)
          await expectReject(res, { type: "OAuthCallbackError", log, op: opA, before, carried: CHECK_COOKIES })
          log.errors.length = 0
          advance(400)
        }
      }
      // Unknown kid twice within 1 s: rejected, no refetch (the set was fetched < 30 s ago).
      opA.kidMode = "unknown"
      await twoUnknownKids()
      expect(opA.counts.jwks, "no refetch inside the cooldown").toBe(1)
      // After the cooldown: an unknown kid causes exactly one refetch; a second one right after causes none.
      advance(JWKS_COOLDOWN_MS + 1000)
      await twoUnknownKids()
      expect(opA.counts.jwks, "one refetch per cooldown").toBe(2)
      // Rotation: the OP now publishes and signs with rsa-2 only. After the cooldown the new key is fetched and accepted.
      opA.kidMode = "signing"
      opA.jwksKids = ["rsa-2"]
      opA.signingKid = "rsa-2"
      advance(JWKS_COOLDOWN_MS + 1000)
      expectSignedIn((await fullFlow(config, opA)).res)
      expect(opA.counts.jwks).toBe(3)
      // And the rotated key is now cached: no further fetch.
      expectSignedIn((await fullFlow(config, opA)).res)
      expect(opA.counts.jwks).toBe(3)
    })

    it("OA-17 unknown kid with a cold cache: one fetch, then rejection (no retry loop)", async () => {
      opA.kidMode = "unknown"
      const { config, log } = setup([provider(opA)])
      const { res, before } = await authorizedCallback(config, opA)
      await expectReject(res, { type: "OAuthCallbackError", log, op: opA, before, carried: CHECK_COOKIES })
      expect(deltaCounts(before, opA.counts)).toMatchObject({ token: 1, jwks: 1, userinfo: 0 })
    })

    it("OA-17 kid-absent-single-jwks: no kid, one key in the JWKS -> accepted", async () => {
      opA.kidMode = "absent"
      const { config } = setup([provider(opA)])
      expectSignedIn((await fullFlow(config, opA)).res)
    })

    it("OA-17 kid-absent-multiple-jwks: no kid, several fitting keys -> rejected (documented choice: no trial over keys)", async () => {
      opA.kidMode = "absent"
      opA.jwksKids = ["rsa-1", "rsa-2"]
      const { config, log } = setup([provider(opA)])
      const { res, before } = await authorizedCallback(config, opA)
      await expectReject(res, { type: "OAuthCallbackError", log, op: opA, before, carried: CHECK_COOKIES })
      expect(deltaCounts(before, opA.counts)).toMatchObject({ token: 1, userinfo: 0 })
    })

    it("OA-17 signed with a kid the JWKS does not publish (rsa-2, while rsa-1 and ec-1 are published): rejected", async () => {
      opA.jwksKids = ["rsa-1", "ec-1"]
      opA.signingKid = "rsa-2" // kid rsa-2 is not published
      const { config, log } = setup([provider(opA)])
      const { res, before } = await authorizedCallback(config, opA)
      await expectReject(res, { type: "OAuthCallbackError", log, op: opA, before, carried: CHECK_COOKIES })
    })
  })
})

describe("I6", () => {
  it("I6 no unhandled rejection during the OAuth security tests", async () => {
    await expectNoUnhandled(harness)
  })
})
