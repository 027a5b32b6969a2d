// Public `gatehouse/client`: the browser helpers of next-auth/react without React (sign-in, sign-out, session read
// and update), on fetch only; each change is told to this page's SessionProviders and to the other tabs.
import type { ProviderType } from "../records.js"
import type { Session } from "../types.js"
import { webAuthnSignIn } from "../webauthn/sign-in.js"
import { signInStart } from "./sign-in-start.js"
import { authUrl, isRecord, navigate, omitsCsrfToken, readJson, reportClientError } from "./config.js"
import { broadcast, notifyLocal } from "./events.js"
import { fetchSession, sessionFromBody } from "./fetch-session.js"
import { chooseDestination, httpUrl } from "./url-rules.js"

export type { Session } from "../types.js"
export { clientConfig, configure } from "./config.js"
export type { ClientConfig } from "./config.js"
export { SESSION_CHANNEL, subscribe } from "./events.js"
export type { SessionChange, SessionListener, SessionTrigger } from "./events.js"

// The provider types `/providers` lists (declared once, in records.ts).
export type { ProviderType }

/** One provider as `/providers` describes it to a browser (no secrets). */
export interface ClientSafeProvider {
  id: string
  name: string
  type: ProviderType
  signinUrl: string
  callbackUrl: string
}

/** Options of `signIn`: where to go after, whether to navigate, and the provider's fields (username, email, ...). */
export type SignInOptions<Redirect extends boolean = true> = Record<string, unknown> & {
  /** Where the user lands after signing in; default: the current page. */
  redirectTo?: string
  /** @deprecated Use `redirectTo` (kept for next-auth v4 code). */
  callbackUrl?: string
  /** `false` answers a SignInResponse instead of navigating (default true). */
  redirect?: Redirect
}

/** Extra parameters for the provider's authorization request (OAuth), sent as the query string. */
export type SignInAuthorizationParams = string | string[][] | Record<string, string> | URLSearchParams

/** What `signIn(..., { redirect: false })` answers. `error` and `code` come from the returned URL's query. */
export interface SignInResponse {
  /** The error type (e.g. `CredentialsSignin`), undefined on success. */
  error: string | undefined
  /** The provider's error code (`credentials` for a failed credentials sign-in, or the code `authorize` threw). */
  code: string | undefined
  /** The HTTP status of the sign-in request (200 also for a refused sign-in, as Auth.js answers). */
  status: number
  /** True when the sign-in succeeded: the request succeeded and the answer names no error. */
  ok: boolean
  /** Where the server would send the user; null on error. */
  url: string | null
}

/** Options of `signOut`. */
export interface SignOutParams<Redirect extends boolean = true> {
  /** Where the user lands after signing out; default: the current page. */
  redirectTo?: string
  /** @deprecated Use `redirectTo` (kept for next-auth v4 code). */
  callbackUrl?: string
  /** `false` answers `{ url }` instead of navigating (default true). */
  redirect?: Redirect
}

/** What `signOut({ redirect: false })` answers: where the server would send the user. */
export interface SignOutResponse {
  /**
   * The server's URL; when it gave none (a failed request), `redirectTo` if it is an http(s) URL on this origin;
   * otherwise null (logged), never an unchecked target.
   */
  url: string | null
}

/** Options of `getSession`. */
export interface GetSessionParams {
  /** Also tell the other tabs to refetch (default false; this page's SessionProviders always get the result). */
  broadcast?: boolean
}

const FORM_HEADERS = { "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1" }

/**
 * The current session, or null when signed out or when the server could not be asked (the failure is logged).
 * This page's SessionProviders take the result, so `useSession` shows it too. `T` is the session type, e.g.
 * `getSession<InferSession<typeof config>>()` with the server config imported as a type only (`import type`); it is
 * not checked at run time.
 */
export async function getSession<T = Session>(params?: GetSessionParams): Promise<T | null> {
  const read = await fetchSession()
  if (!read.ok) return null
  await notifyLocal("getSession", read.session)
  if (params?.broadcast === true) broadcast("getSession")
  return read.session as T | null
}

/** The CSRF token the POST routes need (double-submit cookie); "" when it could not be fetched. */
export async function getCsrfToken(): Promise<string> {
  try {
    const res = await fetch(authUrl("csrf"), {
      headers: { accept: "application/json" },
      credentials: "same-origin",
      cache: "no-store",
    })
    const body = await readJson(res)
    if (res.ok && isRecord(body) && typeof body.csrfToken === "string") return body.csrfToken
    reportClientError("GET csrf", new Error(`unexpected answer ${res.status} from ${authUrl("csrf")}`))
  } catch (cause) {
    reportClientError("GET csrf", cause)
  }
  return ""
}

/** The configured providers keyed by id, or null when they could not be fetched. */
export async function getProviders(): Promise<Record<string, ClientSafeProvider> | null> {
  try {
    const res = await fetch(authUrl("providers"), {
      headers: { accept: "application/json" },
      credentials: "same-origin",
    })
    const body = await readJson(res)
    if (res.ok && isRecord(body)) return body as Record<string, ClientSafeProvider>
    reportClientError("GET providers", new Error(`unexpected answer ${res.status} from ${authUrl("providers")}`))
  } catch (cause) {
    reportClientError("GET providers", cause)
  }
  return null
}

/** The sign-in options that are form fields (`username`, `email`, …), as strings; `undefined` and `null` are left out. */
function formFields(fields: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(fields))
    if (value !== undefined && value !== null) out[name] = String(value)
  return out
}

function returnedUrl(body: unknown): string | undefined {
  return isRecord(body) && typeof body.url === "string" ? body.url : undefined
}

/**
 * Signs in. Without a provider (or with an unknown one) it goes to the sign-in page. OAuth/OIDC and e-mail POST to
 * `/signin/<id>`, credentials to `/callback/<id>`, with the CSRF token and `options`' other fields; WebAuthn runs the
 * passkey ceremony (options `action`, `conditional`, `signal`; see gatehouse/webauthn) and posts to `/callback/<id>`.
 * Then it navigates to the returned URL, or with `redirect: false` answers a SignInResponse.
 */
export async function signIn(
  provider?: string,
  options?: SignInOptions<true>,
  authorizationParams?: SignInAuthorizationParams,
): Promise<void>
export async function signIn(
  provider: string | undefined,
  options: SignInOptions<false>,
  authorizationParams?: SignInAuthorizationParams,
): Promise<SignInResponse>
export async function signIn(
  provider?: string,
  options?: SignInOptions<boolean>,
  authorizationParams?: SignInAuthorizationParams,
): Promise<SignInResponse | void>
export async function signIn(
  provider?: string,
  options?: SignInOptions<boolean>,
  authorizationParams?: SignInAuthorizationParams,
): Promise<SignInResponse | void> {
  const { redirect = true, redirectTo, callbackUrl, ...fields } = options ?? {}
  const target = redirectTo ?? callbackUrl ?? window.location.href
  const csrfToken = omitsCsrfToken(options) ? undefined : getCsrfToken
  const providers = await getProviders()
  if (!providers) {
    navigate(authUrl("error"))
    return undefined
  }
  const chosen = provider !== undefined && Object.hasOwn(providers, provider) ? providers[provider] : undefined
  if (!chosen) {
    navigate(`${authUrl("signin")}?${new URLSearchParams({ callbackUrl: target })}`)
    return undefined
  }
  // Credentials and WebAuthn sign-ins set the session in this answer; OAuth and e-mail finish on a later page.
  const start = signInStart(chosen.type)
  const setsSession = start !== "signin"
  let status: number
  let url: string | undefined
  if (start === "ceremony") {
    const { action, conditional, signal, ...rest } = fields
    const attempt = await webAuthnSignIn(chosen.id, {
      fields: formFields(rest),
      action: action === "register" || action === "authenticate" ? action : undefined,
      conditional: conditional === true,
      signal: signal instanceof AbortSignal ? signal : undefined,
      callbackUrl: target,
      csrfToken,
    })
    if (!attempt.posted) {
      // Nothing was sent (the user cancelled, or the server gave no options): stay on the page. With redirect the
      // log is the only trace; with redirect: false the caller gets the error.
      if (redirect && attempt.code !== "AbortError")
        reportClientError(
          `signIn("${chosen.id}")`,
          attempt.cause ?? new Error(`${attempt.error}: ${attempt.code ?? attempt.status}`),
        )
      return redirect
        ? undefined
        : { error: attempt.error, code: attempt.code, status: attempt.status, ok: false, url: null }
    }
    status = attempt.status
    url = returnedUrl(attempt.body)
  } else {
    const body = new URLSearchParams(formFields(fields))
    if (csrfToken) body.set("csrfToken", await csrfToken())
    body.set("callbackUrl", target)
    const query = new URLSearchParams(authorizationParams).toString()
    const route = `${start}/${encodeURIComponent(chosen.id)}`
    const res = await fetch(`${authUrl(route)}${query ? `?${query}` : ""}`, {
      method: "POST",
      headers: FORM_HEADERS,
      body,
      credentials: "same-origin",
    })
    status = res.status
    url = returnedUrl(await readJson(res))
  }
  // No http(s) URL in the answer means the server failed (Auth.js names that case Configuration), e.g. a 413 for a
  // body over the limit; a URL of another scheme is never taken, from the server either.
  const parsed = url === undefined ? undefined : httpUrl(url, window.location.href)
  const error = parsed ? (parsed.searchParams.get("error") ?? undefined) : "Configuration"
  const code = parsed?.searchParams.get("code") ?? undefined
  const ok = status >= 200 && status < 300 && error === undefined
  if (ok && setsSession) broadcast("signin")
  if (redirect) {
    goOrStay(`signIn("${chosen.id}")`, parsed?.href, target, status)
    return undefined
  }
  if (ok && setsSession) await notifyLocal("signin")
  return { error, code, status, ok, url: error === undefined ? (parsed?.href ?? null) : null }
}

/**
 * After a sign-in or sign-out: goes to the server's URL, else to `target` if it is on this origin (the server
 * never checked it), else stays on the page and logs why.
 */
function goOrStay(what: string, returned: string | undefined, target: string, status: number): void {
  const destination = chooseDestination(returned, target, window.location.href)
  if (destination !== undefined) {
    navigate(destination)
    return
  }
  reportClientError(
    what,
    noDestination(status, "so the page stays (a redirectTo from a link is never followed unchecked)"),
  )
}

function noDestination(status: number, outcome: string): Error {
  return new Error(
    `the server answered ${status} without an http(s) URL, and redirectTo is not a same-origin http(s) URL, ${outcome}`,
  )
}

/**
 * Signs out: POST `/signout` with the CSRF token, tells the other tabs, then navigates to the returned URL, or with
 * `redirect: false` refreshes this page's SessionProviders and answers `{ url }`.
 */
export async function signOut(options?: SignOutParams<true>): Promise<void>
export async function signOut(options: SignOutParams<false>): Promise<SignOutResponse>
export async function signOut(options?: SignOutParams<boolean>): Promise<SignOutResponse | void>
export async function signOut(options?: SignOutParams<boolean>): Promise<SignOutResponse | void> {
  const { redirect = true, redirectTo, callbackUrl } = options ?? {}
  const target = redirectTo ?? callbackUrl ?? window.location.href
  const body = new URLSearchParams(omitsCsrfToken(options) ? {} : { csrfToken: await getCsrfToken() })
  body.set("callbackUrl", target)
  const res = await fetch(authUrl("signout"), {
    method: "POST",
    headers: FORM_HEADERS,
    body,
    credentials: "same-origin",
  })
  const returned = returnedUrl(await readJson(res))
  broadcast("signout")
  if (redirect) {
    goOrStay("signOut", returned, target, res.status)
    return undefined
  }
  await notifyLocal("signout")
  const url = chooseDestination(returned, target, window.location.href) ?? null
  if (url === null) reportClientError("signOut", noDestination(res.status, "so url is null"))
  return { url }
}

/**
 * Updates the session: POST `/session` with `{ csrfToken, data }`, which reaches the jwt callback as
 * `trigger: "update"` (database strategy: the session callback's `newSession`). Answers the new session, or null
 * when signed out or refused (logged); this page's SessionProviders take it and the other tabs refetch.
 */
export async function update(data?: unknown): Promise<Session | null> {
  const csrfToken = await getCsrfToken()
  let res: Response
  try {
    res = await fetch(authUrl("session"), {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ csrfToken, data }),
      credentials: "same-origin",
    })
  } catch (cause) {
    reportClientError("POST session", cause)
    return null
  }
  const session = sessionFromBody(await readJson(res))
  if (!res.ok || session === undefined) {
    reportClientError("POST session", new Error(`the update was refused (${res.status})`))
    return null
  }
  broadcast("update")
  await notifyLocal("update", session)
  return session
}
