// gatehouse/sveltekit/webauthn: @auth/sveltekit/webauthn's signIn, gatehouse/webauthn's passkey sign-in aimed at
// `${base}/auth` (any other provider goes through the ordinary browser sign-in), without a CSRF token as
// gatehouse/sveltekit/client's.
import type { SignInAuthorizationParams, SignInResponse } from "../client/index.js"
import { signIn as webAuthnSignIn, type WebAuthnAction, type WebAuthnSignInOptions } from "./index.js"
import { kitSignIn } from "../client/kit.js"

export type { SignInAuthorizationParams, SignInResponse, WebAuthnAction, WebAuthnSignInOptions }

/** Signs in with a passkey when `provider` is a WebAuthn provider (the ceremony in the browser), else as client.ts does. */
export const signIn = kitSignIn(webAuthnSignIn) as typeof webAuthnSignIn
