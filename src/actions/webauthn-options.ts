// GET /webauthn-options/<id>: the options of the ceremony this browser should run (flows/webauthn.ts), never cached.
import { InvalidProvider } from "../errors.js"
import type { AuthRequest, ResolvedConfig, ResolvedProvider } from "../domain.js"
import { webAuthnOptions } from "../flows/webauthn.js"
import type { WebAuthnConfig } from "../providers/webauthn.js"
import { NO_STORE_JSON_HEADERS } from "../response/build.js"
import type { ResponseInternal } from "../types.js"

export async function webAuthnOptionsAction(
  req: AuthRequest,
  config: ResolvedConfig,
  provider: ResolvedProvider,
): Promise<ResponseInternal> {
  if (provider.type !== "webauthn") throw new InvalidProvider(`Provider "${provider.id}" is not a WebAuthn provider.`)
  const answer = await webAuthnOptions(req, config, provider as Readonly<WebAuthnConfig>)
  return {
    status: answer.status,
    headers: NO_STORE_JSON_HEADERS,
    body: answer.body,
    ...(answer.cookies.length ? { cookies: answer.cookies } : {}),
  }
}
