// gatehouse/sveltekit: @auth/sveltekit's API (SvelteKitAuth → handle, signIn, signOut) as a front door to the one
// pipeline. The entry imports SvelteKit's virtual modules ($env/dynamic/private, $app/paths, $app/environment), so
// it runs only inside an app that vite builds (package.json's "svelte" condition).
import "@sveltejs/kit"
import type { Action, Handle, RequestEvent } from "@sveltejs/kit"
import { redirect } from "@sveltejs/kit"
import { building, dev } from "$app/environment"
import { base } from "$app/paths"
import { env } from "$env/dynamic/private"
import { isAuthAction } from "../../actions/table.js"
import { trustHostRule } from "../../config/env.js"
import { resolveConfig } from "../../config/resolve.js"
import { setConfigEnv } from "../../lib/env.js"
import type { ResolvedConfig } from "../../pipeline-types.js"
import { handle as runPipeline } from "../../pipeline.js"
import { webInput } from "../../request/input.js"
import { toResponse } from "../../response/build.js"
import { raw, skipCSRFCheck } from "../../symbols.js"
import type { AuthConfig, Cookie, Session } from "../../types.js"
import { deriveFrontDoorConfig, type FrontDoor, PerConfig } from "../front-door.js"
import {
  type ActionContext,
  type ActionTarget,
  type AuthorizationParams,
  type SignInOptions,
  signInTarget,
  signOutTarget,
} from "../in-process-actions.js"
import { readServerSession, type SessionSource } from "../session-read.js"
import type { SvelteKitAuthConfig } from "./types.js"

export { AuthError, CredentialsSignin } from "../../errors.js"
export { customFetch } from "../../symbols.js"
export type { Account, DefaultSession, Profile, Session, User } from "../../types.js"
export type { InferJWT, InferSession } from "../../infer.js"
export type {
  LocalsSignInOptions,
  LocalsSignOutOptions,
  Register,
  RegisteredSession,
  SvelteKitAuthConfig,
} from "./types.js"

/**
 * `$env/dynamic/private`: the app's runtime environment (process.env under adapter-node, the platform's elsewhere).
 * Read through the import binding on each call, not envReader(env): SvelteKit assigns a new object to that binding
 * when its server starts, so an object taken at module load could be the empty one from before.
 */
function privateEnv(name: string): string | undefined {
  return env[name] || undefined
}

/** One user config, derived once: what `handle` and `locals.auth()` run, and the copy the actions run (raw). */
interface Derived {
  readonly basePath: string
  readonly resolved: ResolvedConfig
  /** With `raw`: an AuthError of a sign-in (CredentialsSignin) is thrown to the action, as @auth/sveltekit does. */
  readonly actions: ResolvedConfig
}

const derivedConfigs = new PerConfig<Derived>()

/**
 * @auth/sveltekit's derivation: basePath `${base}/auth` whatever the config says; CSRF left to SvelteKit's own origin
 * check on form posts (skipCSRFCheck); the host trusted in `vite dev`. Unlike @auth/sveltekit (next-auth #12284, where
 * `dev` set trustHost to false first), a production build also honours AUTH_TRUST_HOST and AUTH_URL.
 */
function derive(config: SvelteKitAuthConfig): Derived {
  const basePath = `${base}/auth`
  const door: FrontDoor = { env: privateEnv, defaultBasePath: basePath, basePath }
  const trustHost = trustHostRule(config.trustHost ?? (dev ? true : undefined), privateEnv, { platformDefaults: false })
  const made = deriveFrontDoorConfig<AuthConfig>(config, door, { trustHost, skipCSRFCheck })
  const forActions: AuthConfig = { ...made, raw }
  setConfigEnv(forActions, privateEnv)
  return { basePath, resolved: resolveConfig(made), actions: resolveConfig(forActions) }
}

async function derivedFor(
  input: SvelteKitAuthConfig | ((event: RequestEvent) => PromiseLike<SvelteKitAuthConfig>),
  event: RequestEvent,
): Promise<Derived> {
  const config = typeof input === "function" ? await input(event) : input
  return derivedConfigs.get(config, "", () => derive(config))
}

/** The request of an event as a session read sees it: the URL it arrived on, and its headers. */
function sourceOf(event: RequestEvent): SessionSource {
  const headers = event.request.headers
  return { url: event.url, header: headers, headers: () => headers }
}

/** Writes cookies through SvelteKit's `cookies.set` (it rejects Set-Cookie headers); path "/" unless one is given. */
function cookieWriter(event: RequestEvent): (cookies: Cookie[]) => void {
  return (cookies) => {
    for (const { name, value, options } of cookies) event.cookies.set(name, value, { path: "/", ...options })
  }
}

async function sessionOf(event: RequestEvent, derived: Derived): Promise<Session | null> {
  const read = await readServerSession(sourceOf(event), derived.resolved)
  cookieWriter(event)(read.cookies)
  return read.session
}

function actionContext(event: RequestEvent, derived: Derived): ActionContext {
  return { source: sourceOf(event), resolved: derived.actions, setCookies: cookieWriter(event) }
}

/** Sends the browser on (SvelteKit's redirect, a throw) or hands back the URL. */
function finish(target: ActionTarget): string {
  if (target.redirect) redirect(302, target.url)
  return target.url
}

/** The form field prefix of the OAuth authorization parameters (@auth/sveltekit's SignIn component writes them). */
const AUTHORIZATION_PARAM = "authorizationParams-"

/** A sign-in form's fields: `providerId`, `authorizationParams-<name>`, and the rest (redirectTo, credentials). */
function signInForm(form: FormData): {
  provider: string | undefined
  options: Record<string, unknown>
  authorizationParams: Record<string, string>
} {
  let provider: string | undefined
  const options: Record<string, unknown> = {}
  const authorizationParams: Record<string, string> = {}
  for (const [key, value] of form) {
    if (key === "providerId") provider = typeof value === "string" ? value : undefined
    else if (key.startsWith(AUTHORIZATION_PARAM) && typeof value === "string")
      authorizationParams[key.slice(AUTHORIZATION_PARAM.length)] = value
    else options[key] = value
  }
  return { provider: provider || undefined, options, authorizationParams }
}

/** The client's address as the adapter reports it; some adapters cannot tell (then the rate limiter falls back). */
function clientAddressOf(event: RequestEvent): string | undefined {
  try {
    return event.getClientAddress()
  } catch {
    return undefined
  }
}

/** Whether a path is one of the auth routes under `basePath` (anything else there goes on to the app's routes). */
function isAuthRoute(path: string, basePath: string): boolean {
  if (!path.startsWith(`${basePath}/`)) return false
  const rest = path.slice(basePath.length + 1)
  const slash = rest.indexOf("/")
  return isAuthAction(slash === -1 ? rest : rest.slice(0, slash))
}

/** The result of SvelteKitAuth. */
export interface SvelteKitAuthResult {
  /** The server hook: answers the auth routes under `${base}/auth` and sets `event.locals.auth()`. */
  handle: Handle
  /** Form action (`export const actions = { default: signIn }`): reads `providerId`, `redirectTo`, `authorizationParams-*`. */
  signIn: Action
  /** Form action: signs out, then redirects to `redirectTo` (else the Referer, else "/"). */
  signOut: Action
}

/**
 * Gatehouse for SvelteKit, with @auth/sveltekit's API: `export const { handle, signIn, signOut } = SvelteKitAuth(config)`.
 * `config` may be a function of the request event (called per request); return the same object each time so it is
 * derived and resolved once.
 */
export function SvelteKitAuth(
  config: SvelteKitAuthConfig | ((event: RequestEvent) => PromiseLike<SvelteKitAuthConfig>),
): SvelteKitAuthResult {
  const signInAction: Action = async (event) => {
    if (building) return
    const derived = await derivedFor(config, event)
    const { provider, options, authorizationParams } = signInForm(await event.request.formData())
    finish(await signInTarget(actionContext(event, derived), provider, options, authorizationParams))
  }

  const signOutAction: Action = async (event) => {
    if (building) return
    const derived = await derivedFor(config, event)
    const form = await event.request.formData()
    const redirectTo = form.get("redirectTo")
    const redirectField = form.get("redirect")
    finish(
      await signOutTarget(actionContext(event, derived), {
        ...(typeof redirectTo === "string" ? { redirectTo } : {}),
        ...(redirectField === "false" ? { redirect: false } : {}),
      }),
    )
  }

  const handle: Handle = async ({ event, resolve }) => {
    const locals = event.locals
    if (building) {
      // Prerendering has no request to read: pages see a signed-out visitor.
      locals.auth ??= async () => null
      locals.getSession ??= locals.auth
      return resolve(event)
    }
    const derived = await derivedFor(config, event)
    // Typed as the registered config's session (types.ts, Register): the same read, typed per app.
    locals.auth ??= (() => sessionOf(event, derived)) as App.Locals["auth"]
    locals.getSession ??= locals.auth
    locals.signIn ??= (async (provider?: string, options?: SignInOptions, params?: AuthorizationParams) =>
      finish(await signInTarget(actionContext(event, derived), provider, options, params))) as App.Locals["signIn"]
    locals.signOut ??= (async (options?: { redirectTo?: string; redirect?: boolean }) =>
      finish(await signOutTarget(actionContext(event, derived), options))) as App.Locals["signOut"]
    if (!isAuthRoute(event.url.pathname, derived.basePath)) return resolve(event)
    const request = event.request
    const input = webInput(request, { clientAddress: clientAddressOf(event) })
    const answer = await runPipeline(input, derived.resolved)
    try {
      return toResponse(answer, request.headers.get("x-auth-return-redirect") !== null, request.method === "HEAD")
    } catch (failure) {
      // A header value the Response constructor refuses (e.g. a configured page URL with a newline).
      derived.resolved.logger.error(failure instanceof Error ? failure : new Error(String(failure)))
      return new Response(null, { status: 500 })
    }
  }

  return { handle, signIn: signInAction, signOut: signOutAction }
}
