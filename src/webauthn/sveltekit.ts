// gatehouse/sveltekit/webauthn: @auth/sveltekit/webauthn's signIn, gatehouse/webauthn's passkey sign-in aimed at
// `${base}/auth` (any other provider goes through the ordinary browser sign-in), without a CSRF token as
// gatehouse/sveltekit/client's.
import type { SignInAuthorizationParams, SignInResponse } from "../client/index.js"
import { signIn as webAuthnSignIn, type WebAuthnAction, type WebAuthnSignInOptions } from "./index.js"
import { withoutCsrfToken } from "../client/config.js"
import { useKitBasePath } from "../client/sveltekit.js"

export type { SignInAuthorizationParams, SignInResponse, WebAuthnAction, WebAuthnSignInOptions }

/** Signs in with a passkey when `provider` is a WebAuthn provider (the ceremony in the browser), else as client.ts does. */
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
): Promise<SignInResponse | void> {
  useKitBasePath()
  return webAuthnSignIn(provider, withoutCsrfToken(options), authorizationParams)
}
