// The helpers of gatehouse/v4/react that need no React: where the auth routes are (the page's basePath in the browser;
// NEXTAUTH_URL_INTERNAL / NEXTAUTH_URL on the server), and getSession, getCsrfToken, getProviders, signIn, signOut
// with next-auth 4's requests (`json: true` form posts) and answers. No "use client" here: server code
// (getServerSideProps, API routes, route handlers) calls getSession({ req }) and getCsrfToken({ req }).
import type { Session } from "../../types.js"
import { AuthError } from "../../errors.js"
import { isRecord, navigate, readJson, reportClientError } from "../../client/config.js"
import { basePathProblem, chooseDestination, httpUrl } from "../../client/url-rules.js"
import { postSessionMessage, refetchLocalSessions } from "./sync.js"
import type {
  ClientSafeProvider,
  CtxOrReq,
  GetSessionParams,
  LiteralUnion,
  RedirectableProviderType,
  RequestLike,
  SignInAuthorizationParams,
  SignInOptions,
  SignInResponse,
  SignOutParams,
  SignOutResponse,
} from "./types.js"

const DEFAULT_URL = "http://localhost:3000/api/auth"
const DEFAULT_PATH = "/api/auth"

/** next-auth 4's reading of NEXTAUTH_URL-like values: a bare host gets https://, an empty path means /api/auth. */
function parseAuthUrl(raw: string | undefined): { origin: string; path: string } {
  const text = raw === undefined || raw === "" ? DEFAULT_URL : raw.startsWith("http") ? raw : `https://${raw}`
  let url: URL
  try {
    url = new URL(text)
  } catch {
    reportClientError("NEXTAUTH_URL", new Error(`${JSON.stringify(raw)} is not a URL; using ${DEFAULT_URL}`))
    url = new URL(DEFAULT_URL)
  }
  const path = url.pathname === "/" ? DEFAULT_PATH : url.pathname
  return { origin: url.origin, path: path.replace(/\/+$/, "") }
}

/**
 * The three variables next-auth 4's client reads, each written out as `process.env.NAME` so that a bundler that
 * inlines environment variables (Next's `env` option) finds them; in a browser without `process` there are none.
 */
function readEnv(): { url?: string; internal?: string; vercel?: string } {
  return typeof process !== "undefined" && process.env
    ? { url: process.env.NEXTAUTH_URL, internal: process.env.NEXTAUTH_URL_INTERNAL, vercel: process.env.VERCEL_URL }
    : {}
}

/** The basePath a SessionProvider set for this page; undefined means NEXTAUTH_URL's path (or `/api/auth`). */
let pageBasePath: string | undefined

/** A basePath for the page's requests, checked: a path on this origin (docs/security.md CL-02), no trailing slash. */
function checkedBasePath(basePath: string, where: string): string {
  const problem = basePathProblem(basePath)
  if (problem !== undefined) {
    throw new AuthError(
      `${where}: the basePath ${JSON.stringify(basePath)} must be a path on this origin starting with a single "/" ` +
        `(e.g. "/api/auth"); ${problem}. The client only talks to the page's own origin.`,
    )
  }
  return basePath.replace(/\/+$/, "")
}

/** Sets the page's basePath (SessionProvider's `basePath` prop); throws when it is not a path on this origin. */
export function setBasePath(basePath: string): void {
  pageBasePath = checkedBasePath(basePath, "SessionProvider basePath")
}

/**
 * Where the auth routes are: in the browser a path on the page's origin (SessionProvider's basePath, else the path of
 * NEXTAUTH_URL, else `/api/auth`); on the server an absolute URL from NEXTAUTH_URL_INTERNAL, else NEXTAUTH_URL (the
 * origin also from VERCEL_URL), else `http://localhost:3000/api/auth`. Read at each call.
 */
export function apiBaseUrl(): string {
  const env = readEnv()
  if (typeof window === "undefined") {
    const origin = parseAuthUrl(env.internal ?? env.url ?? env.vercel).origin
    return `${origin}${parseAuthUrl(env.internal ?? env.url).path}`
  }
  return pageBasePath ?? checkedBasePath(parseAuthUrl(env.url).path, "NEXTAUTH_URL")
}

/** The Cookie header of a server request, to send on to the auth routes. */
function cookieOf(req: RequestLike | undefined): string | undefined {
  const headers = req?.headers
  if (!headers) return undefined
  if ("get" in headers && typeof headers.get === "function") return headers.get("cookie") ?? undefined
  const cookie = (headers as { cookie?: string | string[] }).cookie
  return Array.isArray(cookie) ? cookie.join("; ") : cookie
}

/** An answer of a GET to an auth route: the JSON object (null when empty, as next-auth 4 reads `{}`), or a failure. */
type Fetched<T> = { ok: true; value: T | null } | { ok: false }

/** GET `<apiBaseUrl>/<route>` (with the request's cookies on the server); failures are logged, never thrown. */
async function getJson<T>(route: string, params?: CtxOrReq): Promise<Fetched<T>> {
  const url = `${apiBaseUrl()}/${route}`
  const cookie = cookieOf(params?.req ?? params?.ctx?.req)
  try {
    const res = await fetch(url, {
      headers: { accept: "application/json", ...(cookie ? { cookie } : {}) },
      cache: "no-store",
    })
    const body = await readJson(res)
    if (!res.ok || !isRecord(body)) throw new Error(`unexpected answer ${res.status} from ${url}`)
    return { ok: true, value: Object.keys(body).length > 0 ? (body as T) : null }
  } catch (cause) {
    reportClientError(`GET ${route}`, cause)
    return { ok: false }
  }
}

/** The session read, telling "signed out" (null) apart from "could not ask" (the SessionProvider keeps what it shows). */
export async function readSession(params?: CtxOrReq): Promise<Fetched<Session>> {
  return getJson<Session>("session", params)
}

/**
 * The current session, or null when signed out or when the server could not be asked (logged). In the browser it
 * also tells the other tabs to refetch theirs, unless `broadcast: false`. On the server pass `{ req }` (or `{ ctx }`):
 * its cookies go with the request to NEXTAUTH_URL_INTERNAL or NEXTAUTH_URL.
 */
export async function getSession(params?: GetSessionParams): Promise<Session | null> {
  const read = await readSession(params)
  if (params?.broadcast ?? true) postSessionMessage("getSession")
  return read.ok ? read.value : null
}

/** The CSRF token the POST routes need, or undefined when it could not be fetched (logged). */
export async function getCsrfToken(params?: CtxOrReq): Promise<string | undefined> {
  const read = await getJson<{ csrfToken?: unknown }>("csrf", params)
  const token = read.ok ? read.value?.csrfToken : undefined
  return typeof token === "string" ? token : undefined
}

/** The configured providers keyed by id, or null when they could not be fetched (logged). */
export async function getProviders(): Promise<Record<
  LiteralUnion<RedirectableProviderType>,
  ClientSafeProvider
> | null> {
  const read = await getJson<Record<string, ClientSafeProvider>>("providers")
  return read.ok ? read.value : null
}

/**
 * POST `/session` with `{ csrfToken, data }` as JSON (useSession().update): the new session, or null when refused
 * (next-auth 4 answers 400 `{}` without the CSRF token) or signed out; failures are logged.
 */
export async function postSessionUpdate(data: unknown): Promise<Session | null> {
  const url = `${apiBaseUrl()}/session`
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ csrfToken: await getCsrfToken(), data }),
      cache: "no-store",
    })
    const body = await readJson(res)
    if (!res.ok || !isRecord(body)) throw new Error(`the update was refused (${res.status})`)
    return Object.keys(body).length > 0 ? (body as unknown as Session) : null
  } catch (cause) {
    reportClientError("POST session", cause)
    return null
  }
}

// Form posts carry `json=true`, next-auth 4's request for a `{ url }` answer instead of a redirect; the header asks a
// Gatehouse server without the v4 wire format for the same.
const FORM_HEADERS = { "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1" }

/** The form body of a sign-in or sign-out: the fields (`undefined` and `null` left out), then csrfToken, callbackUrl, json. */
function formBody(
  fields: Record<string, unknown>,
  csrfToken: string | undefined,
  callbackUrl: string,
): URLSearchParams {
  const body = new URLSearchParams()
  for (const [name, value] of Object.entries(fields))
    if (value !== undefined && value !== null) body.set(name, String(value))
  if (csrfToken !== undefined) body.set("csrfToken", csrfToken)
  body.set("callbackUrl", callbackUrl)
  body.set("json", "true")
  return body
}

/** POSTs a form and reads the `url` of the JSON answer (undefined when there is none, e.g. a server error). */
async function postForm(url: string, body: URLSearchParams): Promise<{ status: number; ok: boolean; url?: string }> {
  const res = await fetch(url, { method: "POST", headers: FORM_HEADERS, body, cache: "no-store" })
  const answer = await readJson(res)
  const returned = isRecord(answer) && typeof answer.url === "string" ? answer.url : undefined
  return { status: res.status, ok: res.ok, url: returned }
}

/**
 * Goes where the server said, or to `callbackUrl` when it said nothing and that is on this origin; otherwise stays
 * and logs why (a callbackUrl from a link is never followed unchecked).
 */
function leave(what: string, returned: string | undefined, callbackUrl: string, status: number): void {
  const destination = chooseDestination(returned, callbackUrl, window.location.href)
  if (destination !== undefined) navigate(destination)
  else
    reportClientError(
      what,
      new Error(`the server answered ${status} without an http(s) URL and callbackUrl is not on this origin`),
    )
}

/**
 * Signs in as next-auth 4's client does. Without a provider, or with one the server does not list, it goes to the
 * sign-in page. Credentials post to `/callback/<id>`, every other type to `/signin/<id>` (with `authorizationParams`
 * as the query), with the CSRF token, `callbackUrl` and the options' other fields. With `redirect: false` a
 * credentials or e-mail sign-in answers `{ error, status, ok, url }` and the page's SessionProviders refetch; otherwise
 * (and always for OAuth) the page goes to the returned URL.
 */
export async function signIn<P extends RedirectableProviderType | undefined = undefined>(
  provider?: LiteralUnion<P extends RedirectableProviderType ? P | RedirectableProviderType : RedirectableProviderType>,
  options?: SignInOptions,
  authorizationParams?: SignInAuthorizationParams,
): Promise<P extends RedirectableProviderType ? SignInResponse | undefined : undefined> {
  type Answer = P extends RedirectableProviderType ? SignInResponse | undefined : undefined
  const { callbackUrl = window.location.href, redirect = true } = options ?? {}
  const baseUrl = apiBaseUrl()
  const providers = await getProviders()
  if (!providers) {
    navigate(`${baseUrl}/error`)
    return undefined as Answer
  }
  const chosen = provider && Object.hasOwn(providers, provider) ? providers[provider] : undefined
  if (!chosen) {
    navigate(`${baseUrl}/signin?${new URLSearchParams({ callbackUrl })}`)
    return undefined as Answer
  }
  const isCredentials = chosen.type === "credentials"
  const answersHere = isCredentials || chosen.type === "email"
  const query = authorizationParams === undefined ? "" : new URLSearchParams(authorizationParams).toString()
  const route = `${baseUrl}/${isCredentials ? "callback" : "signin"}/${encodeURIComponent(provider as string)}`
  const csrfToken = await getCsrfToken()
  const res = await postForm(`${route}${query ? `?${query}` : ""}`, formBody(options ?? {}, csrfToken, callbackUrl))

  if (redirect || !answersHere) {
    leave(`signIn("${provider as string}")`, res.url, callbackUrl, res.status)
    return undefined as Answer
  }
  // No http(s) URL in the answer means the server failed: reported as next-auth's Configuration error.
  const parsed = res.url === undefined ? undefined : httpUrl(res.url, window.location.href)
  const error = parsed ? parsed.searchParams.get("error") : "Configuration"
  if (res.ok) await refetchLocalSessions()
  const answer: SignInResponse = { error, status: res.status, ok: res.ok, url: error ? null : (res.url ?? null) }
  return answer as Answer
}

/**
 * Signs out: POST `/signout` with the CSRF token, tells the other tabs, then goes to the returned URL, or with
 * `redirect: false` has the page's SessionProviders refetch and answers `{ url }`.
 */
export async function signOut<R extends boolean = true>(
  options?: SignOutParams<R>,
): Promise<R extends true ? undefined : SignOutResponse> {
  type Answer = R extends true ? undefined : SignOutResponse
  const callbackUrl = options?.callbackUrl ?? window.location.href
  const csrfToken = await getCsrfToken()
  const res = await postForm(`${apiBaseUrl()}/signout`, formBody({}, csrfToken, callbackUrl))
  postSessionMessage("signout")
  if (options?.redirect ?? true) {
    leave("signOut", res.url, callbackUrl, res.status)
    return undefined as Answer
  }
  await refetchLocalSessions()
  const url = res.url ?? chooseDestination(undefined, callbackUrl, window.location.href) ?? ""
  return { url } as Answer
}
