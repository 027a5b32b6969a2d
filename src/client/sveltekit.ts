// gatehouse/sveltekit/client: @auth/sveltekit/client's browser signIn and signOut, which are gatehouse/client's aimed
// at the routes SvelteKitAuth serves (`${base}/auth`, `base` from SvelteKit's paths config). Their POSTs carry no
// CSRF token and `/auth/csrf` is not asked (it answers 404 there): SvelteKit's own origin check guards form POSTs.
import { withoutCsrfToken } from "./config.js"
import {
  signIn as clientSignIn,
  signOut as clientSignOut,
  type SignInAuthorizationParams,
  type SignInOptions,
  type SignInResponse,
  type SignOutParams,
  type SignOutResponse,
} from "./index.js"
import { kitSignIn, useKitBasePath } from "./kit.js"

export { useKitBasePath }
export type { SignInAuthorizationParams, SignInOptions, SignInResponse, SignOutParams, SignOutResponse }

/**
 * Signs in from the browser: OAuth and e-mail through `/auth/signin/<id>`, credentials through `/auth/callback/<id>`,
 * no provider to the sign-in page. Navigates to the answer, or with `redirect: false` resolves to a SignInResponse.
 */
export const signIn = kitSignIn(clientSignIn) as typeof clientSignIn

/** Signs out from the browser; navigates to `redirectTo` (default: this page), or with `redirect: false` resolves. */
export async function signOut(options?: SignOutParams<true>): Promise<void>
export async function signOut(options: SignOutParams<false>): Promise<SignOutResponse>
export async function signOut(options?: SignOutParams<boolean>): Promise<SignOutResponse | void> {
  useKitBasePath()
  return clientSignOut(withoutCsrfToken(options))
}
