// /callback/<provider>: finish a sign-in (flows/*) -> signIn callback -> account/link -> session issue -> redirect.
// No protocol code here; every sign-in kind shares this one path from verified identity to session.
import { InvalidProvider } from "../errors.js"
import { authorizeSignIn, emitLinkEvents, linkIdentity, rollback } from "../account/link.js"
import type { AuthRequest, LinkOutcome, ResolvedConfig, ResolvedProvider, VerifiedIdentity } from "../domain.js"
import { emitEvent } from "../events.js"
import { verifyCredentials } from "../flows/credentials.js"
import { asEmailProvider, finishEmail } from "../flows/email.js"
import { finishOAuth } from "../flows/oauth.js"
import { finishOAuth1 } from "../flows/oauth1.js"
import { finishWebAuthn } from "../flows/webauthn.js"
import type { WebAuthnConfig } from "../providers/webauthn.js"
import { clearChecks } from "../security/checks.js"
import { resolveCallbackUrl } from "../security/redirect.js"
import type { Cookie, ResponseInternal } from "../types.js"

/** Runs the flow of the provider's kind; returns the identity and any cookies the flow itself sets or clears. */
async function verify(
  req: AuthRequest,
  config: ResolvedConfig,
  provider: ResolvedProvider,
): Promise<{ identity: VerifiedIdentity; cookies: Cookie[] } | { redirect: string }> {
  switch (provider.type) {
    case "credentials":
      return { identity: await verifyCredentials(req, config, provider), cookies: [] }
    case "oauth":
    case "oidc": {
      const result = provider.oauth1
        ? await finishOAuth1(req, config, { ...provider, oauth1: provider.oauth1 })
        : await finishOAuth(req, config, provider)
      return result.kind === "forward"
        ? { redirect: result.redirect }
        : { identity: result.identity, cookies: result.cookies }
    }
    case "email":
      return { identity: await finishEmail(req, config, asEmailProvider(provider)), cookies: [] }
    case "webauthn":
      // The challenge cookie is cleared by the response (success or error), with the other check cookies.
      return {
        identity: (await finishWebAuthn(req, config, provider as Readonly<WebAuthnConfig>)).identity,
        cookies: clearChecks(req, config),
      }
    default:
      throw new InvalidProvider(
        `Sign-in with "${(provider as { type: string }).type}" providers is not available in this version.`,
      )
  }
}

export async function callback(
  req: AuthRequest,
  config: ResolvedConfig,
  provider: ResolvedProvider,
): Promise<ResponseInternal> {
  const verified = await verify(req, config, provider)
  if ("redirect" in verified) return { redirect: verified.redirect }
  const { identity, cookies } = verified
  const redirectTo = await authorizeSignIn(identity, req, config)
  if (redirectTo !== undefined) return { redirect: redirectTo, cookies }
  const established = await signInAs(identity, req, config)
  const isOAuth = identity.profile !== undefined
  // As in Auth.js: OAuth sign-ins report the profile and isNewUser, e-mail and WebAuthn sign-ins isNewUser, credentials neither.
  const reportsNewUser = identity.account.type === "email" || identity.account.type === "webauthn"
  await emitEvent(config, "signIn", {
    user: established.user,
    account: identity.account,
    ...(isOAuth
      ? { profile: identity.profile, isNewUser: established.isNewUser }
      : reportsNewUser
        ? { isNewUser: established.isNewUser }
        : {}),
  })
  const callbackUrl = await resolveCallbackUrl(req, config)
  const newUserPage = config.pages.newUser
  const redirect =
    established.isNewUser && newUserPage
      ? `${newUserPage}${newUserPage.includes("?") ? "&" : "?"}${new URLSearchParams({ callbackUrl })}`
      : callbackUrl
  return { redirect, cookies: [...cookies, ...established.cookies] }
}

/**
 * Links the identity (account/link) and issues the session (session/); a failed issue undoes what linking wrote,
 * and the createUser / linkAccount events fire only for a sign-in that completed.
 */
async function signInAs(
  identity: VerifiedIdentity,
  req: AuthRequest,
  config: ResolvedConfig,
): Promise<LinkOutcome & { cookies: Cookie[] }> {
  const strategy = config.sessionStrategy
  const outcome = await linkIdentity(identity, () => strategy.currentUser(req, config), config)
  let cookies: Cookie[]
  try {
    cookies = await strategy.issue(outcome, identity, req, config)
  } catch (error) {
    if (config.adapter) await rollback(config.adapter, outcome, config)
    throw error
  }
  await emitLinkEvents(outcome, identity, config)
  return { ...outcome, cookies }
}
