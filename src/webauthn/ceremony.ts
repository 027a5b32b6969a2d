// The two WebAuthn ceremonies in the browser: JSON options → navigator.credentials.create/get → JSON response.
// @see https://www.w3.org/TR/webauthn-3/#sctn-createCredential and #sctn-getAssertion
import { base64URLToBuffer, bufferToBase64URL } from "./base64url.js"
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialDescriptorJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "./types.js"

/** Options of `startAuthentication`. */
export interface StartAuthenticationOptions {
  /** Autofill sign-in (mediation "conditional"): the browser offers passkeys in an input with `autocomplete="… webauthn"`. */
  conditional?: boolean
  /** Aborts the pending request (the promise rejects with an AbortError). */
  signal?: AbortSignal
}

/** Options of `startRegistration`. */
export interface StartRegistrationOptions {
  signal?: AbortSignal
}

/** True when this browser has the WebAuthn API (a secure context with PublicKeyCredential and navigator.credentials). */
export function browserSupportsWebAuthn(): boolean {
  return (
    typeof globalThis.PublicKeyCredential === "function" &&
    typeof globalThis.navigator?.credentials?.create === "function"
  )
}

/** True when this browser offers passkeys in autofill (PublicKeyCredential.isConditionalMediationAvailable). */
export async function browserSupportsConditionalUI(): Promise<boolean> {
  if (!browserSupportsWebAuthn()) return false
  const check = globalThis.PublicKeyCredential.isConditionalMediationAvailable
  if (typeof check !== "function") return false
  try {
    return await check.call(globalThis.PublicKeyCredential)
  } catch {
    return false
  }
}

// Only one WebAuthn request can be pending in a page: a new ceremony cancels the previous one (typically a
// conditional request waiting in the autofill when the user clicks a "Sign in with passkey" button).
let pending: AbortController | undefined

function nextSignal(callerSignal: AbortSignal | undefined): AbortSignal {
  pending?.abort(new DOMException("Superseded by a newer WebAuthn request", "AbortError"))
  const controller = new AbortController()
  pending = controller
  if (callerSignal) {
    if (callerSignal.aborted) controller.abort(callerSignal.reason)
    else
      callerSignal.addEventListener("abort", () => controller.abort(callerSignal.reason), {
        once: true,
        signal: controller.signal,
      })
  }
  return controller.signal
}

function settle(signal: AbortSignal): void {
  if (pending?.signal === signal) pending = undefined
}

function descriptor(json: PublicKeyCredentialDescriptorJSON): PublicKeyCredentialDescriptor {
  const out: PublicKeyCredentialDescriptor = { type: json.type, id: base64URLToBuffer(json.id) }
  if (json.transports) out.transports = json.transports as AuthenticatorTransport[]
  return out
}

/** The JSON creation options as the object navigator.credentials.create takes (unknown members pass through). */
export function creationOptionsFromJSON(
  json: PublicKeyCredentialCreationOptionsJSON,
): PublicKeyCredentialCreationOptions {
  const { excludeCredentials, ...rest } = json
  return {
    ...rest,
    challenge: base64URLToBuffer(json.challenge),
    user: { ...json.user, id: base64URLToBuffer(json.user.id) },
    ...(excludeCredentials ? { excludeCredentials: excludeCredentials.map(descriptor) } : {}),
  }
}

/** The JSON request options as the object navigator.credentials.get takes; conditional requests allow any credential. */
export function requestOptionsFromJSON(
  json: PublicKeyCredentialRequestOptionsJSON,
  conditional = false,
): PublicKeyCredentialRequestOptions {
  const { allowCredentials, ...rest } = json
  // Autofill lists the discoverable credentials for the site; an allow list would only hide some of them.
  const allow = conditional ? [] : allowCredentials?.map(descriptor)
  return { ...rest, challenge: base64URLToBuffer(json.challenge), ...(allow ? { allowCredentials: allow } : {}) }
}

/** Calls a getter the browser may lack or refuse (older browsers, unsupported key types): undefined then. */
function optional<T>(read: (() => T) | undefined): T | undefined {
  if (typeof read !== "function") return undefined
  try {
    return read() ?? undefined
  } catch {
    return undefined
  }
}

function attachment(credential: PublicKeyCredential): string | undefined {
  return typeof credential.authenticatorAttachment === "string" ? credential.authenticatorAttachment : undefined
}

/** A new credential as RegistrationResponseJSON. */
export function registrationResponseToJSON(credential: PublicKeyCredential): RegistrationResponseJSON {
  const response = credential.response as AuthenticatorAttestationResponse
  const json: RegistrationResponseJSON = {
    id: credential.id,
    rawId: bufferToBase64URL(credential.rawId),
    type: "public-key",
    response: {
      clientDataJSON: bufferToBase64URL(response.clientDataJSON),
      attestationObject: bufferToBase64URL(response.attestationObject),
    },
    clientExtensionResults: credential.getClientExtensionResults(),
  }
  const transports = optional(response.getTransports?.bind(response))
  if (transports) json.response.transports = transports
  const algorithm = optional(response.getPublicKeyAlgorithm?.bind(response))
  if (algorithm !== undefined) json.response.publicKeyAlgorithm = algorithm
  const publicKey = optional(response.getPublicKey?.bind(response))
  if (publicKey) json.response.publicKey = bufferToBase64URL(publicKey)
  const authenticatorData = optional(response.getAuthenticatorData?.bind(response))
  if (authenticatorData) json.response.authenticatorData = bufferToBase64URL(authenticatorData)
  const attached = attachment(credential)
  if (attached) json.authenticatorAttachment = attached
  return json
}

/** An assertion as AuthenticationResponseJSON. */
export function authenticationResponseToJSON(credential: PublicKeyCredential): AuthenticationResponseJSON {
  const response = credential.response as AuthenticatorAssertionResponse
  const json: AuthenticationResponseJSON = {
    id: credential.id,
    rawId: bufferToBase64URL(credential.rawId),
    type: "public-key",
    response: {
      clientDataJSON: bufferToBase64URL(response.clientDataJSON),
      authenticatorData: bufferToBase64URL(response.authenticatorData),
      signature: bufferToBase64URL(response.signature),
    },
    clientExtensionResults: credential.getClientExtensionResults(),
  }
  if (response.userHandle && response.userHandle.byteLength > 0)
    json.response.userHandle = bufferToBase64URL(response.userHandle)
  const attached = attachment(credential)
  if (attached) json.authenticatorAttachment = attached
  return json
}

function notSupported(what: string): DOMException {
  return new DOMException(
    `${what} is not available in this browser (it needs WebAuthn in a secure context).`,
    "NotSupportedError",
  )
}

function asPublicKeyCredential(credential: Credential | null): PublicKeyCredential {
  if (credential === null || credential.type !== "public-key")
    throw new DOMException("The browser returned no public-key credential.", "NotAllowedError")
  return credential as PublicKeyCredential
}

/**
 * Creates a credential (passkey) from the server's registration options. Rejects with the browser's DOMException:
 * `NotAllowedError` when the user cancels or the request times out, `InvalidStateError` when the authenticator
 * already holds one of `excludeCredentials`.
 */
export async function startRegistration(
  optionsJSON: PublicKeyCredentialCreationOptionsJSON,
  options: StartRegistrationOptions = {},
): Promise<RegistrationResponseJSON> {
  if (!browserSupportsWebAuthn()) throw notSupported("Passkey registration")
  const signal = nextSignal(options.signal)
  try {
    const credential = await navigator.credentials.create({ publicKey: creationOptionsFromJSON(optionsJSON), signal })
    return registrationResponseToJSON(asPublicKeyCredential(credential))
  } finally {
    settle(signal)
  }
}

/**
 * Signs with a credential from the server's authentication options; with `conditional` the request waits in the
 * autofill of an input with `autocomplete="username webauthn"` until the user picks a passkey (or it is aborted).
 */
export async function startAuthentication(
  optionsJSON: PublicKeyCredentialRequestOptionsJSON,
  options: StartAuthenticationOptions = {},
): Promise<AuthenticationResponseJSON> {
  const conditional = options.conditional === true
  if (!browserSupportsWebAuthn()) throw notSupported("Passkey sign-in")
  if (conditional && !(await browserSupportsConditionalUI()))
    throw notSupported("Passkey autofill (conditional mediation)")
  const signal = nextSignal(options.signal)
  try {
    const request: CredentialRequestOptions = { publicKey: requestOptionsFromJSON(optionsJSON, conditional), signal }
    if (conditional) request.mediation = "conditional"
    return authenticationResponseToJSON(asPublicKeyCredential(await navigator.credentials.get(request)))
  } finally {
    settle(signal)
  }
}
