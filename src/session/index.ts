// The session layer's entry: issue a session for a verified identity (the single place sessions are created).
import type { ResolvedConfig } from "../config/resolve.js"
import type { VerifiedIdentity } from "../flows/credentials.js"
import type { AuthRequest } from "../request/parse.js"
import { readChunked } from "./cookie-store.js"
import type { Cookie, JWT } from "../types.js"
import { clearJwtSession, issueJwtSession } from "./jwt.js"
import { sessionAccountOf } from "./refresh.js"

/**
 * Issues the session for a signed-in identity: the default token `{name, email, picture, sub}`, then the
 * `jwt` callback (trigger "signIn"); a null token clears the session instead.
 */
export async function issueSession(identity: VerifiedIdentity, req: AuthRequest, config: ResolvedConfig, isNewUser = false): Promise<Cookie[]> {
  const { user, account, profile } = identity
  const seen = readChunked(req.cookies, config.cookies(req.secure).sessionToken.name).names
  let token: JWT | null = { name: user.name, email: user.email, picture: user.image, sub: user.id }
  const provider = config.providers.get(account.provider)
  if (provider && (provider.type === "oauth" || provider.type === "oidc") && provider.refreshAccessToken) {
    const kept = sessionAccountOf(account)
    if (kept) token.account = kept
  }
  const callback = config.callbacks.jwt
  if (callback) {
    token = await callback({ token, user, account, ...(profile ? { profile } : {}), isNewUser, trigger: isNewUser ? "signUp" : "signIn" })
  }
  if (!token) return clearJwtSession(req, config, seen)
  return (await issueJwtSession(token, req, config, seen)).cookies
}
