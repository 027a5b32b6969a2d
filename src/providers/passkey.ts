// The Passkey provider (Auth.js `Passkey`): WebAuthn with resident keys and user verification required.
import WebAuthn, { DEFAULT_WEBAUTHN_TIMEOUT, type WebAuthnConfig, type WebAuthnUserConfig } from "./webauthn.js"

export type { WebAuthnConfig, WebAuthnUserConfig } from "./webauthn.js"

/**
 * Creates a passkey provider (id `passkey`): a discoverable credential, and user verification (PIN, biometrics)
 * both asked for and required when the answer is checked, so a stolen unlocked device is not enough.
 */
export default function Passkey(config: WebAuthnUserConfig = {}): WebAuthnConfig {
  return WebAuthn({
    id: "passkey",
    name: "Passkey",
    authenticationOptions: { timeout: DEFAULT_WEBAUTHN_TIMEOUT, userVerification: "required" },
    registrationOptions: {
      timeout: DEFAULT_WEBAUTHN_TIMEOUT,
      authenticatorSelection: { residentKey: "required", userVerification: "required" },
    },
    verifyAuthenticationOptions: { requireUserVerification: true },
    verifyRegistrationOptions: { requireUserVerification: true },
    ...config,
  })
}
export { Passkey }
