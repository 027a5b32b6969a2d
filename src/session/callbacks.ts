// The only callers of the `jwt` and `session` callbacks: every strategy's issue and read go through these two.
import type { ResolvedConfig } from "../pipeline-types.js"
import type { CallbacksOptions, JWT, Session } from "../types.js"

type JwtParams = Parameters<NonNullable<CallbacksOptions["jwt"]>>[0]
/** The session callback's parameter: Auth.js types it as the intersection of the JWT and database forms. */
type SessionParams = Parameters<NonNullable<CallbacksOptions["session"]>>[0]

/** The `jwt` callback's token, or the token as given when none is configured; null ends the session. */
export async function applyJwtCallback(params: JwtParams, config: ResolvedConfig): Promise<JWT | null> {
  const callback = config.callbacks.jwt
  return callback ? callback(params) : params.token
}

/**
 * What `/session` answers: the `session` callback's result, or `fallback` (Auth.js's default shape: the user's name,
 * e-mail and image, and the expiry) when none is configured.
 */
export async function applySessionCallback(
  params: Partial<SessionParams> & Pick<SessionParams, "session">,
  fallback: Session,
  config: ResolvedConfig,
): Promise<Session> {
  const callback = config.callbacks.session
  return callback ? ((await callback(params as SessionParams)) as Session) : fallback
}
