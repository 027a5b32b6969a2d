// The software authenticator's responses pass @simplewebauthn/server's verification, and each tamper override makes it fail.
import { describe, expect, it } from "vitest"
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type WebAuthnCredential,
} from "@simplewebauthn/server"
import {
  b64url,
  createSoftAuthenticator,
  encodeCbor,
  fromB64url,
  type AuthenticateOverrides,
  type CborValue,
  type RegisterOverrides,
  type SoftAlg,
  type SoftAuthenticator,
  type SoftAuthenticatorOptions,
} from "./soft-authenticator.js"

const rpID = "localhost"
const origin = "http://localhost:3000"

/** Why verification failed: the error message, "unverified" (a bad signature returns verified: false), or "verified". */
async function outcome(attempt: Promise<{ verification: { verified: boolean } }>): Promise<string> {
  try {
    return (await attempt).verification.verified ? "verified" : "unverified"
  } catch (e) {
    return (e as Error).message
  }
}

async function register(auth: SoftAuthenticator, overrides?: RegisterOverrides, requireUserVerification = true) {
  const options = await generateRegistrationOptions({ rpName: "Gatehouse", rpID, userName: "ada@example.com" })
  const response = auth.register(options, overrides)
  const verification = await verifyRegistrationResponse({
    response,
    expectedChallenge: options.challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification,
  })
  return { options, response, verification }
}

async function registered(opts: Partial<SoftAuthenticatorOptions> & { alg: SoftAlg }) {
  const auth = createSoftAuthenticator({ rpId: rpID, origin, ...opts })
  const { verification, options } = await register(auth)
  if (!verification.verified || !verification.registrationInfo) throw new Error("registration did not verify")
  const credential: WebAuthnCredential = { ...verification.registrationInfo.credential }
  return { auth, credential, userId: options.user.id }
}

async function authenticate(
  auth: SoftAuthenticator,
  credential: WebAuthnCredential,
  overrides?: AuthenticateOverrides,
  requireUserVerification = true,
) {
  const options = await generateAuthenticationOptions({
    rpID,
    allowCredentials: [{ id: credential.id, transports: credential.transports }],
  })
  const response = auth.authenticate(options, overrides)
  const verification = await verifyAuthenticationResponse({
    response,
    expectedChallenge: options.challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    credential,
    requireUserVerification,
  })
  return { response, verification }
}

describe.each<SoftAlg>(["ES256", "EdDSA"])("soft authenticator (%s)", (alg) => {
  it("registers and authenticates; the counter goes up", async () => {
    const { auth, credential, userId } = await registered({ alg })
    expect(credential.counter).toBe(0)
    expect(credential.transports).toEqual(["internal"])
    const [held] = auth.credentials
    expect(held?.id).toBe(credential.id)
    expect(Buffer.from(held!.publicKey).equals(Buffer.from(credential.publicKey))).toBe(true)
    const idLength = fromB64url(credential.id).length
    expect(idLength).toBeGreaterThanOrEqual(16)
    expect(idLength).toBeLessThanOrEqual(32)

    const first = await authenticate(auth, credential)
    expect(first.verification.verified).toBe(true)
    expect(first.verification.authenticationInfo.newCounter).toBe(1)
    expect(first.verification.authenticationInfo.userVerified).toBe(true)
    expect(first.response.response.userHandle).toBe(userId)

    credential.counter = first.verification.authenticationInfo.newCounter
    const second = await authenticate(auth, credential)
    expect(second.verification.authenticationInfo.newCounter).toBe(2)
    expect(auth.credentials[0]?.counter).toBe(2)
  })

  it("discoverable sign-in (no allowCredentials) uses its credential", async () => {
    const { auth, credential } = await registered({ alg })
    const options = await generateAuthenticationOptions({ rpID })
    const response = auth.authenticate(options)
    expect(response.id).toBe(credential.id)
    const v = await verifyAuthenticationResponse({
      response,
      expectedChallenge: options.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential,
    })
    expect(v.verified).toBe(true)
  })

  it('"packed" self attestation verifies; a broken attestation signature does not', async () => {
    const auth = createSoftAuthenticator({ alg, rpId: rpID, origin, attestation: "packed" })
    const ok = await register(auth)
    expect(ok.verification.verified).toBe(true)
    expect(ok.verification.registrationInfo?.fmt).toBe("packed")
    expect(await outcome(register(auth, { breakSignature: true }))).toBe("unverified")
  })

  describe("registration tampering fails verification", () => {
    const cases: [string, RegisterOverrides, RegExp][] = [
      ["wrong origin", { origin: "http://evil.example:3000" }, /origin/],
      ["wrong type", { type: "webauthn.get" }, /type/],
      ["wrong challenge", { challenge: b64url(new Uint8Array(32)) }, /challenge/],
      ["wrong rpId", { rpId: "evil.example" }, /RP ID hash/],
      ["UP clear", { userPresent: false }, /presence/],
      ["UV clear (UV required)", { userVerified: false }, /verification/],
      ["bad tokenBinding", { tokenBinding: { status: "bogus" } }, /tokenBinding/],
    ]
    it.each(cases)("%s", async (_name, overrides, reason) => {
      const auth = createSoftAuthenticator({ alg, rpId: rpID, origin })
      expect(await outcome(register(auth, overrides))).toMatch(reason)
    })

    it("an attestation object built with encodeCbor and an unknown fmt is refused", async () => {
      const auth = createSoftAuthenticator({ alg, rpId: rpID, origin })
      const options = await generateRegistrationOptions({ rpName: "Gatehouse", rpID, userName: "ada@example.com" })
      const response = auth.register(options)
      const authData = fromB64url(response.response.authenticatorData!)
      const attestationObject = encodeCbor(
        new Map<string, CborValue>([
          ["fmt", "made-up"],
          ["attStmt", new Map()],
          ["authData", authData],
        ]),
      )
      await expect(
        verifyRegistrationResponse({
          response: { ...response, response: { ...response.response, attestationObject: b64url(attestationObject) } },
          expectedChallenge: options.challenge,
          expectedOrigin: origin,
          expectedRPID: rpID,
        }),
      ).rejects.toThrow(/Unsupported Attestation Format/)
    })
  })

  describe("authentication tampering fails verification", () => {
    const cases: [string, AuthenticateOverrides, RegExp][] = [
      ["wrong origin", { origin: "http://evil.example:3000" }, /origin/],
      ["wrong type", { type: "webauthn.create" }, /type/],
      ["wrong challenge", { challenge: b64url(new Uint8Array(32)) }, /challenge/],
      ["wrong rpId", { rpId: "evil.example" }, /RP ID hash/],
      ["UP clear", { userPresent: false }, /not present/],
      ["UV clear (UV required)", { userVerified: false }, /verification/],
      ["flags byte 0", { flags: 0 }, /not present/],
      ["broken signature", { breakSignature: true }, /^unverified$/],
      ["bad tokenBinding", { tokenBinding: { status: "bogus" } }, /tokenBinding/],
    ]
    it.each(cases)("%s", async (_name, overrides, reason) => {
      const { auth, credential } = await registered({ alg })
      expect(await outcome(authenticate(auth, credential, overrides))).toMatch(reason)
    })

    it("another credential's id with this key: signature check fails", async () => {
      const { auth, credential } = await registered({ alg })
      const other = await registered({ alg })
      const result = authenticate(other.auth, credential, {
        useCredential: other.credential.id,
        credentialId: credential.id,
      })
      expect(await outcome(result)).toBe("unverified")
    })

    it("an explicit counter not above the stored one is refused; without the override the next one passes", async () => {
      const { auth, credential } = await registered({ alg })
      const { verification } = await authenticate(auth, credential)
      credential.counter = verification.authenticationInfo.newCounter
      await expect(authenticate(auth, credential, { counter: 1 })).rejects.toThrow(/counter/)
      expect((await authenticate(auth, credential)).verification.authenticationInfo.newCounter).toBe(3)
    })

    it("UV clear passes when UV is not required (control)", async () => {
      const { auth, credential } = await registered({ alg })
      const { verification } = await authenticate(auth, credential, { userVerified: false }, false)
      expect(verification.verified).toBe(true)
      expect(verification.authenticationInfo.userVerified).toBe(false)
    })

    it("counter regression from a cloned authenticator is refused", async () => {
      const { auth, credential } = await registered({ alg })
      const copy = auth.clone()
      for (let i = 0; i < 2; i++) {
        const { verification } = await authenticate(auth, credential)
        credential.counter = verification.authenticationInfo.newCounter
      }
      expect(credential.counter).toBe(2)
      expect(copy.credentials[0]?.counter).toBe(0)
      await expect(authenticate(copy, credential)).rejects.toThrow(/counter/)
    })

    it("counter regression via setCounter and via export/import is refused", async () => {
      const { auth, credential } = await registered({ alg })
      const { verification } = await authenticate(auth, credential)
      credential.counter = verification.authenticationInfo.newCounter

      const imported = createSoftAuthenticator({ alg, rpId: rpID, origin })
      imported.importCredential({ ...auth.exportCredential(), counter: 0 })
      await expect(authenticate(imported, credential)).rejects.toThrow(/counter/)

      auth.setCounter(credential.id, 0)
      await expect(authenticate(auth, credential)).rejects.toThrow(/counter/)
    })
  })

  it('"zero" mode: counter stays 0 and 0/0 is accepted', async () => {
    const { auth, credential } = await registered({ alg, signCount: "zero" })
    for (let i = 0; i < 2; i++) {
      const { verification } = await authenticate(auth, credential)
      expect(verification.verified).toBe(true)
      expect(verification.authenticationInfo.newCounter).toBe(0)
      credential.counter = verification.authenticationInfo.newCounter
    }
  })

  it("behaves like a browser on refusals", async () => {
    const { auth, credential } = await registered({ alg })
    const reg = await generateRegistrationOptions({
      rpName: "Gatehouse",
      rpID,
      userName: "ada@example.com",
      excludeCredentials: [{ id: credential.id }],
    })
    expect(() => auth.register(reg)).toThrow(/InvalidStateError/)
    expect(() =>
      auth.authenticate({ challenge: "AAAA", rpId: rpID, allowCredentials: [{ id: "AAAA", type: "public-key" }] }),
    ).toThrow(/NotAllowedError/)
    expect(() => auth.authenticate({ challenge: "AAAA", rpId: "example.com" })).toThrow(/SecurityError/)
  })

  it("userHandle override: a different one is returned, null omits it", async () => {
    const { auth, credential } = await registered({ alg })
    const options = await generateAuthenticationOptions({ rpID })
    expect(auth.authenticate(options, { userHandle: "dXNlcg" }).response.userHandle).toBe("dXNlcg")
    expect("userHandle" in auth.authenticate(options, { userHandle: null }).response).toBe(false)
    expect(credential.id).toBe(auth.credentials[0]?.id)
  })
})

describe("encodeCbor", () => {
  it("encodes ints, negative ints, text, bytes and maps", () => {
    const hex = (v: Parameters<typeof encodeCbor>[0]) => Buffer.from(encodeCbor(v)).toString("hex")
    expect(hex(0)).toBe("00")
    expect(hex(23)).toBe("17")
    expect(hex(24)).toBe("1818")
    expect(hex(1000)).toBe("1903e8")
    expect(hex(1_000_000)).toBe("1a000f4240")
    expect(hex(-1)).toBe("20")
    expect(hex(-8)).toBe("27")
    expect(hex(-257)).toBe("390100")
    expect(hex("fmt")).toBe("63666d74")
    expect(hex(Uint8Array.of(1, 2))).toBe("420102")
    expect(hex({})).toBe("a0")
    expect(
      hex(
        new Map<number, number>([
          [1, 2],
          [3, -7],
        ]),
      ),
    ).toBe("a201020326")
  })
})
