// /callback/<provider>: finish a sign-in (flows/*) -> signIn callback -> session -> redirect. No protocol code here.
import { InvalidProvider } from "../errors.js"
import { authorizeSignIn } from "../account/link.js"
import type { ResolvedConfig, ResolvedProvider } from "../config/resolve.js"
import { emitEvent } from "../events.js"
import { type VerifiedIdentity, verifyCredentials } from "../flows/credentials.js"
import { finishOAuth } from "../flows/oauth.js"
import { finishOAuth1 } from "../flows/oauth1.js"
import type { AuthRequest } from "../request/parse.js"
import { resolveCallbackUrl } from "../security/redirect.js"
import { establishSession } from "../session/index.js"
import type { Cookie, ResponseInternal } from "../types.js"

/** Runs the flow of the provider's kind; returns the identity and any cookies the flow itself sets or clears. */
async function verify(req: AuthRequest, config: ResolvedConfig, provider: ResolvedProvider): Promise<{ identity: VerifiedIdentity; cookies: Cookie[] } | { redirect: string }> {
  switch (provider.type) {
    case "credentials":
      return { identity: await verifyCredentials(req, config, provider), cookies: [] }
    case "oauth":
    case "oidc": {
      const result = provider.oauth1
        ? await finishOAuth1(req, config, { ...provider, oauth1: provider.oauth1 })
        : await finishOAuth(req, config, provider)
      return result.kind === "forward" ? { redirect: result.redirect } : { identity: result.identity, cookies: result.cookies }
    }
    default:
      throw new InvalidProvider(`Sign-in with "${provider.type}" providers is not available in this version.`)
  }
}

export async function callback(req: AuthRequest, config: ResolvedConfig, provider: ResolvedProvider): Promise<ResponseInternal> {
  const verified = await verify(req, config, provider)
  if ("redirect" in verified) return { redirect: verified.redirect }
  const { identity, cookies } = verified
  const redirectTo = await authorizeSignIn(identity, req, config)
  if (redirectTo !== undefined) return { redirect: redirectTo, cookies }
  const established = await establishSession(identity, req, config)
  const isOAuth = identity.profile !== undefined
  await emitEvent(config, "signIn", {
    user: established.user, account: identity.account, ...(isOAuth ? { profile: identity.profile, isNewUser: established.isNewUser } : {}),
  })
  const callbackUrl = await resolveCallbackUrl(req, config)
  const newUserPage = config.pages.newUser
  const redirect = established.isNewUser && newUserPage
    ? `${newUserPage}${newUserPage.includes("?") ? "&" : "?"}${new URLSearchParams({ callbackUrl })}`
    : callbackUrl
  return { redirect, cookies: [...cookies, ...established.cookies] }
}
