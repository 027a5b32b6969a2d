// GET /providers: every configured provider with its sign-in and callback URLs.
import type { AuthRequest, ResolvedConfig } from "../pipeline-types.js"
import { JSON_HEADERS } from "../response/build.js"
import type { ResponseInternal } from "../types.js"

export function providers(req: AuthRequest, config: ResolvedConfig): ResponseInternal {
  const base = `${req.origin}${config.basePath}`
  const body: Record<string, { id: string; name: string; type: string; signinUrl: string; callbackUrl: string }> = {}
  for (const p of config.providerList) {
    body[p.id] = {
      id: p.id,
      name: p.name,
      type: p.type,
      signinUrl: `${base}/signin/${p.id}`,
      callbackUrl: `${base}/callback/${p.id}`,
    }
  }
  return { status: 200, headers: JSON_HEADERS, body }
}
