// POST /signin[/<provider>] (CSRF-checked): start a sign-in with the provider's kind (flows/kinds/: a redirect to the
// provider, a mailed link, or back to the sign-in page); bare /signin goes to the sign-in page.
import type { AuthRequest, ResolvedConfig, ResolvedProvider } from "../pipeline-types.js"
import type { ResponseInternal } from "../types.js"

export async function signIn(
  req: AuthRequest,
  config: ResolvedConfig,
  provider: ResolvedProvider | undefined,
): Promise<ResponseInternal> {
  if (!provider) return { redirect: `${req.origin}${config.basePath}/signin` }
  return config.kindOf(provider).routes.signin.start(req, config, provider)
}
