// gatehouse/qwik's server side, apart from Qwik: what the plugin's onRequest and the sign-in and sign-out actions run.
// index.ts wraps these in Qwik City's actions and loader; they take the few parts of a request event they use, so
// they run (and are tested) without Qwik's optimizer or Qwik City's route plan.
import { utf8 } from "#crypto"
import { isAuthAction } from "../../actions/table.js"
import { serializeCookie } from "../../cookies/policy.js"
import { readEnv } from "../../lib/env.js"
import { handle } from "../../pipeline.js"
import type { ResolvedConfig } from "../../pipeline-types.js"
import { resolveOrigin } from "../../request/host.js"
import { type ArrivalOrigin, type RequestInput, webInput } from "../../request/input.js"
import { renderResponse } from "../../response/build.js"
import type { AuthConfig, Cookie, ResponseInternal, Session } from "../../types.js"
import { deriveFrontDoorConfig, type FrontDoor, PerConfig } from "../front-door.js"
import { resolveConfig } from "../../config/resolve.js"
import { readServerSession, resolvedOrThrow } from "../session-read.js"
import { merged } from "../../lib/merged.js"

/** The config `QwikAuth$` takes: Gatehouse's, without the `raw` marker; `basePath` is always `/auth`. */
export interface QwikAuthConfig extends Omit<AuthConfig, "raw"> {}

/** @auth/qwik's fixed basePath: the plugin answers every auth route under it. */
const BASE_PATH = "/auth"

/** What the front door uses of Qwik City's request event (a structural subset of RequestEventCommon). */
export interface QwikEvent {
  readonly request: Request
  readonly url: URL
  readonly env: { get(name: string): string | undefined }
  readonly sharedMap: Map<string, unknown>
  /** The response headers Qwik City sends (its Node.js adapter keeps one Set-Cookie of them: cookies go to `cookie`). */
  readonly headers: Headers
  /** Qwik City's cookie jar: each appended cookie becomes a Set-Cookie header of its own. */
  readonly cookie: { append(name: string, value: string, options: QwikCookieOptions): void }
  send(response: Response): unknown
  redirect(status: number, url: string): unknown
}

/** Variables as @auth/qwik reads them: Qwik's `env.get` (the platform's bindings where there are some), else process.env. */
function qwikEnv(event: QwikEvent): FrontDoor["env"] {
  return (name) => event.env.get(name) || readEnv(name)
}

const derived = new PerConfig<ResolvedConfig>(1)

/**
 * The resolved config of a user config object, derived once: basePath `/auth` imposed, the secrets, redirect proxy
 * URL, trust rule and the providers' AUTH_<ID>_* from the environment, as @auth/qwik's setEnvDefaults fills them. The
 * CSRF check stays on (@auth/qwik turns it off). Return the same object from the `QwikAuth$` function to resolve once.
 */
function resolvedFor(config: QwikAuthConfig, event: QwikEvent): ResolvedConfig {
  return derived.get(config, "qwik", () => resolveConfig(qwikConfig(config, qwikEnv(event))))
}

/** The derived (unresolved) config: what `setEnvDefaults` writes back for apps that call it themselves. */
export function qwikConfig(config: QwikAuthConfig, env: FrontDoor["env"]): AuthConfig {
  return deriveFrontDoorConfig<AuthConfig>(config, {
    env,
    defaultBasePath: BASE_PATH,
    basePath: BASE_PATH,
    fillProviders: true,
  })
}

/** Whether the plugin answers this path itself: an auth action under /auth, as @auth/qwik decides. */
function isAuthRoute(pathname: string): boolean {
  if (!pathname.startsWith(`${BASE_PATH}/`)) return false
  const action = pathname.slice(BASE_PATH.length + 1).split("/")[0] ?? ""
  return isAuthAction(action)
}

function arrivalOf(url: URL): ArrivalOrigin {
  return { protocol: url.protocol, host: url.host, origin: url.origin }
}

/** The attributes Qwik City's cookie jar writes. */
export interface QwikCookieOptions {
  domain?: string
  maxAge?: number
  expires?: Date
  path?: string
  httpOnly?: boolean
  secure?: boolean
  sameSite?: "strict" | "lax" | "none"
}

/** A Set-Cookie value (as serializeCookie writes it) back as a cookie whose value is already encoded. */
function parseSetCookie(header: string): Cookie {
  const [pair = "", ...attributes] = header.split("; ")
  const eq = pair.indexOf("=")
  const options: Cookie["options"] = {}
  for (const attribute of attributes) {
    const [key = "", value = ""] = attribute.split("=")
    const name = key.toLowerCase()
    if (name === "max-age") options.maxAge = Number(value)
    else if (name === "domain") options.domain = value
    else if (name === "path") options.path = value
    else if (name === "expires") options.expires = new Date(value)
    else if (name === "httponly") options.httpOnly = true
    else if (name === "secure") options.secure = true
    else if (name === "samesite") options.sameSite = value.toLowerCase() as "lax" | "strict" | "none"
  }
  return { name: pair.slice(0, eq), value: pair.slice(eq + 1), options }
}

/**
 * Hands the answer's cookies to Qwik City's jar, which writes one Set-Cookie header each (its Node.js adapter sets
 * response headers one value per name, so two Set-Cookie headers would leave only the last). The value goes as it
 * would be sent (encoded once, here); Max-Age is written, so Expires is left to it, as Qwik writes only one of them.
 */
function appendCookies(event: QwikEvent, cookies: readonly Cookie[]): void {
  for (const cookie of cookies) {
    const pair = serializeCookie(cookie).split(";")[0]!
    appendEncoded(event, merged(cookie, { value: pair.slice(cookie.name.length + 1) }))
  }
}

/** One cookie whose value is already encoded as it is sent. */
function appendEncoded(event: QwikEvent, cookie: Cookie): void {
  const { options } = cookie
  const sameSite = options.sameSite === true ? "strict" : options.sameSite === false ? undefined : options.sameSite
  const out: QwikCookieOptions = {}
  if (options.domain) out.domain = options.domain
  if (options.maxAge !== undefined) out.maxAge = Math.floor(options.maxAge)
  else if (options.expires) out.expires = options.expires
  if (options.path) out.path = options.path
  if (options.httpOnly) out.httpOnly = true
  if (options.secure) out.secure = true
  if (sameSite) out.sameSite = sameSite
  event.cookie.append(cookie.name, cookie.value, out)
}

/**
 * The plugin's onRequest: an auth route runs the one pipeline (CSRF check on) and its answer is sent; any other
 * request gets its session read from the Cookie header into `sharedMap.get("session")` (null when signed out), with
 * a re-issued or cleared cookie added to the page's response.
 */
export async function onRequestFor(config: QwikAuthConfig, event: QwikEvent): Promise<void> {
  const resolved = resolvedFor(config, event)
  if (isAuthRoute(event.url.pathname)) {
    const request = event.request
    const answer = await handle(webInput(request), resolved)
    const rendered = renderResponse(
      merged(answer, { cookies: [] }),
      request.headers.get("x-auth-return-redirect") !== null,
    )
    // Qwik City keeps one Set-Cookie per name when it takes them off a sent Response: they go to its jar instead.
    appendCookies(event, answer.cookies ?? [])
    const body = request.method === "HEAD" ? null : rendered.body
    throw event.send(new Response(body, { status: rendered.status, headers: rendered.headers }))
  }
  // A broken config throws here (logged once, its message naming the fix); the auth routes answer its error page.
  const read = await readServerSession(
    { url: arrivalOf(event.url), header: event.request.headers, headers: () => event.request.headers },
    resolvedOrThrow(resolved),
  )
  event.sharedMap.set("session", read.session)
  for (const header of read.setCookies) appendEncoded(event, parseSetCookie(header))
}

/** The session the plugin's onRequest read for this request (what `useSession` returns). */
export function sessionOf(event: Pick<QwikEvent, "sharedMap">): Session | null {
  return (event.sharedMap.get("session") as Session | null | undefined) ?? null
}

/** The fields `useSignIn` takes (its zod schema is in index.ts). */
export interface SignInInput {
  providerId?: string | undefined
  redirectTo?: string | undefined
  options?: ({ redirectTo?: string | undefined } & Record<string, unknown>) | undefined
  authorizationParams?: string | Record<string, string> | URLSearchParams | undefined
}

/** Where an action lands by default: the page it was posted from, without Qwik's action parameter. */
function currentPage(event: QwikEvent): string {
  const url = new URL(event.url)
  url.searchParams.delete("qaction")
  return url.href
}

/** The Cookie header of the request with `cookies` set over it, as the browser would send it next (pairs kept as sent). */
function withCookies(header: string, cookies: readonly Cookie[]): string {
  const jar = new Map<string, string>()
  for (const pair of header.split(";")) {
    const trimmed = pair.trim()
    const eq = trimmed.indexOf("=")
    if (eq > 0) jar.set(trimmed.slice(0, eq), trimmed)
  }
  for (const cookie of cookies) jar.set(cookie.name, serializeCookie(cookie).split(";")[0]!)
  return [...jar.values()].join("; ")
}

/** One request through the pipeline in-process, with the event's headers and `cookie` as its Cookie header. */
function inProcess(event: QwikEvent, method: string, url: string, cookie: string, body?: string): RequestInput {
  const bytes = body === undefined ? undefined : utf8(body)
  const all = new Headers(event.request.headers)
  all.set("cookie", cookie)
  all.delete("content-length")
  all.delete("x-auth-return-redirect")
  if (bytes) all.set("content-type", "application/x-www-form-urlencoded")
  else all.delete("content-type")
  return {
    method,
    url: new URL(url),
    header: all,
    headers() {
      return all
    },
    readBody: async (limit) => (bytes === undefined ? new Uint8Array() : bytes.byteLength > limit ? undefined : bytes),
  }
}

/**
 * POSTs a form to an auth route in-process, carrying a CSRF token as a browser form would: GET /csrf first (the
 * visitor's CSRF cookie, or a fresh pair), then the POST with that token and cookie. The route's own CSRF check runs;
 * nothing here turns it off. The action itself is guarded by Qwik City's origin check on the page it is posted to.
 */
async function postWithCsrf(
  event: QwikEvent,
  resolved: ResolvedConfig,
  path: string,
  form: URLSearchParams,
): Promise<ResponseInternal> {
  const { origin } = resolveOrigin(arrivalOf(event.url), event.request.headers, resolved)
  const base = `${origin}${resolved.basePath}`
  let cookie = event.request.headers.get("cookie") ?? ""
  const csrf = await handle(inProcess(event, "GET", `${base}/csrf`, cookie), resolved)
  const token = (csrf.body as { csrfToken?: unknown } | undefined)?.csrfToken
  const issued = csrf.cookies ?? []
  cookie = withCookies(cookie, issued)
  if (typeof token === "string") form.set("csrfToken", token)
  const answer = await handle(inProcess(event, "POST", `${base}${path}`, cookie, form.toString()), resolved)
  appendCookies(event, [...issued, ...(answer.cookies ?? [])])
  return answer
}

/**
 * A URL on the request's own origin as a path: Qwik City follows only path redirects from an action that a `<Form>`
 * submitted with fetch. Other URLs (the provider's, a canonical AUTH_URL origin) stay as they are.
 */
function onOwnOrigin(target: string, event: QwikEvent): string {
  try {
    const url = new URL(target)
    if (url.origin === event.url.origin) return `${url.pathname}${url.search}${url.hash}`
  } catch {
    // not an absolute URL: already a path
  }
  return target
}

/** Where the pipeline sent the browser: its redirect, or the URL of a JSON `{ url }` answer. */
function targetOf(answer: ResponseInternal, event: QwikEvent): string | undefined {
  const body = answer.body as { url?: unknown } | undefined
  const target = answer.redirect ?? (typeof body?.url === "string" ? body.url : undefined)
  return target === undefined ? undefined : onOwnOrigin(target, event)
}

/**
 * `useSignIn`: credentials post to the callback (signing in at once), other providers to /signin (the browser is
 * sent to the provider); without a known provider, to the sign-in page. `options.redirectTo` (else `redirectTo`,
 * else the current page) is the callbackUrl; the other `options` fields are the form's fields. Redirects (302).
 */
export async function signInFor(config: QwikAuthConfig, input: SignInInput, event: QwikEvent): Promise<void> {
  const resolved = resolvedOrThrow(resolvedFor(config, event))
  const { redirectTo = input.redirectTo ?? currentPage(event), ...rest } = input.options ?? {}
  const form = new URLSearchParams({ callbackUrl: String(redirectTo) })
  for (const [key, value] of Object.entries(rest)) form.set(key, String(value))
  const query = new URLSearchParams(input.authorizationParams).toString()
  const provider = input.providerId === undefined ? undefined : resolved.providers.get(input.providerId)
  if (provider === undefined || input.providerId === undefined) {
    const { origin } = resolveOrigin(arrivalOf(event.url), event.request.headers, resolved)
    const page = `${origin}${resolved.basePath}/signin?${new URLSearchParams({ callbackUrl: String(redirectTo) })}`
    throw event.redirect(302, onOwnOrigin(page, event))
  }
  const step = resolved.kindOf(provider).formAction
  const path = `/${step}/${encodeURIComponent(input.providerId)}${query ? `?${query}` : ""}`
  const answer = await postWithCsrf(event, resolved, path, form)
  const target = targetOf(answer, event)
  if (target !== undefined) throw event.redirect(302, target)
}

/** `useSignOut`: revokes the session and clears its cookie, then redirects (302) to `redirectTo`, else the current page. */
export async function signOutFor(
  config: QwikAuthConfig,
  input: { redirectTo?: string | undefined },
  event: QwikEvent,
): Promise<void> {
  const resolved = resolvedOrThrow(resolvedFor(config, event))
  const form = new URLSearchParams({ callbackUrl: input.redirectTo ?? currentPage(event) })
  const answer = await postWithCsrf(event, resolved, "/signout", form)
  const target = targetOf(answer, event)
  if (target !== undefined) throw event.redirect(302, target)
}
