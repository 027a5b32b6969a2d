// The JSON forms of WebAuthn options and responses, as @simplewebauthn/server v13/v14 (and so the server) reads and
// writes them: every binary field is a base64url string. Field names follow WebAuthn Level 3's JSON serialisation.
// @see https://www.w3.org/TR/webauthn-3/#sctn-parseCreationOptionsFromJSON
import type { Base64URLString } from "./base64url.js"

export type { Base64URLString } from "./base64url.js"

/** A credential the options allow or exclude. */
export interface PublicKeyCredentialDescriptorJSON {
  id: Base64URLString
  type: "public-key"
  /** Kept as strings: a server may name transports this browser's types do not know yet. */
  transports?: string[]
}

/** The registration options `GET /webauthn-options/<id>` answers for `action: "register"`. */
export interface PublicKeyCredentialCreationOptionsJSON {
  rp: { id?: string; name: string }
  user: { id: Base64URLString; name: string; displayName: string }
  challenge: Base64URLString
  pubKeyCredParams: { type: "public-key"; alg: number }[]
  timeout?: number
  excludeCredentials?: PublicKeyCredentialDescriptorJSON[]
  authenticatorSelection?: AuthenticatorSelectionCriteria
  hints?: string[]
  attestation?: AttestationConveyancePreference
  attestationFormats?: string[]
  extensions?: AuthenticationExtensionsClientInputs
}

/** The authentication options `GET /webauthn-options/<id>` answers for `action: "authenticate"`. */
export interface PublicKeyCredentialRequestOptionsJSON {
  challenge: Base64URLString
  timeout?: number
  rpId?: string
  allowCredentials?: PublicKeyCredentialDescriptorJSON[]
  userVerification?: UserVerificationRequirement
  hints?: string[]
  extensions?: AuthenticationExtensionsClientInputs
}

/** What a new credential is posted as (`data` of `action=register`). */
export interface RegistrationResponseJSON {
  id: Base64URLString
  rawId: Base64URLString
  type: "public-key"
  response: {
    clientDataJSON: Base64URLString
    attestationObject: Base64URLString
    /** Read with getAuthenticatorData() where the browser has it. */
    authenticatorData?: Base64URLString
    /** Read with getTransports(): the server stores them to hint later sign-ins. */
    transports?: string[]
    publicKeyAlgorithm?: number
    publicKey?: Base64URLString
  }
  authenticatorAttachment?: string
  clientExtensionResults: AuthenticationExtensionsClientOutputs
}

/** What an assertion is posted as (`data` of `action=authenticate`). */
export interface AuthenticationResponseJSON {
  id: Base64URLString
  rawId: Base64URLString
  type: "public-key"
  response: {
    clientDataJSON: Base64URLString
    authenticatorData: Base64URLString
    signature: Base64URLString
    userHandle?: Base64URLString
  }
  authenticatorAttachment?: string
  clientExtensionResults: AuthenticationExtensionsClientOutputs
}

/** What the server's options answer asks the browser to do. */
export type WebAuthnAction = "register" | "authenticate"
