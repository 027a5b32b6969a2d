// /callback/<provider>: finish a sign-in (flows/*) -> signIn callback -> session -> redirect. No protocol code here.
import { InvalidProvider } from "../errors.js"
import { authorizeSignIn } from "../account/link.js"
import type { ResolvedConfig } from "../config/resolve.js"
import { emitEvent } from "../events.js"
import { verifyCredentials } from "../flows/credentials.js"
import type { AuthRequest } from "../request/parse.js"
import { resolveCallbackUrl } from "../security/redirect.js"
import { issueSession } from "../session/index.js"
import type { ResponseInternal } from "../types.js"
import type { ResolvedProvider } from "../config/resolve.js"

export async function callback(req: AuthRequest, config: ResolvedConfig, provider: ResolvedProvider): Promise<ResponseInternal> {
  if (provider.type !== "credentials") {
    throw new InvalidProvider(`Sign-in with "${provider.type}" providers is not available in this version.`)
  }
  const identity = await verifyCredentials(req, config, provider)
  const redirectTo = await authorizeSignIn(identity, req, config)
  if (redirectTo !== undefined) return { redirect: redirectTo }
  const cookies = await issueSession(identity, req, config)
  await emitEvent(config, "signIn", { user: identity.user, account: identity.account })
  return { redirect: await resolveCallbackUrl(req, config), cookies }
}
