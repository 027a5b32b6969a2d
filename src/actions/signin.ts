// POST /signin[/<provider>] (CSRF-checked): start a sign-in; credentials and bare /signin go to the sign-in page.
import { InvalidProvider } from "../errors.js"
import { authorizeSignIn } from "../account/link.js"
import type { AuthRequest, ResolvedConfig, ResolvedProvider } from "../domain.js"
import { asEmailProvider, startEmail } from "../flows/email.js"
import { startOAuth } from "../flows/oauth.js"
import { startOAuth1 } from "../flows/oauth1.js"
import type { ResponseInternal } from "../types.js"

export async function signIn(
  req: AuthRequest,
  config: ResolvedConfig,
  provider: ResolvedProvider | undefined,
): Promise<ResponseInternal> {
  const signInPage = `${req.origin}${config.basePath}/signin`
  if (!provider || provider.type === "credentials" || provider.type === "webauthn") return { redirect: signInPage }
  if (provider.type === "oauth" || provider.type === "oidc") {
    return provider.oauth1
      ? startOAuth1(req, config, { ...provider, oauth1: provider.oauth1 })
      : startOAuth(req, config, provider)
  }
  if (provider.type === "email") {
    // The signIn callback decides before anything is stored or sent (wire.md §8.1 step 2).
    const start = await startEmail(req, config, asEmailProvider(provider))
    const redirectTo = await authorizeSignIn(start.identity, req, config, { verificationRequest: true })
    return { redirect: redirectTo ?? (await start.send()) }
  }
  throw new InvalidProvider(`Sign-in with "${provider.type}" providers is not available in this version.`)
}
