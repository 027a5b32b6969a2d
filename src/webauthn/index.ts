// Public `gatehouse/webauthn` (browser only, as next-auth/webauthn): passkey sign-in and the ceremony helpers.
// signIn is gatehouse/client's (which runs the passkey ceremony for a "webauthn" provider), typed with the
// passkey options; configure({ basePath }) from gatehouse/client applies here too (one shared module).
import { signIn as clientSignIn } from "../client/index.js"
import type { SignInAuthorizationParams, SignInResponse } from "../client/index.js"
import type { WebAuthnAction } from "./types.js"

export { configure } from "../client/config.js"
export type { SignInAuthorizationParams, SignInResponse } from "../client/index.js"
export { base64URLToBuffer, bufferToBase64URL } from "./base64url.js"
export {
  authenticationResponseToJSON,
  browserSupportsConditionalUI,
  browserSupportsWebAuthn,
  creationOptionsFromJSON,
  registrationResponseToJSON,
  requestOptionsFromJSON,
  startAuthentication,
  startRegistration,
} from "./ceremony.js"
export type { StartAuthenticationOptions, StartRegistrationOptions } from "./ceremony.js"
export type {
  AuthenticationResponseJSON,
  Base64URLString,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialDescriptorJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
  WebAuthnAction,
} from "./types.js"

/**
 * Options of a passkey `signIn`. Other string fields (custom `formFields`) go to the options request and the callback.
 * A failed attempt with `redirect: false` answers `error: "WebAuthnCeremonyError"` (`code`: the browser's
 * DOMException name, `NotAllowedError` when the user cancels) or `"WebAuthnOptionsError"` (`code`: the server's message).
 */
export type WebAuthnSignInOptions<Redirect extends boolean = true> = Record<string, unknown> & {
  /** Ask for one ceremony; default: the server decides (register for an unknown `email`, otherwise authenticate). */
  action?: WebAuthnAction
  /** The account's e-mail: needed to register; optional to authenticate (a discoverable passkey names its user). */
  email?: string
  /** Autofill sign-in (mediation "conditional"): waits until the user picks a passkey in a `username webauthn` field. */
  conditional?: boolean
  /** Cancels a pending (typically conditional) request; a newer signIn cancels it too. */
  signal?: AbortSignal
  /** Where the user lands after signing in; default: the current page. */
  redirectTo?: string
  /** @deprecated Use `redirectTo`. */
  callbackUrl?: string
  /** `false` answers a SignInResponse instead of navigating (default true). */
  redirect?: Redirect
}

/**
 * Signs in with a passkey when `provider` is a WebAuthn provider (GET /webauthn-options, the browser ceremony, POST
 * /callback); any other provider goes through gatehouse/client's signIn. The user cancelling never throws: the page
 * stays (with `redirect: false`, the answer has `ok: false` and the error).
 */
export async function signIn(
  provider?: string,
  options?: WebAuthnSignInOptions<true>,
  authorizationParams?: SignInAuthorizationParams,
): Promise<void>
export async function signIn(
  provider: string | undefined,
  options: WebAuthnSignInOptions<false>,
  authorizationParams?: SignInAuthorizationParams,
): Promise<SignInResponse>
export async function signIn(
  provider?: string,
  options?: WebAuthnSignInOptions<boolean>,
  authorizationParams?: SignInAuthorizationParams,
): Promise<SignInResponse | void>
export async function signIn(
  provider?: string,
  options?: WebAuthnSignInOptions<boolean>,
  authorizationParams?: SignInAuthorizationParams,
): Promise<SignInResponse | void> {
  return clientSignIn(provider, options, authorizationParams)
}
