// /callback/<provider>: finish a sign-in (the kind's step, flows/kinds/) -> signIn callback -> account/link -> session
// issue -> redirect. No protocol code here; every sign-in kind shares this one path from verified identity to session.
import { authorizeSignIn, emitLinkEvents, linkIdentity, rollback } from "../account/link.js"
import type {
  AuthRequest,
  LinkOutcome,
  LinkRule,
  ResolvedConfig,
  ResolvedProvider,
  VerifiedIdentity,
} from "../pipeline-types.js"
import { emitEvent } from "../events.js"
import { resolveCallbackUrl } from "../security/redirect.js"
import { withQuery } from "../lib/page-url.js"
import type { Cookie, ResponseInternal } from "../types.js"

export async function callback(
  req: AuthRequest,
  config: ResolvedConfig,
  provider: ResolvedProvider,
): Promise<ResponseInternal> {
  const kind = config.kindOf(provider)
  const verified = await kind.routes.callback.finish(req, config, provider)
  if ("redirect" in verified) return { redirect: verified.redirect }
  const { identity, cookies } = verified
  // Without a signIn callback there is nothing to ask (authorizeSignIn would answer undefined): no await for it.
  const redirectTo = config.callbacks.signIn ? await authorizeSignIn(identity, req, config) : undefined
  if (redirectTo !== undefined) return { redirect: redirectTo, cookies }
  const established = await signInAs(identity, req, config, kind.linking)
  const isOAuth = identity.profile !== undefined
  // As in Auth.js: OAuth sign-ins report the profile and isNewUser, e-mail and WebAuthn sign-ins isNewUser, credentials neither.
  const reportsNewUser = kind.reportsNewUser
  // The message is built only for a handler (emitEvent would drop it): no object and no await per sign-in without one.
  if (config.events.signIn)
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
    established.isNewUser && newUserPage ? withQuery(newUserPage, new URLSearchParams({ callbackUrl })) : callbackUrl
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
  rule: LinkRule,
): Promise<Pick<LinkOutcome, "user" | "isNewUser"> & { cookies: Cookie[] }> {
  const strategy = config.sessionStrategy
  const outcome = await linkIdentity(identity, rule, () => strategy.currentUser(req, config), config)
  let cookies: Cookie[]
  try {
    cookies = await strategy.issue(outcome, identity, req, config)
  } catch (error) {
    if (config.adapter) await rollback(config.adapter, outcome, config)
    throw error
  }
  // Only a sign-in that created, updated or linked something has events to emit (a credentials one never does).
  if (outcome.createdUser || outcome.linkedAccount || "updatedUser" in outcome)
    await emitLinkEvents(outcome, identity, config)
  return { user: outcome.user, isNewUser: outcome.isNewUser, cookies }
}
