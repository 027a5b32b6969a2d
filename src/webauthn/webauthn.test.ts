// gatehouse/webauthn without a browser: base64url, options/response JSON conversions, and signIn's wire, against a
// minimal stub of navigator.credentials and fetch (Node has no WebAuthn; the Chromium tests live in test/e2e).
import { randomBytes } from "node:crypto"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { assertionCredential, b64, buf } from "../../test/support/browser-credentials.js"
import { configure, subscribe } from "../client/index.js"
import { base64URLToBuffer, bufferToBase64URL } from "./base64url.js"
import { creationOptionsFromJSON, requestOptionsFromJSON, startAuthentication, startRegistration } from "./ceremony.js"
import { signIn } from "./index.js"
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from "./types.js"

const bytesOf = (value: unknown) => Buffer.from(value as ArrayBuffer).toString()

describe("base64url", () => {
  it("round-trips every length and matches Node's base64url (no padding)", () => {
    for (let length = 0; length < 70; length++) {
      const bytes = randomBytes(length)
      const encoded = bufferToBase64URL(bytes)
      expect(encoded).toBe(bytes.toString("base64url"))
      expect(Buffer.from(base64URLToBuffer(encoded)).equals(bytes)).toBe(true)
    }
  })

  it("encodes a view of part of a buffer, not the whole buffer", () => {
    const whole = new Uint8Array([1, 2, 3, 4, 5])
    expect(bufferToBase64URL(whole.subarray(1, 3))).toBe(b64(new Uint8Array([2, 3])))
  })

  it("decodes padded input and refuses base64's + and /, spaces and impossible lengths", () => {
    expect(bytesOf(base64URLToBuffer("aGk="))).toBe("hi")
    for (const bad of ["a+b/", "ab cd", "a", "abcde", "ab=c"]) expect(() => base64URLToBuffer(bad)).toThrow(TypeError)
  })
})

const creationJSON: PublicKeyCredentialCreationOptionsJSON = {
  rp: { id: "localhost", name: "Gatehouse" },
  user: { id: b64("user-1"), name: "ada@example.com", displayName: "Ada" },
  challenge: b64("register-challenge"),
  pubKeyCredParams: [
    { type: "public-key", alg: -7 },
    { type: "public-key", alg: -257 },
  ],
  timeout: 60000,
  excludeCredentials: [{ id: b64("old-cred"), type: "public-key", transports: ["internal", "hybrid"] }],
  authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
  hints: ["client-device"],
  attestation: "none",
}
const requestJSON: PublicKeyCredentialRequestOptionsJSON = {
  challenge: b64("login-challenge"),
  rpId: "localhost",
  allowCredentials: [{ id: b64("cred-1"), type: "public-key" }],
  userVerification: "preferred",
}

describe("options JSON → credentials API options", () => {
  it("creation: challenge, user.id and excludeCredentials ids become ArrayBuffers; other members pass through", () => {
    const options = creationOptionsFromJSON(creationJSON)
    expect(bytesOf(options.challenge)).toBe("register-challenge")
    expect(options.user.id).toBeInstanceOf(ArrayBuffer)
    expect(bytesOf(options.user.id)).toBe("user-1")
    expect(options.user.name).toBe("ada@example.com")
    expect(bytesOf(options.excludeCredentials?.[0]?.id)).toBe("old-cred")
    expect(options.excludeCredentials?.[0]?.transports).toEqual(["internal", "hybrid"])
    expect((options as { hints?: unknown }).hints).toEqual(["client-device"])
    expect(options.pubKeyCredParams).toEqual(creationJSON.pubKeyCredParams)
  })

  it("request: the allow list is converted, and emptied for a conditional (autofill) request", () => {
    expect(bytesOf(requestOptionsFromJSON(requestJSON).allowCredentials?.[0]?.id)).toBe("cred-1")
    expect(requestOptionsFromJSON(requestJSON, true).allowCredentials).toEqual([])
    expect(requestOptionsFromJSON({ challenge: b64("c") }).allowCredentials).toBeUndefined()
  })
})

/** A credential as a browser returns it, with the getters a browser may or may not have. */
function attestationCredential(overrides: Record<string, unknown> = {}) {
  return {
    id: b64("new-cred"),
    rawId: buf("new-cred"),
    type: "public-key",
    authenticatorAttachment: "platform",
    getClientExtensionResults: () => ({ credProps: { rk: true } }),
    response: {
      clientDataJSON: buf('{"type":"webauthn.create"}'),
      attestationObject: buf("attestation"),
      getTransports: () => ["internal", "hybrid"],
      getPublicKeyAlgorithm: () => -7,
      getPublicKey: () => buf("spki"),
      getAuthenticatorData: () => buf("auth-data"),
      ...overrides,
    },
  }
}

interface Stub {
  create: ReturnType<typeof vi.fn>
  get: ReturnType<typeof vi.fn>
  conditional: boolean
}
let stub: Stub

function stubBrowser(): void {
  stub = {
    create: vi.fn(async () => attestationCredential()),
    get: vi.fn(async () => assertionCredential()),
    conditional: true,
  }
  const current = stub
  class FakePublicKeyCredential {
    static isConditionalMediationAvailable = async () => current.conditional
  }
  vi.stubGlobal("PublicKeyCredential", FakePublicKeyCredential)
  vi.stubGlobal("navigator", { credentials: { create: current.create, get: current.get } })
}

beforeEach(stubBrowser)
afterEach(() => {
  vi.unstubAllGlobals()
})

describe("startRegistration / startAuthentication", () => {
  it("registration: the response as RegistrationResponseJSON, with transports, algorithm, public key and authenticator data", async () => {
    const json = await startRegistration(creationJSON)
    expect(json).toEqual({
      id: b64("new-cred"),
      rawId: b64("new-cred"),
      type: "public-key",
      response: {
        clientDataJSON: b64('{"type":"webauthn.create"}'),
        attestationObject: b64("attestation"),
        transports: ["internal", "hybrid"],
        publicKeyAlgorithm: -7,
        publicKey: b64("spki"),
        authenticatorData: b64("auth-data"),
      },
      authenticatorAttachment: "platform",
      clientExtensionResults: { credProps: { rk: true } },
    })
    const call = stub.create.mock.calls[0]?.[0] as CredentialCreationOptions
    expect(bytesOf(call.publicKey?.challenge)).toBe("register-challenge")
    expect(call.signal).toBeInstanceOf(AbortSignal)
    // A JSON round trip keeps it whole (this is what the callback's `data` field carries).
    expect(JSON.parse(JSON.stringify(json))).toEqual(json)
  })

  it("registration without the optional getters (older browsers), or with one that throws: those fields are left out", async () => {
    stub.create.mockResolvedValueOnce(
      attestationCredential({
        getTransports: undefined,
        getPublicKeyAlgorithm: undefined,
        getPublicKey: () => {
          throw new Error("unsupported key")
        },
        getAuthenticatorData: undefined,
      }),
    )
    const json = await startRegistration(creationJSON)
    expect(Object.keys(json.response).sort()).toEqual(["attestationObject", "clientDataJSON"])
  })

  it("authentication: AuthenticationResponseJSON with userHandle; no attachment when the browser gives null", async () => {
    const json = await startAuthentication(requestJSON)
    expect(json).toEqual({
      id: b64("cred-1"),
      rawId: b64("cred-1"),
      type: "public-key",
      response: {
        clientDataJSON: b64('{"type":"webauthn.get"}'),
        authenticatorData: b64("auth-data"),
        signature: b64("sig"),
        userHandle: b64("user-1"),
      },
      clientExtensionResults: {},
    })
    stub.get.mockResolvedValueOnce(assertionCredential(null))
    expect((await startAuthentication(requestJSON)).response.userHandle).toBeUndefined()
    expect((stub.get.mock.calls[0]?.[0] as CredentialRequestOptions).mediation).toBeUndefined()
  })

  it("conditional: mediation 'conditional'; NotSupportedError where the browser has no autofill for passkeys", async () => {
    await startAuthentication(requestJSON, { conditional: true })
    const call = stub.get.mock.calls[0]?.[0] as CredentialRequestOptions
    expect(call.mediation).toBe("conditional")
    expect(call.publicKey?.allowCredentials).toEqual([])
    stub.conditional = false
    await expect(startAuthentication(requestJSON, { conditional: true })).rejects.toMatchObject({
      name: "NotSupportedError",
    })
  })

  it("a new ceremony aborts the pending one (a waiting autofill request when the button is clicked); the caller's signal aborts too", async () => {
    let conditionalSignal: AbortSignal | undefined
    stub.get.mockImplementationOnce((options: CredentialRequestOptions) => {
      conditionalSignal = options.signal
      return new Promise((_resolve, reject) =>
        options.signal?.addEventListener("abort", () => reject(options.signal?.reason)),
      )
    })
    const waiting = startAuthentication(requestJSON, { conditional: true })
    await vi.waitFor(() => expect(conditionalSignal).toBeDefined())
    await startAuthentication(requestJSON)
    await expect(waiting).rejects.toMatchObject({ name: "AbortError" })

    const controller = new AbortController()
    controller.abort()
    stub.get.mockImplementationOnce(async (options: CredentialRequestOptions) => {
      if (options.signal?.aborted) throw new DOMException("aborted", "AbortError")
      return assertionCredential()
    })
    await expect(startAuthentication(requestJSON, { signal: controller.signal })).rejects.toMatchObject({
      name: "AbortError",
    })
  })

  it("no WebAuthn in this browser: NotSupportedError", async () => {
    vi.stubGlobal("PublicKeyCredential", undefined)
    await expect(startRegistration(creationJSON)).rejects.toMatchObject({ name: "NotSupportedError" })
  })
})

describe("signIn (gatehouse/webauthn, and gatehouse/client for a webauthn provider)", () => {
  interface Sent {
    method: string
    url: string
    headers: Record<string, string>
    body: string
  }
  let sent: Sent[]
  let optionsAnswer: { status: number; body: unknown }
  let callbackUrl: string
  const posted: unknown[] = []

  beforeEach(() => {
    sent = []
    posted.length = 0
    callbackUrl = "http://localhost/dashboard"
    optionsAnswer = { status: 200, body: { action: "authenticate", options: requestJSON } }
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })
    vi.stubGlobal("fetch", async (input: string, init: RequestInit = {}) => {
      const url = String(input)
      sent.push({
        method: init.method ?? "GET",
        url,
        headers: { ...(init.headers as Record<string, string>) },
        body: String(init.body ?? ""),
      })
      const path = new URL(url, "http://localhost").pathname
      if (path.endsWith("/providers"))
        return json(200, {
          passkey: { id: "passkey", name: "Passkey", type: "webauthn", signinUrl: "", callbackUrl: "" },
        })
      if (path.endsWith("/csrf")) return json(200, { csrfToken: "csrf-1" })
      if (path.includes("/webauthn-options/")) return json(optionsAnswer.status, optionsAnswer.body)
      if (path.endsWith("/callback/passkey")) return json(200, { url: callbackUrl })
      return json(404, {})
    })
    vi.stubGlobal("window", { location: { href: "http://localhost/page", reload: () => undefined } })
    vi.stubGlobal(
      "BroadcastChannel",
      class {
        postMessage(message: unknown) {
          posted.push(message)
        }
        addEventListener() {}
      },
    )
    configure({ basePath: "/custom/auth" })
  })

  it("authenticates: options under the configured basePath, then the callback form (action, data, csrfToken, callbackUrl) with X-Auth-Return-Redirect", async () => {
    const changes: string[] = []
    const stop = subscribe((change) => {
      changes.push(change.trigger)
    })
    const result = await signIn("passkey", { redirect: false, redirectTo: "/dashboard" })
    stop()
    expect(result).toEqual({
      error: undefined,
      code: undefined,
      status: 200,
      ok: true,
      url: "http://localhost/dashboard",
    })
    expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual([
      "GET /custom/auth/providers",
      "GET /custom/auth/webauthn-options/passkey",
      "GET /custom/auth/csrf",
      "POST /custom/auth/callback/passkey",
    ])
    const callback = sent[3] as Sent
    expect(callback.headers["x-auth-return-redirect"]).toBe("1")
    const form = new URLSearchParams(callback.body)
    expect(form.get("action")).toBe("authenticate")
    expect(form.get("csrfToken")).toBe("csrf-1")
    expect(form.get("callbackUrl")).toBe("/dashboard")
    expect(JSON.parse(form.get("data") as string)).toMatchObject({
      id: b64("cred-1"),
      type: "public-key",
      response: { signature: b64("sig") },
    })
    // The session was set by this answer: this page's listeners and the other tabs are told, as after credentials.
    expect(changes).toEqual(["signin"])
    expect(posted).toContainEqual({ event: "session", data: { trigger: "signin" } })
  })

  it("registers when asked: action and email go in the options query and in the callback form", async () => {
    optionsAnswer = { status: 200, body: { action: "register", options: creationJSON } }
    const result = await signIn("passkey", { action: "register", email: "ada@example.com", redirect: false })
    expect(result.ok).toBe(true)
    const query = new URL(sent[1]?.url as string, "http://localhost").searchParams
    expect(Object.fromEntries(query)).toEqual({ email: "ada@example.com", action: "register" })
    const form = new URLSearchParams(sent[3]?.body)
    expect(form.get("action")).toBe("register")
    expect(form.get("email")).toBe("ada@example.com")
    expect(JSON.parse(form.get("data") as string).response.attestationObject).toBe(b64("attestation"))
  })

  it("the user cancels (NotAllowedError): a SignInResponse with the error, nothing posted, no throw", async () => {
    stub.get.mockRejectedValueOnce(
      new DOMException("The operation either timed out or was not allowed.", "NotAllowedError"),
    )
    const result = await signIn("passkey", { redirect: false })
    expect(result).toEqual({
      error: "WebAuthnCeremonyError",
      code: "NotAllowedError",
      status: 200,
      ok: false,
      url: null,
    })
    expect(sent.some((r) => r.method === "POST")).toBe(false)
  })

  it("the server refuses the options (400 Invalid action): WebAuthnOptionsError with the server's message", async () => {
    optionsAnswer = { status: 400, body: { error: "Invalid action" } }
    const result = await signIn("passkey", { action: "register", email: "taken@example.com", redirect: false })
    expect(result).toEqual({ error: "WebAuthnOptionsError", code: "Invalid action", status: 400, ok: false, url: null })
  })

  it("a failed verification: the error from the returned URL, url null, nobody told of a sign-in", async () => {
    callbackUrl = "http://localhost/custom/auth/signin?error=WebAuthnVerificationError"
    const result = await signIn("passkey", { redirect: false })
    expect(result).toEqual({ error: "WebAuthnVerificationError", code: undefined, status: 200, ok: false, url: null })
    expect(posted).toEqual([])
  })

  it("conditional: authenticates with mediation 'conditional' and sends no typed fields to the options route", async () => {
    await signIn("passkey", { conditional: true, email: "half-typed", redirect: false })
    expect(new URL(sent[1]?.url as string, "http://localhost").search).toBe("?action=authenticate")
    expect((stub.get.mock.calls[0]?.[0] as CredentialRequestOptions).mediation).toBe("conditional")
  })

  it("with redirect (the default) it navigates to the returned URL", async () => {
    const location = (globalThis as unknown as { window: { location: { href: string } } }).window.location
    await signIn("passkey", { redirectTo: "/dashboard" })
    expect(location.href).toBe("http://localhost/dashboard")
  })
})
