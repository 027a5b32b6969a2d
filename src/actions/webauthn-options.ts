// GET /webauthn-options/<id>: the options of the ceremony this browser should run (the kind's step, flows/kinds/), never
// cached. The router answers it only for a kind that has the route.
import type { AuthRequest, KindRoutes, ResolvedConfig, ResolvedProvider } from "../pipeline-types.js"
import { NO_STORE_JSON_HEADERS } from "../response/build.js"
import type { ResponseInternal } from "../types.js"

export async function webAuthnOptionsAction(
  req: AuthRequest,
  config: ResolvedConfig,
  provider: ResolvedProvider,
  route: NonNullable<KindRoutes["webauthn-options"]>,
): Promise<ResponseInternal> {
  const answer = await route.options(req, config, provider)
  return {
    status: answer.status,
    headers: NO_STORE_JSON_HEADERS,
    body: answer.body,
    ...(answer.cookies.length ? { cookies: answer.cookies } : {}),
  }
}
