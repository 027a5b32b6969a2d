// Server-action signIn, signOut and unstable_update (next-auth v5): each runs the one pipeline in-process with the
// current request's headers and cookies, writes the answer's cookies through next/headers, then redirects or returns.
import { utf8 } from "#crypto"
import { handle } from "../../pipeline.js"
import type { RequestInput } from "../../request/input.js"
import { resolveOrigin } from "../../request/host.js"
import type { Session } from "../../types.js"
import { readServerSession, type SessionSource } from "../session-read.js"
import { type DerivedConfig, resolvedFor } from "./config.js"
import { currentRequestSource, nextNavigation, setCookies, setSerializedCookies } from "./runtime.js"

/** Options of a server-action sign-in: where to land afterwards, whether to redirect, and provider fields (credentials). */
export type SignInOptions = FormData | ({ redirectTo?: string; redirect?: boolean } & Record<string, unknown>)

/** Options of a server-action sign-out. */
export interface SignOutOptions {
  /** Where to land after signing out; default: the Referer, else "/". */
  redirectTo?: string
  /** false: return `{ redirect }` instead of redirecting. */
  redirect?: boolean
}

/** Extra parameters for the OAuth authorization request, in any form URLSearchParams accepts. */
export type AuthorizationParams = string | string[][] | Record<string, string> | URLSearchParams

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

/** Runs one POST through the pipeline in-process (raw mode: AuthErrors are thrown to the server action). */
async function post(source: SessionSource, derived: DerivedConfig, url: string, body: string, contentType: string) {
  const resolved = resolvedFor(derived.actionConfig)
  const bytes = utf8(body)
  const input: RequestInput = {
    method: "POST",
    url: new URL(url),
    ...actionHeaders(source, contentType),
    readBody: async (limit) => (bytes.byteLength > limit ? undefined : bytes),
  }
  const answer = await handle(input, resolved)
  if (answer.cookies?.length) await setCookies(answer.cookies)
  return answer
}

/** The canonical origin and basePath URL of the current request (AUTH_URL, trusted forwarded headers, or Host). */
function actionUrl(source: SessionSource, derived: DerivedConfig, action: string): string {
  const resolved = resolvedFor(derived.actionConfig)
  const { origin } = resolveOrigin(source.url, source.header, resolved)
  return `${origin}${resolved.basePath}/${action}`
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
  const source = await currentRequestSource()
  const { redirect = true, redirectTo, ...rest } = optionsRecord(options)
  const shouldRedirect = redirect !== false && redirect !== "false"
  const callbackUrl = redirectTo !== undefined ? fieldString(redirectTo) : (source.header.get("referer") ?? "/")
  const signInUrl = actionUrl(source, derived, "signin")
  const resolved = resolvedFor(derived.actionConfig)
  const found = provider === undefined ? undefined : resolved.providers.get(provider)
  if (provider === undefined || found === undefined) {
    return finish(`${signInUrl}?${new URLSearchParams({ callbackUrl })}`, shouldRedirect)
  }
  const query = new URLSearchParams(authorizationParams).toString()
  // Where the provider's kind takes a form POST (credentials: the callback, which signs in; the rest: /signin).
  const action = resolved.kindOf(found).formAction
  const url = `${actionUrl(source, derived, action)}/${encodeURIComponent(provider)}${query ? `?${query}` : ""}`
  const form = new URLSearchParams()
  for (const [key, value] of Object.entries(rest)) form.set(key, fieldString(value))
  form.set("callbackUrl", callbackUrl)
  const answer = await post(source, derived, url, form.toString(), "application/x-www-form-urlencoded")
  return finish(answer.redirect ?? answer.headers?.Location ?? url, shouldRedirect)
}

/** Signs out from a server action: the session is revoked and its cookie cleared; redirects unless `redirect: false`. */
export async function signOutAction(derived: DerivedConfig, options?: SignOutOptions): Promise<{ redirect: string }> {
  const source = await currentRequestSource()
  const callbackUrl = options?.redirectTo ?? source.header.get("referer") ?? "/"
  const url = actionUrl(source, derived, "signout")
  const answer = await post(
    source,
    derived,
    url,
    new URLSearchParams({ callbackUrl }).toString(),
    "application/x-www-form-urlencoded",
  )
  const target = answer.redirect ?? answer.headers?.Location ?? callbackUrl
  await finish(target, options?.redirect ?? true)
  return { redirect: target }
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
