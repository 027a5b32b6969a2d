// The server-side signIn and signOut of the front doors whose framework posts forms to the app itself (next-auth v5's
// server actions, @auth/sveltekit's form actions): one POST run through the pipeline in-process with the current
// request's headers, its cookies handed to the framework's own cookie writer, and the URL the browser goes on to.
import { utf8 } from "#crypto"
import { handle } from "../pipeline.js"
import type { ResolvedConfig } from "../pipeline-types.js"
import { resolveOrigin } from "../request/host.js"
import type { RequestInput } from "../request/input.js"
import type { Cookie } from "../types.js"
import type { SessionSource } from "./session-read.js"

/** Options of a server-side sign-in: where to land afterwards, whether to redirect, and provider fields (credentials). */
export type SignInOptions = FormData | ({ redirectTo?: string; redirect?: boolean } & Record<string, unknown>)

/** Options of a server-side sign-out. */
export interface SignOutOptions {
  /** Where to land after signing out; default: the Referer, else "/". */
  redirectTo?: string
  /** false: return the URL instead of redirecting. */
  redirect?: boolean
}

/** Extra parameters for the OAuth authorization request, in any form URLSearchParams accepts. */
export type AuthorizationParams = string | string[][] | Record<string, string> | URLSearchParams

/** One in-process action: the request it runs for, the config (raw, skipCSRFCheck) and the framework's cookie writer. */
export interface ActionContext {
  readonly source: SessionSource
  /** The resolved config with `raw` (AuthErrors are thrown to the caller) and `skipCSRFCheck` (the framework checks). */
  readonly resolved: ResolvedConfig
  setCookies(cookies: Cookie[]): void | Promise<void>
}

/** Where the browser goes next, and whether the caller asked to be sent there. */
export interface ActionTarget {
  readonly url: string
  readonly redirect: boolean
}

/** Form fields Next adds to server-action forms; they are not the user's. */
function isNextActionField(key: string): boolean {
  return key.startsWith("$ACTION")
}

function optionsRecord(options: SignInOptions | undefined): Record<string, unknown> {
  if (options === undefined) return {}
  if (typeof FormData !== "undefined" && options instanceof FormData) {
    const out: Record<string, unknown> = {}
    for (const [key, value] of options) if (!isNextActionField(key)) out[key] = value
    return out
  }
  return { ...(options as Record<string, unknown>) }
}

/** A string for a form field, as URLSearchParams would make it (files become their name). */
function fieldString(value: unknown): string {
  if (typeof value === "string") return value
  if (typeof File !== "undefined" && value instanceof File) return value.name
  return String(value)
}

/** The request headers with the content type of the in-process body; an `X-Auth-Return-Redirect` is not forwarded. */
function actionHeaders(
  source: SessionSource,
  contentType: string,
): { header: RequestInput["header"]; headers: () => Headers } {
  const header = {
    get(name: string): string | null {
      const lower = name.toLowerCase()
      if (lower === "content-type") return contentType
      if (lower === "content-length" || lower === "x-auth-return-redirect") return null
      return source.header.get(name)
    },
  }
  const headers = (): Headers => {
    const all = new Headers(source.headers?.())
    all.set("content-type", contentType)
    all.delete("content-length")
    all.delete("x-auth-return-redirect")
    return all
  }
  return { header, headers }
}

const FORM = "application/x-www-form-urlencoded"

/** Runs one form POST through the pipeline in-process and hands its cookies to the framework. */
async function post(context: ActionContext, url: string, form: URLSearchParams) {
  const bytes = utf8(form.toString())
  const input: RequestInput = {
    method: "POST",
    url: new URL(url),
    ...actionHeaders(context.source, FORM),
    readBody: async (limit) => (bytes.byteLength > limit ? undefined : bytes),
  }
  const answer = await handle(input, context.resolved)
  if (answer.cookies?.length) await context.setCookies(answer.cookies)
  return answer
}

/** The canonical origin and basePath URL of the current request (AUTH_URL, trusted forwarded headers, or Host). */
function actionUrl(context: ActionContext, action: string): string {
  const { origin } = resolveOrigin(context.source.url, context.source.header, context.resolved)
  return `${origin}${context.resolved.basePath}/${action}`
}

/** A `redirect` option, also as a form field ("false"). */
function wantsRedirect(value: unknown): boolean {
  return value !== false && value !== "false"
}

/**
 * Signs in. No provider (or an unknown one): the sign-in page. Credentials: the callback runs in-process; OAuth and
 * e-mail: the sign-in step runs and the browser is sent on. A failed sign-in throws its AuthError (CredentialsSignin).
 */
export async function signInTarget(
  context: ActionContext,
  provider?: string,
  options?: SignInOptions,
  authorizationParams?: AuthorizationParams,
): Promise<ActionTarget> {
  const { source, resolved } = context
  const { redirect = true, redirectTo, ...rest } = optionsRecord(options)
  const shouldRedirect = wantsRedirect(redirect)
  const callbackUrl = redirectTo !== undefined ? fieldString(redirectTo) : (source.header.get("referer") ?? "/")
  const found = provider === undefined || provider === "" ? undefined : resolved.providers.get(provider)
  if (provider === undefined || found === undefined) {
    return { url: `${actionUrl(context, "signin")}?${new URLSearchParams({ callbackUrl })}`, redirect: shouldRedirect }
  }
  const query = new URLSearchParams(authorizationParams).toString()
  // Where the provider's kind takes a form POST (credentials: the callback, which signs in; the rest: /signin).
  const action = resolved.kindOf(found).formAction
  const url = `${actionUrl(context, action)}/${encodeURIComponent(provider)}${query ? `?${query}` : ""}`
  const form = new URLSearchParams()
  for (const [key, value] of Object.entries(rest)) form.set(key, fieldString(value))
  form.set("callbackUrl", callbackUrl)
  const answer = await post(context, url, form)
  return { url: answer.redirect ?? answer.headers?.Location ?? url, redirect: shouldRedirect }
}

/** Signs out: the session is revoked and its cookie cleared. */
export async function signOutTarget(context: ActionContext, options?: SignOutOptions): Promise<ActionTarget> {
  const callbackUrl = options?.redirectTo ?? context.source.header.get("referer") ?? "/"
  const answer = await post(context, actionUrl(context, "signout"), new URLSearchParams({ callbackUrl }))
  return { url: answer.redirect ?? answer.headers?.Location ?? callbackUrl, redirect: wantsRedirect(options?.redirect) }
}
