// Steps and resolution shared by several sign-in kinds: a provider kept as configured, and the way back to the page.
import type { AuthRequest, ResolvedConfig, ResolvedProvider } from "../../pipeline-types.js"
import type { ProviderConfig } from "../../providers/types.js"
import type { ResponseInternal } from "../../types.js"

/** A provider kept as configured (frozen, `name` defaulting to the id), with `extra` fields set over it. */
export function asConfigured(provider: ProviderConfig, extra?: Record<string, unknown>): ResolvedProvider {
  return Object.freeze({ ...provider, ...extra, name: provider.name ?? provider.id }) as ResolvedProvider
}

/** The start step of a kind that signs in on the sign-in page itself (credentials, WebAuthn): back to that page. */
export async function toSignInPage(req: AuthRequest, config: ResolvedConfig): Promise<ResponseInternal> {
  return { redirect: `${req.origin}${config.basePath}/signin` }
}
