// Server-action signIn, signOut and unstable_update (next-auth v5): each runs the one pipeline in-process with the
// current request's headers and cookies (in-process-actions.ts), writes the answer's cookies through next/headers, then
// redirects or returns.
import type { Session } from "../../types.js"
import {
  type ActionContext,
  type AuthorizationParams,
  type SignInOptions,
  type SignOutOptions,
  signInTarget,
  signOutTarget,
} from "../in-process-actions.js"
import { readServerSession } from "../session-read.js"
import { type DerivedConfig, resolvedFor } from "./config.js"
import { currentRequestSource, nextNavigation, setCookies, setSerializedCookies } from "./runtime.js"

export type { AuthorizationParams, SignInOptions, SignOutOptions }

/** The current request, the server-action config (raw, skipCSRFCheck) and next/headers' cookie writer. */
async function actionContext(derived: DerivedConfig): Promise<ActionContext> {
  return { source: await currentRequestSource(), resolved: resolvedFor(derived.actionConfig), setCookies }
}

async function finish(url: string, shouldRedirect: boolean): Promise<string> {
  if (!shouldRedirect) return url
  const { redirect } = await nextNavigation()
  return redirect(url)
}

/**
 * Signs in from a server action. No provider (or an unknown one): to the sign-in page. Credentials: the callback
 * runs in-process; OAuth/email: the sign-in step runs and the browser is sent on. Redirects unless `redirect: false`,
 * then returns the URL. A failed sign-in throws its AuthError (e.g. CredentialsSignin), as next-auth does.
 */
export async function signInAction(
  derived: DerivedConfig,
  provider?: string,
  options?: SignInOptions,
  authorizationParams?: AuthorizationParams,
): Promise<string> {
  const target = await signInTarget(await actionContext(derived), provider, options, authorizationParams)
  return finish(target.url, target.redirect)
}

/** Signs out from a server action: the session is revoked and its cookie cleared; redirects unless `redirect: false`. */
export async function signOutAction(derived: DerivedConfig, options?: SignOutOptions): Promise<{ redirect: string }> {
  const target = await signOutTarget(await actionContext(derived), options)
  await finish(target.url, target.redirect)
  return { redirect: target.url }
}

/** Updates the session from a server action (trigger "update", as POST /session) and writes the re-issued cookie. */
export async function updateAction(
  derived: DerivedConfig,
  data: Partial<Session | { user: Partial<Session["user"]> }>,
): Promise<Session | null> {
  const source = await currentRequestSource()
  const read = await readServerSession(source, derived.config, { data })
  await setSerializedCookies(read.setCookies)
  return read.session
}
