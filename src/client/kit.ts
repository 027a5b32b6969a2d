// The SvelteKit browser entries' one wrapper: gatehouse/sveltekit/client and gatehouse/sveltekit/webauthn both aim a
// gatehouse signIn at `${base}/auth` without a CSRF token. Not an entry point itself (kitSignIn is not public API).
import { base } from "$app/paths"
import { configure, withoutCsrfToken } from "./config.js"
import type { SignInAuthorizationParams, SignInResponse } from "./index.js"

/** Points the shared browser helpers at `${base}/auth` (set on each call: the module may be shared with gatehouse/client). */
export function useKitBasePath(): void {
  configure({ basePath: `${base}/auth` })
}

/** A browser signIn (gatehouse/client's or gatehouse/webauthn's) by its widest overload. */
type BrowserSignIn<O extends object> = (
  provider?: string,
  options?: O,
  authorizationParams?: SignInAuthorizationParams,
) => Promise<SignInResponse | void>

/**
 * Aims a browser signIn at `${base}/auth`, its POSTs without a CSRF token. Both SvelteKit entry points wrap theirs
 * with it and give the answer the original's overloads (`as typeof original`).
 */
export function kitSignIn<O extends object>(signIn: BrowserSignIn<O>): BrowserSignIn<O> {
  return (provider, options, authorizationParams) => {
    useKitBasePath()
    return signIn(provider, withoutCsrfToken(options), authorizationParams)
  }
}
