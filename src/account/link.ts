// The one place that decides whether a verified identity may sign in (signIn callback); adapter linking arrives with adapters.
import { AccessDenied } from "../errors.js"
import type { ResolvedConfig } from "../config/resolve.js"
import type { VerifiedIdentity } from "../flows/credentials.js"
import type { AuthRequest } from "../request/parse.js"
import { applyRedirect } from "../security/redirect.js"

/**
 * Runs the `signIn` callback: `true` continues (undefined), a string ends the sign-in with a redirect
 * there (through the redirect callback), `false` or a throw is AccessDenied with the original message.
 */
export async function authorizeSignIn(identity: VerifiedIdentity, req: AuthRequest, config: ResolvedConfig): Promise<string | undefined> {
  const callback = config.callbacks.signIn
  if (!callback) return undefined
  let result: boolean | string
  try {
    result = await callback({
      user: identity.user,
      account: identity.account,
      ...(identity.profile ? { profile: identity.profile } : {}),
      ...(identity.credentials ? { credentials: identity.credentials } : {}),
    })
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    throw new AccessDenied(message, { cause: error })
  }
  if (typeof result === "string") return applyRedirect(result, req, config)
  if (!result) throw new AccessDenied("The signIn callback refused the sign-in.")
  return undefined
}
